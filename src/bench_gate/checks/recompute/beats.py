"""The ``beats`` kind: a mean recomputed from the rows beats a baseline's strictly, only like for like."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any, Literal

from bench_gate.records import field, record
from bench_gate.checks.base import (
    FORBID, MISSING, Context, kind, Fail, described, failed, jsonable, lookup, passed, show, split_ref,
)
from bench_gate.checks.generic.declared import agreed, loose, statements
from bench_gate.checks.recompute.aggregate import render_label
from bench_gate.checks.recompute.questions import parse_groups
from bench_gate.checks.recompute.rows import (
    RowTest, check_pointer, check_source, claim_number, field_value, judged, read_rows, selected, show_value,
)
from bench_gate.models import Finding, exact_number


@record
class Same:
    """One like-for-like condition: a fact stated by us (``at``/``value``) and by the baseline (``theirs``)."""

    __pydantic_config__ = FORBID
    what: str
    theirs: str
    at: list[str] = field(default_factory=list)
    value: str | None = None
    value_name: str = "a parameter"
    as_groups: bool = False

    def __post_init__(self) -> None:
        for ref in [*self.at, self.theirs]:
            if not split_ref(ref)[1].startswith("/"):
                raise ValueError(f"{ref!r} must be a ref: /pointer or ROLE:/pointer")


@record
class BeatsParams:
    __pydantic_config__ = FORBID
    rows: str
    field: str
    baseline: str
    values: Literal["number", "boolean"] = "number"
    where: list[RowTest] = field(default_factory=list)
    name: str = "the mean"
    system: str | None = None
    source: str | None = None
    sources: dict[str, str] = field(default_factory=dict)
    reference: str | None = None
    same: list[Same] = field(default_factory=list)
    label: str | None = None

    def __post_init__(self) -> None:
        check_source(self.rows)
        check_pointer("field", self.field)
        if (self.source is None) != (not self.sources):
            raise ValueError("source (the ref) and sources (how each value is marked) go together")


def _key(same: Same) -> Any:
    def key(value: Any) -> Any:
        if same.as_groups:
            groups = parse_groups(value)
            return frozenset(groups) if groups is not None else None
        return loose(value) if isinstance(value, str) and value.strip() else None
    return key


def _shown(value: Any, as_groups: bool) -> str:
    if as_groups and parse_groups(value) is not None:
        return render_label("{groups}", parse_groups(value) or [], 0)
    return show(value)


def _like_for_like(ctx: Context, p: BeatsParams) -> tuple[list[tuple[str, str]], list[str], list[Finding]]:
    """((fact, how it differs), what agrees, failures that are not a difference: a fact not stated)."""
    differs: list[tuple[str, str]] = []
    agrees: list[str] = []
    problems: list[Finding] = []
    for same in p.same:
        key = _key(same)
        ours, bad = agreed(same.what, statements(ctx, same.at, same.value, same.value_name), key,
                           lambda v, g=same.as_groups: _shown(v, g), f"a {same.what}")
        problems.extend(bad)
        theirs, role, pointer = lookup(ctx, same.theirs)
        if ours is None and not bad:
            places = " or ".join([*same.at, same.value_name])
            problems.append(failed(f"our {same.what} is not stated ({places}): the comparison with the baseline "
                                   "cannot be like for like", "", "report", None, f"the {same.what}"))
        if theirs is MISSING or key(theirs) is None:
            got = "not stated" if theirs is MISSING else f"{described(theirs)}, not a {same.what}"
            problems.append(failed(f"{role}:{pointer} is {got}: a baseline whose {same.what} is unknown is not "
                                   "like for like", pointer, role, None if theirs is MISSING else jsonable(theirs),
                                   f"the {same.what}"))
        elif ours is not None and key(ours) != key(theirs):
            differs.append((same.what, f"{same.what} {_shown(theirs, same.as_groups)} ({role}:{pointer}), ours "
                                       f"{_shown(ours, same.as_groups)}"))
        elif ours is not None:
            agrees.append(f"{same.what} {_shown(ours, same.as_groups)}")
    return differs, agrees, problems


def _mark(ctx: Context, p: BeatsParams) -> str:
    """How the baseline number came about, for every message (a Fail when it is not said)."""
    if p.source is None:
        return ""
    value, role, pointer = lookup(ctx, p.source)
    if not isinstance(value, str) or value not in p.sources:
        got = "missing" if value is MISSING else described(value)
        raise Fail(f"{role}:{pointer} is {got}: say how the baseline number came about, one of "
                   f"{', '.join(sorted(p.sources))}", pointer, role, None if value is MISSING else jsonable(value),
                   sorted(p.sources))
    ref = ""
    if p.reference is not None:
        where, _, _ = lookup(ctx, p.reference)
        ref = f": {show(where, 120)}" if isinstance(where, str) and where.strip() else ""
    return f" ({p.sources[value]}{ref})"


def _ours(ctx: Context, p: BeatsParams) -> tuple[Fraction, int, Fraction]:
    rows = read_rows(ctx, p.rows, None)
    total, n = Fraction(0), 0
    for row in rows.items:
        if p.where and not selected(rows, row, p.where):
            continue
        value = field_value(rows, row, p.field)
        if p.values == "boolean":
            if not isinstance(value, bool):
                raise Fail(f"{rows.role} {row.label()}: {p.field} must be true or false, got {described(value)}",
                           rows.field_pointer(row, p.field), rows.role, None, "a boolean")
            number: Fraction | None = Fraction(int(value))
        else:
            number = exact_number(value)
        if number is None:
            raise Fail(f"{rows.role} {row.label()}: {p.field} must be a number, got {described(value)}",
                       rows.field_pointer(row, p.field), rows.role, None, "a number")
        total += number
        n += 1
    if n == 0:
        raise Fail(f"no rows of {rows.role} to average: a mean of nothing beats nothing", rows.pointer, rows.role)
    return total / n, n, total


@kind("beats", BeatsParams,
      "a mean recomputed from the rows is strictly greater than a baseline's, only like for like")
def beats(ctx: Context, p: BeatsParams) -> Iterable[Finding]:
    """``beats``: a mean recomputed from the rows is strictly greater than a baseline's, like for like.

    "Ours 70.9 J beats Mem0's 66.9" holds only when both numbers measure the same thing: the same
    judge model, the same answer model, the same questions. A baseline pasted from a paper was
    judged by the paper's judge over the paper's question set; compared with a re-run under another
    judge it is another measurement, and no margin makes it "beaten". Example::

        check: beats
        with:
          rows: "report:/*"
          field: /llm_score              # the rows' value whose mean is ours (values: number | boolean)
          name: J
          baseline: baseline:/j          # the baseline's number, a fraction like ours
          system: baseline:/system       # optional: the baseline's name, for messages
          source: baseline:/source       # how the baseline number came about ...
          sources: {paper: "quoted from a paper, not re-run here", run: "re-run under the same harness"}
          reference: baseline:/reference # optional: where it was quoted from
          same:                          # like for like: each must be stated on both sides, and equal
            - {what: judge model, at: [summary:/judge_model], value: "${judge_model}",
               value_name: --judge-model, theirs: baseline:/judge_model}
            - {what: categories, at: [summary:/categories], value: "${categories}",
               value_name: --categories, theirs: baseline:/categories, as_groups: true}

    Ours is the exact mean of ``field`` over the rows (that pass ``where``), read as ``aggregate``
    reads them. It passes only when every ``same`` holds and ours is strictly greater: a tie is not
    better, and a baseline that states our value as a claim would (exactly, as the double nearest
    to it: ``0.6666666666666666`` for 2/3, or rounded to the places it is written with, however
    few: ``0.7`` for 0.716883, since 0.7 stands for every value up to 0.75) is a tie. When a ``same`` fails, the comparison is not made at all (the message says why the two
    numbers are not comparable and never that one is greater). A ``same`` is stated on our side as
    the ``declared`` kind reads a fact (:mod:`bench_gate.checks.generic.declared`: refs, then
    a parameter's value, all agreeing); names compare case aside, and ``as_groups: true`` compares
    lists of group ids as sets (``"1-4"``, ``"1,2,3,4"`` and ``[1, 2, 3, 4]`` are one set).

    ``source`` is required when given: its value must be a key of ``sources``, and the message marks
    the baseline with it (``quoted from a paper, not re-run here``), so a verdict never shows a
    pasted number as if it had been measured alongside ours.

    """
    if p.label is None:
        return _run(ctx, p)
    label = _label(ctx, p)
    try:
        found = _run(ctx, p)
    except Fail as exc:
        raise Fail(f"{label}: {exc.finding.message}", exc.finding.pointer, exc.finding.document,
                   exc.finding.actual, exc.finding.expected) from None
    return [Finding(f.status, f"{label}: {f.message}", f.document, f.pointer, f.actual, f.expected) for f in found]


def _label(ctx: Context, p: BeatsParams) -> str:
    """The label with ``{groups}``: our stated groups (the ``as_groups`` fact), ``{n}``: the rows averaged."""
    assert p.label is not None
    groups: list[str] | None = None
    for same in p.same:
        if same.as_groups:
            ours, bad = agreed(same.what, statements(ctx, same.at, same.value, same.value_name), _key(same),
                               show, "groups")
            groups = parse_groups(ours) if ours is not None and not bad else None
    try:
        n = str(_ours(ctx, p)[1])
        n = f"{int(n):,}"
    except Fail:
        n = "?"
    text = p.label.replace("{n}", n)
    return render_label(text, groups, 0) if groups is not None else text.replace("{groups}", "not stated")


def _run(ctx: Context, p: BeatsParams) -> list[Finding]:
    mark = _mark(ctx, p)
    raw, brole, bptr = lookup(ctx, p.baseline)
    base = claim_number(raw, f"{brole}:{bptr}", bptr, brole)
    system = ""
    if p.system is not None:
        named, _, _ = lookup(ctx, p.system)
        system = f"{named} " if isinstance(named, str) and named.strip() else ""
    theirs = f"baseline {system}{show(raw)}{mark}"
    differs, agrees, problems = _like_for_like(ctx, p)
    if problems:
        return problems
    if differs:
        whats = " or ".join(what for what, _ in differs)
        return [failed(f"{p.name} is not compared with {theirs}: {'; '.join(t for _, t in differs)}; a number "
                       f"measured with "
                       f"another {whats} is another measurement, so it is never beaten strictly across them",
                       bptr, brole, None, "the same " + ", ".join(s.what for s in p.same))]
    ours, n, total = _ours(ctx, p)
    ours_text = f"{p.name} {show_value(ours)} ({show_value(total)}/{n}, recomputed)"
    same = f", under the same {', '.join(agrees)}" if agrees else ""
    # A baseline that states our value (by the rounding rule of text/rounding.py) is a tie, not
    # beaten, at however few places it is written: 0.7 stands for every value that rounds to it
    # (up to 0.75), so 0.716883 does not beat it, while the default minimum of 3 places would have
    # read 0.7 as exact.
    tie = judged(raw, ours, None, Fraction(0), min_places=0)
    if ours > base and not (tie is not None and tie.ok):
        return [passed(f"{ours_text} is greater than {theirs}{same}", bptr, brole, float(ours), f"> {show(raw)}")]
    if tie is not None and tie.ok:
        how = ""
        if tie.how == "rounded" and tie.claim.value != ours:
            places = tie.claim.places
            how = (f" (the baseline is written to {places} place{'s' if places != 1 else ''}: it stands for every "
                   f"value that rounds to it, and ours rounds to {tie.claim.text})")
        return [failed(f"{ours_text} equals {theirs}{how}: a tie is not better{same}", bptr, brole, float(ours),
                       f"> {show(raw)}")]
    return [failed(f"{ours_text} is not greater than {theirs}{same}", bptr, brole, float(ours), f"> {show(raw)}")]
