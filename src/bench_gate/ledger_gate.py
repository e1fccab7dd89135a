"""``bench-gate ledger MANIFEST``: gate a claim ledger.

::

    bench-gate ledger benchmarks/results/ai-memory/manifest.json [--format json] [--now T]

A ledger (manifest JSON) lists the benchmark artifacts whose numbers may be cited. This verb
reads every file the ledger names, relative to the ledger's folder and confined to it (local
artifacts, external artifact manifests, history summaries, receipts), gates every citable local
artifact with its own ``gate_profile`` through the same engine as ``bench-gate ARTIFACT
--profile P`` (adding ``--require-accounting`` / ``--require-qa`` when the entry sets
``accounting_required`` / ``qa_required``), and then evaluates the built-in ``ledger`` profile
(``bench-gate explain ledger``; ``--profile PATH`` names another one, e.g. a profile that
``extends: ledger``) over the manifest. ``--waivers FILE`` applies reviewed, expiring waivers
exactly as the report gate does.

The result is one verdict: the ledger's own rules, followed by the full verdict of every gated
artifact, its rule ids prefixed with the entry (``citable/0/metrics-recompute``) and its
document roles with the entry (``citable/0``; ``citable/0/baseline`` for an artifact's own
documents). Exit codes as for the report gate: 0 passed, 1 failed, 2 the manifest could not be
read (missing, not JSON, not an object) or the command line is wrong.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime
from pathlib import Path
from typing import Any

from bench_gate import __version__
from bench_gate.loaders import confined
from bench_gate.loaders import files as documents
from bench_gate.checks.ledger import EVIDENCE
from bench_gate.engine import evaluate
from bench_gate.models import Doc, InputDigest, RuleResult, Verdict
from bench_gate.profile import load_profile
from bench_gate.profile.binding import bind
from bench_gate.profile.model import ProfileError
from bench_gate.profile.sources import builtin_names

GATE_FLAGS = (("accounting_required", "require_accounting", "--require-accounting"),
              ("qa_required", "require_qa", "--require-qa"))
"""Entry field -> gate parameter -> the option a user would pass."""


class LedgerError(Exception):
    """The ledger cannot be evaluated at all (exit 2); ``str()`` is the reason."""


def _local(doc: Doc) -> Doc:
    """A loaded file whose error speaks of the ledger folder, where users look for it."""
    if doc.error and "evidence root" in doc.error:
        error = re.sub(r"the evidence root( '[^']*')?", "the ledger folder", doc.error)
        return dataclasses.replace(doc, error=error.replace("paths in a report", "paths in a ledger"))
    return doc


def _shown(folder: Path, written: str) -> str:
    """The path of a file the ledger names, as a user would type it from the current folder."""
    return written if str(folder) in ("", ".") else str(folder / written)


def _gate_artifact(entry: dict[str, Any], doc: Doc, shown: str, folder: Path, now: datetime,
                   version: str, role: str) -> tuple[dict[str, Any], Verdict | None]:
    """Gate one artifact with its own profile; (summary for the rules, full verdict)."""
    from bench_gate.runner import gather

    ref = entry.get("gate_profile")
    info: dict[str, Any] = {"profile": ref, "flags": []}
    if not isinstance(ref, str) or not ref:
        info["error"] = "no gate_profile"
        return info, None
    values: dict[str, Any] = {}
    path_like = "/" in ref or ref.endswith((".yaml", ".yml"))
    if not path_like and ref not in builtin_names():
        info["error"] = f"{ref!r} is not a built-in profile"
        return info, None
    try:
        target = ref if "/" not in ref and not ref.endswith((".yaml", ".yml")) else str(folder / ref)
        profile = load_profile(target)
        for field, param, option in GATE_FLAGS:
            wanted = entry.get(field, False)
            if not isinstance(wanted, bool):
                info["error"] = f"{field} must be true or false, got {wanted!r}"
                return info, None
            if wanted:
                if param not in profile.params:
                    info["error"] = f"{field} is true but profile {profile.name} has no {option}"
                    return info, None
                values[param] = True
                info["flags"].append(option)
        plan = bind(profile, values)
    except ProfileError as exc:
        info["error"] = str(exc)
        return info, None
    report = dataclasses.replace(doc, role="report", path=shown, origin="cli")
    verdict = evaluate(plan, gather(plan, report, {}, folder), now, report_path=shown, tool_version=version)
    counts = verdict.counts()
    info["passed"] = verdict.passed
    info["summary"] = f"{counts['fail']} failed, {counts['pass']} passed, {counts['skip']} skipped"
    info["failed"] = [
        {"rule": r.rule, "message": r.message, "pointer": r.pointer,
         "document": role if r.document == "report" else f"{role}/{r.document}",
         "actual": r.actual, "expected": r.expected}
        for r in verdict.results if r.status == "fail" and r.severity == "error"
    ]
    return info, verdict


def load_evidence(data: dict[str, Any], folder: Path, now: datetime,
                  version: str = __version__) -> tuple[Doc, list[tuple[str, Verdict]]]:
    """Read every file the ledger names and gate its citable artifacts.

    Returns the ``evidence`` document for the ledger's check kinds and the nested verdicts
    (entry role, verdict) in ledger order. Problems are recorded, never raised.
    """
    entries: dict[str, Any] = {}
    docs: dict[str, Doc] = {}
    verdicts: list[tuple[str, Verdict]] = []
    citable = data.get("citable")
    for i, entry in enumerate(citable if isinstance(citable, list) else []):
        if not isinstance(entry, dict):
            continue
        ptr, role = f"/citable/{i}", f"citable/{i}"
        named = [k for k in ("artifact", "external_artifact_manifest") if k in entry]
        if len(named) != 1:
            continue
        written = entry[named[0]]
        if not isinstance(written, str) or not written.strip():
            entries[ptr] = {"role": role, "path": None, "error": f"must be a relative path string, got {written!r}"}
            continue
        doc = documents.load(role, written, folder, confine=True, fmt="json", want_object=True, origin="report")
        shown = _shown(folder, written)
        doc = _local(dataclasses.replace(doc, path=shown))
        docs[role] = doc
        info: dict[str, Any] = {"role": role, "path": written, "error": doc.error}
        entries[ptr] = info
        if named[0] == "artifact" and doc.error is None:
            gate, verdict = _gate_artifact(entry, doc, shown, folder, now, version, role)
            info["gate"] = gate
            if verdict is not None:
                verdicts.append((role, verdict))

    history: dict[str, Any] = {"files": []}
    spec = data.get("history")
    if isinstance(spec, dict):
        directory = spec.get("directory")
        if not isinstance(directory, str) or not directory.strip():
            history["error"] = f"must be a relative folder name, got {directory!r}"
        else:
            try:
                where = confined.locate(directory, folder, confine=True)
                if not where.real.is_dir():
                    raise confined.DocumentError("no such folder in the ledger folder")
                names = sorted(p.name for p in where.real.iterdir() if p.name.endswith(".json"))
            except (confined.DocumentError, OSError) as exc:
                history["error"] = str(exc)
                names = []
            for name in names:
                written = f"{directory.rstrip('/')}/{name}"
                role = f"history/{name}"
                doc = documents.load(role, written, folder, confine=True, fmt="json", want_object=True,
                                     origin="report")
                docs[role] = _local(dataclasses.replace(doc, path=_shown(folder, written)))
                history["files"].append({"role": role, "path": written})

    receipts: dict[str, str | None] = {}
    contracts = data.get("gate_contracts")
    for c in contracts if isinstance(contracts, list) else []:
        for mc in (c.get("metric_contracts") or []) if isinstance(c, dict) else []:
            receipt = mc.get("receipt") if isinstance(mc, dict) else None
            if isinstance(receipt, str) and receipt and receipt not in receipts:
                doc = documents.load(f"receipt/{receipt}", receipt, folder, confine=True, fmt="hash",
                                     origin="report")
                doc = _local(dataclasses.replace(doc, path=_shown(folder, receipt)))
                receipts[receipt] = doc.error
                docs[f"receipt/{receipt}"] = doc

    evidence = Doc(EVIDENCE, str(folder), data={
        "folder": str(folder), "profiles": builtin_names(), "entries": entries, "history": history,
        "receipts": receipts}, extra={"docs": docs, "verdicts": dict(verdicts)})
    return evidence, verdicts


def _nested(role: str, verdict: Verdict) -> tuple[list[RuleResult], list[InputDigest]]:
    """An artifact's results and inputs, renamed into the ledger's namespace."""
    def doc_role(d: str) -> str:
        return role if d == "report" else f"{role}/{d}"

    results = [dataclasses.replace(
        r, rule=f"{role}/{r.rule}", document=doc_role(r.document),
        details=tuple(dataclasses.replace(d, document=doc_role(d.document)) for d in r.details))
        for r in verdict.results]
    inputs = [InputDigest(doc_role(i.role), i.path, i.sha256, i.bytes) for i in verdict.inputs]
    return results, inputs


def gate_ledger(path: str, now: datetime, version: str = __version__, profile: str = "ledger") -> Verdict:
    """The verdict for one ledger; :class:`LedgerError` when the manifest cannot be read."""
    manifest = documents.load("report", path, Path("."), confine=False, fmt="json", want_object=True, origin="cli")
    if manifest.error is not None:
        raise LedgerError(f"ledger {path}: {manifest.error}")
    folder = Path(path).parent
    evidence, nested = load_evidence(manifest.data, folder, now, version)
    try:
        plan = bind(load_profile(profile))
    except ProfileError as exc:
        raise LedgerError(f"profile: {exc}") from None
    verdict = evaluate(plan, {"report": manifest, EVIDENCE: evidence}, now, report_path=path,
                       tool_version=version)
    results = list(verdict.results)
    inputs = list(verdict.inputs)
    seen = {(i.role, i.path) for i in inputs}
    for role, doc in evidence.extra["docs"].items():
        if doc.error is None and doc.sha256 and (role, doc.path) not in seen:
            inputs.append(InputDigest(role, doc.path, doc.sha256, doc.size))
            seen.add((role, doc.path))
    for role, sub in nested:
        more_results, more_inputs = _nested(role, sub)
        results.extend(more_results)
        for i in more_inputs:
            if (i.role, i.path) not in seen:
                inputs.append(i)
                seen.add((i.role, i.path))
    return dataclasses.replace(verdict, results=tuple(results), inputs=tuple(inputs))
