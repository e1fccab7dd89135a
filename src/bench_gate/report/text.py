"""The verdict as text for a person reading a CI log.

Failures come first (errors, then warnings), then waived failures, skips and passes; each line
is ``STATUS  rule-id  document:pointer`` followed by the indented message, and up to five
further failures of the same rule. The last line is a one-line summary::

    FAIL  retrieval-summary-recomputes   report:/overall/recall@5
          claimed 0.966, recomputed strict recall@5 from 500 cases is 0.9171 (...)
    ...
    bench-gate: FAIL  report.json  profile ai-memory: 1 failed, 41 passed, 2 skipped

Colour is used only when asked for (the command line asks when stdout is a terminal and
``NO_COLOR`` is not set).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bench_gate.models import RuleResult, Verdict

_ORDER = {"fail": 0, "waived": 2, "skip": 3, "pass": 4}
_COLOURS = {"FAIL": "\033[31;1m", "WARN": "\033[33;1m", "WAIVED": "\033[35m", "SKIP": "\033[2m",
            "PASS": "\033[32m", "INFO": "\033[36m"}
_RESET = "\033[0m"
SHOWN_DETAILS = 5


def _label(r: RuleResult) -> str:
    if r.status == "fail":
        return {"error": "FAIL", "warning": "WARN", "info": "INFO"}[r.severity]
    return r.status.upper()


def _rank(r: RuleResult) -> int:
    if r.status == "fail":
        return {"error": 0, "warning": 1, "info": 1}[r.severity]
    return _ORDER[r.status]


def _where(document: str, pointer: str) -> str:
    return _safe(f"{document}:{pointer}" if pointer else document)


# Terminal controls (ESC, CSI, carriage return, backspace...) and bidirectional overrides from a
# report would let it redraw the log, e.g. overwrite a FAIL line with a fake PASS.
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _safe(text: str) -> str:
    """``text`` with every control and bidi-override character shown as an escape."""
    return _CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                         else f"\\u{ord(m.group()):04x}", text)


def _one_line(text: str) -> str:
    return _safe(" ".join(text.split("\n")))


def render_verdict(v: Verdict, color: bool = False) -> str:
    lines: list[str] = []
    width = max((len(r.rule) for r in v.results), default=10)
    for r in sorted(v.results, key=_rank):  # sorted() is stable: plan order within a group
        label = _label(r)
        shown = f"{_COLOURS[label]}{label:<7}{_RESET}" if color else f"{label:<7}"
        lines.append(f"{shown}{_safe(r.rule):<{width}}  {_where(r.document, r.pointer)}".rstrip())
        lines.append(f"       {_one_line(r.message)}")
        if r.waiver:
            lines.append(_one_line(f"       waived: {r.waiver.get('reason', '')} (approved by "
                                   f"{r.waiver.get('approved_by', '?')}, expires {r.waiver.get('expires', '?')})"))
        for d in r.details[:SHOWN_DETAILS]:
            lines.append(f"       - {_where(d.document, d.pointer)}: {_one_line(d.message)}")
        hidden = len(r.details) - SHOWN_DETAILS + r.omitted_details
        if hidden > 0 and r.details:
            lines.append(f"       - … {hidden} more (see --format json)")
    counts = v.counts()
    warned = counts.get("warn", 0)
    failed = counts.get("fail", 0)
    fail_text = f"{failed} failed"
    if warned:
        errors = failed - warned
        fail_text += (f" ({errors} error{'s' if errors != 1 else ''}, "
                      f"{warned} warning{'s' if warned != 1 else ''})")
    parts = [fail_text] + [f"{counts.get(k, 0)} {word}" for k, word in
                           (("waived", "waived"), ("pass", "passed"), ("skip", "skipped"))
                           if counts.get(k, 0) or k == "pass"]
    verdict = "PASS" if v.passed else "FAIL"
    if color:
        verdict = f"{_COLOURS[verdict]}{verdict}{_RESET}"
    lines.append(f"bench-gate: {verdict}  {_safe(v.report_path)}  profile {v.profile_name}: {', '.join(parts)}")
    return "\n".join(lines) + "\n"


def render(verdicts: Sequence[Verdict], color: bool = False) -> str:
    out = "\n".join(render_verdict(v, color) for v in verdicts)
    if len(verdicts) > 1:
        failed = sum(1 for v in verdicts if not v.passed)
        out += f"\nbench-gate: {len(verdicts)} reports, {failed} failed, {len(verdicts) - failed} passed\n"
    return out
