"""No format lets text from a report write into a CI log as it is.

Every renderer escapes control, bidirectional and line-separator characters the way the text
format does (:func:`bench_gate.report._common.printable`), JSON and SARIF write them as
``\\uNNNN`` escapes (the same strings to a JSON reader), and no line of any output but the
GitHub format's own annotations begins with ``::``, which GitHub Actions would run as a workflow
command (``::add-mask::``, ``::stop-commands::``).
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench_gate.models import Detail, InputDigest, RuleResult, Verdict
from bench_gate.report import RENDERERS, render

NOW = datetime(2026, 6, 10, 12, 0, tzinfo=UTC)
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069"
                    "\ufffe\uffff]")
"""Raw in an output, anything but the renderer's own line breaks and tabs."""

HOSTILE = [
    "ok\n::add-mask::secret",
    "ok\r\n::stop-commands::token",
    "ok\n  ::error file=x::fake",
    "ok\u2028::add-mask::x",
    "ok\u0085::add-mask::x",
    "ok\x9b2K\x1b[2KPASS",
    "\u202eSSAP\u202c",
    "::add-mask::at-the-start",
    "\u2066::notice::isolated\u2069",
    "tab\there",
    "nonchar\ufffe\uffff",
]


def hostile_verdict(text: str) -> Verdict:
    fail = RuleResult(
        rule=f"rule-{text}", status="fail", message=f"claimed {text}", title=text, severity="error",
        document=f"doc{text}", pointer=f"/p/{text}", source="policies/x.yaml:1", check="fields", why=f"why {text}",
        actual=text, expected=[text], details=(Detail(f"detail {text}", f"doc{text}", f"/d/{text}"),))
    waived = RuleResult(
        rule="waived-rule", status="waived", message=f"waived {text}", title="w", severity="warning", document="report",
        pointer="", source="policies/x.yaml:2", check="fields",
        waiver={"rule": "waived-rule", "reason": f"reason {text}", "approved_by": text, "expires": "2026-12-31"})
    skipped = RuleResult(rule="skipped", status="skip", message=f"skipped {text}", title="s", severity="info",
                         document="report", pointer="", source="policies/x.yaml:3", check="fields")
    passing = RuleResult(rule="passing", status="pass", message=f"passed {text}", title="p", severity="error",
                         document="report", pointer="", source="policies/x.yaml:4", check="aggregate")
    return Verdict(profile_name=f"p{text}", profile_digest="sha256:" + "ab" * 32, evaluated_at=NOW,
                   inputs=(InputDigest("report", f"reports/{text}.json", "1f" * 32, 10),
                           InputDigest(f"doc{text}", f"docs/{text}.json", "2e" * 32, 5)),
                   results=(fail, waived, skipped, passing), report_path=f"reports/{text}.json")


def check(fmt: str, out: str, text: str) -> None:
    commands = [line for line in out.splitlines() if line.lstrip().startswith("::")]
    if fmt == "github":
        # only the renderer's own annotations, one per failing or waived rule
        assert len(commands) == 2 and all(re.match(r"::(error|warning|notice) ", c) for c in commands), commands
    else:
        assert commands == [], (fmt, commands)
    found = UNSAFE.search(out)
    assert found is None, (fmt, repr(found.group()) if found else None)
    if fmt == "json":
        data = json.loads(out)
        assert data["results"][0]["message"] == f"claimed {text}"  # the data itself is kept exactly
    elif fmt == "sarif":
        json.loads(out)
    elif fmt == "junit":
        ET.fromstring(out.encode("utf-8"))


@pytest.mark.parametrize("text", HOSTILE, ids=[repr(h)[1:20] for h in HOSTILE])
@pytest.mark.parametrize("fmt", sorted(RENDERERS))
def test_no_format_lets_report_text_into_the_log(fmt: str, text: str) -> None:
    check(fmt, render(fmt, [hostile_verdict(text)]), text)


WORDS = st.sampled_from(["::", "add-mask::x", "\n", "\r", "\r\n", "\u2028", "\u2029", "\x85", "\x9b", "\x1b[31m",
                         "\u202e", "\u200f", "\u2066", "  ", "x", "%0A", "&#10;", "<br>", "|", "`"])


@given(st.lists(WORDS, min_size=1, max_size=8).map("".join))
@settings(max_examples=150, deadline=None)
def test_any_mix_of_line_breaks_and_controls_stays_escaped(text: str) -> None:
    for fmt in sorted(RENDERERS):
        check(fmt, render(fmt, [hostile_verdict(text)]), text)
