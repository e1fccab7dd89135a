"""Limits on metric values: minimums and maximums of one metric table (``metric_thresholds``)
and of every slice of the summary tables (``slice_thresholds``), and no regression against a
baseline document (``regression``), each metric compared in its own direction
(:func:`direction`: higher is better for recall@k, hit@k, ndcg@k...; lower for ``*_ms``...).
Every comparison is exact: a tie with a minimum passes, ``0.7499`` does not pass ``0.75``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction
from typing import Any

from bench_gate.records import field, record
from bench_gate.checks.base import (
    described,
    kind,   # noqa: I001
    FORBID,
    MISSING,
    Context,
    Fail,
    as_count,
    as_number,
    failed,
    jsonable,
    join,
    lookup,
    need,
    passed,
    show,
    show_fraction,
    skipped,
    type_name,
)
from bench_gate.models import Finding, exact_number

Number = int | float


# --- thresholds --------------------------------------------------------------------------


FRACTION_PREFIXES = ("recall@", "hit@", "ndcg@", "precision@", "success@", "legacy_recall@")
FRACTION_NAMES = ("mrr", "pass_rate", "qa_accuracy")
"""Metrics whose every value is a fraction in [0, 1]."""


def refuse_limits_off_scale(**limits: dict[str, Any] | None) -> None:
    """A ValueError for a limit on a fraction metric outside [0, 1], by the parameter it is
    given in (``min``, ``extra_min``...): a minimum below 0 or a maximum above 1 can never fail,
    so a mistyped ``--min-metric recall@5=-0.9`` would quietly gate nothing; one above 1 (below
    0) can never be met. Either is a mistake in the command line or profile."""
    for given, table in limits.items():
        for name, value in (table or {}).items():
            number = exact_number(value)
            if number is None or not (name.startswith(FRACTION_PREFIXES) or name in FRACTION_NAMES):
                continue
            if not 0 <= number <= 1:
                option = {"extra_min": "--min-metric", "extra_max": "--max-metric"}.get(given, given)
                bound = "maximum" if given.endswith("max") else "minimum"
                never = "fail" if (number < 0) == (bound == "minimum") else "be met"
                raise ValueError(f"{option} {name}={show(value)}: {name} is a fraction in [0, 1], so a {bound} "
                                 f"of {show(value)} can never {never}")


@record
class ThresholdParams:
    __pydantic_config__ = FORBID
    table: str = "/overall"
    min: dict[str, Number] = field(default_factory=dict)
    max: dict[str, Number] = field(default_factory=dict)
    extra_min: dict[str, Number] | None = None
    extra_max: dict[str, Number] | None = None

    def __post_init__(self) -> None:
        refuse_limits_off_scale(min=self.min, max=self.max, extra_min=self.extra_min, extra_max=self.extra_max)


def _limits(p: ThresholdParams) -> list[tuple[str, str, Fraction, Any]]:
    mins = {**p.min, **(p.extra_min or {})}
    maxs = {**p.max, **(p.extra_max or {})}
    out = []
    for name, lim in mins.items():
        out.append((name, ">=", exact_number(lim), lim))
    for name, lim in maxs.items():
        out.append((name, "<=", exact_number(lim), lim))
    return out  # type: ignore[return-value]


def compare_table(table: Any, where: str, role: str, limits: list[tuple[str, str, Fraction, Any]],
                  label: str) -> tuple[list[Finding], list[str]]:
    problems: list[Finding] = []
    shown: list[str] = []
    for name, op, lim, raw in limits:
        ptr = join(where, name)
        value = table.get(name, MISSING)
        if value is MISSING or value is None:
            problems.append(failed(f"{label} {name} is {'missing' if value is MISSING else 'null'} "
                                   f"(threshold {op} {show(raw)})", ptr, role, None, f"{op} {show(raw)}"))
            continue
        number = exact_number(value)
        if number is None:
            problems.append(failed(f"{label} {name} must be a number, got {described(value)}",
                                   ptr, role, jsonable(value), f"{op} {show(raw)}"))
            continue
        ok = number >= lim if op == ">=" else number <= lim
        if not ok:
            words = "below the minimum" if op == ">=" else "above the maximum"
            shown_value = show_fraction(number)
            if Fraction(shown_value) == lim:  # rounded, 0.7499999 would read "0.7500 is below 0.75"
                shown_value = show(value)
            problems.append(failed(f"{label} {name} {shown_value} is {words} {show(raw)}", ptr, role,
                                   jsonable(value), f"{op} {show(raw)}"))
        else:
            shown.append(f"{name} {show_fraction(number)} {'≥' if op == '>=' else '≤'} {show(raw)}")
    return problems, shown


@kind("metric_thresholds", ThresholdParams, "minimum/maximum metric values")
def metric_thresholds(ctx: Context, p: ThresholdParams) -> Iterable[Finding]:
    """Minimum and maximum values of the metrics in one metric table (``/overall``). ``extra_min``
    and ``extra_max`` (from ``--min-metric`` / ``--max-metric``) add or override limits.
    A missing metric fails. Comparison is exact: a tie with a minimum passes, ``0.7499`` does
    not pass ``0.75``. A limit on a fraction metric (``recall@k``, ``hit@k``, ``ndcg@k``,
    ``precision@k``, ``success@k``, ``legacy_recall@k``, ``mrr``, ``pass_rate``, ``qa_accuracy``)
    outside [0, 1] is refused when the profile binds (exit 2): it could never fail, or never be met.
    """
    table, role, ptr = need(ctx, p.table)
    if not isinstance(table, dict):
        raise Fail(f"{ptr} must be an object of metrics, got {type_name(table)}", ptr, role)
    limits = _limits(p)
    if not limits:
        return [skipped("no thresholds configured")]
    problems, shown = compare_table(table, ptr, role, limits, ptr.lstrip("/") or "report")
    return problems or [passed(f"{ptr.lstrip('/')}: " + ", ".join(shown), ptr, role)]


@record
class SliceParams:
    __pydantic_config__ = FORBID
    summaries: list[str] = field(default_factory=lambda: ["/per_type", "/per_slice", "/per_category", "/per_task"])
    min: dict[str, Number] = field(default_factory=dict)
    max: dict[str, Number] = field(default_factory=dict)
    min_cases: int = 10
    per_type: str = "/per_type"
    cases: str = "/case_results"
    type_field: str = "question_type"
    diagnostic_counts: str = "/diagnostics/question_type_counts"

    def __post_init__(self) -> None:
        refuse_limits_off_scale(min=self.min, max=self.max)


def _type_counts(ctx: Context, p: SliceParams) -> dict[str, int] | None:
    cases, _, _ = lookup(ctx, p.cases)
    if isinstance(cases, list):
        field = p.type_field
        types = [case.get(field) for case in cases if isinstance(case, dict)]
        return dict(Counter(t for t in types if isinstance(t, str)))
    diag, role, ptr = lookup(ctx, p.diagnostic_counts)
    if isinstance(diag, dict):
        out = {}
        for name, entry in diag.items():
            raw = entry.get("cases") if isinstance(entry, dict) else MISSING
            try:
                out[name] = as_count(raw, f"{ptr}/{name}/cases", join(ptr, name, "cases"), role)
            except Fail:
                continue  # an unreadable count leaves the slice checked (fail closed)
        return out
    return None


@kind("slice_thresholds", SliceParams, "thresholds on every summary slice")
def slice_thresholds(ctx: Context, p: SliceParams) -> Iterable[Finding]:
    """The same limits on every slice of every summary table (``/per_type`` ...), except per-type
    slices with fewer than ``min_cases`` cases (counted from the cases when they are there,
    else from ``/diagnostics/question_type_counts``; a slice whose count is unknown is checked).
    """
    limits = _limits(ThresholdParams(min=p.min, max=p.max))
    counts = _type_counts(ctx, p)
    problems: list[Finding] = []
    checked, exempt = 0, []
    for summary in p.summaries:
        table, role, ptr = lookup(ctx, summary)
        if table is MISSING:
            continue
        if not isinstance(table, dict):
            problems.append(failed(f"{ptr} must be an object of slices, got {type_name(table)}", ptr, role))
            continue
        for name, metrics in table.items():
            where = join(ptr, name)
            if summary == p.per_type and counts is not None and name in counts and counts[name] < p.min_cases:
                exempt.append(f"{name} ({counts[name]} cases)")
                continue
            if not isinstance(metrics, dict):
                problems.append(failed(f"{where} must be an object of metrics, got {type_name(metrics)}", where, role))
                continue
            checked += 1
            found, _ = compare_table(metrics, where, role, limits, f"{ptr.lstrip('/')}[{name}]")
            problems.extend(found)
    if problems:
        return problems
    if checked == 0 and not exempt:
        return [failed("no summary slices to check (" + ", ".join(p.summaries) + " are all absent)")]
    note = f"; exempt (fewer than {p.min_cases} cases): {', '.join(exempt)}" if exempt else ""
    if checked == 0:
        return [passed(f"no slice has {p.min_cases} or more cases, so no slice minimum applies{note}")]
    return [passed(f"{checked} slices meet " + ", ".join(f"{n} {op} {show(r)}" for n, op, _, r in limits) + note)]


# --- regression --------------------------------------------------------------------------

HIGHER_PREFIXES = ("recall@", "hit@", "ndcg@", "precision@", "success@")
HIGHER_NAMES = ("mrr", "pass_rate", "qa_accuracy", "qa_mean_score")
LOWER_SUFFIXES = ("_ms", "_seconds", "_count", "_chars", "_tokens")
FRACTION_METRICS_NOTE = "fractions in [0, 1]"


def direction(name: str) -> str | None:
    """'higher', 'lower' or None (unknown) for a metric name."""
    if name.startswith(HIGHER_PREFIXES) or name in HIGHER_NAMES:
        return "higher"
    if name.endswith(LOWER_SUFFIXES):
        return "lower"
    return None


@record
class RegressionParams:
    __pydantic_config__ = FORBID
    candidate: str = "/overall"
    baseline: str = "baseline:/overall"
    metrics: list[str] = field(default_factory=list)
    default_metrics: list[str] = field(default_factory=list)
    max_regression: dict[str, Number] | None = None

    def __post_init__(self) -> None:
        # an allowance is the most a metric may lose; a negative one would demand an improvement
        # and is a mistake in the command line or profile, never something to evaluate
        for name, value in (self.max_regression or {}).items():
            number = exact_number(value)
            if number is not None and number < 0:
                raise ValueError(f"--max-regression {name}={show(value)}: an allowed regression is never negative "
                                 "(0 allows none)")


@kind("regression", RegressionParams, "no regression against a baseline")
def regression(ctx: Context, p: RegressionParams) -> Iterable[Finding]:
    """Candidate metrics against a baseline document: higher-is-better metrics may not drop, and
    lower-is-better metrics may not rise, by more than ``max_regression`` (default 0). A
    regression of exactly the allowed amount passes. An allowance of 1 or more on a
    higher-is-better fraction fails: it would let any drop pass (a percentage point written as 1). A metric whose direction is unknown fails.
    """
    cand, crole, cptr = need(ctx, p.candidate)
    base, brole, bptr = need(ctx, p.baseline)
    for obj, r, ptr in ((cand, crole, cptr), (base, brole, bptr)):
        if not isinstance(obj, dict):
            raise Fail(f"{r}:{ptr} must be an object of metrics, got {type_name(obj)}", ptr, r)
    metrics = p.metrics or p.default_metrics
    if not metrics:
        raise Fail("no metrics to compare (give --baseline-metric NAME)")
    allowed_map = p.max_regression or {}
    out: list[Finding] = []
    for name in allowed_map:
        if name not in metrics:
            out.append(failed(f"--max-regression {name} is given but {name} is not compared "
                              f"(compared: {', '.join(metrics)})"))
    shown = []
    for name in metrics:
        way = direction(name)
        cp, bp = join(cptr, name), join(bptr, name)
        if way is None:
            out.append(failed(f"{name}: unknown direction (is higher or lower better?); name it with a "
                              "known prefix or suffix", cp, crole))
            continue
        allowed = exact_number(allowed_map.get(name, 0))
        if allowed is None or allowed < 0:
            out.append(failed(f"--max-regression {name} must be a number >= 0", cp, crole))
            continue
        if way == "higher" and allowed >= 1:
            # a fraction in [0, 1] cannot drop by 1 or more: such an allowance lets any drop pass
            out.append(failed(f"--max-regression {name}={show_fraction(allowed)} allows any drop of a fraction in "
                              "[0, 1] (percentage points? one point is 0.01)", cp, crole))
            continue
        try:
            c_raw, b_raw = cand.get(name, MISSING), base.get(name, MISSING)
            c = as_number(c_raw, f"{crole}:{cp}", cp, crole)
            b = as_number(b_raw, f"{brole}:{bp}", bp, brole)
        except Fail as exc:
            out.append(exc.finding)
            continue
        if way == "higher" and (c > 1 or b > 1 or c < 0 or b < 0):
            out.append(failed(f"{name} must be a fraction in [0, 1]: candidate {show_fraction(c)}, baseline "
                              f"{show_fraction(b)} (a percent mixed with a fraction?)", cp, crole))
            continue
        drop = (b - c) if way == "higher" else (c - b)
        if drop > allowed:
            verb = "dropped" if way == "higher" else "rose"
            shown_drop = show_fraction(drop)
            if Fraction(shown_drop) == allowed:  # rounded, 0.10000001 would read "0.1000 (allowed 0.1)"
                shown_drop = format(Decimal(drop.numerator) / Decimal(drop.denominator), "f")
            out.append(failed(f"{name} {verb} from baseline {show(b_raw)} to {show(c_raw)}, a regression "
                              f"of {shown_drop} (allowed {show_fraction(allowed)})", cp, crole,
                              jsonable(c), f"{'>=' if way == 'higher' else '<='} {show_fraction(b - allowed if way == 'higher' else b + allowed)}"))
        else:
            shown.append(f"{name} {show(c_raw)} vs baseline {show(b_raw)}: regression {show_fraction(max(drop, Fraction(0)))}"
                         f" (allowed {show_fraction(allowed)})")
    return out or [passed("; ".join(shown), cptr, crole)]
