"""The count kinds (``counts_agree``, ``sum_equals``, ``case_tally``), one table per kind: pass and
fail rows, each pinning the message.

Parameters go through the same strict validation a profile's ``with:`` goes through
(``policy.validate_params``), so every row is a configuration a profile could write.
"""

from __future__ import annotations

from typing import Any

import pytest

from bench_gate.checks.base import kinds_of
from bench_gate.loaders import strictjson

from kindtest import first


# --- counts_agree ------------------------------------------------------------------------


COUNTS = [
    ("agree", {"values": ["/total", "/n"]}, {"total": 500, "n": 500}, "pass", "counts agree: /total = 500, /n = 500"),
    ("integral-float", {"values": ["/total", "/n"]}, {"total": 500, "n": 500.0}, "pass",
     "counts agree: /total = 500, /n = 500"),
    ("disagree", {"values": ["/total", "/n"]}, {"total": 500, "n": 499}, "fail",
     "counts disagree: /total = 500, /n = 499"),
    ("fractional", {"values": ["/total", "/n"]}, {"total": 500, "n": 480.4}, "fail",
     "/n must be an exact integer, got 480.4"),
    ("written-float", {"values": ["/total", "/n"]}, strictjson.loads(b'{"total": 500, "n": 499.99999999999999}'),
     "fail", "/n must be an exact integer, got 499.99999999999999"),
    ("bool", {"values": ["/total"]}, {"total": True}, "fail", "/total must be an integer, got boolean true"),
    ("string", {"values": ["/total"]}, {"total": "500"}, "fail", '/total must be an integer, got string "500"'),
    ("missing", {"values": ["/total", "/n"]}, {"total": 500}, "fail", "/n is missing"),
    ("null", {"values": ["/total", "/n"]}, {"total": 500, "n": None}, "fail", "/n is null"),
    ("alternative-second", {"values": ["/total", "/n|/count"]}, {"total": 5, "count": 5}, "pass",
     "counts agree: /total = 5, /count = 5"),
    ("alternative-first-wins", {"values": ["/total", "/n|/count"]}, {"total": 5, "n": 4, "count": 5}, "fail",
     "counts disagree: /total = 5, /n = 4"),
    ("alternatives-missing", {"values": ["/total", "/n|/count"]}, {"total": 5}, "fail", "/n is missing"),
    ("optional-absent", {"values": ["/total", "/n"], "optional": ["/n"]}, {"total": 5}, "pass",
     "counts agree: /total = 5"),
    ("optional-present-checked", {"values": ["/total", "/n"], "optional": ["/n"]}, {"total": 5, "n": 6}, "fail",
     "counts disagree: /total = 5, /n = 6"),
    ("all-optional-absent", {"values": ["/n"], "optional": ["/n"]}, {}, "skip", "no counts present"),
    ("equals-ok", {"values": ["/total"], "equals": 500}, {"total": 500}, "pass", "counts agree: /total = 500"),
    ("equals-differs", {"values": ["/total"], "equals": 500}, {"total": 499}, "fail",
     "/total is 499, expected 500 (/total = 499)"),
    ("length", {"values": ["/total"], "lengths": ["/cases"]}, {"total": 2, "cases": [{}, {}]}, "pass",
     "counts agree: /total = 2, len(/cases) = 2"),
    ("length-differs", {"values": ["/total"], "lengths": ["/cases"]}, {"total": 3, "cases": [{}, {}]}, "fail",
     "counts disagree: /total = 3, len(/cases) = 2"),
    ("length-not-list", {"lengths": ["/cases"]}, {"cases": {}}, "fail", "/cases must be a list, got object"),
]


@pytest.mark.parametrize(("params", "data", "status", "message"), [r[1:] for r in COUNTS], ids=[r[0] for r in COUNTS])
def test_counts_agree(params: dict[str, Any], data: Any, status: str, message: str) -> None:
    assert first("counts_agree", params, data) == (status, message)


# --- sum_equals --------------------------------------------------------------------------


SUMS = [
    ("exact", {"total": "/t", "parts": ["/a", "/b"]}, {"t": 0.3, "a": 0.1, "b": 0.2}, "pass", "/t 0.3 = /a + /b"),
    ("off", {"total": "/t", "parts": ["/a", "/b"]}, {"t": 10, "a": 4, "b": 5}, "fail", "/t is 10 but /a + /b = 9"),
    ("within-tolerance", {"total": "/t", "parts": ["/a", "/b"], "tolerance": 1}, {"t": 10, "a": 4, "b": 5},
     "pass", "/t 10 = /a + /b"),
    ("beyond-tolerance", {"total": "/t", "parts": ["/a", "/b"], "tolerance": 0.5}, {"t": 10, "a": 4, "b": 5},
     "fail", "/t is 10 but /a + /b = 9"),
    ("part-missing", {"total": "/t", "parts": ["/a", "/b"]}, {"t": 10, "a": 4}, "fail", "/b is missing"),
    ("part-bool", {"total": "/t", "parts": ["/a"]}, {"t": 1, "a": True}, "fail",
     "/a must be a number, got boolean true"),
    ("total-string", {"total": "/t", "parts": ["/a"]}, {"t": "1", "a": 1}, "fail",
     '/t must be a number, got string "1"'),
]


@pytest.mark.parametrize(("params", "data", "status", "message"), [r[1:] for r in SUMS], ids=[r[0] for r in SUMS])
def test_sum_equals(params: dict[str, Any], data: Any, status: str, message: str) -> None:
    assert first("sum_equals", params, data) == (status, message)


# --- case_tally --------------------------------------------------------------------------


TALLY = {"list": "/cases", "flag": "/correct", "claimed_count": "/qa/correct", "claimed_total": "/qa/evaluated",
         "claimed_ratio": "/qa/accuracy"}


def tally_data(flags: list[Any], correct: Any, evaluated: Any, accuracy: Any,
               eligible: list[Any] | None = None) -> dict[str, Any]:
    cases = [{"correct": f} for f in flags]
    if eligible is not None:
        for case, ok in zip(cases, eligible):
            case["scored"] = ok
    return {"cases": cases, "qa": {"correct": correct, "evaluated": evaluated, "accuracy": accuracy}}


CASE_TALLY = [
    ("claims-match", TALLY, tally_data([True, False, True, True], 3, 4, 0.75), "pass",
     "3 of 4 evaluated cases are true; the claims match"),
    ("count-off", TALLY, tally_data([True, False, True, True], 4, 4, 0.75), "fail",
     "/qa/correct claims 4, but 3 cases are counted in /cases"),
    ("total-off", TALLY, tally_data([True, False, True, True], 3, 5, 0.75), "fail",
     "/qa/evaluated claims 5, but 4 cases are evaluated in /cases"),
    ("ratio-off", TALLY, tally_data([True, False, True, True], 3, 4, 0.8), "fail",
     "/qa/accuracy claims 0.8, but 3/4 = 0.75 from /cases: a rounded claim needs at least 3 places (min_places), or "
     "the places its producer rounds to (places)"),
    ("ratio-within-default-tolerance", TALLY, tally_data([True, True, False], 2, 3, 0.6666666666666666), "pass",
     "2 of 3 evaluated cases are true; the claims match"),
    ("ratio-rounded-to-its-places", TALLY, tally_data([True, True, False], 2, 3, 0.6667), "pass",
     "2 of 3 evaluated cases are true; the claims match (the ratio rounded to 4 places)"),
    ("ratio-rounded-the-wrong-way", TALLY, tally_data([True, True, False], 2, 3, 0.6666), "fail",
     "/qa/accuracy claims 0.6666, but 2/3 = 0.6667 from /cases: the exact value rounds to 0.6667 at 4 places"),
    ("ratio-rounded-within-wider-tolerance", {**TALLY, "tolerance": 0.0001},
     tally_data([True, True, False], 2, 3, 0.6667), "pass",
     "2 of 3 evaluated cases are true; the claims match (the ratio rounded to 4 places)"),
    ("ratio-one-is-never-rounded", TALLY, tally_data([True] * 1999 + [False], 1999, 2000, 1.0), "fail",
     "/qa/accuracy claims 1.0, but 1999/2000 = 0.9995 from /cases: a claim of 1.0 must be exact (rounding never "
     "reaches a boundary)"),
    ("flag-not-boolean", TALLY, tally_data([True, 1, True, True], 3, 4, 0.75), "fail",
     "/cases/1/correct must be true or false, got 1"),
    ("flag-missing", TALLY, tally_data([True, None], 1, 2, 0.5) | {"cases": [{"correct": True}, {}]}, "fail",
     "/cases/1/correct must be true or false, got missing"),
    ("eligible-filter", {**TALLY, "eligible": "/scored"},
     tally_data([True, False, "n/a", True], 2, 3, 0.6666666666666666, eligible=[True, True, False, True]), "pass",
     "2 of 3 evaluated cases are true; the claims match"),
    ("eligible-not-boolean", {**TALLY, "eligible": "/scored"},
     tally_data([True, False], 1, 2, 0.5, eligible=[True, "yes"]), "fail",
     '/cases/1/scored must be true or false, got "yes"'),
    ("nothing-eligible", {**TALLY, "eligible": "/scored"},
     tally_data([True], 0, 0, 0.0, eligible=[False]), "fail", "/qa/accuracy is 0.0 but no case was evaluated"),
    ("claimed-count-not-integer", TALLY, tally_data([True, False], 1.5, 2, 0.5), "fail",
     "/qa/correct must be an exact integer, got 1.5"),
    ("claimed-ratio-bool", TALLY, tally_data([True, False], 1, 2, True), "fail",
     "/qa/accuracy must be a number, got boolean true"),
    ("empty-list", TALLY, {"cases": [], "qa": {}}, "fail", "/cases must be a non-empty list, got array"),
]


@pytest.mark.parametrize(("params", "data", "status", "message"),
                         [r[1:] for r in CASE_TALLY], ids=[r[0] for r in CASE_TALLY])
def test_case_tally(params: dict[str, Any], data: Any, status: str, message: str) -> None:
    assert first("case_tally", params, data) == (status, message)


def test_every_counts_kind_has_a_table() -> None:
    from bench_gate.checks.generic import counts

    covered = {"counts_agree", "sum_equals", "case_tally"}
    assert {k.name for k in kinds_of(counts.__name__)} == covered
