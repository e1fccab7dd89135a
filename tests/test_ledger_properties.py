"""Property tests of the external-manifest checks: a summary that does not follow from its
slices, or a gate receipt that does not match the summary, never passes, whatever the numbers."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from bench_gate.checks.ledger.external import ExternalParams, check_gate_receipt, check_slices

HASH = "sha256:" + "c" * 63 + "d"
COUNTS = {"a": 78, "b": 133, "c": 56, "d": 30, "e": 70, "f": 133}
PARAMS = ExternalParams(question_type_counts={HASH: COUNTS})
# Slice values as the producers write them: ratios of a case count, printed as floats.
SLICE = st.fractions(min_value=0, max_value=1, max_denominator=200).map(lambda f: float(f))


def manifest(slices: dict[str, float], overall: float) -> dict:
    return {"total_questions": 500, "dataset": {"corpus_hash": HASH},
            "overall": {"recall@5": overall},
            "per_type": {name: {"recall@5": value} for name, value in slices.items()}}


def weighted(slices: dict[str, float]) -> Fraction:
    return sum((n * Fraction(repr(slices[t])) for t, n in COUNTS.items()), Fraction(0)) / 500


@settings(max_examples=200, deadline=None)
@given(st.fixed_dictionaries({t: SLICE for t in COUNTS}))
def test_the_weighted_mean_of_the_slices_passes(slices: dict[str, float]) -> None:
    assert check_slices(manifest(slices, float(weighted(slices))), PARAMS) == []


@settings(max_examples=200, deadline=None)
@given(st.fixed_dictionaries({t: SLICE for t in COUNTS}),
       st.fractions(min_value=Fraction(1, 10**8), max_value=1).map(float), st.booleans())
def test_an_overall_off_the_weighted_mean_fails(slices: dict[str, float], delta: float, up: bool) -> None:
    claimed = float(weighted(slices)) + (delta if up else -delta)
    problems = check_slices(manifest(slices, claimed), PARAMS)
    assert [p for p, _ in problems] == ["/overall/recall@5"]


@settings(max_examples=200, deadline=None)
@given(st.fixed_dictionaries({t: SLICE for t in COUNTS}), st.sampled_from(sorted(COUNTS)),
       st.sampled_from(["Recall@5", "recall@05", "recall_at_5", "mrr", "precision@5", "qa_accuracy"]))
def test_a_metric_the_slices_do_not_carry_fails(slices: dict[str, float], _t: str, name: str) -> None:
    doc = manifest(slices, float(weighted(slices)))
    doc["overall"][name] = 0.99
    assert any(p == f"/per_type/a/{name}" for p, _ in check_slices(doc, PARAMS))


@settings(max_examples=300, deadline=None)
@given(st.decimals(min_value=0, max_value=1, places=4), st.decimals(min_value=0, max_value=1, places=4))
def test_a_gate_receipt_value_is_the_summary_at_the_precision_written(actual, written) -> None:
    overall = {"recall@5": float(actual)}
    problems = check_gate_receipt(f"Gate passed; recall@5 {written} >= 0.0000", overall)
    assert (problems == []) is (actual == written)
