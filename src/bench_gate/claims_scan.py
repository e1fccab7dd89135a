"""``bench-gate claims PATH... --ledger MANIFEST``: check the benchmark claims in docs.

::

    bench-gate claims README.md docs/ --ledger benchmarks/results/ai-memory/manifest.json
    bench-gate claims README.md --ledger manifest.json --verdict sota-verdict.json --format sarif

Reads Markdown and text files (a folder is searched for ``*.md``, ``*.markdown``, ``*.mdx``
and ``*.txt``, skipping hidden folders), gates the ledger exactly as ``bench-gate ledger``
does, and runs the built-in ``claims`` profile (``bench-gate explain claims``): every benchmark
number must match a citable value of the ledger at the precision written, and overclaim
language ("100% recall", "zero API", "beats everyone", "state of the art" without a passing
``official-sota`` verdict, hit@k called recall, retrieval called QA accuracy) fails with the
reason.

Each claim is one result: ``document`` is the file, ``pointer`` is ``/line/L/column/C`` and the
message starts with ``file:line:column`` and quotes the sentence. Options: ``--verdict
PATH`` (a verdict JSON of ``bench-gate --profile official-sota --format json``),
``--include-code`` (also scan fenced code blocks and front matter), ``--profile NAME|PATH``
(another claims profile, e.g. one that ``extends: claims`` with more phrases), ``--waivers
FILE`` (reviewed, expiring waivers; scope one by ``document`` = the file and ``pointer`` =
``/line/L/column/C``), and the output options of the report gate (``--format``, ``--output``,
``--output-file``, ``--now``, ``--no-color``).

Exit codes: 0 every claim is backed, 1 a claim is not, 2 a file, the ledger or the verdict
cannot be read, or the command line is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from bench_gate import __version__
from bench_gate.loaders import confined
from bench_gate.loaders import files as documents
from bench_gate.checks.base import Context, Fail
from bench_gate.checks.claims import CITABLE, SCAN
from bench_gate.ledger_gate import (
    LedgerError,
    add_output_options,
    emit,
    gate_ledger,
    load_waivers,
    parse_output_options,
)
from bench_gate.models import Doc, Finding, InputDigest, RuleResult, Verdict
from bench_gate.profile import load_profile
from bench_gate.profile.binding import bind
from bench_gate.profile.model import ProfileError

SUFFIXES = (".md", ".markdown", ".mdx", ".txt")
MAX_TEXT_BYTES = 16 * 1024 * 1024


class ClaimsError(Exception):
    """The scan cannot be evaluated (exit 2); ``str()`` is the reason."""


def _files(paths: Sequence[str]) -> list[Path]:
    out: list[Path] = []
    for given in paths:
        p = Path(given)
        if p.is_dir():
            found = sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in SUFFIXES
                           and not any(part.startswith(".") for part in f.relative_to(p).parts))
            out.extend(found)
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
    return unique


def _read_text(path: Path) -> tuple[str, str, int]:
    try:
        raw = confined.read_confined(confined.locate(str(path), Path("."), confine=False), MAX_TEXT_BYTES)
    except confined.DocumentError as exc:
        raise ClaimsError(str(exc)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ClaimsError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    return text.removeprefix("\ufeff").replace("\r\n", "\n"), confined.sha256(raw), len(raw)


def citable_values(path: str) -> list[dict[str, Any]]:
    """Every metric value of the ledger's citable entries: metric, value, entry, artifact, scope
    (the entry's suite and dataset name, which say which benchmark the value is on)."""
    doc = documents.load("ledger", path, Path("."), confine=False, fmt="json", want_object=True, origin="cli")
    if doc.error is not None:
        raise ClaimsError(f"--ledger {path}: {doc.error}")
    out = []
    entries = doc.data.get("citable")
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        if not isinstance(entry, dict) or entry.get("status") != "citable":
            continue
        name = entry.get("artifact", entry.get("external_artifact_manifest", "?"))
        dataset = entry.get("dataset")
        scope = f"{entry.get('suite', '')} {dataset.get('name', '') if isinstance(dataset, dict) else ''}"
        overall = entry.get("overall")
        for metric, value in (overall.items() if isinstance(overall, dict) else []):
            out.append({"metric": metric, "value": value, "entry": f"/citable/{i}", "artifact": str(name),
                        "scope": scope})
    return out


def _verdict_file(path: str | None) -> tuple[dict[str, Any] | None, InputDigest | None]:
    if path is None:
        return None, None
    doc = documents.load("verdict", path, Path("."), confine=False, fmt="json", want_object=True, origin="cli")
    if doc.error is not None:
        raise ClaimsError(f"--verdict {path}: {doc.error}")
    return {"path": path, "data": doc.data}, InputDigest("verdict", path, doc.sha256, doc.size)


def _findings(kind: Any, ctx: Context, params: Any, check: str) -> list[Finding]:
    try:
        return list(kind.run(ctx, params))
    except Fail as exc:
        return [exc.finding]
    except Exception as exc:  # noqa: BLE001 - a crash in a check is a failing rule, never a pass
        return [Finding("fail", f"internal error in check kind {check}: {exc.__class__.__name__}: {exc}"[:300])]


def scan_claims(paths: Sequence[str], ledger: str, verdict: str | None, now: datetime,
                include_code: bool = False, version: str = __version__, profile: str = "claims") -> Verdict:
    """One verdict for the claims in ``paths``, each claim a result; ClaimsError when unreadable."""
    if not paths:
        raise ClaimsError("no PATH given")
    try:
        ledger_verdict = gate_ledger(ledger, now, version)
    except LedgerError as exc:
        raise ClaimsError(str(exc).replace("ledger ", "--ledger ", 1)) from None
    values = citable_values(ledger)
    sota, sota_input = _verdict_file(verdict)
    files, inputs = [], []
    found = _files(paths)
    if not found:
        raise ClaimsError(f"no Markdown or text file ({', '.join('*' + x for x in SUFFIXES)}) in "
                          f"{', '.join(paths)}")
    for f in found:
        text, digest, size = _read_text(f)
        files.append({"path": str(f), "text": text})
        inputs.append(InputDigest(str(f), str(f), digest, size))
    counts = ledger_verdict.counts()
    ledger_info = {
        "path": ledger, "passed": ledger_verdict.passed,
        "summary": f"{counts['fail']} failed, {counts['pass']} passed, {counts['skip']} skipped",
        "failed": [f"{r.rule}: {r.message}" for r in ledger_verdict.results if r.status == "fail"],
        "values": len(values),
    }
    ctx = Context(now=now, documents={
        SCAN: Doc(SCAN, ", ".join(paths), data={"files": files, "include_code": include_code}),
        CITABLE: Doc(CITABLE, ledger, data={"values": values, "verdict": sota, "ledger": ledger_info}),
    })
    try:
        plan = bind(load_profile(profile))
    except ProfileError as exc:
        raise ClaimsError(f"profile: {exc}") from None
    results: list[RuleResult] = []
    for rule in plan.rules:
        common = dict(rule=rule.id, title=rule.title, severity=rule.severity, source=rule.source,
                      check=rule.check, why=rule.why)
        if rule.disabled_by is not None:
            results.append(RuleResult(status="skip", message=f"disabled by profile {rule.disabled_by}",
                                      document=SCAN, pointer="", **common))  # type: ignore[arg-type]
            continue
        for f in _findings(plan.kinds[rule.check], ctx, rule.params, rule.check):
            results.append(RuleResult(status=f.status, message=f.message, document=f.document,
                                      pointer=f.pointer, actual=f.actual, expected=f.expected,
                                      **common))  # type: ignore[arg-type]
    ledger_input = next((i for i in ledger_verdict.inputs if i.role == "report"), None)
    all_inputs = ([InputDigest(ledger, ledger, ledger_input.sha256, ledger_input.bytes)] if ledger_input else [])
    all_inputs += inputs + ([sota_input] if sota_input else [])
    return Verdict(plan.name, plan.digest, now, tuple(all_inputs), tuple(results),
                   report_path=", ".join(paths), tool_version=version)


def main(argv: Sequence[str]) -> int:
    """``bench-gate claims PATH... --ledger MANIFEST [options]``; the exit code."""
    from bench_gate.cli.options import Usage, Once
    from bench_gate.cli.info import _Parser

    p = _Parser(prog="bench-gate claims", allow_abbrev=False,
                description="Check benchmark numbers and claim language in Markdown/text docs against "
                            "a claim ledger. Exit 0 all claims backed, 1 not, 2 not evaluated.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="Markdown or text files, or folders to search")
    p.add_argument("--ledger", action=Once, metavar="MANIFEST", help="the claim ledger (required)")
    p.add_argument("--verdict", action=Once, metavar="PATH",
                   help="a passing official-sota verdict JSON that backs state-of-the-art claims")
    p.add_argument("--include-code", action="store_true", help="also scan fenced code blocks and front matter")
    p.add_argument("-p", "--profile", default="claims", metavar="NAME|PATH",
                   help="the claims profile (default: the built-in claims profile)")
    add_output_options(p)
    ns = p.parse_args(list(argv))
    if ns.ledger is None:
        raise Usage("--ledger MANIFEST is required")
    fmt, extra, now = parse_output_options(ns)
    waiver_file = load_waivers(ns)
    try:
        verdict = scan_claims(ns.paths, ns.ledger, ns.verdict, now, ns.include_code, profile=ns.profile)
    except ClaimsError as exc:
        raise Usage(str(exc)) from None
    return emit(verdict, ns, fmt, extra, waiver_file)
