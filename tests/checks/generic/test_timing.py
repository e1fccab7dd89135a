"""The time kinds: fresh, not_future, not_expired (strict parsing, exact boundaries)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from bench_gate.checks.generic.timing import (
    FreshParams, NotAfterParams, NotExpiredParams, NotFutureParams, fresh, not_after, not_expired,
    not_future,
)
from bench_gate.models import Finding
from bench_gate.text.isotime import TimeError, parse_when

import kindtest
from kindtest import doc

NOW = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)


def run(fn: Any, params: Any, value: Any, now: datetime = NOW, key: str = "checked_at") -> Finding:
    data = {} if value is ... else {key: value}
    found = kindtest.run(fn, params, {}, now=now, baseline=doc("baseline", data, path="b.json"))
    assert len(found) == 1
    return found[0]


FRESH = FreshParams(at="baseline:/checked_at", max_age="P30D")


@pytest.mark.parametrize(("value", "status", "message"), [
    ("2026-10-30", "pass", "baseline checked_at 2026-10-30 is 30 days old (limit 30 days)"),
    ("2026-10-29", "fail", "baseline checked_at 2026-10-29 is 31 days old (limit 30 days)"),
    ("2026-11-29", "pass", "baseline checked_at 2026-11-29 is 0 days old (limit 30 days)"),
    ("2026-06-07", "fail", "baseline checked_at 2026-06-07 is 175 days old (limit 30 days)"),
    ("2026-11-30", "fail", "baseline checked_at 2026-11-30 is in the future (1 day after 2026-11-29)"),
    ("2026-10-30T12:00:00Z", "pass", "baseline checked_at 2026-10-30T12:00:00Z is 30 days old (limit 30 days)"),
    ("2026-10-30T11:59:59Z", "fail",
     "baseline checked_at 2026-10-30T11:59:59Z is 30 days 1 second old (limit 30 days)"),
    ("2026-10-30T14:00:00+02:00", "pass",
     "baseline checked_at 2026-10-30T14:00:00+02:00 is 30 days old (limit 30 days)"),
    ("2026-10-30T13:59:59.5+02:00", "fail",
     "baseline checked_at 2026-10-30T13:59:59.5+02:00 is 30 days 0.5 seconds old (limit 30 days)"),
    ("2026-10-30t12:00:00z", "pass", "baseline checked_at 2026-10-30t12:00:00z is 30 days old (limit 30 days)"),
    ("2026-11-29T12:00:00.000001Z", "fail",
     "baseline checked_at 2026-11-29T12:00:00.000001Z is in the future (0.000001 seconds after 2026-11-29T12:00:00Z)"),
    ("2026-11-29T11:00:00-02:00", "fail",
     "baseline checked_at 2026-11-29T11:00:00-02:00 is in the future (1 hour after 2026-11-29T12:00:00Z)"),
    ("2026-10-30T12:00:00", "fail",
     "baseline checked_at '2026-10-30T12:00:00' is neither an RFC 3339 timestamp with an offset "
     "(2026-11-29T12:00:00Z) nor a date (YYYY-MM-DD)"),
    ("June 7, 2026", "fail",
     "baseline checked_at 'June 7, 2026' is neither an RFC 3339 timestamp with an offset "
     "(2026-11-29T12:00:00Z) nor a date (YYYY-MM-DD)"),
    ("2026-02-30", "fail", "baseline checked_at '2026-02-30' is not a calendar date (day is out of range for month)"),
    ("2026-11-29\n", "fail",
     "baseline checked_at '2026-11-29\\n' is neither an RFC 3339 timestamp with an offset "
     "(2026-11-29T12:00:00Z) nor a date (YYYY-MM-DD)"),
    ("２０２６-11-29", "fail",
     "baseline checked_at '２０２６-11-29' is neither an RFC 3339 timestamp with an offset "
     "(2026-11-29T12:00:00Z) nor a date (YYYY-MM-DD)"),
    ("2026-06-30T23:59:60Z", "fail",
     "baseline checked_at '2026-06-30T23:59:60Z' is a leap second, which cannot be compared exactly"),
    ("2026-10-30T12:00:00+24:00", "fail",
     "baseline checked_at '2026-10-30T12:00:00+24:00' has an impossible UTC offset +24:00"),
    (1780000000, "fail", "baseline checked_at must be a date or timestamp string, got integer 1780000000"),
    (None, "fail", "baseline checked_at is null"),
    (..., "fail", "baseline checked_at is missing"),
], ids=["30-days-date", "31-days-date", "today", "real-stale-baseline", "future-date", "30-days-instant",
        "30-days-plus-1s", "offset-30-days", "offset-fraction-over", "lowercase-t-z", "future-microsecond",
        "future-by-offset", "no-offset", "prose", "feb-30", "trailing-newline", "fullwidth-digits",
        "leap-second", "bad-offset", "epoch-number", "null", "missing"])
def test_fresh(value: Any, status: str, message: str) -> None:
    finding = run(fresh, FRESH, value)
    assert (finding.status, finding.message) == (status, message)
    assert finding.document == "baseline"
    assert finding.pointer == "/checked_at"


def test_fresh_optional_and_label() -> None:
    finding = run(fresh, FreshParams(at="baseline:/checked_at", max_age="P30D", optional=True), ...)
    assert (finding.status, finding.message) == ("skip", "baseline checked_at is not given (optional)")
    finding = run(fresh, FreshParams(at="baseline:/checked_at", max_age="P0D", label="leaderboard check"),
                  "2026-11-28")
    assert (finding.status, finding.message) == ("fail", "leaderboard check 2026-11-28 is 1 day old (limit 0 days)")


def test_fresh_expected_is_stated() -> None:
    finding = run(fresh, FRESH, "2026-06-07")
    assert finding.actual == "2026-06-07"
    assert finding.expected == "at most 30 days before 2026-11-29"


@pytest.mark.parametrize(("value", "status", "message"), [
    ("2026-11-29", "pass", "baseline evidence_date 2026-11-29 is not in the future (gate date 2026-11-29)"),
    ("2026-11-30", "fail", "baseline evidence_date 2026-11-30 is in the future (1 day after 2026-11-29)"),
    ("2026-11-29T12:00:00Z", "pass",
     "baseline evidence_date 2026-11-29T12:00:00Z is not in the future (gate time 2026-11-29T12:00:00Z)"),
    ("2026-11-29T12:00:01Z", "fail",
     "baseline evidence_date 2026-11-29T12:00:01Z is in the future (1 second after 2026-11-29T12:00:00Z)"),
    ("2020-01-01", "pass", "baseline evidence_date 2020-01-01 is not in the future (gate date 2026-11-29)"),
], ids=["today", "tomorrow", "now", "one-second-ahead", "old"])
def test_not_future(value: str, status: str, message: str) -> None:
    finding = run(not_future, NotFutureParams(at="baseline:/evidence_date"), value, key="evidence_date")
    assert (finding.status, finding.message) == (status, message)


@pytest.mark.parametrize(("value", "status", "message"), [
    ("2026-11-29", "pass", "baseline expires_at 2026-11-29 has not passed (valid through the end of that day, "
                           "gate date 2026-11-29)"),
    ("2026-11-28", "fail", "baseline expires_at 2026-11-28 has passed (1 day before 2026-11-29; "
                           "a date is valid through its end)"),
    ("2026-11-29T12:00:01Z", "pass", "baseline expires_at 2026-11-29T12:00:01Z has not passed (1 second left)"),
    ("2026-11-29T12:00:00Z", "fail", "baseline expires_at 2026-11-29T12:00:00Z has passed (at 2026-11-29T12:00:00Z)"),
    ("2026-11-29T11:00:00Z", "fail",
     "baseline expires_at 2026-11-29T11:00:00Z has passed (1 hour before 2026-11-29T12:00:00Z)"),
    (..., "pass", "baseline expires_at is not given: no expiry"),
    ("soon", "fail", "baseline expires_at 'soon' is neither an RFC 3339 timestamp with an offset "
                     "(2026-11-29T12:00:00Z) nor a date (YYYY-MM-DD)"),
], ids=["date-today", "date-yesterday", "instant-ahead", "instant-now", "instant-past", "absent", "garbage"])
def test_not_expired(value: Any, status: str, message: str) -> None:
    finding = run(not_expired, NotExpiredParams(at="baseline:/expires_at"), value, key="expires_at")
    assert (finding.status, finding.message) == (status, message)


def test_not_expired_date_only_valid_through_end_of_day() -> None:
    late = datetime(2026, 11, 29, 23, 59, 59, 999999, tzinfo=UTC)
    finding = run(not_expired, NotExpiredParams(at="baseline:/expires_at"), "2026-11-29", now=late,
                  key="expires_at")
    assert finding.status == "pass"
    next_day = datetime(2026, 11, 30, 0, 0, 0, tzinfo=UTC)
    finding = run(not_expired, NotExpiredParams(at="baseline:/expires_at"), "2026-11-29", now=next_day,
                  key="expires_at")
    assert finding.message == ("baseline expires_at 2026-11-29 has passed (1 day before 2026-11-30; "
                               "a date is valid through its end)")


def test_date_only_uses_the_utc_date_of_now() -> None:
    # 2026-11-30T01:00+02:00 is still 2026-11-29 in UTC: a date 30 days before that passes
    now = datetime.fromisoformat("2026-11-30T01:00:00+02:00")
    finding = run(fresh, FRESH, "2026-10-30", now=now)
    assert finding.message == "baseline checked_at 2026-10-30 is 30 days old (limit 30 days)"


@pytest.mark.parametrize("text", ["2026-11-29T12:00Z", "2026-11-29 12:00:00Z", "20261129", "2026-W48-7",
                                  "2026-11-29T12:00:00.1234567890Z", "+2026-11-29", "2026-1-9"],
                         ids=["no-seconds", "space-separator", "basic-format", "week-date", "ten-fraction-digits",
                              "signed-year", "unpadded"])
def test_parse_rejects(text: str) -> None:
    with pytest.raises(TimeError):
        parse_when(text)


@settings(max_examples=200, deadline=None)
@given(now=st.datetimes(min_value=datetime(2001, 1, 1), max_value=datetime(2099, 1, 1), timezones=st.just(UTC)),
       days=st.integers(min_value=0, max_value=400), offset_minutes=st.integers(min_value=-14 * 60, max_value=14 * 60))
def test_fresh_boundaries_hold_everywhere(now: datetime, days: int, offset_minutes: int) -> None:
    now = now.replace(microsecond=0)
    params = FreshParams(at="baseline:/checked_at", max_age=f"P{days}D")
    zone = timedelta(minutes=offset_minutes)
    edge = (now - timedelta(days=days)).astimezone(timezone(zone))
    assert run(fresh, params, edge.isoformat(), now=now).status == "pass"
    assert run(fresh, params, (edge - timedelta(seconds=1)).isoformat(), now=now).status == "fail"
    day = (now - timedelta(days=days)).date()
    assert run(fresh, params, day.isoformat(), now=now).status == "pass"
    assert run(fresh, params, (day - timedelta(days=1)).isoformat(), now=now).status == "fail"
    assert run(fresh, params, (now + timedelta(seconds=1)).isoformat(), now=now).status == "fail"


ORDER = NotAfterParams(earlier="baseline:/evidence_date", later="baseline:/checked_at")


def ordered(evidence: Any, checked: Any) -> tuple[str, str]:
    data = {k: v for k, v in (("evidence_date", evidence), ("checked_at", checked)) if v is not ...}
    return kindtest.first(not_after, ORDER, {}, baseline=doc("baseline", data, path="b.json"))


@pytest.mark.parametrize(("evidence", "checked", "status", "message"), [
    ("2026-06-07", "2026-06-07", "pass", "baseline evidence_date 2026-06-07 is not after baseline checked_at 2026-06-07"),
    ("2026-11-28", "2026-11-25", "fail", "baseline evidence_date 2026-11-28 is after baseline checked_at 2026-11-25 "
                                         "(compared by UTC date): the two times are out of order"),
    # 23:30 at UTC-05:00 is already the next day in UTC
    ("2026-06-08", "2026-06-07T23:30:00-05:00", "pass",
     "baseline evidence_date 2026-06-08 is not after baseline checked_at 2026-06-07T23:30:00-05:00"),
    ("2026-06-08T00:30:00+02:00", "2026-06-07T23:00:00Z", "pass",
     "baseline evidence_date 2026-06-08T00:30:00+02:00 is not after baseline checked_at 2026-06-07T23:00:00Z"),
    ("2026-06-08T01:30:00+02:00", "2026-06-07T23:00:00Z", "fail",
     "baseline evidence_date 2026-06-08T01:30:00+02:00 is after baseline checked_at 2026-06-07T23:00:00Z: the two "
     "times are out of order"),
    (..., "2026-06-07", "fail", "baseline evidence_date is missing"),
    ("2026-06-07T12:00:00", "2026-06-07", "fail",
     "baseline evidence_date '2026-06-07T12:00:00' is neither an RFC 3339 timestamp with an offset "
     "(2026-11-29T12:00:00Z) nor a date (YYYY-MM-DD)"),
], ids=["same-day", "evidence-after-check", "offset-crosses-utc-day", "instants-in-utc", "instant-after",
        "missing", "no-offset"])
def test_not_after(evidence: Any, checked: Any, status: str, message: str) -> None:
    assert ordered(evidence, checked) == (status, message)
