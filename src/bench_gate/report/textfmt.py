"""The verdict as text for a person reading a CI log or a terminal.

By default only what needs attention is shown: every failing rule (errors, then warnings and
info), each with its location and reason, then one summary line per report. A report that
passes is that one line, with the figures the gate recomputed::

    bench-gate: evidence root: the current directory (paths written inside a report are read from there; --root DIR changes it)
    FAIL   metrics-recompute  report.json:42:17 /overall/recall@5
           claimed 0.966, recomputed strict recall@5 from 500 cases is 0.9171 (...) (and 3 more)
           - report.json:47:18 /overall/recall@10: claimed 0.984, recomputed ...
    bench-gate: FAIL  report.json  profile ai-memory: 1 failed, 16 passed, 20 skipped

    bench-gate: PASS  other.json  profile ai-memory: 17 passed, 20 skipped; recomputed from 500 cases, ...

* the location is ``file:line:column`` (editors and terminals open it) followed by the JSON
  Pointer, when the value was found in its file; otherwise ``document:pointer``;
* up to five further failures of the same rule follow, each with its own location;
* ``verbosity`` 1 (``-v``) adds waived failures and the rules that passed, 2 (``-vv``) the
  skipped rules with the reason;
* with several reports the last lines name each failing report and its failing rules.

Colour is used only when asked for (see ``--color``). Control characters from a report are
shown escaped, so a report cannot redraw the log.
"""

from __future__ import annotations

from collections.abc import Sequence

from bench_gate.models import RuleResult, Verdict
from bench_gate.report._common import (
    PLAIN,
    RenderOptions,
    counts_text,
    document_path,
    headline,
    is_blocking,
    position,
    printable,
    text_position,
)

_COLOURS = {"FAIL": "\033[31;1m", "WARN": "\033[33;1m", "WAIVED": "\033[35m", "SKIP": "\033[2m",
            "PASS": "\033[32m", "INFO": "\033[36m"}
_RESET = "\033[0m"
SHOWN_DETAILS = 5
_RANK = {"fail": 0, "waived": 2, "pass": 3, "skip": 4}
_LEAST_SHOWN = {0: 1, 1: 3, 2: 4}  # verbosity -> the highest rank shown


def _label(r: RuleResult) -> str:
    if r.status == "fail":
        return {"error": "FAIL", "warning": "WARN", "info": "INFO"}[r.severity]
    return r.status.upper()


def _rank(r: RuleResult) -> int:
    if r.status == "fail":
        return 0 if r.severity == "error" else 1
    return _RANK[r.status]


# Terminal controls (ESC, CSI, carriage return, backspace...) and bidirectional overrides from a
# report would let it redraw the log, e.g. overwrite a FAIL line with a fake PASS: every format
# shows them escaped, with the one escaping of report._common.
_safe = printable
_one_line = printable


def _where(v: Verdict, document: str, pointer: str) -> str:
    """``report.json:42:17 /overall/recall@5`` when the position is known, else ``report:/overall/recall@5``."""
    place = position(v, document, pointer)
    path = document_path(v, document) if place else None
    if path and place:
        # a claim in a text file is its line and column; a JSON value also has its pointer
        shown = "" if text_position(pointer) else f" {pointer}"
        return _safe(f"{path}:{place[0]}:{place[1]}{shown}")
    return _safe(f"{document}:{pointer}" if pointer else document)


def _paint(text: str, label: str, color: bool) -> str:
    return f"{_COLOURS[label]}{text}{_RESET}" if color else text


def _block(v: Verdict, r: RuleResult, width: int, color: bool) -> list[str]:
    label = _label(r)
    lines = [f"{_paint(f'{label:<7}', label, color)}{_safe(r.rule):<{width}}  "
             f"{_where(v, r.document, r.pointer)}".rstrip()]
    lines.append(f"       {_one_line(r.message)}")
    if r.waiver:
        lines.append(_one_line(f"       waived: {r.waiver.get('reason', '')} (approved by "
                               f"{r.waiver.get('approved_by', '?')}, expires {r.waiver.get('expires', '?')})"))
    for d in r.details[:SHOWN_DETAILS]:
        lines.append(f"       - {_where(v, d.document, d.pointer)}: {_one_line(d.message)}")
    hidden = len(r.details) - SHOWN_DETAILS + r.omitted_details
    if hidden > 0 and r.details:
        lines.append(f"       - … {hidden} more (see --format json)")
    return lines


def render_verdict(v: Verdict, color: bool = False, verbosity: int = 0) -> str:
    shown = [r for r in sorted(v.results, key=_rank)  # stable: plan order within a group
             if _rank(r) <= _LEAST_SHOWN[min(verbosity, 2)]]
    width = max((len(r.rule) for r in shown), default=0)
    lines: list[str] = []
    for r in shown:
        lines.extend(_block(v, r, width, color))
    outcome = _paint("PASS" if v.passed else "FAIL", "PASS" if v.passed else "FAIL", color)
    summary = f"bench-gate: {outcome}  {_safe(v.report_path)}  profile {_safe(v.profile_name)}: {counts_text(v)}"
    figures = headline(v) if v.passed else ""
    lines.append(summary + (f"; {_one_line(figures)}" if figures else ""))
    return "\n".join(lines) + "\n"


def render(verdicts: Sequence[Verdict], options: RenderOptions = PLAIN) -> str:
    """The verdicts as text; the evidence root (``options.root``) is said once when a report failed."""
    color, verbosity, root = options.color, options.verbosity, options.root
    header = ""
    if root is not None and not all(v.passed for v in verdicts):
        where = "the current directory" if root in ("", ".") else repr(root)
        header = (f"bench-gate: evidence root: {_safe(where)} (paths written inside a report are "
                  "read from there; --root DIR changes it)\n")
    out = header + "\n".join(render_verdict(v, color, verbosity) for v in verdicts)
    if len(verdicts) > 1:
        failed = [v for v in verdicts if not v.passed]
        out += f"\nbench-gate: {len(verdicts)} reports, {len(failed)} failed, {len(verdicts) - len(failed)} passed\n"
        for v in failed:
            rules = [r.rule for r in v.results if r.status == "fail" and is_blocking(v, r.severity)]
            out += f"  {_paint('FAIL', 'FAIL', color)}  {_safe(v.report_path)}: {_safe(', '.join(rules))}\n"
    return out
