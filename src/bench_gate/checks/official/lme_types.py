"""Accuracies by LongMemEval question type, with the official types of the official questions."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from bench_gate.records import field, record
from bench_gate.text.canonical import describe, id_key, shown
from bench_gate.checks.base import (
    kind,
    FORBID, MISSING, Context, Fail, as_count, as_number, escape, failed, jsonable, need, passed, show,
    type_name,
)
from bench_gate.checks.generic.integrity import ref_label
from bench_gate.text.wording import plural
from bench_gate.checks.official.accuracy import stated
from bench_gate.checks.official.evaluator_log import entries, parse_label, show_acc, types_of
from bench_gate.checks.official.evidence import official_question_types
from bench_gate.models import Finding


@record
class TypeAccuracyParams:
    __pydantic_config__ = FORBID
    types: list[str]
    eval_log: str = "report"
    dataset: str | None = "dataset"
    task_averaged: str | None = None
    per_type: str | None = None
    places: int = 4
    label_field: str = "autoeval_label"
    id_field: str = "question_id"
    show: int = 3

    def __post_init__(self) -> None:
        if (self.task_averaged is None) == (self.per_type is None):
            raise ValueError("give exactly one of task_averaged and per_type")
        if not 0 <= self.places <= 12:
            raise ValueError(f"places must be between 0 and 12, got {self.places}")


@record(frozen=False)
class Typed:
    """The rows sorted by where their question type comes from."""

    by_type: dict[str, list[int]] = field(default_factory=dict)  # type -> [correct, total]
    official: int = 0
    from_dataset: int = 0
    problems: list[str] = field(default_factory=list)


def _first(items: list[str], n: int) -> str:
    return "; ".join(items[:n]) + (f" and {len(items) - n} more" if len(items) > n else "")


def type_rows(ctx: Context, p: TypeAccuracyParams) -> Typed:
    """Every row's label and question type, official types first; problems listed, not raised."""
    official = official_question_types()
    by_key = {id_key(qid): qid for qid in official}
    given = ctx.documents.get(p.dataset) if p.dataset else None
    dataset = types_of(ctx.doc(p.dataset), p.id_field) if given is not None and p.dataset else None
    out = Typed()
    relabelled: list[str] = []
    lookalike: list[str] = []
    untyped: list[str] = []
    unlabelled: list[str] = []
    other: list[str] = []
    for entry in entries(ctx.doc(p.eval_log)):
        obj = entry.value if isinstance(entry.value, dict) else {}
        qid = obj.get(p.id_field)
        label, _, problem = parse_label(obj.get(p.label_field, MISSING))
        if label is None:
            unlabelled.append(f"{entry.where}: {problem}")
            continue
        qtype: str | None = None
        if not isinstance(qid, str) or not qid:
            untyped.append(f"{entry.where} (no {p.id_field})")
        elif qid in official:
            qtype = official[qid]
            if dataset is not None and qid in dataset and dataset[qid] != qtype:
                relabelled.append(f"{qid} is {show(dataset[qid])} in the {p.dataset}, officially {qtype}")
            out.official += 1
        elif id_key(qid) in by_key:
            real = by_key[id_key(qid)]
            lookalike.append(f"{shown(qid)} ({entry.where}) and the official id {real} {describe(qid, real)}")
        elif dataset is not None and dataset.get(qid):
            qtype = dataset[qid]
            out.from_dataset += 1
        else:
            untyped.append(f"{shown(qid)} ({entry.where})")
        if qtype is None:
            continue
        if qtype not in p.types:
            other.append(f"{shown(str(qid))} is {show(qtype)}")
            continue
        slot = out.by_type.setdefault(qtype, [0, 0])
        slot[0] += int(label)
        slot[1] += 1
    if relabelled:
        out.problems.append(f"{plural(len(relabelled), 'official LongMemEval-S question')} "
                            f"{'carries' if len(relabelled) == 1 else 'carry'} another question type "
                            f"(first: {_first(relabelled, p.show)}): relabelled types change the accuracies by "
                            "type without changing a label")
    if lookalike:
        out.problems.append(f"{plural(len(lookalike), 'id')} only {'looks' if len(lookalike) == 1 else 'look'} like "
                            f"official ids (first: {_first(lookalike, p.show)})")
    if untyped:
        source = f"typed by the {p.dataset}" if dataset is not None else "typed by a dataset (none given: --dataset)"
        out.problems.append(f"{plural(len(untyped), 'row')} {'is' if len(untyped) == 1 else 'are'} neither an "
                            f"official LongMemEval-S question nor {source} (first: {_first(untyped, p.show)}): "
                            "their types, and every accuracy by type, cannot be verified")
    if unlabelled:
        out.problems.append(f"{plural(len(unlabelled), 'row')} {'has' if len(unlabelled) == 1 else 'have'} no "
                            f"valid label (first: {_first(unlabelled, p.show)})")
    if other:
        out.problems.append(f"{plural(len(other), 'row')} {'has' if len(other) == 1 else 'have'} a question type "
                            f"outside {', '.join(p.types)} (first: {_first(other, p.show)})")
    return out


def _source(t: Typed, p: TypeAccuracyParams) -> str:
    parts = [f"{t.official} official ids with their official types"]
    if t.from_dataset:
        parts.append(f"{t.from_dataset} typed by the {p.dataset}")
    return ", ".join(parts)


def _task_averaged(ctx: Context, p: TypeAccuracyParams, t: Typed, ref: str) -> list[Finding]:
    value, role, ptr = need(ctx, ref)
    label = ref_label(role, ptr)
    as_number(value, label, ptr, role)  # a claim that is no number fails here, with its type
    empty = [qtype for qtype in p.types if qtype not in t.by_type]
    if empty:  # print_qa_metrics.py averages over every type: an empty one's mean is undefined (nan)
        return [failed(f"{label} {show(value)} cannot be recomputed: no row is of type {', '.join(empty)}, so the "
                       f"mean over the {len(p.types)} types is undefined", ptr, role, jsonable(value), None)]
    exact = sum((Fraction(c, n) for c, n in t.by_type.values()), Fraction(0)) / len(t.by_type)
    words = (f"task-averaged accuracy {show_acc(exact)} over {plural(len(t.by_type), 'question type')} "
             f"({_source(t, p)})")
    judgement = stated(value, exact, p.places)
    if judgement is not None and judgement.ok:
        return [passed(f"{words}, as {label} claims{judgement.note()}", ptr, role, float(exact), jsonable(value))]
    why = judgement.why() if judgement is not None else ""
    return [failed(f"{label} {show(value)} is not the {words}{': ' + why if why else ''}", ptr, role,
                   jsonable(value), float(exact))]


def _per_type(ctx: Context, p: TypeAccuracyParams, t: Typed, ref: str) -> list[Finding]:
    claims, role, ptr = need(ctx, ref)
    label = ref_label(role, ptr)
    if not isinstance(claims, dict):
        raise Fail(f"{label} must be an object of {{accuracy, n}} by question type, got {type_name(claims)}", ptr,
                   role, jsonable(claims), "an object")
    out: list[Finding] = []
    for qtype in [*sorted(t.by_type), *(k for k in claims if k not in t.by_type)]:
        where = f"{ptr}/{escape(qtype)}"
        if qtype not in claims:
            c, n = t.by_type[qtype]
            out.append(failed(f"{label} does not claim {qtype}, which has {n} rows ({c} correct)", where, role,
                              None, f"{c}/{n}"))
            continue
        if qtype not in t.by_type:
            out.append(failed(f"{label} claims {show(qtype)}, but no row is of that type", where, role,
                              jsonable(claims[qtype]), "no claim"))
            continue
        c, n = t.by_type[qtype]
        claim = claims[qtype]
        if not isinstance(claim, dict):
            out.append(failed(f"{label}.{qtype} must be {{accuracy, n}}, got {type_name(claim)}", where, role,
                              jsonable(claim), "an object"))
            continue
        try:
            count = as_count(claim.get("n", MISSING), f"{label}.{qtype}.n", f"{where}/n", role)
            as_number(claim.get("accuracy", MISSING), f"{label}.{qtype}.accuracy", f"{where}/accuracy", role)
        except Fail as exc:
            out.append(exc.finding)
            continue
        if count != n:
            out.append(failed(f"{label}.{qtype}.n is {count}, but {n} rows are of that type", f"{where}/n", role,
                              count, n))
        judgement = stated(claim.get("accuracy"), Fraction(c, n), p.places)
        if judgement is None or not judgement.ok:
            why = judgement.why() if judgement is not None else ""
            out.append(failed(f"{label}.{qtype}.accuracy {show(claim.get('accuracy'))} is not {c}/{n} = "
                              f"{show_acc(Fraction(c, n))}{': ' + why if why else ''}", f"{where}/accuracy", role,
                              jsonable(claim.get("accuracy")), float(Fraction(c, n))))
    if out:
        return out
    shown_types = ", ".join(f"{k} {c}/{n}" for k, (c, n) in sorted(t.by_type.items()))
    return [passed(f"{plural(len(t.by_type), 'question type')} recompute as {label} claims ({shown_types}; "
                   f"{_source(t, p)})", ptr, role, {k: f"{c}/{n}" for k, (c, n) in t.by_type.items()},
                   "as claimed")]


@kind("qa_type_accuracy", TypeAccuracyParams, "task-averaged and per-type accuracy recomputed with LongMemEval-S's official question types")
def qa_type_accuracy(ctx: Context, p: TypeAccuracyParams) -> Iterable[Finding]:
    """Accuracies by LongMemEval question type, with the official types of the official questions.

    qa_type_accuracy
        Recomputes the **task-averaged accuracy** (the mean over question types of each type's
        accuracy, as ``print_qa_metrics.py`` computes it) and the **per-type** accuracies and counts
        of an official evaluator output, and compares them with the claimed ones.

        Each row's question type comes from LongMemEval-S's official table, shipped in
        ``bench_gate/data/longmemeval_s_question_types.json``, whenever its ``question_id`` is an
        official id, with or without a dataset: these numbers are what
        leaderboards quote, and relabelling a correctly answered question into a small type lifts
        the task-averaged accuracy without changing a single label. The ``dataset`` document
        (optional, ``--dataset``) types only the ids outside the table. It fails when:

        * the dataset gives an official id another type than the official one (a relabelled
          question), or a row's id only *looks* like an official id (other case, an invisible or
          fullwidth character; see :mod:`bench_gate.text.canonical`);
        * a row's id is neither an official id nor typed by the dataset: its type, and every number
          by type, cannot be verified (a failure, not a warning);
        * a row has no valid label, or its type is not one of ``types``;
        * a claimed number does not state the recomputed one (exactly, as its double, rounded to
          the decimals it is written with when at least 3, or to ``places``: the rule of
          ``bench-gate kinds aggregate``), a type with rows is not claimed, or a claimed type has
          no rows;
        * a task-averaged accuracy is claimed while one of ``types`` has no rows (its mean, and so
          the average over the types, is undefined).

        Params: ``eval_log`` (role, default ``report``), ``dataset`` (role; absent: the official
        table alone), ``types`` (the question types), ``task_averaged`` (ref of the claimed
        task-averaged accuracy, or null), ``per_type`` (ref of the claimed ``{TYPE: {accuracy, n}}``
        object, or null), ``places`` (default 4, what ``print_qa_metrics.py`` prints),
        ``label_field``, ``id_field``, ``show``.
    """
    t = type_rows(ctx, p)
    if t.problems:
        return [failed(problem, "", p.eval_log) for problem in t.problems]
    if not t.by_type:
        raise Fail(f"{p.eval_log} has no rows", document=p.eval_log)
    if p.task_averaged is not None:
        return _task_averaged(ctx, p, t, p.task_averaged)
    assert p.per_type is not None
    return _per_type(ctx, p, t, p.per_type)
