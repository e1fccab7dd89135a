"""What a pair's result allows one to claim (``pair_gap``, ``pair_verdict``, ``pair_interruption``):
one table per kind, pass and fail rows, exact messages."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pairgen
from bench_gate.checks.base import kinds_of
from bench_gate.checks.pair.arm_folder import PairParams
from bench_gate.checks.pair.outcome import VerdictParams
from kindtest import run
from pairsetup import Row, Setup, check, field_edit, fill, run_kind, set_field

LINK = PairParams()


# --- rule 6: pair_gap --------------------------------------------------------------------


def accuracies(normal: str, oracle: str, gap: str) -> Setup:
    return Setup(mode="unsealed", normal=field_edit("accuracyPercent", normal),
                 oracle=lambda f: (set_field(f, "accuracyPercent", oracle),
                                   set_field(f, "oracleGapPercentagePoints", gap)))


GAP_ROWS: list[Row] = [
    ("exact", LINK, Setup(), [("pass", "oracleGapPercentagePoints 32.5 = oracle 92.5 - normal 60.0 (a diagnostic)")]),
    ("rounded-as-written", LINK, accuracies("66.66666666666667", "70", "3.33"),
     [("pass", "oracleGapPercentagePoints 3.33 = oracle 70 - normal 66.66666666666667 (rounded to 2 places; a "
               "diagnostic)")]),
    ("double-arithmetic", LINK, accuracies("61.2", "78.4", "17.200000000000003"),
     [("pass", "oracleGapPercentagePoints 17.200000000000003 = oracle 78.4 - normal 61.2 (a diagnostic)")]),
    ("whole-points-too-coarse", LINK, accuracies("66.66666666666667", "70", "3"),
     [("fail", "oracleGapPercentagePoints 3 is not oracle 70 - normal 66.66666666666667 = 3.3333: a rounded claim "
               "needs at least 1 place (min_places), or the places its producer rounds to (places)")]),
    ("no-gap-is-never-rounded", LINK, accuracies("66.66666666666667", "66.7", "0.0"),
     [("fail", "oracleGapPercentagePoints 0.0 is not oracle 66.7 - normal 66.66666666666667 = 0.0333: a claim of "
               "0.0 must be exact (rounding never reaches a boundary)")]),
    ("one-rounding-step-off", LINK, accuracies("66.66666666666667", "70", "3.34"),
     [("fail", "oracleGapPercentagePoints 3.34 is not oracle 70 - normal 66.66666666666667 = 3.3333: the exact value "
               "rounds to 3.33 at 2 places")]),
    ("wrong-gap", LINK, Setup("wrong-gap"),
     [("fail", "oracleGapPercentagePoints 34.0 is not oracle 92.5 - normal 60.0 = 32.5")]),
    ("sign-reversed", LINK, accuracies("60", "92.5", "-32.5"),
     [("fail", "oracleGapPercentagePoints -32.5 is not oracle 92.5 - normal 60 = 32.5")]),
    ("null-when-both-completed", LINK, accuracies("60", "92.5", "null"),
     [("fail", "oracleGapPercentagePoints is null but both arms completed: expected oracle 92.5 - normal 60 = 32.5")]),
    ("null-when-oracle-interrupted", LINK, Setup("oracle-interrupted"),
     [("pass", "oracleGapPercentagePoints is null: the oracle arm did not complete")]),
    ("set-when-oracle-interrupted", LINK, Setup("oracle-interrupted", oracle=field_edit("oracleGapPercentagePoints",
                                                                                          "5")),
     [("fail", "oracleGapPercentagePoints is 5 but the oracle arm did not complete: the gap is null unless both "
       "arms completed")]),
    ("gap-is-string", LINK, accuracies("60", "92.5", '"32.5"'),
     [("fail", 'oracle arm oracleGapPercentagePoints must be a number, got string "32.5"')]),
]


@check(GAP_ROWS)
def test_pair_gap(kind_params: Any, setup: Setup, expected: list[tuple[str, str]]) -> None:
    assert run_kind("pair_gap", kind_params, setup) == fill(expected)


# --- rule 7: pair_verdict ----------------------------------------------------------------

SCORES = "normal accuracy 60.0%; the oracle is a second evaluation, its 92.5% and the gap 32.5 pp are diagnostics only"
VERDICT = VerdictParams()


def lane_verdict(verdict: str) -> Callable[[dict[str, bytes]], None]:
    def edit(files: dict[str, bytes]) -> None:
        summary = json.loads(files["summary.json"])
        summary["lanes"][0]["metrics"][0]["verdict"] = verdict
        files["summary.json"] = pairgen.dumps(summary)
    return edit


def add_metric(files: dict[str, bytes], verdict: str) -> None:
    summary = json.loads(files["summary.json"])
    summary["lanes"][0]["metrics"].append({"metric": "latency", "path": "latency", "N": 40, "n": 40,
                                           "value": 812, "verdict": verdict})
    files["summary.json"] = pairgen.dumps(summary)


VERDICT_ROWS: list[Row] = [
    ("normal-passed", VERDICT, Setup(),
     [("pass", f"the normal arm completed and its gates passed (1 metric in 1 gated lane, none failed or "
       f"inconclusive): {SCORES}")]),
    ("failing-normal-better-oracle", VERDICT, Setup("failing-normal-better-oracle"),
     [("fail", "the normal arm's gate failed: lane 'longmemeval' metric 'accuracy' verdict is failed (value 0.25); "
       "the claim follows the normal arm (normal accuracy 25.0%; the oracle is a second evaluation, its 97.5% and "
       "the gap 72.5 pp are diagnostics only)")]),
    ("inconclusive", VERDICT, Setup(mode="unsealed", normal=lane_verdict("inconclusive")),
     [("fail", f"the normal arm's gate failed: lane 'longmemeval' metric 'accuracy' verdict is inconclusive "
       f"(value 0.6); the claim follows the normal arm ({SCORES})")]),
    ("warn-is-not-blocking", VERDICT, Setup(mode="unsealed", normal=lambda f: (add_metric(f, "warn"))),
     [("pass", f"the normal arm completed and its gates passed (2 metrics in 1 gated lane, none failed or "
       f"inconclusive): {SCORES}")]),
    ("nothing-gated", VERDICT, Setup(mode="unsealed", normal=lane_verdict("scored")),
     [("fail", "no metric of the normal arm's gated lanes has a passed verdict (1 metric, none passed): no gate "
       f"was evaluated, so there is nothing to claim ({SCORES})")]),
    ("only-warn", VERDICT, Setup(mode="unsealed", normal=lane_verdict("warn")),
     [("fail", "no metric of the normal arm's gated lanes has a passed verdict (1 metric, none passed): no gate "
       f"was evaluated, so there is nothing to claim ({SCORES})")]),
    ("unknown-verdict", VERDICT, Setup(mode="unsealed", normal=lane_verdict("ok")),
     [("fail", "normal lane 'longmemeval' metric 'accuracy' verdict is \"ok\", not one of passed, failed, warn, "
       f"inconclusive, not_measured, scored ({SCORES})")]),
    ("normal-interrupted", VERDICT, Setup("cancelled-before-first-question"),
     [("fail", "the normal arm did not complete: there is no normal result to claim, and the oracle cannot stand "
       "in for it (normal accuracy null; no oracle arm)")]),
    ("gated-lane-absent", VerdictParams(gated_lanes=["longmemeval", "locomo"]), Setup(),
     [("fail", f"gated lane 'locomo' is absent from the normal summary ({SCORES})")]),
    ("ungated-lane-ignored", VerdictParams(gated_lanes=["other"]),
     Setup(mode="unsealed", normal=lambda f: (lane_verdict("failed")(f), f.__setitem__("summary.json", f[
         "summary.json"].replace(b'"lane": "longmemeval"', b'"lane": "other-x"')))),
     [("fail", f"gated lane 'other' is absent from the normal summary ({SCORES})")]),
    ("gate-decision-no-ship", VERDICT, Setup(mode="unsealed", normal=lambda f: f.__setitem__(
        "gates.ndjson", b'{"outcome":"no_ship"}\n')),
     [("fail", f"the normal arm's gate decision on gates.ndjson line 1 is \"no_ship\", not ship ({SCORES})")]),
    ("no-lanes", VERDICT, Setup(mode="unsealed", normal=lambda f: f.__setitem__("summary.json", f[
        "summary.json"].replace(b'"lanes": [', b'"lanes": [], "was": ['))),
     [("fail", f"the normal summary has no lanes: no gate was evaluated ({SCORES})")]),
    ("oracle-absent", VERDICT, Setup(drop_oracle=True),
     [("pass", "the normal arm completed and its gates passed (1 metric in 1 gated lane, none failed or "
       "inconclusive): normal accuracy 60.0%; no oracle arm")]),
]


@check(VERDICT_ROWS)
def test_pair_verdict(kind_params: Any, setup: Setup, expected: list[tuple[str, str]]) -> None:
    assert run_kind("pair_verdict", kind_params, setup) == fill(expected)


def test_verdict_reports_diagnostics_never_combined() -> None:
    (finding,) = run("pair_verdict", VERDICT, Setup().context())
    assert finding.actual == {"normalAccuracyPercent": 60.0, "oracleAccuracyPercent": 92.5,
                              "oracleGapPercentagePoints": 32.5, "oracle": "diagnostic only"}
    (failing,) = run("pair_verdict", VERDICT, Setup("failing-normal-better-oracle").context())
    assert failing.status == "fail"
    assert failing.actual == {"normalAccuracyPercent": 25.0, "oracleAccuracyPercent": 97.5,
                              "oracleGapPercentagePoints": 72.5, "oracle": "diagnostic only"}
    # never a combined figure: neither the mean (61.25) nor the sum (122.5) of the two scores
    assert "61.25" not in failing.message and "122.5" not in failing.message


# --- rule 8: pair_interruption -----------------------------------------------------------

INTERRUPTION_ROWS: list[Row] = [
    ("both-completed", LINK, Setup(), [("pass", "both arms completed: normal 40/40 and oracle 40/40 questions "
                                                "observed")]),
    ("cancelled-before-first-question", LINK, Setup("cancelled-before-first-question"),
     [("fail", "cancelled before the first question: the normal arm is an empty aborted run (0 of 40 planned "
       "questions); there is no result to claim")]),
    ("cancelled-between-arms", LINK, Setup("cancelled-between-arms"),
     [("fail", "cancelled between arms: only the normal evidence exists (no oracle arm); the pair is incomplete")]),
    ("oracle-interrupted", LINK, Setup("oracle-interrupted"),
     [("fail", "the oracle was interrupted after preparation: its run is aborted after 13 of 40 planned questions; "
       "the pair is incomplete")]),
    ("oracle-interrupted-empty", LINK, Setup("oracle-interrupted", oracle=field_edit("observedQuestions", "0")),
     [("fail", "the oracle was interrupted after preparation: its run is aborted and empty after 0 of 40 planned "
       "questions; the pair is incomplete")]),
    ("oracle-after-cancelled-normal", LINK, Setup("oracle-after-cancelled-normal"),
     [("fail", "cancelled before the first question: the normal arm is an empty aborted run (0 of 40 planned "
       "questions); there is no result to claim"),
      ("fail", "an oracle arm is present although the normal arm never completed: the oracle is prepared only "
       "after the normal run, so an arm that never reached preparation must not appear")]),
    ("normal-interrupted-midway", LINK, Setup(drop_oracle=True, normal=lambda f: (
        set_field(f, "complete", "false"), set_field(f, "observedQuestions", "12"))),
     [("fail", "the normal arm was interrupted after 12 of 40 planned questions; there is no result to claim")]),
]


@check(INTERRUPTION_ROWS)
def test_pair_interruption(kind_params: Any, setup: Setup, expected: list[tuple[str, str]]) -> None:
    assert run_kind("pair_interruption", kind_params, setup) == fill(expected)


def test_every_kind_is_documented_and_registered() -> None:
    from bench_gate.checks import registry
    from bench_gate.checks.pair import outcome

    names = {k.name for k in kinds_of(outcome.__name__)}
    assert names <= set(registry())
    for found in kinds_of(outcome.__name__):
        assert len((found.run.__doc__ or "").strip()) > 40, found.name
