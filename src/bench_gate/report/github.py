"""``--format github``: GitHub Actions workflow commands that annotate the judged files.

One line per failing rule (errors first, then warnings, info and waived failures; plan order
within each), then one summary line per report (and an overall one when several reports were
judged)::

    ::error file=report.json,title=recall-floor::recall@5 0.81 is below the floor 0.85 (report:/overall/recall@5)%0AA recall below the floor means the retriever regressed.
    ::warning file=baseline.json,title=baseline-fresh::baseline checked_at 2026-06-07 is 40 days old (limit 30 days) (baseline:/checked_at)
    bench-gate FAIL: profile ai-memory, report report.json: 2 failed (1 error, 1 warning), 40 passed, 1 skipped

* the command is ``error``, ``warning`` or ``notice`` for a rule of severity ``error``,
  ``warning`` or ``info``;
* ``file`` is the file of the document the result is about (the report for role ``report``, else
  the input with that role; the report when that document has no file), ``title`` the rule id;
* the message ends with the location ``document:pointer``; the rule's ``why`` and any further
  failures of the same rule follow on their own lines of the annotation;
* a waived failure is a ``notice`` whose text says who waived it, why and until when;
* every piece of text from a report is escaped as in every format (a line break is a space;
  controls, C1 characters such as U+0085 and U+009B, bidirectional controls and the line
  separators are ``\\xNN`` / ``\\uNNNN``), then GitHub's escaping is applied: ``%``, CR and LF in
  the message (the renderer's own line breaks between pieces are ``%0A``); additionally ``:``
  and ``,`` in the ``file`` and ``title`` properties. A message can therefore never start a
  workflow command of its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from bench_gate.models import RuleResult, Verdict
from bench_gate.report._common import (
    PLAIN,
    RenderOptions,
    anchor_path,
    counts_text,
    location,
    ordered,
    printable,
    report_path,
    position,
    waiver_text,
    where,
)

COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}


def render(verdicts: Sequence[Verdict], options: RenderOptions = PLAIN) -> str:
    """Workflow-command lines for every failing or waived rule, then the summary line(s)."""
    lines: list[str] = []
    for verdict in verdicts:
        # Errors first: they are what a reader looks for in the log, and GitHub keeps only the
        # first 50 annotations of a job.
        for result in ordered(verdict.results):
            if result.status in ("fail", "waived"):
                lines.append(_annotation(verdict, result))
        lines.append(_summary(verdict))
    if len(verdicts) > 1:
        failed = sum(1 for v in verdicts if not v.passed)
        outcome = "FAIL" if failed else "PASS"
        lines.append(f"bench-gate {outcome}: {failed} of {len(verdicts)} reports failed")
    elif not verdicts:
        lines.append("bench-gate: no reports were judged")
    return "\n".join(lines) + "\n"


def escape_data(text: str) -> str:
    """Escape a workflow command's message (the part after ``::``)."""
    return printable(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a workflow command property value (``file=...``, ``title=...``)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _annotation(verdict: Verdict, result: RuleResult) -> str:
    body = [f"{result.message} ({location(result)})"]
    if result.status == "waived":
        command = "notice"
        body.append(f"waived: {waiver_text(result.waiver)}")
    else:
        command = COMMANDS.get(result.severity, "error")
    if result.why:
        body.append(result.why)
    for detail in result.details:
        body.append(f"also: {detail.message} ({where(detail.document, detail.pointer)})")
    if result.omitted_details:
        body.append(f"also: {result.omitted_details} more failures of this rule not shown")
    props = []
    path = anchor_path(verdict, result.document)
    if path:
        props.append(f"file={escape_property(path)}")
        place = position(verdict, result.document, result.pointer)
        if place is not None:
            props.append(f"line={place[0]},col={place[1]}")
    props.append(f"title={escape_property(result.rule)}")
    # each piece escaped on its own, then joined by the escaped line break GitHub shows as one
    return f"::{command} {','.join(props)}::{'%0A'.join(escape_data(piece) for piece in body)}"


def _summary(verdict: Verdict) -> str:
    outcome = "PASS" if verdict.passed else "FAIL"
    parts = [f"profile {verdict.profile_name}"]
    path = report_path(verdict)
    if path:
        parts.append(f"report {path}")
    # A plain log line; kept to one line so a report path cannot start a command of its own.
    text = printable(f"bench-gate {outcome}: {', '.join(parts)}: {counts_text(verdict)}")
    return text.replace("\r", " ").replace("\n", " ")
