"""``aggregate``: a summary number recomputed from the rows it summarises."""

from __future__ import annotations

import re
from collections.abc import Iterable
from fractions import Fraction
from typing import Any, Literal

from bench_gate.records import field as default_list, record
from bench_gate.checks.base import (
    FORBID,
    MISSING,
    Context,
    Fail,
    described,
    escape,
    failed,
    jsonable,
    lookup,
    passed,
    show,
    skipped,
    type_name,
    kind,
)
from bench_gate.checks.recompute.rows import (
    Row,
    Rows,
    RowTest,
    Unit,
    check_places,
    check_pointer,
    check_source,
    claim_number,
    describe_where,
    field_value,
    group_ref,
    group_template,
    judged,
    matches,
    read_rows,
    selected,
    show_value,
    types_by_id,
)
from bench_gate.models import Finding, exact_number
from bench_gate.text import rounding
from bench_gate.text.wording import plural_of

Number = int | float
MAX_SHOWN = 3


@record
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
    min_places: int | None = None
    tolerance: Number = 0
    unit: Literal["fraction", "percent"] = "fraction"
    min_rows: int = 1
    one_row: bool = False
    group_names: dict[str, str] = default_list(default_factory=dict)
    names_from: str = "group_names"
    group_noun: str = "group"
    claims: dict[str, Number] = default_list(default_factory=dict)
    claim_key: str | None = None
    group_claim_key: str | None = None
    known_claims: list[str] = default_list(default_factory=list)
    label: str | None = None

    def __post_init__(self) -> None:
        check_source(self.rows)
        for name in ("field", "per", "id", "group_by"):
            check_pointer(name, getattr(self, name))
        if (self.op == "count") != (self.field is None):
            raise ValueError("count takes no field; sum, mean and ratio need one")
        if (self.op == "ratio") != (self.per is not None):
            raise ValueError("per (the denominator field) goes with ratio, and ratio needs it")
        if self.claim is None and self.claim_value is None and self.group_claim is None and \
                self.claim_key is None and self.group_claim_key is None:
            raise ValueError("nothing to compare: give claim, claim_value, group_claim, claim_key or group_claim_key")
        if self.claims and self.claim_key is None and self.group_claim_key is None:
            raise ValueError("claims are read by name: give claim_key (the overall value's name) or group_claim_key")
        if self.known_claims and self.claim_key is None and self.group_claim_key is None:
            raise ValueError("known_claims checks the names of claims: give claim_key or group_claim_key")
        if self.claim is not None and self.claim_value is not None:
            raise ValueError("give claim or claim_value, not both")
        if self.group_by is not None and self.group_from is not None:
            raise ValueError("give group_by or group_from, not both")
        grouped = self.group_by is not None or self.group_from is not None
        if not grouped and (self.group_claim or self.groups is not None or self.groups_at
                            or self.combine == "groups" or self.group_claim_key or self.group_names):
            raise ValueError("group_claim, group_claim_key, group_names, groups, groups_at and combine: groups "
                             "need group_by or group_from")
        if self.group_from is not None and self.id is None:
            raise ValueError("group_from looks each row's id up in the dataset: give id")
        group_template("group_claim", self.group_claim)
        group_template("group_claim_key", self.group_claim_key)
        for template in self.known_claims:
            if template.count("{group}") > 1:
                raise ValueError(f"known_claims {template!r} may contain {{group}} at most once")
        if self.label is not None and not self.label.strip():
            raise ValueError("label must name the rows (it starts every message)")
        check_places(self.places, self.min_places)
        if self.tolerance < 0:
            raise ValueError("tolerance must be >= 0")
        if self.min_rows < 0:
            raise ValueError("min_rows must be 0 or more (0 accepts a source with no rows)")


@record(frozen=False)
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
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)  # a category written 4 is the group written "4"
    if not isinstance(value, str) or not value:
        raise Fail(f"{rows.role} {row.label()}: the group {p.group_by} must be a non-empty string or an integer, "
                   f"got {described(value)}", rows.field_pointer(row, p.group_by), rows.role, None, "a string")
    return value


# --- names of groups, claims by name, the label --------------------------------------------


def _loose(name: str) -> str:
    """A group name as a reader compares it: ``Single-Hop``, ``single hop`` and ``single_hop`` are one."""
    return "".join(ch for ch in name.casefold() if ch.isalnum())


@record
class Names:
    """The names a claim may give a group (``group_names``: name -> group)."""

    names: dict[str, str]

    def group_of(self, key: str, groups: Iterable[str]) -> tuple[str | None, str | None]:
        """(group, name used) for a claimed key: a group as written, else a name of one, else (None, None)."""
        if key in groups:
            return key, None
        for name, group in self.names.items():
            if _loose(name) == _loose(key):
                return group, key
        return None, None

    def called(self, group: str) -> list[str]:
        """The names that stand for a group."""
        return [name for name, g in self.names.items() if g == group]

    def ambiguity(self, groups: Iterable[str], noun: str = "group") -> str | None:
        """Why a claim under some name could stand for two groups, or None: two names a reader reads
        as one (``singlehop`` and ``single-hop``) given two groups, a name that is another group's id
        (``4`` named as group 1: a claim ``4`` is group 4), or a name with no letter or digit."""
        seen: dict[str, tuple[str, str]] = {}
        ids = {_loose(g): g for g in groups}
        for name, group in self.names.items():
            key = _loose(name)
            if not key:
                return f"the name {name!r} has no letter or digit"
            if key in ids and ids[key] != group:
                return f"{name!r} names {noun} {group!r}, but {ids[key]!r} is itself a {noun} of the rows"
            if key in seen and seen[key][1] != group:
                first, other = seen[key]
                return (f"{first!r} and {name!r} are one name as a reader reads it (case, spaces and dashes "
                        f"aside), given to two {plural_of(noun)}, {other!r} and {group!r}")
            seen.setdefault(key, (name, group))
        return None


_NUMERIC = re.compile(r"^(0|[1-9][0-9]{0,17})$")


def numeric_id(group: str) -> int | None:
    """A group id written as a plain decimal number (``4``, not ``04`` or a run of 5,000 digits), as a
    number; None for any other id, which is a name."""
    return int(group) if _NUMERIC.match(group) else None


def _span(ids: list[str]) -> str:
    """``1-4`` for 1, 2, 3, 4; ``1-2 and 4``; ``1, 3 and 5``; names as they are: how a label lists groups."""
    numbers = sorted(n for g in ids if (n := numeric_id(g)) is not None)
    words = sorted(g for g in ids if numeric_id(g) is None)
    parts: list[str] = []
    i = 0
    while i < len(numbers):
        j = i
        while j + 1 < len(numbers) and numbers[j + 1] == numbers[j] + 1:
            j += 1
        parts.append(f"{numbers[i]}-{numbers[j]}" if j > i else str(numbers[i]))
        i = j + 1
    parts += words
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def render_label(template: str, groups: Iterable[str], n: int) -> str:
    """A label with ``{groups}`` (``1-4``) and ``{n}`` (``1,540``) filled in."""
    return template.replace("{groups}", _span(list(groups))).replace("{n}", f"{n:,}")


def _label(ctx: Context, rows: Rows, p: AggregateParams, types: dict[str, str | None] | None) -> str:
    """The rule's label over the rows it reads (a row whose filter or group cannot be read is left out
    here; the rule itself fails on it)."""
    assert p.label is not None
    groups: set[str] = set()
    n = 0
    for row in rows.items:
        try:
            if p.where and not selected(rows, row, p.where):
                continue
            n += 1
            if p.group_by is not None or types is not None:
                groups.add(_group(ctx, rows, row, p, types))
        except Fail:
            continue
    return render_label(p.label, groups, n)


def _labelled(label: str, finding: Finding) -> Finding:
    return Finding(finding.status, f"{label}: {finding.message}", finding.document, finding.pointer,
                   finding.actual, finding.expected)


def _match_key(template: str, key: str) -> str | None:
    """The group part of a claimed name under a ``{group}`` template (``j:4`` under ``j:{group}``), or
    ``""`` when the template has none and equals the key; None when it does not fit."""
    if "{group}" not in template:
        return "" if key == template else None
    head, tail = template.split("{group}")
    if len(key) > len(head) + len(tail) and key.startswith(head) and key.endswith(tail):
        return key[len(head):len(key) - len(tail)]
    return None


def _describe(p: AggregateParams) -> str:
    what = {"count": "count of rows", "sum": f"sum of {p.field}", "mean": f"mean of {p.field}",
            "ratio": f"{p.field} / {p.per}"}[p.op]
    return what + (f" where {describe_where(p.where)}" if p.where else "")


def _compare(ctx: Context | None, ref: str | None, literal: Number | None, tally: Tally, value: Fraction | None,
             p: AggregateParams, label: str, tol: Fraction, noun: str, name: str | None = None) -> Finding | None:
    """None when the claim states the value; else a failing finding at the claim."""
    if ref is not None:
        assert ctx is not None
        raw, role, pointer = lookup(ctx, ref)
        name = f"{role}:{pointer}"
    else:
        raw, role, pointer, name = literal, "report", "", name or "the claimed value"
    try:
        claim_number(raw, name, pointer, role)
    except Fail as exc:
        return exc.finding
    unit: Unit = p.unit
    if value is None:
        return failed(f"{name} claims {show(raw)}, but {label} is undefined ({tally.formula(p, noun)})", pointer, role,
                      jsonable(raw), None)
    judgement = _judged(raw, value, p, tol)
    if judgement is not None and judgement.ok:
        return None
    shown = show_value(value, unit)
    how = tally.formula(p, noun) if not label.endswith(" groups") else "the mean of the group values"
    sign = "%" if unit == "percent" else ""
    why = judgement.why(sign) if judgement is not None else ""  # the rounding rule's words, when they explain
    return failed(f"{name} claims {show(raw)}{sign}, recomputed {label} is {shown} ({how})"
                  f"{': ' + why if why else _declared(p)}", pointer, role, jsonable(raw),
                  jsonable(value * (100 if unit == "percent" else 1)))


def _judged(raw: Any, value: Fraction, p: AggregateParams, tol: Fraction) -> rounding.Judgement | None:
    """The claim against the value: a mean or a ratio is a rate (boundaries 0 and 1), a count or a sum is not."""
    return judged(raw, value, p.places, tol, p.unit, p.min_places, rate=p.op in ("mean", "ratio"))


def _how(raw: Any, value: Fraction | None, p: AggregateParams, tol: Fraction, formula: str) -> str:
    """How a passing claim states the value: nothing when it is the value, else the rule's own sentence."""
    judgement = _judged(raw, value, p, tol) if value is not None else None
    if judgement is None or judgement.how in ("exact", "double"):
        return ""
    return f"; {judgement.sentence(f'the exact value {formula}', '%' if p.unit == 'percent' else '')}"


def _declared(p: AggregateParams) -> str:
    """`` (rounded to 4 places)`` when the rule declares the places its producer rounds to."""
    if p.places is None:
        return ""
    what = " of a percent" if p.unit == "percent" else ""
    return f" (rounded to {p.places} place{'s' if p.places != 1 else ''}{what})"


def _naming_rows(problem: Finding, p: AggregateParams, rows: Rows, tally: Tally) -> Finding:
    """A failing overall claim of filtered rows, with the first rows the filter kept (or none)."""
    if not p.where or p.one_row:
        return problem
    if tally.members:
        shown = ", ".join(r.label() for r in tally.members[:MAX_SHOWN])
        more = "…" if len(tally.members) > MAX_SHOWN else ""
        text = f"; the {rows.noun} where {describe_where(p.where)}: {shown}{more}"
    else:
        text = f"; no {rows.noun[:-1] if rows.noun.endswith('s') else rows.noun} of '{rows.role}' matches " \
            f"{describe_where(p.where)}"
    return Finding("fail", problem.message + text, problem.document, problem.pointer, problem.actual,
                   problem.expected)


@record(frozen=False)
class Totals:
    """What the rows gave: the selected rows overall and by group."""

    rows: Rows
    overall: Tally
    by_group: dict[str, Tally]
    grouped: bool


def _tally(ctx: Context, p: AggregateParams, rows: Rows, types: dict[str, str | None] | None) -> Totals:
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
    return Totals(rows, overall, by_group, grouped)


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
    ``combine: rows`` (the default) computes it over all selected rows.

    How a claim is compared (the rule every kind that recomputes a claimed number applies): a
    claim states the recomputed value when it is

    * the exact value as written (``0.72`` for 18/25, ``40`` for a count of 40);
    * its value as a double, in any spelling that reads back as it (``0.9428571428571428`` or
      ``0.94285714285714284`` for 66/70; a producer's ``correct / n * 100`` within 2 units in the
      last place);
    * the exact value rounded to the decimals the claim is written with (either way of rounding
      a tie: half-even or half-up), when it has at least ``min_places`` decimals (default 3 for a
      fraction, 1 for a percentage): ``0.9617`` for 452/470, ``0.9428571428571429`` for 66/70;
      ``0.96`` (2 places) is not enough by default;
    * the exact value rounded to ``places`` decimals when the rule declares the places its
      producer rounds to, trailing zeros dropped or not: ``places: 4`` accepts ``0.94`` for a
      value that rounds to 0.9400;
    * within ``tolerance`` of it, when the rule declares one (inclusive).

    A claim of a boundary of a mean or a ratio (0 or 1; 0 or 100 with ``unit: percent``), or 0 of
    a count or a sum, is never reached by rounding: ``1.0000`` does not state 4699/4700. The message
    names the rule that decided: ``claimed 0.9617 (4 places); the exact value 452/470 rounds to
    0.9617 at 4 places``. ``unit: percent`` reads the claim as a percentage (97.4 is 0.974).
    Minimums are never decided on a rounded claim: a threshold rule compares the recomputed value.

    ``min_rows`` (default 1) is how many rows the source must hold before any filter; 0 accepts a
    source with no rows, such as an empty array of failures (a count or a sum of nothing is 0; a
    mean or a ratio of nothing fails; an empty JSON Lines file is refused when it is read).

    Groups: ``group_by`` is a row field (a non-empty string), or ``group_from`` names a dataset
    document whose ``question_type`` of the row's id is the group (the LongMemEval datasets carry
    the types the evaluator's output leaves out). ``groups`` lists the groups that must all have
    rows, and ``groups_at`` a ref to an object whose keys must be exactly the groups found: a group
    claimed with no row, or rows with no group claim, both fail. An empty group fails (its mean
    is undefined).

    Group values are non-empty strings or integers (a category written ``4`` is the group ``"4"``).

    Names of groups: ``group_names`` maps a name a claim may use to a group (``{single-hop: "4"}``,
    compared case, spaces and dashes aside), and ``names_from`` is how messages call that map. A
    key of ``groups_at`` (or a ``group_claim``) may then be a group or one of its names; a group
    claimed under both fails. When a claim made under a name is wrong and another group's value is
    the claimed one, the failure gives both readings (``j/single-hop claims 0.6383, recomputed ... for
    category '4' ('single-hop' in category_names) is 0.718193 ...; 0.6383 is category 1's value ...,
    which category_names calls 'multi-hop': the claim names category 1 'single-hop', another naming``):
    the claim names the groups another way than the profile does. A map in which one name, as a
    reader reads it, stands for two groups (``single-hop`` and ``singlehop``), or a name is another
    group's id, fails the rule: a claim under it could be checked against either group.

    Claims by name (``--claim NAME=VALUE``): ``claims`` is a map of claimed values, ``claim_key``
    the name of the overall value in it (``j``) and ``group_claim_key`` the name of a group's value
    with one ``{group}`` (``j/{group}``: ``j/4`` or ``j/single-hop``). A rule reads only the names
    it owns; the one rule given ``known_claims`` (every name of the profile, as templates) fails
    each name none of them reads, so a misspelt claim is never passed unchecked. A rule none of
    whose names is claimed is skipped.

    ``group_noun`` names the groups in messages (``category``). ``label`` names the rows in every
    message of the rule, a template with ``{groups}`` (the groups of the rows, ``1-4`` for a run of
    numbers) and ``{n}`` (the rows read, ``1,540``): ``LoCoMo (categories {groups}, {n} questions)``.

    A failure names the first differing groups and rows (with ``where``, the first rows the filter
    kept, or that none did); a pass states the recomputed values.

    """
    rows = read_rows(ctx, p.rows, p.id, p.min_rows, p.one_row)
    types = dict(types_by_id(ctx.doc(p.group_from))) if p.group_from is not None else None
    if p.label is None:
        return _run(ctx, p, rows, types)
    label = _label(ctx, rows, p, types)
    try:
        return [_labelled(label, f) for f in _run(ctx, p, rows, types)]
    except Fail as exc:
        raise Fail(f"{label}: {exc.finding.message}", exc.finding.pointer, exc.finding.document,
                   exc.finding.actual, exc.finding.expected) from None


def _run(ctx: Context, p: AggregateParams, rows: Rows, types: dict[str, str | None] | None) -> list[Finding]:
    t = _tally(ctx, p, rows, types)
    overall, by_group = t.overall, t.by_group
    problem = Names(p.group_names).ambiguity(by_group, p.group_noun)
    if problem is not None:
        # a claim under an ambiguous name would be checked against whichever group comes first
        raise Fail(f"{p.names_from} is ambiguous: {problem}; a claim under such a name could be read as either "
                   f"{p.group_noun}", "", "report", None, f"one {p.group_noun} per name")
    tol = exact_number(p.tolerance) or Fraction(0)
    if p.claim_key is not None or p.group_claim_key is not None:
        return _by_name(p, t, tol)
    out: list[Finding] = []
    # the group claims first: the message names the first differing groups, then the total
    if t.grouped:
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
            out.append(_naming_rows(problem, p, rows, overall))
    if out:
        return out
    shown = show_value(value, p.unit) if value is not None else "undefined"
    if p.combine == "groups":
        formula = f"(the mean of {len(by_group)} group values)"
    elif p.op in ("count", "sum"):
        formula = f"over {overall.formula(p, rows.noun)}"
    else:
        formula = f"{show_value(overall.total)}/{show_value(overall.per) if p.op == 'ratio' else overall.rows}"
    if p.claim is not None:
        claimed = f"as {p.claim} claims{_how(lookup(ctx, p.claim)[0], value, p, tol, formula)}"
    elif p.claim_value is not None:
        claimed = (f"as claimed: {show(p.claim_value)}{'%' if p.unit == 'percent' else ''}"
                   f"{_how(p.claim_value, value, p, tol, formula)}")
    else:
        # only group claims: state each group's value
        listed = _listed(p, rows, by_group, sorted(by_group))
        return [passed(f"{_describe(p)} of each of {len(by_group)} {plural_of(p.group_noun)} is as {p.group_claim} "
                       f"claims{_declared(p)}: {listed}", rows.pointer, rows.role)]
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
    groups = f"; {len(by_group)} {plural_of(p.group_noun)} agree" if p.group_claim else ""
    return [passed(f"{_describe(p)} is {shown}{exact} {source}, {claimed}{groups}", rows.pointer, rows.role,
                   jsonable(value) if value is not None else None)]




def _listed(p: AggregateParams, rows: Rows, by_group: dict[str, Tally], names: list[str]) -> str:
    return ", ".join(f"{name} {show_value(v, p.unit) if (v := by_group[name].value(p.op)) is not None else 'undefined'}"
                     f"{' (' + by_group[name].formula(p, rows.noun) + ')' if p.op in ('mean', 'ratio') else ''}"
                     for name in names)


def _other_reading(p: AggregateParams, raw: Any, group: str, by_group: dict[str, Tally], tol: Fraction,
                   names: Names, noun: str, used: str | None) -> str:
    """When a group's claim, made under one of its names, is another group's value: both readings, for the
    failure message (a claim under the group itself gets none: a count may equal another group's by chance)."""
    if used is None or exact_number(raw) is None:
        return ""
    for other in sorted(by_group):
        value = by_group[other].value(p.op)
        if other == group or value is None or not matches(raw, value, p.places, tol, p.unit, p.min_places,
                                                          rate=p.op in ("mean", "ratio")):
            continue
        called = names.called(other)
        also = f", which {p.names_from} calls {', '.join(repr(c) for c in called)}" if called else ""
        head = (f"; {show(raw)} is {p.group_noun} {other}'s value ({show_value(value, p.unit)}, "
                f"{by_group[other].formula(p, noun)}){also}")
        return (f"{head}: the claim names {p.group_noun} {other} {used!r}, another naming than "
                f"{p.names_from} ({used!r} is {p.group_noun} {group})")
    return ""


def _by_name(p: AggregateParams, t: Totals, tol: Fraction) -> list[Finding]:
    """Claims given by name (``--claim j=0.71``, ``--claim j:single-hop=0.64``): the overall value under
    ``claim_key``, a group's under ``group_claim_key``; ``known_claims`` lists every name a profile reads."""
    names = Names(p.group_names)
    rows, out, said = t.rows, [], []
    for key in sorted(p.claims):
        raw = p.claims[key]
        if p.claim_key is not None and key == p.claim_key:
            label = _describe(p)
            problem = _compare(None, None, raw, t.overall, t.overall.value(p.op), p, label,
                               tol, rows.noun, name=key)
            if problem is not None:
                out.append(problem)
            else:
                said.append(f"{key} {show(raw)} ({show_value(t.overall.value(p.op), p.unit)} over "  # type: ignore[arg-type]
                            f"{t.overall.rows} {rows.noun}"
                            f"{_how(raw, t.overall.value(p.op), p, tol, t.overall.formula(p, rows.noun))})")
            continue
        part = _match_key(p.group_claim_key, key) if p.group_claim_key is not None else None
        if not part:
            if p.known_claims and not any(_match_key(k, key) is not None for k in p.known_claims):
                known = ", ".join(k.replace("{group}", "GROUP") for k in p.known_claims)
                out.append(failed(f"{key} names no value this profile recomputes (the names are {known}, GROUP a "
                                  f"{p.group_noun} or one of its names): a claimed number nobody recomputes is not "
                                  "checked", "", "report", jsonable(raw), known))
            continue
        group, used = names.group_of(part, t.by_group)
        if group is None or group not in t.by_group:
            what = f" ({part!r} is {p.group_noun} {group!r} in {p.names_from})" if group is not None else ""
            found = ", ".join(sorted(t.by_group)) or "none"
            named = ", ".join(f"{n} = {g}" for n, g in sorted(p.group_names.items()))
            out.append(failed(f"{key} claims {show(raw)} for {p.group_noun} {part!r}{what}, which has no "
                              f"{rows.noun} here ({plural_of(p.group_noun)} of the rows: {found}"
                              f"{'; names: ' + named if named else ''})", "", "report", jsonable(raw), found))
            continue
        tally = t.by_group[group]
        via = f" ({used!r} in {p.names_from})" if used is not None else ""
        label = f"{_describe(p)} for {p.group_noun} {group!r}{via}"
        problem = _compare(None, None, raw, tally, tally.value(p.op), p, label, tol, rows.noun,
                           name=key)
        if problem is None:
            # the rule that accepted the claim, as the summary's claims say it: a tolerance set on the
            # command line must not read as "rounded to 4 places"
            said.append(f"{key} {show(raw)} ({show_value(tally.value(p.op), p.unit)}, "  # type: ignore[arg-type]
                        f"{p.group_noun} {group}{via}{_how(raw, tally.value(p.op), p, tol, tally.formula(p, rows.noun))})")
            continue
        note = _other_reading(p, raw, group, t.by_group, tol, names, rows.noun, used)
        out.append(Finding("fail", problem.message + note, problem.document, problem.pointer, problem.actual,
                           problem.expected))
    if out:
        return out
    if not said:
        wanted = " or ".join(k for k in (p.claim_key, p.group_claim_key) if k is not None)
        return [skipped(f"no claim is named {wanted}", rows.pointer, rows.role)]
    return [passed(f"{_describe(p)} over {t.overall.rows} {rows.noun} of '{rows.role}' is as claimed"
                   f"{_declared(p)}: {'; '.join(said)}", rows.pointer, rows.role)]


def _group_findings(ctx: Context, p: AggregateParams, rows: Rows, by_group: dict[str, Tally],
                    tol: Fraction) -> list[Finding]:
    out: list[Finding] = []
    names = Names(p.group_names)
    noun = p.group_noun
    expected: list[str] = list(p.groups or [])
    keys: dict[str, str] = {}  # group -> the key it is claimed under (itself or one of its names)
    if p.groups_at is not None:
        obj, role, pointer = lookup(ctx, p.groups_at)
        if not isinstance(obj, dict):
            out.append(failed(f"{role}:{pointer} must be an object of groups, got {type_name(obj) if obj is not MISSING else 'missing'}",
                              pointer, role, None, "an object"))
        else:
            for key in obj:
                group = names.group_of(key, by_group)[0] or key
                if group in keys:
                    out.append(failed(f"{role}:{pointer} claims {noun} {group!r} twice, as {keys[group]!r} and "
                                      f"{key!r}", f"{pointer}/{escape(key)}", role, key, "one entry per group"))
                    continue
                keys[group] = key
                if group not in expected:
                    expected.append(group)
            for name in sorted(set(by_group) - set(keys)):
                out.append(failed(f"{by_group[name].rows} {rows.noun} of {noun} {name!r} have no entry in "
                                  f"{role}:{pointer} (first: {by_group[name].members[0].label()})", pointer, role,
                                  None, name))
    for name in expected:
        if name not in by_group:
            key = keys.get(name, name)
            ref = group_ref(p.group_claim, key) if p.group_claim else p.groups_at or ""
            role, _, pointer = ref.rpartition(":") if ":" in ref else ("report", "", ref)
            called = f" ({key!r} is {noun} {name!r} in {p.names_from})" if key != name else ""
            out.append(failed(f"{noun} {name!r}{called} has no {rows.noun} in {rows.role}: its summary is of rows "
                              "that are not there (a different subset?)", pointer, role or "report", None, ">= 1 row"))
    if p.group_claim is not None:
        for name in sorted(by_group):
            tally = by_group[name]
            key = keys.get(name) or _claimed_under(ctx, p.group_claim, name, names)
            used = key if key != name else None
            via = f" ({used!r} in {p.names_from})" if used is not None else ""
            label = f"{_describe(p)} for {noun} {name!r}{via}"
            ref = group_ref(p.group_claim, key)
            problem = _compare(ctx, ref, None, tally, tally.value(p.op), p, label, tol, rows.noun)
            if problem is not None:
                raw, _, _ = lookup(ctx, ref)
                note = _other_reading(p, raw, name, by_group, tol, names, rows.noun, used) \
                    if raw is not MISSING else ""
                rows_shown = ", ".join(r.label() for r in tally.members[:MAX_SHOWN])
                more = "…" if len(tally.members) > MAX_SHOWN else ""
                out.append(Finding("fail", f"{problem.message}{note}; rows {rows_shown}{more}", problem.document,
                                   problem.pointer, problem.actual, problem.expected))
    return out


def _claimed_under(ctx: Context, template: str, group: str, names: Names) -> str:
    """The key a group's claim is written under: the group itself, else the one of its names present."""
    if lookup(ctx, group_ref(template, group))[0] is not MISSING:
        return group
    for name in names.called(group):
        if lookup(ctx, group_ref(template, name))[0] is not MISSING:
            return name
    return group
