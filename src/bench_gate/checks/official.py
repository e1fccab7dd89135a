"""Official LongMemEval QA evidence: recomputation from the raw files, hashes, validator, SOTA.

The official evaluation writes one JSON Lines row per hypothesis with an ``autoeval_label``
(``{"model": "<full model id>", "label": true|false}``; a bare ``true``/``false`` is accepted
too). These kinds never trust the report's numbers: they count the rows, the ids and the true
labels themselves, and compute **overall accuracy** (mean of all labels) and **task-averaged
accuracy** (mean over question types of each type's mean, types taken from the dataset) as
exact fractions. A comparison with a baseline uses the accuracy of the *same kind* as the
baseline's metric.

Documents are named by role (defaults: ``hypotheses``, ``eval_log``, ``dataset``); a dataset
may be loaded with format ``dataset`` (streamed: ids and question types only) or ``json``.

qa_rows
    A JSON Lines document (or a JSON array, or a streamed dataset) has exactly
    ``expected_count`` rows, each an object with a non-empty string ``id_field``, no id twice.
    Params: ``document`` (role, required), ``expected_count`` (integer, default none: any),
    ``id_field`` (default ``question_id``).

qa_type_counts
    The report's question counts by type (``at``, default ``/external_suite/dataset_counts``)
    equal the counts of the dataset's question types. Absent: skipped unless ``optional: false``.

qa_id_sets
    The ids of ``left`` are the same set as the ids of ``right`` (``relation: equal``), or a
    subset of them (``relation: subset``). Params: ``left``, ``right``, ``relation``,
    ``id_field``.

qa_labels
    Every row of the evaluator log has a valid label, and the label model is the declared
    evaluator: the report's short name is mapped to the full id by ``model_ids`` (a table in the
    policy, e.g. ``gpt-4o: gpt-4o-2024-08-06``). Bad rows are counted and the first few shown.
    Params: ``document`` (default ``eval_log``), ``evaluator`` (ref, default
    ``/official_qa/evaluator_model``), ``model_ids``, ``label_field`` (default
    ``autoeval_label``), ``allow_bare_bool`` (default true), ``show`` (default 3).

qa_accuracy
    Recomputes and compares: ``evaluated_count`` = rows, ``correct_count`` = true labels,
    ``correct_count`` <= ``evaluated_count``, ``hypothesis_count`` = rows, and ``accuracy`` =
    correct/evaluated exactly or rounded to ``places`` decimals (default 6). With a ``dataset``
    it also computes the task-averaged accuracy and states both. Params: ``eval_log``,
    ``dataset`` (role or null), ``evaluated_count``, ``correct_count``, ``accuracy``,
    ``hypothesis_count`` (refs; null skips that comparison), ``places``, ``label_field``,
    ``id_field``.

qa_beats_baseline
    Our accuracy of the kind named by the baseline's metric (``metrics`` maps each accepted
    metric name to ``overall`` or ``task_averaged``), recomputed from the evidence, is strictly
    greater than the baseline's accuracy (a fraction in [0, 1]; a tie fails). A metric not in
    the table (``recall@5``...) fails. Params: ``metrics`` (required), ``eval_log``,
    ``dataset``, ``baseline_accuracy`` (default ``baseline:/accuracy``), ``baseline_metric``
    (default ``baseline:/metric``), ``baseline_system`` (default ``baseline:/system``).

qa_accuracy_at_least
    The recomputed accuracy of kind ``metric`` (``overall`` default, or ``task_averaged``) is at
    least ``min`` (null: skipped, e.g. no ``--min-accuracy``).

same_evaluator
    ``ours`` and ``theirs`` name the same evaluator model (compared through ``model_ids``).
    ``require: match`` fails on a different model and skips a placeholder (``not_disclosed``,
    ``unknown``, blank...) or an absent value; ``require: disclosed`` fails on a placeholder
    (use it at severity warning: the comparison is then not like for like).

official_eval_command
    The recorded command runs ``script`` (``evaluate_qa.py``) with the declared evaluator model
    and the hypotheses file (same file name as ``hypotheses``), then a reference file.

sha256_matches
    The hash recorded at ``recorded`` is 64 lowercase hex and equals the SHA-256 of the bytes
    of ``document``; an empty document fails (a hash of no bytes proves nothing). Params: ``document``, ``recorded``, ``label``.

artifact_hashes
    Every entry ``{path, sha256, bytes}`` of the report's artifact table (``at``) names a file
    that the profile loads under a role (``roles``: artifact name -> role), and its path, hash
    and size match that file. An artifact the profile cannot hash fails.

cross_check
    Every pair of values agrees (``fields``: name -> [left ref, right ref]), with absolute
    ``tolerances`` by name, evaluator ``models`` compared through ``model_ids``; every recorded
    hash in ``hashes`` (name -> [ref, role]) equals the actual file hash. Every mismatch is
    listed. Params: ``fields``, ``hashes``, ``tolerances``, ``models``, ``model_ids``,
    ``label`` (default ``validator evidence``).

objects_agree
    Two objects (``left``, ``right``: e.g. the report's embedded ``/sota_baseline`` and the
    ``baseline:`` file) hold the same keys and values; every difference is listed. A null or
    absent ``left`` is skipped (``when_left_absent: fail`` to require it).

cli_conflicts
    Values given on the command line (``given``: option -> value or null) do not conflict with
    non-blank values at the refs of ``against`` (option -> refs); a conflict is rejected, never
    silently preferred.

independent_validator
    The validator's ``relation`` is a non-empty string naming no forbidden relation (token
    match against ``forbidden``: self, internal, author...), and neither the relation nor the
    validator's ``name`` is the validated system's own name (``system``).

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
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from bench_gate.checks.base import (
    FORBID, MISSING, CheckKind, Context, Fail, as_count, as_number, failed, jsonable, lookup,
    need, passed, show, show_fraction, skipped, split_ref, tokens, type_name,
)
from bench_gate.checks.generic import EMPTY_SHA256, same
from bench_gate.models import Doc, Finding, exact_number

Number = int | float
Kind = Literal["overall", "task_averaged"]
_HEX64 = re.compile(r"[0-9a-f]{64}")

DEFAULT_PLACEHOLDERS = ["", "not_disclosed", "not disclosed", "undisclosed", "unknown", "n/a",
                        "na", "none", "null", "tbd", "-", "?"]
DEFAULT_FORBIDDEN_RELATIONS = ["self", "internal", "author", "authors", "coauthor", "co-author",
                               "owner", "maintainer", "maintainers", "employee", "in-house",
                               "first-party", "same-team", "vendor", "own"]


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


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _listing(items: list[str], limit: int = 3) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def dotted(pointer: str) -> str:
    """``/official_qa/correct_count`` -> ``official_qa.correct_count`` for messages."""
    return ".".join(tokens(pointer)) or "the document"


def _ref_label(role: str, pointer: str) -> str:
    return dotted(pointer) if role == "report" else f"{role} {dotted(pointer)}"


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
            return None, None, f"label.label is {type_name(label)} {show(label)}, expected true or false"
        if not isinstance(model, str) or not model.strip():
            return None, None, f"label.model is {type_name(model)} {show(model)}, expected a model id"
        return label, model, None
    return None, None, (f"label is {type_name(value)} {show(value)}, "
                        "expected true/false or {\"model\", \"label\"}")


def normalize_model(name: str, model_ids: Mapping[str, str]) -> str:
    """The full model id for a short name (unchanged when the table does not know it)."""
    return model_ids.get(name.strip(), name.strip())


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
                   f"{'id has' if len(untyped) == 1 else 'ids have'} no question type in {dataset} (first: {_listing(untyped)})", document=eval_log)
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


def run_rows(ctx: Context, p: RowsParams) -> Iterable[Finding]:
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
                          f"(first: {_listing(missing)})", "", role, len(missing), 0))
    seen: dict[str, list[str]] = {}
    for where, qid in ids:
        if qid is not None:
            seen.setdefault(qid, []).append(where)
    dups = [(qid, wheres) for qid, wheres in seen.items() if len(wheres) > 1]
    if dups:
        shown = [f"{qid} ({', '.join(w)})" for qid, w in dups]
        out.append(failed(f"{len(dups)} {p.id_field} {'value appears' if len(dups) == 1 else 'values appear'} more than "
                          f"once in {role}: {_listing(shown)}",
                          "", role, len(dups), 0))
    if out:
        return out
    expected = f" (expected {p.expected_count})" if p.expected_count is not None else ""
    return [passed(f"{role} has {len(ids)} {noun}{expected}, {len(seen)} unique {p.id_field} values",
                   "", role, len(ids), p.expected_count if p.expected_count is not None else len(ids))]


# --- qa_type_counts ----------------------------------------------------------------------


@dataclass(frozen=True)
class TypeCountsParams:
    __pydantic_config__ = FORBID
    at: str = "/external_suite/dataset_counts"
    dataset: str = "dataset"
    optional: bool = True
    id_field: str = "question_id"


def run_type_counts(ctx: Context, p: TypeCountsParams) -> Iterable[Finding]:
    table, role, ptr = lookup(ctx, p.at)
    label = _ref_label(role, ptr)
    if table is MISSING or table is None:
        if p.optional:
            return [skipped(f"{label} is not given", ptr, role)]
        raise Fail(f"{label} is {'missing' if table is MISSING else 'null'}", ptr, role, None, "an object")
    if not isinstance(table, dict):
        raise Fail(f"{label} must be an object of counts by question type, got {type_name(table)}", ptr, role,
                   None, "an object")
    actual: Counter[str] = Counter()
    for qtype in types_of(ctx.doc(p.dataset), p.id_field).values():
        actual[qtype if qtype is not None else "(no type)"] += 1
    out: list[Finding] = []
    for qtype in sorted(set(table) | set(actual)):
        claimed = table.get(qtype, MISSING)
        where = f"{ptr}/{qtype.replace('~', '~0').replace('/', '~1')}"
        if claimed is MISSING:
            out.append(failed(f"{label} has no count for {qtype} ({actual[qtype]} in {p.dataset})", where, role,
                              None, actual[qtype]))
            continue
        count = as_count(claimed, f"{label}.{qtype}", where, role) if not isinstance(claimed, bool) and \
            isinstance(claimed, (int, float)) else None
        if count != actual[qtype]:
            out.append(failed(f"{label}.{qtype} is {show(claimed)}, but {p.dataset} has {actual[qtype]}", where, role,
                              jsonable(claimed), actual[qtype]))
    if out:
        return out
    shown = ", ".join(f"{k} {v}" for k, v in sorted(actual.items()))
    return [passed(f"{label} matches the {p.dataset}'s question types: {shown}", ptr, role, dict(actual),
                   dict(actual))]


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
        raise Fail(f"{role} {_listing(missing)} {'has' if len(missing) == 1 else 'have'} no {id_field}; "
                   "the id sets cannot be compared", document=role)
    return {qid for _, qid in ids if qid is not None}


def run_id_sets(ctx: Context, p: IdSetsParams) -> Iterable[Finding]:
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
        out.append(failed(f"{_ids(len(only_left), p.left)} not in {p.right}: {_listing(only_left)}",
                          "", p.left, only_left[:10], f"ids of {p.right}"))
    if only_right:
        out.append(failed(f"{_ids(len(only_right), p.right)} not in {p.left}: {_listing(only_right)}",
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


def run_labels(ctx: Context, p: LabelsParams) -> Iterable[Finding]:
    declared, drole, dptr = need(ctx, p.evaluator)
    if not isinstance(declared, str) or not declared.strip():
        raise Fail(f"{_ref_label(drole, dptr)} must be a model name, got {type_name(declared)} {show(declared)}",
                   dptr, drole, jsonable(declared), "a model name")
    want = normalize_model(declared, p.model_ids)
    doc = ctx.doc(p.document)
    rows = entries(doc)
    if not rows:
        raise Fail(f"{p.document} has no rows", document=p.document)
    bad: list[str] = []
    models: Counter[str] = Counter()
    counts = Counter()
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
    if bad:
        first = [failed(f"{len(bad)} of {len(rows)} {p.document} rows {_has(len(bad))} an invalid label or "
                        f"another evaluator; first: {'; '.join(bad[:p.show])}", "", p.document, len(bad), 0)]
        return first + [failed(f"{p.document} {b}", "", p.document) for b in bad]
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

    def __post_init__(self) -> None:
        if not 0 <= self.places <= 12:
            raise ValueError(f"places must be between 0 and 12, got {self.places}")


def rounded_ok(claimed: Fraction, exact: Fraction, places: int) -> bool:
    """Exactly equal, or ``exact`` rounded to ``places`` decimals (either way at a half)."""
    if claimed == exact:
        return True
    scale = 10**places
    return (claimed * scale).denominator == 1 and abs(claimed - exact) * scale <= Fraction(1, 2)


def run_accuracy(ctx: Context, p: AccuracyParams) -> Iterable[Finding]:
    t = tally(ctx, p.eval_log, p.dataset, p.label_field, p.id_field)
    out: list[Finding] = []
    counts: dict[str, int] = {}
    for name, ref, actual in (("evaluated_count", p.evaluated_count, t.evaluated),
                              ("correct_count", p.correct_count, t.correct),
                              ("hypothesis_count", p.hypothesis_count, t.evaluated)):
        if ref is None:
            continue
        value, role, ptr = need(ctx, ref)
        claimed = as_count(value, _ref_label(role, ptr), ptr, role)
        counts[name] = claimed
        if claimed != actual:
            what = {"evaluated_count": f"the {actual} {p.eval_log} rows",
                    "correct_count": f"the {actual} true labels in {p.eval_log}",
                    "hypothesis_count": f"the {actual} evaluated rows"}[name]
            out.append(failed(f"{_ref_label(role, ptr)} {claimed} differs from {what}", ptr, role, claimed, actual))
    if "correct_count" in counts and "evaluated_count" in counts and counts["correct_count"] > counts["evaluated_count"]:
        assert p.correct_count is not None
        out.append(failed(f"{dotted(p.correct_count)} {counts['correct_count']} is greater than "
                          f"{dotted(p.evaluated_count or '')} {counts['evaluated_count']}", p.correct_count,
                          "report", counts["correct_count"], f"<= {counts['evaluated_count']}"))
    claimed_acc = ""
    if p.accuracy is not None:
        exact, raw, role, ptr = _number(ctx, p.accuracy)
        if not rounded_ok(exact, t.overall, p.places):
            out.append(failed(f"{_ref_label(role, ptr)} {show(raw)} is not {t.correct}/{t.evaluated} = "
                              f"{show_acc(t.overall)} (exact, or rounded to {p.places} places)", ptr, role,
                              jsonable(raw), float(t.overall)))
        claimed_acc = f" (report {show(raw)})"
    if out:
        return out
    text = f"{t.correct}/{t.evaluated} correct: overall accuracy {show_acc(t.overall)}{claimed_acc}"
    if t.task_averaged is not None:
        text += (f"; task-averaged accuracy {show_acc(t.task_averaged)} over "
                 f"{_plural(len(t.by_type), 'question type')}")
    return [passed(text, p.accuracy or "", "report", tally_actual(t), "counts and accuracy as recomputed")]


def _number(ctx: Context, ref: str) -> tuple[Fraction, Any, str, str]:
    value, role, ptr = need(ctx, ref)
    return as_number(value, _ref_label(role, ptr), ptr, role), value, role, ptr


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
        raise Fail(f"{_ref_label(role, ptr)} {show(raw)} is not a fraction in [0, 1]{hint}", ptr, role,
                   jsonable(raw), "a fraction in [0, 1]")
    return exact, raw, role, ptr


def run_beats(ctx: Context, p: BeatsParams) -> Iterable[Finding]:
    metric, mrole, mptr = need(ctx, p.baseline_metric)
    allowed = ", ".join(sorted(p.metrics))
    if not isinstance(metric, str) or metric not in p.metrics:
        why = " is a retrieval metric, not an official QA accuracy;" if isinstance(metric, str) and \
            _RETRIEVAL.search(metric) else " is not an accepted official QA accuracy metric;"
        raise Fail(f"{_ref_label(mrole, mptr)} {show(metric)}{why} expected one of {allowed}", mptr, mrole,
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


def run_at_least(ctx: Context, p: AtLeastParams) -> Iterable[Finding]:
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


def run_same_evaluator(ctx: Context, p: SameEvaluatorParams) -> Iterable[Finding]:
    theirs, trole, tptr = lookup(ctx, p.theirs)
    tlabel = _ref_label(trole, tptr)
    if theirs is MISSING or theirs is None:
        msg = f"{tlabel} is not given: the baseline's evaluator is unknown, so the comparison is not like for like"
        if p.require == "disclosed":  # leaving the field out is no better than writing "not_disclosed"
            return [failed(msg, tptr, trole, None, "a disclosed evaluator model")]
        return [skipped(f"{tlabel} is not given; nothing to compare", tptr, trole)]
    if not isinstance(theirs, str):
        raise Fail(f"{tlabel} must be a model name, got {type_name(theirs)} {show(theirs)}", tptr, trole,
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
        raise Fail(f"{_ref_label(orole, optr)} must be a model name, got {type_name(ours)} {show(ours)}",
                   optr, orole, jsonable(ours), "a model name")
    if normalize_model(ours, p.model_ids) != normalize_model(theirs, p.model_ids):
        return [failed(f"{tlabel} {_model_name(theirs, p.model_ids)} is not our evaluator "
                       f"{_model_name(ours, p.model_ids)}: the accuracies are not comparable", tptr, trole,
                       theirs, ours)]
    return [passed(f"{tlabel} {_model_name(theirs, p.model_ids)} is our evaluator "
                   f"{_model_name(ours, p.model_ids)}", tptr, trole, theirs, ours)]


# --- official_eval_command ---------------------------------------------------------------


@dataclass(frozen=True)
class CommandParams:
    __pydantic_config__ = FORBID
    command: str = "/official_qa/official_eval_command"
    evaluator: str = "/official_qa/evaluator_model"
    hypotheses: str = "/official_qa/hypothesis_path"
    script: str = "evaluate_qa.py"
    model_ids: dict[str, str] = field(default_factory=dict)


def _string(ctx: Context, ref: str) -> tuple[str, str, str]:
    value, role, ptr = need(ctx, ref)
    if not isinstance(value, str) or not value.strip():
        raise Fail(f"{_ref_label(role, ptr)} must be a non-empty string, got {type_name(value)} {show(value)}",
                   ptr, role, jsonable(value), "a non-empty string")
    return value, role, ptr


def run_command(ctx: Context, p: CommandParams) -> Iterable[Finding]:
    command, role, ptr = _string(ctx, p.command)
    label = _ref_label(role, ptr)
    model, _, _ = _string(ctx, p.evaluator)
    hyp, _, _ = _string(ctx, p.hypotheses)
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise Fail(f"{label} cannot be split into words ({exc})", ptr, role, command, "a shell command") from None
    at = next((i for i, w in enumerate(words) if posixpath.basename(w) == p.script), None)
    if at is None:
        raise Fail(f"{label} does not run {p.script}: {show(command, 120)}", ptr, role, command,
                   f"{p.script} <evaluator model> <hypotheses file> <reference file>")
    args = words[at + 1:]
    usage = f"{p.script} <evaluator model> <hypotheses file> <reference file>"
    if len(args) < 3:
        raise Fail(f"{label} passes {len(args)} arguments to {p.script}, expected 3 ({usage})", ptr, role,
                   command, usage)
    out: list[Finding] = []
    if normalize_model(args[0], p.model_ids) != normalize_model(model, p.model_ids):
        out.append(failed(f"{label} evaluates with {show(args[0])}, but the declared evaluator is {show(model)}",
                          ptr, role, args[0], model))
    want = posixpath.basename(hyp)
    if posixpath.basename(args[1]) != want:
        out.append(failed(f"{label} evaluates {show(args[1])}, not the hypotheses file {show(want)}",
                          ptr, role, args[1], want))
    if out:
        return out
    return [passed(f"{label} runs {p.script} with evaluator {args[0]} on {posixpath.basename(args[1])}",
                   ptr, role, command, usage)]


# --- hashes ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sha256Params:
    __pydantic_config__ = FORBID
    document: str
    recorded: str
    label: str | None = None


def _short(digest: str) -> str:
    return digest[:12] + "…" if len(digest) > 12 else digest


def hash_problem(recorded: Any, actual: str, label: str, doc_label: str) -> str | None:
    """Why a recorded hash does not describe the file, or None."""
    if not isinstance(recorded, str):
        return f"{label} must be a 64-hex string, got {type_name(recorded)} {show(recorded)}"
    if not _HEX64.fullmatch(recorded):
        return f"{label} {show(recorded, 80)} is not 64 lowercase hex characters"
    if actual == EMPTY_SHA256:
        # a matching digest of zero bytes proves only that the evidence is empty
        return f"{doc_label} is empty (0 bytes): there is no evidence to hash"
    if recorded != actual:
        return f"{label} {_short(recorded)} does not match {doc_label} (sha256 {_short(actual)})"
    return None


def run_sha256(ctx: Context, p: Sha256Params) -> Iterable[Finding]:
    doc = ctx.doc(p.document)
    if not doc.sha256:
        raise Fail(f"document '{p.document}' ({doc.path}) has no hash", document=p.document)
    value, role, ptr = need(ctx, p.recorded)
    label = p.label or _ref_label(role, ptr)
    doc_label = f"the {p.document} file {doc.path}"
    problem = hash_problem(value, doc.sha256, label, doc_label)
    if problem:
        return [failed(problem, ptr, role, jsonable(value), doc.sha256)]
    return [passed(f"{label} {_short(value)} matches {doc_label} ({doc.size} bytes)", ptr, role, value, doc.sha256)]


@dataclass(frozen=True)
class ArtifactParams:
    __pydantic_config__ = FORBID
    roles: dict[str, str]
    at: str = "/artifacts"
    optional: bool = True


def run_artifacts(ctx: Context, p: ArtifactParams) -> Iterable[Finding]:
    table, role, ptr = lookup(ctx, p.at)
    label = _ref_label(role, ptr)
    if table is MISSING or table is None:
        if p.optional:
            return [skipped(f"{label} is not given", ptr, role)]
        raise Fail(f"{label} is {'missing' if table is MISSING else 'null'}", ptr, role, None, "an object")
    if not isinstance(table, dict):
        raise Fail(f"{label} must be an object, got {type_name(table)}", ptr, role, None, "an object")
    out: list[Finding] = []
    checked: list[str] = []
    for name, item in table.items():
        where = f"{ptr}/{name.replace('~', '~0').replace('/', '~1')}"
        if not isinstance(item, dict):
            out.append(failed(f"{label}.{name} must be an object {{path, sha256, bytes}}, got {type_name(item)}",
                              where, role))
            continue
        doc_role = p.roles.get(name)
        if doc_role is None:
            out.append(failed(f"{label}.{name} ({show(item.get('path'))}) is not a file this profile loads "
                              f"(known: {', '.join(sorted(p.roles))}); its hash cannot be verified", where, role))
            continue
        try:
            doc = ctx.doc(doc_role)
        except Fail as exc:
            out.append(failed(f"{label}.{name}: {exc.finding.message}", where, role))
            continue
        # "./data/x.json" and "data/x.json" name the same file; anything else must match as written
        written = item.get("path")
        if not isinstance(written, str) or posixpath.normpath(written) != posixpath.normpath(doc.path):
            out.append(failed(f"{label}.{name}.path {show(item.get('path'))} is not the {doc_role} file "
                              f"{show(doc.path)}", where + "/path", role, jsonable(item.get("path")), doc.path))
        problem = hash_problem(item.get("sha256"), doc.sha256,
                               f"{label}.{name}.sha256", f"the {doc_role} file {doc.path}")
        if problem:
            out.append(failed(problem, where + "/sha256", role, jsonable(item.get("sha256")), doc.sha256))
        size = item.get("bytes", MISSING)
        if size is MISSING:
            out.append(failed(f"{label}.{name}.bytes is missing", where + "/bytes", role, None, doc.size))
        elif isinstance(size, bool) or exact_number(size) != doc.size:
            out.append(failed(f"{label}.{name}.bytes {show(size)} is not the file's {doc.size} bytes",
                              where + "/bytes", role, jsonable(size), doc.size))
        checked.append(name)
    if out:
        return out
    if not checked:
        return [skipped(f"{label} lists no artifacts", ptr, role)]
    return [passed(f"{_plural(len(checked), 'artifact')} match their files' sha256 and size: {', '.join(checked)}",
                   ptr, role, len(checked), len(checked))]


# --- cross_check -------------------------------------------------------------------------


@dataclass(frozen=True)
class CrossCheckParams:
    __pydantic_config__ = FORBID
    fields: dict[str, list[str]] = field(default_factory=dict)
    hashes: dict[str, list[str]] = field(default_factory=dict)
    tolerances: dict[str, Number] = field(default_factory=dict)
    models: list[str] = field(default_factory=list)
    model_ids: dict[str, str] = field(default_factory=dict)
    label: str = "validator evidence"


def _blank(value: Any) -> bool:
    return value is MISSING or value is None or (isinstance(value, str) and not value.strip())


def _state(value: Any) -> str:
    if value is MISSING:
        return "missing"
    if value is None:
        return "null"
    if isinstance(value, str) and not value.strip():
        return "blank"
    return show(value)


def _compare(name: str, a: Any, b: Any, p: CrossCheckParams) -> bool:
    if name in p.tolerances:
        na, nb, tol = exact_number(a), exact_number(b), exact_number(p.tolerances[name])
        return na is not None and nb is not None and tol is not None and abs(na - nb) <= tol
    if name in p.models:
        return isinstance(a, str) and isinstance(b, str) and \
            normalize_model(a, p.model_ids) == normalize_model(b, p.model_ids)
    return same(a, b)


def run_cross_check(ctx: Context, p: CrossCheckParams) -> Iterable[Finding]:
    problems: list[Finding] = []
    short: list[str] = []
    for name, pair in p.fields.items():
        if len(pair) != 2:
            raise Fail(f"cross_check field {name!r} needs [left ref, right ref], got {len(pair)} refs")
        (a, arole, aptr), (b, brole, bptr) = lookup(ctx, pair[0]), lookup(ctx, pair[1])
        if _blank(a) or _blank(b) or not _compare(name, a, b, p):
            tol = f" (tolerance {show(p.tolerances[name])})" if name in p.tolerances else ""
            problems.append(failed(f"{name}: {_ref_label(arole, aptr)} is {_state(a)} but "
                                   f"{_ref_label(brole, bptr)} is {_state(b)}{tol}", aptr, arole,
                                   jsonable(a), jsonable(b)))
            short.append(f"{name} {_state(a)} vs {_state(b)}")
    for name, pair in p.hashes.items():
        if len(pair) != 2:
            raise Fail(f"cross_check hash {name!r} needs [ref, document role], got {len(pair)} items")
        value, role, ptr = lookup(ctx, pair[0])
        label = _ref_label(role, ptr)
        try:
            doc = ctx.doc(pair[1])
        except Fail as exc:
            problems.append(failed(f"{name}: cannot check {label}: {exc.finding.message}", ptr, role))
            short.append(f"{name} unverifiable")
            continue
        problem = hash_problem(value if value is not MISSING else None, doc.sha256, label,
                               f"the {pair[1]} file {doc.path}")
        if problem:
            problems.append(failed(f"{name}: {problem}", ptr, role, jsonable(value), doc.sha256))
            short.append(f"{name} {_short(value) if isinstance(value, str) and value.strip() else _state(value)} vs "
                         f"{_short(doc.sha256)}")
    total = len(p.fields) + len(p.hashes)
    if problems:
        head = failed(f"{len(problems)} of {total} {p.label} checks disagree with the report and the files: "
                      f"{'; '.join(short)}", problems[0].pointer, problems[0].document, len(problems), 0)
        return [head] + problems
    return [passed(f"all {total} {p.label} checks agree with the report and the files "
                   f"({len(p.fields)} fields, {len(p.hashes)} file hashes)", "", "report",
                   sorted([*p.fields, *p.hashes]), "equal")]


# --- objects_agree -----------------------------------------------------------------------


@dataclass(frozen=True)
class ObjectsAgreeParams:
    __pydantic_config__ = FORBID
    left: str
    right: str
    when_left_absent: Literal["skip", "fail"] = "skip"
    ignore: list[str] = field(default_factory=list)


def run_objects_agree(ctx: Context, p: ObjectsAgreeParams) -> Iterable[Finding]:
    a, arole, aptr = lookup(ctx, p.left)
    alabel = _ref_label(arole, aptr)
    if a is MISSING or a is None:
        if p.when_left_absent == "skip":
            return [skipped(f"{alabel} is {'missing' if a is MISSING else 'null'}; nothing to compare", aptr, arole)]
        raise Fail(f"{alabel} is {'missing' if a is MISSING else 'null'}", aptr, arole, None, "an object")
    b, brole, bptr = need(ctx, p.right)
    blabel = f"the {brole} file" if brole != "report" and bptr == "" else _ref_label(brole, bptr)
    for value, label, role, ptr in ((a, alabel, arole, aptr), (b, blabel, brole, bptr)):
        if not isinstance(value, dict):
            raise Fail(f"{label} must be an object, got {type_name(value)}", ptr, role, None, "an object")
    out: list[Finding] = []
    for key in sorted(set(a) | set(b)):
        if key in p.ignore:
            continue
        va, vb = a.get(key, MISSING), b.get(key, MISSING)
        if va is MISSING or vb is MISSING or not same(va, vb):
            ptr = f"{aptr}/{key.replace('~', '~0').replace('/', '~1')}"
            out.append(failed(f"{key}: {alabel} has {_state(va)} but {blabel} has {_state(vb)}", ptr, arole,
                              jsonable(va), jsonable(vb)))
    if out:
        head = failed(f"{alabel} and {blabel} differ in {_plural(len(out), 'field')}: "
                      f"{_listing([o.message.split(':')[0] for o in out])}", out[0].pointer, arole, len(out), 0)
        return [head] + out
    return [passed(f"{alabel} and {blabel} agree on all {_plural(len(set(a) | set(b)), 'field')}", aptr, arole)]


# --- cli_conflicts -----------------------------------------------------------------------


@dataclass(frozen=True)
class CliConflictsParams:
    __pydantic_config__ = FORBID
    given: dict[str, str | None]
    against: dict[str, list[str]]


def run_cli_conflicts(ctx: Context, p: CliConflictsParams) -> Iterable[Finding]:
    out: list[Finding] = []
    compared = 0
    supplied = [opt for opt, v in p.given.items() if isinstance(v, str) and v.strip()]
    for option in supplied:
        value = p.given[option]
        assert value is not None
        refs = p.against.get(option)
        if refs is None:
            raise Fail(f"cli_conflicts has no refs to compare {option} with")
        for ref in refs:
            role, _ = split_ref(ref)
            if role != "report" and role not in ctx.documents:
                continue
            other, orole, optr = lookup(ctx, ref)
            if not isinstance(other, str) or not other.strip():
                continue
            compared += 1
            if other.strip() != value.strip():
                out.append(failed(f"{option} {show(value)} conflicts with {_ref_label(orole, optr)} {show(other)}; "
                                  "a command-line value never overrides the evidence", optr, orole, value, other))
    if out:
        return out
    if not supplied:
        return [passed("no validator fields were given on the command line; nothing can conflict")]
    verb = "agrees" if len(supplied) == 1 else "agree"
    return [passed(f"{_plural(len(supplied), 'command-line value')} ({', '.join(supplied)}) {verb} with "
                   f"{_plural(compared, 'non-blank evidence value')}")]


# --- independent_validator ---------------------------------------------------------------


@dataclass(frozen=True)
class IndependentParams:
    __pydantic_config__ = FORBID
    relation: str = "/result_provenance/validator/relation"
    name: str = "/result_provenance/validator/name"
    system: str = "/result_provenance/validated_system/name"
    forbidden: list[str] = field(default_factory=lambda: list(DEFAULT_FORBIDDEN_RELATIONS))


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[^a-z0-9]+", text.lower()) if w]


def run_independent(ctx: Context, p: IndependentParams) -> Iterable[Finding]:
    relation, rrole, rptr = _string(ctx, p.relation)
    name, nrole, nptr = _string(ctx, p.name)
    system, _, _ = _string(ctx, p.system)
    rlabel = _ref_label(rrole, rptr)
    words = _words(relation)
    joined = "-".join(words)
    # longest first, so that "co-author" is named rather than "author"
    for bad in sorted(p.forbidden, key=lambda b: -len(_words(b))):
        bad_words = _words(bad)
        if not bad_words:
            continue
        n = len(bad_words)
        if any(words[i:i + n] == bad_words for i in range(len(words) - n + 1)) or joined == "-".join(bad_words):
            return [failed(f"{rlabel} {show(relation)} is not independent ({bad!r} relation)", rptr, rrole,
                           relation, f"not {', '.join(p.forbidden)}")]
    sys_words = _words(system)
    if sys_words and any(words[i:i + len(sys_words)] == sys_words for i in range(len(words))):
        return [failed(f"{rlabel} {show(relation)} names the validated system {show(system)} itself", rptr, rrole,
                       relation, "an independent relation")]
    name_words = _words(name)
    if sys_words and any(name_words[i:i + len(sys_words)] == sys_words for i in range(len(name_words))):
        # "Zaxy" validating Zaxy, and "Zaxy Labs" too: a validator named after the system is not independent
        return [failed(f"{_ref_label(nrole, nptr)} {show(name)} contains the validated system's name "
                       f"{show(system)}", nptr, nrole, name, f"not {system}")]
    return [passed(f"validator {show(name)} is {show(relation)} to {show(system)}", rptr, rrole, relation,
                   "an independent relation")]


KINDS: tuple[CheckKind, ...] = (
    CheckKind("qa_rows", RowsParams, run_rows, "exact row count and unique ids of a JSONL/array document"),
    CheckKind("qa_type_counts", TypeCountsParams, run_type_counts,
              "claimed question counts by type equal the dataset's"),
    CheckKind("qa_id_sets", IdSetsParams, run_id_sets, "id sets of two documents are equal (or a subset)"),
    CheckKind("qa_labels", LabelsParams, run_labels, "every evaluator label is valid and from the declared model"),
    CheckKind("qa_accuracy", AccuracyParams, run_accuracy,
              "counts and accuracy recomputed from the evaluator log; task-averaged too"),
    CheckKind("qa_beats_baseline", BeatsParams, run_beats,
              "recomputed accuracy of the baseline metric's kind is strictly greater"),
    CheckKind("qa_accuracy_at_least", AtLeastParams, run_at_least, "recomputed accuracy is at least a minimum"),
    CheckKind("same_evaluator", SameEvaluatorParams, run_same_evaluator,
              "two evaluator models are the same (or disclosed)"),
    CheckKind("official_eval_command", CommandParams, run_command,
              "the command runs the official evaluator with the declared model and hypotheses"),
    CheckKind("sha256_matches", Sha256Params, run_sha256, "a recorded sha256 equals the file's actual hash"),
    CheckKind("artifact_hashes", ArtifactParams, run_artifacts, "every listed artifact's path, hash and size"),
    CheckKind("cross_check", CrossCheckParams, run_cross_check,
              "pairs of values and recorded hashes agree; every mismatch listed"),
    CheckKind("objects_agree", ObjectsAgreeParams, run_objects_agree, "two objects hold the same fields"),
    CheckKind("cli_conflicts", CliConflictsParams, run_cli_conflicts,
              "command-line values do not conflict with non-blank evidence values"),
    CheckKind("independent_validator", IndependentParams, run_independent,
              "the validator is not the system itself or its authors"),
)
