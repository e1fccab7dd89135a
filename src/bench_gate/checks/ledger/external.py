"""External artifact manifests: a run whose artifact is kept in a CI archive, checked for
everything that can be checked without the archive (slices, receipts, recorded commands,
digests, dates), held to its declared gate, and said to rest on the archive.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from fractions import Fraction
from typing import Any

from bench_gate.records import field, record
from bench_gate.checks.base import (
    described,
    kind,
    FORBID,
    MISSING,
    Context,
    failed,
    join,
    jsonable,
    passed,
    resolve,
    same,
    show,
    skipped,
    type_name,
)
from bench_gate.checks.ledger.recorded import gate_command_problems, verification_command_problems
from bench_gate.checks.generic.fields import placeholder_digest
from bench_gate.checks.generic.urls import url_problem
from bench_gate.text.digests import is_sha256_hex
from bench_gate.text.isotime import instant_or_none
from bench_gate.checks.ledger.access import citable_entries, evidence, label, loaded, loaded_doc, profile_problem
from bench_gate.models import Doc, Finding, exact_number


# --- ledger_external ---------------------------------------------------------------------


@record
class ExternalParams:
    __pydantic_config__ = FORBID
    providers: list[str] = field(default_factory=lambda: ["github-actions"])
    required: list[str] = field(default_factory=lambda: [
        "provider", "repo", "run_id", "run_url", "job_name", "artifact_name", "artifact_path", "sha256",
        "size_bytes", "archive_size_bytes", "expires_at", "verified_at", "verification_command",
        "verification_receipt", "gate_profile", "gate_command", "gate_passed", "gate_receipt"])
    sizes: list[str] = field(default_factory=lambda: ["size_bytes", "archive_size_bytes"])
    external_profiles: list[str] = field(default_factory=list)
    question_type_counts: dict[str, dict[str, int]] = field(default_factory=dict)
    slices: str = "/per_type"
    tolerance: str = "1e-9"

    def __post_init__(self) -> None:
        for digest, counts in self.question_type_counts.items():
            if not counts or any(n <= 0 for n in counts.values()):
                raise ValueError(f"question_type_counts[{digest}] must map question types to positive counts")
        try:
            Fraction(self.tolerance)
        except (ValueError, ZeroDivisionError):
            raise ValueError("tolerance must be a decimal number") from None


METRIC_LIKE = re.compile(r"(?i)(@|recall|ndcg|hit|accuracy|precision|mrr|score|f1)")
"""A summary value whose name says it is a quality metric: what docs would cite."""

_CLAUSE = re.compile(r"^\s*(\S+)\s+(-?\d+(?:\.\d+)?)\s*(>=|<=|>|<)\s*(-?\d+(?:\.\d+)?)\s*$")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_OPS = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, "<": lambda a, b: a < b}


def _written_unit(text: str) -> Fraction:
    """Half a unit of the last digit written: ``0.9696`` stands for 0.96955..0.96965."""
    places = len(text.split(".", 1)[1]) if "." in text else 0
    return Fraction(1, 2 * 10 ** places)


def check_gate_receipt(text: Any, overall: Any, limits: list[list[Any]] | None = None,
                       profile: str = "its gate") -> list[str]:
    """Problems of a recorded gate receipt (``Gate passed; recall@5 0.9696 >= 0.7500; ...``):
    every clause is ``METRIC VALUE OP THRESHOLD``, VALUE is the summary's value at the precision
    written, and the comparison holds for the summary's value. With ``limits`` (``[metric, op,
    limit]``, the profile's thresholds on ``overall``) the receipt records each of them, at least
    as strictly: a receipt of ``recall@5 >= 0.1`` is not a receipt of a gate whose minimum is
    0.75."""
    if not isinstance(text, str) or not text.strip():
        return [f"gate_receipt is {show(text)}; it records what the gate run checked"]
    clauses = [c for c in text.split(";")]
    problems: list[str] = []
    if clauses[0].strip() != "Gate passed":
        problems.append(f"gate_receipt starts with {show(clauses[0].strip())}, not \"Gate passed\"")
    seen = 0
    recorded: dict[str, list[tuple[str, Fraction]]] = {}
    for clause in clauses[1:]:
        m = _CLAUSE.match(clause)
        if m is None:
            if _NUMBER.search(clause) or clause.strip():
                problems.append(f"gate_receipt clause {show(clause.strip())} is not METRIC VALUE >= THRESHOLD: its "
                                "numbers cannot be checked against the summary")
            continue
        seen += 1
        metric, written, op, limit = m.groups()
        claimed = exact_number(overall.get(metric)) if isinstance(overall, dict) else None
        if claimed is None:
            problems.append(f"gate_receipt checks {metric} {written}, but the summary has no numeric overall {metric}")
            continue
        if abs(claimed - Fraction(written)) > _written_unit(written):
            problems.append(f"gate_receipt says {metric} {written}, but the summary's overall {metric} is "
                            f"{show(overall[metric])}")
        if not _OPS[op](claimed, Fraction(limit)):
            problems.append(f"gate_receipt says {metric} {written} {op} {limit}, but the summary's {show(overall[metric])} "
                            f"is not {op} {limit}")
        recorded.setdefault(metric, []).append((op, Fraction(limit)))
    if not seen and not problems:
        problems.append("gate_receipt names no metric it checked")
    for metric, op, limit in limits or []:
        bound = exact_number(limit)
        if bound is None:
            continue
        # ">" / ">=" records a minimum, "<" / "<=" a maximum; at least as strict as the profile's holds
        if any(o[0] == op[0] and (v >= bound if op == ">=" else v <= bound) for o, v in recorded.get(metric, [])):
            continue
        if recorded.get(metric):
            shown = ", ".join(f"{o} {float(v):g}" for o, v in recorded[metric])
            problems.append(f"gate_receipt checks {metric} {shown}, weaker than {profile}'s {op} {show(limit)}: the "
                            f"receipt is not of a gate run of {profile}")
        else:
            problems.append(f"gate_receipt does not record {profile}'s threshold {metric} {op} {show(limit)}: the "
                            f"receipt is not of a gate run of {profile}")
    return problems


def check_verification_receipt(text: Any, ext: dict[str, Any]) -> list[str]:
    """The hashes, sizes and dates a verification receipt records are the manifest's own."""
    if not isinstance(text, str):
        return []
    problems: list[str] = []
    hashes = set(re.findall(r"\b[0-9a-fA-F]{64}\b", text))
    if ext.get("sha256") not in hashes:
        problems.append(f"verification_receipt does not record the sha256 {show(ext.get('sha256'))}")
    for other in sorted(hashes - {ext.get("sha256")}):
        problems.append(f"verification_receipt records sha256 {other}, not the manifest's {show(ext.get('sha256'))}")
    for m in re.finditer(r"(?i)\b(archive size|size)\s+(\d+)\s*bytes", text):
        key = "archive_size_bytes" if m.group(1).lower().startswith("archive") else "size_bytes"
        if not same(int(m.group(2)), ext.get(key)):
            problems.append(f"verification_receipt records {m.group(1)} {m.group(2)} bytes, but {key} is "
                            f"{show(ext.get(key))}")
    for m in re.finditer(r"\d{4}-\d{2}-\d{2}T[0-9:.]+(?:Z|[+-]\d{2}:\d{2})", text):
        when = instant_or_none(m.group(0))
        if when is None or when not in (instant_or_none(ext.get("expires_at")), instant_or_none(ext.get("verified_at"))):
            problems.append(f"verification_receipt records the time {m.group(0)}, which is neither expires_at nor "
                            "verified_at")
    return problems


def check_slices(doc: dict[str, Any], p: ExternalParams) -> list[tuple[str, str]]:
    """(pointer, problem) where the overall figures do not follow from the per-type slices
    weighted by their question counts (pinned per dataset hash)."""
    overall = doc.get("overall")
    if not isinstance(overall, dict) or not overall:
        return [("/overall", f"overall must be a non-empty object, got {show(overall)}")]
    metrics = [k for k in overall if METRIC_LIKE.search(k)]
    if not metrics:
        return [("/overall", "overall names no quality metric: nothing to cite")]
    dataset = doc.get("dataset")
    digest = dataset.get("corpus_hash") if isinstance(dataset, dict) else None
    counts = p.question_type_counts.get(digest) if isinstance(digest, str) else None
    if counts is None:
        return [("/dataset/corpus_hash", f"dataset corpus_hash {show(digest)} has no pinned question counts per type "
                 "(parameter question_type_counts): the overall figures cannot be checked against the slices")]
    total = doc.get("total_questions")
    if not same(total, sum(counts.values())):
        return [("/total_questions", f"total_questions {show(total)} is not the {sum(counts.values())} questions of "
                 f"the pinned dataset {digest}: its per-type counts do not apply")]
    slices = resolve(doc, p.slices)
    if not isinstance(slices, dict):
        return [(p.slices, f"{p.slices} must be an object of per-type slices, got {type_name(slices)}")]
    problems: list[tuple[str, str]] = []
    if set(slices) != set(counts):
        missing, unknown = sorted(set(counts) - set(slices)), sorted(set(slices) - set(counts))
        problems.append((p.slices, f"{p.slices} has slices {sorted(slices)}; the dataset's question types are "
                         f"{sorted(counts)} (missing {missing}, unknown {unknown})"))
        return problems
    tolerance = Fraction(p.tolerance)
    for metric in metrics:
        claimed = exact_number(overall[metric])
        ptr = join("/overall", metric)
        if claimed is None:
            problems.append((ptr, f"overall {metric} must be a finite number, got {show(overall[metric])}"))
            continue
        total_weight, values = Fraction(0), []
        for name, n in sorted(counts.items()):
            row = slices[name]
            value = exact_number(row.get(metric)) if isinstance(row, dict) else None
            if value is None:
                problems.append((join(p.slices, name, metric), f"overall {metric} cannot be checked: slice {name} "
                                 f"has no numeric {metric}"))
                break
            values.append(value)
            total_weight += n * value
        else:
            weighted = total_weight / sum(counts.values())
            if abs(weighted - claimed) > tolerance:
                problems.append((ptr, f"overall {metric} is {show(overall[metric])}, but the per-type slices weighted "
                                 f"by their question counts give {float(weighted):.10g}: the summary does not follow "
                                 "from its slices"))
    return problems


def external_entries(ctx: Context, ev: Doc) -> list[tuple[str, dict[str, Any], Doc | None]]:
    """(pointer, entry, its readable manifest or None) for every citable external entry."""
    out: list[tuple[str, dict[str, Any], Doc | None]] = []
    for ptr, entry in citable_entries(ctx):
        if "external_artifact_manifest" not in entry or "artifact" in entry:
            continue
        info = loaded(ev, ptr)
        doc = loaded_doc(ev, info["role"]) if info and info.get("role") else None
        ok = doc is not None and doc.error is None and isinstance(doc.data, dict)
        out.append((ptr, entry, doc if ok else None))
    return out


@kind("ledger_external", ExternalParams, "external artifact manifests are trustworthy")
def ledger_external(ctx: Context, p: ExternalParams) -> Iterable[Finding]:
    """An external artifact manifest (an artifact kept in a CI archive, without its cases) is
    checked for everything that can be checked without the archive: ``case_results`` equals
    ``total_questions``; every quality metric of ``overall`` is the mean of the ``per_type``
    slices weighted by the question counts pinned for the dataset's ``corpus_hash``
    (``question_type_counts``, within ``tolerance``); ``external_artifact`` has every
    ``required`` field, a known ``provider``, ``gate_passed: true``, a built-in
    ``gate_profile`` equal to the entry's, a ``gate_receipt`` whose every clause (``METRIC
    VALUE >= THRESHOLD``) matches the summary at the precision written and holds and that
    records every overall threshold of the gate profile at least as strictly, a
    ``gate_command`` that is a bench-gate run of that profile on ``artifact_path`` whose failure
    would show (no ``|| true``, ``;``, pipes, ``--set`` / ``--waivers``...), a
    ``verification_command`` that downloads the recorded run and hashes ``artifact_path`` with
    SHA-256 (:mod:`bench_gate.checks.ledger.recorded`), positive
    integer sizes, a 64-hex ``sha256`` that is not a placeholder and that the
    ``verification_receipt`` records (with the manifest's own sizes and times), ``verified_at``
    <= gate time < ``expires_at`` and not before ``generated_at``, and a public ``run_url`` that
    is the recorded run of the recorded repository. Params: ``providers``, ``required``,
    ``sizes``, ``external_profiles``, ``question_type_counts``, ``slices``, ``tolerance``.
    """
    ev = evidence(ctx)
    out: list[Finding] = []
    seen = 0
    builtin = set(ev.data.get("profiles", []))
    for ptr, entry, doc in external_entries(ctx, ev):
        if doc is None:
            continue
        seen += 1
        role, name = doc.role, f"{label(entry, ptr)}"

        def bad(msg: str, pointer: str, actual: Any = None, expected: Any = None) -> None:
            out.append(failed(f"{name}: {msg}", pointer, role, actual, expected))

        cases, total = doc.data.get("case_results", MISSING), doc.data.get("total_questions", MISSING)
        if not (isinstance(cases, int) and not isinstance(cases, bool)) or not same(cases, total):
            bad(f"case_results {show(cases)} must be an integer equal to total_questions {show(total)}",
                "/case_results", jsonable(cases), jsonable(total))
        for pointer, problem in check_slices(doc.data, p):
            bad(problem, pointer)
        ext = doc.data.get("external_artifact", MISSING)
        if not isinstance(ext, dict):
            bad(f"external_artifact must be an object, got {type_name(ext)}", "/external_artifact")
            continue
        base = "/external_artifact"
        for key in p.required:
            value = ext.get(key, MISSING)
            if value is MISSING or value is None or (isinstance(value, str) and not value.strip()):
                bad(f"external_artifact.{key} is {'missing' if value is MISSING else show(value)}",
                    join(base, key), None, "present")
        provider = ext.get("provider")
        if "provider" in ext and provider not in p.providers:
            bad(f"provider {show(provider)} is not a known provider ({', '.join(p.providers)})",
                join(base, "provider"), jsonable(provider), p.providers)
        if "gate_passed" in ext and ext.get("gate_passed") is not True:
            bad(f"gate_passed is {show(ext.get('gate_passed'))}; only an artifact that passed its gate is citable",
                join(base, "gate_passed"), jsonable(ext.get("gate_passed")), True)
        prof = ext.get("gate_profile")
        if isinstance(prof, str) and prof.strip() and prof not in builtin:
            # A benchmark summary is citable only when a built-in profile recomputed its metrics: an
            # --external-profile name vouches for contracts and receipts, never for benchmark numbers.
            bad(f"gate_profile {profile_problem(prof, set(p.external_profiles), local=True)}",
                join(base, "gate_profile"), prof, "a built-in profile")
        elif isinstance(prof, str) and "gate_profile" in entry and entry.get("gate_profile") != prof:
            bad(f"the entry's gate_profile {show(entry.get('gate_profile'))} is not the recorded gate run's "
                f"{show(prof)}", join(base, "gate_profile"), prof, jsonable(entry.get("gate_profile")))
        gate = (loaded(ev, ptr) or {}).get("gate")
        limits = gate.get("limits") if isinstance(gate, dict) else None
        for problem in check_gate_receipt(ext.get("gate_receipt"), doc.data.get("overall"), limits, str(prof)) \
                if "gate_receipt" in ext else []:
            bad(problem, join(base, "gate_receipt"))
        if "gate_command" in ext:
            for problem in gate_command_problems(ext["gate_command"], prof, ext.get("artifact_path"),
                                                 ev.data.get("commands")):
                bad(problem, join(base, "gate_command"), jsonable(ext["gate_command"]), "a bench-gate run of "
                    "gate_profile on artifact_path that fails when the gate fails")
        if "verification_command" in ext:
            for problem in verification_command_problems(ext["verification_command"], ext.get("artifact_path"),
                                                         provider, ext.get("run_id"), ext.get("repo")):
                bad(problem, join(base, "verification_command"), jsonable(ext["verification_command"]),
                    "a download of the run and a SHA-256 of artifact_path")
        for key in p.sizes:
            if key not in ext:
                continue
            v = ext[key]
            if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
                bad(f"{key} must be a positive integer, got {described(v)}", join(base, key),
                    jsonable(v), "> 0")
        digest = ext.get("sha256", MISSING)
        if "sha256" in ext:
            if not is_sha256_hex(digest):
                bad(f"sha256 {show(digest)} is not 64 lowercase hex digits", join(base, "sha256"),
                    jsonable(digest), "64 hex")
            elif placeholder_digest(digest):
                bad(f"sha256 {digest} is {placeholder_digest(digest)}, not the hash of an archived artifact",
                    join(base, "sha256"), digest, "the artifact's SHA-256")
            else:
                for problem in check_verification_receipt(ext.get("verification_receipt"), ext):
                    bad(problem, join(base, "verification_receipt"))
        times: dict[str, datetime] = {}
        for key, future_ok in (("expires_at", True), ("verified_at", False)):
            if key not in ext:
                continue
            when = instant_or_none(ext[key])
            if when is None:
                bad(f"{key} {show(ext[key])} is not an RFC 3339 timestamp with an offset", join(base, key),
                    jsonable(ext[key]), "RFC 3339")
                continue
            times[key] = when
            if future_ok and when <= ctx.now:
                bad(f"the archive expired on {ext[key]} (gate time {ctx.now.isoformat()}): it can no longer be "
                    "fetched and re-verified against its sha256, so its numbers are not citable", join(base, key),
                    ext[key], f"> {ctx.now.isoformat()}")
            elif not future_ok and when > ctx.now:
                bad(f"verified_at {ext[key]} is in the future (gate time {ctx.now.isoformat()})",
                    join(base, key), ext[key], f"<= {ctx.now.isoformat()}")
        if len(times) == 2 and times["verified_at"] >= times["expires_at"]:
            bad(f"verified_at {ext['verified_at']} is not before expires_at {ext['expires_at']}",
                join(base, "verified_at"), ext["verified_at"], f"< {ext['expires_at']}")
        made = instant_or_none(doc.data.get("generated_at"))
        if made is not None and "verified_at" in times and times["verified_at"] < made:
            bad(f"verified_at {ext['verified_at']} is before the run's generated_at {doc.data['generated_at']}",
                join(base, "verified_at"), ext["verified_at"], f">= {doc.data['generated_at']}")
        url = ext.get("run_url", MISSING)
        if "run_url" in ext:
            problem = url_problem(url) if isinstance(url, str) else f"must be a string, got {type_name(url)}"
            if problem:
                bad(f"run_url {show(url, 100)} {problem}", join(base, "run_url"), jsonable(url), "a public URL")
            elif provider == "github-actions" and isinstance(ext.get("repo"), str) and \
                    isinstance(ext.get("run_id"), (str, int)) and not isinstance(ext.get("run_id"), bool):
                want = f"https://github.com/{ext['repo']}/actions/runs/{ext['run_id']}"
                if url != want:
                    bad(f"run_url {show(url, 100)} is not the run {ext['run_id']} of {ext['repo']} ({want})",
                        join(base, "run_url"), url, want)
    if out:
        return out
    if not seen:
        return [skipped("no citable entry names an external artifact manifest")]
    return [passed(f"{seen} external artifact manifest{'s' if seen != 1 else ''}: provider known, gate passed and "
                   "its receipt agrees with the summary, overall figures follow from the per-type slices, sizes and "
                   "sha256 valid (not placeholders), verified before the gate time and not expired, public run URL, "
                   "gate and verification commands that run what they record and could fail",
                   "/citable", "report")]


# --- ledger_external_gate ----------------------------------------------------------------


@record
class ExternalGateParams:
    __pydantic_config__ = FORBID


@kind("ledger_external_gate", ExternalGateParams, "an external artifact manifest's summary passes its declared gate (less the rules that need the cases)")
def ledger_external_gate(ctx: Context, p: ExternalGateParams) -> Iterable[Finding]:
    """Each external artifact manifest's own summary passes its declared built-in gate.

    ``bench-gate ledger`` evaluates the manifest with the recorded ``gate_profile`` exactly as
    ``bench-gate ARTIFACT --profile P`` would (with the entry's ``accounting_required`` /
    ``qa_required``), leaving out only the rules that read the cases (the ledger profile's
    ``summary_case_rules``): the cases are in the archive, not in the repository. Every failing
    rule of the gate is a failure here, at its place in the manifest: ``gate_passed: true`` and a
    receipt cannot make a summary pass that visibly fails its gate. No params.
    """
    ev = evidence(ctx)
    out: list[Finding] = []
    shown: list[str] = []
    for ptr, entry, doc in external_entries(ctx, ev):
        if doc is None:
            continue  # citable-sources reports an unreadable manifest
        name = label(entry, ptr)
        info = loaded(ev, ptr) or {}
        gate = info.get("gate") if isinstance(info.get("gate"), dict) else {}
        profile = gate.get("profile")
        if not gate or gate.get("error"):
            why = gate.get("error") if gate else "it was not gated"
            out.append(failed(f"{name}: its summary cannot be held to its gate {show(profile)}: {why}",
                              "/external_artifact/gate_profile", doc.role, jsonable(profile), "a built-in profile"))
            continue
        flags = "".join(f" {f}" for f in gate.get("flags", []))
        for f in gate.get("failed", []):
            out.append(failed(f"{name}: its summary fails {profile}{flags} {f['rule']}, so the recorded gate run "
                              f"cannot have passed: {f['message']}", f["pointer"], f["document"],
                              f.get("actual"), f.get("expected")))
        if not gate.get("failed"):
            left = gate.get("needs_cases") or []
            rest = f"; not decided without the cases: {', '.join(left)}" if left else ""
            shown.append(f"{name}: its summary passes the {gate.get('decided')} {profile}{flags} rules a summary "
                         f"can decide{rest}")
    if out:
        return out
    if not shown:
        return [skipped("no citable entry names a readable external artifact manifest")]
    return [passed("; ".join(shown), "/citable", "report")]


# --- ledger_external_basis ---------------------------------------------------------------


@record
class BasisParams:
    __pydantic_config__ = FORBID


@kind("ledger_external_basis", BasisParams, "says what an external artifact's summary rests on (its cases are not in the repository)")
def ledger_external_basis(ctx: Context, p: BasisParams) -> Iterable[Finding]:
    """One line per citable external artifact manifest, saying what its numbers rest on.

    The cases of an archived run are not in the repository, so its summary cannot be recomputed
    here: the line names the run, the archive's ``sha256`` and the recorded gate run
    (``gate_profile``, ``gate_passed``) that the entry relies on. Skipped when no citable entry
    names an external manifest. No parameters.
    """
    ev = evidence(ctx)
    lines: list[str] = []
    for ptr, entry, doc in external_entries(ctx, ev):
        data = doc.data if doc is not None else {}
        ext = data.get("external_artifact") if isinstance(data.get("external_artifact"), dict) else {}
        digest = ext.get("sha256")
        lines.append(f"{label(entry, ptr)}: its {show(data.get('case_results', '?'))} cases were not re-read "
                     f"(they are in the archive of run {show(ext.get('run_id', '?'))}, not in the repository); its "
                     f"summary rests on the archive's sha256 {show(digest)} and the recorded gate run "
                     f"({show(ext.get('gate_profile', '?'))}, gate_passed {show(ext.get('gate_passed', MISSING))}), "
                     "checked here for consistency only")
    if not lines:
        return [skipped("no citable entry names an external artifact manifest")]
    return [passed("; ".join(lines), "/citable", "report")]


def external_unsound(ev: Doc, pointer: str, now: datetime) -> str | None:
    """Why the numbers of a citable external entry cannot be compared at the gate time (None when
    they can): its manifest is unreadable, its recorded gate did not pass, or its archive has
    expired (so the summary can no longer be re-verified against the archive's sha256)."""
    info = loaded(ev, pointer)
    doc = loaded_doc(ev, info["role"]) if info and info.get("role") else None
    if doc is None or doc.error is not None or not isinstance(doc.data, dict):
        return "cannot be read"
    ext = doc.data.get("external_artifact")
    if not isinstance(ext, dict) or ext.get("gate_passed") is not True:
        return "records no passing gate run"
    expires = instant_or_none(ext.get("expires_at"))
    if expires is None:
        return f"has no readable expires_at ({show(ext.get('expires_at', MISSING))})"
    if expires <= now:
        return f"has an archive that expired on {ext['expires_at']} (external-manifest)"
    return None
