"""``--format markdown``: a summary for a CI job summary page (``$GITHUB_STEP_SUMMARY``).

A heading with the outcome, then per report a line with the profile, the report, the evaluation
instant and the counts, the inputs, a table of the failing rules (errors, then warnings, then
info, then waived failures) and, folded in a ``<details>`` block, the passing and skipped rules::

    ## ❌ bench-gate FAIL

    Profile `ai-memory` on `report.json`, evaluated at 2026-06-10T12:00:00Z: 1 failed, 40 passed, 1 skipped

    Inputs: report `report.json` (sha256 1f0c…), baseline `baseline.json` (sha256 9a4e…)

    | rule | status | message | location |
    | --- | --- | --- | --- |
    | `recall-floor` | **fail** (error) | recall@5 0.81 is below the floor 0.85<br>why: ... | `report:/overall/recall@5` |

    <details><summary>40 passed, 1 skipped</summary>

    | rule | status | message | location |
    | --- | --- | --- | --- |
    | `question-count` | pass | 500 questions (expected 500) | `report:/questions` |
    | `qa-present` | skip | skipped: QA not required | `report:/qa` |

    </details>

* A failure that fails the gate is bold; a warning that does not (under ``--fail-on error``)
  is not.
* A failing or waived row also gives the rule's ``why``, the waiver (reason, approver, expiry)
  and any further failures of the same rule, each on its own line.
* With several reports the heading says how many failed and each report gets its own section.
* A claims scan (``bench-gate claims``) adds, after the inputs, the audit table of every claim
  found in the documents, passing ones included: its ``file:line:column``, the text as written,
  its status (confirmed, contradicted, untestable; waived), the evidence it rests on (entry,
  file and pointer, value, the user profile that gated it) or the reason nothing confirms it,
  and the rule that reported it.
* Cells are escaped: ``|``, Markdown emphasis/link/code characters, ``<``, ``>``, ``&`` and
  ``$`` are backslash-escaped, text from a report is escaped as in every format (a line break is
  a space, controls and bidirectional controls are ``\\xNN`` / ``\\uNNNN``), the pieces of a
  cell are separated by ``<br>``, and code spans pick a fence longer than
  any run of backticks inside them, so a message can neither break the table nor inject markup.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bench_gate.models import RuleResult, Verdict
from bench_gate.report._common import (
    PLAIN,
    RenderOptions,
    counts_text,
    is_blocking,
    location,
    ordered,
    printable,
    report_path,
    timestamp,
    waiver_text,
    where,
)

_SPECIAL = re.compile(r"([\\`*_\[\]<>|~$&])")
_TICKS = re.compile(r"`+")


def render(verdicts: Sequence[Verdict], options: RenderOptions = PLAIN) -> str:
    """The verdicts as a Markdown summary (GitHub Flavored Markdown)."""
    failed = sum(1 for v in verdicts if not v.passed)
    icon, outcome = ("❌", "FAIL") if failed else ("✅", "PASS")
    if not verdicts:
        return "## bench-gate: no reports were judged\n"
    heading = f"## {icon} bench-gate {outcome}"
    if len(verdicts) > 1:
        heading += f": {failed} of {len(verdicts)} reports failed"
    blocks = [heading]
    for verdict in verdicts:
        if len(verdicts) > 1:
            blocks.append(_section_heading(verdict))
        blocks.extend(_section(verdict))
    return "\n\n".join(blocks) + "\n"


def text_cell(text: str) -> str:
    """Plain text made safe for a GFM table cell."""
    return _SPECIAL.sub(r"\\\1", printable(text))


def code(text: str, in_table: bool = False) -> str:
    """An inline code span showing ``text`` literally (one line; ``|`` escaped in a table)."""
    text = printable(text)
    if in_table:
        # GFM splits cells before parsing code spans; the backslash is dropped again after.
        text = text.replace("|", "\\|")
    longest = max((len(run) for run in _TICKS.findall(text)), default=0)
    fence = "`" * (longest + 1)
    if not text:
        return "` `"
    # CommonMark strips one space from each end when both are present, or eats a backtick
    # that touches the fence; padding keeps the text exactly as it is.
    if text.startswith("`") or text.endswith("`") or (
        text.startswith(" ") and text.endswith(" ") and text.strip(" ")
    ):
        text = f" {text} "
    return f"{fence}{text}{fence}"


def _section_heading(verdict: Verdict) -> str:
    icon, outcome = ("✅", "PASS") if verdict.passed else ("❌", "FAIL")
    path = report_path(verdict)
    name = code(path) if path else code(verdict.profile_name)
    return f"### {icon} {outcome}: {name}"


def _section(verdict: Verdict) -> list[str]:
    path = report_path(verdict)
    on = f" on {code(path)}" if path else ""
    lines = [
        f"Profile {code(verdict.profile_name)}{on}, evaluated at "
        f"{timestamp(verdict.evaluated_at)}: {counts_text(verdict)}"
    ]
    if verdict.inputs:
        inputs = ", ".join(
            f"{text_cell(item.role)} {code(item.path)} (sha256 {item.sha256[:12]}…)"
            for item in verdict.inputs
        )
        lines.append(f"Inputs: {inputs}")
    audit = _audit(verdict)
    if audit:
        lines.append(audit)
    header = ["| rule | status | message | location |", "| --- | --- | --- | --- |"]
    results = ordered(verdict.results)
    failing = [r for r in results if r.status in ("fail", "waived")]
    others = [r for r in results if r.status not in ("fail", "waived")]
    if failing:
        lines.append("\n".join(header + [_row(verdict, r) for r in failing]))
    if others:
        counts = verdict.counts()
        what = ", ".join(f"{counts[k]} {word}" for k, word in (("pass", "passed"), ("skip", "skipped"))
                         if counts.get(k))
        # a blank line after <summary> lets GitHub render the table inside the block
        lines.append(f"<details><summary>{what}</summary>\n\n"
                     + "\n".join(header + [_row(verdict, r) for r in others]) + "\n\n</details>")
    return lines


def _audit(verdict: Verdict) -> str:
    """The audit table of a claims scan: every claim found in the documents, in reading order,
    with its status and the evidence it rests on (or the reason nothing can confirm it)."""
    claims = [r for r in verdict.results if r.claim is not None]
    if not claims:
        return ""
    claims.sort(key=lambda r: (r.document, *_place(r.pointer)))
    tally = {s: sum(1 for r in claims if r.claim is not None and r.claim.status == s)
             for s in ("confirmed", "contradicted", "untestable")}
    said = ", ".join(f"{n} {s}" for s, n in tally.items() if n)
    rows = ["| place | claim | status | evidence or reason | rule |", "| --- | --- | --- | --- | --- |"]
    for r in claims:
        record = r.claim
        assert record is not None
        line, col = _place(r.pointer)
        place = f"{r.document}:{line}:{col}" if line else r.document
        status = record.status if r.status != "waived" else f"{record.status} (waived)"
        if r.status == "fail" and is_blocking(verdict, r.severity):
            status = f"**{status}**"
        said_of = []
        if record.evidence:
            e = record.evidence
            if "backing" in e:
                said_of.append(text_cell(str(e["backing"])))
            else:
                user = f", user profile {code(str(e['user_profile']), in_table=True)}" if e.get("user_profile") else ""
                said_of.append(f"{text_cell(str(e.get('metric', '')))} = {text_cell(str(e.get('value', '')))} "
                               f"({code(str(e.get('entry', '')), in_table=True)}, "
                               f"{code(str(e.get('artifact', '')), in_table=True)} at "
                               f"{code(str(e.get('pointer', '')), in_table=True)}{user})")
        if record.reason:
            said_of.append(text_cell(record.reason))
        rows.append("| " + " | ".join([code(place, in_table=True), code(record.text, in_table=True), status,
                                         "<br>".join(said_of) or " ", code(r.rule, in_table=True)]) + " |")
    return f"**Claims** ({len(claims)}: {said})\n\n" + "\n".join(rows)


def _place(pointer: str) -> tuple[int, int]:
    """(line, column) of a claim's ``/line/L/column/C`` pointer; (0, 0) for any other."""
    parts = pointer.split("/")
    if len(parts) == 5 and parts[1] == "line" and parts[3] == "column" and parts[2].isdigit() and parts[4].isdigit():
        return int(parts[2]), int(parts[4])
    return 0, 0


def _row(verdict: Verdict, result: RuleResult) -> str:
    if result.status == "fail":
        status = f"fail ({result.severity})"
        if is_blocking(verdict, result.severity):
            status = f"**{status}**"
    elif result.status == "waived":
        status = f"waived ({result.severity})"
    else:
        status = result.status
    message = [result.message]
    if result.status in ("fail", "waived"):
        if result.status == "waived":
            message.append(f"waived: {waiver_text(result.waiver)}")
        if result.why:
            message.append(f"why: {result.why}")
        for detail in result.details:
            message.append(f"also: {detail.message} ({where(detail.document, detail.pointer)})")
        if result.omitted_details:
            message.append(f"also: {result.omitted_details} more failures not shown")
    cells = [
        code(result.rule, in_table=True),
        status,
        "<br>".join(text_cell(m) for m in message),
        code(location(result), in_table=True),
    ]
    return "| " + " | ".join(cells) + " |"
