"""Writes examples/official/ and golden/official-{full,sota}/*/case.yaml from the real zaxy evidence.

The example bundle holds the real LongMemEval evidence of one zaxy run (500 hypotheses, the
official gpt-4o evaluator log with 304 true labels, the real OMEGA baseline record) and the
question id/type table of the 500 LongMemEval-S questions, standing in for the 265 MB dataset.
The report around them is built here from those files (hashes, counts, accuracy), so it is honest
by construction. Each golden case links the evidence files it does not change (relative symlinks,
copied as files when the case runs) and changes one thing in the report or in one file.

Run: ``python tests/make_official_cases.py SHARED_FIXTURES_DIR`` (once, to refresh examples/official
from the fixtures) or without argument (cases only), then
``pytest tests/test_golden.py -k official --update-golden`` and read every changed expected file.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import shutil
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "official"
NOW = "2026-11-29T12:00:00Z"

DATASET = "data/longmemeval_s_question_types.json"
HYPOTHESES = "zaxy-hypotheses-500-temporal-evidence-program-v7.jsonl"
EVAL_LOG = HYPOTHESES + ".eval-results-gpt-4o.jsonl"
BASELINE = "sota-baseline.json"
FRESH_BASELINE = "sota-baseline-comparison.json"
VALIDATOR = "validator-evidence.json"
FULL_REPORT = "longmembench-report.json"
SOTA_REPORT = "longmembench-report-sota.json"

LONGMEMEVAL_COMMIT = "b11ff723381cf41e744c5524be0c52b3a408516c"
ZAXY_COMMIT = "d029559c10bac45b9b8612b3cae9e14af8c22ee8"
COMMAND = f"python3 evaluate_qa.py gpt-4o /work/zaxy/{HYPOTHESES} ../../data/longmemeval_s_cleaned.json"

FIXTURE_FILES = {
    "longmemeval/question_types.json": DATASET,
    f"zaxy/{HYPOTHESES}": HYPOTHESES,
    f"zaxy/{EVAL_LOG}": EVAL_LOG,
    "zaxy/sota-baseline.json": BASELINE,
}


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def artifact(rel: str, base: Path = EXAMPLES) -> dict[str, Any]:
    p = base / rel
    return {"path": rel, "sha256": sha(p), "bytes": p.stat().st_size}


def recount() -> tuple[int, int, dict[str, int]]:
    rows = [json.loads(line) for line in (EXAMPLES / EVAL_LOG).read_text().splitlines()]
    types = {e["question_id"]: e["question_type"] for e in json.loads((EXAMPLES / DATASET).read_text())}
    counts: dict[str, int] = {}
    for e in types.values():
        counts[e] = counts.get(e, 0) + 1
    correct = sum(1 for r in rows if r["autoeval_label"]["label"])
    return len(rows), correct, dict(sorted(counts.items()))


def write_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def build_examples(fixtures: Path) -> None:
    (EXAMPLES / "data").mkdir(parents=True, exist_ok=True)
    for src, dst in FIXTURE_FILES.items():
        shutil.copyfile(fixtures / src, EXAMPLES / dst)  # byte-exact
    evaluated, correct, type_counts = recount()
    baseline = json.loads((EXAMPLES / BASELINE).read_text())
    official_qa = {
        "dataset_path": DATASET, "dataset_sha256": sha(EXAMPLES / DATASET), "dataset_question_count": 500,
        "hypothesis_path": HYPOTHESES, "hypothesis_count": evaluated, "eval_log_path": EVAL_LOG,
        "evaluated_count": evaluated, "correct_count": correct, "accuracy": correct / evaluated,
        "evaluator_model": "gpt-4o", "official_eval_command": COMMAND,
    }
    report = {
        "schema_version": "zaxy.longmembench-report.v1",
        "generated_at": "2026-11-28T09:30:00Z",
        "status": "complete",
        "external_suite": {
            "source_url": "https://github.com/xiaowu0162/LongMemEval",
            "dataset_url": "https://huggingface.co/datasets/xiaowu0162/longmemeval-cleaned",
            "worktree": ".cache/zaxy/benchmarks/LongMemEval", "commit": LONGMEMEVAL_COMMIT,
            "official_evaluator": "src/evaluation/evaluate_qa.py", "dataset_counts": type_counts,
        },
        "result_provenance": {
            "source": "official-longmemeval-evaluate-qa", "dataset": DATASET, "hypotheses": HYPOTHESES,
            "official_eval_log": EVAL_LOG, "diagnostic_report": None, "sota_baseline": BASELINE,
            "validator_evidence": None, "validator_evidence_verified": False, "validator": None,
            "validated_system": {"name": "Zaxy", "zaxy_commit": ZAXY_COMMIT, "zaxy_version": "0.7.0"},
            "zaxy_commit": ZAXY_COMMIT,
        },
        "official_qa": official_qa,
        "zaxy_diagnostic": None,
        "sota_baseline": baseline,
        "sota_claim": {
            "official_sota_candidate": True, "official_sota": False, "accuracy": correct / evaluated,
            "evaluated_count": evaluated, "baseline_system": baseline["system"],
            "baseline_accuracy": baseline["accuracy"], "claim_allowed": False,
            "requires_external_comparison": True,
        },
        "artifacts": {
            "dataset": artifact(DATASET), "hypotheses": artifact(HYPOTHESES),
            "official_eval_log": artifact(EVAL_LOG),
        },
        "caveats": [
            "The dataset file is the question id/type table of the 500 LongMemEval-S questions, "
            "standing in for the 265 MB dataset.",
        ],
    }
    write_json(EXAMPLES / FULL_REPORT, report)

    fresh = {
        "system": "Comparison baseline (synthetic)",
        "accuracy": 0.55,
        "metric": "official_longmemeval_task_averaged_accuracy",
        "evidence_url": "https://github.com/xiaowu0162/LongMemEval",
        "evidence_date": "2026-11-20",
        "checked_at": "2026-11-25",
        "currentness_url": "https://github.com/xiaowu0162/LongMemEval",
        "source_type": "public-reproduction",
        "question_count": 500,
        "evaluator_model": "gpt-4o",
        "notes": "Synthetic variant of the real OMEGA record for the golden corpus: a lower task-averaged "
                 "accuracy and a recent check date. It is not a published result.",
    }
    write_json(EXAMPLES / FRESH_BASELINE, fresh)
    validator = {
        "name": "Independent Validator",
        "evidence_url": "https://validation.openmemory.dev/reviewable-run",
        "run_id": "validator-run-001",
        "relation": "independent-third-party",
    }
    evidence = {
        "validated_system": {"name": "Zaxy", "zaxy_commit": ZAXY_COMMIT, "zaxy_version": "0.7.0"},
        "longmemeval": {"commit": LONGMEMEVAL_COMMIT, "dataset": DATASET,
                        "dataset_sha256": official_qa["dataset_sha256"], "question_count": 500,
                        "repo_url": "https://github.com/xiaowu0162/LongMemEval"},
        "artifacts": {"dataset_sha256": official_qa["dataset_sha256"],
                      "hypotheses_sha256": sha(EXAMPLES / HYPOTHESES),
                      "official_eval_log_sha256": sha(EXAMPLES / EVAL_LOG)},
        "official_evaluation": {"evaluator_model": "gpt-4o", "evaluated_count": evaluated,
                                "correct_count": correct, "accuracy": correct / evaluated,
                                "hypotheses_path": HYPOTHESES, "official_eval_log_path": EVAL_LOG,
                                "official_eval_command": COMMAND},
        "validator": validator,
    }
    write_json(EXAMPLES / VALIDATOR, evidence)
    sota = copy.deepcopy(report)
    sota["result_provenance"].update({"sota_baseline": FRESH_BASELINE, "validator_evidence": VALIDATOR,
                                      "validator_evidence_verified": True, "validator": validator})
    sota["sota_baseline"] = fresh
    sota["sota_claim"].update({"official_sota": True, "baseline_system": fresh["system"],
                               "baseline_accuracy": fresh["accuracy"], "claim_allowed": True})
    sota["caveats"].append("The baseline is a synthetic comparison record (see its notes); the validator "
                           "record uses the seed's template URL and run id.")
    write_json(EXAMPLES / SOTA_REPORT, sota)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        build_examples(Path(sys.argv[1]))
    evaluated, correct, _ = recount()
    print(f"examples: {correct}/{evaluated} = {Fraction(correct, evaluated)}")
