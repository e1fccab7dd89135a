"""Gathering what a plan needs for one report, and judging it.

The report itself and every document named on the command line must be readable, or the run
cannot be evaluated (exit 2). Documents the *report* points to (``from_report`` in the profile)
are evidence: when one is missing, escapes the evidence root or is malformed, the rules that
need it fail (exit 1) with the reason; nothing is skipped for being absent.
"""

from __future__ import annotations

import gc
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path

from bench_gate.loaders import files as documents
from bench_gate.jsonvalues import show
from bench_gate.text.pointer import MISSING, resolve
from bench_gate.engine import evaluate
from bench_gate.models import Doc, Verdict
from bench_gate.profile.plan import Plan
from bench_gate.records import replace


class UsageError(Exception):
    """The run cannot be evaluated; ``str()`` is the one-line reason (exit 2)."""


def load_report(path: str, fmt: str = "json") -> Doc:
    """The report under judgement, or a UsageError saying why it cannot be read.

    A profile whose ``report_format`` parameter is ``jsonl`` judges a JSON Lines file (an
    official evaluator or retrieval log): every line must be a JSON object.
    """
    doc = documents.load("report", path, Path("."), confine=False, fmt=fmt, want_object=True,
                         origin="cli")
    if doc.error is not None:
        hint = " (this profile judges a JSON Lines file: one JSON object per line)" if fmt == "jsonl" else ""
        raise UsageError(f"report {path}: {doc.error}{hint}{_looks_like(path, fmt)}")
    return doc


def _looks_like(path: str, fmt: str) -> str:
    """What an unreadable report looks like when read another way: ``; it looks like ...``, or ""."""
    from bench_gate.gates import recognise

    def loaded(other: str) -> Doc:
        if other == fmt:
            return Doc("report", path, error="read as the profile reads it")
        return documents.load("report", path, Path("."), confine=False, fmt=other, want_object=True, origin="cli")

    return recognise.hint(path, loaded)


def load_cli_documents(plan: Plan, named: Mapping[str, str]) -> dict[str, Doc]:
    """Documents given on the command line (``--doc ROLE=PATH`` or an alias); unreadable is exit 2.

    A profile that only its own command can run (``ledger``, ``claims``) is refused here, before
    any report is read: it would fail every rule for want of what its command gathers.
    """
    if plan.profile.command:
        raise UsageError(f"profile {plan.name} cannot gate a report given with --profile; it is run by "
                         f"its own command: {plan.profile.command}")
    out: dict[str, Doc] = {}
    for role, path in named.items():
        declared = plan.profile.documents.get(role)
        if declared is None:
            known = ", ".join(sorted(plan.profile.documents)) or "none"
            raise UsageError(f"--doc {role}=...: profile {plan.name} declares no document role "
                             f"{role!r} (declared: {known})")
        spec = declared.spec
        doc = documents.load(role, path, Path("."), confine=False, fmt=spec.format,
                             want_object=spec.object, origin="cli")
        if doc.error is not None:
            raise UsageError(f"{spec.option or '--doc ' + role} {path}: {doc.error}")
        out[role] = doc
    return out


def gather(plan: Plan, report: Doc, cli_docs: Mapping[str, Doc], root: Path) -> dict[str, Doc]:
    """Every document of the plan for this report: command line first, then report paths."""
    docs: dict[str, Doc] = {"report": report}
    for role, declared in plan.profile.documents.items():
        if role in cli_docs:
            docs[role] = cli_docs[role]
            continue
        spec = declared.spec
        if spec.from_report is None:
            continue
        written = resolve(report.data, spec.from_report)
        if written is MISSING or written is None:
            continue
        if not isinstance(written, str) or not written.strip():
            docs[role] = Doc(role, show(written), error=f"report:{spec.from_report} must be a "
                             f"non-empty path string, got {show(written)}")
            continue
        # an absolute path from the producing machine is looked up under the root by its tail
        docs[role] = documents.load(role, written, root, confine=True, fmt=spec.format,
                                    want_object=spec.object, origin="report", by_suffix=True)
    tables = plan.values.get("artifact_tables")
    if tables:
        # the files that artifact tables list, hashed here so that the check stays pure
        from bench_gate.loaders.artifacts import ROLE, hash_tables

        docs[ROLE] = hash_tables([t for t in tables if isinstance(t, str)], docs, root)
    return docs


def judge(plan: Plan, report_path: str, cli_docs: Mapping[str, Doc], root: Path, now: datetime,
          version: str) -> Verdict:
    """Load one report and its evidence, and evaluate the plan.

    The cycle collector is paused meanwhile: reading a report allocates a container per JSON
    object and array, the rules derive more from them, and none of it forms a reference cycle;
    collecting, again and again, over documents that only grow would only cost time. It runs
    again, as before, once the verdict is ready.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _judge(plan, report_path, cli_docs, root, now, version)
    finally:
        if collecting:
            gc.enable()


def _judge(plan: Plan, report_path: str, cli_docs: Mapping[str, Doc], root: Path, now: datetime,
           version: str) -> Verdict:
    if plan.values.get("report_format") == "runfolder":
        # The report is an AEF run folder (memory-pair); a folder of runs holds both arms.
        from bench_gate.loaders.runfolder import DiscoveryError, expand_report

        try:
            report_path, oracle = expand_report(report_path)
        except DiscoveryError as exc:
            raise UsageError(f"report {exc}{_looks_like(report_path, 'runfolder')}") from None
        if oracle is not None:
            if "oracle" in cli_docs:
                raise UsageError(f"report {report_path}: the evidence folder holds an oracle arm ({oracle}) "
                                 "and an oracle is also given on the command line; give one of them")
            cli_docs = {**cli_docs, "oracle": documents.load("oracle", oracle, Path("."), confine=False,
                                                             fmt="runfolder", origin="folder")}
        report = load_report(report_path, "runfolder")
    else:
        report = load_report(report_path, "jsonl" if plan.values.get("report_format") == "jsonl" else "json")
    docs = gather(plan, report, cli_docs, root)
    verdict = evaluate(plan, docs, now, report_path=report_path, tool_version=version)
    from bench_gate.gates import recognise

    # a built-in profile run on a report of another format says so first, before its failures
    other = recognise.result(plan.name, f"{plan.profile.source}:1", report)
    if other is not None:
        verdict = replace(verdict, results=(other, *verdict.results))
    return locate_failures(verdict, docs, root)


def locate_failures(verdict: Verdict, docs: Mapping[str, Doc], root: Path) -> Verdict:
    """The verdict with the file each document was read from, as a reader opens it from the
    current directory, and the line and column of every failure's pointer in its JSON file."""
    located = {role: opened_path(doc, root) for role, doc in docs.items()
               if doc is not None and not doc.error and doc.sha256}
    wanted: dict[str, set[str]] = {}
    for r in verdict.results:
        if r.status in ("fail", "waived"):
            for document, pointer in [(r.document, r.pointer), *((d.document, d.pointer) for d in r.details)]:
                if pointer.startswith("/"):
                    wanted.setdefault(document, set()).add(pointer)
    found: dict[tuple[str, str], tuple[int, int]] = {}
    for role, pointers in wanted.items():
        doc = docs.get(role)
        if doc is None or role not in located or doc.rows is not None or doc.data is None:
            continue
        from bench_gate.loaders.positions import positions_in_file  # only failures are located

        for pointer, position in positions_in_file(located[role], doc.sha256, pointers).items():
            found[(role, pointer)] = position
    return replace(verdict, positions=found, located=located)


def opened_path(doc: Doc, root: Path) -> str:
    """Where a document was read from, as a path that opens from the current directory.

    A path from another machine found under the evidence root is where it was found; a relative
    path written inside a report is joined to the root; a path given on the command line is as
    given.
    """
    if doc.found:
        return doc.found
    if doc.origin == "report" and not Path(doc.path).is_absolute():
        return (root / doc.path).as_posix()
    return doc.path
