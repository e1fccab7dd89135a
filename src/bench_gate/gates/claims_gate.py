"""``bench-gate claims PATH... --ledger MANIFEST``: check the benchmark claims in docs.

::

    bench-gate claims README.md docs/ --ledger benchmarks/results/ai-memory/manifest.json
    bench-gate claims README.md --ledger manifest.json --verdict sota-verdict.json --format sarif
    bench-gate claims README.md --ledger manifest.json --sota-report reports/qa-report.json

Reads Markdown, HTML and text files (a folder is searched for ``*.md``, ``*.markdown``,
``*.mdx``, ``*.txt``, ``*.text``, ``*.rst``, ``*.adoc``, ``*.asciidoc``, ``*.html``, ``*.htm``
and text files without a suffix such as ``README``, skipping hidden folders; every other file
of a folder is listed as not read), gates the ledger exactly as ``bench-gate ledger``
does, and runs the built-in ``claims`` profile (``bench-gate explain claims``): every benchmark
number must match a citable value of the ledger at the precision written (per-type figures
against that type's slice), and overclaim language ("100% recall", "first perfect score",
"highest published", "best", "#1", "beats everyone", "zero API", "state of the art") fails with
the reason unless the evidence backs it.

Each claim is one result: ``document`` is the file, ``pointer`` is ``/line/L/column/C`` and the
message starts with ``file:line:column`` and quotes the sentence or names the table cell.

Options: ``--verdict PATH`` (a verdict JSON of ``bench-gate REPORT --profile official-sota
--format json``; it backs a state-of-the-art claim only when it checks out: same tool version
family, the built-in profile's digest, every input's SHA-256 unchanged, ``passed`` consistent
with its results, evaluated recently enough), ``--sota-report REPORT`` (run the official-sota
gate on REPORT now instead; ``--sota-doc ROLE=PATH`` supplies its documents, e.g.
``baseline=...``), ``--include-code`` (also scan fenced code blocks and inline code),
``--profile NAME|PATH`` (another claims profile, e.g. one that ``extends: claims`` with
required and forbidden phrases), ``--ledger-profile NAME|PATH`` (the profile the ledger is
gated with, as ``bench-gate ledger --profile``), ``--external-profile NAME`` (a profile the ledger's
contracts may name that is enforced outside bench-gate, as ``bench-gate ledger``), ``--waivers FILE`` (reviewed, expiring waivers; scope one by
``document`` = the file and ``pointer`` = ``/line/L/column/C``), and the output options of the
report gate (``--format``, ``--output``, ``--output-file``, ``--now``, ``--no-color``).

Exit codes: 0 every claim is backed, 1 a claim is not, 2 a file, the ledger or the verdict
cannot be read, or the command line is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from bench_gate import __version__
from bench_gate.gates import claims_evidence as evidence
from bench_gate.loaders import confined
from bench_gate.loaders import files as documents
from bench_gate.checks.claims.matching import CITABLE, SCAN
from bench_gate.gates.ledger_gate import CommandReader, LedgerError, judge_ledger
from bench_gate.engine import evaluate
from bench_gate.models import Doc, InputDigest, Verdict
from bench_gate.profile import load_profile
from bench_gate.profile.binding import bind
from bench_gate.profile.plan import ProfileError

# Markdown, HTML, and text read as paragraphs (reStructuredText and AsciiDoc included: their
# markup is light enough that a sentence reads as it renders).
SUFFIXES = (".md", ".markdown", ".mdx", ".txt", ".text", ".rst", ".adoc", ".asciidoc", ".html", ".htm")
MAX_TEXT_BYTES = 16 * 1024 * 1024


class ClaimsError(Exception):
    """The scan cannot be evaluated (exit 2); ``str()`` is the reason."""


def _is_text(path: Path) -> bool:
    """True for a file without a suffix that is UTF-8 text (a ``README``, ``NOTES``, ``CHANGELOG``)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(8192)
    except OSError:
        return False
    if b"\0" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start >= len(head) - 3  # a character cut at the end of the sample
    return True


def _files(paths: Sequence[str]) -> tuple[list[Path], list[Path]]:
    """The files to scan, and the files of the named folders that are not documents (listed in
    the verdict, so that nothing is left out silently)."""
    out: list[Path] = []
    skipped: list[Path] = []
    for given in paths:
        p = Path(given)
        if p.is_dir():
            for f in sorted(f for f in p.rglob("*") if f.is_file()
                            and not any(part.startswith(".") for part in f.relative_to(p).parts)):
                if f.suffix.lower() in SUFFIXES or (not f.suffix and _is_text(f)):
                    out.append(f)
                else:
                    skipped.append(f)
        elif p.is_file():
            out.append(p)
        else:
            raise ClaimsError(f"{given}: no such file or folder")
    seen: set[str] = set()
    unique = []
    for f in out:
        if str(f) not in seen:
            seen.add(str(f))
            unique.append(f)
    return unique, [f for f in dict.fromkeys(skipped) if str(f) not in seen]


def _read_text(path: Path) -> tuple[str, str, int]:
    try:
        raw = confined.read_confined(confined.locate(str(path), Path("."), confine=False), MAX_TEXT_BYTES)
    except confined.DocumentError as exc:
        raise ClaimsError(str(exc)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ClaimsError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    # any line end is a line end: CRLF and CR-only files read as LF (columns do not change)
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n"), confined.sha256(raw), len(raw)


def _sota_run(report: str | None, docs: Sequence[str], now: datetime, version: str) -> dict[str, Any] | None:
    """Run the built-in official-sota gate on ``report`` now: what the SOTA phrase rules see."""
    if report is None:
        if docs:
            raise ClaimsError("--sota-doc needs --sota-report REPORT")
        return None
    from bench_gate.gates.report_gate import UsageError, judge, load_cli_documents

    named: dict[str, str] = {}
    for item in docs:
        role, sep, path = item.partition("=")
        if not sep or not role or not path:
            raise ClaimsError(f"--sota-doc {item!r}: expected ROLE=PATH")
        named[role] = path
    plan = bind(load_profile("official-sota"))
    try:
        verdict = judge(plan, report, load_cli_documents(plan, named), Path("."), now, version)
    except UsageError as exc:
        raise ClaimsError(f"--sota-report: {exc}") from None
    counts = verdict.counts()
    return {"report": report, "passed": verdict.passed, "system": evidence.validated_system(report),
            "summary": f"{counts['fail']} failed, {counts['pass']} passed, {counts['skip']} skipped"}


def _ledger(ledger: str, now: datetime, version: str, profile: str, external_profiles: Sequence[str],
            read_command: CommandReader | None = None
            ) -> tuple[list[evidence.GatedEntry], dict[str, Any], InputDigest | None]:
    """The citable entries of a gated ledger, what the ``claim-ledger-passes`` rule says of it,
    and its input digest."""
    try:
        run = judge_ledger(ledger, now, version, profile=profile, external_profiles=external_profiles,
                           read_command=read_command)
    except LedgerError as exc:
        raise ClaimsError(str(exc).replace("ledger ", "--ledger ", 1)) from None
    entries = evidence.from_ledger(run.manifest, run.evidence, run.verdict, ledger)
    counts = run.verdict.counts()
    info = {
        "path": ledger, "passed": run.verdict.passed,
        "summary": f"{counts['fail']} failed, {counts['pass']} passed, {counts['skip']} skipped",
        "failed": [f"{r.rule}: {r.message}" for r in run.verdict.results if r.status == "fail"],
        "values": sum(1 for e in entries for v in e.values if "slice" not in v),
    }
    found = next((i for i in run.verdict.inputs if i.role == "report"), None)
    digest = InputDigest(ledger, ledger, found.sha256, found.bytes) if found is not None else None
    return entries, info, digest


def scan_claims(paths: Sequence[str], ledger: str | None, verdict: str | None, now: datetime,
                include_code: bool = False, version: str = __version__, profile: str = "claims",
                sota_report: str | None = None, sota_docs: Sequence[str] = (),
                ledger_profile: str = "ledger", external_profiles: Sequence[str] = (),
                evidence_file: str | None = None, read_command: CommandReader | None = None) -> Verdict:
    """One verdict for the claims in ``paths``, each claim a result; ClaimsError when unreadable.
    ``read_command`` is handed to the ledger gate (:func:`~bench_gate.gates.ledger_gate.gate_ledger`).

    The numbers are backed by the citable entries of ``ledger`` (gated as ``bench-gate ledger``
    gates it), by the entries of ``evidence_file`` (each gated with its profile), or both."""
    if not paths:
        raise ClaimsError("no PATH given")
    if ledger is None and evidence_file is None:
        raise ClaimsError("give --ledger MANIFEST or --evidence FILE (or both): the evidence the numbers are checked "
                          "against")
    if verdict is not None and sota_report is not None:
        raise ClaimsError("give --verdict or --sota-report, not both")
    entries: list[evidence.GatedEntry] = []
    all_inputs: list[InputDigest] = []
    ledger_info = None
    if ledger is not None:
        found, ledger_info, digest = _ledger(ledger, now, version, ledger_profile, external_profiles, read_command)
        entries += found
        all_inputs += [digest] if digest is not None else []
    evidence_info = None
    if evidence_file is not None:
        try:
            found, more = evidence.from_file(evidence_file, now, version)
        except evidence.EvidenceError as exc:
            raise ClaimsError(str(exc)) from None
        entries += found
        all_inputs += more
        evidence_info = {"path": evidence_file, "entries": [
            {"name": e.ref, "artifact": e.artifact, "profile": e.profile, "user_profile": e.user_profile,
             "passed": e.passed, "summary": e.summary, "failed": list(e.failing),
             "values": sum(1 for v in e.values if "slice" not in v)} for e in found]}
    try:
        sota, sota_doc = evidence.verdict(verdict) if verdict is not None else (None, None)
    except evidence.EvidenceError as exc:
        raise ClaimsError(str(exc)) from None
    ran = _sota_run(sota_report, sota_docs, now, version)
    files, inputs = [], []
    scanned, skipped = _files(paths)
    if not scanned:
        raise ClaimsError(f"no Markdown, HTML or text file ({', '.join('*' + x for x in SUFFIXES)}, or text "
                          f"without a suffix) in {', '.join(paths)}")
    for f in scanned:
        text, digest, size = _read_text(f)
        files.append({"path": f.as_posix(), "text": text})
        inputs.append(InputDigest(f.as_posix(), f.as_posix(), digest, size))
    documents = {
        SCAN: Doc(SCAN, ", ".join(paths), data={"files": files, "include_code": include_code,
                                                 "skipped": [f.as_posix() for f in skipped]}),
        CITABLE: Doc(CITABLE, ledger or evidence_file or "", data={
            **evidence.citable_data(entries), "verdict": sota, "sota_run": ran, "ledger": ledger_info,
            "evidence": evidence_info, "tool_version": version}),
    }
    try:
        plan = bind(load_profile(profile))
    except ProfileError as exc:
        raise ClaimsError(f"profile: {exc}") from None
    # The same engine as every gate (when:, disabled_by, fail closed), each claim a result of its own.
    results = evaluate(plan, documents, now, each_finding=True).results
    all_inputs += inputs
    if sota_doc is not None and verdict is not None:
        all_inputs.append(InputDigest("verdict", verdict, sota_doc.sha256, sota_doc.size))
    return Verdict(plan.name, plan.digest, now, tuple(all_inputs), tuple(results),
                   report_path=", ".join(paths), tool_version=version)
