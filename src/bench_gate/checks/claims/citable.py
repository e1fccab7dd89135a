"""Check kind ``citable_values``: which values of a report a document may cite."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from bench_gate.records import field, record
from bench_gate.checks.base import (
    kind, FORBID, MISSING, Context, Fail, as_count, as_number, failed, join, jsonable, lookup, passed,
    resolve, show, split_ref, valid_pointer,
)
from bench_gate.checks.recompute.aggregate import render_label
from bench_gate.checks.recompute.questions import parse_groups
from bench_gate.models import Finding
from bench_gate.text.wording import plural_of


@record
class CitableValue:
    __pydantic_config__ = FORBID
    metric: str
    value: str | None = None
    percent: str | None = None
    count: str | None = None
    of: str | None = None

    def __post_init__(self) -> None:
        forms = [self.value is not None, self.percent is not None, self.count is not None]
        if sum(forms) != 1 or (self.count is None) != (self.of is None):
            raise ValueError(f"{self.metric}: give exactly one of value, percent, or count with of")
        if not self.metric.strip():
            raise ValueError("metric must name the metric as documents write it")
        for p in (self.value, self.percent, self.count, self.of):
            if p is not None and not valid_pointer(split_ref(p)[1]):
                raise ValueError(f"{p!r} is not a JSON Pointer (or ROLE:/pointer)")


@record
class CitableParams:
    __pydantic_config__ = FORBID
    values: list[CitableValue] = field(default_factory=list)
    benchmark: str = ""
    benchmark_at: str | None = None
    questions: str | None = None
    slices_at: str | None = None
    slice_values: list[CitableValue] = field(default_factory=list)
    slice_names: dict[str, str] = field(default_factory=dict)
    slice_ids: dict[str, str] = field(default_factory=dict)
    judge: str | None = None
    judge_value: str | None = None
    groups: str | None = None
    groups_at: list[str] = field(default_factory=list)
    group_noun: str = "group"

    def __post_init__(self) -> None:
        if self.slice_names and self.slice_ids:
            raise ValueError("give slice_names (slice key -> name) or slice_ids (name -> slice id), not both")
        for ref in ([self.judge] if self.judge is not None else []) + self.groups_at:
            if not valid_pointer(split_ref(ref)[1]):
                raise ValueError(f"{ref!r} is not a JSON Pointer (or ROLE:/pointer)")
        if not self.benchmark.strip() and self.benchmark_at is None:
            raise ValueError("name the benchmark and split the values are on (benchmark or benchmark_at)")
        if not self.values and not self.slice_values:
            raise ValueError("declare at least one citable value")
        if (self.slices_at is None) != (not self.slice_values):
            raise ValueError("slices_at and slice_values go together")


def _read(ctx: Context, base: tuple[str, str] | None, v: CitableValue, where: str) -> dict[str, Any]:
    """One declared value; Fail when it does not read. Its pointers are refs (``/n``,
    ``summary:/overall/j``), or, for a slice (``base``: the slice's role and pointer), relative to
    the slice."""
    def at(ref: str) -> tuple[Any, str]:
        if base is not None:
            role, pointer = base[0], base[1] + ref
        else:
            role, pointer = split_ref(ref)
        doc = ctx.doc(role)
        shown = pointer if role == "report" else f"{role}:{pointer}"
        return resolve(doc.data, pointer), shown

    if v.count is not None and v.of is not None:
        count, cptr = at(v.count)
        total, tptr = at(v.of)
        k = as_count(count if count is not MISSING else None, f"{v.metric} count {cptr}", cptr)
        n = as_count(total if total is not MISSING else None, f"{v.metric} total {tptr}", tptr)
        if n <= 0 or not 0 <= k <= n:
            raise Fail(f"{v.metric}: count {k} at {cptr} over {n} at {tptr} is no share of the questions{where}",
                       cptr, "report", k, f"0..{n}")
        return {"metric": v.metric, "pointer": cptr, "count": k, "of": n}
    pointer = v.value if v.value is not None else v.percent
    assert pointer is not None
    raw, ptr = at(pointer)
    number = as_number(raw, f"{v.metric} {ptr}", ptr)
    top = Fraction(1) if v.value is not None else Fraction(100)
    if not 0 <= number <= top:
        raise Fail(f"{v.metric}: {ptr} is {jsonable(raw)}, outside 0..{top}{where}", ptr, "report", jsonable(raw),
                   f"0..{top}")
    return {"metric": v.metric, "pointer": ptr, "value" if v.value is not None else "percent": jsonable(raw)}


def _stated(ctx: Context, ref: str) -> tuple[Any, str, str] | None:
    """The value at a ref, with its role and pointer; None when its document was not supplied or the
    value is absent (it states nothing)."""
    role, _ = split_ref(ref)
    if role not in ctx.documents:
        return None
    value, role, pointer = lookup(ctx, ref)
    return None if value is MISSING else (value, role, pointer)


def _judge(ctx: Context, p: CitableParams) -> tuple[str | None, Finding | None]:
    """The judge the values are of: the one at ``judge``, else ``judge_value``; the two, when both
    state one, must be the same model (their own gate checks it too: a value is never cited under a
    judge it was not judged by)."""
    if p.judge is None and p.judge_value is None:
        return None, None
    at = _stated(ctx, p.judge) if p.judge is not None else None
    given = p.judge_value.strip() if isinstance(p.judge_value, str) and p.judge_value.strip() else None
    if at is not None:
        named, role, ptr = at
        if not isinstance(named, str) or not named.strip():
            return None, failed(f"the judge at {ptr} is {show(named)}: a QA value must say which model judged it",
                                ptr, role, jsonable(named), "a judge model")
        if given is not None and named.strip() != given:
            return None, failed(f"the judge at {ptr} is {show(named)}, but the judge stated for this gate is "
                                f"{show(given)}: values are cited under one judge", ptr, role, jsonable(named), given)
        return named.strip(), None
    if given is not None:
        return given, None
    where = f" at {p.judge}" if p.judge is not None else ""
    return None, failed(f"no judge model is stated{where}: a QA value must say which model judged it", "", "report",
                        None, "a judge model")


def _groups(ctx: Context, p: CitableParams) -> tuple[list[str] | None, Finding | None]:
    """The groups (LoCoMo's categories) the values are over: stated in the first of ``groups_at``
    that holds them, else by ``groups``; every statement must name the same groups."""
    if p.groups is None and not p.groups_at:
        return None, None
    found: list[str] | None = None
    first = ""
    stated: list[tuple[Any, str, str, str]] = []
    if p.groups is not None and p.groups.strip():
        stated.append((p.groups, "report", "", "the stated " + plural_of(p.group_noun)))
    for ref in p.groups_at:
        at = _stated(ctx, ref)
        if at is not None:
            value, role, ptr = at
            stated.append((value, role, ptr, f"{role}:{ptr}" if role != "report" else ptr))
    for value, role, ptr, where in stated:
        parsed = parse_groups(value)
        if parsed is None:
            return None, failed(f"{where} is {show(value)}: not a list of {p.group_noun} ids", ptr, role,
                                jsonable(value), f"{p.group_noun} ids")
        if found is not None and set(parsed) != set(found):
            return None, failed(f"{where} states other {plural_of(p.group_noun)} than {first}: the values are over "
                                "one question set", ptr, role, jsonable(value), found)
        if found is None:
            found, first = parsed, where
    if found is None:
        return None, failed(f"no {plural_of(p.group_noun)} are stated: a value must say which question set it is over",
                            "", "report", None, f"{p.group_noun} ids")
    return found, None


def _slice_names(p: CitableParams, key: str) -> list[str]:
    """The names documents cite a slice under: its ``slice_names`` entry, or with ``slice_ids``
    every name of the slice's id (the key is an id or a name of one), else the key itself."""
    if p.slice_ids:
        loose = {_loose(name): sid for name, sid in p.slice_ids.items()}
        sid = key if key in p.slice_ids.values() else loose.get(_loose(key))
        names = [name for name, i in p.slice_ids.items() if i == sid] if sid is not None else []
        return names or [key]
    return [p.slice_names.get(key, key)]


def _loose(name: str) -> str:
    """A name as a reader compares it: case, spaces and dashes aside."""
    return "".join(ch for ch in name.casefold() if ch.isalnum())


@kind("citable_values", CitableParams,
      "the values of a report a document may cite, with their benchmark and question set")
def citable_values(ctx: Context, p: CitableParams) -> Iterable[Finding]:
    """Check kind ``citable_values``: which values of a report a document may cite.

    A report format bench-gate has no code for (a user profile's) holds its results under names
    only its profile knows: ``/recall/any@5`` over ``/n``. A claims scan (``bench-gate claims
    --evidence FILE``) can back a number in a document only with values it knows the meaning of,
    so the profile declares them: each a metric name as documents write it, and where its value is
    in the report, either a fraction (``value``), a percentage (``percent``) or a count over a
    total (``count`` and ``of``: 48 of 50 backs "96%" and "48/50"). ``slices_at`` names an object
    of slices (question types) and ``slice_values`` the same declarations inside each slice.
    ``benchmark`` (or ``benchmark_at``, a pointer to the string) names the benchmark and split the
    values are on, as a document names it (``LongMemEval-S``), and ``questions`` points to the
    question count: a number is never matched across benchmarks, splits or question sets.
    Pointers are refs: ``summary:/overall/j`` reads the profile's ``summary`` document.
    ``slice_names`` names the slices as documents do when the report keys them otherwise
    (LoCoMo's category ``"4"`` is ``single-hop``), and ``judge`` points to the model that judged
    QA values: a number a document says another model judged is not matched with them.

    A profile whose slices are groups a claim may name in several ways (LoCoMo's categories, by id
    or by a name of ``category_names``) gives ``slice_ids`` instead of ``slice_names``: each name a
    document may use, and the slice id it stands for (``"${category_names}"``). A slice keyed by an
    id or by one of its names is then citable under every name of that id (category 2 under
    ``temporal`` and ``temporal-reasoning``), and under its key when its id has no name.
    ``judge_value`` is the judge stated for the gate (``"${judge_model}"``, from ``--judge-model``)
    when the report does not state it at ``judge``; when both state one they must agree.
    ``groups`` (``"${categories}"``: ``1-4`` or ``1,2,3,4``) and ``groups_at`` (refs, such as
    ``summary:/categories``) state the groups the values are over, with ``group_noun`` naming
    them: the benchmark is then written with them (``LoCoMo (categories 1-4)``) and the result
    lists them. Every statement must name the same groups, and when none is given the rule fails:
    a value over categories 1-4 is not a value over the whole benchmark.

    Declare only values that other rules of the profile recompute: the scan cites them only when
    the whole gate passes, and every message resting on them names the profile.

    The rule fails closed: a value that is missing, not a number, a count that is not an exact
    integer or exceeds its total, a total of 0, a fraction outside 0..1 or a percentage outside
    0..100 fails with its place. When every value reads, it passes and its ``actual`` lists them
    (``{"benchmark", "questions", "values": [{"metric", "pointer", "value" | "percent" | "count" +
    "of", "slice"?}]}``) for the claims scan.

    ::

        - id: citable
          title: The values a document may cite
          check: citable_values
          with:
            benchmark: LongMemEval-S
            questions: /n
            values:
              - {metric: recall_any@5, count: /recall/any@5, of: /n}
            slices_at: /by_type
            slice_values:
              - {metric: recall_all@5, count: "/recall all@5", of: /n}
    """
    benchmark = p.benchmark.strip()
    if p.benchmark_at is not None:
        named, _, ptr = lookup(ctx, p.benchmark_at)
        if not isinstance(named, str) or not named.strip():
            return [failed(f"the benchmark at {ptr} is {show(named)}: "
                           "a citable value must say which benchmark and split it is on", ptr, "report",
                           jsonable(named) if named is not MISSING else None, "a benchmark name")]
        benchmark = f"{benchmark} {named.strip()}".strip()
    judge, problem = _judge(ctx, p)
    if problem is not None:
        return [problem]
    groups, problem = _groups(ctx, p)
    if problem is not None:
        return [problem]
    if groups is not None:
        noun = p.group_noun if len(groups) == 1 else plural_of(p.group_noun)
        benchmark = f"{benchmark} ({noun} {render_label('{groups}', groups, 0)})"
    questions = None
    if p.questions is not None:
        n, _, ptr = lookup(ctx, p.questions)
        questions = as_count(n if n is not MISSING else None, f"question count {ptr}", ptr)
    out: list[dict[str, Any]] = []
    problems: list[Finding] = []
    for v in p.values:
        try:
            out.append(_read(ctx, None, v, ""))
        except Fail as exc:
            problems.append(exc.finding)
    if p.slices_at is not None:
        slices, srole, sptr = lookup(ctx, p.slices_at)
        if not isinstance(slices, dict) or not slices:
            problems.append(failed(f"the slices at {sptr} are {'missing' if slices is MISSING else type(slices).__name__}"
                                   ": a slice value cannot be read", sptr, "report", None, "an object of slices"))
        else:
            for name, _ in slices.items():
                base = (srole, join(sptr, name))
                for v in p.slice_values:
                    try:
                        read = _read(ctx, base, v, f" (slice {name})")
                    except Fail as exc:
                        problems.append(exc.finding)
                        continue
                    out += [{**read, "slice": called} for called in _slice_names(p, name)]
    if problems:
        return problems
    shown = ", ".join(dict.fromkeys(v["metric"] for v in out))
    on = benchmark
    if questions is not None:
        # one parenthesis for the question set: "LoCoMo (categories 1-4, 1,540 questions)"
        counted = f"{questions:,} question{'s' if questions != 1 else ''}"
        on = f"{benchmark[:-1]}, {counted})" if groups is not None else f"{benchmark} ({counted})"
    return [passed(f"{len(out)} citable value{'s' if len(out) != 1 else ''} on {on}: {shown}",
                   "", "report", {"benchmark": benchmark, "questions": questions, "judge": judge, "values": out}
                   | ({"groups": groups} if groups is not None else {}))]
