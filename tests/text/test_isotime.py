"""Strict time on top of dateutil: what isoparse alone would accept and we refuse, calendar durations."""

from __future__ import annotations

from datetime import UTC, date, datetime
from fractions import Fraction
from typing import Any

import pytest
from dateutil.parser import isoparse
from hypothesis import given
from hypothesis import strategies as st

from bench_gate.checks.generic.timing import FreshParams
from bench_gate.models import Finding
from bench_gate.text.isotime import TimeError, parse_duration, parse_instant, parse_when

from kindtest import run
from repo import ROOT

NOW = datetime(2026, 2, 28, 12, 0, 0, tzinfo=UTC)


@pytest.mark.parametrize("text", [
    "20261129",                      # basic format
    "2026-W48-7",                    # week date
    "2026-333",                      # ordinal date
    "2026-11-29T12:00:00",           # no offset: whose clock?
    "2026-11-29T12:00",              # no seconds
    "2026-11-29T12:00:00,5Z",        # comma before the fraction
    "2026-11-29T12:00:00+0100",      # offset without a colon
    "2026-11-29 12:00:00Z",          # space instead of T
])
def test_isoparse_accepts_what_the_wrapper_refuses(text: str) -> None:
    isoparse(text)  # the library reads it...
    with pytest.raises(TimeError):
        parse_when(text)  # ...the gate does not guess


@pytest.mark.parametrize(("text", "message"), [
    ("2026-02-29", "'2026-02-29' is not a calendar date (day is out of range for month)"),
    ("2026-06-07T25:00:00Z", "'2026-06-07T25:00:00Z' is not a valid timestamp (hour must be in 0..23)"),
    ("2026-06-07T12:00:60Z", "'2026-06-07T12:00:60Z' is a leap second, which cannot be compared exactly"),
    ("2026-06-07T12:00:00+24:00", "'2026-06-07T12:00:00+24:00' has an impossible UTC offset +24:00"),
    ("9999-12-31T23:59:59-01:00", "'9999-12-31T23:59:59-01:00' is out of range"),
])
def test_refusals_say_why(text: str, message: str) -> None:
    with pytest.raises(TimeError) as exc:
        parse_when(text)
    assert str(exc.value) == message


def test_a_timestamp_keeps_nine_fraction_digits_exactly() -> None:
    when = parse_when("2026-11-29T13:00:00.123456789+01:00")
    assert when.instant == datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)
    assert when.fraction == Fraction(123456789, 10**9)


def test_instants_are_utc_and_dates_are_refused_where_an_instant_is_required() -> None:
    assert parse_instant("2026-11-29T13:00:00.25+01:00") == datetime(2026, 11, 29, 12, 0, 0, 250000, tzinfo=UTC)
    assert parse_instant("2026-11-29T12:00:00-00:00").utcoffset().total_seconds() == 0
    with pytest.raises(TimeError, match="is a date; an RFC 3339 timestamp with an offset is required"):
        parse_instant("2026-11-29")


@pytest.mark.parametrize(("text", "parts", "described"), [
    ("P30D", (0, 0, 0, 30, 0, 0, 0), "30 days"),
    ("P1M", (0, 1, 0, 0, 0, 0, 0), "1 month"),
    ("P1Y", (1, 0, 0, 0, 0, 0, 0), "1 year"),
    ("P2W", (0, 0, 2, 0, 0, 0, 0), "2 weeks"),
    ("PT36H", (0, 0, 0, 0, 36, 0, 0), "36 hours"),
    ("P1Y2M10DT2H30M", (1, 2, 0, 10, 2, 30, 0), "1 year 2 months 10 days 2 hours 30 minutes"),
    ("P0D", (0, 0, 0, 0, 0, 0, 0), "0 days"),
])
def test_durations(text: str, parts: tuple[int, ...], described: str) -> None:
    d = parse_duration(text)
    assert (d.parts, d.describe()) == (parts, described)


@pytest.mark.parametrize("text", ["30", "P", "PT", "P1.5D", "P-1D", "-P1D", "p30d", "P30D ", "P1DT", "30 days", "P1000000D"])
def test_durations_refused(text: str) -> None:
    with pytest.raises(TimeError):
        parse_duration(text)


def test_calendar_semantics() -> None:
    assert parse_duration("P1M").after_day(date(2026, 1, 31)) == date(2026, 2, 28)
    assert parse_duration("P1Y").after_day(date(2024, 2, 29)) == date(2025, 2, 28)
    assert parse_duration("PT36H").after_day(date(2026, 1, 1)) == date(2026, 1, 2)
    start = datetime(2026, 1, 31, 12, 0, 0, tzinfo=UTC)
    assert parse_duration("P1M").after(start) == datetime(2026, 2, 28, 12, 0, 0, tzinfo=UTC)


def fresh(value: str, max_age: str, now: datetime = NOW) -> Finding:
    (found,) = run("fresh", FreshParams(at="/checked_at", max_age=max_age), {"checked_at": value}, now=now)
    return found


@pytest.mark.parametrize(("value", "max_age", "status", "message"), [
    # the limit is the value plus the duration on the calendar: 2026-01-31 + P1M = 2026-02-28
    ("2026-01-31", "P1M", "pass", "checked_at 2026-01-31 is 28 days old (limit 1 month)"),
    ("2026-01-28", "P1M", "pass", "checked_at 2026-01-28 is 31 days old (limit 1 month)"),
    ("2026-01-27", "P1M", "fail", "checked_at 2026-01-27 is 32 days old (limit 1 month)"),
    ("2026-01-28T12:00:00Z", "P1M", "pass", "checked_at 2026-01-28T12:00:00Z is 31 days old (limit 1 month)"),
    ("2026-01-28T11:59:59Z", "P1M", "fail",
     "checked_at 2026-01-28T11:59:59Z is 31 days 1 second old (limit 1 month)"),
    ("2025-02-28", "P1Y", "pass", "checked_at 2025-02-28 is 365 days old (limit 1 year)"),
    ("2025-02-27", "P1Y", "fail", "checked_at 2025-02-27 is 366 days old (limit 1 year)"),
    ("2026-02-14T12:00:00Z", "P2W", "pass", "checked_at 2026-02-14T12:00:00Z is 14 days old (limit 2 weeks)"),
    ("2026-02-14T11:59:59.999999999Z", "P2W", "fail",
     "checked_at 2026-02-14T11:59:59.999999999Z is 14 days 0.000000001 seconds old (limit 2 weeks)"),
    ("0001-01-01", "P100000Y", "pass",
     f"checked_at 0001-01-01 is {(date(2026, 2, 28) - date(1, 1, 1)).days} days old (limit 100000 years)"),
])
def test_fresh_with_calendar_durations(value: str, max_age: str, status: str, message: str) -> None:
    f = fresh(value, max_age)
    assert (f.status, f.message) == (status, message)


def test_fresh_rejects_a_bad_duration_when_the_profile_compiles() -> None:
    with pytest.raises(ValueError, match="max_age '30 days' is not an ISO 8601 duration"):
        FreshParams(at="/checked_at", max_age="30 days")


def test_no_hand_written_time_parsing_is_left() -> None:
    src = ROOT / "src" / "bench_gate"
    found: list[Any] = [p.relative_to(src) for p in src.rglob("*.py")
                        if "fromisoformat(" in p.read_text(encoding="utf-8")
                        or "strptime(" in p.read_text(encoding="utf-8")]
    # the strict reader itself reads a spelling it has checked with fromisoformat
    assert [str(p) for p in found] == ["text/isotime.py"]


_DIGITS = "0123456789"


@given(st.tuples(
    st.text(_DIGITS, min_size=4, max_size=4), st.sampled_from(["01", "02", "12", "13", "00", "1x"]),
    st.sampled_from(["01", "28", "29", "30", "31", "32", "00"]), st.sampled_from("Tt"),
    st.sampled_from(["00", "12", "23", "24", "25"]), st.sampled_from(["00", "59", "60"]),
    st.sampled_from(["00", "59", "60"]), st.sampled_from(["Z", "z", "+01:00", "-00:00", "+23:59", "-12:30"])))
def test_the_standard_reading_agrees_with_isoparse(parts: tuple[str, ...]) -> None:
    """Where ``datetime.fromisoformat`` accepts a checked spelling, isoparse reads the same
    instant; where it refuses, isoparse decides (and words the reason)."""
    from bench_gate.text.isotime import _isoparse

    year, month, day, sep, hour, minute, second, zone = parts
    for text in (f"{year}-{month}-{day}", f"{year}-{month}-{day}{sep}{hour}:{minute}:{second}{zone}"):
        try:
            expected: Any = isoparse(text)
        except ValueError as exc:
            expected = str(exc)
        try:
            got: Any = _isoparse(text)
        except ValueError as exc:
            got = str(exc)
        assert got == expected
        if isinstance(got, datetime):
            assert got.utcoffset() == expected.utcoffset()
