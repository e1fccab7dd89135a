"""Official LongMemEval QA evidence: recomputation from the raw files, the validator, SOTA.

The official evaluation writes one JSON Lines row per hypothesis with an ``autoeval_label``
(``{"model": "<full model id>", "label": true|false}``; a bare ``true``/``false`` is accepted
too). These kinds never trust the report's numbers: they count the rows, the ids and the true
labels themselves, and compute **overall accuracy** (mean of all labels) and **task-averaged
accuracy** (mean over question types of each type's mean, types taken from the dataset) as
exact fractions. A comparison with a baseline uses the accuracy of the *same kind* as the
baseline's metric.

Documents are named by role (defaults: ``hypotheses``, ``eval_log``, ``dataset``); a dataset
may be loaded with format ``dataset`` (streamed: ids and question types only) or ``json``.

Example:

.. code-block:: yaml

   - id: qa-accuracy-recomputed
     check: qa_accuracy
     with: {eval_log: eval_log, dataset: dataset}
"""

from __future__ import annotations

import posixpath
import re
import shlex
from urllib.parse import urlsplit
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from bench_gate.text import rounding
from bench_gate.text.canonical import collisions, describe
from bench_gate.text.canonical import shown as shown_id
from bench_gate.checks.base import (
    described,
    kind,
    FORBID, MISSING, Context, Fail, as_count, as_number, failed, jsonable, lookup,
    need, passed, show, show_fraction, skipped, type_name,
)
from bench_gate.checks.generic.integrity import dotted, normalize_model, ref_label
from bench_gate.text.wording import listing, plural
from bench_gate.checks.official.split import INTERPRETER, split_label
from bench_gate.models import Doc, Finding, exact_number

Number = int | float
Kind = Literal["overall", "task_averaged"]

DEFAULT_PLACEHOLDERS = ["", "not_disclosed", "not disclosed", "undisclosed", "unknown", "n/a",
                        "na", "none", "null", "tbd", "-", "?"]
DEFAULT_INDEPENDENT_RELATIONS = ["independent-third-party", "third-party", "independent",
                                 "independent-reviewer", "independent-auditor", "external-auditor"]


# --- reading rows and ids ----------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One row of a JSONL document or one element of a JSON array."""

    where: str  # "line 7" or "entry 6"
    value: Any


def entries(doc: Doc) -> list[Entry]:
    """The rows of a JSONL document or the elements of a JSON array; Fail for anything else."""
    if doc.rows is not None:
        return [Entry(f"line {line}", value) for line, value in doc.rows]
    if isinstance(doc.data, list):
        return [Entry(f"entry {i}", value) for i, value in enumerate(doc.data)]
    what = type_name(doc.data) if doc.data is not None else "a hash-only document"
    raise Fail(f"document '{doc.role}' ({doc.path}) must be JSON Lines or a JSON array, got {what}",
               document=doc.role)


def ids_of(doc: Doc, id_field: str) -> list[tuple[str, str | None]]:
    """(where, id or None) for each row or entry; a streamed dataset uses its summary."""
    if doc.extra.get("format") == "dataset":
        return [(f"entry {i}", qid) for i, qid in enumerate(doc.extra["ids"])]
    out: list[tuple[str, str | None]] = []
    for entry in entries(doc):
        qid = entry.value.get(id_field) if isinstance(entry.value, dict) else None
        out.append((entry.where, qid if isinstance(qid, str) and qid else None))
    return out


def types_of(doc: Doc, id_field: str = "question_id",
             type_field: str = "question_type") -> dict[str, str | None]:
    """Question type by id (the first entry wins when an id repeats)."""
    out: dict[str, str | None] = {}
    if doc.extra.get("format") == "dataset":
        pairs: Iterable[tuple[Any, Any]] = zip(doc.extra["ids"], doc.extra["types"])
    else:
        pairs = ((e.value.get(id_field), e.value.get(type_field)) if isinstance(e.value, dict)
                 else (None, None) for e in entries(doc))
    for qid, qtype in pairs:
        if isinstance(qid, str) and qid and qid not in out:
            out[qid] = qtype if isinstance(qtype, str) and qtype else None
    return out


def _has(n: int) -> str:
    return "has" if n == 1 else "have"


def _ids(n: int, role: str) -> str:
    return f"1 {role} id is" if n == 1 else f"{n} {role} ids are"


def _noun(doc: Doc) -> str:
    return "rows" if doc.rows is not None else "entries"


# --- labels and tallies ------------------------------------------------------------------


def parse_label(value: Any, allow_bare_bool: bool = True) -> tuple[bool | None, str | None, str | None]:
    """(label, model, problem) of one ``autoeval_label`` value."""
    if value is MISSING:
        return None, None, "has no label"
    if isinstance(value, bool):
        if allow_bare_bool:
            return value, None, None
        return None, None, f"label is a bare {show(value)}; expected {{\"model\", \"label\"}}"
    if isinstance(value, dict):
        extra = sorted(set(value) - {"model", "label"})
        if extra:
            return None, None, f"label object has unexpected keys {', '.join(extra)}"
        label, model = value.get("label", MISSING), value.get("model", MISSING)
        if not isinstance(label, bool):
            return None, None, f"label.label is {described(label)}, expected true or false"
        if not isinstance(model, str) or not model.strip():
            return None, None, f"label.model is {described(model)}, expected a model id"
        return label, model, None
    return None, None, (f"label is {described(value)}, "
                        "expected true/false or {\"model\", \"label\"}")


@dataclass(frozen=True)
class Tally:
    """Recomputed QA results."""

    evaluated: int
    correct: int
    by_type: Mapping[str, tuple[int, int]]  # type -> (correct, total)
    abstention: tuple[int, int] = (0, 0)  # (correct, total) over ids ending in _abs

    @property
    def overall(self) -> Fraction:
        return Fraction(self.correct, self.evaluated) if self.evaluated else Fraction(0)

    @property
    def task_averaged(self) -> Fraction | None:
        if not self.by_type:
            return None
        return sum((Fraction(c, t) for c, t in self.by_type.values()), Fraction(0)) / len(self.by_type)

    def accuracy(self, kind: Kind) -> Fraction | None:
        return self.overall if kind == "overall" else self.task_averaged

    def per_type(self) -> dict[str, str]:
        return {k: f"{c}/{t}" for k, (c, t) in sorted(self.by_type.items())}


def tally(ctx: Context, eval_log: str, dataset: str | None, label_field: str = "autoeval_label",
          id_field: str = "question_id") -> Tally:
    """Count labels (and per question type with a dataset); Fail when that is impossible."""
    doc = ctx.doc(eval_log)
    rows = entries(doc)
    if not rows:
        raise Fail(f"{eval_log} has no rows", document=eval_log)
    types = types_of(ctx.doc(dataset), id_field) if dataset else None
    labels: list[bool] = []
    abstention = [0, 0]
    bad: list[str] = []
    by_type: dict[str, list[int]] = {}
    untyped: list[str] = []
    for entry in rows:
        obj = entry.value if isinstance(entry.value, dict) else {}
        raw = obj.get(label_field, MISSING)
        label, _, problem = parse_label(raw)
        if label is None:
            bad.append(f"{entry.where}: " + (f"has no {label_field}" if raw is MISSING else str(problem)))
            continue
        labels.append(label)
        qid_any = obj.get(id_field)
        if isinstance(qid_any, str) and qid_any.endswith("_abs"):
            abstention[0] += int(label)
            abstention[1] += 1
        if types is not None:
            qid = obj.get(id_field)
            qtype = types.get(qid) if isinstance(qid, str) else None
            if qtype is None:
                untyped.append(f"{entry.where} ({show(qid)})")
                continue
            slot = by_type.setdefault(qtype, [0, 0])
            slot[0] += int(label)
            slot[1] += 1
    if bad:
        raise Fail(f"cannot recompute accuracy: {len(bad)} of {len(rows)} {eval_log} {_noun(doc)} "
                   f"{_has(len(bad))} no valid label (first: {'; '.join(bad[:2])})", document=eval_log)
    if untyped:
        raise Fail(f"cannot compute task-averaged accuracy: {len(untyped)} {eval_log} "
                   f"{'id has' if len(untyped) == 1 else 'ids have'} no question type in {dataset} (first: {listing(untyped)})", document=eval_log)
    return Tally(len(labels), sum(labels), {k: (v[0], v[1]) for k, v in by_type.items()},
                 (abstention[0], abstention[1]))


def show_acc(value: Fraction) -> str:
    """An accuracy as an exact short decimal, else 6 places (``0.608``, ``0.588509``)."""
    return show_fraction(value, 6)


def tally_actual(t: Tally) -> dict[str, Any]:
    out: dict[str, Any] = {"correct": t.correct, "evaluated": t.evaluated,
                           "overall_accuracy": float(t.overall)}
    if t.task_averaged is not None:
        out["task_averaged_accuracy"] = float(t.task_averaged)
        out["per_type"] = t.per_type()
    if t.abstention[1]:
        out["abstention"] = f"{t.abstention[0]}/{t.abstention[1]}"
    return out


# --- qa_rows -----------------------------------------------------------------------------


@dataclass(frozen=True)
class RowsParams:
    __pydantic_config__ = FORBID
    document: str
    expected_count: int | None = None
    id_field: str = "question_id"

    def __post_init__(self) -> None:
        if self.expected_count is not None and self.expected_count < 0:
            raise ValueError(f"expected_count must be 0 or more, got {self.expected_count}")


@kind("qa_rows", RowsParams, "exact row count and unique ids of a JSONL/array document")
def qa_rows(ctx: Context, p: RowsParams) -> Iterable[Finding]:
    """A JSON Lines document (or a JSON array, or a streamed dataset) has exactly
    ``expected_count`` rows, each an object with a non-empty string ``id_field``, no id twice.
    Ids that differ only as a reader cannot see (letter case, a trailing or no-break space, a
    zero-width or fullwidth character; see :mod:`bench_gate.text.canonical`) are the same id twice.
    Params: ``document`` (role, required), ``expected_count`` (integer, default none: any),
    ``id_field`` (default ``question_id``).
    """
    doc = ctx.doc(p.document)
    ids = ids_of(doc, p.id_field)
    noun = "entries" if doc.extra.get("format") == "dataset" else _noun(doc)
    role = p.document
    out: list[Finding] = []
    if p.expected_count is not None and len(ids) != p.expected_count:
        out.append(failed(f"{role} has {len(ids)} {noun}, expected {p.expected_count}", "", role,
                          len(ids), p.expected_count))
    missing = [where for where, qid in ids if qid is None]
    if missing:
        out.append(failed(f"{len(missing)} of {len(ids)} {role} {noun} {_has(len(missing))} no {p.id_field} string "
                          f"(first: {listing(missing)})", "", role, len(missing), 0))
    seen: dict[str, list[str]] = {}
    for where, qid in ids:
        if qid is not None:
            seen.setdefault(qid, []).append(where)
    dups = [(qid, wheres) for qid, wheres in seen.items() if len(wheres) > 1]
    if dups:
        shown = [f"{qid} ({', '.join(w)})" for qid, w in dups]
        out.append(failed(f"{len(dups)} {p.id_field} {'value appears' if len(dups) == 1 else 'values appear'} more than "
                          f"once in {role}: {listing(shown)}",
                          "", role, len(dups), 0))
    # ids that differ only as a reader cannot see (case, invisible or fullwidth characters) are one
    # question written twice: each would be scored, typed and counted on its own
    alike = [(a, b, x, y) for a, b, x, y in collisions((w, q) for w, q in ids if q is not None) if x != y]
    if alike:
        shown = [f"{shown_id(y)} ({b}) and {shown_id(x)} ({a}) {describe(x, y)}" for a, b, x, y in alike]
        out.append(failed(f"{plural(len(alike), p.id_field + ' value')} in {role} only "
                          f"{'looks' if len(alike) == 1 else 'look'} unique: {listing(shown)}",
                          "", role, len(alike), 0))
    if out:
        return out
    expected = f" (expected {p.expected_count})" if p.expected_count is not None else ""
    return [passed(f"{role} has {len(ids)} {noun}{expected}, {len(seen)} unique {p.id_field} values",
                   "", role, len(ids), p.expected_count if p.expected_count is not None else len(ids))]


# --- qa_id_sets --------------------------------------------------------------------------


@dataclass(frozen=True)
class IdSetsParams:
    __pydantic_config__ = FORBID
    left: str
    right: str
    relation: Literal["equal", "subset"] = "equal"
    id_field: str = "question_id"


def _id_set(ctx: Context, role: str, id_field: str) -> set[str]:
    ids = ids_of(ctx.doc(role), id_field)
    missing = [where for where, qid in ids if qid is None]
    if missing:
        raise Fail(f"{role} {listing(missing)} {'has' if len(missing) == 1 else 'have'} no {id_field}; "
                   "the id sets cannot be compared", document=role)
    return {qid for _, qid in ids if qid is not None}


@kind("qa_id_sets", IdSetsParams, "id sets of two documents are equal (or a subset)")
def qa_id_sets(ctx: Context, p: IdSetsParams) -> Iterable[Finding]:
    """The ids of ``left`` are the same set as the ids of ``right`` (``relation: equal``), or a
    subset of them (``relation: subset``). Params: ``left``, ``right``, ``relation``,
    ``id_field``.
    """
    left, right = _id_set(ctx, p.left, p.id_field), _id_set(ctx, p.right, p.id_field)
    only_left = sorted(left - right)
    only_right = sorted(right - left) if p.relation == "equal" else []
    if not only_left and not only_right:
        if p.relation == "equal":
            msg = f"the {len(left)} {p.left} ids are the same set as the {len(right)} {p.right} ids"
        else:
            msg = f"all {len(left)} {p.left} ids are among the {len(right)} {p.right} ids"
        return [passed(msg, "", p.left, len(left), len(right))]
    out: list[Finding] = []
    if only_left:
        out.append(failed(f"{_ids(len(only_left), p.left)} not in {p.right}: {listing(only_left)}",
                          "", p.left, only_left[:10], f"ids of {p.right}"))
    if only_right:
        out.append(failed(f"{_ids(len(only_right), p.right)} not in {p.left}: {listing(only_right)}",
                          "", p.right, only_right[:10], f"ids of {p.left}"))
    return out


# --- qa_labels ---------------------------------------------------------------------------


@dataclass(frozen=True)
class LabelsParams:
    __pydantic_config__ = FORBID
    document: str = "eval_log"
    evaluator: str = "/official_qa/evaluator_model"
    model_ids: dict[str, str] = field(default_factory=dict)
    label_field: str = "autoeval_label"
    allow_bare_bool: bool = True
    show: int = 3

    def __post_init__(self) -> None:
        if self.show < 1:
            raise ValueError(f"show must be 1 or more, got {self.show}")


def _model_name(declared: str, model_ids: Mapping[str, str]) -> str:
    full = normalize_model(declared, model_ids)
    return declared if full == declared else f"{declared} ({full})"


@kind("qa_labels", LabelsParams, "every evaluator label is valid and from the declared model")
def qa_labels(ctx: Context, p: LabelsParams) -> Iterable[Finding]:
    """Every row of the evaluator log has a valid label, and the label model is the declared
    evaluator: the report's short name is mapped to the full id by ``model_ids`` (a table in the
    policy, e.g. ``gpt-4o: gpt-4o-2024-08-06``). Bad rows are counted and the first few shown.
    Params: ``document`` (default ``eval_log``), ``evaluator`` (ref, default
    ``/official_qa/evaluator_model``), ``model_ids``, ``label_field`` (default
    ``autoeval_label``), ``allow_bare_bool`` (default true), ``show`` (default 3). A log that
    mixes bare labels with ``{"model", "label"}`` labels fails: the bare rows would escape the
    evaluator-model check.
    """
    declared, drole, dptr = need(ctx, p.evaluator)
    if not isinstance(declared, str) or not declared.strip():
        raise Fail(f"{ref_label(drole, dptr)} must be a model name, got {described(declared)}",
                   dptr, drole, jsonable(declared), "a model name")
    want = normalize_model(declared, p.model_ids)
    doc = ctx.doc(p.document)
    rows = entries(doc)
    if not rows:
        raise Fail(f"{p.document} has no rows", document=p.document)
    bad: list[str] = []
    models: Counter[str] = Counter()
    counts = Counter()
    bare_at: list[str] = []
    for entry in rows:
        obj = entry.value
        if not isinstance(obj, dict):
            bad.append(f"{entry.where}: row is {type_name(obj)}, not an object")
            continue
        raw = obj.get(p.label_field, MISSING)
        label, model, problem = parse_label(raw, p.allow_bare_bool)
        if problem:
            bad.append(f"{entry.where}: " + (f"has no {p.label_field}" if raw is MISSING else problem))
            continue
        if model is not None and normalize_model(model, p.model_ids) != want:
            bad.append(f"{entry.where}: label model {show(model)} is not the declared evaluator "
                       f"{_model_name(declared, p.model_ids)}")
            continue
        models[model or "bare boolean"] += 1
        counts[bool(label)] += 1
        if model is None:
            bare_at.append(entry.where)
    out: list[Finding] = []
    if bad:
        out.append(failed(f"{len(bad)} of {len(rows)} {p.document} rows {_has(len(bad))} an invalid label or "
                          f"another evaluator; first: {'; '.join(bad[:p.show])}", "", p.document, len(bad), 0))
        out += [failed(f"{p.document} {b}", "", p.document) for b in bad]
    shaped = len(rows) - len(bad) - len(bare_at)
    if bare_at and shaped:
        # one evaluator run writes one label shape; a mix is two runs stitched together, and the
        # bare rows escape the evaluator-model check
        out.append(failed(f"{p.document} mixes {plural(len(bare_at), 'bare true/false label')} with {shaped} "
                          f"{{\"model\", \"label\"}} labels: rows of two evaluator runs, the bare ones from no "
                          f"declared evaluator (first bare: {listing(bare_at)})", "", p.document, len(bare_at), 0))
    if out:
        return out
    kinds = ", ".join(f"{n} from {m}" if m != "bare boolean" else f"{n} bare booleans"
                      for m, n in sorted(models.items()))
    return [passed(f"all {len(rows)} {p.document} labels are valid, {counts[True]} true and {counts[False]} "
                   f"false: {kinds}, the declared evaluator {declared}", "", p.document, len(rows), len(rows))]


# --- qa_accuracy -------------------------------------------------------------------------


@dataclass(frozen=True)
class AccuracyParams:
    __pydantic_config__ = FORBID
    eval_log: str = "eval_log"
    dataset: str | None = "dataset"
    evaluated_count: str | None = "/official_qa/evaluated_count"
    correct_count: str | None = "/official_qa/correct_count"
    accuracy: str | None = "/official_qa/accuracy"
    hypothesis_count: str | None = "/official_qa/hypothesis_count"
    places: int = 6
    label_field: str = "autoeval_label"
    id_field: str = "question_id"
    split_accepted: dict[str, list[str]] | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.places <= 12:
            raise ValueError(f"places must be between 0 and 12, got {self.places}")


def stated(raw: Any, exact: Fraction, places: int | None) -> rounding.Judgement | None:
    """How a claimed accuracy (a fraction) states ``exact``: the rule of :mod:`bench_gate.text.rounding`,
    with ``places`` the decimals its producer is declared to round to; None when it is no number."""
    return rounding.judge(raw, exact, places=places)


@kind("qa_accuracy", AccuracyParams, "counts and accuracy recomputed from the evaluator log; task-averaged too")
def qa_accuracy(ctx: Context, p: AccuracyParams) -> Iterable[Finding]:
    """Recomputes and compares: ``evaluated_count`` = rows, ``correct_count`` = true labels,
    ``correct_count`` <= ``evaluated_count``, ``hypothesis_count`` = rows, and ``accuracy``
    states correct/evaluated: exactly, as its double, rounded to the decimals it is written with
    (at least 3), or rounded to ``places`` decimals (default 6, the places its producer rounds
    to), the rule of ``bench-gate kinds aggregate``. With a ``dataset``
    it also computes the task-averaged accuracy and states both. Params: ``eval_log``,
    ``dataset`` (role or null), ``evaluated_count``, ``correct_count``, ``accuracy``,
    ``hypothesis_count`` (refs; null skips that comparison), ``places``, ``label_field``,
    ``id_field``, ``split_accepted`` (accepted dataset hashes by file name; when given, the
    message starts with the LongMemEval split the report names, see :mod:`.official_split`).
    """
    t = tally(ctx, p.eval_log, p.dataset, p.label_field, p.id_field)
    out: list[Finding] = []
    counts: dict[str, int] = {}
    for name, ref, actual in (("evaluated_count", p.evaluated_count, t.evaluated),
                              ("correct_count", p.correct_count, t.correct),
                              ("hypothesis_count", p.hypothesis_count, t.evaluated)):
        if ref is None:
            continue
        value, role, ptr = need(ctx, ref)
        claimed = as_count(value, ref_label(role, ptr), ptr, role)
        counts[name] = claimed
        if claimed != actual:
            what = {"evaluated_count": f"the {actual} {p.eval_log} rows",
                    "correct_count": f"the {actual} true labels in {p.eval_log}",
                    "hypothesis_count": f"the {actual} evaluated rows"}[name]
            out.append(failed(f"{ref_label(role, ptr)} {claimed} differs from {what}", ptr, role, claimed, actual))
    if "correct_count" in counts and "evaluated_count" in counts and counts["correct_count"] > counts["evaluated_count"]:
        assert p.correct_count is not None
        out.append(failed(f"{dotted(p.correct_count)} {counts['correct_count']} is greater than "
                          f"{dotted(p.evaluated_count or '')} {counts['evaluated_count']}", p.correct_count,
                          "report", counts["correct_count"], f"<= {counts['evaluated_count']}"))
    claimed_acc = ""
    if p.accuracy is not None:
        _, raw, role, ptr = _number(ctx, p.accuracy)
        judgement = stated(raw, t.overall, p.places)
        assert judgement is not None  # _number accepted it as a number
        if not judgement.ok:
            out.append(failed(f"{ref_label(role, ptr)}: {judgement.sentence(f'the exact value {t.correct}/{t.evaluated}')}",
                              ptr, role, jsonable(raw), float(t.overall)))
        how = judgement.how_text()
        claimed_acc = f" (report {show(raw)}{', ' + how if how else ''})"
    if out:
        return out
    text = f"{t.correct}/{t.evaluated} correct: overall accuracy {show_acc(t.overall)}{claimed_acc}"
    if p.split_accepted is not None:  # the split leads: an oracle 0.9 is not an S 0.9
        text = f"{split_label(ctx, p.split_accepted)}: {text}"
    if t.task_averaged is not None:
        text += (f"; task-averaged accuracy {show_acc(t.task_averaged)} over "
                 f"{plural(len(t.by_type), 'question type')}")
    return [passed(text, p.accuracy or "", "report", tally_actual(t), "counts and accuracy as recomputed")]


def _number(ctx: Context, ref: str) -> tuple[Fraction, Any, str, str]:
    value, role, ptr = need(ctx, ref)
    return as_number(value, ref_label(role, ptr), ptr, role), value, role, ptr


# --- qa_beats_baseline / qa_accuracy_at_least --------------------------------------------

_RETRIEVAL = re.compile(r"recall|ndcg|hit|mrr|precision|answer@|@\d|retriev|citation", re.IGNORECASE)
_KIND_WORDS = {"overall": "overall accuracy", "task_averaged": "task-averaged accuracy"}


@dataclass(frozen=True)
class BeatsParams:
    __pydantic_config__ = FORBID
    metrics: dict[str, Kind]
    eval_log: str = "eval_log"
    dataset: str | None = "dataset"
    baseline_accuracy: str = "baseline:/accuracy"
    baseline_metric: str = "baseline:/metric"
    baseline_system: str | None = "baseline:/system"
    label_field: str = "autoeval_label"
    id_field: str = "question_id"


def _fraction_in_unit(ctx: Context, ref: str) -> tuple[Fraction, Any, str, str]:
    exact, raw, role, ptr = _number(ctx, ref)
    if not 0 <= exact <= 1:
        hint = " (it looks like a percent; write a fraction)" if 1 < exact <= 100 else ""
        raise Fail(f"{ref_label(role, ptr)} {show(raw)} is not a fraction in [0, 1]{hint}", ptr, role,
                   jsonable(raw), "a fraction in [0, 1]")
    return exact, raw, role, ptr


@kind("qa_beats_baseline", BeatsParams, "recomputed accuracy of the baseline metric's kind is strictly greater")
def qa_beats_baseline(ctx: Context, p: BeatsParams) -> Iterable[Finding]:
    """Our accuracy of the kind named by the baseline's metric (``metrics`` maps each accepted
    metric name to ``overall`` or ``task_averaged``), recomputed from the evidence, is strictly
    greater than the baseline's accuracy (a fraction in [0, 1]; a tie fails). A metric not in
    the table (``recall@5``...) fails. Params: ``metrics`` (required), ``eval_log``,
    ``dataset``, ``baseline_accuracy`` (default ``baseline:/accuracy``), ``baseline_metric``
    (default ``baseline:/metric``), ``baseline_system`` (default ``baseline:/system``).
    """
    metric, mrole, mptr = need(ctx, p.baseline_metric)
    allowed = ", ".join(sorted(p.metrics))
    if not isinstance(metric, str) or metric not in p.metrics:
        why = " is a retrieval metric, not an official QA accuracy;" if isinstance(metric, str) and \
            _RETRIEVAL.search(metric) else " is not an accepted official QA accuracy metric;"
        raise Fail(f"{ref_label(mrole, mptr)} {show(metric)}{why} expected one of {allowed}", mptr, mrole,
                   jsonable(metric), sorted(p.metrics))
    kind = p.metrics[metric]
    if kind == "task_averaged" and p.dataset is None:
        raise Fail("a task-averaged baseline needs the dataset's question types (dataset: null)")
    base, raw, brole, bptr = _fraction_in_unit(ctx, p.baseline_accuracy)
    system = ""
    if p.baseline_system:
        sval, _, _ = lookup(ctx, p.baseline_system)
        system = f"{sval} " if isinstance(sval, str) and sval.strip() else ""
    t = tally(ctx, p.eval_log, p.dataset if (kind == "task_averaged" or p.dataset) else None,
              p.label_field, p.id_field)
    ours = t.accuracy(kind)
    assert ours is not None
    words = _KIND_WORDS[kind]
    theirs = f"baseline {system}{show(raw)} ({metric})"
    actual = tally_actual(t)
    expected = f"> {show(raw)}"
    if ours > base:
        return [passed(f"{words} {show_acc(ours)} (recomputed) is greater than {theirs}", bptr, brole,
                       actual, expected)]
    other_kind: Kind = "task_averaged" if kind == "overall" else "overall"
    other = t.accuracy(other_kind)
    note = ""
    if other is not None and other > base:
        note = (f"; {_KIND_WORDS[other_kind]} {show_acc(other)} would be greater, but the baseline is "
                f"{words} and only the same kind is compared")
    if ours == base:
        return [failed(f"{words} {show_acc(ours)} (recomputed) equals {theirs}: a tie is not better{note}",
                       bptr, brole, actual, expected)]
    return [failed(f"{words} {show_acc(ours)} (recomputed) is not greater than {theirs}{note}", bptr, brole,
                   actual, expected)]


@dataclass(frozen=True)
class AtLeastParams:
    __pydantic_config__ = FORBID
    min: Number | None = None
    metric: Kind = "overall"
    eval_log: str = "eval_log"
    dataset: str | None = "dataset"
    label_field: str = "autoeval_label"
    id_field: str = "question_id"


@kind("qa_accuracy_at_least", AtLeastParams, "recomputed accuracy is at least a minimum")
def qa_accuracy_at_least(ctx: Context, p: AtLeastParams) -> Iterable[Finding]:
    """The recomputed accuracy of kind ``metric`` (``overall`` default, or ``task_averaged``) is at
    least ``min`` (null: skipped, e.g. no ``--min-accuracy``).
    """
    if p.min is None:
        return [skipped("no minimum accuracy is set")]
    limit = exact_number(p.min)
    if limit is None or not 0 <= limit <= 1:
        raise Fail(f"the minimum accuracy {show(p.min)} is not a fraction in [0, 1]", actual=jsonable(p.min),
                   expected="a fraction in [0, 1]")
    t = tally(ctx, p.eval_log, p.dataset if p.metric == "task_averaged" else None, p.label_field, p.id_field)
    ours = t.accuracy(p.metric)
    if ours is None:
        raise Fail("task-averaged accuracy needs the dataset's question types")
    words = _KIND_WORDS[p.metric]
    if ours >= limit:
        return [passed(f"{words} {show_acc(ours)} (recomputed) is at least the minimum {show(p.min)}",
                       "", p.eval_log, float(ours), f">= {show(p.min)}")]
    return [failed(f"{words} {show_acc(ours)} (recomputed) is below the minimum {show(p.min)}",
                   "", p.eval_log, float(ours), f">= {show(p.min)}")]


# --- same_evaluator ----------------------------------------------------------------------


@dataclass(frozen=True)
class SameEvaluatorParams:
    __pydantic_config__ = FORBID
    ours: str = "/official_qa/evaluator_model"
    theirs: str = "baseline:/evaluator_model"
    model_ids: dict[str, str] = field(default_factory=dict)
    placeholders: list[str] = field(default_factory=lambda: list(DEFAULT_PLACEHOLDERS))
    require: Literal["match", "disclosed"] = "match"


@kind("same_evaluator", SameEvaluatorParams, "two evaluator models are the same (or disclosed)")
def same_evaluator(ctx: Context, p: SameEvaluatorParams) -> Iterable[Finding]:
    """``ours`` and ``theirs`` name the same evaluator model (compared through ``model_ids``).
    ``require: match`` fails on a different model and skips a placeholder (``not_disclosed``,
    ``unknown``, blank...) or an absent value; ``require: disclosed`` fails on a placeholder
    (use it at severity warning: the comparison is then not like for like).
    """
    theirs, trole, tptr = lookup(ctx, p.theirs)
    tlabel = ref_label(trole, tptr)
    if theirs is MISSING or theirs is None:
        msg = f"{tlabel} is not given: the baseline's evaluator is unknown, so the comparison is not like for like"
        if p.require == "disclosed":  # leaving the field out is no better than writing "not_disclosed"
            return [failed(msg, tptr, trole, None, "a disclosed evaluator model")]
        return [skipped(f"{tlabel} is not given; nothing to compare", tptr, trole)]
    if not isinstance(theirs, str):
        raise Fail(f"{tlabel} must be a model name, got {described(theirs)}", tptr, trole,
                   jsonable(theirs), "a model name")
    placeholder = theirs.strip().lower() in {x.strip().lower() for x in p.placeholders}
    if placeholder:
        msg = (f"{tlabel} {show(theirs)} is a placeholder: the baseline's evaluator is unknown, so the "
               "comparison is not like for like")
        if p.require == "disclosed":
            return [failed(msg, tptr, trole, theirs, "a disclosed evaluator model")]
        return [skipped(msg, tptr, trole)]
    if p.require == "disclosed":
        return [passed(f"{tlabel} {show(theirs)} is disclosed", tptr, trole, theirs, "a disclosed evaluator model")]
    ours, orole, optr = need(ctx, p.ours)
    if not isinstance(ours, str) or not ours.strip():
        raise Fail(f"{ref_label(orole, optr)} must be a model name, got {described(ours)}",
                   optr, orole, jsonable(ours), "a model name")
    if normalize_model(ours, p.model_ids) != normalize_model(theirs, p.model_ids):
        return [failed(f"{tlabel} {_model_name(theirs, p.model_ids)} is not our evaluator "
                       f"{_model_name(ours, p.model_ids)}: the accuracies are not comparable", tptr, trole,
                       theirs, ours)]
    return [passed(f"{tlabel} {_model_name(theirs, p.model_ids)} is our evaluator "
                   f"{_model_name(ours, p.model_ids)}", tptr, trole, theirs, ours)]


# --- official_eval_command ---------------------------------------------------------------

# Characters a shell would act on: a command holding one is more than the evaluator command.
_SHELL = re.compile(r"[;&|<>`$(){}\n\r*?\[\]#]")
OFFICIAL_DATASETS = ("longmemeval_s_cleaned.json", "longmemeval_m_cleaned.json", "longmemeval_oracle.json",
                     "longmemeval_s.json", "longmemeval_m.json")


@dataclass(frozen=True)
class CommandParams:
    __pydantic_config__ = FORBID
    command: str = "/official_qa/official_eval_command"
    evaluator: str = "/official_qa/evaluator_model"
    hypotheses: str = "/official_qa/hypothesis_path"
    dataset: str | None = "/official_qa/dataset_path"
    script: str = "evaluate_qa.py"
    reference_files: list[str] = field(default_factory=lambda: list(OFFICIAL_DATASETS))
    model_ids: dict[str, str] = field(default_factory=dict)


def _string(ctx: Context, ref: str) -> tuple[str, str, str]:
    value, role, ptr = need(ctx, ref)
    if not isinstance(value, str) or not value.strip():
        raise Fail(f"{ref_label(role, ptr)} must be a non-empty string, got {described(value)}",
                   ptr, role, jsonable(value), "a non-empty string")
    return value, role, ptr


@kind("official_eval_command", CommandParams, "the command runs the official evaluator with the declared model and hypotheses")
def official_eval_command(ctx: Context, p: CommandParams) -> Iterable[Finding]:
    """The command is exactly ``[python] <path/>evaluate_qa.py MODEL HYPOTHESES REFERENCE``.

    Anything else is refused before any part is compared: a first word that is neither the
    interpreter nor the script (``echo evaluate_qa.py ...``, ``env X=1 python3 ...``), a
    shell character anywhere (``; rm -rf /``, ``&&``, ``$(...)``, a redirection), or more or
    fewer than three arguments.
    """
    command, role, ptr = _string(ctx, p.command)
    label = ref_label(role, ptr)
    model, _, _ = _string(ctx, p.evaluator)
    hyp, _, _ = _string(ctx, p.hypotheses)
    usage = f"[python3] {p.script} <evaluator model> <hypotheses file> <reference file>"
    bad = _SHELL.search(command)
    if bad:
        raise Fail(f"{label} holds the shell character {bad.group()!r}: it is more than the official evaluator "
                   f"command ({show(command, 120)})", ptr, role, command, usage)
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise Fail(f"{label} cannot be split into words ({exc})", ptr, role, command, usage) from None
    if words and INTERPRETER.fullmatch(posixpath.basename(words[0])):
        words = words[1:]
    if not words or posixpath.basename(words[0]) != p.script:
        raise Fail(f"{label} does not run {p.script}: {show(command, 120)}", ptr, role, command, usage)
    args = words[1:]
    if len(args) != 3:
        raise Fail(f"{label} passes {len(args)} arguments to {p.script}, expected exactly 3 ({usage})", ptr, role,
                   command, usage)
    out: list[Finding] = []
    if normalize_model(args[0], p.model_ids) != normalize_model(model, p.model_ids):
        out.append(failed(f"{label} evaluates with {show(args[0])}, but the declared evaluator is {show(model)}",
                          ptr, role, args[0], model))
    want = posixpath.basename(hyp)
    if posixpath.basename(args[1]) != want:
        out.append(failed(f"{label} evaluates {show(args[1])}, not the hypotheses file {show(want)}",
                          ptr, role, args[1], want))
    refs = list(p.reference_files)
    if p.dataset is not None:
        dataset, _, _ = lookup(ctx, p.dataset)
        if isinstance(dataset, str) and dataset.strip():
            refs.append(posixpath.basename(dataset.replace("\\", "/")))
    if posixpath.basename(args[2]) not in refs:
        out.append(failed(f"{label} scores against {show(args[2])}, which is neither the dataset file nor an "
                          f"official LongMemEval file ({', '.join(sorted(set(refs)))})", ptr, role, args[2], refs))
    if out:
        return out
    return [passed(f"{label} runs {p.script} with evaluator {args[0]} on {posixpath.basename(args[1])} "
                   f"against {posixpath.basename(args[2])}", ptr, role, command, usage)]


# --- independent_validator ---------------------------------------------------------------


@dataclass(frozen=True)
class IndependentParams:
    __pydantic_config__ = FORBID
    relation: str = "/result_provenance/validator/relation"
    name: str = "/result_provenance/validator/name"
    system: str = "/result_provenance/validated_system/name"
    independent: list[str] = field(default_factory=lambda: list(DEFAULT_INDEPENDENT_RELATIONS))
    run_id: str | None = "/result_provenance/validator/run_id"
    evidence_url: str | None = "/result_provenance/validator/evidence_url"
    examples: list[str] = field(default_factory=list)
    role_words: list[str] = field(default_factory=list)


def only_roles(key: str, words: frozenset[str]) -> bool:
    """The skeleton ``key`` is a run of role words and nothing else (``thirdpartyvalidator``)."""
    if not key or not words:
        return False
    ends = [True] + [False] * len(key)  # ends[i]: key[:i] splits into role words
    for i in range(1, len(key) + 1):
        ends[i] = any(ends[i - len(w)] and key[i - len(w):i] == w for w in words if len(w) <= i)
    return ends[-1]


def _host(text: str) -> str:
    """The lower-case host of an http(s) URL ('' for anything else)."""
    try:
        parsed = urlsplit(text.strip())
        return (parsed.hostname or "").rstrip(".") if parsed.scheme.lower() in ("http", "https") else ""
    except ValueError:
        return ""


def _template_values(ctx: Context, p: IndependentParams, skeleton: Any) -> list[Finding]:
    """The documented example values and role-only names: placeholders, never an identity."""
    examples = {skeleton(e) for e in p.examples if skeleton(e)}
    hosts = {_host(e) for e in p.examples} - {""}
    out: list[Finding] = []
    for what, ref in (("name", p.name), ("run id", p.run_id), ("evidence URL", p.evidence_url)):
        if ref is None:
            continue
        value, role, ptr = lookup(ctx, ref)
        if isinstance(value, str) and skeleton(value) in examples:
            out.append(failed(f"{ref_label(role, ptr)} {show(value)} is the example value of the validator "
                              f"record's documentation (longmembench-validator-evidence), a placeholder: not a "
                              f"validator's {what}", ptr, role, value, "the validator's own " + what))
        elif what == "evidence URL" and isinstance(value, str) and _host(value) in hosts:
            # another path or a query on the example's host is still the example's site
            out.append(failed(f"{ref_label(role, ptr)} {show(value)} is on {_host(value)}, the host of the "
                              "validator record's documentation example (longmembench-validator-evidence): not a "
                              "validator's own evidence", ptr, role, value, "the validator's own evidence URL"))
    name, nrole, nptr = lookup(ctx, p.name)
    if isinstance(name, str) and skeleton(name) not in examples and \
            only_roles(skeleton(name), frozenset(skeleton(w) for w in p.role_words if skeleton(w))):
        out.append(failed(f"{ref_label(nrole, nptr)} {show(name)} names a role, not a person or an organisation: "
                          "who validated the run is unknown", nptr, nrole, name, "a validator's own name"))
    return out


@kind("independent_validator", IndependentParams, "the validator is not the system itself or its authors")
def independent_validator(ctx: Context, p: IndependentParams) -> Iterable[Finding]:
    """Relation on an allow-list, names compared as a reader sees them (see :mod:`.skeleton`)."""
    from bench_gate.text.canonical import skeleton

    relation, rrole, rptr = _string(ctx, p.relation)
    name, nrole, nptr = _string(ctx, p.name)
    system, srole, sptr = _string(ctx, p.system)
    rlabel = ref_label(rrole, rptr)
    allowed = {skeleton(r): r for r in p.independent if skeleton(r)}
    sys_key = skeleton(system)
    if not sys_key:
        raise Fail(f"{ref_label(srole, sptr)} {show(system)} has no letters or digits: the system cannot be "
                   "told apart from its validator", sptr, srole, system, "a system name")
    rel_key = skeleton(relation)
    if rel_key not in allowed:
        # an allow-list, not a deny-list: "employees", "owners", "sel\u00adf" are not independent
        return [failed(f"{rlabel} {show(relation)} is not an independent relation (accepted: "
                       f"{', '.join(p.independent)})", rptr, rrole, relation, p.independent)]
    name_key = skeleton(name)
    if not name_key:
        return [failed(f"{ref_label(nrole, nptr)} {show(name)} has no letters or digits: it names no validator",
                       nptr, nrole, name, "a validator name")]
    if sys_key in name_key or name_key in sys_key:
        # "Zaxy", "Zаxy" (Cyrillic a), "ＺａｘｙLabs": a validator named after the system is not independent
        return [failed(f"{ref_label(nrole, nptr)} {show(name)} reads as the validated system's name "
                       f"{show(system)} (compared as {name_key!r} and {sys_key!r})", nptr, nrole, name,
                       f"not {system}")]
    template = _template_values(ctx, p, skeleton)
    if template:
        return template
    return [passed(f"validator {show(name)} is {show(relation)} ({allowed[rel_key]}) to {show(system)}", rptr,
                   rrole, relation, p.independent)]
