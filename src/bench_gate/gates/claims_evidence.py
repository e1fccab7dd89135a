"""What the claims scan knows from the ledger and from a SOTA verdict, loaded once before the
rules run (the rules themselves read no file).

From the ledger: for every citable entry, its ``overall`` values (echoed from the artifact and
held to it by the ledger gate), the ``per_type`` slices of its artifact (the local artifact or
the external artifact manifest), what identifies the run (the CI ``run_id``, the commit, the
artifact file name, the ``mode``), its suite and dataset (which benchmark the values are on),
its question count and its ``runtime`` (which embedding or model provider it called).

Only metrics the gate recomputes are citable: ``hit@k``, ``recall@k``, ``ndcg@k``,
``legacy_recall@k`` and the QA numbers (the names the ``metrics-claimed`` rule of the ai-memory
profile recomputes). A metric an entry's gate declared not citable (the ``not_citable`` list of
its ``metrics-claimed`` result: latency, token and call counts, accepted without recomputation)
and any other name (``created_entity_count``, ``memory_projection_job_count`` in an external
artifact) is *withheld*: it never backs a docs claim, and a claim it would have matched says so.

From ``--verdict``: the verdict JSON as written, plus what only files can tell: the SHA-256 of
every input the verdict names, hashed again now, and the digest and rule ids of the built-in
``official-sota`` profile of this installation. The ``claim_phrase`` rule decides with these
whether the verdict can back a state-of-the-art claim.

A verdict is a JSON file anyone can write: the digest and rule ids are public. So its recorded
results are not taken on trust. The built-in official-sota gate is run again on the files the
verdict names (each unchanged since: the SHA-256 it recorded), as of the verdict's
``evaluated_at``, and only a passing re-run backs a claim. The verdict must therefore name a
file for every document official-sota requires (``report``, ``dataset``, ``hypotheses``,
``eval_log``, ``baseline``, ``validator``); the re-run reads exactly those files, and the
report's own paths only for optional documents the verdict did not record. Why a verdict does
not re-check is listed with its other problems as its input ``the official-sota re-run``.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from bench_gate import __version__
from bench_gate.text.isotime import TimeError, parse_instant, instant_or_none
from bench_gate.checks.recompute.metrics_claimed import ClaimedParams, Names
from bench_gate.loaders import files as documents
from bench_gate.profile.plan import Plan

RERUN = "the official-sota re-run"
"""The input under which a verdict whose recorded inputs fail official-sota again is listed."""


class EvidenceError(Exception):
    """The ledger or the verdict cannot be read (exit 2); ``str()`` is the reason."""


def _artifact(folder: Path, written: Any) -> dict[str, Any]:
    if not isinstance(written, str) or not written:
        return {}
    doc = documents.load("artifact", written, folder, confine=True, fmt="json", want_object=True, origin="report")
    return doc.data if doc.error is None and isinstance(doc.data, dict) else {}


def _identities(entry: dict[str, Any], artifact: dict[str, Any]) -> list[str]:
    ids: list[str] = []
    external = artifact.get("external_artifact")
    if isinstance(external, dict) and isinstance(external.get("run_id"), str | int):
        ids.append(str(external["run_id"]))
    for key in ("sibyl_commit", "commit"):
        for source in (entry, artifact):
            if isinstance(source.get(key), str) and source[key]:
                ids.append(source[key].lower())
    for key in ("artifact", "external_artifact_manifest"):
        if isinstance(entry.get(key), str):
            name = Path(entry[key]).name
            ids.extend([name, Path(name).stem])
    return list(dict.fromkeys(ids))


def _count(dataset: Any, key: str, default: Any) -> int | None:
    """A question count of the entry's dataset block (``default`` when it has none)."""
    value = dataset.get(key, default) if isinstance(dataset, dict) else default
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _system(entry: dict[str, Any], artifact: dict[str, Any]) -> str | None:
    """The system an entry is a result of, as the ledger or its artifact names it."""
    for source in (entry, artifact):
        for key in ("system", "system_name"):
            if isinstance(source.get(key), str) and source[key].strip():
                return source[key].strip()
    return None


def citable(path: str, not_citable: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """The citable entries and values of a ledger, as plain data for the ``citable`` document.

    ``not_citable`` maps an entry (``/citable/2``) to the metrics its gate declared not citable."""
    doc = documents.load("ledger", path, Path("."), confine=False, fmt="json", want_object=True, origin="cli")
    if doc.error is not None:
        raise EvidenceError(f"--ledger {path}: {doc.error}")
    folder = Path(path).parent
    names = Names(ClaimedParams())
    values: list[dict[str, Any]] = []
    withheld: list[dict[str, Any]] = []
    entries: list[dict[str, Any]] = []
    listed = doc.data.get("citable")
    for i, entry in enumerate(listed if isinstance(listed, list) else []):
        if not isinstance(entry, dict) or entry.get("status") != "citable":
            continue
        name = str(entry.get("artifact", entry.get("external_artifact_manifest", "?")))
        artifact = _artifact(folder, entry.get("artifact", entry.get("external_artifact_manifest")))
        dataset = entry.get("dataset")
        scope = f"{entry.get('suite', '')} {dataset.get('name', '') if isinstance(dataset, dict) else ''}"
        ref = f"/citable/{i}"
        declared = set((not_citable or {}).get(ref, []))

        def add(metric: Any, value: Any, **more: Any) -> None:
            item = {"metric": metric, "value": value, "entry": ref, "artifact": name, "scope": scope, **more}
            if not isinstance(metric, str) or metric in declared:
                withheld.append({**item, "why": "declared not citable by its gate (metrics-claimed)"})
            elif names.classify(metric)[0] != "recomputed":
                withheld.append({**item, "why": "not a metric the gate recomputes"})
            else:
                values.append(item)

        overall = entry.get("overall")
        for metric, value in (overall.items() if isinstance(overall, dict) else []):
            add(metric, value)
        per_type = artifact.get("per_type")
        for slice_name, metrics in (per_type.items() if isinstance(per_type, dict) else []):
            for metric, value in (metrics.items() if isinstance(metrics, dict) else []):
                add(metric, value, slice=slice_name)
        runtime = entry.get("runtime") if isinstance(entry.get("runtime"), dict) else artifact.get("runtime")
        # What a run called: the runtime, and the QA block and accounting of the entry and of its
        # artifact (a reader or judge model is a remote call even when the runtime does not echo it).
        calls = {f"{where} {block}": source[block] for where, source in (("ledger entry", entry), ("artifact", artifact))
                 for block in ("qa", "accounting") if isinstance(source.get(block), dict)}
        entries.append({"entry": ref, "artifact": name, "scope": scope, "mode": entry.get("mode"),
                        "ids": _identities(entry, artifact), "questions": entry.get("questions"),
                        "runtime": runtime if isinstance(runtime, dict) else None, "calls": calls,
                        "evaluated": _count(dataset, "evaluated_entries", entry.get("questions")),
                        "total": _count(dataset, "total_entries", None),
                        "system": _system(entry, artifact)})
    return {"values": values, "withheld": withheld, "entries": entries}


def verdict(path: str) -> tuple[dict[str, Any], documents.Doc]:
    """A ``--verdict`` file and what the files it names hash to now."""
    doc = documents.load("verdict", path, Path("."), confine=False, fmt="json", want_object=True, origin="cli")
    if doc.error is not None:
        raise EvidenceError(f"--verdict {path}: {doc.error}")
    hashes: dict[str, str] = {}
    inputs = doc.data.get("inputs")
    for item in inputs if isinstance(inputs, list) else []:
        written = item.get("path") if isinstance(item, dict) else None
        if not isinstance(written, str) or not written or written in hashes:
            continue
        hashes[written] = _hash_now(written, Path(path).parent)
    from bench_gate.profile import load_profile
    from bench_gate.profile.binding import bind

    plan = bind(load_profile("official-sota"))
    data = doc.data
    why = recheck(plan, data, hashes, Path(path).parent)
    if why is not None:  # listed with the verdict's other problems, as an input that does not hold
        data = {**data, "inputs": [*(inputs if isinstance(inputs, list) else []),
                                   {"role": "rerun", "path": RERUN, "sha256": None}]}
        hashes[RERUN] = f"error:{why}"
    report = next((item.get("path") for item in inputs if isinstance(item, dict) and item.get("role") == "report"),
                  None) if isinstance(inputs, list) else None
    info = {"path": path, "data": data, "hashes": hashes, "builtin_digest": plan.digest,
            "builtin_rules": sorted({r.id for r in plan.rules}),
            "system": validated_system(report, Path(path).parent) if isinstance(report, str) else None}
    return info, doc


def recheck(plan: Plan, data: dict[str, Any], hashes: dict[str, str], verdict_folder: Path) -> str | None:
    """Why official-sota does not pass again on the verdict's recorded inputs (None: it does, or the
    verdict already fails for a reason the claims rule names: another profile, no inputs, an input
    changed or gone, no readable ``evaluated_at``)."""
    from bench_gate.gates.report_gate import UsageError, judge, load_cli_documents

    profile = data.get("profile")
    inputs = data.get("inputs")
    if not isinstance(profile, dict) or profile.get("name") != "official-sota" or not isinstance(inputs, list) \
            or not inputs:
        return None
    recorded: dict[str, str] = {}
    for item in inputs:
        role, written = (item.get("role"), item.get("path")) if isinstance(item, dict) else (None, None)
        if not isinstance(role, str) or not isinstance(written, str) or hashes.get(written) != item.get("sha256"):
            return None  # an input without a role or path, or changed since: named as such already
        if role in recorded and recorded[role] != written:
            return f"it names two {role} files ({recorded[role]}, {written})"
        recorded[role] = written
    needed = ["report"] + sorted(r for r, d in plan.profile.documents.items() if d.spec.required)
    missing = [r for r in needed if r not in recorded]
    if missing:
        return (f"it names no {', '.join(missing)} file, so official-sota cannot be run again on what it judged "
                "(a verdict must list every document official-sota reads)")
    at = instant_or_none(data.get("evaluated_at"))
    if at is None:
        return None
    base = next((b for b in (Path("."), verdict_folder) if (b / recorded["report"]).is_file()), Path("."))
    named = {role: str(base / written) for role, written in recorded.items() if role != "report"}
    try:
        again = judge(plan, str(base / recorded["report"]), load_cli_documents(plan, named), base, at, __version__)
    except UsageError as exc:
        return f"official-sota cannot be run again on its recorded inputs: {exc}"
    if again.passed:
        return None
    failing = [r for r in again.results if r.status == "fail" and r.severity == "error"]
    first = f" (first: {failing[0].rule}: {failing[0].message[:200]})" if failing else ""
    return (f"its recorded inputs fail official-sota when it is run again: {len(failing)} error "
            f"rule{'s' if len(failing) != 1 else ''} failed{first}")


def validated_system(report: str, verdict_folder: Path = Path(".")) -> str | None:
    """The name of the system an official-sota report validated (``result_provenance.validated_system.name``,
    as written, else next to the verdict), or None when the report does not name one."""
    for base in dict.fromkeys((Path("."), verdict_folder)):
        if not (base / report).is_file():
            continue
        doc = documents.load("report", str(base / report), Path("."), confine=False, fmt="json", want_object=True,
                             origin="cli")
        provenance = doc.data.get("result_provenance") if doc.error is None and isinstance(doc.data, dict) else None
        system = provenance.get("validated_system") if isinstance(provenance, dict) else None
        name = system.get("name") if isinstance(system, dict) else None
        return name.strip() if isinstance(name, str) and name.strip() else None
    return None


def _hash_now(written: str, verdict_folder: Path) -> str:
    """The SHA-256 (hex) of the file as it is now (as written, else next to the verdict), or
    ``missing`` / ``error:<reason>``."""
    tried = []
    for base in (Path("."), verdict_folder):
        candidate = base / written
        if str(candidate) in tried:
            continue
        tried.append(str(candidate))
        if candidate.is_file():
            try:
                digest, _ = documents.hash_file(documents.locate(str(candidate), Path("."), confine=False))
            except (documents.DocumentError, OSError) as exc:
                return f"error:{exc}"
            return digest
    return "missing"
