"""The memory-pair and aef-seal golden evidence is what the seeded generator writes, byte for byte,
and every rule of the memory-pair profile has a golden case in which it fails."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import golden
import pairgen
from golden import cases, expected_verdict
from repo import ROOT

GOLDEN = ROOT / "golden"


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name not in ("expected.json", "expected.txt")}


@pytest.mark.parametrize("family", ["memory-pair", "aef-seal"])
def test_golden_evidence_is_reproducible(tmp_path: Path, family: str) -> None:
    pytest.importorskip("cryptography")  # the signed case is signed by the generator
    pairgen.main([str(tmp_path), "--golden"])
    assert tree(tmp_path / family) == tree(GOLDEN / family)


def test_example_run_copies_start_from_the_exact_fixture() -> None:
    intact = GOLDEN / "aef-seal" / "example-run-intact" / "run"
    assert tree(intact) == tree(pairgen.EXAMPLE_RUN)
    blob = intact / "blobs/sha256/63/635221c9c64f48e2843e4186b0a1b66f07a1492c14dcb866bb83dba6a5e5fef5"
    assert b"\r\n" in blob.read_bytes()


def test_every_rule_fails_in_some_golden_case() -> None:
    failed: set[str] = set()
    for c in cases():
        verdict = expected_verdict(c) if c.profile == "memory-pair" else None
        if verdict is not None:
            failed |= {r["rule"] for r in verdict["results"] if r["status"] == "fail"}
    rules = {"normal-arm", "oracle-arm", "arm-roles", "normal-counts", "oracle-counts", "pair-seal", "pair-link",
             "pair-gap", "pair-separate", "verdict-follows-normal", "pair-complete", "normal-run-times",
             "pair-identity"}
    assert rules <= failed


def test_honest_pairs_pass_and_report_the_scores_side_by_side() -> None:
    for case in ("honest-sealed", "honest-sealed-explicit", "honest-unsealed", "honest-signed"):
        verdict = expected_verdict(golden.case(f"memory-pair/{case}"))
        assert verdict is not None and verdict["passed"] is True, case
        (result,) = [r for r in verdict["results"] if r["rule"] == "verdict-follows-normal"]
        assert result["actual"] == {"normalAccuracyPercent": 60.0, "oracleAccuracyPercent": 92.5,
                                    "oracleGapPercentagePoints": 32.5, "oracle": "diagnostic only"}
        text = (GOLDEN / "memory-pair" / case / "expected.txt").read_text()
        assert "76.25" not in text  # the mean of the two arms is never printed


def test_an_honest_agenteval_pair_passes_with_its_own_suites_and_path_named_metric() -> None:
    # the real AEF example run's shape: each arm its own suite definition, the metric longmemeval/accuracy, the
    # percentages and the gap as doubles (23/28 and 24/28 of 28 questions)
    case = GOLDEN / "memory-pair" / "aef-honest-own-suites"
    verdict = json.loads((case / "expected.json").read_text())
    assert verdict["passed"] is True
    by_rule = {r["rule"]: r for r in verdict["results"]}
    assert by_rule["verdict-follows-normal"]["actual"] == {
        "normalAccuracyPercent": 82.14285714285714, "oracleAccuracyPercent": 85.71428571428571,
        "oracleGapPercentagePoints": 3.5714285714285694, "oracle": "diagnostic only"}
    assert "the oracle on its own suite suite:longmemeval/s-subset-gold-oracle" in by_rule["pair-identity"]["message"]
    assert "of 'longmemeval/accuracy' (matched by its last path segment)" in by_rule["normal-summary"]["message"]
    runs = {arm: json.loads((case / "evidence" / arm / "run.json").read_text()) for arm in ("normal", "oracle")}
    example = json.loads((pairgen.EXAMPLE_RUN / "run.json").read_text())
    assert {k for k in example if k not in ("imported", "ext")} == set(runs["normal"]) == set(runs["oracle"])
    assert runs["normal"]["suite"]["ref"] != runs["oracle"]["suite"]["ref"]


@pytest.mark.parametrize(("case", "rule", "message"), [
    ("aef-other-subject", "pair-identity",
     'oracle arm run.json subject.ref is "model:agent:other-agent", but the normal arm\'s is "model:agent:my-agent": '
     "the gap would compare two different subjects"),
    ("aef-pair-id-mismatch", "pair-link",
     'pairId differs: normal "pair-1e2feb89414c343c", oracle "pair-1e2feb89414c343c-b": the arms belong to different '
     "executions"),
    ("aef-two-accuracy-metrics", "normal-summary",
     "normal arm pair record accuracyPercent 82.14285714285714 cannot be tied to the summary: 2 summary entries match "
     "by last path segment: 'longmemeval/accuracy' in lane 'main', 'judge/accuracy' in lane 'main'; exactly one must "
     "(parameter accuracy_metric)"),
])
def test_an_agenteval_pair_still_fails_on_the_fields_that_tie_it(case: str, rule: str, message: str) -> None:
    verdict = json.loads((GOLDEN / "memory-pair" / case / "expected.json").read_text())
    failed = [(r["rule"], r["message"]) for r in verdict["results"] if r["status"] == "fail"]
    assert failed == [(rule, message)]
