"""Check kinds of the claim ledger (the ``ledger`` profile, run by ``bench-gate ledger MANIFEST``).

A ledger is a manifest JSON that lists which benchmark artifacts may be cited (``citable``),
which are only ``planned``, which pairs must not regress (``no_regression``), the history
summaries and the gate contracts. The kinds below are pure: ``bench-gate ledger`` reads every
file the manifest names (artifacts, external artifact manifests, history summaries, receipts)
and gates every citable local artifact with its own profile *before* the rules run, and hands
the result to the kinds as the ``evidence`` document. Run through the plain report gate
(``bench-gate manifest.json -p ledger``) these kinds fail, saying that the evidence was not
loaded.

Every entry is addressed by its JSON Pointer in the manifest (``/citable/0``); findings about a
value inside an artifact use the artifact's own role (``citable/0``) and pointer.

Gate profiles named in a ledger are names, never files. Anything that carries benchmark
metrics (a local artifact, an external artifact manifest, a history summary) names a built-in
profile, one that recomputes or checks those metrics; only a gate contract's profile may also
be one of ``external_profiles`` (the ledger profile's parameter, which ``--external-profile
NAME`` extends): a profile enforced outside bench-gate, vouching for contracts and receipts,
never for a citable benchmark number.
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from bench_gate.checks.base import (
    described,
    kind,
    FORBID,
    MISSING,
    Context,
    Fail,
    failed,
    join,
    jsonable,
    passed,
    resolve,
    show,
    skipped,
    type_name,
)
from bench_gate.checks.ledger.recorded import gate_command_problems, history_gate_command_problems, \
    verification_command_problems
from bench_gate.checks.generic.basic import RegressionParams, direction, placeholder_digest, regression, same
from bench_gate.checks.generic.urls import url_problem
from bench_gate.text.digests import is_sha256_hex
from bench_gate.text.isotime import TimeError, parse_instant, parse_when, today, instant_or_none
from bench_gate.models import Doc, Finding, exact_number

EVIDENCE = "evidence"


# --- access to the manifest and the evidence ---------------------------------------------


def evidence(ctx: Context) -> Doc:
    """The evidence ``bench-gate ledger`` loaded; a Fail when the ledger is gated another way."""
    found = ctx.documents.get(EVIDENCE)
    if found is None or not isinstance(found.data, dict):
        raise Fail("the ledger's artifacts were not loaded: gate a ledger with "
                   "`bench-gate ledger MANIFEST`", document="report")
    return found


def manifest(ctx: Context) -> dict[str, Any]:
    data = ctx.doc("report").data
    if not isinstance(data, dict):
        raise Fail(f"the ledger must be a JSON object, got {type_name(data)}")
    return data


def entry_list(ctx: Context, key: str, optional: bool = True) -> list[Any] | None:
    """The list at ``/key`` of the manifest; None when absent and optional."""
    value = manifest(ctx).get(key, MISSING)
    if value is MISSING and optional:
        return None
    if not isinstance(value, list):
        raise Fail(f"/{key} must be a list, got {type_name(value)}", f"/{key}", "report",
                   jsonable(value) if not isinstance(value, dict) else "object", "a list")
    return value


def citable_entries(ctx: Context) -> list[tuple[str, dict[str, Any]]]:
    """(pointer, entry) for every citable entry that is an object."""
    items = entry_list(ctx, "citable", optional=False) or []
    return [(f"/citable/{i}", e) for i, e in enumerate(items) if isinstance(e, dict)]


def label(entry: Mapping[str, Any], pointer: str) -> str:
    """``/citable/0 (longmemeval_a.json)``: the entry and the file it names."""
    name = entry.get("artifact") if isinstance(entry.get("artifact"), str) else \
        entry.get("external_artifact_manifest")
    return f"{pointer} ({name})" if isinstance(name, str) else pointer


def loaded(ev: Doc, pointer: str) -> dict[str, Any] | None:
    """What ``bench-gate ledger`` loaded for the entry at ``pointer`` (None if nothing)."""
    found = ev.data.get("entries", {}).get(pointer)
    return found if isinstance(found, dict) else None


def loaded_doc(ev: Doc, role: str) -> Doc | None:
    docs = ev.extra.get("docs", {})
    return docs.get(role)


def profile_problem(name: str, external: frozenset[str] | set[str], local: bool = False) -> str:
    """Why a gate profile named in a ledger is not acceptable (the name is not built in)."""
    if local and name in external:
        return (f"{name!r} is enforced outside bench-gate (--external-profile); benchmark metrics are citable "
                "only when a built-in profile recomputed them (external profiles serve contracts and receipts)")
    if "/" in name or "\\" in name or name.endswith((".yaml", ".yml")):
        return (f"{name!r} is a file, not a profile name: a ledger names built-in profiles only, so that it "
                "cannot choose a profile that checks less")
    if local:
        return f"{name!r} is not a built-in profile (`bench-gate profiles` lists them)"
    return (f"{name!r} is neither a built-in profile (`bench-gate profiles` lists them) nor declared as enforced "
            f"outside bench-gate (--external-profile {name})")


# --- ledger_sources ----------------------------------------------------------------------


@dataclass(frozen=True)
class SourcesParams:
    __pydantic_config__ = FORBID
    status: str = "citable"
    external_profiles: list[str] = field(default_factory=list)


@kind("ledger_sources", SourcesParams, "citable entries name exactly one readable artifact or external manifest")
def ledger_sources(ctx: Context, p: SourcesParams) -> Iterable[Finding]:
    """Every citable entry is an object with ``status: citable`` and exactly one of ``artifact`` /
    ``external_artifact_manifest``: a path, relative to the ledger's folder, of a readable JSON
    file inside the repository; a local artifact's ``gate_profile`` is a built-in profile
    name. Params: ``status`` (default ``citable``), ``external_profiles``. Example::

        check: ledger_sources
        with: {status: citable, external_profiles: "${external_profiles}"}
    """
    ev = evidence(ctx)
    items = entry_list(ctx, "citable", optional=False) or []
    if not items:
        raise Fail("/citable is empty: the ledger lists nothing citable", "/citable", "report", 0, ">= 1 entry")
    profiles = set(ev.data.get("profiles", []))
    out: list[Finding] = []
    for i, entry in enumerate(items):
        ptr = f"/citable/{i}"
        if not isinstance(entry, dict):
            out.append(failed(f"{ptr} must be an object, got {type_name(entry)}", ptr, "report"))
            continue
        if entry.get("status") != p.status:
            out.append(failed(f"{ptr}/status is {show(entry.get('status', MISSING))}, expected "
                              f"{show(p.status)} in the citable list", f"{ptr}/status", "report",
                              jsonable(entry.get("status")), p.status))
        named = [k for k in ("artifact", "external_artifact_manifest") if k in entry]
        if len(named) != 1:
            what = "neither" if not named else "both"
            out.append(failed(f"{ptr} names {what} of artifact / external_artifact_manifest (exactly one "
                              "is required)", ptr, "report", named, "exactly one"))
            continue
        key = named[0]
        info = loaded(ev, ptr)
        if info is None or info.get("error"):
            why = info.get("error") if info else "was not loaded"
            out.append(failed(f"{ptr}/{key} {show(entry[key])}: {why}", f"{ptr}/{key}", "report",
                              jsonable(entry[key]), "a readable JSON file inside the repository"))
            continue
        if key == "artifact":
            prof = entry.get("gate_profile", MISSING)
            if not isinstance(prof, str) or not prof:
                out.append(failed(f"{ptr}/gate_profile is {show(prof)}; a local artifact names the profile "
                                  "that gates it", f"{ptr}/gate_profile", "report", jsonable(prof), "a profile name"))
            elif prof not in profiles:
                out.append(failed(f"{ptr}/gate_profile: {profile_problem(prof, set(p.external_profiles), local=True)}",
                                  f"{ptr}/gate_profile", "report", prof, "a built-in profile"))
    if out:
        return out
    local = sum(1 for e in items if "artifact" in e)
    return [passed(f"{len(items)} citable entr{'y' if len(items) == 1 else 'ies'} ({local} local, "
                   f"{len(items) - local} external), each file read inside the repository", "/citable", "report")]


# --- ledger_gates ------------------------------------------------------------------------


@dataclass(frozen=True)
class GatesParams:
    __pydantic_config__ = FORBID


@kind("ledger_gates", GatesParams, "every citable local artifact passes its own gate")
def ledger_gates(ctx: Context, p: GatesParams) -> Iterable[Finding]:
    """Every citable local artifact passes its own ``gate_profile``, evaluated by the same engine
    as ``bench-gate ARTIFACT --profile P`` (with ``--require-accounting`` / ``--require-qa``
    when the entry sets ``accounting_required`` / ``qa_required``). Each failing artifact is one
    failure here, with its first failing rule and message and the ids of the others; the
    artifact's full verdict follows in the ledger verdict (its rules prefixed with the entry,
    ``citable/0/metrics-recompute``). No params.
    """
    ev = evidence(ctx)
    out: list[Finding] = []
    shown: list[str] = []
    for ptr, entry in citable_entries(ctx):
        if "artifact" not in entry or "external_artifact_manifest" in entry:
            continue
        info = loaded(ev, ptr)
        name = label(entry, ptr)
        if info is None or info.get("error"):
            out.append(failed(f"{name} cannot be gated: {info.get('error') if info else 'not loaded'}",
                              f"{ptr}/artifact", "report"))
            continue
        gate = info.get("gate") or {}
        if gate.get("error"):
            out.append(failed(f"{name} cannot be gated with {show(entry.get('gate_profile'))}: {gate['error']}",
                              f"{ptr}/gate_profile", "report"))
            continue
        flags = "".join(f" {f}" for f in gate.get("flags", []))
        if not gate.get("passed"):
            fails = gate.get("failed", [])
            head = f"{name} fails its gate {gate.get('profile')}{flags} ({gate.get('summary')})"
            if not fails:
                out.append(failed(head, f"{ptr}/artifact", "report"))
                continue
            first = fails[0]
            more = ""
            if len(fails) > 1:
                more = f"; also failing: {', '.join(f['rule'] for f in fails[1:])}"
            out.append(failed(f"{head}: {first['rule']}: {first['message']}{more}", first["pointer"],
                              first["document"], first.get("actual"), first.get("expected")))
            continue
        shown.append(f"{name} passes {gate.get('profile')}{flags} ({gate.get('summary')})")
    if out:
        return out
    if not shown:
        return [skipped("no citable local artifact to gate")]
    return [passed("; ".join(shown), "/citable", "report")]


# --- ledger_echo -------------------------------------------------------------------------


@dataclass(frozen=True)
class EchoField:
    __pydantic_config__ = FORBID
    entry: str
    artifact: str
    length: bool = False
    required: bool = False


@dataclass(frozen=True)
class EchoParams:
    __pydantic_config__ = FORBID
    fields: list[EchoField]
    source: str = "artifact"

    def __post_init__(self) -> None:
        if self.source not in ("artifact", "external"):
            raise ValueError("source must be artifact or external")


def diff(a: Any, b: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """Every leaf where two JSON values differ: (relative pointer, a, b); MISSING for absent."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[tuple[str, Any, Any]] = []
        for key in list(a) + [k for k in b if k not in a]:
            out.extend(diff(a.get(key, MISSING), b.get(key, MISSING), join(path, key)))
        return out
    if a is MISSING and b is MISSING:
        return []
    if a is MISSING or b is MISSING or not same(a, b):
        return [(path, a, b)]
    return []


@kind("ledger_echo", EchoParams, "ledger entries echo their artifacts exactly")
def ledger_echo(ctx: Context, p: EchoParams) -> Iterable[Finding]:
    """The entry echoes its artifact exactly. ``fields`` lists ``{entry, artifact}`` pointer
    pairs; ``length: true`` compares with the length of the artifact's list (``case_results``
    is the number of cases); ``required: true`` fails when the entry lacks the field even if
    the artifact lacks it too. Objects are compared key by key and every differing leaf is a
    failure carrying both values. Params: ``fields``, ``source`` (``artifact`` for local
    artifacts, ``external`` for external artifact manifests). Example::

        check: ledger_echo
        with:
          fields:
            - {entry: /questions, artifact: /total_questions, required: true}
            - {entry: /case_results, artifact: /case_results, length: true, required: true}
    """
    ev = evidence(ctx)
    key = "artifact" if p.source == "artifact" else "external_artifact_manifest"
    out: list[Finding] = []
    checked = 0
    for ptr, entry in citable_entries(ctx):
        if key not in entry:
            continue
        info = loaded(ev, ptr)
        doc = loaded_doc(ev, info["role"]) if info and info.get("role") else None
        if doc is None or doc.error is not None or not isinstance(doc.data, dict):
            continue  # ledger_sources reports an unreadable file
        checked += 1
        name = label(entry, ptr)
        for spec in p.fields:
            mine = resolve(entry, spec.entry)
            theirs = resolve(doc.data, spec.artifact)
            what = spec.artifact
            if spec.length and theirs is not MISSING:
                if not isinstance(theirs, list):
                    out.append(failed(f"{name}: artifact {spec.artifact} must be a list, got {type_name(theirs)}",
                                      spec.artifact, doc.role))
                    continue
                theirs, what = len(theirs), f"len({spec.artifact})"
            eptr = ptr + spec.entry
            if mine is MISSING and theirs is MISSING:
                if spec.required:
                    out.append(failed(f"{name}: {spec.entry.lstrip('/')} is missing from the entry and "
                                      f"{spec.artifact} from the artifact", eptr, "report", None, "present"))
                continue
            if mine is MISSING and spec.required:
                out.append(failed(f"{name}: the entry lacks {spec.entry.lstrip('/')}; the artifact has "
                                  f"{what} = {show(theirs)}", eptr, "report", None, jsonable(theirs)))
                continue
            for sub, a, b in diff(mine, theirs):
                where = spec.entry + sub
                art = what + sub
                if a is MISSING:
                    msg = f"{name}: the entry lacks {where.lstrip('/')}; the artifact has {art} = {show(b)}"
                elif b is MISSING:
                    msg = f"{name}: the entry has {where.lstrip('/')} = {show(a)} but the artifact has no {art}"
                else:
                    msg = f"{name}: {where.lstrip('/')} drifted: ledger says {show(a)}, artifact {art} is {show(b)}"
                out.append(failed(msg, ptr + where, "report", None if a is MISSING else jsonable(a),
                                  None if b is MISSING else jsonable(b)))
    if out:
        return out
    if not checked:
        return [skipped(f"no citable entry with a readable {key.replace('_', ' ')}")]
    names = ", ".join(f.entry.lstrip("/") for f in p.fields)
    what = "artifact" if p.source == "artifact" else "external manifest"
    verb = f"entry echoes its {what}" if checked == 1 else f"entries echo their {what}s"
    return [passed(f"{checked} {verb} exactly: {names}", "/citable", "report")]


# --- ledger_external ---------------------------------------------------------------------


@dataclass(frozen=True)
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
            for problem in gate_command_problems(ext["gate_command"], prof, ext.get("artifact_path")):
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


@dataclass(frozen=True)
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


@dataclass(frozen=True)
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


# --- ledger_receipts ---------------------------------------------------------------------


@dataclass(frozen=True)
class ReceiptsParams:
    __pydantic_config__ = FORBID
    passing_status: str = "PASS"


def _receipt_problems(mc: dict[str, Any], doc: Doc | None, p: ReceiptsParams) -> list[str]:
    """Why one receipt contract does not hold (empty when it holds)."""
    written = mc.get("required_receipt")
    if doc is None:
        return [f"required_receipt {show(written)} was not read"]
    if doc.error is not None:
        return [f"required_receipt {written}: {doc.error}"]
    data = doc.data if isinstance(doc.data, dict) else {}
    problems: list[str] = []
    schema = data.get("schema_version", MISSING)
    if schema != mc.get("receipt_schema"):
        problems.append(f"{written} has schema_version {show(schema)}, expected {show(mc.get('receipt_schema'))}")
    metric = mc.get("metric")
    metrics = data.get("metrics")
    value = metrics.get(metric, MISSING) if isinstance(metrics, dict) and isinstance(metric, str) else MISSING
    number, limit = exact_number(value), exact_number(mc.get("threshold"))
    if number is None:
        problems.append(f"{written} metrics.{metric} is {show(value)}, not a finite number")
    elif limit is not None:
        way = mc.get("direction")
        ok = number >= limit if way == "higher" else number <= limit if way == "lower" else False
        if not ok:
            sign = ">=" if way == "higher" else "<="
            problems.append(f"{written} metrics.{metric} is {show(value)}, expected {sign} {show(mc.get('threshold'))} "
                            f"({way} is better)")
    checks = data.get("checks")
    rows = [c for c in checks if isinstance(c, dict)] if isinstance(checks, list) else []
    if mc.get("require_receipt_checks") is True:
        if not rows:
            problems.append(f"{written} lists no checks, but the contract requires its checks to pass")
        for c in rows:
            if c.get("status") != p.passing_status:
                problems.append(f"{written} check {show(c.get('name'))} has status {show(c.get('status', MISSING))}, "
                                f"expected {p.passing_status}")
    wanted = mc.get("required_surfaces") or []
    covered = {s for c in rows if c.get("status") == p.passing_status
               for s in (c.get("surfaces") if isinstance(c.get("surfaces"), list) else []) if isinstance(s, str)}
    missing = [s for s in wanted if s not in covered]
    if missing:
        problems.append(f"{written}: no passing check covers the required surface{'s' if len(missing) > 1 else ''} "
                        f"{', '.join(repr(s) for s in missing)}")
    return problems


@kind("ledger_receipts", ReceiptsParams, "receipts of blocking gate contracts exist, have their schema and hold their thresholds")
def ledger_receipts(ctx: Context, p: ReceiptsParams) -> Iterable[Finding]:
    """Every receipt contract of a blocking gate contract holds.

    The receipt (``required_receipt``, relative to the ledger's folder) exists, its
    ``schema_version`` equals ``receipt_schema``, ``metrics[metric]`` is a finite number on the
    right side of ``threshold`` (``higher``: at least, ``lower``: at most; a tie holds), with
    ``require_receipt_checks`` every check has status ``passing_status`` (default ``PASS``), and
    the surfaces of its passing checks cover ``required_surfaces``. Receipts of contracts that
    are not blocking are listed as present or missing, not enforced.
    """
    ev = evidence(ctx)
    items = entry_list(ctx, "gate_contracts")
    roles = ev.data.get("receipts", {})
    out: list[Finding] = []
    held: list[str] = []
    waiting: list[str] = []
    for i, c in enumerate(items or []):
        if not isinstance(c, dict) or not isinstance(c.get("metric_contracts"), list):
            continue  # gate-contracts reports the shape
        name = c.get("name") if isinstance(c.get("name"), str) else f"/gate_contracts/{i}"
        count = 0
        for j, mc in enumerate(c["metric_contracts"]):
            if not isinstance(mc, dict) or mc.get("mode") != "receipt":
                continue
            written = mc.get("required_receipt")
            doc = loaded_doc(ev, roles[written]) if isinstance(written, str) and written in roles else None
            if c.get("blocking") is not True:
                state = "missing" if doc is None or doc.error else "present"
                status = c.get("status") if isinstance(c.get("status"), str) else show(c.get("status", MISSING))
                note = f"{name} ({status}): {written} {state}"
                if note not in waiting:
                    waiting.append(note)
                continue
            count += 1
            ptr = f"/gate_contracts/{i}/metric_contracts/{j}"
            for problem in _receipt_problems(mc, doc, p):
                out.append(failed(f"{ptr} ({name}, {mc.get('metric')}): {problem}", join(ptr, "required_receipt"),
                                  "report", None, None))
        if count:
            held.append(f"{name} ({count} metric{'s' if count != 1 else ''})")
    if out:
        return out
    if not held and not waiting:
        return [skipped("no receipt contracts")]
    text = (f"receipts of blocking contracts hold: {', '.join(held)}" if held else
            "no blocking contract names a receipt")
    if waiting:
        text += f"; not enforced, the contract is not blocking: {'; '.join(waiting)}"
    return [passed(text, "/gate_contracts", "report")]


# --- ledger_date -------------------------------------------------------------------------


@dataclass(frozen=True)
class DateParams:
    __pydantic_config__ = FORBID
    path: str = "/updated_at"


@kind("ledger_date", DateParams, "a ledger date is a calendar date not after the gate time")
def ledger_date(ctx: Context, p: DateParams) -> Iterable[Finding]:
    """The ledger's date at ``path`` (default ``/updated_at``) is a calendar date ``YYYY-MM-DD``
    that exists (``2026-02-30`` fails) and is not after the gate's UTC date."""
    value = resolve(manifest(ctx), p.path)
    where = p.path.lstrip("/")
    if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise Fail(f"{where} is {show(value)}, not a date (YYYY-MM-DD)", p.path, "report", jsonable(value), "YYYY-MM-DD")
    try:
        day = parse_when(value).day
    except TimeError as exc:
        raise Fail(f"{where} {exc}", p.path, "report", value, "a real date") from None
    if day is None or day > today(ctx.now):
        raise Fail(f"{where} {value} is after the gate time {ctx.now.isoformat()}", p.path, "report", value,
                   f"<= {today(ctx.now).isoformat()}")
    return [passed(f"{where} {value} is a date not after the gate time", p.path, "report")]


# --- ledger_planned ----------------------------------------------------------------------


@dataclass(frozen=True)
class PlannedParams:
    __pydantic_config__ = FORBID
    artifact_fields: list[str] = field(default_factory=lambda: [
        "artifact", "external_artifact_manifest", "overall", "case_results", "questions", "sibyl_commit",
        "elapsed_seconds"])
    status: str = "planned"


@kind("ledger_planned", PlannedParams, "planned entries carry no artifact")
def ledger_planned(ctx: Context, p: PlannedParams) -> Iterable[Finding]:
    """A planned entry has ``status: planned`` and carries none of the artifact fields
    (``artifact_fields``): a planned suite has no number to cite.
    """
    items = entry_list(ctx, "planned")
    if not items:
        return [skipped("no planned entries")]
    out: list[Finding] = []
    for i, entry in enumerate(items):
        ptr = f"/planned/{i}"
        if not isinstance(entry, dict):
            out.append(failed(f"{ptr} must be an object, got {type_name(entry)}", ptr))
            continue
        if entry.get("status") != p.status:
            out.append(failed(f"{ptr}/status is {show(entry.get('status', MISSING))}, expected {show(p.status)}",
                              f"{ptr}/status", "report", jsonable(entry.get("status")), p.status))
        for key in p.artifact_fields:
            if key in entry:
                out.append(failed(f"{ptr} ({entry.get('suite', '?')}) is planned but carries {key} = "
                                  f"{show(entry[key])}: a planned suite has no artifact or number to cite",
                                  join(ptr, key), "report", jsonable(entry[key]), "absent"))
    if out:
        return out
    return [passed(f"{len(items)} planned entr{'y' if len(items) == 1 else 'ies'}, none carries an artifact",
                   "/planned", "report")]


# --- ledger_no_regression ----------------------------------------------------------------


@dataclass(frozen=True)
class NoRegressionParams:
    __pydantic_config__ = FORBID


def _citable_by_name(ctx: Context) -> dict[str, tuple[str, dict[str, Any]]]:
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    for ptr, entry in citable_entries(ctx):
        if entry.get("status") != "citable":
            continue
        for key in ("artifact", "external_artifact_manifest"):
            if isinstance(entry.get(key), str) and entry[key] not in out:
                out[entry[key]] = (ptr, entry)
    return out


def _gate_of(ev: Doc, pointer: str) -> dict[str, Any] | None:
    """The gate summary of a citable local artifact (None for an external entry)."""
    info = loaded(ev, pointer)
    gate = info.get("gate") if info else None
    return gate if isinstance(gate, dict) else None


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


def latest_summary(ev: Doc, key: str, now: datetime) -> tuple[str, dict[str, Any]] | None:
    """(file, summary) of the latest passing history summary with this baseline_key.

    Summaries dated after the gate time are ignored (``ledger_history`` reports them)."""
    best: tuple[str, str, dict[str, Any]] | None = None
    for item in ev.data.get("history", {}).get("files", []):
        doc = loaded_doc(ev, item["role"])
        if doc is None or doc.error or not isinstance(doc.data, dict):
            continue
        if doc.data.get("baseline_key") != key or doc.data.get("gate_passed") is not True:
            continue
        when = instant_or_none(doc.data.get("generated_at"))
        if when is None or when > now:
            continue
        stamp = when.astimezone(UTC).isoformat()
        if best is None or stamp > best[0]:
            best = (stamp, item["path"], doc.data)
    return (best[1], best[2]) if best else None


@kind("ledger_no_regression", NoRegressionParams, "no-regression pairs of citable artifacts hold")
def ledger_no_regression(ctx: Context, p: NoRegressionParams) -> Iterable[Finding]:
    """Each pair names a citable ``candidate``, a built-in ``profile`` when it names one, and exactly one of ``baseline`` (a citable artifact)
    or ``baseline_history`` (a ``baseline_key`` of the history summaries; the latest one is
    used), and the named ``metrics`` of the candidate do not regress beyond ``max_regression``
    (per metric, default 0), with the metric directions of the ``regression`` check kind
    (higher is better for recall@k, hit@k, ndcg@k...; lower for ``*_ms``...). The values
    compared are the entries' ``overall`` tables (which ``ledger_echo`` ties to the artifacts)
    and the summaries' ``metrics``. A pair whose candidate or baseline fails its own gate fails, and so
    does one whose candidate or baseline is an external entry whose manifest records no passing
    gate or whose archive has expired at the gate time.
    """
    ev = evidence(ctx)
    items = entry_list(ctx, "no_regression")
    if not items:
        return [skipped("no no_regression pairs")]
    by_name = _citable_by_name(ctx)
    out: list[Finding] = []
    shown: list[str] = []
    for i, pair in enumerate(items):
        ptr = f"/no_regression/{i}"
        if not isinstance(pair, dict):
            out.append(failed(f"{ptr} must be an object, got {type_name(pair)}", ptr))
            continue
        prof = pair.get("profile", MISSING)
        if prof is not MISSING and prof not in ev.data.get("profiles", []):
            why = profile_problem(prof, set(), local=True) if isinstance(prof, str) else f"is {show(prof)}"
            out.append(failed(f"{ptr}/profile {why}", f"{ptr}/profile", "report", jsonable(prof), "a built-in profile"))
            continue
        cand_name = pair.get("candidate", MISSING)
        if not isinstance(cand_name, str) or cand_name not in by_name:
            out.append(failed(f"{ptr}/candidate {show(cand_name)} is not a citable entry of this ledger",
                              f"{ptr}/candidate", "report", jsonable(cand_name), sorted(by_name)))
            continue
        named = [k for k in ("baseline", "baseline_history") if k in pair]
        if len(named) != 1:
            out.append(failed(f"{ptr} names {'neither' if not named else 'both'} of baseline / baseline_history "
                              "(exactly one is required)", ptr, "report", named, "exactly one"))
            continue
        if named[0] == "baseline":
            base_name = pair["baseline"]
            if not isinstance(base_name, str) or base_name not in by_name:
                out.append(failed(f"{ptr}/baseline {show(base_name)} is not a citable entry of this ledger",
                                  f"{ptr}/baseline", "report", jsonable(base_name), sorted(by_name)))
                continue
            base_overall = by_name[base_name][1].get("overall", MISSING)
            base_label = base_name
        else:
            key = pair["baseline_history"]
            found = latest_summary(ev, key, ctx.now) if isinstance(key, str) else None
            if found is None:
                out.append(failed(f"{ptr}/baseline_history {show(key)}: no passing history summary has this "
                                  "baseline_key", f"{ptr}/baseline_history", "report", jsonable(key),
                                  "a baseline_key of history/*.json"))
                continue
            base_label = found[0]
            base_overall = found[1].get("metrics", MISSING)
        unsound = [(f"{which} {n} " + (f"fails its gate {g.get('profile')}" if "error" not in g else "cannot be gated"),
                    "external_artifact_manifest" in by_name[n][1])
                   for which, n, g in
                   (("candidate", cand_name, _gate_of(ev, by_name[cand_name][0])),
                    ("baseline", base_label, _gate_of(ev, by_name[base_label][0]) if named[0] == "baseline" else None))
                   if g is not None and not g.get("passed")]
        if unsound:
            if not any(ext for _, ext in unsound):
                why = (f"{' and '.join(t for t, _ in unsound)} (citable-gates): a comparison of numbers that do not "
                       "recompute from their cases proves nothing")
            else:  # an external manifest's summary fails the rules of its gate a summary can decide
                why = (" and ".join(f"{t} ({'external-gate' if ext else 'citable-gates'})" for t, ext in unsound)
                       + ": a comparison of numbers that fail their own gate proves nothing")
            out.append(failed(f"{ptr}: {why}", ptr, "report"))
            continue
        # An external entry's numbers rest on its archive: once the archive expired (or the manifest
        # records no passing gate) they are not citable, so they win no comparison either.
        stale = [f"{which} {n} {why}" for which, n, sub_ptr in
                 (("candidate", cand_name, by_name[cand_name][0]),
                  ("baseline", base_label, by_name[base_label][0] if named[0] == "baseline" else None))
                 if sub_ptr is not None and "external_artifact_manifest" in by_name[n][1]
                 and (why := external_unsound(ev, sub_ptr, ctx.now))]
        if stale:
            out.append(failed(f"{ptr}: {' and '.join(stale)}: its numbers are not citable at the gate time "
                              f"({ctx.now.isoformat()}), so the pair cannot be compared", ptr, "report"))
            continue
        metrics = pair.get("metrics", MISSING)
        if not isinstance(metrics, list) or not metrics or not all(isinstance(m, str) for m in metrics):
            out.append(failed(f"{ptr}/metrics must be a non-empty list of metric names, got {show(metrics)}",
                              f"{ptr}/metrics", "report", jsonable(metrics), "metric names"))
            continue
        allowed = pair.get("max_regression", {})
        if not isinstance(allowed, dict) or any(exact_number(v) is None for v in allowed.values()):
            out.append(failed(f"{ptr}/max_regression must map metric names to numbers, got {show(allowed)}",
                              f"{ptr}/max_regression", "report", jsonable(allowed), "an object of numbers"))
            continue
        cand_overall = by_name[cand_name][1].get("overall", MISSING)
        sub = Context(now=ctx.now, documents={
            "report": Doc("report", cand_name, data={"overall": cand_overall}),
            "baseline": Doc("baseline", base_label, data={"overall": base_overall})})
        try:
            found_here = list(regression(sub, RegressionParams(metrics=list(metrics),
                                                                   max_regression=dict(allowed))))
        except Fail as exc:
            found_here = [exc.finding]
        except ValueError as exc:  # a negative allowance
            found_here = [failed(str(exc).replace("--max-regression ", "max_regression "), f"{ptr}/max_regression")]
        prefix = f"{ptr} {cand_name} vs {base_label}: "
        for f in found_here:
            f = dataclasses.replace(f, message=f.message.replace("report:/overall/", "candidate overall/")
                                    .replace("baseline:/overall/", "baseline overall/"))
            if f.status == "fail":
                where = f"{ptr}/metrics"
                out.append(failed(prefix + f.message, where, "report", f.actual, f.expected))
            else:
                shown.append(prefix + f.message)
    if out:
        return out
    return [passed("; ".join(shown), "/no_regression", "report")]


# --- ledger_history ----------------------------------------------------------------------


@dataclass(frozen=True)
class HistoryParams:
    __pydantic_config__ = FORBID
    append_policies: list[str] = field(default_factory=lambda: ["immutable-json"])
    external_profiles: list[str] = field(default_factory=list)


def leaves_repository(folder: str, written: str) -> bool:
    """Whether a path written in the ledger (relative to its folder, ``folder`` being the
    ledger's folder relative to the repository root) is absolute or climbs out of the root."""
    if written.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", written):
        return True
    joined = posixpath.normpath(posixpath.join(folder or ".", written.replace("\\", "/")))
    return joined == ".." or joined.startswith("../")


def source_problems(ctx: Context, ev: Doc, summary: dict[str, Any], source: dict[str, Any],
                    metrics: dict[str, Any]) -> list[tuple[str, str, Any, Any]]:
    """(pointer, problem, actual, expected) where a history summary is not its source's: when ``source`` names a
    citable entry of the ledger, every metric of the summary equals the source's ``overall``
    value exactly, ``suite``, ``mode`` and the commit are the source's, the summary's
    ``profile`` is the entry's ``gate_profile``, and the source passes its gate. A summary whose
    source is not in the ledger stands on its own (its artifact may have been retired)."""
    try:
        by_name = _citable_by_name(ctx)
    except Fail:
        return []  # no citable list: ledger-header and citable-sources report it
    named = [source[k] for k in ("artifact", "external_artifact_manifest") if isinstance(source.get(k), str)]
    # the same file however it is spelled (./a.json, external/../a.json)
    by_path = {posixpath.normpath(name.replace("\\", "/")): item for name, item in by_name.items()}
    found = by_path.get(posixpath.normpath(named[0].replace("\\", "/"))) if len(named) == 1 else None
    if found is None:
        return []
    ptr, entry = found
    info = loaded(ev, ptr)
    doc = loaded_doc(ev, info["role"]) if info and info.get("role") else None
    if doc is None or doc.error is not None or not isinstance(doc.data, dict):
        return []  # citable-sources reports the unreadable source
    art, where = doc.data, f"source {named[0]} ({ptr})"
    out: list[tuple[str, str, Any, Any]] = []
    overall = art.get("overall") if isinstance(art.get("overall"), dict) else {}
    for name, value in metrics.items():
        theirs = overall.get(name, MISSING)
        if theirs is MISSING:
            out.append((join("/metrics", name), f"metrics.{name} {show(value)} is not a figure of its {where}: its "
                        f"overall has no {name}", jsonable(value), None))
        elif exact_number(value) is not None and not same(value, theirs):
            out.append((join("/metrics", name), f"metrics.{name} is {show(value)}, but its {where} has overall "
                        f"{name} {show(theirs)}: a history summary records its source's figures, so a baseline "
                        "cannot be moved by editing one", jsonable(value), jsonable(theirs)))
    commit = "sibyl_commit" if "sibyl_commit" in source else "commit"
    for key, theirs_key in (("suite", "suite"), ("mode", "mode"), (commit, "sibyl_commit")):
        mine, theirs = source.get(key, MISSING), art.get(theirs_key, MISSING)
        if mine is not MISSING and not same(mine, theirs):
            out.append((join("/source", key), f"source.{key} is {show(mine)}, but its {where} has {theirs_key} "
                        f"{show(theirs)}", jsonable(mine), jsonable(theirs)))
    prof = summary.get("profile")
    if isinstance(prof, str) and isinstance(entry.get("gate_profile"), str) and prof != entry["gate_profile"]:
        out.append(("/profile", f"profile is {show(prof)}, but its {where} is gated with "
                    f"{show(entry['gate_profile'])}", prof, entry["gate_profile"]))
    gate = info.get("gate") if isinstance(info.get("gate"), dict) else None
    if gate is not None and not gate.get("passed"):
        rule = "external-gate" if "external_artifact_manifest" in entry else "citable-gates"
        out.append(("/gate_passed", f"gate_passed is true, but its {where} fails its gate {gate.get('profile')} "
                    f"({rule})", True, None))
    return out


@kind("ledger_history", HistoryParams, "history summaries are valid and append-only")
def ledger_history(ctx: Context, p: HistoryParams) -> Iterable[Finding]:
    """Every history summary (``history.directory``/*.json) has the ledger's
    ``history.summary_schema``, a ``baseline_key``, an RFC 3339 ``generated_at`` not in the
    future, a ``source`` naming exactly one of ``artifact`` / ``external_artifact_manifest``,
    ``suite``, ``mode`` and a commit (source paths stay inside the repository), a built-in
    ``profile``, finite numeric ``metrics``, a ``gate_command`` that runs bench-gate and whose
    failure would show, and ``gate_passed: true``. When the source is a citable entry of the ledger the summary is tied to it: every
    metric equals the source's ``overall`` value exactly, ``suite``, ``mode`` and the commit
    are the source's, ``profile`` is the entry's ``gate_profile`` and the source passes its
    gate (a lowered summary would otherwise move the no-regression baseline). No two summaries share a ``baseline_key`` and ``generated_at`` (under
    ``append_policy: immutable-json`` a summary is never rewritten, a new one is appended).
    ``history.directory`` is relative to the repository root. Params: ``append_policies``
    (known policies), ``external_profiles``.
    """
    ev = evidence(ctx)
    spec = manifest(ctx).get("history", MISSING)
    if spec is MISSING:
        return [skipped("the ledger declares no history")]
    if not isinstance(spec, dict):
        raise Fail(f"/history must be an object, got {type_name(spec)}", "/history", "report")
    out: list[Finding] = []
    policy = spec.get("append_policy", MISSING)
    if policy not in p.append_policies:
        out.append(failed(f"/history/append_policy is {show(policy)}, expected one of {', '.join(p.append_policies)}",
                          "/history/append_policy", "report", jsonable(policy), p.append_policies))
    schema = spec.get("summary_schema", MISSING)
    if not isinstance(schema, str) or not schema:
        out.append(failed(f"/history/summary_schema is {show(schema)}; it names the schema every summary has",
                          "/history/summary_schema", "report", jsonable(schema), "a schema name"))
    hist = ev.data.get("history", {})
    if hist.get("error"):
        out.append(failed(f"/history/directory {show(spec.get('directory', MISSING))}: {hist['error']}",
                          "/history/directory", "report"))
        return out
    seen: dict[tuple[str, str], str] = {}
    files = hist.get("files", [])
    for item in files:
        doc = loaded_doc(ev, item["role"])
        path, role = item["path"], item["role"]
        if doc is None or doc.error is not None:
            out.append(failed(f"{path}: {doc.error if doc else 'not loaded'}", "", role))
            continue
        data = doc.data
        if not isinstance(data, dict):
            out.append(failed(f"{path} must be a JSON object", "", role))
            continue

        def bad(msg: str, pointer: str, actual: Any = None, expected: Any = None) -> None:
            out.append(failed(f"{path}: {msg}", pointer, role, actual, expected))

        if isinstance(schema, str) and data.get("schema_version") != schema:
            bad(f"schema_version is {show(data.get('schema_version', MISSING))}, expected {show(schema)}",
                "/schema_version", jsonable(data.get("schema_version")), schema)
        key = data.get("baseline_key", MISSING)
        if not isinstance(key, str) or not key:
            bad(f"baseline_key is {show(key)}", "/baseline_key", jsonable(key), "a non-empty string")
        when = instant_or_none(data.get("generated_at"))
        if when is None:
            bad(f"generated_at {show(data.get('generated_at', MISSING))} is not an RFC 3339 timestamp with an offset",
                "/generated_at", jsonable(data.get("generated_at")), "RFC 3339")
        elif when > ctx.now:
            bad(f"generated_at {data['generated_at']} is in the future (gate time {ctx.now.isoformat()})",
                "/generated_at", data["generated_at"], f"<= {ctx.now.isoformat()}")
        source = data.get("source", MISSING)
        if not isinstance(source, dict):
            bad(f"source must be an object, got {type_name(source)}", "/source")
        else:
            named = [k for k in ("artifact", "external_artifact_manifest") if k in source]
            if len(named) != 1:
                bad("source names " + ("neither" if not named else "both") +
                    " of artifact / external_artifact_manifest (exactly one is required)", "/source")
            for k in named:
                if not isinstance(source[k], str) or not source[k].strip():
                    bad(f"source.{k} is {show(source[k])}", f"/source/{k}", jsonable(source[k]), "a relative path")
                elif leaves_repository(ev.data.get("repo_folder", ""), source[k]):
                    bad(f"source.{k} {source[k]!r} leaves the repository: paths in a ledger stay inside it",
                        f"/source/{k}", source[k], "a path inside the repository")
            for k in ("suite", "mode"):
                if not isinstance(source.get(k), str) or not source.get(k):
                    bad(f"source.{k} is {show(source.get(k, MISSING))}", f"/source/{k}", jsonable(source.get(k)), "a string")
            commit = source.get("sibyl_commit", source.get("commit", MISSING))
            if not (isinstance(commit, str) and re.fullmatch(r"[0-9a-f]{40}", commit)):
                bad(f"source.sibyl_commit {show(commit)} is not a full 40-hex commit SHA in lowercase (a short "
                    "SHA is ambiguous: as a repository grows, more commits share its prefix)", "/source/sibyl_commit",
                    jsonable(commit), "40 hex")
        for k in ("profile", "gate_command"):
            if not isinstance(data.get(k), str) or not data.get(k):
                bad(f"{k} is {show(data.get(k, MISSING))}", f"/{k}", jsonable(data.get(k)), "a non-empty string")
        for problem in history_gate_command_problems(data.get("gate_command"), data.get("profile")):
            bad(problem, "/gate_command", jsonable(data.get("gate_command")), "a bench-gate run that fails when the "
                "gate fails")
        prof = data.get("profile")
        if isinstance(prof, str) and prof and prof not in set(ev.data.get("profiles", [])):
            # a summary carries benchmark metrics: only a built-in profile recomputes them
            bad(f"profile {profile_problem(prof, set(p.external_profiles), local=True)}", "/profile", prof,
                "a built-in profile")
        if data.get("gate_passed") is not True:
            bad(f"gate_passed is {show(data.get('gate_passed', MISSING))}; a summary records a passing gate",
                "/gate_passed", jsonable(data.get("gate_passed")), True)
        metrics = data.get("metrics", MISSING)
        if not isinstance(metrics, dict) or not metrics:
            bad(f"metrics must be a non-empty object, got {show(metrics)}", "/metrics")
        else:
            for name, value in metrics.items():
                if exact_number(value) is None:
                    bad(f"metrics.{name} must be a finite number, got {described(value)}",
                        join("/metrics", name), jsonable(value), "a finite number")
        if isinstance(source, dict) and isinstance(metrics, dict):
            for pointer, problem, actual, expected in source_problems(ctx, ev, data, source, metrics):
                bad(problem, pointer, actual, expected)
        if isinstance(key, str) and when is not None:
            pair = (key, when.astimezone(UTC).isoformat())
            if pair in seen:
                bad(f"baseline_key {key!r} at generated_at {data['generated_at']} also appears in {seen[pair]}: "
                    "history is append-only, a summary is never rewritten or duplicated", "/baseline_key", key)
            else:
                seen[pair] = path
    if out:
        return out
    return [passed(f"{len(files)} history summar{'y' if len(files) == 1 else 'ies'} in "
                   f"{spec.get('directory')}: schema {schema}, gates passed, metrics finite and equal to their "
                   "source's where the source is in the ledger, keys unique",
                   "/history", "report")]


# --- ledger_contracts --------------------------------------------------------------------


@dataclass(frozen=True)
class ContractsParams:
    __pydantic_config__ = FORBID
    directions: list[str] = field(default_factory=lambda: ["higher", "lower"])
    external_profiles: list[str] = field(default_factory=list)


def _finite(value: Any) -> Fraction | None:
    return exact_number(value)


@kind("ledger_contracts", ContractsParams, "gate contracts are consistent")
def ledger_contracts(ctx: Context, p: ContractsParams) -> Iterable[Finding]:
    """Gate contracts: unique ``name``; ``blocking`` is true exactly when ``status`` is
    ``blocking``; ``profile`` is a built-in or declared profile; every metric contract names a
    ``metric`` and a ``mode``: ``threshold`` (``direction`` higher/lower and a finite
    ``threshold``), ``no-regression`` (``direction``, ``max_regression`` >= 0 and a
    ``baseline``) or ``receipt`` (``required_receipt``, ``receipt_schema``, ``direction``, a
    finite ``threshold``, optionally ``require_receipt_checks`` and ``required_surfaces``).
    Params: ``directions``, ``external_profiles``.
    """
    ev = evidence(ctx)
    items = entry_list(ctx, "gate_contracts")
    if not items:
        return [skipped("no gate contracts")]
    profiles = set(ev.data.get("profiles", [])) | set(p.external_profiles)
    out: list[Finding] = []
    names: dict[str, str] = {}
    for i, c in enumerate(items):
        ptr = f"/gate_contracts/{i}"
        if not isinstance(c, dict):
            out.append(failed(f"{ptr} must be an object, got {type_name(c)}", ptr))
            continue
        name = c.get("name", MISSING)
        if not isinstance(name, str) or not name:
            out.append(failed(f"{ptr}/name is {show(name)}", f"{ptr}/name", "report", jsonable(name), "a name"))
        elif name in names:
            out.append(failed(f"{ptr}/name {name!r} is also the name of {names[name]}", f"{ptr}/name", "report",
                              name, "a unique name"))
        else:
            names[name] = ptr
        status, blocking = c.get("status", MISSING), c.get("blocking", MISSING)
        if not isinstance(blocking, bool):
            out.append(failed(f"{ptr}/blocking must be true or false, got {show(blocking)}", f"{ptr}/blocking",
                              "report", jsonable(blocking), "a boolean"))
        elif blocking != (status == "blocking"):
            out.append(failed(f"{ptr} says blocking {show(blocking)} but status {show(status)}: blocking is true "
                              "exactly when status is \"blocking\"", f"{ptr}/blocking", "report", blocking,
                              status == "blocking"))
        prof = c.get("profile", MISSING)
        if not isinstance(prof, str) or prof not in profiles:
            why = profile_problem(prof, set(p.external_profiles)) if isinstance(prof, str) else f"is {show(prof)}"
            out.append(failed(f"{ptr}/profile {why}", f"{ptr}/profile", "report", jsonable(prof),
                              "a built-in or declared external profile"))
        mcs = c.get("metric_contracts", MISSING)
        if not isinstance(mcs, list) or not mcs:
            out.append(failed(f"{ptr}/metric_contracts must be a non-empty list, got {show(mcs)}",
                              f"{ptr}/metric_contracts", "report"))
            continue
        for j, mc in enumerate(mcs):
            mptr = f"{ptr}/metric_contracts/{j}"

            def bad(msg: str, key: str, actual: Any = None, expected: Any = None) -> None:
                out.append(failed(f"{mptr}: {msg}", join(mptr, key) if key else mptr, "report", actual, expected))

            if not isinstance(mc, dict):
                bad(f"must be an object, got {type_name(mc)}", "")
                continue
            metric = mc.get("metric", MISSING)
            if not isinstance(metric, str) or not metric:
                bad(f"metric is {show(metric)}", "metric", jsonable(metric), "a metric name")
            mode = mc.get("mode", MISSING)
            if mode in ("threshold", "no-regression"):
                way = mc.get("direction", MISSING)
                if way not in p.directions:
                    bad(f"direction is {show(way)}, expected one of {', '.join(p.directions)}", "direction",
                        jsonable(way), p.directions)
                elif isinstance(metric, str) and direction(metric) not in (None, way):
                    bad(f"direction {way} contradicts {metric}, where {direction(metric)} is better", "direction",
                        way, direction(metric))
            if mode == "threshold":
                if _finite(mc.get("threshold", MISSING)) is None:
                    bad(f"threshold must be a finite number, got {show(mc.get('threshold', MISSING))}", "threshold",
                        jsonable(mc.get("threshold")), "a finite number")
            elif mode == "no-regression":
                allowed = _finite(mc.get("max_regression", MISSING))
                if allowed is None or allowed < 0:
                    bad(f"max_regression must be a number >= 0, got {show(mc.get('max_regression', MISSING))}",
                        "max_regression", jsonable(mc.get("max_regression")), ">= 0")
                base = mc.get("baseline", MISSING)
                if not isinstance(base, str) or not base:
                    bad(f"baseline is {show(base)}; a no-regression contract names its baseline", "baseline",
                        jsonable(base), "a baseline")
            elif mode == "receipt":
                for key, what in (("required_receipt", "the receipt file, relative to the ledger's folder"),
                                  ("receipt_schema", "the schema_version the receipt must have")):
                    value = mc.get(key, MISSING)
                    if not isinstance(value, str) or not value.strip():
                        bad(f"{key} is {show(value)}; a receipt contract names {what}", key, jsonable(value),
                            "a non-empty string")
                way = mc.get("direction", MISSING)
                if way not in p.directions:
                    bad(f"direction is {show(way)}, expected one of {', '.join(p.directions)}", "direction",
                        jsonable(way), p.directions)
                if _finite(mc.get("threshold", MISSING)) is None:
                    bad(f"threshold must be a finite number, got {show(mc.get('threshold', MISSING))}", "threshold",
                        jsonable(mc.get("threshold")), "a finite number")
                checks = mc.get("require_receipt_checks", False)
                if not isinstance(checks, bool):
                    bad(f"require_receipt_checks must be true or false, got {show(checks)}", "require_receipt_checks",
                        jsonable(checks), "a boolean")
                surfaces = mc.get("required_surfaces", [])
                if not isinstance(surfaces, list) or not all(isinstance(x, str) and x.strip() for x in surfaces):
                    bad(f"required_surfaces must be a list of surface names, got {show(surfaces)}",
                        "required_surfaces", jsonable(surfaces), "a list of strings")
            else:
                bad(f"mode is {show(mode)}, expected threshold, no-regression or receipt", "mode",
                    jsonable(mode), ["threshold", "no-regression", "receipt"])
    if out:
        return out
    used = sorted({c.get("profile") for c in items if isinstance(c, dict)} & set(p.external_profiles)
                  - set(ev.data.get("profiles", [])))
    declared = f" ({', '.join(used)} enforced outside bench-gate)" if used else ""
    return [passed(f"{len(items)} gate contract{'s' if len(items) != 1 else ''}: names unique, blocking matches "
                   f"status, profiles known{declared}, metric contracts complete", "/gate_contracts", "report")]
