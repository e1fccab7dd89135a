"""Check kind ``citable_values``: which values of a report a document may cite."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from bench_gate.checks.base import (
    kind, FORBID, MISSING, Context, Fail, as_count, as_number, failed, join, jsonable, lookup, passed,
    resolve, show, split_ref, valid_pointer,
)
from bench_gate.models import Finding


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class CitableParams:
    __pydantic_config__ = FORBID
    values: list[CitableValue] = field(default_factory=list)
    benchmark: str = ""
    benchmark_at: str | None = None
    questions: str | None = None
    slices_at: str | None = None
    slice_values: list[CitableValue] = field(default_factory=list)
    slice_names: dict[str, str] = field(default_factory=dict)
    judge: str | None = None

    def __post_init__(self) -> None:
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
    judge = None
    if p.judge is not None:
        named, _, ptr = lookup(ctx, p.judge)
        if not isinstance(named, str) or not named.strip():
            return [failed(f"the judge at {ptr} is {show(named)}: a QA value must say which model judged it", ptr,
                           "report", None, "a judge model")]
        judge = named.strip()
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
                        out.append({**_read(ctx, base, v, f" (slice {name})"), "slice": p.slice_names.get(name, name)})
                    except Fail as exc:
                        problems.append(exc.finding)
    if problems:
        return problems
    shown = ", ".join(dict.fromkeys(v["metric"] for v in out))
    return [passed(f"{len(out)} citable value{'s' if len(out) != 1 else ''} on {benchmark}"
                   + (f" ({questions} questions)" if questions is not None else "") + f": {shown}",
                   "", "report", {"benchmark": benchmark, "questions": questions, "judge": judge, "values": out})]
