"""Time checks: ``fresh``, ``not_future``, ``not_expired``, ``not_after``.

Times are read strictly by :mod:`bench_gate.text.isotime`: an RFC 3339 timestamp with an offset
(an instant, compared to the fraction of a second as written) or an ISO date ``YYYY-MM-DD``
(a whole day in UTC). Anything else fails with the reason: a timestamp without an offset
(whose clock?), a week date, ``June 7, 2026``, epoch seconds, a leap second, a month 13.

``now`` is the gate's instant (``--now``, default the current UTC time); a check reads no clock.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from datetime import datetime
from fractions import Fraction

from bench_gate.records import record
from bench_gate.checks.base import (
    described,
    kind,
    FORBID, MISSING, Context, Fail, failed, jsonable, lookup, passed, show, skipped,
    tokens, type_name,
)
from bench_gate.text.isotime import (
    SECONDS_PER_DAY,
    Duration,
    TimeError,
    When,
    age_days,
    age_seconds,
    parse_duration,
    parse_when,
    stamp,
    today,
)
from bench_gate.text.isotime import days as _days
from bench_gate.models import Finding


def human_duration(seconds: Fraction) -> str:
    """``30 days``, ``30 days 1 second``, ``2 hours 5 minutes``, ``0.5 seconds``."""
    whole = int(seconds)
    rest = seconds - whole
    days, whole = divmod(whole, SECONDS_PER_DAY)
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
        raise Fail(f"{name} must be a date or timestamp string, got {described(value)}",
                   pointer, role, jsonable(value), "a date or RFC 3339 timestamp")
    try:
        return parse_when(value), name, role, pointer
    except TimeError as exc:
        raise Fail(f"{name} {exc}", pointer, role, value, "YYYY-MM-DD or RFC 3339 with offset") from None


def _today(now: datetime) -> str:
    return today(now).isoformat()


# --- fresh ------------------------------------------------------------------------------


@record
class FreshParams:
    __pydantic_config__ = FORBID
    at: str
    max_age: str
    optional: bool = False
    label: str | None = None

    def __post_init__(self) -> None:
        try:
            parse_duration(self.max_age)
        except TimeError as exc:
            raise ValueError(f"max_age {exc}") from None


@kind("fresh", FreshParams, "a date or RFC 3339 timestamp is not in the future and at most max_age (P30D, P1M) old")
def fresh(ctx: Context, p: FreshParams) -> Iterable[Finding]:
    """The value is not in the future and at most ``max_age`` old, an ISO 8601 duration with
    calendar semantics (``P30D``, ``P2W``, ``P1M``, ``P1Y``):

    * date-only: the value passes while the gate's UTC date is not after the date plus
      ``max_age``, so with ``P30D`` a date 30 days back passes and 31 days back fails;
    * timestamp: the value passes while ``now`` is not after it plus ``max_age``: 30 days
      passes, 30 days and one second fails.

    Params: ``at`` (ref, required), ``max_age`` (ISO 8601 duration, required), ``optional``
    (default false: missing or null fails), ``label`` (how the message names the value;
    default: the document role and the last pointer token).

    .. code-block:: yaml

       - id: baseline-fresh
         check: fresh
         with: {at: "baseline:/checked_at", max_age: "${max_baseline_age}"}
    """
    when, name, role, pointer = _read(ctx, p.at, p.label, p.optional)
    if when is None:
        yield skipped(f"{name} is not given (optional)", pointer, role)
        return
    max_age = parse_duration(p.max_age)
    limit = f"limit {max_age.describe()}"
    if when.date_only:
        assert when.day is not None
        n = age_days(when, ctx.now)
        expected = f"at most {max_age.describe()} before {_today(ctx.now)}"
        try:
            stale = today(ctx.now) > max_age.after_day(when.day)
        except (OverflowError, ValueError):
            stale = False  # the limit lies past the last representable day
        if n < 0:
            yield failed(f"{name} {when.text} is in the future ({_days(-n)} after {_today(ctx.now)})",
                         pointer, role, when.text, f"not after {_today(ctx.now)}")
        elif stale:
            yield failed(f"{name} {when.text} is {_days(n)} old ({limit})",
                         pointer, role, when.text, expected)
        else:
            yield passed(f"{name} {when.text} is {_days(n)} old ({limit})",
                         pointer, role, when.text, expected)
        return
    age = age_seconds(when, ctx.now)
    expected = f"at most {max_age.describe()} before {stamp(ctx.now)}"
    if age < 0:
        yield failed(f"{name} {when.text} is in the future ({human_duration(-age)} after {stamp(ctx.now)})",
                     pointer, role, when.text, f"not after {stamp(ctx.now)}")
    elif _older_than(when, max_age, ctx.now):
        yield failed(f"{name} {when.text} is {human_duration(age)} old ({limit})",
                     pointer, role, when.text, expected)
    else:
        yield passed(f"{name} {when.text} is {human_duration(age)} old ({limit})",
                     pointer, role, when.text, expected)


def _older_than(when: When, max_age: Duration, now: datetime) -> bool:
    """``now`` is after the instant plus ``max_age`` (exactly, to the written fraction)."""
    assert when.instant is not None
    try:
        limit = max_age.after(when.instant)
    except (OverflowError, ValueError):
        return False  # the limit lies past the last representable instant
    return age_seconds(When(when.text, instant=limit, fraction=when.fraction), now) > 0


# --- not_future -------------------------------------------------------------------------


@record
class NotFutureParams:
    __pydantic_config__ = FORBID
    at: str
    optional: bool = False
    label: str | None = None


@kind("not_future", NotFutureParams, "a date or RFC 3339 timestamp is not in the future")
def not_future(ctx: Context, p: NotFutureParams) -> Iterable[Finding]:
    """The date or timestamp is not after ``now`` (a date-only value: not after the gate's UTC
    date). Params: ``at``, ``optional``, ``label``.
    """
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
    bound = stamp(ctx.now)
    if age < 0:
        yield failed(f"{name} {when.text} is in the future ({human_duration(-age)} after {bound})",
                   pointer, role, when.text, f"not after {bound}")
    else:
        yield passed(f"{name} {when.text} is not in the future (gate time {bound})",
                     pointer, role, when.text, f"not after {bound}")


# --- not_expired ------------------------------------------------------------------------


@record
class NotExpiredParams:
    __pydantic_config__ = FORBID
    at: str
    optional: bool = True
    label: str | None = None


@kind("not_expired", NotExpiredParams, "an expiry date has not passed (a date-only expiry is valid through its end)")
def not_expired(ctx: Context, p: NotExpiredParams) -> Iterable[Finding]:
    """An expiry has not passed: a date-only ``expires_at`` is valid through the end of that UTC
    day; a timestamp is valid strictly before its instant. Params: ``at``, ``optional``
    (default true: an absent expiry never expires), ``label``.
    """
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
    bound = stamp(ctx.now)
    if age >= 0:
        ago = "at" if age == 0 else f"{human_duration(age)} before"
        yield failed(f"{name} {when.text} has passed ({ago} {bound})",
                   pointer, role, when.text, f"after {bound}")
    else:
        yield passed(f"{name} {when.text} has not passed ({human_duration(-age)} left)",
                     pointer, role, when.text, f"after {bound}")


# --- not_after --------------------------------------------------------------------------


@record
class NotAfterParams:
    __pydantic_config__ = FORBID
    earlier: str
    later: str
    optional: bool = False
    label_earlier: str | None = None
    label_later: str | None = None


def _utc_key(when: When, as_day: bool) -> tuple[Any, ...]:
    """A value that orders two parsed times in UTC (by day when either is date-only)."""
    if when.day is not None:
        return (when.day,)
    assert when.instant is not None
    return (when.instant.date(),) if as_day else (when.instant, when.fraction)


@kind("not_after", NotAfterParams, "one recorded date or timestamp is not after another (compared in UTC)")
def not_after(ctx: Context, p: NotAfterParams) -> Iterable[Finding]:
    """Two recorded times are in order: ``earlier`` is not after ``later`` (a baseline's
    ``evidence_date`` is not after its ``checked_at``: it cannot have been checked before its
    evidence existed). Both are compared in UTC: two dates by day, two timestamps by instant,
    a date and a timestamp by the timestamp's UTC date. Params: ``earlier``, ``later`` (refs),
    ``optional`` (default false: a missing value fails), ``label_earlier``, ``label_later``.
    """
    first, fname, frole, fptr = _read(ctx, p.earlier, p.label_earlier, p.optional)
    second, sname, _, _ = _read(ctx, p.later, p.label_later, p.optional)
    if first is None or second is None:
        yield skipped(f"{fname if first is None else sname} is not given (optional)", fptr, frole)
        return
    by_day = first.date_only or second.date_only
    expected = f"not after {second.text}"
    if _utc_key(first, by_day) > _utc_key(second, by_day):
        yield failed(f"{fname} {first.text} is after {sname} {second.text}"
                     f"{' (compared by UTC date)' if by_day else ''}: the two times are out of order",
                     fptr, frole, first.text, expected)
    else:
        yield passed(f"{fname} {first.text} is not after {sname} {second.text}", fptr, frole, first.text, expected)
