"""Claimed metrics and the QA gate on the real Sibyl artifact and tampered copies of it.

Every number a report claims is recomputed, declared not recomputable (and then never citable),
or a failure; a misspelt metric is never a new metric; the QA gate cannot be switched off by an
odd spelling of its mode or flag, and a QA number anywhere turns it on.
"""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from bench_gate.checks.recompute.metrics_claimed import ClaimedParams, QaScoresParams
from bench_gate.cli.app import main

from kindtest import context, run
from repo import ROOT

FIXTURE = json.loads((ROOT / "examples" / "longmemeval_sibyl_hybrid_rc1_20260610.json").read_text(encoding="utf-8"))
NOW = "2026-11-29T12:00:00Z"
MIDNIGHT = datetime(2026, 11, 29, tzinfo=UTC)
DECLARED = ["*_ms", "*_count", "*_tokens", "*_seconds", "memory_extraction_*", "memory_projection_*"]
BLOCKS = ["runtime", "dataset", "corpus", "metadata", "accounting", "diagnostics", "external_artifact"]
PARAMS = ClaimedParams(declared=DECLARED, non_metric_blocks=BLOCKS)
QA_BLOCK = {
    "schema_version": "sibyl-longmemeval-s-qa-v1", "mode": "model", "enabled": True,
    "reader_provider": "openai", "reader_model": "gpt-4o", "reader_prompt_id": "sibyl-longmemeval-reader-v1",
    "judge_provider": "openai", "judge_model": "gpt-5.2", "judge_prompt_id": "sibyl-longmemeval-judge-v1",
    "rubric_id": "longmemeval-s-answer-correctness-v1", "claim_boundary": "End-to-end QA accuracy.",
}


def gate(report: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
         capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, dict[str, Any]]]:
    (tmp_path / "report.json").write_text(json.dumps(report), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = main(["report.json", "--profile", "ai-memory", "--now", NOW, "--format", "json", *args])
    out = capsys.readouterr().out
    return code, {r["rule"]: r for r in json.loads(out)["results"]}


def claimed(report: dict[str, Any]) -> list[Any]:
    return run("claimed_metrics", PARAMS, report, now=MIDNIGHT)


def with_overall(**extra: Any) -> dict[str, Any]:
    """The fixture with more overall keys (a shallow copy: the cases are shared, never changed)."""
    return {**FIXTURE, "overall": {**FIXTURE["overall"], **extra}}


def test_the_honest_fixture_passes_and_lists_what_is_citable() -> None:
    [finding] = claimed(FIXTURE)
    assert finding.status == "pass"
    assert finding.actual == {"recomputed": ["hit@10", "hit@5", "legacy_recall@10", "legacy_recall@5", "ndcg@10",
                                            "ndcg@5", "recall@10", "recall@5"], "not_citable": []}


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("Recall@5", "is not a metric name: it differs from recall@5 only by spelling (not a new metric)"),
        ("recall@05", "is not a metric name: it differs from recall@5 only by spelling (not a new metric)"),
        ("recall@5 ", "is not a metric name: it differs from recall@5 only by spelling (not a new metric)"),
        ("recall_at_5", "is not a metric name: it differs from recall@5 only by spelling (not a new metric)"),
        ("recall@0", "is recall at k = 0, outside 1..100 (max_k): not a cutoff a retrieval summary reports"),
        ("recall@1000000", "is recall at k = 1000000, outside 1..100 (max_k): not a cutoff a retrieval summary "
                           "reports"),
        ("QA_Accuracy", "is not a metric name: it differs from qa_accuracy only by spelling (not a new metric)"),
        ("mrr", "is neither recomputed from the cases nor declared by the profile (declared metrics: *_ms, *_count, "
                "*_tokens, *_seconds, memory_extraction_*, memory_projection_*); an unchecked number cannot be "
                "claimed"),
        ("precision@5", "is neither recomputed from the cases nor declared by the profile (declared metrics: "
                        "*_ms, *_count, *_tokens, *_seconds, memory_extraction_*, memory_projection_*); an "
                        "unchecked number cannot be claimed"),
    ],
)
def test_tampered_names_fail_end_to_end(name: str, reason: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    code, results = gate(with_overall(**{name: 0.99}), tmp_path, monkeypatch, capsys)
    assert code == 1
    rule = results["metrics-claimed"]
    assert rule["status"] == "fail"
    shown = "'" + name + "'"
    assert rule["message"].startswith(f"overall {shown} {reason}")
    assert rule["pointer"] == "/overall/" + name


GOOD = ["hit", "recall", "ndcg", "legacy_recall"]


@st.composite
def misspelling(draw: st.DrawFn) -> str:
    """recall@5 and friends, spelt otherwise: case, padding, zero padding, separators, width, invisible marks."""
    metric = draw(st.sampled_from(GOOD))
    k = draw(st.sampled_from([5, 10]))
    head = "".join(c.upper() if draw(st.booleans()) else c for c in metric)
    sep = draw(st.sampled_from(["@", "@", "_at_", "-at-", "@0", "@00", " @", "＠", "_", "@\u200b"]))
    name = draw(st.sampled_from(["", " ", "\u00a0", "\u200b"])) + head + sep + str(k) + draw(
        st.sampled_from(["", " ", "\t", "\u200b", "\ufeff"]))
    if name == f"{metric}@{k}":
        name += " "
    return name


@given(misspelling())
@settings(max_examples=300, deadline=None)
def test_every_misspelling_of_a_recomputed_metric_fails(name: str) -> None:
    findings = claimed(with_overall(**{name: 0.99}))
    assert [f.status for f in findings] == ["fail"]
    assert "only by spelling" in findings[0].message


@given(st.sampled_from(["overall", "per_type", "case"]), misspelling())
@settings(max_examples=100, deadline=None)
def test_misspellings_fail_in_slices_and_cases_too(where: str, name: str) -> None:
    report = dict(FIXTURE)
    if where == "overall":
        report["overall"] = {**FIXTURE["overall"], name: 0.99}
    elif where == "per_type":
        report["per_type"] = {**FIXTURE["per_type"], "multi-session": {**FIXTURE["per_type"]["multi-session"],
                                                                       name: 0.99}}
    else:
        cases = list(FIXTURE["case_results"])
        cases[7] = {**cases[7], name: 1}
        report["case_results"] = cases
    findings = claimed(report)
    assert [f.status for f in findings] == ["fail"]
    assert findings[0].pointer.endswith("/" + name.replace("~", "~0").replace("/", "~1"))


def test_declared_metrics_pass_but_are_never_citable() -> None:
    [finding] = claimed(with_overall(latency_p95_ms=812.5, embedding_call_count=1500.0))
    assert finding.status == "pass"
    assert finding.actual["not_citable"] == ["embedding_call_count", "latency_p95_ms"]
    assert "declared not recomputable and never citable (embedding_call_count, latency_p95_ms)" in finding.message


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"metrics": {"recall@5": 0.99}}, "top-level block 'metrics' holds numbers the gate does not recompute"),
        ({"headline": {"any": {"recall@5": 0.99}}}, "top-level block 'headline' holds numbers"),
        ({"recall@5": 0.99}, "top-level 'recall@5' is a metric outside overall"),
        ({"Recall_at_10": 0.99}, "top-level 'Recall_at_10' is a metric outside overall"),
    ],
)
def test_numbers_outside_the_summaries_fail(change: dict[str, Any], message: str) -> None:
    findings = claimed({**FIXTURE, **change})
    assert [f.status for f in findings] == ["fail"]
    assert findings[0].message.startswith(message)


def test_a_made_up_per_category_is_recomputed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    report = copy.deepcopy(FIXTURE)
    report["per_category"] = {"everything": {"recall@5": 0.99, "recall@10": 0.99, "ndcg@5": 0.99, "ndcg@10": 0.99}}
    code, results = gate(report, tmp_path, monkeypatch, capsys)
    assert code == 1
    assert results["metrics-recompute"]["message"].startswith(
        "/per_category/everything summarises no case (no case has question_type 'everything')")
    # the same slices as per_type, with one number inflated
    report["per_category"] = copy.deepcopy(FIXTURE["per_type"])
    report["per_category"]["multi-session"]["recall@5"] = 0.99
    code, results = gate(report, tmp_path, monkeypatch, capsys)
    assert code == 1
    assert results["metrics-recompute"]["message"].startswith(
        "per_category[multi-session] recall@5: claimed 0.99, recomputed strict recall@5 from 133 cases is")


def qa_report(correct: int = 490, **overall: Any) -> dict[str, Any]:
    report = copy.deepcopy(FIXTURE)
    report["qa"] = dict(QA_BLOCK)
    for i, case in enumerate(report["case_results"]):
        ok = i >= 500 - correct
        case["qa"] = {"mode": "model", "evaluated": True, "correct": ok, "score": 1.0 if ok else 0.0,
                      "generated_answer": "a", "reference_answer": "a", "judge_rationale": "r",
                      "context_session_ids": ["s1"], "answer_session_ids": ["s1"]}
    report["overall"].update({"qa_accuracy": correct / 500, "qa_mean_score": correct / 500,
                              "qa_evaluated_count": 500.0, "qa_correct_count": float(correct)}, **overall)
    return report


@pytest.mark.parametrize(
    ("qa_change", "failing"),
    [
        ({"mode": "Model"}, "qa-block"),
        ({"mode": "live"}, "qa-block"),
        ({"mode": " model"}, "qa-block"),
        ({"enabled": "true"}, "qa-block"),
        ({"enabled": 1}, "qa-block"),
        ({"mode": "disabled", "enabled": False}, "metrics-claimed"),
    ],
    ids=["mode-Model", "mode-live", "mode-padded", "enabled-string", "enabled-one", "disabled-with-numbers"],
)
def test_the_qa_gate_cannot_be_switched_off(qa_change: dict[str, Any], failing: str, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    report = qa_report()
    report["overall"]["qa_accuracy"] = 0.99  # the claim the QA gate must catch
    report["qa"].update(qa_change)
    code, results = gate(report, tmp_path, monkeypatch, capsys)
    assert code == 1
    assert results[failing]["status"] == "fail"
    assert results["metrics-claimed"]["status"] == "fail"
    assert results["qa-recompute"]["status"] == "fail"  # the accuracy is recomputed: 0.98, not 0.99


def test_qa_accuracy_without_a_qa_block_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, results = gate(with_overall(qa_accuracy=0.99), tmp_path, monkeypatch, capsys)
    assert code == 1
    assert results["metrics-claimed"]["message"] == (
        "QA numbers are claimed (overall qa_accuracy) but /qa is missing: a QA number needs its QA block, which "
        "pins reader, judge, prompts and rubric")
    assert results["qa-block"]["status"] == "fail" and results["qa-overall"]["status"] == "fail"


def test_honest_qa_passes_and_a_wrong_mean_score_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    code, results = gate(qa_report(), tmp_path, monkeypatch, capsys)
    assert code == 0, [r["message"] for r in results.values() if r["status"] == "fail"]
    code, results = gate(qa_report(qa_mean_score=0.99), tmp_path, monkeypatch, capsys)
    assert code == 1
    assert results["qa-scores-recompute"]["message"] == (
        "overall qa_mean_score: claimed 0.99, recomputed from 500 evaluated cases is 0.98")


def test_per_slice_qa_numbers_recompute() -> None:
    report = qa_report()
    ctx = context(report, now=MIDNIGHT)
    types = [c["question_type"] for c in report["case_results"]]
    wrong_first = types[:10]  # the first ten cases are the wrong ones
    qtype = "multi-session"
    n = types.count(qtype)
    wrong = wrong_first.count(qtype)
    report["per_type"][qtype].update(qa_accuracy=(n - wrong) / n, qa_correct_count=n - wrong, qa_evaluated_count=n,
                                     qa_mean_score=(n - wrong) / n)
    assert [f.status for f in run("qa_scores", QaScoresParams(), ctx)] == ["pass"]
    report["per_type"][qtype]["qa_accuracy"] = 0.99
    [finding] = run("qa_scores", QaScoresParams(), ctx)
    assert finding.status == "fail"
    assert finding.message.startswith(f"per_type[{qtype}] qa_accuracy: claimed 0.99, recomputed from {n} evaluated "
                                      "cases is")
