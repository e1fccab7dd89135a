"""Accuracies by question type with LongMemEval-S's official types (``qa_type_accuracy``).

The evaluator output carries ids and labels only; these tests build small logs from real
LongMemEval-S ids and check where each row's type comes from and what fails.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from bench_gate.checks.base import Context
from bench_gate.checks.official.evidence import official_question_types
from bench_gate.checks.official.lme_types import TypeAccuracyParams, qa_type_accuracy
from bench_gate.models import Doc

from kindtest import context, run as run_kind

NOW = datetime(2026, 11, 29, 12, tzinfo=UTC)
TYPES = ["single-session-user", "single-session-preference", "single-session-assistant", "multi-session",
         "temporal-reasoning", "knowledge-update"]
OFFICIAL = official_question_types()
ONE_EACH = [next(q for q, t in OFFICIAL.items() if t == qtype) for qtype in TYPES]


def row(qid: str, label: Any = True) -> dict[str, Any]:
    return {"question_id": qid, "hypothesis": "h", "autoeval_label": {"model": "gpt-4o-2024-08-06", "label": label}}


def ctx(rows: list[dict[str, Any]], scores: dict[str, Any], dataset: list[tuple[str, str]] | None = None) -> Context:
    docs = {"report": Doc("report", "log.jsonl", "a" * 64, 1, rows=tuple((i + 1, r) for i, r in enumerate(rows))),
            "scores": Doc("scores", "scores.json", "b" * 64, 1, data=scores)}
    if dataset is not None:
        docs["dataset"] = Doc("dataset", "types.json", "c" * 64, 1,
                              extra={"format": "dataset", "entries": len(dataset), "ids": tuple(q for q, _ in dataset),
                                     "types": tuple(t for _, t in dataset), "problems": (), "problem_count": 0})
    return context(**docs)


TASK = TypeAccuracyParams(types=TYPES, task_averaged="scores:/task_averaged_accuracy")
PER = TypeAccuracyParams(types=TYPES, per_type="scores:/per_type")


def results(c: Context, p: TypeAccuracyParams) -> list[tuple[str, str]]:
    return [(f.status, f.message) for f in run_kind(qa_type_accuracy, p, c)]


def test_official_types_without_a_dataset_recompute() -> None:
    rows = [row(q, i != 0) for i, q in enumerate(ONE_EACH)]  # the single-session-user answer is wrong
    [(status, message)] = results(ctx(rows, {"task_averaged_accuracy": 0.8333}), TASK)
    assert status == "pass"
    assert message.startswith("task-averaged accuracy 0.833333 over 6 question types (6 official ids with their "
                              "official types), as scores task_averaged_accuracy claims (rounded to 4 places)")


def test_a_dataset_types_only_ids_outside_the_table() -> None:
    rows = [row(q) for q in ONE_EACH] + [row("custom_1", False)]
    scores = {"per_type": {t: {"accuracy": 1.0, "n": 1} for t in TYPES}}
    scores["per_type"]["multi-session"] = {"accuracy": 0.5, "n": 2}
    [(status, message)] = results(ctx(rows, scores, [("custom_1", "multi-session")]), PER)
    assert status == "pass"
    assert message.endswith("6 official ids with their official types, 1 typed by the dataset)")


def test_an_untyped_id_fails_without_and_with_a_dataset() -> None:
    rows = [row(q) for q in ONE_EACH] + [row("custom_1")]
    [(status, message)] = results(ctx(rows, {"task_averaged_accuracy": 1.0}), TASK)
    assert status == "fail"
    assert message.startswith("1 row is neither an official LongMemEval-S question nor typed by a dataset (none given")
    [(status, message)] = results(ctx(rows, {"task_averaged_accuracy": 1.0}, [(ONE_EACH[0], TYPES[0])]), TASK)
    assert status == "fail" and "nor typed by the dataset (first: 'custom_1' (line 7))" in message


def test_a_dataset_relabelling_an_official_id_fails_even_with_its_claim_recomputed() -> None:
    rows = [row(q, q != ONE_EACH[3]) for q in ONE_EACH]  # the multi-session answer is wrong
    relabelled = [(q, OFFICIAL[q]) for q in ONE_EACH[:3]] + [(ONE_EACH[3], "knowledge-update")] + \
        [(q, OFFICIAL[q]) for q in ONE_EACH[4:]]
    found = results(ctx(rows, {"task_averaged_accuracy": 0.9}, relabelled), TASK)
    assert [s for s, _ in found] == ["fail"]
    assert found[0][1].startswith(f"1 official LongMemEval-S question carries another question type (first: "
                                  f"{ONE_EACH[3]} is \"knowledge-update\" in the dataset, officially multi-session)")


def test_lookalike_id_invalid_label_and_empty_type() -> None:
    rows = [row(ONE_EACH[0] + "\u200b"), row(ONE_EACH[1], "yes")] + [row(q) for q in ONE_EACH[2:]]
    messages = [m for _, m in results(ctx(rows, {"task_averaged_accuracy": 1.0}), TASK)]
    assert messages[0].startswith("1 id only looks like official ids")
    assert messages[1].startswith("1 row has no valid label (first: line 2: label.label is string")
    rows = [row(q) for q in ONE_EACH[1:]]
    [(status, message)] = results(ctx(rows, {"task_averaged_accuracy": 1.0}), TASK)
    assert status == "fail" and "no row is of type single-session-user" in message


@pytest.mark.parametrize(("change", "start"), [
    (lambda s: s["per_type"].pop("knowledge-update"), "scores per_type does not claim knowledge-update, which has 1"),
    (lambda s: s["per_type"].update({"open-domain": {"accuracy": 1.0, "n": 0}}),
     'scores per_type claims "open-domain", but no row is of that type'),
    (lambda s: s["per_type"]["multi-session"].update(n=2), "scores per_type.multi-session.n is 2, but 1 rows"),
    (lambda s: s["per_type"]["multi-session"].update(accuracy=True), "scores per_type.multi-session.accuracy"),
])
def test_per_type_claims(change: Any, start: str) -> None:
    scores = {"per_type": {t: {"accuracy": 1.0, "n": 1} for t in TYPES}}
    change(scores)
    found = results(ctx([row(q) for q in ONE_EACH], scores), PER)
    assert found[0][0] == "fail" and found[0][1].startswith(start)


def test_params_need_exactly_one_claim() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        TypeAccuracyParams(types=TYPES)
