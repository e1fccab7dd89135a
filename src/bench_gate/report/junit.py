"""``--format junit``: JUnit XML for CI test-report views (GitLab, Jenkins, Azure, CircleCI).

Layout:

* one ``<testsuites name="bench-gate">`` root with the totals;
* one ``<testsuite>`` per report, named after the report's path, with the profile, its digest,
  the evaluation instant, the fail-on level, whether the gate passed and every input's digest as
  ``<properties>``;
* one ``<testcase classname="REPORT" name="RULE-ID">`` per rule, in plan order, with a ``file``
  attribute naming the document the result is about:

  - a failing rule has ``<failure type="SEVERITY" message="MESSAGE">`` whose text gives the
    location (``document:pointer`` and the file), the rule's source (``file:line``), the actual
    and expected values as JSON, the rule's ``why`` and any further failures of the same rule.
    Warnings and info rules that failed are failures too (``type`` tells them apart); whether
    they fail the gate is the suite's ``passed`` property;
  - a report of a batch that could not be evaluated (exit 2) has one test case,
    ``report-readable``, with ``<error>`` instead of ``<failure>``;
  - a skipped rule is ``<skipped message="REASON">``;
  - a waived failure is ``<skipped message="waived: REASON (approved by ..., expires ...)">``
    with the original failure as its text;
  - a passing rule carries its message (the value and the limit) in ``<system-out>``.

Example::

    <testsuites name="bench-gate" tests="2" failures="1" errors="0" skipped="0">
      <testsuite name="report.json" tests="2" failures="1" errors="0" skipped="0"
                 timestamp="2026-06-10T12:00:00">
        ...
        <testcase classname="report.json" name="recall-floor" file="report.json">
          <failure type="error" message="recall@5 0.81 is below the floor 0.85">location: ...
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from datetime import UTC

from bench_gate.models import NOT_EVALUATED, RuleResult, Verdict
from bench_gate.report._common import (
    PLAIN,
    RenderOptions,
    document_path,
    has_value,
    location,
    printable,
    report_path,
    timestamp,
    value_text,
    waiver_text,
    where,
)


def render(verdicts: Sequence[Verdict], options: RenderOptions = PLAIN) -> str:
    """The verdicts as one JUnit XML document (UTF-8, with an XML declaration)."""
    root = ET.Element("testsuites", {"name": "bench-gate"})
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for verdict in verdicts:
        suite = _suite(verdict)
        root.append(suite)
        for key in totals:
            totals[key] += int(suite.get(key, "0"))
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root, space="  ")
    body = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"


def _suite(verdict: Verdict) -> ET.Element:
    path = report_path(verdict)
    errors = sum(1 for r in verdict.results if r.status == "fail" and r.check == NOT_EVALUATED)
    failures = sum(1 for r in verdict.results if r.status == "fail") - errors
    skipped = sum(1 for r in verdict.results if r.status in ("skip", "waived"))
    moment = verdict.evaluated_at
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    suite = ET.Element(
        "testsuite",
        {
            "name": _text(path or verdict.profile_name),
            "tests": str(len(verdict.results)),
            "failures": str(failures),
            "errors": str(errors),
            "skipped": str(skipped),
            # JUnit's schema wants a zone-less timestamp; it is UTC (see the property below).
            "timestamp": moment.strftime("%Y-%m-%dT%H:%M:%S"),
        },
    )
    props = ET.SubElement(suite, "properties")
    pairs = [
        ("profile", verdict.profile_name),
        ("profile_digest", verdict.profile_digest),
        ("evaluated_at", timestamp(verdict.evaluated_at)),
        ("fail_on", verdict.fail_on),
        ("passed", "true" if verdict.passed else "false"),
        ("tool_version", verdict.tool_version),
    ]
    pairs += [
        (f"input.{item.role}", f"{item.path} sha256:{item.sha256} {item.bytes} bytes")
        for item in verdict.inputs
    ]
    for name, value in pairs:
        ET.SubElement(props, "property", {"name": _text(name), "value": _text(value)})
    for result in verdict.results:
        suite.append(_case(verdict, result))
    return suite


def _case(verdict: Verdict, result: RuleResult) -> ET.Element:
    # one classname per report: viewers that flatten the suites still tell the reports apart
    attrs = {"classname": _text(report_path(verdict) or verdict.profile_name), "name": _text(result.rule)}
    path = document_path(verdict, result.document)
    if path:
        attrs["file"] = _text(path)
    case = ET.Element("testcase", attrs)
    if result.status == "fail":
        # a report that could not be evaluated is an error of the run, not a failed rule
        tag = "error" if result.check == NOT_EVALUATED else "failure"
        failure = ET.SubElement(
            case, tag, {"type": result.severity, "message": _text(result.message)}
        )
        failure.text = _failure_body(verdict, result)
    elif result.status == "waived":
        reason = f"waived: {waiver_text(result.waiver)}"
        skipped = ET.SubElement(case, "skipped", {"message": _text(reason)})
        skipped.text = f"{_text(result.message)}\n{_failure_body(verdict, result)}"
    elif result.status == "skip":
        ET.SubElement(case, "skipped", {"message": _text(result.message)})
    else:
        out = ET.SubElement(case, "system-out")
        out.text = _text(result.message)
    return case


def _failure_body(verdict: Verdict, result: RuleResult) -> str:
    path = document_path(verdict, result.document)
    place = location(result) + (f" ({path})" if path else "")
    lines = [f"location: {place}", f"source: {result.source}", f"check: {result.check}"]
    if has_value(result.actual):
        lines.append(f"actual: {value_text(result.actual)}")
    if has_value(result.expected):
        lines.append(f"expected: {value_text(result.expected)}")
    if result.why:
        lines.append(f"why: {result.why}")
    for detail in result.details:
        lines.append(f"also: {detail.message} ({where(detail.document, detail.pointer)})")
    if result.omitted_details:
        lines.append(f"also: {result.omitted_details} more failures of this rule not shown")
    # each line printable on its own: a line break from the report never starts a line here
    return "\n".join(_text(line) for line in lines)


def _text(value: str) -> str:
    """One piece of text from a verdict, escaped as every format escapes it (one line)."""
    return printable(value)
