"""The one rule for a claimed number against a recomputed one (bench_gate.text.rounding), on the
numbers producers really write, and through the kinds that apply it."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

import pytest

from bench_gate.checks.recompute.retrieval import RecomputeParams, retrieval_recompute
from bench_gate.loaders import strictjson
from bench_gate.text import rounding

from kindtest import context, run as run_kind
from repo import ROOT

SIBYL_0513 = ROOT / "examples/sibyl-repo/benchmarks/results/ai-memory/longmemeval_sibyl_hybrid_20260513.json"
NOW = datetime(2026, 7, 1, tzinfo=UTC)


def claim(text: str) -> Any:
    """A number as the strict JSON reader gives it (its literal kept)."""
    return strictjson.loads(text.encode())


def judge(text: str, exact: Fraction, **kw: Any) -> rounding.Judgement:
    found = rounding.judge(claim(text), exact, **kw)
    assert found is not None
    return found


# --- 66/70 written every way a producer writes it ----------------------------------------


@pytest.mark.parametrize(("text", "how"), [
    ("0.9428571428571428", "double"),        # Python's shortest form of the nearest double
    ("0.9428571428571429", "rounded"),       # the exact value correctly rounded to 16 places
    ("0.94285714285714284", "double"),       # C's %.17g
    ("0.94285714285714285714", "double"),    # a decimal library's 20 places: reads back as the nearest double
    ("0.9429", "rounded"), ("0.943", "rounded"),
])
def test_every_honest_spelling_of_66_70_passes(text: str, how: str) -> None:
    found = judge(text, Fraction(66, 70))
    assert (found.ok, found.how) == (True, how)


@pytest.mark.parametrize(("text", "message"), [
    ("0.942857142857142", "claimed 0.942857142857142 (15 places); the exact value 66/70 rounds to 0.942857142857143 "
                          "at 15 places"),
    ("0.9428", "claimed 0.9428 (4 places); the exact value 66/70 rounds to 0.9429 at 4 places"),
    ("0.94", "claimed 0.94 (2 places); the exact value 66/70 is 0.942857…: a rounded claim needs at least 3 places "
             "(min_places), or the places its producer rounds to (places)"),
    ("1", "claimed 1; the exact value 66/70 is 0.942857…: a claim of 1 must be exact (rounding never reaches a "
          "boundary)"),
    ("0.8", "claimed 0.8 (1 place); the exact value 66/70 is 0.942857…"),
])
def test_what_is_not_66_70_fails_naming_the_rule(text: str, message: str) -> None:
    found = judge(text, Fraction(66, 70))
    assert found.ok is False
    assert found.sentence("the exact value 66/70") == message


def test_the_message_names_the_rule() -> None:
    found = judge("0.9617", Fraction(452, 470))
    assert found.ok
    assert found.sentence("the exact value 452/470") == (
        "claimed 0.9617 (4 places); the exact value 452/470 rounds to 0.9617 at 4 places")
    assert judge("0.9618", Fraction(452, 470)).sentence("the exact value 452/470") == (
        "claimed 0.9618 (4 places); the exact value 452/470 rounds to 0.9617 at 4 places")


def test_either_rounding_of_a_tie() -> None:
    # 0.00125 to 4 places: half-even 0.0012, half-up 0.0013; both are honest, 0.0011 is not
    assert judge("0.0012", Fraction(1, 800)).ok and judge("0.0013", Fraction(1, 800)).ok
    assert not judge("0.0011", Fraction(1, 800)).ok


# --- written decimals: what the strict reader keeps -------------------------------------


@pytest.mark.parametrize(("text", "places"), [("0.9400", 4), ("0.94", 2), ("1.00", 2), ("0.5000", 4), ("9.4e-1", 2),
                                              ("1e2", 0), ("94", 0), ("0.9428571428571428", 16)])
def test_the_reader_keeps_the_decimals_written(text: str, places: int) -> None:
    assert rounding.places_of(claim(text)) == places


def test_trailing_zeros_dropped_pass_where_the_places_allow() -> None:
    exact = Fraction(94003, 100000)  # 0.94003: 0.9400 at 4 places
    assert judge("0.9400", exact).ok
    assert not judge("0.94", exact).ok                      # 2 places, fewer than 3
    assert judge("0.94", exact, min_places=2).ok            # the rule allows 2
    declared = judge("0.94", exact, places=4)               # the producer rounds to 4 and drops zeros
    assert declared.ok and declared.sentence() == (
        "claimed 0.94 (2 places); the exact value rounds to 0.9400 at the 4 places the profile declares")
    assert not judge("0.95", exact, places=4).ok


def test_percentages_need_one_place() -> None:
    percent = dict(min_places=rounding.MIN_PLACES_PERCENT, boundaries=rounding.PERCENT_BOUNDARIES)
    assert judge("96.2", Fraction(45200, 470), **percent).ok
    assert not judge("96", Fraction(45200, 470), **percent).ok
    # a producer's correct / scored * 100 in doubles: one unit in the last place from the nearest double
    assert judge("94.28571428571428", Fraction(6600, 70), **percent).how == "double"


@pytest.mark.parametrize(("text", "exact", "kw"), [
    ("1.0000", Fraction(99996, 100000), {}),
    ("1", Fraction(4699, 4700), {}),
    ("0.000", Fraction(4, 10000), {}),
    ("100.0", Fraction(99960, 1000), {"min_places": 1, "boundaries": rounding.PERCENT_BOUNDARIES}),
    ("1.0", Fraction(1) - Fraction(1, 10**20), {}),  # even as the nearest double
])
def test_a_boundary_is_never_reached_by_rounding(text: str, exact: Fraction, kw: Any) -> None:
    found = judge(text, exact, **kw)
    assert found.ok is False
    assert "must be exact (rounding never reaches a boundary)" in found.sentence()
    assert judge(text, Fraction(rounding.written(claim(text)).value), **kw).ok  # type: ignore[union-attr]


def test_a_float_value_is_rounded_within_its_tolerance() -> None:
    ndcg = 0.93214999999999  # a float recomputation whose true value may be 0.93215
    assert rounding.judge(claim("0.9322"), ndcg, tolerance=1e-9).ok  # type: ignore[union-attr]
    assert not rounding.judge(claim("0.9322"), ndcg).ok  # type: ignore[union-attr]


def test_not_a_number_is_not_judged() -> None:
    assert rounding.judge(True, Fraction(1)) is None
    assert rounding.judge("0.5", Fraction(1, 2)) is None


# --- through the kinds --------------------------------------------------------------------


def sibyl_with(**overall: str) -> dict[str, Any]:
    data = strictjson.loads(SIBYL_0513.read_bytes())
    out = copy.deepcopy(data)
    for name, text in overall.items():
        out["overall"][name] = claim(text)
    return out


def recompute(data: Any, **params: Any) -> list[Any]:
    ctx = context(data, now=NOW)
    return run_kind(retrieval_recompute, RecomputeParams(summaries=[], **params), ctx)


def failures_at(findings: list[Any], pointer: str) -> list[str]:
    return [f.message for f in findings if f.status == "fail" and f.pointer == pointer]


def test_a_4_place_summary_passes_ai_memory_recompute() -> None:
    # sibyl's 2026-05-13 run: strict recall@5 recomputes to 28217/30000 = 0.940566...; the report claimed hit@5 (0.98)
    findings = recompute(sibyl_with(**{"recall@5": "0.9406"}))
    assert failures_at(findings, "/overall/recall@5") == []
    findings = recompute(sibyl_with(**{"recall@5": "0.9407"}))
    assert failures_at(findings, "/overall/recall@5") == [
        "claimed 0.9407, recomputed strict recall@5 from 500 cases is 0.9406: the exact value rounds to 0.9406 at 4 "
        "places"]
    assert failures_at(recompute(sibyl_with(**{"recall@5": "0.98"})), "/overall/recall@5") == [
        "claimed 0.98, recomputed strict recall@5 from 500 cases is 0.9406 (hit@5 is 0.98: the value looks like hit@5 "
        "labelled as recall@5)"]


def test_a_minimum_is_decided_on_the_recomputed_value() -> None:
    # 0.9406 states strict recall@5 (28217/30000 = 0.940566...) rounded up: it meets a minimum of 0.9406 that the
    # recomputed value does not, so that fails; a minimum of 0.9405 is met by both
    assert failures_at(recompute(sibyl_with(**{"recall@5": "0.9406"}), min={"recall@5": 0.9405}),
                       "/overall/recall@5") == []
    rounded_up = "recall@5: claimed 0.9406 meets the minimum 0.9406 only as rounded: the recomputed recall@5 is " \
                 "0.940567, below it (a minimum is decided on the recomputed value, never on a rounded claim)"
    assert failures_at(recompute(sibyl_with(**{"recall@5": "0.9406"}), min={"recall@5": 0.9406}),
                       "/overall/recall@5") == [rounded_up]
    assert failures_at(recompute(sibyl_with(**{"recall@5": "0.9406"}), extra_min={"recall@5": 0.9406}),
                       "/overall/recall@5") == [rounded_up]
    # the exact claim is below the minimum itself: the threshold rule on the claim says so, not this one
    assert failures_at(recompute(sibyl_with(**{"recall@5": "0.9405666666666667"}), min={"recall@5": 0.9406}),
                       "/overall/recall@5") == []


def test_json_numbers_keep_their_literal_in_the_verdict() -> None:
    from bench_gate.checks.base import as_count, jsonable
    values = strictjson.loads(b"[0.9400, 1.00, 500.00, 499.99999999999999, 1e2]")
    assert [jsonable(v) for v in values] == ["0.9400", 1.0, 500.0, "499.99999999999999", 100.0]
    assert [as_count(v, "n", "/n") for v in (values[1], values[2], values[4])] == [1, 500, 100]
    assert json.dumps(values[0]) == "0.94"  # a WrittenFloat is still a float to everything else


def test_a_slice_minimum_is_decided_on_the_recomputed_value() -> None:
    # multi-session strict recall@5 is 173/190 = 0.910526...: 0.911 (3 places) states it, rounded up
    data = sibyl_with()
    data["per_type"]["multi-session"]["recall@5"] = claim("0.911")
    where = "/per_type/multi-session/recall@5"

    def slice_failures(**params: Any) -> list[str]:
        ctx = context(data, now=NOW)
        found = run_kind(retrieval_recompute, RecomputeParams(summaries=["/per_type"], **params), ctx)
        return failures_at(found, where)

    assert slice_failures() == []
    assert slice_failures(slice_min={"recall@5": 0.9105}) == []
    assert slice_failures(slice_min={"recall@5": 0.911}) == [
        "per_type[multi-session] recall@5: claimed 0.911 meets the minimum 0.911 only as rounded: the recomputed "
        "recall@5 is 0.910526, below it (a minimum is decided on the recomputed value, never on a rounded claim)"]
    # a per-type slice of fewer cases than slice_min_cases (133 < 200) is exempt, as slice_thresholds exempts it
    assert slice_failures(slice_min={"recall@5": 0.911}, slice_min_cases=200) == []
