"""An official LongMemEval QA result built in place: a report, its evaluator log, hypotheses,
dataset and a baseline, edited per test. The setup the official kinds' tests share
(``tests/checks/official/``, ``tests/checks/generic/test_integrity.py``).

Four questions of two types; the labels make overall accuracy 2/4 = 0.5 and task-averaged
accuracy (1/3 + 1)/2 = 2/3, so the two accuracies differ.
"""

from __future__ import annotations

import copy
from typing import Any

from bench_gate.checks.base import Context
from bench_gate.models import Doc, Finding

import kindtest

MODEL_IDS = {"gpt-4o": "gpt-4o-2024-08-06", "gpt-4o-mini": "gpt-4o-mini-2024-07-18"}
METRICS = {"official_longmemeval_task_averaged_accuracy": "task_averaged",
           "official_longmemeval_overall_accuracy": "overall"}
H_DATASET, H_HYP, H_LOG = "a" * 64, "b" * 64, "c" * 64

TYPES = {"q1": "A", "q2": "A", "q3": "A", "q4": "B"}
LABELS = {"q1": True, "q2": False, "q3": False, "q4": True}  # overall 2/4 = 0.5; task-avg (1/3 + 1)/2 = 2/3


def label(value: bool, model: str = "gpt-4o-2024-08-06") -> dict[str, Any]:
    return {"model": model, "label": value}


def log_rows(**overrides: Any) -> list[dict[str, Any]]:
    rows = [{"question_id": q, "hypothesis": "h", "autoeval_label": label(v)} for q, v in LABELS.items()]
    for q, value in overrides.items():
        for row in rows:
            if row["question_id"] == q:
                if value is ...:
                    del row["autoeval_label"]
                else:
                    row["autoeval_label"] = value
    return rows


def jsonl_doc(role: str, rows: list[Any], sha: str = "") -> Doc:
    return Doc(role, f"{role}.jsonl", sha, 100, rows=tuple((i + 1, r) for i, r in enumerate(rows)))


def dataset_doc(types: dict[str, str] = TYPES, streamed: bool = True) -> Doc:
    if streamed:
        return Doc("dataset", "data/ds.json", H_DATASET, 1000,
                   extra={"format": "dataset", "entries": len(types), "ids": tuple(types),
                          "types": tuple(types.values()), "problems": (), "problem_count": 0})
    return Doc("dataset", "data/ds.json", H_DATASET, 1000,
               data=[{"question_id": q, "question_type": t} for q, t in types.items()])


REPORT = {
    "official_qa": {"dataset_path": "data/ds.json", "dataset_sha256": H_DATASET, "dataset_question_count": 4,
                    "hypothesis_path": "hyp.jsonl", "hypothesis_count": 4, "eval_log_path": "log.jsonl",
                    "evaluated_count": 4, "correct_count": 2, "accuracy": 0.5, "evaluator_model": "gpt-4o",
                    "official_eval_command": "python3 evaluate_qa.py gpt-4o /abs/hyp.jsonl ../../data/ds.json"},
    "result_provenance": {"validator": {"name": "Independent Validator", "relation": "independent-third-party",
                                        "run_id": "r1", "evidence_url": "https://validation.openmemory.dev/run"},
                          "validated_system": {"name": "Zaxy"}},
    "sota_baseline": {"system": "S", "accuracy": 0.6},
    "artifacts": {"hypotheses": {"path": "hyp.jsonl", "sha256": H_HYP, "bytes": 100},
                  "official_eval_log": {"path": "log.jsonl", "sha256": H_LOG, "bytes": 100}},
}


def ctx(report: dict[str, Any] | None = None, **docs: Doc) -> Context:
    documents = {"report": Doc("report", "r.json", data=report if report is not None else REPORT),
                 "eval_log": jsonl_doc("eval_log", log_rows(), H_LOG),
                 "hypotheses": jsonl_doc("hypotheses", [{"question_id": q, "hypothesis": "h"} for q in LABELS], H_HYP),
                 "dataset": dataset_doc()}
    documents.update(docs)
    return kindtest.context(**documents)


def findings(fn: Any, params: Any, context: Context) -> list[Finding]:
    return kindtest.run(fn, params, context)


def first(fn: Any, params: Any, context: Context) -> tuple[str, str]:
    return kindtest.first(fn, params, context)


def patched(path: str, value: Any) -> dict[str, Any]:
    report = copy.deepcopy(REPORT)
    *parents, last = path.strip("/").split("/")
    cur = report
    for p in parents:
        cur = cur[p]
    if value is ...:
        del cur[last]
    else:
        cur[last] = value
    return report


def baseline(**fields: Any) -> Doc:
    data = {"system": "Best", "accuracy": 0.6, "metric": "official_longmemeval_task_averaged_accuracy"}
    data.update(fields)
    return Doc("baseline", "b.json", data={k: v for k, v in data.items() if v is not ...})
