"""Retrieval recomputation: ``score()`` on hand-computed cases, then both kinds on a tiny report.

The tiny report has k = 1 and 2 and three cases whose metrics are worked out by hand below;
every failure row changes one claim (or one piece of evidence) and pins the message.

The retrieval comparison's float pre-filter decides exactly what the Fraction comparison does.
"""

from __future__ import annotations

import copy
import math
import random
from datetime import UTC, datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from bench_gate.checks.recompute.retrieval import (
    RecomputeParams, RetrievalParams, _close, retrieval_consistency, retrieval_recompute, score, scores,
)
from bench_gate.models import Finding, WrittenFloat, exact_number

import kindtest

NOW = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)
L3 = 1 / math.log2(3)  # the discount of the second position

# --- score -------------------------------------------------------------------------------

SCORES = [
    # (answers, ranked, k, hit, recall, ndcg)
    ("first-position", ["a"], ["a", "x"], 1, 1, Fraction(1), 1.0),
    ("second-position", ["a"], ["x", "a"], 2, 1, Fraction(1), L3),
    ("outside-top-k", ["a"], ["x", "a"], 1, 0, Fraction(0), 0.0),
    ("nothing-found", ["a"], ["x", "y"], 2, 0, Fraction(0), 0.0),
    ("empty-ranking", ["a"], [], 5, 0, Fraction(0), 0.0),
    ("multi-answer-half", ["a", "b"], ["a", "x", "y"], 3, 1, Fraction(1, 2), 1 / (1 + L3)),
    ("multi-answer-all", ["a", "b"], ["b", "a"], 2, 1, Fraction(1), 1.0),
    ("duplicate-counted-once", ["a", "b"], ["a", "a", "b"], 3, 1, Fraction(1), (1 + 0.5) / (1 + L3)),
    ("duplicate-takes-a-slot", ["a", "b"], ["a", "a", "b"], 2, 1, Fraction(1, 2), 1 / (1 + L3)),
    ("duplicate-irrelevant", ["a"], ["x", "x", "a"], 3, 1, Fraction(1), 0.5),
    ("duplicate-gold", ["a", "a"], ["a"], 1, 1, Fraction(1), 1.0),
    ("k-larger-than-list", ["a"], ["x", "a"], 10, 1, Fraction(1), L3),
    ("k-larger-than-answers", ["a", "b", "c"], ["b", "x", "c", "a"], 3, 1, Fraction(2, 3),
     (1 + 0.5) / (1 + L3 + 0.5)),
    ("ideal-capped-by-k", ["a", "b", "c"], ["x", "a"], 2, 1, Fraction(1, 3), L3 / (1 + L3)),
]


@pytest.mark.parametrize(("answers", "ranked", "k", "hit", "recall", "ndcg"),
                         [r[1:] for r in SCORES], ids=[r[0] for r in SCORES])
def test_score(answers: list[str], ranked: list[str], k: int, hit: int, recall: Fraction, ndcg: float) -> None:
    got_hit, got_recall, got_ndcg = score(answers, ranked, k)
    assert (got_hit, got_recall) == (hit, recall)
    assert isinstance(got_recall, Fraction)
    assert got_ndcg == pytest.approx(ndcg, abs=1e-15)


def test_score_ndcg_hand_values() -> None:
    assert score(["a", "b"], ["x", "a", "b"], 2)[2] == pytest.approx(0.38685280723454163, abs=1e-15)
    assert score(["a", "b", "c"], ["b", "x", "c", "a"], 3)[2] == pytest.approx(0.7039180890341348, abs=1e-15)


@given(st.lists(st.sampled_from("abcdefgh"), min_size=1, max_size=4),
       st.lists(st.sampled_from("abcdefghij"), max_size=14),
       st.sets(st.integers(1, 16), min_size=1, max_size=3))
def test_scores_at_every_k_in_one_pass_are_score_at_each_k(answers: list[str], ranked: list[str],
                                                           ks: set[int]) -> None:
    """The one-pass scorer the kind uses gives exactly what score() gives k by k (repeated
    ranked ids included): the same counts and the same nDCG floats, bit for bit."""
    ordered = sorted(ks)
    found, ndcg = scores(answers, ranked, ordered)
    for j, k in enumerate(ordered):
        hit, recall, expected_ndcg = score(answers, ranked, k)
        assert (Fraction(int(found[j] > 0)), Fraction(found[j], len(set(answers)))) == (hit, recall)
        assert ndcg[j] == expected_ndcg


@settings(max_examples=200)
@given(st.lists(st.tuples(st.lists(st.sampled_from("abcdefgh"), min_size=1, max_size=3),
                          st.lists(st.sampled_from("abcdefghij"), max_size=14)), min_size=1, max_size=6),
       st.sets(st.integers(1, 12), min_size=1, max_size=3))
def test_the_cases_the_kind_scores_are_scored_as_score_scores_them(
        rows: list[tuple[list[str], list[str]]], ks: set[int]) -> None:
    """load_cases, with its one-answer shortcut and its scores shared by cases alike, gives
    each case what scores() gives it (repeated and absent ids included)."""
    from bench_gate.checks.recompute.retrieval import load_cases

    ordered = sorted(ks)
    report = {"case_results": [{"question_id": f"q{i}", "answer_session_ids": answers,
                                "ranked_session_ids": ranked} for i, (answers, ranked) in enumerate(rows)]}
    p = kindtest.params("retrieval_recompute", {})
    cases, problems, _, _ = load_cases(kindtest.context(report), p, ordered)
    assert problems == []
    for case, (answers, ranked) in zip(cases, rows):
        assert (case.found, case.ndcg) == scores(answers, ranked, ordered)
        assert case.answers == len(set(answers))


# --- the tiny report ---------------------------------------------------------------------
#
#   q1 (type a): answers {s1},     ranked s1 x       -> @1: 1 1 1      @2: 1 1   1
#   q2 (type a): answers {s2, s3}, ranked x s2 s3    -> @1: 0 0 0      @2: 1 1/2 L3/(1+L3)
#   q3 (type b): answers {s4},     ranked s4         -> @1: 1 1 1      @2: 1 1   1

NDCG_Q2 = L3 / (1 + L3)  # 0.38685...


def metrics(hit1: float, rec1: float, ndcg1: float, hit2: float, rec2: float, ndcg2: float) -> dict[str, float]:
    return {"hit@1": hit1, "recall@1": rec1, "ndcg@1": ndcg1, "hit@2": hit2, "recall@2": rec2, "ndcg@2": ndcg2}


def tiny() -> dict[str, Any]:
    return {
        "k_values": [1, 2],
        "overall": metrics(2 / 3, 2 / 3, 2 / 3, 1.0, 5 / 6, (2 + NDCG_Q2) / 3),
        "per_type": {"a": metrics(0.5, 0.5, 0.5, 1.0, 0.75, (1 + NDCG_Q2) / 2),
                     "b": metrics(1.0, 1.0, 1.0, 1.0, 1.0, 1.0)},
        "case_results": [
            {"question_id": "q1", "question_type": "a", "answer_session_ids": ["s1"],
             "ranked_session_ids": ["s1", "x"], **metrics(1.0, 1.0, 1.0, 1.0, 1.0, 1.0)},
            {"question_id": "q2", "question_type": "a", "answer_session_ids": ["s2", "s3"],
             "ranked_session_ids": ["x", "s2", "s3"], **metrics(0.0, 0.0, 0.0, 1.0, 0.5, NDCG_Q2)},
            {"question_id": "q3", "question_type": "b", "answer_session_ids": ["s4"],
             "ranked_session_ids": ["s4"], **metrics(1.0, 1.0, 1.0, 1.0, 1.0, 1.0)},
        ],
    }


def run(fn: Any, data: Any) -> list[Finding]:
    return kindtest.run(fn, RecomputeParams() if fn is retrieval_recompute else RetrievalParams(), data)


def edit(path: str, value: Any) -> dict[str, Any]:
    """The tiny report with one value replaced (``...`` deletes it)."""
    data = tiny()
    *parents, last = path.strip("/").split("/")
    node: Any = data
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    key: Any = int(last) if isinstance(node, list) else last
    if value is ...:
        del node[key]
    else:
        node[key] = value
    return data


def test_recompute_passes_on_a_consistent_report() -> None:
    (f,) = run(retrieval_recompute, tiny())
    assert (f.status, f.message, f.pointer) == (
        "pass", "recomputed from 3 cases, all claims match: hit@1 0.6667, recall@1 0.6667, ndcg@1 0.6667, "
        "hit@2 1, recall@2 0.8333, ndcg@2 0.7956", "/overall")


def test_recompute_default_k_values() -> None:
    data = {"case_results": [{"question_id": "q", "answer_session_ids": ["a"], "ranked_session_ids": ["a"]}],
            "overall": {f"{m}@{k}": 1.0 for k in (5, 10) for m in ("hit", "recall", "ndcg")}}
    (f,) = run(retrieval_recompute, data)
    assert f.message == ("recomputed from 1 cases, all claims match: hit@5 1, recall@5 1, ndcg@5 1, "
                         "hit@10 1, recall@10 1, ndcg@10 1")


RECOMPUTE = [
    ("overall-recall-off", "/overall/recall@2", 0.9,
     "claimed 0.9, recomputed strict recall@2 from 3 cases is 0.8333", "/overall/recall@2"),
    ("overall-ndcg-off", "/overall/ndcg@2", 0.8,
     "claimed 0.8, recomputed ndcg@2 from 3 cases is 0.7956: a rounded claim needs at least 3 places (min_places), "
     "or the places its producer rounds to (places)", "/overall/ndcg@2"),
    ("overall-hit-as-recall", "/overall/recall@2", 1.0,
     "claimed 1.0, recomputed strict recall@2 from 3 cases is 0.8333 "
     "(hit@2 is 1: the value looks like hit@2 labelled as recall@2)", "/overall/recall@2"),
    ("overall-missing", "/overall/ndcg@1", ...,
     "ndcg@1 is not reported (recomputed 0.6667 from 3 cases)", "/overall/ndcg@1"),
    ("overall-not-number", "/overall/hit@1", "0.67",
     'hit@1 must be a number, got string "0.67"', "/overall/hit@1"),
    ("overall-bool", "/overall/hit@2", True, "hit@2 must be a number, got boolean true", "/overall/hit@2"),
    ("overall-not-object", "/overall", [1], "/overall must be an object, got array", "/overall"),
    ("legacy-recall-is-hit-ok", "/overall/legacy_recall@2", 1.0, None, None),
    ("legacy-recall-off", "/overall/legacy_recall@2", 5 / 6,
     "legacy_recall@2: claimed 0.8333333333333334, but legacy recall is hit@2, recomputed 1",
     "/overall/legacy_recall@2"),
    ("legacy-recall-not-number", "/overall/legacy_recall@1", None,
     "legacy_recall@1: claimed null, but legacy recall is hit@1, recomputed 0.6667", "/overall/legacy_recall@1"),
    ("per-type-off", "/per_type/a/recall@2", 0.8,
     "per_type[a] recall@2: claimed 0.8, recomputed strict recall@2 from 2 cases is 0.75: a rounded claim needs at "
     "least 3 places (min_places), or the places its producer rounds to (places)", "/per_type/a/recall@2"),
    ("per-type-hit-as-recall", "/per_type/a/recall@2", 1.0,
     "per_type[a] recall@2: claimed 1.0, recomputed strict recall@2 from 2 cases is 0.75 "
     "(hit@2 is 1: the value looks like hit@2 labelled as recall@2)", "/per_type/a/recall@2"),
    ("per-type-metric-may-be-absent", "/per_type/a/ndcg@2", ..., None, None),
    ("per-type-slice-without-cases", "/per_type/c", metrics(1, 1, 1, 1, 1, 1),
     "/per_type/c summarises no case (no case has question_type 'c')", "/per_type/c"),
    ("cases-without-slice", "/per_type/b", ...,
     "1 cases of type 'b' have no slice in /per_type", "/per_type/b"),
    ("per-type-not-object", "/per_type", [], "/per_type must be an object, got array", "/per_type"),
    ("per-type-slice-not-object", "/per_type/b", 1.0, "/per_type/b must be an object, got number", "/per_type/b"),
    ("case-without-type", "/case_results/2/question_type", ...,
     "case q3 has no question_type, so /per_type cannot be recomputed", "/case_results/2/question_type"),
    ("case-recall-off", "/case_results/1/recall@2", 0.75,
     "case q2 recall@2: claimed 0.75, recomputed strict recall@2 is 0.5", "/case_results/1/recall@2"),
    ("case-hit-as-recall", "/case_results/1/recall@2", 1.0,
     "case q2 recall@2: claimed 1.0, recomputed strict recall@2 is 0.5 "
     "(hit@2 is 1: the value looks like hit@2 labelled as recall@2)", "/case_results/1/recall@2"),
    ("case-ndcg-off", "/case_results/1/ndcg@2", 0.5,
     "case q2 ndcg@2: claimed 0.5, recomputed ndcg@2 is 0.3869", "/case_results/1/ndcg@2"),
    ("case-legacy-off", "/case_results/1/legacy_recall@1", 1.0,
     "case q2 legacy_recall@1: claimed 1.0, but legacy recall is hit@1, recomputed 0", "/case_results/1/legacy_recall@1"),
    ("case-metric-may-be-absent", "/case_results/1/ndcg@2", ..., None, None),
    ("empty-answers", "/case_results/0/answer_session_ids", [],
     "case q1: answer_session_ids is empty, so strict recall is undefined", "/case_results/0/answer_session_ids"),
    ("answers-not-list", "/case_results/0/answer_session_ids", "s1",
     'case q1: answer_session_ids must be a list of session ids, got "s1"', "/case_results/0/answer_session_ids"),
    ("ranked-not-list", "/case_results/0/ranked_session_ids", "s1 x",
     'case q1: ranked_session_ids must be a list of session ids, got "s1 x"', "/case_results/0/ranked_session_ids"),
    ("ranked-with-number", "/case_results/0/ranked_session_ids", ["s1", 2],
     'case q1: ranked_session_ids must be a list of session ids, got ["s1", 2]', "/case_results/0/ranked_session_ids"),
    ("ranked-missing", "/case_results/0/ranked_session_ids", ...,
     "case q1: ranked_session_ids must be a list of session ids, got missing", "/case_results/0/ranked_session_ids"),
    ("no-id", "/case_results/0/question_id", ..., "/case_results/0 has no id (question_id / case_id / task_id)",
     "/case_results/0"),
    ("blank-id", "/case_results/0/question_id", " ", "/case_results/0 has no id (question_id / case_id / task_id)",
     "/case_results/0"),
    ("case-not-object", "/case_results/0", ["s1"], "/case_results/0 must be an object, got array", "/case_results/0"),
    ("no-cases", "/case_results", [], "/case_results must be a non-empty list of cases, got array", "/case_results"),
    ("cases-missing", "/case_results", ..., "/case_results is missing", "/case_results"),
    ("k-values-not-list", "/k_values", "1,2", '/k_values must be a non-empty list of integers, got "1,2"', "/k_values"),
    ("k-values-empty", "/k_values", [], "/k_values must be a non-empty list of integers, got []", "/k_values"),
    ("k-zero", "/k_values", [0, 2], "/k_values/0 is 0; k must be positive", "/k_values/0"),
    ("k-twice", "/k_values", [1, 2, 1], "/k_values lists a k twice: [1, 2, 1]", "/k_values"),
    ("k-bool", "/k_values", [True, 2], "/k_values/0 must be an integer, got boolean true", "/k_values/0"),
    ("k-fraction", "/k_values", [1, 2.5], "/k_values/1 must be an exact integer, got 2.5", "/k_values/1"),
    ("k-string", "/k_values", ["1", 2], '/k_values/0 must be an integer, got string "1"', "/k_values/0"),
]


@pytest.mark.parametrize(("path", "value", "message", "pointer"),
                         [r[1:] for r in RECOMPUTE], ids=[r[0] for r in RECOMPUTE])
def test_recompute(path: str, value: Any, message: str | None, pointer: str | None) -> None:
    found = run(retrieval_recompute, edit(path, value))
    if message is None:
        assert [f.status for f in found] == ["pass"]
        return
    assert [(f.status, f.message, f.pointer) for f in found][:1] == [("fail", message, pointer)]


def test_recompute_reports_summaries_before_cases() -> None:
    data = tiny()
    data["case_results"][1]["recall@2"] = 1.0
    data["overall"]["recall@2"] = 1.0
    found = run(retrieval_recompute, data)
    assert [f.pointer for f in found] == ["/overall/recall@2", "/case_results/1/recall@2"]


def test_recompute_tolerance_is_1e9() -> None:
    within = edit("/overall/recall@2", 5 / 6 + 9e-10)
    beyond = edit("/overall/recall@2", 5 / 6 + 2e-9)
    assert run(retrieval_recompute, within)[0].status == "pass"
    assert run(retrieval_recompute, beyond)[0].message == (
        "claimed 0.8333333353333334, recomputed strict recall@2 from 3 cases is 0.83333333")


# --- retrieval_consistency ---------------------------------------------------------------


def test_consistency_passes() -> None:
    (f,) = run(retrieval_consistency, tiny())
    assert (f.status, f.message) == (
        "pass", "hit@k and strict recall@k reported for k = 1, 2; all metrics in [0, 1], recall ≤ hit, "
        "monotone in k; case ids unique")


CONSISTENCY = [
    ("hit-missing", "/overall/hit@2", ...,
     "overall hit@2 is not reported; a published result reports both hit@2 and strict recall@2", "/overall/hit@2"),
    ("recall-missing", "/overall/recall@1", ...,
     "overall recall@1 is not reported; a published result reports both hit@1 and strict recall@1",
     "/overall/recall@1"),
    ("percent", "/overall/ndcg@1", 66.7,
     "overall ndcg@1 is 66.7, outside [0, 1] (a percent where a fraction belongs?)", "/overall/ndcg@1"),
    ("negative", "/per_type/b/ndcg@2", -0.1,
     "per_type[b] ndcg@2 is -0.1, outside [0, 1] (a percent where a fraction belongs?)", "/per_type/b/ndcg@2"),
    ("not-number", "/overall/ndcg@2", "0.8", 'overall ndcg@2 must be a number, got string "0.8"', "/overall/ndcg@2"),
    ("legacy-out-of-range", "/overall/legacy_recall@2", 100,
     "overall legacy_recall@2 is 100, outside [0, 1] (a percent where a fraction belongs?)",
     "/overall/legacy_recall@2"),
    ("recall-exceeds-hit", "/overall/recall@1", 0.7,
     "overall recall@1 0.7 exceeds hit@1 0.6666666666666666; strict recall can never exceed hit", "/overall/recall@1"),
    ("recall-exceeds-hit-in-slice", "/per_type/a/recall@1", 0.6,
     "per_type[a] recall@1 0.6 exceeds hit@1 0.5; strict recall can never exceed hit", "/per_type/a/recall@1"),
    ("hit-falls-with-k", "/overall", metrics(0.95, 0.6, 0.6, 0.9, 0.8, 0.8),
     "overall hit@2 0.9 is below hit@1 0.95; it cannot fall as k grows", "/overall/hit@2"),
    ("recall-falls-with-k", "/per_type/a/recall@2", 0.4,
     "per_type[a] recall@2 0.4 is below recall@1 0.5; it cannot fall as k grows", "/per_type/a/recall@2"),
    ("ndcg-may-fall", "/overall/ndcg@2", 0.5, None, None),
    ("duplicate-id", "/case_results/2/question_id", "q1",
     "case id 'q1' appears twice (/case_results/0 and /case_results/2)", "/case_results/2"),
    ("k-values-bad", "/k_values", [1, 1], "/k_values lists a k twice: [1, 1]", "/k_values"),
    ("overall-missing", "/overall", ..., "/overall is missing", "/overall"),
]


@pytest.mark.parametrize(("path", "value", "message", "pointer"),
                         [r[1:] for r in CONSISTENCY], ids=[r[0] for r in CONSISTENCY])
def test_consistency(path: str, value: Any, message: str | None, pointer: str | None) -> None:
    found = run(retrieval_consistency, edit(path, value))
    if message is None:
        assert [f.status for f in found] == ["pass"]
        return
    assert [(f.status, f.message, f.pointer) for f in found][:1] == [("fail", message, pointer)]


def test_tiny_report_is_not_mutated_between_rows() -> None:
    before = copy.deepcopy(tiny())
    run(retrieval_recompute, edit("/overall/recall@2", 0.1))
    assert tiny() == before


# --- a claim at a k that k_values leaves out ---------------------------------------------


def outside_k_values(**claims: float) -> dict[str, Any]:
    """The tiny report declaring only k = 2, with its k = 1 claims replaced by ``claims``."""
    data = tiny()
    data["k_values"] = [2]
    for name in ("hit@1", "recall@1", "ndcg@1"):
        del data["overall"][name]
    data["overall"].update(claims)
    return data


UNDECLARED_K = [
    ("none-claimed", {}, "pass", "recomputed from 3 cases, all claims match: hit@1 0.6667, recall@1 0.6667, "
     "ndcg@1 0.6667, hit@2 1, recall@2 0.8333, ndcg@2 0.7956"),
    ("true-claim-passes-alone", {"hit@1": 2 / 3}, "pass", "recomputed from 3 cases, all claims match: hit@1 0.6667, "
     "recall@1 0.6667, ndcg@1 0.6667, hit@2 1, recall@2 0.8333, ndcg@2 0.7956"),
    ("inflated-recall", {"recall@1": 0.99}, "fail", "claimed 0.99, recomputed strict recall@1 from 3 cases is 0.6667"),
    ("inflated-legacy", {"legacy_recall@1": 0.99}, "fail",
     "legacy_recall@1: claimed 0.99, but legacy recall is hit@1, recomputed 0.6667"),
    # q2 at k = 3: (L3 + 1/2) / (1 + L3); the mean with two 1s is 0.8978
    ("inflated-ndcg-at-3", {"ndcg@3": 0.99}, "fail", "claimed 0.99, recomputed ndcg@3 from 3 cases is 0.8978"),
]


@pytest.mark.parametrize(("claims", "status", "message"), [r[1:] for r in UNDECLARED_K], ids=[r[0] for r in UNDECLARED_K])
def test_recompute_checks_claims_at_undeclared_k(claims: dict[str, float], status: str, message: str) -> None:
    found = run(retrieval_recompute, outside_k_values(**claims))
    assert (found[0].status, found[0].message) == (status, message)


def test_recompute_checks_per_type_claims_at_undeclared_k() -> None:
    data = tiny()
    data["per_type"]["a"]["recall@3"] = 0.75
    found = run(retrieval_recompute, data)
    assert [(f.status, f.message, f.pointer) for f in found] == [
        ("fail", "per_type[a] recall@3: claimed 0.75, recomputed strict recall@3 from 2 cases is 1",
         "/per_type/a/recall@3")]


# --- The retrieval comparison's float pre-filter decides exactly what the Fraction comparison d ------

def exact(claimed: Fraction | float, recomputed: Fraction | float, tol: float) -> bool:
    return abs(Fraction(claimed) - Fraction(recomputed)) <= Fraction(tol)


TOLS = [0.0, 1e-12, 1e-9, 1e-6, 0.0005, 0.5]


@pytest.mark.parametrize(("claimed", "recomputed", "tol", "expected"), [
    (Fraction(1, 2), Fraction(1, 2), 1e-9, True),
    (Fraction("0.9406"), Fraction(9406, 10000), 0.0, True),
    (Fraction(9406, 10000) + Fraction(1e-11), Fraction(9406, 10000), 1e-11, True),
    (Fraction(9406, 10000) + Fraction(1e-11) + Fraction(1, 10**30), Fraction(9406, 10000), 1e-11, False),
    (Fraction("0.94060000001"), Fraction(9406, 10000), 1e-11, False),
    (Fraction(10) ** 400, Fraction(1), 1e-9, False),
    (Fraction(1, 3), 1 / 3, 1e-9, True),
    (Fraction(1, 3), 1 / 3, 0.0, False),
    (exact_number(0.1), 0.1, 0.0, False),
    (exact_number(0.1), Fraction(1, 10), 0.0, True),
], ids=["equal", "tie-at-zero", "at-tolerance", "beyond", "decimal-tolerance-is-binary", "huge", "float-recomputed", "binary-vs-decimal",
        "written-vs-binary", "written-vs-exact"])
def test_close(claimed: Fraction, recomputed: Fraction | float, tol: float, expected: bool) -> None:
    assert _close(claimed, recomputed, tol) is expected
    assert exact(claimed, recomputed, tol) is expected


@pytest.mark.parametrize(("claimed", "recomputed", "tol", "expected"), [
    (0.1, Fraction(1, 10), 0.0, True),
    (0.1, 0.1, 0.0, False),
    (0.3, Fraction(3, 10) + Fraction(1e-20), 1e-20, True),
    (0.3, Fraction(3, 10) + Fraction(1e-20) + Fraction(1, 10**40), 1e-20, False),
], ids=["written-equals-exact", "written-vs-its-binary", "within", "beyond"])
def test_a_plain_float_claim_counts_as_written(claimed: float, recomputed: Fraction | float, tol: float,
                                               expected: bool) -> None:
    assert _close(claimed, recomputed, tol) is expected
    assert exact(exact_number(claimed), recomputed, tol) is expected


def test_near_the_tolerance_many_values() -> None:
    rng = random.Random(7)
    for _ in range(20000):
        tol = rng.choice(TOLS)
        base = Fraction(rng.randrange(0, 10**6), rng.randrange(1, 10**6))
        offset = Fraction(tol) + Fraction(rng.randrange(-3, 4), 10 ** rng.randrange(12, 20))
        claimed = base + offset * rng.choice([-1, 1])
        as_float = float(claimed) if rng.random() < 0.5 else None
        claimed = exact_number(as_float) if as_float is not None else claimed
        recomputed = float(base) if rng.random() < 0.3 else base
        assert _close(claimed, recomputed, tol) is exact(claimed, recomputed, tol)
        if as_float is not None:
            assert _close(as_float, recomputed, tol) is exact(claimed, recomputed, tol)


@settings(max_examples=3000, deadline=None)
@given(st.decimals(allow_nan=False, allow_infinity=False, places=20, min_value=-1000, max_value=1000),
       st.fractions(min_value=-1000, max_value=1000, max_denominator=10**6),
       st.sampled_from(TOLS))
def test_agrees_with_exact_arithmetic(claimed: Decimal, recomputed: Fraction, tol: float) -> None:
    c = Fraction(claimed)
    assert _close(c, recomputed, tol) is exact(c, recomputed, tol)
    r = float(recomputed)
    if math.isfinite(r):
        assert _close(c, r, tol) is exact(c, r, tol)


# --- cases that claim every metric --------------------------------------------------------


def claiming_everything() -> dict[str, Any]:
    """The tiny report whose cases also claim legacy recall: every metric of every case claimed,
    each a plain float equal to the recomputed value."""
    data = tiny()
    for case in data["case_results"]:
        case.update({f"legacy_recall@{k}": case[f"hit@{k}"] for k in (1, 2)})
    return data


EVERY_CLAIM = [
    ("equal-floats", 1.0, 1e-9, None),
    ("equal-floats-tolerance-0", 1.0, 0.0, None),
    ("integer-equal-to-the-value", 1, 1e-9, None),
    ("integer-equal-to-the-value-tolerance-0", 1, 0.0, None),
    ("boolean-equal-to-the-value", True, 1e-9, "case q1 hit@1 must be a number, got boolean true"),
    ("more-decimals", WrittenFloat(1.0, "1.00"), 0.0, None),
    ("within-the-tolerance", 0.9999999999, 1e-9, None),
    ("beyond-the-tolerance", 0.99999, 1e-9, "case q1 hit@1: claimed 0.99999, recomputed hit@1 is 1"),
]


@pytest.mark.parametrize("tolerance", [-1.0, -1e-12, float("nan")])
def test_a_negative_tolerance_is_refused_when_the_profile_binds(tolerance: float) -> None:
    for params in (RetrievalParams, RecomputeParams):
        with pytest.raises(ValueError, match="tolerance must be >= 0"):
            params(tolerance=tolerance)
    assert RecomputeParams(tolerance=0.0).tolerance == 0.0


@pytest.mark.parametrize(("value", "tolerance", "message"), [r[1:] for r in EVERY_CLAIM],
                         ids=[r[0] for r in EVERY_CLAIM])
def test_cases_claiming_every_metric(value: Any, tolerance: float, message: str | None) -> None:
    """A case whose claims all equal the recomputed values as plain floats is passed over at
    once; any other claim (an integer, a boolean, a literal with more decimals, a tolerance
    under which equality is not enough) is judged claim by claim, as ever."""
    data = claiming_everything()
    data["case_results"][0]["hit@1"] = value
    found = kindtest.run(retrieval_recompute, RecomputeParams(tolerance=tolerance), data)
    if message is None:
        assert [f.status for f in found] == ["pass"]
    else:
        assert [(f.status, f.message, f.pointer) for f in found if f.pointer.startswith("/case_results/0")][:1] == [
            ("fail", message, "/case_results/0/hit@1")]
