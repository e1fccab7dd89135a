"""Time as bench-gate reads it: strict RFC 3339 timestamps, ISO dates, ISO 8601 durations.

Only two spellings of a point in time are accepted, and nothing is guessed:

* an **RFC 3339 timestamp with an offset**: ``2026-11-29T12:00:00Z``,
  ``2026-11-29T13:00:00.5+01:00`` (``T``/``Z`` in either case; ``-00:00`` counts as UTC).
  It is an instant, compared to the fraction of a second as written (up to nine digits);
* an **ISO calendar date** ``YYYY-MM-DD``: a whole day in UTC, where the rules allow one.

Anything else is refused with the reason: a timestamp without an offset
(``2026-11-29T12:00:00``: whose clock?), a week date, ``June 7, 2026``, epoch seconds, a leap
second, a month 13. The spelling is checked here; the calendar reading is that of
``dateutil.parser.isoparse``, and every instant is converted to UTC. The standard library's
``datetime.fromisoformat`` reads a checked spelling as isoparse does and costs nothing to
import; what it refuses (hour 24, 29 February 2026) goes to isoparse, which decides and words
the reason.

A **duration** is ISO 8601 (``P30D``, ``P2W``, ``P1M``, ``P1Y``, ``PT12H``, ``P1Y2M10DT2H30M``)
with calendar semantics (``dateutil.relativedelta``): one month after 31 January is the last
day of February, one year after 29 February 2024 is 28 February 2025. Profile parameters of type
``duration`` (the longest age of a baseline, say) are written this way.

Nothing here reads a clock: the gate's instant arrives as ``now``.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, tzinfo
from fractions import Fraction
from typing import Any, TYPE_CHECKING

from bench_gate.records import record

if TYPE_CHECKING:
    from dateutil.relativedelta import relativedelta

# The RFC 3339 profile of ISO 8601 (isoparse alone also takes 20261129, 2026-W48-7, a missing
# offset, a comma before the fraction...). ASCII digits only (\d would accept other scripts'
# digits), matched whole (``$`` would accept a trailing newline).
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_STAMP = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:([0-9]{2})(?:\.([0-9]{1,9}))?"
    r"([Zz]|[+-]([0-9]{2}):([0-9]{2}))"
)
_DURATION = re.compile(
    r"P(?!$)(?:([0-9]+)Y)?(?:([0-9]+)M)?(?:([0-9]+)W)?(?:([0-9]+)D)?"
    r"(?:T(?=[0-9])(?:([0-9]+)H)?(?:([0-9]+)M)?(?:([0-9]+)S)?)?"
)
_UNITS = ("year", "month", "week", "day", "hour", "minute", "second")
_MAX_DURATION_PART = 100_000
SECONDS_PER_DAY = 86400


class TimeError(ValueError):
    """The text is not a time bench-gate accepts; ``str()`` is the reason."""


@record
class When:
    """A parsed time value: a UTC calendar day, or an exact instant."""

    text: str
    day: date | None = None
    instant: datetime | None = None  # whole seconds, in UTC
    fraction: Fraction = Fraction(0)  # sub-second part of the instant, exact

    @property
    def date_only(self) -> bool:
        return self.day is not None


def utc() -> tzinfo:
    """UTC, the one time zone every comparison happens in."""
    return UTC


def _isoparse(text: str) -> datetime:
    """The calendar reading of a date or timestamp whose spelling matched :data:`_DATE` or
    :data:`_STAMP`: ``datetime.fromisoformat``'s, or where it refuses, ``isoparse``'s."""
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        from dateutil.parser import isoparse

        return isoparse(text)


def parse_when(text: str, date_only: bool = True) -> When:
    """Parse strictly: an RFC 3339 timestamp with offset, or (``date_only``) a YYYY-MM-DD date."""
    if _DATE.fullmatch(text):
        if not date_only:
            raise TimeError(f"{text!r} is a date; an RFC 3339 timestamp with an offset is required "
                            "(2026-11-29T12:00:00Z)")
        try:
            return When(text, day=_isoparse(text).date())
        except ValueError as exc:
            raise TimeError(f"{text!r} is not a calendar date ({exc})") from None
    m = _STAMP.fullmatch(text)
    if not m:
        if date_only:
            raise TimeError(f"{text!r} is neither an RFC 3339 timestamp with an offset "
                            "(2026-11-29T12:00:00Z) nor a date (YYYY-MM-DD)")
        raise TimeError(f"{text!r} is not an RFC 3339 timestamp with an offset (2026-11-29T12:00:00Z)")
    seconds, digits, zone, off_h, off_m = m.groups()
    if seconds == "60":
        raise TimeError(f"{text!r} is a leap second, which cannot be compared exactly")
    if off_h is not None and (int(off_h) > 23 or int(off_m) > 59):
        raise TimeError(f"{text!r} has an impossible UTC offset {zone}")
    # isoparse keeps microseconds only: the exact fraction is taken from the text instead
    whole = text[:m.start(2) - 1] + text[m.end(2):] if digits else text
    try:
        local = _isoparse(whole)
    except ValueError as exc:
        raise TimeError(f"{text!r} is not a valid timestamp ({exc})") from None
    try:
        instant = local.astimezone(utc())
    except OverflowError:
        raise TimeError(f"{text!r} is out of range") from None
    frac = Fraction(int(digits), 10 ** len(digits)) if digits else Fraction(0)
    return When(text, instant=instant, fraction=frac)


def parse_instant(text: str) -> datetime:
    """An RFC 3339 timestamp with an offset as an aware UTC datetime (microseconds kept)."""
    when = parse_when(text, date_only=False)
    assert when.instant is not None
    return when.instant + timedelta(microseconds=int(when.fraction * 1_000_000))


def instant_or_none(value: Any) -> datetime | None:
    """:func:`parse_instant` of a string, or None for anything that is not an RFC 3339 timestamp."""
    if not isinstance(value, str):
        return None
    try:
        return parse_instant(value)
    except TimeError:
        return None


def _now_seconds(now: datetime) -> tuple[datetime, Fraction]:
    now_utc = now.astimezone(utc())
    return now_utc.replace(microsecond=0), Fraction(now_utc.microsecond, 1_000_000)


def _seconds(delta: timedelta) -> int:
    return delta.days * SECONDS_PER_DAY + delta.seconds


def age_seconds(when: When, now: datetime) -> Fraction:
    """Exact seconds from a timestamp to ``now`` (negative: in the future)."""
    assert when.instant is not None
    base, frac = _now_seconds(now)
    return Fraction(_seconds(base - when.instant)) + frac - when.fraction


def age_days(when: When, now: datetime) -> int:
    """Whole days from a date-only value to the gate's UTC date (negative: in the future)."""
    assert when.day is not None
    return (today(now) - when.day).days


def today(now: datetime) -> date:
    """The gate's UTC calendar date."""
    return now.astimezone(utc()).date()


def stamp(now: datetime) -> str:
    """``now`` in UTC, RFC 3339 with a ``Z``."""
    return now.astimezone(utc()).isoformat().replace("+00:00", "Z")


# --- durations ----------------------------------------------------------------------------


@record
class Duration:
    """An ISO 8601 duration: its text and its parts (years, months, weeks, days, h, min, s)."""

    text: str
    parts: tuple[int, int, int, int, int, int, int]

    @property
    def delta(self) -> relativedelta:
        from dateutil.relativedelta import relativedelta

        y, mo, w, d, h, mi, s = self.parts
        return relativedelta(years=y, months=mo, weeks=w, days=d, hours=h, minutes=mi, seconds=s)

    @property
    def has_time(self) -> bool:
        return any(self.parts[4:])

    def describe(self) -> str:
        """``30 days``, ``1 month``, ``1 year 6 months``, ``12 hours``."""
        shown = [f"{n} {unit}{'' if n == 1 else 's'}" for n, unit in zip(self.parts, _UNITS) if n]
        return " ".join(shown) if shown else "0 days"

    def after(self, start: datetime) -> datetime:
        """The instant this duration after ``start``, on the calendar."""
        return start + self.delta

    def after_day(self, start: date) -> date:
        """The calendar day this duration after ``start`` (a time part rounds down to the day)."""
        end = start + self.delta
        return end.date() if isinstance(end, datetime) else end


def parse_duration(text: str) -> Duration:
    """An ISO 8601 duration with whole-number parts (``P30D``, ``P1M``, ``PT36H``); TimeError otherwise."""
    m = _DURATION.fullmatch(text) if isinstance(text, str) else None
    if not m:
        raise TimeError(f"{text!r} is not an ISO 8601 duration (P30D, P2W, P1M, P1Y, PT12H)")
    parts = tuple(int(g) if g else 0 for g in m.groups())
    if any(p > _MAX_DURATION_PART for p in parts):
        raise TimeError(f"{text!r} has a part over {_MAX_DURATION_PART}")
    return Duration(text, parts)


def days(n: int) -> str:
    return f"{n} day{'' if n == 1 else 's'}"
