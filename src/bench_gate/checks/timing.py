"""Time checks: ``fresh``, ``not_future``, ``not_expired``.

Only two spellings of time are accepted, and nothing is guessed:

* an **RFC 3339 timestamp with an offset**: ``2026-11-29T12:00:00Z``,
  ``2026-11-29T13:00:00.5+01:00`` (``T``/``Z`` in either case; ``-00:00`` counts as UTC).
  It is an instant and is compared as one, to the fraction of a second as written;
* an **ISO calendar date** ``YYYY-MM-DD``: a whole day in UTC.

Anything else fails: a timestamp without an offset (``2026-11-29T12:00:00``: whose clock?),
a week date, ``June 7, 2026``, a number of epoch seconds, a leap second, a month 13.

``now`` is the gate's instant (``--now``, default the current UTC time); a check reads no clock.

fresh
    The value is not in the future and at most ``max_age_days`` old.

    * date-only: the age is the number of whole days from that date to the gate's UTC date,
      so with a 30-day limit a date 30 days back passes and 31 days back fails;
    * timestamp: the age is the exact time between it and ``now``: 30 days passes,
      30 days and one second fails.

    Params: ``at`` (ref, required), ``max_age_days`` (integer >= 0, required),
    ``optional`` (default false: missing or null fails), ``label`` (how the message names the
    value; default: the document role and the last pointer token).

    .. code-block:: yaml

       - id: baseline-fresh
         check: fresh
         with: {at: "baseline:/checked_at", max_age_days: "${max_baseline_age_days}"}

not_future
    The date or timestamp is not after ``now`` (a date-only value: not after the gate's UTC
    date). Params: ``at``, ``optional``, ``label``.

not_expired
    An expiry has not passed: a date-only ``expires_at`` is valid through the end of that UTC
    day; a timestamp is valid strictly before its instant. Params: ``at``, ``optional``
    (default true: an absent expiry never expires), ``label``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, timezone
from fractions import Fraction
from collections.abc import Iterable

from bench_gate.checks.base import (
    FORBID, MISSING, CheckKind, Context, Fail, failed, jsonable, lookup, passed, show, skipped,
    tokens, type_name,
)
from bench_gate.models import Finding

# ASCII digits only (\d would accept other scripts' digits) and fullmatch (``$`` would accept a
# trailing newline).
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_STAMP = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]{1,9})?"
    r"([Zz]|[+-][0-9]{2}:[0-9]{2})"
)
_SECONDS_PER_DAY = 86400


@dataclass(frozen=True)
class When:
    """A parsed time value: a UTC calendar day, or an exact instant."""

    text: str
    day: date | None = None
    instant: datetime | None = None  # whole seconds, in UTC
    fraction: Fraction = Fraction(0)  # sub-second part of the instant, exact

    @property
    def date_only(self) -> bool:
        return self.day is not None


class TimeError(ValueError):
    """The text is not an RFC 3339 timestamp with offset nor a YYYY-MM-DD date."""


def parse_when(text: str) -> When:
    """Parse strictly; TimeError with the reason otherwise."""
    m = _DATE.fullmatch(text)
    if m:
        try:
            return When(text, day=date(int(m[1]), int(m[2]), int(m[3])))
        except ValueError as exc:
            raise TimeError(f"{text!r} is not a calendar date ({exc})") from None
    m = _STAMP.fullmatch(text)
    if not m:
        raise TimeError(
            f"{text!r} is neither an RFC 3339 timestamp with an offset "
            "(2026-11-29T12:00:00Z) nor a date (YYYY-MM-DD)"
        )
    year, month, day_, hour, minute, second = (int(m[i]) for i in range(1, 7))
    if second == 60:
        raise TimeError(f"{text!r} is a leap second, which cannot be compared exactly")
    zone = m[8]
    if zone in ("Z", "z"):
        tz = UTC
    else:
        oh, om = int(zone[1:3]), int(zone[4:6])
        if oh > 23 or om > 59:
            raise TimeError(f"{text!r} has an impossible UTC offset {zone}")
        delta = timedelta(hours=oh, minutes=om)
        tz = timezone(-delta if zone[0] == "-" else delta)
    try:
        local = datetime(year, month, day_, hour, minute, second, tzinfo=tz)
    except ValueError as exc:
        raise TimeError(f"{text!r} is not a valid timestamp ({exc})") from None
    try:
        instant = local.astimezone(UTC)
    except OverflowError:
        raise TimeError(f"{text!r} is out of range") from None
    frac = Fraction(int(m[7][1:]), 10 ** (len(m[7]) - 1)) if m[7] else Fraction(0)
    return When(text, instant=instant, fraction=frac)


def _now_seconds(now: datetime) -> tuple[datetime, Fraction]:
    utc = now.astimezone(UTC)
    return utc.replace(microsecond=0), Fraction(utc.microsecond, 1_000_000)


def age_seconds(when: When, now: datetime) -> Fraction:
    """Exact seconds from a timestamp to ``now`` (negative: in the future)."""
    assert when.instant is not None
    base, frac = _now_seconds(now)
    whole = (base - when.instant).days * _SECONDS_PER_DAY + (base - when.instant).seconds
    return Fraction(whole) + frac - when.fraction


def age_days(when: When, now: datetime) -> int:
    """Whole days from a date-only value to the gate's UTC date (negative: in the future)."""
    assert when.day is not None
    return (now.astimezone(UTC).date() - when.day).days


def human_duration(seconds: Fraction) -> str:
    """``30 days``, ``30 days 1 second``, ``2 hours 5 minutes``, ``0.5 seconds``."""
    whole = int(seconds)
    rest = seconds - whole
    days, whole = divmod(whole, _SECONDS_PER_DAY)
    hours, whole = divmod(whole, 3600)
    minutes, secs = divmod(whole, 60)
    parts = []
    for n, unit in ((days, "day"), (hours, "hour"), (minutes, "minute")):
        if n:
            parts.append(f"{n} {unit}{'' if n == 1 else 's'}")
    if secs or rest:
        if rest:
            text = f"{float(secs + rest):.9f}".rstrip("0").rstrip(".")
            parts.append(f"{text} seconds")
        else:
            parts.append(f"{secs} second{'' if secs == 1 else 's'}")
    return " ".join(parts) if parts else "0 seconds"


def _days(n: int) -> str:
    return f"{n} day{'' if n == 1 else 's'}"


def _label(role: str, pointer: str, label: str | None) -> str:
    if label:
        return label
    toks = tokens(pointer)
    name = toks[-1] if toks else pointer or "value"
    return name if role == "report" else f"{role} {name}"


def _read(ctx: Context, ref: str, label: str | None, optional: bool
          ) -> tuple[When | None, str, str, str]:
    """(parsed value or None when absent and optional, label, role, pointer)."""
    value, role, pointer = lookup(ctx, ref)
    name = _label(role, pointer, label)
    if value is MISSING or value is None:
        if optional:
            return None, name, role, pointer
        state = "missing" if value is MISSING else "null"
        raise Fail(f"{name} is {state}", pointer, role, None, "a date or RFC 3339 timestamp")
    if not isinstance(value, str):
        raise Fail(f"{name} must be a date or timestamp string, got {type_name(value)} {show(value)}",
                   pointer, role, jsonable(value), "a date or RFC 3339 timestamp")
    try:
        return parse_when(value), name, role, pointer
    except TimeError as exc:
        raise Fail(f"{name} {exc}", pointer, role, value, "YYYY-MM-DD or RFC 3339 with offset") from None


def _today(now: datetime) -> str:
    return now.astimezone(UTC).date().isoformat()


def _stamp(now: datetime) -> str:
    utc = now.astimezone(UTC)
    text = utc.isoformat().replace("+00:00", "Z")
    return text


# --- fresh ------------------------------------------------------------------------------


@dataclass(frozen=True)
class FreshParams:
    __pydantic_config__ = FORBID
    at: str
    max_age_days: int
    optional: bool = False
    label: str | None = None

    def __post_init__(self) -> None:
        if self.max_age_days < 0:
            raise ValueError(f"max_age_days must be 0 or more, got {self.max_age_days}")


def run_fresh(ctx: Context, p: FreshParams) -> Iterable[Finding]:
    when, name, role, pointer = _read(ctx, p.at, p.label, p.optional)
    if when is None:
        yield skipped(f"{name} is not given (optional)", pointer, role)
        return
    limit = f"limit {_days(p.max_age_days)}"
    if when.date_only:
        days = age_days(when, ctx.now)
        expected = f"at most {_days(p.max_age_days)} before {_today(ctx.now)}"
        if days < 0:
            yield failed(f"{name} {when.text} is in the future ({_days(-days)} after {_today(ctx.now)})",
                       pointer, role, when.text, f"not after {_today(ctx.now)}")
        elif days > p.max_age_days:
            yield failed(f"{name} {when.text} is {_days(days)} old ({limit})",
                       pointer, role, when.text, expected)
        else:
            yield passed(f"{name} {when.text} is {_days(days)} old ({limit})",
                         pointer, role, when.text, expected)
        return
    age = age_seconds(when, ctx.now)
    expected = f"at most {_days(p.max_age_days)} before {_stamp(ctx.now)}"
    if age < 0:
        yield failed(f"{name} {when.text} is in the future ({human_duration(-age)} after {_stamp(ctx.now)})",
                   pointer, role, when.text, f"not after {_stamp(ctx.now)}")
    elif age > p.max_age_days * _SECONDS_PER_DAY:
        yield failed(f"{name} {when.text} is {human_duration(age)} old ({limit})",
                   pointer, role, when.text, expected)
    else:
        yield passed(f"{name} {when.text} is {human_duration(age)} old ({limit})",
                     pointer, role, when.text, expected)


# --- not_future -------------------------------------------------------------------------


@dataclass(frozen=True)
class NotFutureParams:
    __pydantic_config__ = FORBID
    at: str
    optional: bool = False
    label: str | None = None


def run_not_future(ctx: Context, p: NotFutureParams) -> Iterable[Finding]:
    when, name, role, pointer = _read(ctx, p.at, p.label, p.optional)
    if when is None:
        yield skipped(f"{name} is not given (optional)", pointer, role)
        return
    if when.date_only:
        days = age_days(when, ctx.now)
        bound = _today(ctx.now)
        if days < 0:
            yield failed(f"{name} {when.text} is in the future ({_days(-days)} after {bound})",
                       pointer, role, when.text, f"not after {bound}")
        else:
            yield passed(f"{name} {when.text} is not in the future (gate date {bound})",
                         pointer, role, when.text, f"not after {bound}")
        return
    age = age_seconds(when, ctx.now)
    bound = _stamp(ctx.now)
    if age < 0:
        yield failed(f"{name} {when.text} is in the future ({human_duration(-age)} after {bound})",
                   pointer, role, when.text, f"not after {bound}")
    else:
        yield passed(f"{name} {when.text} is not in the future (gate time {bound})",
                     pointer, role, when.text, f"not after {bound}")


# --- not_expired ------------------------------------------------------------------------


@dataclass(frozen=True)
class NotExpiredParams:
    __pydantic_config__ = FORBID
    at: str
    optional: bool = True
    label: str | None = None


def run_not_expired(ctx: Context, p: NotExpiredParams) -> Iterable[Finding]:
    when, name, role, pointer = _read(ctx, p.at, p.label, p.optional)
    if when is None:
        yield passed(f"{name} is not given: no expiry", pointer, role)
        return
    if when.date_only:
        days = age_days(when, ctx.now)
        bound = _today(ctx.now)
        if days > 0:
            yield failed(f"{name} {when.text} has passed ({_days(days)} before {bound}; "
                       "a date is valid through its end)",
                       pointer, role, when.text, f"on or after {bound}")
        else:
            yield passed(f"{name} {when.text} has not passed (valid through the end of that day, "
                         f"gate date {bound})", pointer, role, when.text, f"on or after {bound}")
        return
    age = age_seconds(when, ctx.now)
    bound = _stamp(ctx.now)
    if age >= 0:
        ago = "at" if age == 0 else f"{human_duration(age)} before"
        yield failed(f"{name} {when.text} has passed ({ago} {bound})",
                   pointer, role, when.text, f"after {bound}")
    else:
        yield passed(f"{name} {when.text} has not passed ({human_duration(-age)} left)",
                     pointer, role, when.text, f"after {bound}")


KINDS: tuple[CheckKind, ...] = (
    CheckKind("fresh", FreshParams, run_fresh,
              "a date or RFC 3339 timestamp is not in the future and at most N days old"),
    CheckKind("not_future", NotFutureParams, run_not_future,
              "a date or RFC 3339 timestamp is not in the future"),
    CheckKind("not_expired", NotExpiredParams, run_not_expired,
              "an expiry date has not passed (a date-only expiry is valid through its end)"),
)
