"""The metric limit kinds (``metric_thresholds``, ``slice_thresholds``, ``regression``), one table
per kind: pass and fail rows, each pinning the message.

Parameters go through the same strict validation a profile's ``with:`` goes through
(``policy.validate_params``), so every row is a configuration a profile could write.
"""

from __future__ import annotations

from typing import Any

import pytest

from bench_gate.checks.base import kinds_of
from bench_gate.loaders import strictjson
from bench_gate.models import Finding

from kindtest import first, run


def findings(kind: str, params: dict[str, Any], data: Any, **others: Any) -> list[Finding]:
    """Every finding of one kind over a report (and other documents by role)."""
    return run(kind, params, data, **others)


# --- metric_thresholds -------------------------------------------------------------------


MINS = {"recall@5": 0.75, "ndcg@5": 0.7}
THRESHOLDS = [
    ("tie-at-minimum", {"min": MINS}, {"recall@5": 0.75, "ndcg@5": 0.7}, "pass",
     "overall: recall@5 0.75 ≥ 0.75, ndcg@5 0.7 ≥ 0.7"),
    ("just-below", {"min": MINS}, {"recall@5": 0.7499999, "ndcg@5": 0.9}, "fail",
     "overall recall@5 0.7499999 is below the minimum 0.75"),
    ("written-float-below", {"min": MINS}, strictjson.loads(b'{"recall@5": 0.74999999999999999, "ndcg@5": 0.9}'),
     "fail", "overall recall@5 0.74999999999999999 is below the minimum 0.75"),
    ("clearly-below-rounded", {"min": MINS}, {"recall@5": 0.9405666666666668 - 0.3, "ndcg@5": 0.9}, "fail",
     "overall recall@5 0.6406 is below the minimum 0.75"),
    ("missing-metric", {"min": MINS}, {"recall@5": 0.8}, "fail",
     "overall ndcg@5 is missing (threshold >= 0.7)"),
    ("null-metric", {"min": MINS}, {"recall@5": 0.8, "ndcg@5": None}, "fail",
     "overall ndcg@5 is null (threshold >= 0.7)"),
    ("bool-metric", {"min": MINS}, {"recall@5": True, "ndcg@5": 0.8}, "fail",
     "overall recall@5 must be a number, got boolean true"),
    ("string-metric", {"min": MINS}, {"recall@5": "0.9", "ndcg@5": 0.8}, "fail",
     'overall recall@5 must be a number, got string "0.9"'),
    ("extra-min-overrides-min", {"min": MINS, "extra_min": {"recall@5": 0.95}}, {"recall@5": 0.9, "ndcg@5": 0.8},
     "fail", "overall recall@5 0.9 is below the minimum 0.95"),
    ("extra-min-lowers-min", {"min": MINS, "extra_min": {"recall@5": 0.5}}, {"recall@5": 0.6, "ndcg@5": 0.8},
     "pass", "overall: recall@5 0.6 ≥ 0.5, ndcg@5 0.8 ≥ 0.7"),
    ("extra-min-adds", {"min": MINS, "extra_min": {"hit@5": 0.99}}, {"recall@5": 0.8, "ndcg@5": 0.8, "hit@5": 0.98},
     "fail", "overall hit@5 0.98 is below the minimum 0.99"),
    ("extra-max-above", {"min": {}, "extra_max": {"latency_p95_ms": 1000}}, {"latency_p95_ms": 1000.5}, "fail",
     "overall latency_p95_ms 1000.5 is above the maximum 1000"),
    ("extra-max-just-above", {"extra_max": {"latency_p95_ms": 1000}}, {"latency_p95_ms": 1000.00001}, "fail",
     "overall latency_p95_ms 1000.00001 is above the maximum 1000"),
    ("extra-max-tie", {"extra_max": {"latency_p95_ms": 1000}}, {"latency_p95_ms": 1000}, "pass",
     "overall: latency_p95_ms 1000 ≤ 1000"),
    ("max-missing", {"max": {"latency_p95_ms": 1000}}, {}, "fail",
     "overall latency_p95_ms is missing (threshold <= 1000)"),
    ("no-limits", {}, {"recall@5": 0.1}, "skip", "no thresholds configured"),
]


@pytest.mark.parametrize(("params", "overall", "status", "message"),
                         [r[1:] for r in THRESHOLDS], ids=[r[0] for r in THRESHOLDS])
def test_metric_thresholds(params: dict[str, Any], overall: Any, status: str, message: str) -> None:
    assert first("metric_thresholds", params, {"overall": overall}) == (status, message)


def test_metric_thresholds_table_not_object() -> None:
    assert first("metric_thresholds", {"min": MINS}, {"overall": [0.9]}) == (
        "fail", "/overall must be an object of metrics, got array")
    assert first("metric_thresholds", {"min": MINS}, {}) == ("fail", "/overall is missing")


def test_metric_thresholds_pointer_and_expected() -> None:
    (f, *_) = findings("metric_thresholds", {"min": MINS}, {"overall": {"recall@5": 0.7, "ndcg@5": 0.9}})
    assert (f.pointer, f.actual, f.expected) == ("/overall/recall@5", 0.7, ">= 0.75")


# --- slice_thresholds --------------------------------------------------------------------


def cases_of(**counts: int) -> list[dict[str, Any]]:
    return [{"question_type": t} for t, n in counts.items() for _ in range(n)]


SLICE_MIN = {"min": {"recall@5": 0.7}, "min_cases": 10}
SLICES = [
    ("all-slices-ok", {"per_type": {"a": {"recall@5": 0.7}, "b": {"recall@5": 0.9}},
                       "case_results": cases_of(a=10, b=10)}, "pass", "2 slices meet recall@5 >= 0.7"),
    ("slice-below", {"per_type": {"a": {"recall@5": 0.69}, "b": {"recall@5": 0.9}},
                     "case_results": cases_of(a=10, b=10)}, "fail",
     "per_type[a] recall@5 0.69 is below the minimum 0.7"),
    ("slice-just-below-shown-as-written", {"per_type": {"a": {"recall@5": 0.6999999}}, "case_results": cases_of(a=10)},
     "fail", "per_type[a] recall@5 0.6999999 is below the minimum 0.7"),
    ("small-slice-exempt", {"per_type": {"a": {"recall@5": 0.2}, "b": {"recall@5": 0.9}},
                            "case_results": cases_of(a=9, b=10)}, "pass",
     "1 slices meet recall@5 >= 0.7; exempt (fewer than 10 cases): a (9 cases)"),
    ("count-from-diagnostics", {"per_type": {"a": {"recall@5": 0.2}, "b": {"recall@5": 0.9}},
                                "diagnostics": {"question_type_counts": {"a": {"cases": 3}, "b": {"cases": 30}}}},
     "pass", "1 slices meet recall@5 >= 0.7; exempt (fewer than 10 cases): a (3 cases)"),
    ("unknown-count-not-exempt", {"per_type": {"a": {"recall@5": 0.2}}}, "fail",
     "per_type[a] recall@5 0.2 is below the minimum 0.7"),
    ("slice-without-cases-not-exempt", {"per_type": {"a": {"recall@5": 0.2}}, "case_results": cases_of(b=3)},
     "fail", "per_type[a] recall@5 0.2 is below the minimum 0.7"),
    ("unreadable-diagnostic-count-not-exempt",
     {"per_type": {"a": {"recall@5": 0.2}}, "diagnostics": {"question_type_counts": {"a": {"cases": "3"}}}},
     "fail", "per_type[a] recall@5 0.2 is below the minimum 0.7"),
    ("other-summaries-never-exempt", {"per_slice": {"a": {"recall@5": 0.2}}, "case_results": cases_of(a=1)},
     "fail", "per_slice[a] recall@5 0.2 is below the minimum 0.7"),
    ("metric-missing-in-slice", {"per_type": {"a": {"ndcg@5": 0.9}}, "case_results": cases_of(a=10)}, "fail",
     "per_type[a] recall@5 is missing (threshold >= 0.7)"),
    ("slice-not-object", {"per_type": {"a": 0.9}, "case_results": cases_of(a=10)}, "fail",
     "/per_type/a must be an object of metrics, got number"),
    ("summary-not-object", {"per_type": [1]}, "fail", "/per_type must be an object of slices, got array"),
    ("no-slices-at-all", {"overall": {"recall@5": 0.9}}, "fail",
     "no summary slices to check (/per_type, /per_slice, /per_category, /per_task are all absent)"),
]


@pytest.mark.parametrize(("data", "status", "message"), [r[1:] for r in SLICES], ids=[r[0] for r in SLICES])
def test_slice_thresholds(data: Any, status: str, message: str) -> None:
    assert first("slice_thresholds", SLICE_MIN, data) == (status, message)


# --- regression --------------------------------------------------------------------------


def regress(params: dict[str, Any], cand: Any, base: Any) -> tuple[str, str]:
    return first("regression", params, {"overall": cand}, baseline={"overall": base})


REGRESSION = [
    ("higher-no-drop", {"metrics": ["recall@5"]}, {"recall@5": 0.9}, {"recall@5": 0.9}, "pass",
     "recall@5 0.9 vs baseline 0.9: regression 0 (allowed 0)"),
    ("higher-improved", {"metrics": ["recall@5"]}, {"recall@5": 0.95}, {"recall@5": 0.9}, "pass",
     "recall@5 0.95 vs baseline 0.9: regression 0 (allowed 0)"),
    ("higher-dropped", {"metrics": ["recall@5"]}, {"recall@5": 0.89}, {"recall@5": 0.9}, "fail",
     "recall@5 dropped from baseline 0.9 to 0.89, a regression of 0.01 (allowed 0)"),
    ("exactly-at-tolerance", {"metrics": ["recall@5"], "max_regression": {"recall@5": 0.1}},
     {"recall@5": 0.7}, {"recall@5": 0.8}, "pass", "recall@5 0.7 vs baseline 0.8: regression 0.1 (allowed 0.1)"),
    ("beyond-tolerance", {"metrics": ["recall@5"], "max_regression": {"recall@5": 0.1}},
     {"recall@5": 0.69}, {"recall@5": 0.8}, "fail",
     "recall@5 dropped from baseline 0.8 to 0.69, a regression of 0.11 (allowed 0.1)"),
    ("beyond-tolerance-by-a-hair", {"metrics": ["recall@5"], "max_regression": {"recall@5": 0.1}},
     {"recall@5": 0.69999999}, {"recall@5": 0.8}, "fail",
     "recall@5 dropped from baseline 0.8 to 0.69999999, a regression of 0.10000001 (allowed 0.1)"),
    ("lower-rose-by-a-hair", {"metrics": ["latency_p95_ms"]}, {"latency_p95_ms": 1000.0000001},
     {"latency_p95_ms": 1000}, "fail",
     "latency_p95_ms rose from baseline 1000 to 1000.0000001, a regression of 0.0000001 (allowed 0)"),
    ("lower-rose", {"metrics": ["latency_p95_ms"]}, {"latency_p95_ms": 1200}, {"latency_p95_ms": 1000}, "fail",
     "latency_p95_ms rose from baseline 1000 to 1200, a regression of 200 (allowed 0)"),
    ("lower-rose-within", {"metrics": ["latency_p95_ms"], "max_regression": {"latency_p95_ms": 200}},
     {"latency_p95_ms": 1200}, {"latency_p95_ms": 1000}, "pass",
     "latency_p95_ms 1200 vs baseline 1000: regression 200 (allowed 200)"),
    ("lower-fell", {"metrics": ["latency_p95_ms"]}, {"latency_p95_ms": 800}, {"latency_p95_ms": 1000}, "pass",
     "latency_p95_ms 800 vs baseline 1000: regression 0 (allowed 0)"),
    ("unknown-direction", {"metrics": ["f1"]}, {"f1": 0.9}, {"f1": 0.9}, "fail",
     "f1: unknown direction (is higher or lower better?); name it with a known prefix or suffix"),
    ("percent-on-fraction-metric", {"metrics": ["recall@5"]}, {"recall@5": 94.0}, {"recall@5": 0.9}, "fail",
     "recall@5 must be a fraction in [0, 1]: candidate 94, baseline 0.9 (a percent mixed with a fraction?)"),
    ("uncompared-max-regression", {"metrics": ["recall@5"], "max_regression": {"ndcg@5": 0.1}},
     {"recall@5": 0.9}, {"recall@5": 0.9}, "fail",
     "--max-regression ndcg@5 is given but ndcg@5 is not compared (compared: recall@5)"),
    ("default-metrics", {"default_metrics": ["recall@5", "ndcg@5"]}, {"recall@5": 0.9, "ndcg@5": 0.7},
     {"recall@5": 0.9, "ndcg@5": 0.8}, "fail",
     "ndcg@5 dropped from baseline 0.8 to 0.7, a regression of 0.1 (allowed 0)"),
    ("metrics-override-defaults", {"metrics": ["recall@5"], "default_metrics": ["recall@5", "ndcg@5"]},
     {"recall@5": 0.9, "ndcg@5": 0.7}, {"recall@5": 0.9, "ndcg@5": 0.8}, "pass",
     "recall@5 0.9 vs baseline 0.9: regression 0 (allowed 0)"),
    ("no-metrics", {}, {"recall@5": 0.9}, {"recall@5": 0.9}, "fail",
     "no metrics to compare (give --baseline-metric NAME)"),
    ("candidate-missing", {"metrics": ["recall@5"]}, {}, {"recall@5": 0.9}, "fail",
     "report:/overall/recall@5 is missing"),
    ("baseline-bool", {"metrics": ["recall@5"]}, {"recall@5": 0.9}, {"recall@5": True}, "fail",
     "baseline:/overall/recall@5 must be a number, got boolean true"),
]


@pytest.mark.parametrize(("params", "cand", "base", "status", "message"),
                         [r[1:] for r in REGRESSION], ids=[r[0] for r in REGRESSION])
def test_regression(params: dict[str, Any], cand: Any, base: Any, status: str, message: str) -> None:
    assert regress(params, cand, base) == (status, message)


@pytest.mark.parametrize("allowance", [-0.1, -0.01, -1, -1e-300])
def test_negative_allowance_is_refused_when_the_profile_binds(allowance: float) -> None:
    from bench_gate.checks.generic.thresholds import RegressionParams

    with pytest.raises(ValueError, match="an allowed regression is never negative"):
        RegressionParams(metrics=["recall@5"], max_regression={"recall@5": allowance})
    assert RegressionParams(metrics=["recall@5"], max_regression={"recall@5": 0}).max_regression == {"recall@5": 0}


def test_regression_baseline_not_object() -> None:
    assert regress({"metrics": ["recall@5"]}, {"recall@5": 0.9}, [0.9]) == (
        "fail", "baseline:/overall must be an object of metrics, got array")


def test_every_thresholds_kind_has_a_table() -> None:
    from bench_gate.checks.generic import thresholds

    covered = {"metric_thresholds", "slice_thresholds", "regression"}
    assert {k.name for k in kinds_of(thresholds.__name__)} == covered


@pytest.mark.parametrize(("given", "name", "value", "words"), [
    ("extra_min", "recall@5", -0.9, "--min-metric recall@5=-0.9: recall@5 is a fraction in [0, 1], so a minimum of "
                                    "-0.9 can never fail"),
    ("min", "hit@10", 1.01, "min hit@10=1.01: hit@10 is a fraction in [0, 1], so a minimum of 1.01 can never be met"),
    ("extra_max", "ndcg@5", 2, "--max-metric ndcg@5=2: ndcg@5 is a fraction in [0, 1], so a maximum of 2 can never fail"),
    ("max", "qa_accuracy", -1e-9, "max qa_accuracy=-1e-09: qa_accuracy is a fraction in [0, 1], so a maximum of "
                                  "-1e-09 can never be met"),
])
def test_a_limit_on_a_fraction_outside_0_1_is_refused_when_the_profile_binds(
        given: str, name: str, value: float, words: str) -> None:
    from bench_gate.checks.generic.thresholds import SliceParams, ThresholdParams
    from bench_gate.checks.recompute.retrieval import RecomputeParams

    with pytest.raises(ValueError) as caught:
        ThresholdParams(**{given: {name: value}})
    assert str(caught.value) == words
    if given in ("min", "max"):
        with pytest.raises(ValueError, match="is a fraction in"):
            SliceParams(**{given: {name: value}})
    if given in ("min", "extra_min"):
        with pytest.raises(ValueError, match="is a fraction in"):
            RecomputeParams(**{given: {name: value}})


def test_limits_on_the_edges_of_a_fraction_and_on_other_metrics_are_kept() -> None:
    from bench_gate.checks.generic.thresholds import ThresholdParams

    edges = ThresholdParams(min={"recall@5": 0, "hit@5": 1}, max={"ndcg@5": 1, "mrr": 0})
    assert edges.min == {"recall@5": 0, "hit@5": 1}
    assert ThresholdParams(min={"delta_recall": -0.5}, max={"latency_p95_ms": 5000}).max == {"latency_p95_ms": 5000}
