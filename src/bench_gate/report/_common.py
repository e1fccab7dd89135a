"""Helpers shared by the CI renderers (junit, sarif, github, markdown).

Only the models and the standard library are used here, like in every renderer: a renderer is a
pure function from verdicts to text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from datetime import UTC, date, datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from bench_gate.text.wording import plural
from bench_gate.models import UNSET, RuleResult, Severity, Verdict

class RenderOptions:
    """How a verdict is rendered; only the text format reads these, every renderer takes them.

    ``color``: ANSI colour; ``verbosity``: 0 shows failures and warnings, 1 also the rules that
    passed, 2 also the skipped ones; ``root``: the evidence root as given, named once when a
    report failed (None: not a report gate).
    """

    __slots__ = ("color", "verbosity", "root")

    def __init__(self, color: bool = False, verbosity: int = 0, root: str | None = None) -> None:
        self.color = color
        self.verbosity = verbosity
        self.root = root


PLAIN = RenderOptions()
"""No colour, failures and warnings only, no evidence root."""

# Failing rules first (most severe first), then waived, skipped and passing ones.
_STATUS_RANK = {"fail": 0, "waived": 1, "skip": 2, "pass": 3}
_SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}

# What text from a report must not write into a log as it is, in any format: C0 controls (line
# feeds, carriage returns, escape sequences), DEL, C1 controls (U+0085 is a line break to some
# readers, U+009B a terminal's CSI), the bidirectional marks, embeddings, overrides and isolates
# (a report could reorder what a reader sees), the line and paragraph separators, and the code
# points no format can carry (lone surrogates, which JSON "\ud800" parses to, U+FFFE, U+FFFF).
UNSAFE = ("\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069"
          "\ud800-\udfff\ufffe\uffff")
_UNSAFE = f"[{UNSAFE}]"
_UNSAFE_IN_JSON = "[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069\ufffe\uffff]"
_COMMAND_LINE = r"(?m)^([ \t]*):(?=:)"
_UNENCODABLE = "[\ud800-\udfff\ufffe\uffff]"


@cache
def _pattern(expression: str) -> re.Pattern[str]:
    """A pattern above, compiled the first time text needs it. Nearly all text is printable or
    ASCII and is passed over without one: every code point in :data:`UNSAFE` is a control,
    format, separator, surrogate or noncharacter, none of which ``str.isprintable`` accepts
    (``tests/report/test_common.py`` checks each one)."""
    return re.compile(expression)


def printable(text: str) -> str:
    """``text`` on one line, every unsafe character shown as ``\\xNN`` / ``\\uNNNN``: the text
    format's escaping, used by every format for every piece of text that comes from a report.

    A line break becomes a space (a message is one line), anything else unsafe an escape, so
    text from a report can never start a line of the output, reorder it, or move a terminal's
    cursor. A renderer puts its own line breaks between pieces it has made printable."""
    if text.isprintable():
        return text
    return _pattern(_UNSAFE).sub(_escape_code_point, " ".join(text.replace("\r\n", "\n").split("\n")))


def _encodable(text: str) -> str:
    """A string kept as data (a value written as JSON, which escapes controls itself) with only
    the code points no format can carry (lone surrogates, U+FFFE, U+FFFF) escaped."""
    if text.isascii():
        return text
    return _pattern(_UNENCODABLE).sub(_escape_code_point, text)


def json_text(data: Any, **options: Any) -> str:
    """``json.dumps`` whose output carries no unsafe character raw: JSON itself escapes C0
    controls; C1 controls, bidirectional controls and the line separators are written as
    ``\\uNNNN`` escapes too (the same string to a JSON reader, no surprise to a log)."""
    text = json.dumps(data, ensure_ascii=False, **options)
    if text.isascii() and "\x7f" not in text:  # JSON has escaped every other ASCII control
        return text
    return _pattern(_UNSAFE_IN_JSON).sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def no_command_lines(output: str, escape: str) -> str:
    """``output`` with every line that would begin (after spaces) with ``::`` changed to begin
    with ``escape`` + ``:``: a CI log (GitHub Actions) reads such a line as a workflow command
    (``::add-mask::``, ``::stop-commands::``). Applied to every format but the ``github`` one, whose
    own annotations are the only commands it writes."""
    if "::" not in output:
        return output
    return _pattern(_COMMAND_LINE).sub(lambda m: m.group(1) + escape, output)


def _escape_code_point(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def where(document: str, pointer: str) -> str:
    """``document:pointer`` (``baseline:/checked_at``), or ``document`` for the whole document."""
    return f"{document}:{pointer}" if pointer else document


_TEXT_POSITION = re.compile(r"^/line/([1-9][0-9]*)/column/([1-9][0-9]*)$")


def text_position(pointer: str) -> tuple[int, int] | None:
    """(line, column) when a pointer locates a place in a text file (``/line/12/column/5``)."""
    m = _TEXT_POSITION.match(pointer)
    return (int(m.group(1)), int(m.group(2))) if m else None


def position(verdict: Verdict, document: str, pointer: str) -> tuple[int, int] | None:
    """(line, column) of a location: a place in a text file, or a value found in its JSON file."""
    return text_position(pointer) or verdict.positions.get((document, pointer))


def location(result: RuleResult) -> str:
    """Where a result points, spelled like :func:`where`."""
    return where(result.document, result.pointer)


def document_path(verdict: Verdict, role: str) -> str | None:
    """The file behind a document role in this verdict, as a reader opens it from where the gate
    ran (where it was found under the evidence root), or None when no input has that role."""
    if role == "report" and verdict.report_path:
        return verdict.report_path
    if role in verdict.located:
        return verdict.located[role]
    for item in verdict.inputs:
        if item.role == role:
            return item.path
    return None


def report_path(verdict: Verdict) -> str | None:
    """The path of the report under judgement, if known."""
    return document_path(verdict, "report")


def anchor_path(verdict: Verdict, role: str) -> str | None:
    """Where to anchor a finding about ``role``: its file, else the report that referenced it.

    A document that could not be supplied has no file; the report that asked for it is the
    closest place a reader can act on.
    """
    return document_path(verdict, role) or report_path(verdict)


def ordered(results: tuple[RuleResult, ...]) -> list[RuleResult]:
    """Failures first (errors before warnings before info), then waived, skip, pass; stable."""
    return sorted(
        results,
        key=lambda r: (
            _STATUS_RANK.get(r.status, 4),
            _SEVERITY_RANK.get(r.severity, 3) if r.status == "fail" else 0,
        ),
    )


def is_blocking(verdict: Verdict, severity: Severity) -> bool:
    """Whether a failure of this severity fails the gate under the verdict's fail-on level."""
    threshold = _SEVERITY_RANK.get(verdict.fail_on, 0)
    return _SEVERITY_RANK.get(severity, 0) <= threshold


def timestamp(moment: datetime) -> str:
    """RFC 3339 in UTC with a ``Z`` (naive datetimes are taken as UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(UTC)
    spec = "%Y-%m-%dT%H:%M:%S.%fZ" if moment.microsecond else "%Y-%m-%dT%H:%M:%SZ"
    return moment.strftime(spec)


def counts_text(verdict: Verdict) -> str:
    """``2 failed (1 error, 1 warning), 1 waived, 15 passed, 3 skipped``: the same words in
    every format. ``failed`` and ``passed`` are always said; waived and skipped when present."""
    counts = verdict.counts()
    failed, warned = counts.get("fail", 0), counts.get("warn", 0)
    text = f"{failed} failed"
    if warned:
        errors = failed - warned
        text += f" ({plural(errors, 'error')}, {plural(warned, 'warning')})"
    parts = [text]
    for key, word in (("waived", "waived"), ("pass", "passed"), ("skip", "skipped")):
        if counts.get(key, 0) or key == "pass":
            parts.append(f"{counts.get(key, 0)} {word}")
    return ", ".join(parts)


HEADLINE_KINDS = ("retrieval_recompute", "qa_accuracy", "question_set", "aggregate", "case_tally", "pair_verdict",
                  "aef_seal", "qa_beats_baseline", "beats")
"""Check kinds whose passing message states the figures the gate recomputed from the evidence;
a passing report's summary line quotes them."""


HEADLINE_SHOWN = 2


def headline(verdict: Verdict) -> str:
    """The passing messages of the first recomputing rules (empty when there is none)."""
    said = [r.message for r in verdict.results if r.status == "pass" and r.check in HEADLINE_KINDS]
    more = len(said) - HEADLINE_SHOWN
    return "; ".join(said[:HEADLINE_SHOWN]) + (f" (and {more} more recomputed)" if more > 0 else "")


def waiver_reason(waiver: Mapping[str, Any] | None) -> str:
    """The reason a waiver gives (``reason``, or ``justification``)."""
    if not waiver:
        return ""
    return printable(str(waiver.get("reason") or waiver.get("justification") or ""))


def waiver_terms(waiver: Mapping[str, Any] | None) -> list[tuple[str, str]]:
    """The waiver's other fields (approver, expiry, ...) as sorted ``(label, value)`` pairs."""
    if not waiver:
        return []
    skip = {"reason", "justification", "rule"}
    return [
        (key.replace("_", " "), printable(str(value)))
        for key, value in sorted(waiver.items())
        if key not in skip and value not in (None, "")
    ]


def waiver_text(waiver: Mapping[str, Any] | None) -> str:
    """``reason (approved by alice, expires 2026-12-31)``."""
    reason = waiver_reason(waiver) or "no reason given"
    terms = ", ".join(f"{label} {value}" for label, value in waiver_terms(waiver))
    return f"{reason} ({terms})" if terms else reason


def jsonable(value: Any) -> Any:
    """A JSON-serialisable rendering of an ``actual``/``expected`` value.

    Exact numbers stay exact: a Fraction that is not an integer is written ``"p/q"`` rather than
    rounded to a float; a non-finite float becomes its name as a string.
    """
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, str):
        return _encodable(value)
    if isinstance(value, float):
        return float(value) if value == value and abs(value) != float("inf") else str(value)
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else str(value)
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, datetime):
        return timestamp(value) if value.tzinfo is not None else value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {_encodable(str(k)): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((jsonable(v) for v in value), key=repr)
    return _encodable(str(value))


def value_text(value: Any) -> str:
    """A value as compact JSON, so ``"500"`` and ``500`` stay distinguishable."""
    return json_text(jsonable(value), sort_keys=True)


def has_value(value: Any) -> bool:
    """False for the UNSET marker (a value that was not given), True otherwise (even null)."""
    return value is not UNSET
