"""``aggregate``: a summary number recomputed from the rows it summarises."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field as default_list
from fractions import Fraction
from typing import Any, Literal

from bench_gate.checks.base import (
    kind,
    FORBID,
    MISSING,
    Context,
    Fail,
    described,
    failed,
    jsonable,
    lookup,
    passed,
    show,
    type_name,
)
from bench_gate.checks.recompute.rows import (
    Row,
    Rows,
    RowTest,
    Unit,
    check_pointer,
    check_source,
    claim_number,
    describe_where,
    field_value,
    group_ref,
    group_template,
    matches,
    precision,
    read_rows,
    selected,
    show_value,
    types_by_id,
)
from bench_gate.models import Finding, exact_number

Number = int | float
MAX_SHOWN = 3


@dataclass(frozen=True)
class AggregateParams:
    __pydantic_config__ = FORBID
    rows: str
    op: Literal["count", "sum", "mean", "ratio"]
    field: str | None = None
    per: str | None = None
    values: Literal["number", "boolean"] = "number"
    id: str | None = None
    where: list[RowTest] = default_list(default_factory=list)
    group_by: str | None = None
    group_from: str | None = None
    groups: list[str] | None = None
    groups_at: str | None = None
    claim: str | None = None
    claim_value: Number | None = None
    group_claim: str | None = None
    combine: Literal["rows", "groups"] = "rows"
    places: int | None = None
    tolerance: Number = 0
    unit: Literal["fraction", "percent"] = "fraction"
    min_rows: int = 1
    one_row: bool = False

    def __post_init__(self) -> None:
        check_source(self.rows)
        for name in ("field", "per", "id", "group_by"):
            check_pointer(name, getattr(self, name))
        if (self.op == "count") != (self.field is None):
            raise ValueError("count takes no field; sum, mean and ratio need one")
        if (self.op == "ratio") != (self.per is not None):
            raise ValueError("per (the denominator field) goes with ratio, and ratio needs it")
        if self.claim is None and self.claim_value is None and self.group_claim is None:
            raise ValueError("nothing to compare: give claim, claim_value or group_claim")
        if self.claim is not None and self.claim_value is not None:
            raise ValueError("give claim or claim_value, not both")
        if self.group_by is not None and self.group_from is not None:
            raise ValueError("give group_by or group_from, not both")
        grouped = self.group_by is not None or self.group_from is not None
        if not grouped and (self.group_claim or self.groups is not None or self.groups_at
                            or self.combine == "groups"):
            raise ValueError("group_claim, groups, groups_at and combine: groups need group_by or group_from")
        if self.group_from is not None and self.id is None:
            raise ValueError("group_from looks each row's id up in the dataset: give id")
        group_template("group_claim", self.group_claim)
        if self.places is not None and not 0 <= self.places <= 12:
            raise ValueError("places must be between 0 and 12")
        if self.tolerance < 0:
            raise ValueError("tolerance must be >= 0")
        if self.min_rows < 1:
            raise ValueError("min_rows must be at least 1")


@dataclass
class Tally:
    """Running exact totals of one set of rows."""

    rows: int = 0
    total: Fraction = Fraction(0)
    per: Fraction = Fraction(0)
    members: list[Row] = default_list(default_factory=list)

    def value(self, op: str) -> Fraction | None:
        """The recomputed value, or None when it is undefined (no rows, zero denominator)."""
        if op == "count":
            return Fraction(self.rows)
        if op == "sum":
            return self.total
        if op == "mean":
            return self.total / self.rows if self.rows else None
        return self.total / self.per if self.per else None

    def formula(self, p: AggregateParams, noun: str = "rows") -> str:
        """How the value came about, for messages: ``13 rows``, ``36/50 rows``, ``468/470``."""
        counted = f"{self.rows} {noun if self.rows != 1 else noun.rstrip('s')}"
        if p.op in ("count", "sum"):
            return counted
        if p.op == "mean":
            return f"{show_value(self.total)}/{counted}"
        return f"{show_value(self.total)}/{show_value(self.per)}"


def _number(rows: Rows, row: Row, pointer: str, kind: str) -> Fraction:
    value = field_value(rows, row, pointer)
    if kind == "boolean":
        if not isinstance(value, bool):
            raise Fail(f"{rows.role} {row.label()}: {pointer} must be true or false, got {described(value)}",
                       rows.field_pointer(row, pointer), rows.role, jsonable(value), "a boolean")
        return Fraction(int(value))
    number = exact_number(value)
    if number is None:
        raise Fail(f"{rows.role} {row.label()}: {pointer} must be a number, got {described(value)}",
                   rows.field_pointer(row, pointer), rows.role,
                   None if isinstance(value, (dict, list)) else value, "a number")
    return number


def _group(ctx: Context, rows: Rows, row: Row, p: AggregateParams, types: dict[str, str | None] | None) -> str:
    if types is not None:
        assert row.ident is not None
        if row.ident not in types:
            raise Fail(f"{rows.role} {row.label()}: id {row.ident!r} is not in dataset '{p.group_from}', so its "
                       "group is unknown", rows.field_pointer(row, p.id or ""), rows.role, row.ident,
                       "an id of the dataset")
        found = types[row.ident]
        if found is None:
            raise Fail(f"dataset '{p.group_from}' has no question_type for {row.ident!r}", document=str(p.group_from))
        return found
    assert p.group_by is not None
    value = field_value(rows, row, p.group_by)
    if not isinstance(value, str) or not value:
        raise Fail(f"{rows.role} {row.label()}: the group {p.group_by} must be a non-empty string, got "
                   f"{described(value)}", rows.field_pointer(row, p.group_by), rows.role, None, "a string")
    return value


def _describe(p: AggregateParams) -> str:
    what = {"count": "count of rows", "sum": f"sum of {p.field}", "mean": f"mean of {p.field}",
            "ratio": f"{p.field} / {p.per}"}[p.op]
    return what + (f" where {describe_where(p.where)}" if p.where else "")


def _compare(ctx: Context, ref: str | None, literal: Number | None, tally: Tally, value: Fraction | None,
             p: AggregateParams, label: str, tol: Fraction, noun: str) -> Finding | None:
    """None when the claim states the value; else a failing finding at the claim."""
    if ref is not None:
        raw, role, pointer = lookup(ctx, ref)
        name = f"{role}:{pointer}"
    else:
        raw, role, pointer, name = literal, "report", "", "the claimed value"
    try:
        claim_number(raw, name, pointer, role)
    except Fail as exc:
        return exc.finding
    unit: Unit = p.unit
    if value is None:
        return failed(f"{name} claims {show(raw)}, but {label} is undefined ({tally.formula(p, noun)})", pointer, role,
                      jsonable(raw), None)
    if matches(raw, value, p.places, tol, unit):
        return None
    shown = show_value(value, unit)
    how = tally.formula(p, noun) if not label.endswith(" groups") else "the mean of the group values"
    return failed(f"{name} claims {show(raw)}{'%' if unit == 'percent' else ''}, recomputed {label} is {shown} "
                  f"({how}){precision(p.places, tol, unit)}", pointer, role, jsonable(raw),
                  jsonable(value * (100 if unit == "percent" else 1)))


@kind("aggregate", AggregateParams, "count/sum/mean/ratio of a row field, filtered and grouped, compared exactly with the claims")
def aggregate(ctx: Context, p: AggregateParams) -> Iterable[Finding]:
    """``aggregate``: a summary number recomputed from the rows it summarises.

    A summary file says "40 questions had the answer first" or "accuracy 0.72"; the rows say which
    questions. This kind recomputes the number from the rows and compares it exactly with the
    claim, overall and for each group, so that a format bench-gate has never seen can be gated
    with a few lines of YAML. Example (``summary.json`` is the report, ``rows.ndjson`` the
    ``rows`` document)::

        check: aggregate
        with:
          rows: rows                       # a document role, /pointer or ROLE:/pointer (see below)
          id: /qid                         # each row's id: present, unique
          op: sum                          # count | sum | mean | ratio
          field: /search_score/any@1       # the value summed
          values: boolean                  # number (default) | boolean (true is 1, false is 0)
          claim: /search/any@1             # the claimed overall value
          group_by: /type                  # optional: one value per group of rows ...
          group_claim: "/by_type/{group}/search any@1"   # ... claimed here for each group
          groups_at: /by_type              # optional: exactly these groups have rows

    Operations, over the rows that pass ``where``:

    ``count``
        the number of rows;
    ``sum``
        the sum of ``field``;
    ``mean``
        the sum of ``field`` divided by the number of rows;
    ``ratio``
        the sum of ``field`` divided by the sum of ``per`` (a weighted rate).

    ``values: number`` (the default) takes exact JSON numbers (a boolean or a string fails the
    row); ``values: boolean`` takes ``true``/``false`` only (a number fails the row). A missing or
    null field fails the rule and names the row. Sums are exact fractions, never floats.

    Claims: ``claim`` is a ref to the claimed overall value (``claim_value`` a literal one, such as
    a number quoted from a README through a profile parameter); ``group_claim`` is a ref with one
    ``{group}`` where the group's name goes (escaped as a pointer token). With ``combine: groups``
    the overall value is the unweighted mean of the group values (a task-averaged accuracy);
    ``combine: rows`` (the default) computes it over all selected rows. ``places``,
    ``tolerance`` and ``unit`` say how a claim is written (see :mod:`bench_gate.checks.recompute.rows`).

    Groups: ``group_by`` is a row field (a non-empty string), or ``group_from`` names a dataset
    document whose ``question_type`` of the row's id is the group (the LongMemEval datasets carry
    the types the evaluator's output leaves out). ``groups`` lists the groups that must all have
    rows, and ``groups_at`` a ref to an object whose keys must be exactly the groups found: a group
    claimed with no row, or rows with no group claim, both fail. An empty group fails (its mean
    is undefined).

    A failure names the first differing groups and rows; a pass states the recomputed values.
    """
    rows = read_rows(ctx, p.rows, p.id, p.min_rows, p.one_row)
    types = dict(types_by_id(ctx.doc(p.group_from))) if p.group_from is not None else None
    grouped = p.group_by is not None or types is not None
    overall = Tally()
    by_group: dict[str, Tally] = {}
    for row in rows.items:
        if p.where and not selected(rows, row, p.where):
            continue
        amount = _number(rows, row, p.field, p.values) if p.field is not None else Fraction(0)
        denominator = _number(rows, row, p.per, "number") if p.per is not None else Fraction(0)
        tallies = [overall]
        if grouped:
            tallies.append(by_group.setdefault(_group(ctx, rows, row, p, types), Tally()))
        for tally in tallies:
            tally.rows += 1
            tally.total += amount
            tally.per += denominator
            tally.members.append(row)
    if overall.rows == 0 and p.op in ("mean", "ratio"):
        raise Fail(f"no {rows.noun} of {rows.role} {'match ' + describe_where(p.where) if p.where else 'to summarise'}: "
                   "a summary of nothing proves nothing", rows.pointer, rows.role, 0, ">= 1 row")
    tol = exact_number(p.tolerance) or Fraction(0)
    out: list[Finding] = []
    # the group claims first: the message names the first differing groups, then the total
    if grouped:
        out.extend(_group_findings(ctx, p, rows, by_group, tol))
    value = overall.value(p.op)
    if p.combine == "groups":
        values = [t.value(p.op) for t in by_group.values()]
        value = None if not values or any(v is None for v in values) else \
            sum(values, Fraction(0)) / len(values)  # type: ignore[arg-type]
    if p.claim is not None or p.claim_value is not None:
        label = _describe(p) + (f" averaged over {len(by_group)} groups" if p.combine == "groups" else "")
        problem = _compare(ctx, p.claim, p.claim_value, overall, value, p, label, tol, rows.noun)
        if problem is not None:
            out.append(problem)
    if out:
        return out
    shown = show_value(value, p.unit) if value is not None else "undefined"
    if p.claim is not None:
        claimed = f"as {p.claim} claims{precision(p.places, tol, p.unit)}"
    elif p.claim_value is not None:
        claimed = f"as claimed: {show(p.claim_value)}{'%' if p.unit == 'percent' else ''}{precision(p.places, tol, p.unit)}"
    else:
        # only group claims: state each group's value
        listed = ", ".join(f"{name} {show_value(t.value(p.op), p.unit) if t.value(p.op) is not None else 'undefined'}"
                           f"{' (' + t.formula(p, rows.noun) + ')' if p.op in ('mean', 'ratio') else ''}"
                           for name, t in sorted(by_group.items()))
        return [passed(f"{_describe(p)} of each of {len(by_group)} groups is as {p.group_claim} claims"
                       f"{precision(p.places, tol, p.unit)}: {listed}", rows.pointer, rows.role)]
    if p.one_row:
        source = f"from {rows.items[0].where}"
    elif p.where:  # how many rows the filter kept, of how many
        source = f"over {overall.rows} of the {len(rows.items)} {rows.noun} of '{rows.role}'"
    else:
        source = f"over {overall.rows} {rows.noun} of '{rows.role}'"
    if p.combine == "groups":
        exact = f" (the mean of {len(by_group)} group values)"
    else:
        exact = f" ({overall.formula(p, rows.noun)})" if p.op in ("mean", "ratio") else ""
    groups = f"; {len(by_group)} groups agree" if p.group_claim else ""
    return [passed(f"{_describe(p)} is {shown}{exact} {source}, {claimed}{groups}", rows.pointer, rows.role,
                   jsonable(value) if value is not None else None)]


def _group_findings(ctx: Context, p: AggregateParams, rows: Rows, by_group: dict[str, Tally],
                    tol: Fraction) -> list[Finding]:
    out: list[Finding] = []
    expected: list[str] = list(p.groups or [])
    if p.groups_at is not None:
        obj, role, pointer = lookup(ctx, p.groups_at)
        if not isinstance(obj, dict):
            out.append(failed(f"{role}:{pointer} must be an object of groups, got {type_name(obj) if obj is not MISSING else 'missing'}",
                              pointer, role, None, "an object"))
        else:
            expected += [k for k in obj if k not in expected]
            for name in sorted(set(by_group) - set(obj)):
                out.append(failed(f"{by_group[name].rows} {rows.noun} of group {name!r} have no entry in "
                                  f"{role}:{pointer} (first: {by_group[name].members[0].label()})", pointer, role,
                                  None, name))
    for name in expected:
        if name not in by_group:
            ref = group_ref(p.group_claim, name) if p.group_claim else p.groups_at or ""
            role, _, pointer = ref.rpartition(":") if ":" in ref else ("report", "", ref)
            out.append(failed(f"group {name!r} has no {rows.noun} in {rows.role}: its summary is of rows that "
                              "are not there (a different subset?)", pointer, role or "report", None, ">= 1 row"))
    if p.group_claim is not None:
        for name in sorted(by_group):
            tally = by_group[name]
            label = f"{_describe(p)} for group {name!r}"
            problem = _compare(ctx, group_ref(p.group_claim, name), None, tally, tally.value(p.op), p, label, tol,
                               rows.noun)
            if problem is not None:
                rows_shown = ", ".join(r.label() for r in tally.members[:MAX_SHOWN])
                more = "…" if len(tally.members) > MAX_SHOWN else ""
                out.append(Finding("fail", f"{problem.message}; rows {rows_shown}{more}", problem.document,
                                   problem.pointer, problem.actual, problem.expected))
    return out
