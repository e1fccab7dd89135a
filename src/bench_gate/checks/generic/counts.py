"""Counts that agree: integer counts and list lengths equal to each other (``counts_agree``), a
total equal to the sum of its parts (``sum_equals``), and claimed counts and a ratio recomputed
from the cases (``case_tally``). Counts are exact integers; a ratio is judged by the rule of
``bench-gate kinds aggregate``.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from bench_gate.records import field, record
from bench_gate.checks.base import (
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
    resolve,
    show,
    show_fraction,
    skipped,
    type_name,
)
from bench_gate.models import Finding, exact_number
from bench_gate.text import rounding

Number = int | float


# --- counts ------------------------------------------------------------------------------


def lookup_first(ctx: Context, refs: str) -> tuple[Any, str, str]:
    """The first present value among ``a|b`` alternatives (the first ref when none is)."""
    options = refs.split("|")
    for i, ref in enumerate(options):
        if i and not ref.startswith("/") and ":" not in ref:
            raise Fail(f"alternative {ref!r} is not a ref")
        found = lookup(ctx, ref)
        if found[0] is not MISSING:
            return found
    return lookup(ctx, options[0])


@record
class CountsParams:
    __pydantic_config__ = FORBID
    values: list[str] = field(default_factory=list)
    lengths: list[str] = field(default_factory=list)
    optional: list[str] = field(default_factory=list)
    equals: int | None = None


@kind("counts_agree", CountsParams, "integer counts and lengths agree")
def counts_agree(ctx: Context, p: CountsParams) -> Iterable[Finding]:
    """Exact integer counts (and list lengths) agree with each other and with ``equals``."""
    found: list[tuple[str, int, str, str]] = []
    for ref in p.values:
        value, role, ptr = lookup_first(ctx, ref)
        if value is MISSING and ref in p.optional:
            continue
        if value is MISSING or value is None:
            raise Fail(f"{ptr} is {'missing' if value is MISSING else 'null'}", ptr, role, None, "an integer count")
        found.append((ptr, as_count(value, ptr, ptr, role), role, ptr))
    for ref in p.lengths:
        value, role, ptr = lookup(ctx, ref)
        if value is MISSING and ref in p.optional:
            continue
        if not isinstance(value, list):
            raise Fail(f"{ptr} must be a list, got {type_name(value)}", ptr, role, None, "a list")
        found.append((f"len({ptr})", len(value), role, ptr))
    if not found:
        return [skipped("no counts present")]
    described = ", ".join(f"{name} = {n}" for name, n, _, _ in found)
    if p.equals is not None:
        bad = [(name, n, r, ptr) for name, n, r, ptr in found if n != p.equals]
        if bad:
            name, n, r, ptr = bad[0]
            return [failed(f"{name} is {n}, expected {p.equals} ({described})", ptr, r, n, p.equals)]
    if len({n for _, n, _, _ in found}) > 1:
        name, n, r, ptr = found[-1]
        return [failed(f"counts disagree: {described}", ptr, r, n, found[0][1])]
    return [passed(f"counts agree: {described}")]


@record
class SumParams:
    __pydantic_config__ = FORBID
    total: str
    parts: list[str]
    tolerance: Number = 0


@kind("sum_equals", SumParams, "a total equals the sum of its parts")
def sum_equals(ctx: Context, p: SumParams) -> Iterable[Finding]:
    """``total`` equals the sum of ``parts`` (exactly, or within ``tolerance``)."""
    value, role, ptr = need(ctx, p.total)
    total = as_number(value, ptr, ptr, role)
    acc = Fraction(0)
    names = []
    for ref in p.parts:
        v, r, pp = need(ctx, ref)
        acc += as_number(v, pp, pp, r)
        names.append(pp)
    tol = exact_number(p.tolerance) or Fraction(0)
    if abs(total - acc) > tol:
        return [failed(f"{ptr} is {show(value)} but {' + '.join(names)} = {show_fraction(acc, 6)}", ptr, role,
                       jsonable(value), jsonable(acc))]
    return [passed(f"{ptr} {show(value)} = {' + '.join(names)}", ptr, role)]


@record
class TallyParams:
    __pydantic_config__ = FORBID
    list: str
    flag: str
    eligible: str | None = None
    claimed_count: str | None = None
    claimed_total: str | None = None
    claimed_ratio: str | None = None
    tolerance: Number = 1e-9


@kind("case_tally", TallyParams, "claimed counts and ratio recomputed from cases")
def case_tally(ctx: Context, p: TallyParams) -> Iterable[Finding]:
    """Counts items of a list whose boolean ``flag`` is true (among items whose ``eligible`` flag
    is true) and compares the count, the eligible total and their ratio with the claimed values:
    counts exactly; the ratio within ``tolerance`` (default 1e-9) or by the rule of
    ``bench-gate kinds aggregate`` (its double, or rounded to the decimals it is written with,
    at least 3; 0 and 1 are never reached by rounding).
    """
    items, role, ptr = need(ctx, p.list)
    if not isinstance(items, list) or not items:
        raise Fail(f"{ptr} must be a non-empty list, got {type_name(items)}", ptr, role)
    problems: list[Finding] = []
    count = total = 0
    for i, item in enumerate(items):
        where = join(ptr, i)
        if p.eligible is not None:
            ok = resolve(item, p.eligible)
            if not isinstance(ok, bool):
                problems.append(failed(f"{where}{p.eligible} must be true or false, got {show(ok)}",
                                       where + p.eligible, role, jsonable(ok), "a boolean"))
                continue
            if not ok:
                continue
        flag = resolve(item, p.flag)
        if not isinstance(flag, bool):
            problems.append(failed(f"{where}{p.flag} must be true or false, got {show(flag)}", where + p.flag, role,
                                   jsonable(flag), "a boolean"))
            continue
        total += 1
        count += flag
    if problems:
        return problems
    out: list[Finding] = []
    how = ""
    for ref, actual, what in ((p.claimed_count, count, "counted"), (p.claimed_total, total, "evaluated")):
        if ref is None:
            continue
        v, r, pp = need(ctx, ref)
        claimed = as_count(v, pp, pp, r)
        if claimed != actual:
            out.append(failed(f"{pp} claims {claimed}, but {actual} cases are {what} in {ptr}", pp, r, claimed, actual))
    if p.claimed_ratio is not None:
        v, r, pp = need(ctx, p.claimed_ratio)
        claimed_ratio = as_number(v, pp, pp, r)
        if total == 0:
            out.append(failed(f"{pp} is {show(v)} but no case was evaluated", pp, r, jsonable(v), None))
        else:
            ratio = Fraction(count, total)
            judgement = rounding.judge(v, ratio, tolerance=exact_number(p.tolerance) or 0)
            how = judgement.how_text() if judgement is not None and judgement.ok else ""
            if judgement is None or not judgement.ok:
                why = judgement.why() if judgement is not None else ""
                out.append(failed(f"{pp} claims {show(v)}, but {count}/{total} = {show_fraction(ratio)} from {ptr}"
                                  f"{': ' + why if why else ''}", pp, r, jsonable(v), jsonable(ratio)))
    if out:
        return out
    how = f" (the ratio {how})" if p.claimed_ratio is not None and how else ""
    return [passed(f"{count} of {total} evaluated cases are true; the claims match{how}", ptr, role)]
