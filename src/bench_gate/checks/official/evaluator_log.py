"""The official LongMemEval evaluator log, read and counted: its rows and ids, its labels, and
the kinds that check them (``qa_rows``, ``qa_id_sets``, ``qa_labels``).

The official evaluation writes one JSON Lines row per hypothesis with an ``autoeval_label``
(``{"model": "<full model id>", "label": true|false}``; a bare ``true``/``false`` is accepted
too). The official kinds never trust the report's numbers: they count the rows, the ids and the
true labels themselves (:func:`tally`), and compute **overall accuracy** (mean of all labels) and
**task-averaged accuracy** (mean over question types of each type's mean, types taken from the
dataset) as exact fractions; :mod:`bench_gate.checks.official.accuracy` compares them with the
claims.

Documents are named by role (defaults: ``hypotheses``, ``eval_log``, ``dataset``); a dataset
may be loaded with format ``dataset`` (streamed: ids and question types only) or ``json``.

Example:

.. code-block:: yaml

   - id: eval-log-labels
     check: qa_labels
     with: {document: eval_log, model_ids: {gpt-4o: gpt-4o-2024-08-06}}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any, Literal

from bench_gate.records import field, record
from bench_gate.text.canonical import collisions, describe
from bench_gate.text.canonical import shown as shown_id
from bench_gate.checks.base import (
    described,
    kind,
    FORBID, MISSING, Context, Fail, failed, jsonable,
    need, passed, show, show_fraction, type_name,
)
from bench_gate.checks.generic.integrity import normalize_model, ref_label
from bench_gate.text.wording import listing, plural
from bench_gate.models import Doc, Finding

Kind = Literal["overall", "task_averaged"]


# --- reading rows and ids ----------------------------------------------------------------


@record
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


@record
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


@record
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


@record
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


@record
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


def model_name(declared: str, model_ids: Mapping[str, str]) -> str:
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
                       f"{model_name(declared, p.model_ids)}")
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
