"""A result that points into a text file (a claim in Markdown) carries its line and column."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from bench_gate.models import InputDigest, RuleResult, Verdict
from bench_gate.report import render


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
