"""The CI renderers (junit, sarif, github, markdown) over hand-built verdicts.

Every scenario x format is pinned byte for byte in ``tests/data/renderers/`` (regenerate with
``pytest --update-golden`` where the suite provides that flag, never under CI, and review the
diff). The tests below those pin the parts that matter line by line, validate every SARIF output
against the official SARIF 2.1.0 schema and parse every JUnit output back.

A result that points into a text file (a claim in Markdown) carries its line and column.
"""

from __future__ import annotations

import ast
import functools
import json
import os
import re
import sys
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bench_gate.models import Detail, InputDigest, RuleResult, Verdict
from bench_gate.report import github, junit, markdown, render, sarif

from repo import DATA

GOLDEN = DATA / "renderers"
RENDERERS: dict[str, tuple[ModuleType, str]] = {
    "junit": (junit, "xml"),
    "sarif": (sarif, "sarif"),
    "github": (github, "txt"),
    "markdown": (markdown, "md"),
}
NOW = datetime(2026, 6, 10, 12, 0, tzinfo=UTC)
DIGEST = "sha256:" + "ab" * 32


def res(rule: str, status: str = "pass", message: str = "", **kw: Any) -> RuleResult:
    fields: dict[str, Any] = {
        "title": f"Title of {rule}",
        "severity": "error",
        "document": "report",
        "pointer": "",
        "source": "policies/retrieval.yaml:10",
        "check": "metric_thresholds",
    }
    fields.update(kw)
    return RuleResult(rule=rule, status=status, message=message, **fields)  # type: ignore[arg-type]


def verdict(
    results: list[RuleResult],
    report: str = "reports/run.json",
    extra_inputs: tuple[InputDigest, ...] = (),
    **kw: Any,
) -> Verdict:
    inputs = (InputDigest("report", report, "1f" * 32, 1200), *extra_inputs)
    return Verdict(
        profile_name="ai-memory",
        profile_digest=DIGEST,
        evaluated_at=NOW,
        inputs=inputs,
        results=tuple(results),
        report_path=report,
        **kw,
    )


BASELINE = InputDigest("baseline", "evidence/baseline.json", "9a" * 32, 310)

RECALL_PASS = res(
    "retrieval-recall-floor",
    message="recall@5 0.9171 meets the floor 0.9",
    pointer="/overall/recall@5",
)
COUNT_PASS = res(
    "question-count",
    message="500 questions (expected 500)",
    pointer="/overall/n",
    check="equal",
    source="policies/counts.yaml:4",
)
RECOMPUTE_FAIL = res(
    "retrieval-summary-recomputes",
    "fail",
    "claimed recall@5 0.966, recomputed from 500 cases is 0.9171 (tolerance 0.0005)",
    title="Summary metrics recompute from the per-case rows",
    pointer="/overall/recall@5",
    check="retrieval_recompute",
    source="policies/retrieval.yaml:22",
    actual=0.966,
    expected=Fraction(9171, 10000),
    why="A summary that does not follow from its rows cannot be audited.",
    details=(
        Detail("claimed ndcg@10 0.88, recomputed 0.8012", "report", "/overall/ndcg@10"),
        Detail("case q-17 has no ranked ids", "report", "/cases/17/ranked"),
    ),
    omitted_details=3,
)
BASELINE_WARN = res(
    "baseline-fresh",
    "fail",
    "baseline checked_at 2026-05-01 is 40 days old (limit 30 days)",
    severity="warning",
    document="baseline",
    pointer="/checked_at",
    check="fresh",
    source="policies/freshness.yaml:3",
    actual="2026-05-01",
    expected="at most 30 days before 2026-06-10",
    why="A stale baseline lets an old leaderboard number pass as the current best.",
)
LATENCY_INFO = res(
    "latency-reported",
    "fail",
    "runtime.p95_ms is missing",
    severity="info",
    pointer="/runtime/p95_ms",
    check="fields",
    source="policies/runtime.yaml:8",
)
LIVE_SKIP = res(
    "live-provider-pinned",
    "skip",
    "skipped: applies to live runs only (/mode is 'replay')",
    pointer="/mode",
    check="fields",
    source="policies/provenance.yaml:15",
)
DISABLED = res(
    "qa-accounting",
    "skip",
    "disabled by profile",
    check="counts_agree",
    source="policies/qa.yaml:2",
)
WAIVED = res(
    "baseline-fresh",
    "waived",
    "baseline checked_at 2026-05-01 is 40 days old (limit 30 days)",
    document="baseline",
    pointer="/checked_at",
    check="fresh",
    source="policies/freshness.yaml:3",
    why="A stale baseline lets an old leaderboard number pass as the current best.",
    waiver={
        "reason": "leaderboard frozen until the June release",
        "approved_by": "alice",
        "expires": "2026-06-30",
    },
)
VALIDATOR_MISSING = res(
    "validator-ran",
    "fail",
    "document 'validator' was not supplied",
    document="validator",
    check="fields",
    source="policies/validator.yaml:5",
    why="An official claim needs the official validator's output.",
)
SPECIAL = res(
    "weird,rule:id",
    "fail",
    'value "a|b" <b>&amp;</b> 100% *bold* _x_ `tick` $5 \\ line1\nline2\r\n'
    "::error::injected\x00\ud800 end",
    title="Pipes | and <tags> & `ticks`",
    pointer="/a~1b/c|d e",
    source="my policy,v2.yaml:7",
    actual={"b": [1, Fraction(1, 3)], "a": "x\ny"},
    expected="> 0",
    why="why, with: colon\nand newline",
)

SCENARIOS: dict[str, list[Verdict]] = {
    "pass": [verdict([COUNT_PASS, RECALL_PASS])],
    "fail": [
        verdict(
            [COUNT_PASS, BASELINE_WARN, RECOMPUTE_FAIL, LATENCY_INFO],
            extra_inputs=(BASELINE,),
        )
    ],
    "skip": [verdict([LIVE_SKIP, COUNT_PASS, DISABLED])],
    "waived": [verdict([COUNT_PASS, WAIVED], extra_inputs=(BASELINE,))],
    "strict": [verdict([COUNT_PASS, BASELINE_WARN], extra_inputs=(BASELINE,), fail_on="warning")],
    "multiple-reports": [
        verdict([COUNT_PASS, RECALL_PASS], report="reports/a.json"),
        verdict([VALIDATOR_MISSING, COUNT_PASS], report="reports/b.json"),
    ],
    "special-characters": [
        verdict(
            [SPECIAL, COUNT_PASS],
            report="reports/my report,v1:final%.json",
        )
    ],
    "no-reports": [],
}


def _update_golden(request: pytest.FixtureRequest) -> bool:
    wanted = bool(request.config.getoption("--update-golden", default=False))
    if wanted and os.environ.get("CI"):
        pytest.fail("--update-golden refuses to run under CI")
    return wanted


@pytest.mark.parametrize("fmt", RENDERERS)
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_golden_output(scenario: str, fmt: str, request: pytest.FixtureRequest) -> None:
    module, ext = RENDERERS[fmt]
    out = module.render(SCENARIOS[scenario])
    path = GOLDEN / f"{scenario}.{ext}"
    if _update_golden(request):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(out, encoding="utf-8", newline="")
    assert out == path.read_bytes().decode("utf-8")
    # Same verdicts, same bytes; and every output can be written as UTF-8.
    assert module.render(SCENARIOS[scenario]) == out
    out.encode("utf-8")


# --- github ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("results", "inputs", "expected"),
    [
        pytest.param(
            [RECOMPUTE_FAIL],
            (),
            "::error file=reports/run.json,title=retrieval-summary-recomputes::claimed recall@5 "
            "0.966, recomputed from 500 cases is 0.9171 (tolerance 0.0005) "
            "(report:/overall/recall@5)%0AA summary that does not follow from its rows cannot "
            "be audited.%0Aalso: claimed ndcg@10 0.88, recomputed 0.8012 (report:/overall/ndcg@10)"
            "%0Aalso: case q-17 has no ranked ids (report:/cases/17/ranked)%0Aalso: 3 more "
            "failures of this rule not shown",
            id="error-with-details",
        ),
        pytest.param(
            [BASELINE_WARN],
            (BASELINE,),
            "::warning file=evidence/baseline.json,title=baseline-fresh::baseline checked_at "
            "2026-05-01 is 40 days old (limit 30 days) (baseline:/checked_at)%0AA stale baseline "
            "lets an old leaderboard number pass as the current best.",
            id="warning-annotates-the-evidence-file",
        ),
        pytest.param(
            [LATENCY_INFO],
            (),
            "::notice file=reports/run.json,title=latency-reported::runtime.p95_ms is missing "
            "(report:/runtime/p95_ms)",
            id="info-is-a-notice",
        ),
        pytest.param(
            [WAIVED],
            (BASELINE,),
            "::notice file=evidence/baseline.json,title=baseline-fresh::baseline checked_at "
            "2026-05-01 is 40 days old (limit 30 days) (baseline:/checked_at)%0Awaived: "
            "leaderboard frozen until the June release (approved by alice, expires 2026-06-30)"
            "%0AA stale baseline lets an old leaderboard number pass as the current best.",
            id="waived-is-a-notice-with-the-waiver",
        ),
        pytest.param(
            [VALIDATOR_MISSING],
            (),
            "::error file=reports/run.json,title=validator-ran::document 'validator' was not "
            "supplied (validator)%0AAn official claim needs the official validator's output.",
            id="document-without-file-annotates-the-report",
        ),
    ],
)
def test_github_annotation(
    results: list[RuleResult], inputs: tuple[InputDigest, ...], expected: str
) -> None:
    lines = github.render([verdict(results, extra_inputs=inputs)]).splitlines()
    assert lines[0] == expected
    assert len(lines) == 2  # the annotation and the summary line


@pytest.mark.parametrize(
    ("scenario", "summary"),
    [
        pytest.param(
            "pass",
            ["bench-gate PASS: profile ai-memory, report reports/run.json: 0 failed, 2 passed"],
            id="pass",
        ),
        pytest.param(
            "fail",
            [
                "bench-gate FAIL: profile ai-memory, report reports/run.json: "
                "3 failed (1 error, 2 warnings), 1 passed"
            ],
            id="fail-counts-warnings",
        ),
        pytest.param(
            "waived",
            [
                "bench-gate PASS: profile ai-memory, report reports/run.json: "
                "0 failed, 1 waived, 1 passed"
            ],
            id="waived-passes",
        ),
        pytest.param(
            "strict",
            [
                "bench-gate FAIL: profile ai-memory, report reports/run.json: "
                "1 failed (0 errors, 1 warning), 1 passed"
            ],
            id="warning-fails-under-fail-on-warning",
        ),
        pytest.param(
            "multiple-reports",
            [
                "bench-gate PASS: profile ai-memory, report reports/a.json: 0 failed, 2 passed",
                "bench-gate FAIL: profile ai-memory, report reports/b.json: 1 failed, 1 passed",
                "bench-gate FAIL: 1 of 2 reports failed",
            ],
            id="one-summary-per-report-then-overall",
        ),
        pytest.param("no-reports", ["bench-gate: no reports were judged"], id="no-reports"),
    ],
)
def test_github_summary(scenario: str, summary: list[str]) -> None:
    lines = github.render(SCENARIOS[scenario]).splitlines()
    plain = [line for line in lines if not line.startswith("::")]
    assert plain == summary


def test_github_errors_come_first() -> None:
    # GitHub keeps only the first annotations of a job; the most severe must not be the ones cut.
    results = [WAIVED, LATENCY_INFO, BASELINE_WARN, COUNT_PASS, RECOMPUTE_FAIL, VALIDATOR_MISSING]
    lines = github.render([verdict(results, extra_inputs=(BASELINE,))]).splitlines()
    assert [line.split(" ", 1)[0] + " " + line.split("title=")[1].split("::")[0] for line in
            lines[:-1]] == [
        "::error retrieval-summary-recomputes",
        "::error validator-ran",
        "::warning baseline-fresh",
        "::notice latency-reported",
        "::notice baseline-fresh",
    ]


def test_github_special_characters_cannot_break_out() -> None:
    lines = github.render(SCENARIOS["special-characters"]).splitlines()
    assert lines == [
        "::error file=reports/my report%2Cv1%3Afinal%25.json,title=weird%2Crule%3Aid::"
        'value "a|b" <b>&amp;</b> 100%25 *bold* _x_ `tick` $5 \\ line1 line2 '
        "::error::injected\\x00\\ud800 end (report:/a~1b/c|d e)%0Awhy, with: colon and newline",
        "bench-gate FAIL: profile ai-memory, report reports/my report,v1:final%.json: "
        "1 failed, 1 passed",
    ]


@pytest.mark.parametrize(
    ("text", "data", "prop"),
    [
        pytest.param("plain", "plain", "plain", id="plain"),
        pytest.param("50% off", "50%25 off", "50%25 off", id="percent"),
        # a line break of the report is a space, as in the text format (the renderer's own
        # line breaks between pieces are %0A)
        pytest.param("a\r\nb\rc\u2028d", "a b\\x0dc\\u2028d", "a b\\x0dc\\u2028d", id="newlines"),
        pytest.param("a:b,c", "a:b,c", "a%3Ab%2Cc", id="colon-comma-only-in-properties"),
        pytest.param("%0A", "%250A", "%250A", id="already-escaped-looking"),
        pytest.param("nul\x00", "nul\\x00", "nul\\x00", id="control-character-shown"),
    ],
)
def test_github_escaping(text: str, data: str, prop: str) -> None:
    assert github.escape_data(text) == data
    assert github.escape_property(text) == prop


# --- markdown --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scenario", "heading", "rows"),
    [
        pytest.param(
            "fail",
            "## ❌ bench-gate FAIL",
            [
                "| `retrieval-summary-recomputes` | **fail (error)** | claimed recall@5 0.966, "
                "recomputed from 500 cases is 0.9171 (tolerance 0.0005)<br>why: A summary that "
                "does not follow from its rows cannot be audited.<br>also: claimed ndcg@10 0.88, "
                "recomputed 0.8012 (report:/overall/ndcg@10)<br>also: case q-17 has no ranked "
                "ids (report:/cases/17/ranked)<br>also: 3 more failures not shown | "
                "`report:/overall/recall@5` |",
                "| `baseline-fresh` | fail (warning) | baseline checked\\_at 2026-05-01 is 40 days "
                "old (limit 30 days)<br>why: A stale baseline lets an old leaderboard number pass "
                "as the current best. | `baseline:/checked_at` |",
                "| `latency-reported` | fail (info) | runtime.p95\\_ms is missing | "
                "`report:/runtime/p95_ms` |",
                "| `question-count` | pass | 500 questions (expected 500) | `report:/overall/n` |",
            ],
            id="failures-first-by-severity",
        ),
        pytest.param(
            "strict",
            "## ❌ bench-gate FAIL",
            [
                "| `baseline-fresh` | **fail (warning)** | baseline checked\\_at 2026-05-01 is 40 "
                "days old (limit 30 days)<br>why: A stale baseline lets an old leaderboard number "
                "pass as the current best. | `baseline:/checked_at` |",
                "| `question-count` | pass | 500 questions (expected 500) | `report:/overall/n` |",
            ],
            id="blocking-warning-is-bold",
        ),
        pytest.param(
            "waived",
            "## ✅ bench-gate PASS",
            [
                "| `baseline-fresh` | waived (error) | baseline checked\\_at 2026-05-01 is 40 days "
                "old (limit 30 days)<br>waived: leaderboard frozen until the June release "
                "(approved by alice, expires 2026-06-30)<br>why: A stale baseline lets an old "
                "leaderboard number pass as the current best. | `baseline:/checked_at` |",
                "| `question-count` | pass | 500 questions (expected 500) | `report:/overall/n` |",
            ],
            id="waived-before-pass",
        ),
        pytest.param(
            "skip",
            "## ✅ bench-gate PASS",
            [
                "| `live-provider-pinned` | skip | skipped: applies to live runs only (/mode is "
                "'replay') | `report:/mode` |",
                "| `qa-accounting` | skip | disabled by profile | `report` |",
                "| `question-count` | pass | 500 questions (expected 500) | `report:/overall/n` |",
            ],
            id="skip-before-pass",
        ),
        pytest.param(
            "special-characters",
            "## ❌ bench-gate FAIL",
            [
                "| `weird,rule:id` | **fail (error)** | "
                "value \"a\\|b\" \\<b\\>\\&amp;\\</b\\> 100% "
                "\\*bold\\* \\_x\\_ \\`tick\\` \\$5 \\\\ line1 line2 ::error::injected"
                "\\\\x00\\\\ud800 end<br>why: why, with: colon and newline | "
                "`report:/a~1b/c\\|d e` |",
                "| `question-count` | pass | 500 questions (expected 500) | `report:/overall/n` |",
            ],
            id="cells-escaped",
        ),
    ],
)
def test_markdown_table(scenario: str, heading: str, rows: list[str]) -> None:
    lines = markdown.render(SCENARIOS[scenario]).splitlines()
    assert lines[0] == heading
    header = lines.index("| rule | status | message | location |")
    assert lines[header + 1] == "| --- | --- | --- | --- |"
    assert [line for line in lines[header:] if line.startswith("| `")] == rows
    # failures stay in view; passing and skipped rules are folded in one <details> block
    folded = next(i for i, line in enumerate(lines) if line.startswith("<details><summary>"))
    shown = [line for line in lines[:folded] if line.startswith("| `")]
    assert all(" pass |" not in line and " skip |" not in line for line in shown)
    assert lines[-1] == "</details>"


def test_markdown_multiple_reports_have_a_section_each() -> None:
    lines = markdown.render(SCENARIOS["multiple-reports"]).splitlines()
    assert [line for line in lines if line.startswith("#")] == [
        "## ❌ bench-gate FAIL: 1 of 2 reports failed",
        "### ✅ PASS: `reports/a.json`",
        "### ❌ FAIL: `reports/b.json`",
    ]
    assert lines[4] == (
        "Profile `ai-memory` on `reports/a.json`, evaluated at 2026-06-10T12:00:00Z: "
        "0 failed, 2 passed"
    )


@pytest.mark.parametrize(
    ("text", "in_table", "expected"),
    [
        pytest.param("report:/a", False, "`report:/a`", id="plain"),
        pytest.param("a|b", True, "`a\\|b`", id="pipe-in-table"),
        pytest.param("a|b", False, "`a|b`", id="pipe-outside-table"),
        pytest.param("a`b", False, "``a`b``", id="backtick-longer-fence"),
        pytest.param("`a", False, "`` `a ``", id="leading-backtick-padded"),
        pytest.param(" a ", False, "`  a  `", id="surrounding-spaces-kept"),
        pytest.param("a\nb\u202e", True, "`a b\\u202e`", id="newline-shown"),
    ],
)
def test_markdown_code_span(text: str, in_table: bool, expected: str) -> None:
    assert markdown.code(text, in_table) == expected


# --- junit -----------------------------------------------------------------------------------


def _cases(root: ET.Element) -> list[tuple[str, str, str, str | None]]:
    out = []
    for suite in root.findall("testsuite"):
        for case in suite.findall("testcase"):
            child = next(iter(case), None)
            state = "pass" if child is None or child.tag == "system-out" else child.tag
            message = child.get("message") if child is not None else None
            if child is not None and child.tag == "system-out":
                message = child.text
            out.append((case.get("classname", ""), case.get("name", ""), state, message))
    return out


@pytest.mark.parametrize(
    ("scenario", "totals", "cases"),
    [
        pytest.param(
            "fail",
            {"tests": "4", "failures": "3", "errors": "0", "skipped": "0"},
            [
                ("reports/run.json", "question-count", "pass", "500 questions (expected 500)"),
                ("reports/run.json", "baseline-fresh", "failure", BASELINE_WARN.message),
                ("reports/run.json", "retrieval-summary-recomputes", "failure", RECOMPUTE_FAIL.message),
                ("reports/run.json", "latency-reported", "failure", "runtime.p95_ms is missing"),
            ],
            id="fail",
        ),
        pytest.param(
            "skip",
            {"tests": "3", "failures": "0", "errors": "0", "skipped": "2"},
            [
                ("reports/run.json", "live-provider-pinned", "skipped", LIVE_SKIP.message),
                ("reports/run.json", "question-count", "pass", "500 questions (expected 500)"),
                ("reports/run.json", "qa-accounting", "skipped", "disabled by profile"),
            ],
            id="skip",
        ),
        pytest.param(
            "waived",
            {"tests": "2", "failures": "0", "errors": "0", "skipped": "1"},
            [
                ("reports/run.json", "question-count", "pass", "500 questions (expected 500)"),
                (
                    "reports/run.json",
                    "baseline-fresh",
                    "skipped",
                    "waived: leaderboard frozen until the June release "
                    "(approved by alice, expires 2026-06-30)",
                ),
            ],
            id="waived-is-skipped-with-reason",
        ),
        pytest.param(
            "special-characters",
            {"tests": "2", "failures": "1", "errors": "0", "skipped": "0"},
            [
                (
                    "reports/my report,v1:final%.json",
                    "weird,rule:id",
                    "failure",
                    'value "a|b" <b>&amp;</b> 100% *bold* _x_ `tick` $5 \\ line1 line2 '
                    "::error::injected\\x00\\ud800 end",
                ),
                ("reports/my report,v1:final%.json", "question-count", "pass", "500 questions (expected 500)"),
            ],
            id="special-characters-round-trip",
        ),
        pytest.param(
            "no-reports",
            {"tests": "0", "failures": "0", "errors": "0", "skipped": "0"},
            [],
            id="no-reports",
        ),
    ],
)
def test_junit_parses_back(
    scenario: str, totals: dict[str, str], cases: list[tuple[str, str, str, str | None]]
) -> None:
    root = ET.fromstring(junit.render(SCENARIOS[scenario]).encode("utf-8"))
    assert root.tag == "testsuites"
    assert {k: root.get(k) for k in totals} == totals
    assert _cases(root) == cases


def test_junit_failure_text_and_suite() -> None:
    root = ET.fromstring(junit.render(SCENARIOS["fail"]).encode("utf-8"))
    suite = root.find("testsuite")
    assert suite is not None
    assert suite.get("name") == "reports/run.json"
    assert suite.get("timestamp") == "2026-06-10T12:00:00"
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert props == {
        "profile": "ai-memory",
        "profile_digest": DIGEST,
        "evaluated_at": "2026-06-10T12:00:00Z",
        "fail_on": "error",
        "passed": "false",
        "tool_version": "0.1.0",
        "input.report": "reports/run.json sha256:" + "1f" * 32 + " 1200 bytes",
        "input.baseline": "evidence/baseline.json sha256:" + "9a" * 32 + " 310 bytes",
    }
    failure = suite.find("testcase[@name='retrieval-summary-recomputes']/failure")
    assert failure is not None
    assert failure.get("type") == "error"
    assert failure.text == (
        "location: report:/overall/recall@5 (reports/run.json)\n"
        "source: policies/retrieval.yaml:22\n"
        "check: retrieval_recompute\n"
        "actual: 0.966\n"
        'expected: "9171/10000"\n'
        "why: A summary that does not follow from its rows cannot be audited.\n"
        "also: claimed ndcg@10 0.88, recomputed 0.8012 (report:/overall/ndcg@10)\n"
        "also: case q-17 has no ranked ids (report:/cases/17/ranked)\n"
        "also: 3 more failures of this rule not shown"
    )
    warn = suite.find("testcase[@name='baseline-fresh']")
    assert warn is not None and warn.get("file") == "evidence/baseline.json"


def test_junit_one_suite_per_report() -> None:
    root = ET.fromstring(junit.render(SCENARIOS["multiple-reports"]).encode("utf-8"))
    assert [s.get("name") for s in root.findall("testsuite")] == [
        "reports/a.json",
        "reports/b.json",
    ]
    assert root.get("tests") == "4" and root.get("failures") == "1"


# --- sarif -----------------------------------------------------------------------------------

# jsonschema checks "uri"/"uri-reference" only with optional packages; check them here (RFC 3986
# characters, and a scheme for an absolute URI) so an unescaped path cannot slip through.
_URI_CHARS = re.compile(r"^(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
FORMATS = jsonschema.FormatChecker()


@FORMATS.checks("uri")
def _is_uri(value: object) -> bool:
    return not isinstance(value, str) or bool(_URI_CHARS.match(value) and _SCHEME.match(value))


@FORMATS.checks("uri-reference")
def _is_uri_reference(value: object) -> bool:
    if not isinstance(value, str):
        return True
    first = value.split("/", 1)[0]
    # A relative reference whose first segment has a colon would read as a scheme.
    return bool(_URI_CHARS.match(value)) and (":" not in first or bool(_SCHEME.match(value)))


@functools.cache
def _sarif_validator() -> jsonschema.Draft4Validator:
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(schema, format_checker=FORMATS)


@pytest.fixture(scope="module")
def sarif_validator() -> jsonschema.Draft4Validator:
    return _sarif_validator()


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_sarif_is_schema_valid(scenario: str, sarif_validator: jsonschema.Draft4Validator) -> None:
    log = json.loads(sarif.render(SCENARIOS[scenario]))
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in sarif_validator.iter_errors(log)]
    assert errors == []


def test_sarif_validator_rejects_a_broken_log(sarif_validator: jsonschema.Draft4Validator) -> None:
    log = json.loads(sarif.render(SCENARIOS["fail"]))
    log["runs"][0]["results"][0]["level"] = "fatal"
    log["runs"][0]["artifacts"][0]["location"]["uri"] = "has space.json"
    messages = sorted(e.message for e in sarif_validator.iter_errors(log))
    assert messages == [
        "'fatal' is not one of ['none', 'note', 'warning', 'error']",
        "'has space.json' is not a 'uri-reference'",
    ]


def _brief(log: dict[str, Any]) -> list[tuple[Any, ...]]:
    run = log["runs"][0]
    out = []
    for r in run["results"]:
        loc = r["locations"][0]
        uri = loc.get("physicalLocation", {}).get("artifactLocation", {}).get("uri")
        fqn = loc["logicalLocations"][0]["fullyQualifiedName"]
        suppressed = [(s["kind"], s["justification"]) for s in r.get("suppressions", [])]
        rule = run["tool"]["driver"]["rules"][r["ruleIndex"]]["id"]
        assert rule == r["ruleId"]
        out.append((r["ruleId"], r["level"], uri, fqn, loc["properties"]["pointer"], suppressed))
    return out


@pytest.mark.parametrize(
    ("scenario", "results"),
    [
        pytest.param("pass", [], id="pass-has-no-results"),
        pytest.param(
            "fail",
            [
                (
                    "baseline-fresh",
                    "warning",
                    "evidence/baseline.json",
                    "baseline:/checked_at",
                    "/checked_at",
                    [],
                ),
                (
                    "retrieval-summary-recomputes",
                    "error",
                    "reports/run.json",
                    "report:/overall/recall@5",
                    "/overall/recall@5",
                    [],
                ),
                (
                    "latency-reported",
                    "note",
                    "reports/run.json",
                    "report:/runtime/p95_ms",
                    "/runtime/p95_ms",
                    [],
                ),
            ],
            id="levels-by-severity",
        ),
        pytest.param("skip", [], id="skips-are-not-results"),
        pytest.param(
            "waived",
            [
                (
                    "baseline-fresh",
                    "error",
                    "evidence/baseline.json",
                    "baseline:/checked_at",
                    "/checked_at",
                    [("external", "leaderboard frozen until the June release")],
                ),
            ],
            id="waived-is-suppressed",
        ),
        pytest.param(
            "multiple-reports",
            [("validator-ran", "error", "reports/b.json", "validator", "", [])],
            id="missing-document-anchored-on-its-report",
        ),
        pytest.param(
            "special-characters",
            [
                (
                    "weird,rule:id",
                    "error",
                    "reports/my%20report%2Cv1%3Afinal%25.json",
                    "report:/a~1b/c|d e",
                    "/a~1b/c|d e",
                    [],
                ),
            ],
            id="uri-percent-encoded",
        ),
    ],
)
def test_sarif_results(scenario: str, results: list[tuple[Any, ...]]) -> None:
    assert _brief(json.loads(sarif.render(SCENARIOS[scenario]))) == results


def test_sarif_rule_metadata() -> None:
    log = json.loads(sarif.render(SCENARIOS["fail"]))
    driver = log["runs"][0]["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("bench-gate", "0.1.0")
    assert [r["id"] for r in driver["rules"]] == [
        "question-count",
        "baseline-fresh",
        "retrieval-summary-recomputes",
        "latency-reported",
    ]
    assert driver["rules"][2] == {
        "id": "retrieval-summary-recomputes",
        "name": "Summary metrics recompute from the per-case rows",
        "shortDescription": {"text": "Summary metrics recompute from the per-case rows"},
        "fullDescription": {
            "text": "A summary that does not follow from its rows cannot be audited."
        },
        "help": {
            "text": "Summary metrics recompute from the per-case rows. A summary that does not "
                    "follow from its rows cannot be audited. Check kind retrieval_recompute, defined "
                    "at policies/retrieval.yaml:22; `bench-gate explain ai-memory` prints the rule "
                    "with its parameters, `bench-gate kinds retrieval_recompute` the check kind's "
                    "documentation (docs/profiles.md#retrieval_recompute in bench-gate's source).",
            "markdown": "**Summary metrics recompute from the per-case rows**\n\nA summary that "
                        "does not follow from its rows cannot be audited.\n\nCheck kind "
                        "`retrieval_recompute`, defined at `policies/retrieval.yaml:22`; `bench-gate "
                        "explain ai-memory` prints the rule with its parameters, `bench-gate kinds "
                        "retrieval_recompute` the check kind's documentation "
                        "(`docs/profiles.md#retrieval_recompute` in bench-gate's source).",
        },
        "defaultConfiguration": {"level": "error"},
        "properties": {
            "check": "retrieval_recompute",
            "severity": "error",
            "source": "policies/retrieval.yaml:22",
        },
    }
    result = log["runs"][0]["results"][1]
    assert result["properties"] == {
        "severity": "error",
        "check": "retrieval_recompute",
        "source": "policies/retrieval.yaml:22",
        "location": "report:/overall/recall@5",
        "report": "reports/run.json",
        "actual": 0.966,
        "expected": "9171/10000",
        "why": "A summary that does not follow from its rows cannot be audited.",
        "omittedDetails": 3,
    }
    assert [
        (r["id"], r["logicalLocations"][0]["fullyQualifiedName"], r["message"]["text"])
        for r in result["relatedLocations"]
    ] == [
        (1, "report:/overall/ndcg@10", "claimed ndcg@10 0.88, recomputed 0.8012"),
        (2, "report:/cases/17/ranked", "case q-17 has no ranked ids"),
    ]


def test_sarif_one_run_for_several_reports() -> None:
    log = json.loads(sarif.render(SCENARIOS["multiple-reports"]))
    assert len(log["runs"]) == 1
    run = log["runs"][0]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == [
        "question-count",
        "retrieval-recall-floor",
        "validator-ran",
    ]
    assert [a["location"]["uri"] for a in run["artifacts"]] == ["reports/a.json", "reports/b.json"]
    assert [(v["report"], v["passed"]) for v in run["properties"]["verdicts"]] == [
        ("reports/a.json", True),
        ("reports/b.json", False),
    ]


@pytest.mark.parametrize(
    ("path", "uri"),
    [
        pytest.param("reports/run.json", "reports/run.json", id="relative"),
        pytest.param("my report#1?.json", "my%20report%231%3F.json", id="reserved-characters"),
        pytest.param("c:d.json", "c%3Ad.json", id="colon-is-not-a-scheme"),
        pytest.param("/tmp/a b.json", "file:///tmp/a%20b.json", id="absolute-posix"),
        pytest.param("C:\\runs\\r.json", "file:///C:/runs/r.json", id="absolute-windows"),
        pytest.param("résumé.json", "r%C3%A9sum%C3%A9.json", id="non-ascii"),
    ],
)
def test_sarif_path_to_uri(path: str, uri: str) -> None:
    assert sarif.path_to_uri(path) == uri


# --- architecture ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["junit", "sarif", "github", "markdown", "_common"])
def test_renderers_import_only_models_the_wording_and_stdlib(name: str) -> None:
    source = (Path(junit.__file__).parent / f"{name}.py").read_text(encoding="utf-8")
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
    ours = {m for m in imported if m.split(".")[0] == "bench_gate"}
    assert ours <= {"bench_gate.models", "bench_gate.report._common", "bench_gate.text.wording"}
    others = {m.split(".")[0] for m in imported - ours} - {"__future__"}
    assert others <= sys.stdlib_module_names


# --- any text at all -------------------------------------------------------------------------

_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=30) | st.sampled_from(
    ["|", "\n", "\r\n", "::error::x", "%0A", "`", "\ud800", "\x00", "a,b:c", "<x>&"]
)
_STATUS = st.sampled_from(["pass", "fail", "skip", "waived"])
_SEVERITY = st.sampled_from(["error", "warning", "info"])
_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | _TEXT
    | st.fractions(max_denominator=50),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=5,
)


@st.composite
def _results(draw: st.DrawFn) -> RuleResult:
    status = draw(_STATUS)
    return res(
        draw(_TEXT.filter(bool)),
        status,
        draw(_TEXT),
        title=draw(_TEXT),
        severity=draw(_SEVERITY),
        document=draw(st.sampled_from(["report", "baseline", "oracle"])),
        pointer=draw(_TEXT),
        source=draw(_TEXT),
        check=draw(_TEXT),
        actual=draw(_VALUE),
        expected=draw(_VALUE),
        why=draw(_TEXT),
        details=tuple(
            Detail(m, "report", p) for m, p in draw(st.lists(st.tuples(_TEXT, _TEXT), max_size=2))
        ),
        waiver={"reason": draw(_TEXT), "approved_by": draw(_TEXT), "expires": "2026-12-31"}
        if status == "waived"
        else None,
    )


@st.composite
def _verdicts(draw: st.DrawFn) -> list[Verdict]:
    out = []
    for _ in range(draw(st.integers(1, 2))):
        extra = (InputDigest("baseline", draw(_TEXT), "9a" * 32, 1),) if draw(st.booleans()) else ()
        out.append(
            verdict(
                draw(st.lists(_results(), min_size=1, max_size=4)),
                report=draw(_TEXT),
                extra_inputs=extra,
                fail_on=draw(_SEVERITY),
            )
        )
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(verdicts=_verdicts())
def test_any_text_keeps_every_format_well_formed(verdicts: list[Verdict]) -> None:
    results = [r for v in verdicts for r in v.results]
    failing = [r for r in results if r.status in ("fail", "waived")]
    for module, _ in RENDERERS.values():
        module.render(verdicts).encode("utf-8")  # no lone surrogate reaches the output

    log = json.loads(sarif.render(verdicts))
    assert [e.message for e in _sarif_validator().iter_errors(log)] == []
    assert len(log["runs"][0]["results"]) == len(failing)

    root = ET.fromstring(junit.render(verdicts).encode("utf-8"))
    assert len(list(root.iter("testcase"))) == len(results)

    # Lines as a runner reads them: "\x85" or "\u2028" in a message do not end one.
    out = github.render(verdicts)
    assert "\r" not in out
    lines = out.removesuffix("\n").split("\n")
    assert len([line for line in lines if line.startswith("::")]) == len(failing)
    assert len(lines) == len(failing) + len(verdicts) + (1 if len(verdicts) > 1 else 0)

    out = markdown.render(verdicts)
    assert "\r" not in out
    rows = [line for line in out.split("\n") if line.startswith("| `")]
    assert len(rows) == len(results)
    for row in rows:  # exactly four cells: every other pipe is backslash-escaped
        assert len(re.findall(r"(?<!\\)\|", row)) == 5


# --- A result that points into a text file (a claim in Markdown) carries its line and column ---------

def _verdict(pointer: str) -> Verdict:
    result = RuleResult(rule="claim-numbers", title="t", status="fail", severity="error",
                        message="README.md:12:5: 96.6% is not a citable value", document="doc",
                        pointer=pointer, source="policies/claims.yaml:3", check="claim_numbers")
    return Verdict("claims", "sha256:" + "0" * 64, datetime(2026, 11, 29, tzinfo=UTC),
                   (InputDigest("doc", "README.md", "1" * 64, 10),), (result,), report_path="README.md")


@pytest.mark.parametrize(("pointer", "region"), [("/line/12/column/5", {"startLine": 12, "startColumn": 5}),
                                                 ("/overall/recall@5", None), ("/line/0/column/5", None)],
                         ids=["text-position", "json-pointer", "line-zero-is-not-a-position"])
def test_sarif_region(pointer: str, region: dict[str, int] | None) -> None:
    doc = json.loads(render("sarif", [_verdict(pointer)]))
    physical = doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert physical.get("region") == region


@pytest.mark.parametrize(("pointer", "props"), [("/line/12/column/5", "file=README.md,line=12,col=5,title=claim-numbers"),
                                                ("/overall/recall@5", "file=README.md,title=claim-numbers")],
                         ids=["text-position", "json-pointer"])
def test_github_line_and_column(pointer: str, props: str) -> None:
    first = render("github", [_verdict(pointer)]).splitlines()[0]
    assert first.startswith(f"::error {props}::")
