"""Official LongMemEval QA accuracy, recomputed from the evaluator log and compared: with the
report's counts and accuracy (``qa_accuracy``), with a published baseline (``qa_beats_baseline``)
and with a minimum (``qa_accuracy_at_least``).

The accuracies are exact fractions counted by :func:`~bench_gate.checks.official.evaluator_log.tally`:
**overall accuracy** (mean of all labels) and **task-averaged accuracy** (mean over question
types of each type's mean, types taken from the dataset). A comparison with a baseline uses the
accuracy of the *same kind* as the baseline's metric.

Example:

.. code-block:: yaml

   - id: qa-accuracy-recomputed
     check: qa_accuracy
     with: {eval_log: eval_log, dataset: dataset}
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from bench_gate.records import record
from bench_gate.text import rounding
from bench_gate.checks.base import (
    kind,
    FORBID, Context, Fail, as_count, as_number, failed, jsonable, lookup,
    need, passed, show, skipped,
)
from bench_gate.checks.generic.integrity import dotted, ref_label
from bench_gate.checks.official.evaluator_log import Kind, show_acc, tally, tally_actual
from bench_gate.text.wording import plural
from bench_gate.checks.official.split import split_label
from bench_gate.models import Finding, exact_number

Number = int | float


# --- qa_accuracy -------------------------------------------------------------------------


@record
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


@record
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


def fraction_in_unit(ctx: Context, ref: str) -> tuple[Fraction, Any, str, str]:
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
    base, raw, brole, bptr = fraction_in_unit(ctx, p.baseline_accuracy)
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


@record
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
