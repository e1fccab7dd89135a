"""Retrieval metrics recomputed from the per-case evidence.

A summary number is only as good as the cases it claims to summarise. These kinds recompute
``hit@k``, strict ``recall@k`` and ``ndcg@k`` from each case's answer set A and ranked list R
(top k = ``R[:k]``, duplicates in R counted once, at their first position):

* ``hit@k`` = 1 if A ∩ top-k is non-empty, else 0;
* strict ``recall@k`` = |A ∩ top-k| / |A| (a two-answer question with one found scores 0.5);
* ``ndcg@k`` = DCG / IDCG with binary relevance: DCG = Σ 1/log2(i+2) over the positions i
  (0-based) of top-k items in A, IDCG the same over the first min(|A|, k) positions;
* a summary is the plain mean over its cases (``overall``; each slice of ``per_type``,
  ``per_slice``, ``per_category`` and ``per_task`` over the cases of that question type).

Parameters (both kinds): ``cases`` (``/case_results``), ``k_values`` (``/k_values``),
``default_k`` ([5, 10]), ``overall`` (``/overall``), ``summaries`` (``/per_type``,
``/per_slice``, ``/per_category``, ``/per_task``),
``type_field``, ``id_fields`` (``question_id``, ``case_id``, ``task_id``), ``answers_field``,
``ranked_field``, ``tolerance``.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from fnmatch import fnmatchcase
from fractions import Fraction
from itertools import chain
from operator import itemgetter
from typing import Any, NamedTuple

from bench_gate.records import field, record
from bench_gate.checks.base import (
    kind,
    FORBID,
    MISSING,
    Context,
    Fail,
    as_count,
    described,
    failed,
    jsonable,
    join,
    lookup,
    need,
    passed,
    show,
    show_fraction,
    type_name,
)
from bench_gate.text import rounding
from bench_gate.text.canonical import collisions, describe, shown
from bench_gate.checks.recompute.cases import case_ids, id_lists
from bench_gate.checks.generic.thresholds import refuse_limits_off_scale
from bench_gate.models import Finding, exact_number

KINDS_OF_METRIC = ("hit", "recall", "ndcg")
_FRACTION = re.compile(r"^(hit|recall|ndcg|legacy_recall)@[1-9][0-9]*$")
"""The names of the metrics the gate recomputes: fractions, whatever a declared pattern says."""
SUMMARIES = ("/per_type", "/per_slice", "/per_category", "/per_task")
"""The per-slice summaries a report may carry; every one present is recomputed, slice by question type."""


@record
class RetrievalParams:
    __pydantic_config__ = FORBID
    cases: str = "/case_results"
    k_values: str = "/k_values"
    default_k: list[int] = field(default_factory=lambda: [5, 10])
    overall: str = "/overall"
    summaries: list[str] = field(default_factory=lambda: list(SUMMARIES))
    type_field: str = "question_type"
    id_fields: list[str] = field(default_factory=lambda: ["question_id", "case_id", "task_id"])
    answers_field: str = "answer_session_ids"
    ranked_field: str = "ranked_session_ids"
    tolerance: float = 1e-9
    declared: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.tolerance >= 0:  # a negative (or NaN) tolerance is a mistake, as in aggregate and ranking
            raise ValueError("tolerance must be >= 0")


@record
class RecomputeParams(RetrievalParams):
    """The retrieval parameters, and the minimums a claim rounded up to must really meet."""

    __pydantic_config__ = FORBID
    min: dict[str, int | float] = field(default_factory=dict)
    extra_min: dict[str, int | float] = field(default_factory=dict)
    slice_min: dict[str, int | float] = field(default_factory=dict)
    slice_min_cases: int = 0

    def __post_init__(self) -> None:
        super().__post_init__()
        refuse_limits_off_scale(min=self.min, extra_min=self.extra_min, slice_min=self.slice_min)


class Scored(NamedTuple):
    """One case, scored: for each k (ascending) the number of its answers in the top k and
    DCG@k, from which hit@k, strict recall@k and nDCG@k follow."""

    index: int
    ident: str
    qtype: str | None
    answers: int  # |A|, duplicates counted once
    found: tuple[int, ...]  # |A ∩ top-k| for each k
    ndcg: tuple[float, ...]  # nDCG@k for each k
    raw: dict[str, Any]

    def metrics(self, ks: list[int]) -> dict[str, Any]:
        """The exact metrics of this case by name (``hit@5`` ...), in the order of ``names``."""
        out: dict[str, Any] = {}
        for k, found, ndcg in zip(ks, self.found, self.ndcg):
            out[f"hit@{k}"] = _ONE if found else _ZERO
            out[f"recall@{k}"] = _fraction(found, self.answers)
            out[f"ndcg@{k}"] = ndcg
        return out


def k_values(ctx: Context, p: RetrievalParams) -> list[int]:
    value, role, ptr = lookup(ctx, p.k_values)
    if value is MISSING:
        return list(p.default_k)
    if not isinstance(value, list) or not value:
        raise Fail(f"{ptr} must be a non-empty list of integers, got {show(value)}", ptr, role)
    ks = []
    for i, k in enumerate(value):
        n = as_count(k, join(ptr, i), join(ptr, i), role)
        if n <= 0:
            raise Fail(f"{join(ptr, i)} is {n}; k must be positive", join(ptr, i), role, n, "> 0")
        ks.append(n)
    if len(set(ks)) != len(ks):
        raise Fail(f"{ptr} lists a k twice: {show(value)}", ptr, role)
    return sorted(ks)


def scores(answers: list[str], ranked: list[str], ks: list[int]) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """(|A ∩ top-k| for each k, nDCG@k for each k) of one case, ``ks`` ascending, in one pass
    over the ranking: the same sums, in the same order, as :func:`score` for each k."""
    return _at_ks(*_located(answers, ranked, ks[-1]), ks)


def _located(answers: list[str], ranked: list[str], depth: int) -> tuple[tuple[int, ...], int]:
    """(the positions, 0-based and ascending, of the answers in the top ``depth`` of a ranking,
    how many distinct answers there are): all a case's scores follow from these two. A repeated
    id counts once, at its first position, which is where list.index finds it; answers are few,
    so looking each found one up is cheaper than testing every ranked id."""
    top = ranked[:depth]
    if len(answers) == 1:  # one answer session, as most questions have: no set to build
        return ((top.index(answers[0]),) if answers[0] in top else ()), 1
    gold = set(answers)
    return tuple(sorted(map(top.index, gold.intersection(top)))), len(gold)


def _at_ks(relevant: tuple[int, ...], answers: int, ks: list[int]) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """:func:`scores` of a case with ``answers`` answers found at the positions ``relevant``."""
    if relevant and len(_DISCOUNTS) <= relevant[-1]:
        _discount(relevant[-1])
    discounts = _DISCOUNTS
    founds: list[int] = []
    ndcgs: list[float] = []
    found, dcg = 0, 0.0
    for k in ks:
        while found < len(relevant) and relevant[found] < k:
            dcg += discounts[relevant[found]]
            found += 1
        ideal = _ideal(answers if answers < k else k)
        founds.append(found)
        ndcgs.append(dcg / ideal if ideal else 0.0)
    return tuple(founds), tuple(ndcgs)


def score(answers: list[str], ranked: list[str], k: int) -> tuple[Fraction, Fraction, float]:
    """(hit@k, strict recall@k, ndcg@k) of one case."""
    gold = set(answers)
    seen: set[str] = set()
    found = 0
    dcg = 0.0
    for i, item in enumerate(ranked[:k] if k >= 0 else ranked):
        if item in gold and item not in seen:
            found += 1
            dcg += _discount(i)
        seen.add(item)
    ideal = _ideal(min(len(gold), k))
    hit = _ONE if found else _ZERO
    recall = _fraction(found, len(gold))
    return hit, recall, (dcg / ideal if ideal else 0.0)


_ZERO, _ONE = Fraction(0), Fraction(1)
_DISCOUNTS: list[float] = []
_IDEALS: dict[int, float] = {}


def _discount(i: int) -> float:
    """1 / log2(i + 2), the DCG discount of rank i (0-based), computed once per rank."""
    while len(_DISCOUNTS) <= i:
        _DISCOUNTS.append(1.0 / math.log2(len(_DISCOUNTS) + 2))
    return _DISCOUNTS[i]


def _ideal(n: int) -> float:
    """The ideal DCG of n relevant items: the same sum, in the same order, computed once per n."""
    found = _IDEALS.get(n)
    if found is None:
        found = _IDEALS[n] = sum(1.0 / math.log2(i + 2) for i in range(n))
    return found
_FRACTIONS: dict[tuple[int, int], Fraction] = {}


def _fraction(numerator: int, denominator: int) -> Fraction:
    """Fraction(numerator, denominator), shared: cases repeat the same few small ratios."""
    key = (numerator, denominator)
    found = _FRACTIONS.get(key)
    if found is None:
        found = _FRACTIONS[key] = Fraction(numerator, denominator)
    return found


def load_cases(ctx: Context, p: RetrievalParams, ks: list[int]) -> tuple[list[Scored], list[Finding], str, str]:
    """Every case scored at every k, or the problems that keep the cases from being scored."""
    items, role, ptr = need(ctx, p.cases)
    if not isinstance(items, list) or not items:
        raise Fail(f"{ptr} must be a non-empty list of cases, got {type_name(items)}", ptr, role)
    cases: list[Scored] = []
    problems: list[Finding] = []
    idents = case_ids(ctx, items, p.id_fields)
    answer_lists, ranked_lists = id_lists(ctx, items, p.answers_field), id_lists(ctx, items, p.ranked_field)
    # a case's scores follow from where its answers are and how many it has: cases repeat the
    # same few, each worked out once
    scored: dict[tuple[tuple[int, ...], int], tuple[tuple[int, ...], tuple[float, ...]]] = {}
    depth = ks[-1]
    make = tuple.__new__  # a Scored without the Python-level __new__ of a named tuple
    type_field = p.type_field
    for i, (item, ident, answers, ranked) in enumerate(zip(items, idents, answer_lists, ranked_lists)):
        if not isinstance(item, dict):
            problems.append(failed(f"{join(ptr, i)} must be an object, got {type_name(item)}", join(ptr, i), role))
            continue
        if ident is None:
            problems.append(failed(f"{join(ptr, i)} has no id ({' / '.join(p.id_fields)})", join(ptr, i), role))
            continue
        if answers is None or ranked is None:
            bad = p.answers_field if answers is None else p.ranked_field
            problems.append(failed(f"case {ident}: {bad} must be a list of session ids, got "
                                   f"{show(item.get(bad, MISSING))}", join(ptr, i, bad), role))
            continue
        if not answers:
            problems.append(failed(f"case {ident}: {p.answers_field} is empty, so strict recall is undefined",
                                   join(ptr, i, p.answers_field), role))
            continue
        qtype = item.get(type_field)
        key = _located(answers, ranked, depth)
        found_ndcg = scored.get(key)
        if found_ndcg is None:
            found_ndcg = scored[key] = _at_ks(*key, ks)
        cases.append(make(Scored, (i, ident, qtype if isinstance(qtype, str) else None, key[1], *found_ndcg, item)))
    return cases, problems, role, ptr


def means(cases: list[Scored], ks: list[int]) -> dict[str, Any]:
    """The mean of every metric over ``cases`` by name, exact: hit@k and recall@k as Fractions
    (recall numerators added per denominator first, a few Fraction additions instead of one per
    case), nDCG@k as the correctly rounded float mean."""
    count = len(cases)
    out: dict[str, Any] = {}
    # column by column, at C speed: the sums are exact (Fractions, fsum), so their order is free
    answers = [c.answers for c in cases]
    founds = [c.found for c in cases]
    ndcgs = [c.ndcg for c in cases]
    for j, k in enumerate(ks):
        found = list(map(itemgetter(j), founds))
        # (answer count, answers found) -> cases, counted at C speed in one pass; a few distinct pairs
        by_answers: dict[int, int] = {}
        for (d, n), times in Counter(zip(answers, found)).items():
            by_answers[d] = by_answers.get(d, 0) + n * times
        out[f"hit@{k}"] = Fraction(count - found.count(0), count)
        out[f"recall@{k}"] = sum((Fraction(n, d) for d, n in by_answers.items()), Fraction(0)) / count
        out[f"ndcg@{k}"] = math.fsum(map(itemgetter(j), ndcgs)) / count
    return out


def _fmt(value: Any, against: Any = None) -> str:
    """4 decimals, or as many more (up to 12) as it takes to differ visibly from ``against``."""
    try:
        number, other = float(value), (None if against is None else float(against))
    except OverflowError:  # a claim beyond the float range: nothing to align with
        return show_fraction(Fraction(value), 4)
    if number in (0.0, 1.0):
        return str(int(number))
    for places in (4, 6, 8, 10, 12):
        text = f"{number:.{places}f}".rstrip("0").rstrip(".")
        if other is None or f"{other:.{places}f}".rstrip("0").rstrip(".") != text:
            return text
    return text


def _close(claimed: Fraction | float, recomputed: Any, tol: float) -> bool:
    """|claimed - recomputed| <= tol, decided exactly (a plain float ``claimed`` as written).

    Floats decide it when the difference is clearly inside or outside the tolerance: the error
    of the float difference is below ``_REL`` of the magnitudes involved, and ``_REL`` is more
    than twice that bound. Only a difference within that margin of ``tol`` (or a value a float
    cannot hold, such as a claimed 1e400) is computed with Fractions.
    """
    try:
        c, r = float(claimed), float(recomputed)
    except OverflowError:
        c = r = math.inf
    decided = _float_verdict(c, r, tol)
    if decided is not None:
        return decided
    # exact: a claimed metric of 1e400 would overflow a float and crash the comparison; a claimed
    # plain float counts at its value as written
    written = exact_number(claimed) if type(claimed) is float else Fraction(claimed)
    return abs(written - Fraction(recomputed)) <= Fraction(tol)


def _float_verdict(c: float, r: float, tol: float) -> bool | None:
    """|c - r| <= tol when floats decide it (both finite and the difference clearly inside or
    outside the tolerance), else None: only exact arithmetic can (see :func:`_close`)."""
    if c - c == 0.0 and r - r == 0.0:  # both finite
        d = abs(c - r)
        margin = _REL * (abs(c) + abs(r) + tol) + _TINY
        if d + 2 * margin < tol:
            return True
        if d - 2 * margin > tol:
            return False
    return None


_REL = 2.0 ** -50
_TINY = 2.0 ** -1000


def _claimed(value: Any) -> Fraction | float | None:
    """A claimed number for :func:`_close` (None if it is not one).

    A plain finite float is passed on as it is: :func:`_close` takes it at its value as written
    (:func:`exact_number`) when it needs the exact value, which is rarely.
    """
    if type(value) is float and value - value == 0.0:
        return value
    return exact_number(value)


def _below_minimum(name: str, claimed_raw: Any, value: Any, minimums: dict[str, Fraction], where: str, role: str,
                   label: str) -> Finding | None:
    """A claim that states the value and meets a minimum the recomputed value does not: rounded up
    to it (0.7500 for 0.74996). Minimums are decided on the recomputed value."""
    limit = minimums.get(name)
    if limit is None:
        return None
    claimed = exact_number(claimed_raw)
    if claimed is None or claimed < limit or Fraction(value) >= limit:
        return None
    return failed(f"{label}{name}: claimed {show(claimed_raw)} meets the minimum {show_fraction(limit, 6)} only as "
                  f"rounded: the recomputed {name} is {show_fraction(Fraction(value), 6)}, below it (a minimum is "
                  "decided on the recomputed value, never on a rounded claim)", join(where, name), role,
                  jsonable(claimed_raw), f">= {show_fraction(limit, 6)}")


def _minimums(limits: dict[str, int | float]) -> dict[str, Fraction]:
    return {name: Fraction(exact_number(v) or 0) for name, v in limits.items() if exact_number(v) is not None}


def _states(raw: Any, value: Any, tol: float) -> bool:
    """The claim states the value by the rounding rule (:mod:`bench_gate.text.rounding`)."""
    judgement = rounding.judge(raw, value, tolerance=tol)
    return judgement is not None and judgement.ok


def _compare_table(table: dict[str, Any], recomputed: dict[str, Any], where: str, role: str, n: int,
                   label: str, tol: float, require: bool, minimums: dict[str, Fraction] | None = None) -> list[Finding]:
    out: list[Finding] = []
    for name, value in recomputed.items():
        claimed_raw = table.get(name, MISSING)
        if claimed_raw is MISSING:
            if require:
                out.append(failed(f"{label}{name} is not reported (recomputed {_fmt(value)} from {n} cases)",
                                  join(where, name), role, None, jsonable(value)))
            continue
        claimed = _claimed(claimed_raw)
        if claimed is None:
            out.append(failed(f"{label}{name} must be a number, got {described(claimed_raw)}",
                              join(where, name), role, jsonable(claimed_raw), jsonable(value)))
            continue
        judgement = None if _close(claimed, value, tol) else rounding.judge(claimed_raw, value, tolerance=tol)
        if judgement is None or judgement.ok:
            # within the tolerance, rounded as the claim is written (0.9406 for 0.94056...), or the value's double
            below = _below_minimum(name, claimed_raw, value, minimums or {}, where, role, label)
            if below is not None:
                out.append(below)
            continue
        ptr = join(where, name)
        metric, _, k = name.partition("@")
        msg = (f"{label}{name}: " if label else "") + f"claimed {show(claimed_raw)}, recomputed "
        msg += f"{'strict ' if metric == 'recall' else ''}{name}"
        msg += f" is {_fmt(value, claimed)}" if n == 1 else f" from {n} cases is {_fmt(value, claimed)}"
        why = judgement.why()
        msg += f": {why}" if why else ""
        if metric == "recall" and f"hit@{k}" in recomputed and (_close(claimed, recomputed[f"hit@{k}"], tol)
                                                                or _states(claimed_raw, recomputed[f"hit@{k}"], tol)):
            msg += f" (hit@{k} is {_fmt(recomputed[f'hit@{k}'])}: the value looks like hit@{k} labelled as recall@{k})"
        out.append(failed(msg, ptr, role, jsonable(claimed_raw), round(float(value), 12)))
    for name in [n for n in table if n.startswith("legacy_recall@")]:
        k = name.split("@", 1)[1]
        if f"hit@{k}" not in recomputed:
            continue
        claimed = _claimed(table[name])
        if claimed is None or not (_close(claimed, recomputed[f"hit@{k}"], tol)
                                   or _states(table[name], recomputed[f"hit@{k}"], tol)):
            out.append(failed(f"{label}{name}: claimed {show(table[name])}, but legacy recall is hit@{k}, "
                              f"recomputed {_fmt(recomputed[f'hit@{k}'])}", join(where, name), role,
                              jsonable(table[name]), float(recomputed[f"hit@{k}"])))
    return out


def _claimed_ks(ctx: Context, p: RetrievalParams) -> set[int]:
    """Every k a metric is claimed at: in ``overall``, any summary slice or any case."""
    tables = [lookup(ctx, p.overall)[0]]
    for ref in p.summaries:
        summary = lookup(ctx, ref)[0]
        if isinstance(summary, dict):
            tables += list(summary.values())
    cases = lookup(ctx, p.cases)[0]
    if isinstance(cases, list):
        tables += cases
    # the cases repeat the same few names: each distinct name is matched once
    names: set[str] = set().union(*(table for table in tables if isinstance(table, dict)))
    found: set[int] = set()
    for name in names:
        m = _CLAIMED.match(name) if "@" in name else None
        if m:
            found.add(int(m.group(1)))
    return found


_CLAIMED = re.compile(r"^(?:hit|recall|ndcg|legacy_recall)@([1-9][0-9]{0,5})$")


@kind("retrieval_recompute", RecomputeParams, "hit@k, strict recall@k and nDCG@k recomputed from the cases")
def retrieval_recompute(ctx: Context, p: RecomputeParams) -> Iterable[Finding]:
    """Every k in the report's ``k_values`` (default 5 and 10), and every other k a metric is
    claimed at anywhere: the claimed ``overall``, each slice of every summary present (a slice
    whose name is no question type of any case fails) and each case's own numbers must state
    the recomputed ones: within ``tolerance`` (default 1e-9; a negative one is refused when the
    profile binds), or rounded to the decimals the claim is written with (at least 3:
    ``0.9406`` for a strict recall@5 of 28217/30000), or as the value's double; a claim of 0 or 1 is never reached by rounding (the rule of
    ``bench-gate kinds aggregate``). A minimum is decided on the recomputed value: with ``min``
    and ``extra_min`` (on ``overall``) and ``slice_min`` (on every summary slice; per-type slices
    of fewer than ``slice_min_cases`` cases are exempt), a claim that meets a minimum only as
    rounded (``0.7500`` for 0.74996 under a minimum of 0.75) fails, whatever a threshold rule
    reading the claim says. ``legacy_recall@k``, when present, must equal hit@k. When a
    claimed ``recall@k`` is not the strict recall but equals hit@k, the message says that the
    value looks like hit@k labelled as recall@k: the historic overclaim.
    """
    declared = k_values(ctx, p)
    # a metric claimed at a k that k_values leaves out is recomputed too, or it would pass unchecked
    ks = sorted(set(declared) | _claimed_ks(ctx, p))
    cases, problems, crole, cptr = load_cases(ctx, p, ks)
    if problems:
        return problems
    names = [f"{m}@{k}" for k in ks for m in KINDS_OF_METRIC]
    out: list[Finding] = []
    # overall
    overall = means(cases, ks)
    table, orole, optr = need(ctx, p.overall)
    if not isinstance(table, dict):
        raise Fail(f"{optr} must be an object, got {type_name(table)}", optr, orole)
    minimums = _minimums({**p.min, **p.extra_min})
    for required in (True, False):  # every metric at a declared k must be reported; others if claimed
        part = {n: v for n, v in overall.items() if (int(n.split("@")[1]) in declared) == required}
        out.extend(_compare_table(table, part, optr, orole, len(cases), "", p.tolerance, required, minimums))
    # every per-slice summary, sliced by question type
    for ref in p.summaries:
        out.extend(_recompute_summary(ctx, p, ref, cases, crole, cptr, ks))
    # each case's own claims, after the summaries: a summary failure is the headline
    by_k = [(f"hit@{k}", f"recall@{k}", f"ndcg@{k}", f"legacy_recall@{k}") for k in ks]
    for case in _unsettled(cases, ks, p.tolerance):
        if _claims_hold(case, by_k, p.tolerance):
            continue  # the usual case: nothing to say, so no message is built
        claimed = {n: case.raw[n] for n in names if n in case.raw}
        claimed |= {n: v for n, v in case.raw.items() if n.startswith("legacy_recall@")}
        out.extend(_compare_table(claimed, case.metrics(ks), join(cptr, case.index), crole, 1,
                                  f"case {case.ident} ", p.tolerance, False))
    if out:
        return out
    shown = ", ".join(f"{n} {_fmt(overall[n])}" for n in names)
    return [passed(f"recomputed from {len(cases)} cases, all claims match: {shown}", optr, orole,
                   {n: round(float(v), 12) for n, v in overall.items()})]


_PLAIN_FLOAT = frozenset((float,))


def _unsettled(cases: list[Scored], ks: list[int], tol: float) -> list[Scored]:
    """The cases (in order) whose claims :func:`_claims_hold` must look at: all but those that
    claim every metric (hit, recall, legacy recall and nDCG at each k) as a plain float equal to
    the recomputed value, when equality passes its float test at the tolerance.

    Equality passes it when the margin of the largest value passes: the margin only grows with
    the magnitude (so it does at the default tolerance; at a tolerance of 0 it never does). A
    case's hit, recall and legacy recall depend on its counts alone, and are worked out once per
    distinct counts.
    """
    magnitude = max(1.0, max(map(abs, chain.from_iterable(c.ndcg for c in cases)), default=0.0))
    if not 2 * (_REL * (2 * magnitude + tol) + _TINY) < tol:
        return cases
    names = [f"{m}@{k}" for k in ks for m in ("hit", "recall", "legacy_recall")] + [f"ndcg@{k}" for k in ks]
    counted: dict[tuple[tuple[int, ...], int], tuple[float, ...]] = {}
    out: list[Scored] = []
    for case in cases:
        fixed = counted.get((case.found, case.answers))
        if fixed is None:
            fixed = counted[case.found, case.answers] = tuple(
                value for found in case.found
                for value in (1.0 if found else 0.0, found / case.answers, 1.0 if found else 0.0))
        claimed = tuple(map(case.raw.get, names))
        if claimed != fixed + case.ndcg or not _PLAIN_FLOAT.issuperset(map(type, claimed)):
            out.append(case)
    return out


def _claims_hold(case: Scored, by_k: list[tuple[str, str, str, str]], tol: float) -> bool:
    """True when every metric the case claims (hit, recall, nDCG and legacy recall at each k)
    is a plain float that floats alone show within ``tol`` of the recomputed value (the test
    of :func:`_float_verdict`, which a non-finite value never passes); otherwise
    :func:`_compare_table` decides exactly and words what is wrong."""
    raw = case.raw
    for (hit_name, recall_name, ndcg_name, legacy_name), found, ndcg in zip(by_k, case.found, case.ndcg):
        hit = 1.0 if found else 0.0
        for name, value in ((hit_name, hit), (recall_name, found / case.answers), (ndcg_name, ndcg),
                            (legacy_name, hit)):
            claimed = raw.get(name, MISSING)
            if claimed is MISSING:
                continue
            if type(claimed) is not float:
                return False
            margin = _REL * (abs(claimed) + abs(value) + tol) + _TINY
            if not abs(claimed - value) + 2 * margin < tol:
                return False
    return True


def _recompute_summary(ctx: Context, p: RecomputeParams, ref: str, cases: list[Scored], crole: str, cptr: str,
                       ks: list[int]) -> list[Finding]:
    summary, prole, pptr = lookup(ctx, ref)
    if summary is MISSING:
        return []
    if not isinstance(summary, dict):
        return [failed(f"{pptr} must be an object, got {type_name(summary)}", pptr, prole)]
    out: list[Finding] = []
    label = pptr.lstrip("/")
    groups: dict[str, list[Scored]] = {}
    for c in cases:
        if c.qtype is None:
            out.append(failed(f"case {c.ident} has no {p.type_field}, so {pptr} cannot be recomputed",
                              join(cptr, c.index, p.type_field), crole))
            continue
        groups.setdefault(c.qtype, []).append(c)
    slice_min = _minimums(p.slice_min)
    for name in summary:
        if name not in groups:
            out.append(failed(f"{pptr}/{name} summarises no case (no case has {p.type_field} {name!r})",
                              join(pptr, name), prole))
    for qtype in sorted(groups):
        members = groups[qtype]
        slice_ = summary.get(qtype, MISSING)
        if slice_ is MISSING:
            out.append(failed(f"{len(members)} cases of type {qtype!r} have no slice in {pptr}",
                              join(pptr, qtype), prole, None, "a slice"))
            continue
        if not isinstance(slice_, dict):
            out.append(failed(f"{join(pptr, qtype)} must be an object, got {type_name(slice_)}",
                              join(pptr, qtype), prole))
            continue
        exempt = ref == "/per_type" and len(members) < p.slice_min_cases
        out.extend(_compare_table(slice_, means(members, ks), join(pptr, qtype), prole, len(members),
                                  f"{label}[{qtype}] ", p.tolerance, False, {} if exempt else slice_min))
    return out


@kind("retrieval_consistency", RetrievalParams, "both metrics reported, in [0, 1], recall ≤ hit, monotone in k, unique ids")
def retrieval_consistency(ctx: Context, p: RetrievalParams) -> Iterable[Finding]:
    """Both ``hit@k`` and ``recall@k`` are reported in ``overall`` for every k; every metric of
    ``overall`` and of every summary slice named ``<metric>@<k>`` is in [0, 1] (a name that
    matches one of ``declared``, the profile's patterns of metrics accepted without recomputation
    such as ``*_count``, is read as the profile declares it, not by its ``@``: ``recall@5_count``
    is a count; the names the gate recomputes, ``hit@k``, ``recall@k``, ``ndcg@k`` and
    ``legacy_recall@k``, are fractions whatever a pattern says); strict
    recall@k ≤ hit@k; hit@k and recall@k do not decrease as k grows (nDCG may, and is not
    checked for it); case ids are unique once normalised: ids that differ only by letter case,
    surrounding or repeated whitespace, a no-break space, invisible characters (zero-width
    space, soft hyphen...) or fullwidth forms are the same id (:mod:`bench_gate.text.canonical`).
    """
    ks = k_values(ctx, p)
    out: list[Finding] = []
    overall, orole, optr = need(ctx, p.overall)
    if not isinstance(overall, dict):
        raise Fail(f"{optr} must be an object, got {type_name(overall)}", optr, orole)
    tables: list[tuple[str, dict[str, Any], str]] = [(optr, overall, "overall")]
    for ref in p.summaries:
        summary, _, sptr = lookup(ctx, ref)
        if isinstance(summary, dict):
            tables += [(join(sptr, n), t, f"{sptr.lstrip('/')}[{n}]") for n, t in summary.items()
                       if isinstance(t, dict)]
    for k in ks:
        for m in ("hit", "recall"):
            if f"{m}@{k}" not in overall:
                out.append(failed(f"overall {m}@{k} is not reported; a published result reports both hit@{k} "
                                  f"and strict recall@{k}", join(optr, f"{m}@{k}"), orole, None, "present"))
    for where, table, label in tables:
        for name, value in table.items():
            metric, at, k = name.partition("@")
            if not at or (not _FRACTION.match(name) and any(fnmatchcase(name, pat) for pat in p.declared)):
                continue
            number = exact_number(value)
            if number is None:
                out.append(failed(f"{label} {name} must be a number, got {described(value)}",
                                  join(where, name), orole))
            elif not 0 <= number <= 1:
                out.append(failed(f"{label} {name} is {show(value)}, outside [0, 1] (a percent where a fraction "
                                  "belongs?)", join(where, name), orole, jsonable(value), "in [0, 1]"))
        for k in ks:
            hit, rec = exact_number(table.get(f"hit@{k}")), exact_number(table.get(f"recall@{k}"))
            if hit is not None and rec is not None and rec > hit:
                out.append(failed(f"{label} recall@{k} {show(table[f'recall@{k}'])} exceeds hit@{k} "
                                  f"{show(table[f'hit@{k}'])}; strict recall can never exceed hit",
                                  join(where, f"recall@{k}"), orole, jsonable(table[f"recall@{k}"]),
                                  f"<= {show(table[f'hit@{k}'])}"))
        for m in ("hit", "recall"):
            for lo, hi in zip(ks, ks[1:]):
                a, b = exact_number(table.get(f"{m}@{lo}")), exact_number(table.get(f"{m}@{hi}"))
                if a is not None and b is not None and b < a:
                    out.append(failed(f"{label} {m}@{hi} {show(table[f'{m}@{hi}'])} is below {m}@{lo} "
                                      f"{show(table[f'{m}@{lo}'])}; it cannot fall as k grows",
                                      join(where, f"{m}@{hi}"), orole))
    items, crole, cptr = lookup(ctx, p.cases)
    if isinstance(items, list):
        ids = [(i, ident) for i, ident in enumerate(case_ids(ctx, items, p.id_fields)) if ident is not None]
        out.extend(id_collisions(ids, cptr, crole))
    if out:
        return out
    return [passed(f"hit@k and strict recall@k reported for k = {', '.join(map(str, ks))}; all metrics in "
                   "[0, 1], recall ≤ hit, monotone in k; case ids unique", optr, orole)]


def id_collisions(ids: list[tuple[int, str]], where: str, role: str, what: str = "case id") -> list[Finding]:
    """A failure for every id equal to an earlier one once normalised (see :mod:`bench_gate.text.canonical`)."""
    out = []
    for i, j, first, later in collisions(ids):
        if first == later:
            msg = f"{what} {shown(later)} appears twice ({join(where, i)} and {join(where, j)})"
        else:
            msg = (f"{what} {shown(later)} at {join(where, j)} is the same id as {shown(first)} at {join(where, i)}: "
                   f"they {describe(first, later)}")
        out.append(failed(msg, join(where, j), role, later, "unique ids"))
    return out
