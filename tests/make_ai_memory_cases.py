"""Writes golden/ai-memory/*/case.yaml: one honest case and one variant per failure kind.

Each variant is the real Sibyl fixture (examples/) with a small JSON patch, so the evidence stays
real and the golden folder stays small. Run: ``python tests/make_ai_memory_cases.py`` then
``pytest tests/e2e/test_golden.py --update-golden`` and read every changed expected file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "golden" / "ai-memory"
BASE = "examples/longmemeval_sibyl_hybrid_rc1_20260610.json"
NOW = "2026-11-29T12:00:00Z"
P = ["report.json", "--profile", "ai-memory"]

QA_BLOCK = {
    "schema_version": "sibyl-longmemeval-s-qa-v1", "mode": "model", "enabled": True,
    "reader_provider": "openai", "reader_model": "gpt-4o", "reader_prompt_id": "sibyl-longmemeval-reader-v1",
    "judge_provider": "openai", "judge_model": "gpt-5.2", "judge_prompt_id": "sibyl-longmemeval-judge-v1",
    "rubric_id": "longmemeval-s-answer-correctness-v1",
    "claim_boundary": "End-to-end QA accuracy with a pinned reader and judge.",
}
CASE_QA = {"mode": "model", "evaluated": True, "correct": True, "score": 1.0, "generated_answer": "answer",
           "reference_answer": "answer", "judge_rationale": "Matches the reference answer.",
           "context_session_ids": ["s1"], "answer_session_ids": ["s1"]}


def qa_patch(correct: int = 490) -> list[dict[str, Any]]:
    ops: list[dict[str, Any]] = [{"op": "add", "path": "/qa", "value": QA_BLOCK},
                                 {"op": "add", "path": "/qa", "value": CASE_QA, "each": "/case_results"}]
    for i in range(500 - correct):
        ops += [{"op": "replace", "path": f"/case_results/{i}/qa/correct", "value": False},
                {"op": "replace", "path": f"/case_results/{i}/qa/score", "value": 0.0}]
    ops += [{"op": "add", "path": "/overall/qa_accuracy", "value": correct / 500},
            {"op": "add", "path": "/overall/qa_mean_score", "value": correct / 500},
            {"op": "add", "path": "/overall/qa_evaluated_count", "value": 500.0},
            {"op": "add", "path": "/overall/qa_correct_count", "value": float(correct)}]
    return ops


ACCOUNTING = {
    "schema_version": "sibyl-eval-accounting-v1", "gate_status": "warning-only-until-two-citable-baselines",
    "latency": {"p50_ms": 410.5, "p95_ms": 902.25, "max_ms": 1510.0, "elapsed_seconds": 314.15},
    "tokens": {"estimated_input_tokens": 120000.0, "estimated_output_tokens": 0.0,
               "full_context_baseline_estimated_tokens": 5750000.0, "estimator": "approximate_character_count"},
    "embedding": {"calls": 1500, "provider": "chromadb", "model": "chromadb_default", "estimated_input_tokens": 0.0,
                  "estimated_cost_usd": 0.0, "cost_basis": "not-metered-by-runner"},
    "reader": {"estimated_input_tokens": 600000.0, "estimated_output_tokens": 9000.0, "estimated_cost_usd": 1.59,
               "cost_basis": "openai:gpt-4o"},
    "judge": {"estimated_input_tokens": 700000.0, "estimated_output_tokens": 8000.0, "estimated_cost_usd": 1.34,
              "cost_basis": "openai:gpt-5.2"},
    "cost": {"estimated_total_usd": 2.93, "currency": "USD", "enforcement": "warning-only-until-two-citable-baselines"},
}
ACCOUNTING_OVERALL = [
    {"op": "add", "path": "/accounting", "value": ACCOUNTING},
    {"op": "add", "path": "/overall/latency_p50_ms", "value": 410.5},
    {"op": "add", "path": "/overall/latency_p95_ms", "value": 902.25},
    {"op": "add", "path": "/overall/max_latency_ms", "value": 1510.0},
    {"op": "add", "path": "/overall/estimated_input_tokens", "value": 120000.0},
    {"op": "add", "path": "/overall/full_context_baseline_estimated_tokens", "value": 5750000.0},
    {"op": "add", "path": "/overall/embedding_call_count", "value": 1500.0},
]
LIVE = [{"op": "replace", "path": "/runtime/runtime_mode", "value": "live-api-ephemeral"},
        {"op": "replace", "path": "/auth_manifest_id", "value": "ephemeral-local-signup-v1"},
        {"op": "add", "path": "/runtime/auto_extract_entities_env", "value": False},
        {"op": "add", "path": "/overall/cross_question_result_count", "value": 0.0},
        {"op": "add", "path": "/completed_questions", "value": 500},
        {"op": "add", "path": "/completion_status", "value": "complete"}]
SEED_GATE = ["--require-accounting", "--require-qa", "--require-runtime", "qa_mode=model",
             "--require-runtime", "qa_reader_model=gpt-4o", "--require-runtime", "qa_judge_model=gpt-5.2"]
SEED_RUNTIME = [{"op": "add", "path": "/runtime/qa_mode", "value": "model"},
                {"op": "add", "path": "/runtime/qa_reader_model", "value": "gpt-4o"},
                {"op": "add", "path": "/runtime/qa_judge_model", "value": "gpt-5.2"}]

CASES: dict[str, dict[str, Any]] = {
    "fixture-passes": dict(description="The real Sibyl offline artifact: every claim recomputes; it passes.",
                           patch=[], exit=0),
    "summary-does-not-recompute": dict(
        description="overall recall@5 raised to 0.95: the summary no longer follows from the 500 cases.",
        patch=[{"op": "replace", "path": "/overall/recall@5", "value": 0.95}], exit=1),
    "recall-is-hit": dict(
        description="recall@k replaced by hit@k everywhere (overall, per type, per case): the historic mislabel.",
        patch=[{"op": "copy", "from": "/overall/hit@5", "path": "/overall/recall@5"},
               {"op": "copy", "from": "/overall/hit@10", "path": "/overall/recall@10"},
               {"op": "copy", "from": "/hit@5", "path": "/recall@5", "each": "/case_results"},
               {"op": "copy", "from": "/hit@10", "path": "/recall@10", "each": "/case_results"}]
        + [{"op": "copy", "from": f"/per_type/{t}/hit@{k}", "path": f"/per_type/{t}/recall@{k}"}
           for t in ("single-session-user", "multi-session", "single-session-preference", "temporal-reasoning",
                     "knowledge-update", "single-session-assistant") for k in (5, 10)], exit=1),
    "live-cross-question-leakage": dict(
        description="A live run whose results crossed question namespaces 3 times.",
        patch=LIVE[:2] + [{"op": "add", "path": "/overall/cross_question_result_count", "value": 3.0}], exit=1),
    "live-isolation-not-recorded": dict(
        description="A live run that does not record cross_question_result_count at all.",
        patch=LIVE[:2], exit=1),
    "missing-commit": dict(description="sibyl_commit removed: the code under test is unknown.",
                           patch=[{"op": "remove", "path": "/sibyl_commit"}], exit=1),
    "placeholder-commit": dict(description="sibyl_commit is the placeholder 'abc123', not a 40-hex commit.",
                               patch=[{"op": "replace", "path": "/sibyl_commit", "value": "abc123"}], exit=1),
    "null-corpus-hash": dict(description="dataset.corpus_hash is null.",
                             patch=[{"op": "replace", "path": "/dataset/corpus_hash", "value": None}], exit=1),
    "string-dimensions": dict(description="embedding_dimensions written as the string \"384\".",
                              patch=[{"op": "replace", "path": "/runtime/embedding_dimensions", "value": "384"}],
                              exit=1),
    "boolean-repeat-count": dict(description="repeat_count is true: a boolean is not a count.",
                                 patch=[{"op": "replace", "path": "/repeat_count", "value": True}], exit=1),
    "inexact-count": dict(description="total_questions written as 499.99999999999999 (parses to 500.0 as a "
                                      "float, but is not an exact integer as written).",
                          patch=[], replace=[{"from": '"total_questions": 500', "to": '"total_questions": 499.99999999999999'}],
                          exit=1),
    "case-count-mismatch": dict(description="total_questions says 499 but 500 cases are present.",
                                patch=[{"op": "replace", "path": "/total_questions", "value": 499}], exit=1),
    "percent-not-fraction": dict(description="overall recall@5 written as a percent (94.06) where a fraction belongs.",
                                 patch=[{"op": "replace", "path": "/overall/recall@5", "value": 94.06}], exit=1),
    "duplicate-case-id": dict(description="The second case reuses the first case's question_id.",
                              patch=[{"op": "copy", "from": "/case_results/0/question_id",
                                      "path": "/case_results/1/question_id"}], exit=1),
    "retrieval-mode-unknown": dict(description="An undeclared retrieval mode 'oracle-rerank'.",
                                   patch=[{"op": "replace", "path": "/runtime/retrieval_mode", "value": "oracle-rerank"},
                                          {"op": "replace", "path": "/mode", "value": "oracle-rerank"}], exit=1),
    "mode-mismatch": dict(description="Top-level mode 'raw' but runtime.retrieval_mode 'hybrid'.",
                          patch=[{"op": "replace", "path": "/mode", "value": "raw"}], exit=1),
    "embedding-dimension-mismatch": dict(
        description="openai text-embedding-3-small declared with 384 dimensions (configured 1024).",
        patch=[{"op": "replace", "path": "/runtime/embedding_provider", "value": "openai"},
               {"op": "replace", "path": "/runtime/embedding_model", "value": "text-embedding-3-small"}], exit=1),
    "min-metric-not-met": dict(description="--min-metric recall@5=0.95 against a claimed 0.9406.",
                               patch=[], args=["--min-metric", "recall@5=0.95"], exit=1),
    "min-metric-tie-passes": dict(description="--min-metric recall@10=0.9717 equals the claim exactly: a tie meets a minimum.",
                                  patch=[], args=["--min-metric", "recall@10=0.9717"], exit=0),
    "slice-below-minimum": dict(
        description="A user profile that extends ai-memory raises the slice minimums; two question types fall below.",
        patch=[], profile="strict-slices.yaml", exit=1),
    "runtime-requirement-mismatch": dict(description="--require-runtime retrieval_mode=native but the run was hybrid.",
                                         patch=[], args=["--require-runtime", "retrieval_mode=native",
                                                         "--require-runtime", "store=chromadb_ephemeral"], exit=1),
    "qa-honest-passes": dict(description="A QA lane with 490/500 correct, accuracy 0.98, consistent with its cases.",
                             patch=qa_patch(), args=["--require-qa"], exit=0),
    "qa-count-mismatch": dict(description="qa_correct_count claims 495 but 490 cases are judged correct.",
                              patch=qa_patch() + [{"op": "replace", "path": "/overall/qa_correct_count", "value": 495.0}],
                              args=["--require-qa"], exit=1),
    "qa-disabled-required": dict(description="--require-qa on a report whose QA mode is 'disabled'.",
                                 patch=qa_patch() + [{"op": "replace", "path": "/qa/mode", "value": "disabled"}],
                                 args=["--require-qa"], exit=1),
    "qa-placeholder-judge-prompt": dict(description="judge_prompt_id is the placeholder 'n/a'.",
                                        patch=qa_patch() + [{"op": "replace", "path": "/qa/judge_prompt_id", "value": "n/a"}],
                                        args=["--require-qa"], exit=1),
    "seed-qa-gate-passes": dict(
        description="The seed's QA gate command verbatim, on an honest live artifact with QA and accounting.",
        patch=LIVE + qa_patch() + ACCOUNTING_OVERALL + SEED_RUNTIME, args=SEED_GATE, exit=0),
    "accounting-mismatch": dict(
        description="accounting.latency.p95_ms disagrees with overall.latency_p95_ms, and the total cost is not the sum.",
        patch=ACCOUNTING_OVERALL + [{"op": "replace", "path": "/accounting/latency/p95_ms", "value": 850.0},
                                    {"op": "replace", "path": "/accounting/cost/estimated_total_usd", "value": 2.5}],
        args=["--require-accounting"], exit=1),
    "accounting-boolean-calls": dict(
        description="accounting.embedding.calls is true: a boolean where a call count belongs.",
        patch=ACCOUNTING_OVERALL + [{"op": "replace", "path": "/accounting/embedding/calls", "value": True}],
        args=["--require-accounting"], exit=1),
    "regression-beyond-tolerance": dict(
        description="recall@5 dropped 0.02 below the pinned baseline; 0.01 is allowed.",
        patch=[], files={"baseline.json": {"overall": {"recall@5": 0.9605666666666668}}},
        args=["--baseline", "baseline.json", "--baseline-metric", "recall@5", "--max-regression", "recall@5=0.01"],
        exit=1),
    "regression-at-tolerance": dict(
        description="recall@5 is exactly 0.01 below the baseline as written; the allowed 0.01 passes "
                    "(float subtraction would say 0.010000000000000009).",
        patch=[], files={"baseline.json": {"overall": {"recall@5": 0.9505666666666668}}},
        args=["--baseline", "baseline.json", "--baseline-metric", "recall@5", "--max-regression", "recall@5=0.01"],
        exit=0),
    "regression-default-metrics": dict(
        description="--baseline alone compares the threshold metrics with no allowed regression; ndcg@10 dropped.",
        patch=[], files={"baseline.json": {"overall": {"recall@5": 0.9405666666666668, "ndcg@5": 0.910665795901335,
                                                       "recall@10": 0.9717, "ndcg@10": 0.93}}},
        args=["--baseline", "baseline.json"], exit=1),
    "regression-options-without-baseline": dict(
        description="--max-regression without --baseline would silently check nothing.",
        patch=[], args=["--max-regression", "recall@5=0.01"], exit=1),
    "citable-offline-run": dict(description="--citable on the offline artifact: not a live, complete, isolated run.",
                                patch=[], args=["--citable"], exit=1),
    "citable-partial-run": dict(description="--citable on a live run that declares itself partial.",
                                patch=LIVE + [{"op": "replace", "path": "/completion_status", "value": "partial"}],
                                args=["--citable"], exit=1),
    "citable-live-passes": dict(description="--citable on a complete, isolated live run of all 500 questions.",
                                patch=LIVE, args=["--citable"], exit=0),
    "duplicate-key-report": dict(description="A report with a duplicate key cannot be evaluated (exit 2).",
                                 patch=[], replace=[{"from": '"suite": ', "to": '"suite": "x", "suite": '}], exit=2),
    "nan-report": dict(description="A report with NaN cannot be evaluated (exit 2).",
                       patch=[], replace=[{"from": '"recall@5": 0.9405666666666668', "to": '"recall@5": NaN'}],
                       exit=2),
}

FIRST_ID = json.loads((ROOT / BASE).read_text(encoding="utf-8"))["case_results"][0]["question_id"]


def same_id(description: str, disguised: str) -> dict[str, Any]:
    """The second case reuses the first case's id, disguised: it is the same case written twice."""
    return dict(description=description, exit=1,
                patch=[{"op": "replace", "path": "/case_results/1/question_id", "value": disguised}])


CASES.update({
    "duplicate-id-trailing-space": same_id("The second case's id is the first's with a trailing space.", FIRST_ID + " "),
    "duplicate-id-nbsp": same_id("The second case's id is the first's with a trailing no-break space.",
                                 FIRST_ID + "\u00a0"),
    "duplicate-id-zero-width": same_id("The second case's id is the first's with a zero-width space inside.",
                                       FIRST_ID[:3] + "\u200b" + FIRST_ID[3:]),
    "duplicate-id-fullwidth": same_id("The second case's id is the first's in fullwidth letters.",
                                      "".join(chr(ord(c) + 0xFEE0) for c in FIRST_ID)),
    "duplicate-id-case": same_id("The second case's id is the first's in capitals.", FIRST_ID.upper()),
    "blank-case-id": dict(description="A case id made only of a zero-width space is no id.", exit=1,
                          patch=[{"op": "replace", "path": "/case_results/1/question_id", "value": "\u200b"}]),
})

CASES.update({
    "metric-misspelt-case": dict(description="overall claims 'Recall@5': 0.99, a misspelling of recall@5, not a new "
                                             "metric.", exit=1,
                                 patch=[{"op": "add", "path": "/overall/Recall@5", "value": 0.99}]),
    "metric-misspelt-at": dict(description="overall claims 'recall_at_5': 0.99 and 'recall@05': 0.99.", exit=1,
                               patch=[{"op": "add", "path": "/overall/recall_at_5", "value": 0.99},
                                      {"op": "add", "path": "/overall/recall@05", "value": 0.99}]),
    "metric-k-out-of-range": dict(description="overall claims recall@1000000 and recall@0.", exit=1,
                                  patch=[{"op": "add", "path": "/overall/recall@1000000", "value": 0.99},
                                         {"op": "add", "path": "/overall/recall@0", "value": 0.99}]),
    "metric-unknown": dict(description="overall claims mrr and precision@5, which ai-memory neither recomputes nor "
                                       "declares.", exit=1,
                           patch=[{"op": "add", "path": "/overall/mrr", "value": 0.99},
                                  {"op": "add", "path": "/overall/precision@5", "value": 0.99}]),
    "metric-declared-passes": dict(description="overall also records latency and call counts: declared, accepted "
                                               "without recomputation, and listed as not citable.", exit=0,
                                   patch=[{"op": "add", "path": "/overall/latency_p95_ms", "value": 902.25},
                                          {"op": "add", "path": "/overall/embedding_call_count", "value": 1500.0}]),
    "metric-block-outside-summaries": dict(
        description="A top-level 'metrics' block claims recall@5 0.99 (the block the practice's own gate reads "
                    "first).", exit=1, patch=[{"op": "add", "path": "/metrics", "value": {"recall@5": 0.99}}]),
    "made-up-per-category": dict(
        description="A made-up per_category summary: the per_type slices copied with multi-session recall@5 "
                    "raised to 0.99.", exit=1,
        patch=[{"op": "copy", "from": "/per_type", "path": "/per_category"},
               {"op": "replace", "path": "/per_category/multi-session/recall@5", "value": 0.99}]),
    "qa-accuracy-without-block": dict(description="overall.qa_accuracy 0.99 without any qa block.", exit=1,
                                      patch=[{"op": "add", "path": "/overall/qa_accuracy", "value": 0.99}]),
    "qa-mode-live": dict(description="The QA block says mode 'live' (not fixture or model) while qa_accuracy "
                                     "claims 0.99: the QA gate stays on and fails.", exit=1,
                         patch=qa_patch() + [{"op": "replace", "path": "/qa/mode", "value": "live"},
                                             {"op": "replace", "path": "/overall/qa_accuracy", "value": 0.99}]),
    "qa-mode-capitalised": dict(description="The QA block says mode 'Model' while qa_accuracy claims 0.99.", exit=1,
                                patch=qa_patch() + [{"op": "replace", "path": "/qa/mode", "value": "Model"},
                                                    {"op": "replace", "path": "/overall/qa_accuracy", "value": 0.99}]),
    "qa-enabled-string": dict(description="qa.enabled is the string \"true\" while qa_accuracy claims 0.99.", exit=1,
                              patch=qa_patch() + [{"op": "replace", "path": "/qa/enabled", "value": "true"},
                                                  {"op": "replace", "path": "/overall/qa_accuracy", "value": 0.99}]),
    "qa-disabled-with-numbers": dict(
        description="The QA block says disabled, yet the cases carry judged QA records and overall claims "
                    "qa_accuracy 0.98.", exit=1,
        patch=qa_patch() + [{"op": "replace", "path": "/qa/mode", "value": "disabled"},
                            {"op": "replace", "path": "/qa/enabled", "value": False}]),
    "qa-mean-score-wrong": dict(description="qa_mean_score claims 0.99; the judged cases' scores average 0.98.",
                                exit=1, args=["--require-qa"],
                                patch=qa_patch() + [{"op": "replace", "path": "/overall/qa_mean_score", "value": 0.99}]),
})



def _split_preference() -> list[dict[str, Any]]:
    """The 30 single-session-preference cases relabelled as four made-up types of 7-8 cases, with
    per_type rewritten so that every summary still recomputes (the slice-exemption attack)."""
    from bench_gate.checks.recompute.retrieval import score

    doc = json.loads((ROOT / BASE).read_text(encoding="utf-8"))
    ops: list[dict[str, Any]] = [{"op": "remove", "path": "/per_type/single-session-preference"}]
    groups: dict[str, list[dict[str, Any]]] = {}
    pref = [(i, c) for i, c in enumerate(doc["case_results"]) if c["question_type"] == "single-session-preference"]
    for n, (i, case) in enumerate(pref):
        name = f"single-session-preference-{'abcd'[n % 4]}"
        ops.append({"op": "replace", "path": f"/case_results/{i}/question_type", "value": name})
        groups.setdefault(name, []).append(case)
    for name, members in sorted(groups.items()):
        table: dict[str, float] = {}
        for k in (5, 10):
            scores = [score(c["answer_session_ids"], c["ranked_session_ids"], k) for c in members]
            table[f"hit@{k}"] = float(sum(s[0] for s in scores) / len(scores))
            table[f"legacy_recall@{k}"] = table[f"hit@{k}"]
            table[f"recall@{k}"] = float(sum(s[1] for s in scores) / len(scores))
            table[f"ndcg@{k}"] = sum(s[2] for s in scores) / len(scores)
        ops.append({"op": "add", "path": f"/per_type/{name}", "value": table})
    return ops


def _relabel_first(from_type: str, to_type: str) -> list[dict[str, Any]]:
    doc = json.loads((ROOT / BASE).read_text(encoding="utf-8"))
    i = next(i for i, c in enumerate(doc["case_results"]) if c["question_type"] == from_type)
    return [{"op": "replace", "path": f"/case_results/{i}/question_type", "value": to_type}]


CASES.update({
    "question-types-made-up": dict(
        description="The 30 single-session-preference cases split into four made-up types of 7-8 cases each "
                    "(summaries recomputed): each part would be exempt from the slice minimums.",
        exit=1, patch=_split_preference()),
    "question-type-relabelled": dict(
        description="One official single-session-preference question relabelled multi-session (summaries not "
                    "rewritten).", exit=1, patch=_relabel_first("single-session-preference", "multi-session")),
    "completion-status-aborted": dict(
        description="A report that says completion_status 'aborted' (not a finished run), without --citable.",
        exit=1, patch=[{"op": "add", "path": "/completion_status", "value": "aborted"}]),
    "citable-cross-question-recomputed": dict(
        description="--citable on a live run claiming cross_question_result_count 0 whose first case ranks the "
                    "second case's answer session (after its own ten).", args=["--citable"], exit=1,
        patch=LIVE + [{"op": "add", "path": "/case_results/0/ranked_session_ids/-", "value": "answer_40a90d51"}]),
    "citable-oracle-dataset": dict(
        description="--citable on a live run whose dataset block is longmemeval_oracle.", args=["--citable"], exit=1,
        patch=LIVE + [{"op": "replace", "path": "/dataset/name", "value": "longmemeval_oracle"},
                      {"op": "replace", "path": "/dataset/path", "value": "data/longmemeval_oracle.json"}]),
    "citable-dataset-prefix": dict(
        description="--citable on a live run whose dataset block says 470 entries, 470 evaluated, limit 470.",
        args=["--citable"], exit=1, patch=LIVE + [{"op": "replace", "path": "/dataset/total_entries", "value": 470},
                              {"op": "replace", "path": "/dataset/evaluated_entries", "value": 470},
                              {"op": "replace", "path": "/dataset/limit", "value": 470}]),
    "live-auth-placeholder": dict(
        description="A live run whose auth manifest is 'not-applicable:offline' and whose elapsed_seconds is -5.",
        exit=1, patch=LIVE + [{"op": "replace", "path": "/auth_manifest_id", "value": "not-applicable:offline"},
                              {"op": "replace", "path": "/elapsed_seconds", "value": -5}]),
    "qa-runtime-other-models": dict(
        description="The seed's QA gate on a run whose runtime echoes gpt-4o / gpt-5.2 but whose qa block used "
                    "reader gpt-3.5-turbo and judge gpt-4o-mini.", exit=1, args=SEED_GATE,
        patch=LIVE + qa_patch() + ACCOUNTING_OVERALL + SEED_RUNTIME
        + [{"op": "replace", "path": "/qa/reader_model", "value": "gpt-3.5-turbo"},
           {"op": "replace", "path": "/qa/judge_model", "value": "gpt-4o-mini"}]),
})

WAIVER = {"rule": "overall-thresholds", "pointer": "/overall/recall@5",
          "reason": "recall@5 minimum raised ahead of the ranker change; tracked in EVAL-142",
          "approved_by": "eval-leads", "expires": "2026-11-29"}
WAIVED_RUN = ["--min-metric", "recall@5=0.95", "--waivers", "waivers.yaml"]


def waivers(*entries: dict[str, Any]) -> str:
    clean = [{k: v for k, v in e.items() if v is not None} for e in entries]
    return yaml.safe_dump({"waivers": clean}, sort_keys=False)


CASES.update({
    "waiver-applies": dict(description="A current waiver for the failing recall@5 minimum: reported as waived; "
                                       "the gate passes.",
                           patch=[], args=WAIVED_RUN, texts={"waivers.yaml": waivers(WAIVER)}, exit=0,
                           now="2026-11-29T23:59:59Z"),
    "waiver-expired-at-boundary": dict(
        description="The same waiver one second later: a date-only expiry ends with its UTC day; the failure "
                    "stands and the expired waiver fails on its own.",
        patch=[], args=WAIVED_RUN, texts={"waivers.yaml": waivers(WAIVER)}, exit=1, now="2026-11-30T00:00:00Z"),
    "waiver-unused": dict(description="A waiver for a rule that does not fail must be removed.",
                          patch=[], args=["--waivers", "waivers.yaml"],
                          texts={"waivers.yaml": waivers({**WAIVER, "rule": "metrics-recompute", "pointer": None,
                                                          "expires": "2027-01-31"})}, exit=1),
    "waiver-without-reason": dict(description="A waiver without a reason waives nothing and fails the gate.",
                                  patch=[], args=WAIVED_RUN,
                                  texts={"waivers.yaml": waivers({k: v for k, v in WAIVER.items() if k != "reason"})},
                                  exit=1, now="2026-11-29T10:00:00Z"),
    "waiver-other-location": dict(
        description="A waiver scoped to /overall/ndcg@5 does not waive a failure at /overall/recall@5.",
        patch=[], args=WAIVED_RUN, texts={"waivers.yaml": waivers({**WAIVER, "pointer": "/overall/ndcg@5"})},
        exit=1, now="2026-11-29T10:00:00Z"),
    "waiver-beyond-maximum": dict(
        description="A waiver expiring 9998-12-31 is a permanent exemption: longer than the profile's "
                    "max_waiver (P1Y), it waives nothing and fails on its own.",
        patch=[], args=WAIVED_RUN, texts={"waivers.yaml": waivers({**WAIVER, "expires": "9998-12-31"})},
        exit=1, now="2026-11-29T10:00:00Z"),
    "waiver-explicit-tag": dict(
        description="A waivers file with an explicit !!str tag cannot be used (exit 2).",
        patch=[], args=WAIVED_RUN,
        texts={"waivers.yaml": waivers(WAIVER).replace("reason: ", "reason: !!str ", 1)},
        exit=2, now="2026-11-29T10:00:00Z"),
    "waiver-no-such-rule": dict(
        description="A waiver for a rule id the profile does not have (a typo of overall-thresholds) fails on "
                    "its own, naming the closest rule id, and waives nothing: the failure stands.",
        patch=[], args=WAIVED_RUN,
        texts={"waivers.yaml": waivers({**WAIVER, "rule": "overall-threshold"})},
        exit=1, now="2026-11-29T10:00:00Z"),
    "waiver-unknown-key": dict(
        description="A waiver with a misspelt key (rulle) fails on its own at that key's line, with the "
                    "valid key it resembles.",
        patch=[], args=WAIVED_RUN,
        texts={"waivers.yaml": waivers(WAIVER, {**WAIVER, "pointer": "/overall/ndcg@5", "rulle": "x"})},
        exit=1, now="2026-11-29T10:00:00Z"),
    "waiver-placeholder-approver": dict(
        description="A waiver approved by 'TBD' is not reviewed: it waives nothing and fails on its own.",
        patch=[], args=WAIVED_RUN, texts={"waivers.yaml": waivers({**WAIVER, "approved_by": "TBD"})},
        exit=1, now="2026-11-29T10:00:00Z"),
    "profile-unused-parameter": dict(
        description="A user profile declaring max_baseline_age_dys, which no rule reads, next to the "
                    "slice_min_cases the rules do read: a profile error (exit 2) at its line, naming the "
                    "closest used parameter.",
        patch=[], profile="misspelt-parameter.yaml", exit=2),
    "regression-negative-allowance": dict(
        description="--max-regression recall@5=-0.01: an allowance is never negative (exit 2).",
        patch=[], files={"baseline.json": {"overall": {"recall@5": 0.9405666666666668}}},
        args=["--baseline", "baseline.json", "--baseline-metric", "recall@5", "--max-regression", "recall@5=-0.01"],
        exit=2),
    "min-metric-off-scale": dict(
        description="--min-metric recall@5=-0.9 (0.9 mistyped): recall@5 is a fraction in [0, 1], and a "
                    "minimum below 0 can never fail, so it is refused (exit 2) instead of gating nothing.",
        patch=[], args=["--min-metric", "recall@5=-0.9"], exit=2),
    "strict-fails-on-warning": dict(
        description="--strict: a failed warning (the user profile's latency budget) fails the gate.",
        patch=[], profile="latency-warning.yaml", args=["--strict"], exit=1),
    "warning-alone-passes": dict(
        description="Without --strict a failed warning is reported but does not fail the gate.",
        patch=[], profile="latency-warning.yaml", exit=0),
})

LATENCY_WARNING = """name: latency-warning
description: ai-memory plus a latency budget that only warns
extends: ai-memory
rules:
  - id: latency-budget
    title: p95 latency stays under one second
    check: metric_thresholds
    with: {table: /overall, max: {latency_p95_ms: 1000}}
    severity: warning
    why: A slow memory is not a usable memory.
"""

STRICT_SLICES = """name: strict-slices
description: ai-memory with stricter slice minimums (a user profile)
extends: ai-memory
params:
  slice_min: {default: {"recall@5": 0.95, "ndcg@5": 0.55, "recall@10": 0.80, "ndcg@10": 0.60}}
"""


MISSPELT_PARAMETER = """name: misspelt-parameter
description: ai-memory with a larger slice exemption, one parameter misspelt
extends: ai-memory
params:
  slice_min_cases: 20
  slice_min_case: 30
"""

PROFILES = {"latency-warning.yaml": LATENCY_WARNING, "strict-slices.yaml": STRICT_SLICES,
            "misspelt-parameter.yaml": MISSPELT_PARAMETER}


def main() -> None:
    for name, spec in CASES.items():
        folder = OUT / name
        folder.mkdir(parents=True, exist_ok=True)
        args = list(P)
        if spec.get("profile"):
            args[2] = spec["profile"]
            (folder / spec["profile"]).write_text(PROFILES[spec["profile"]], encoding="utf-8")
        for fname, text in spec.get("texts", {}).items():
            (folder / fname).write_text(text, encoding="utf-8")
        args += spec.get("args", [])
        for fname, content in spec.get("files", {}).items():
            (folder / fname).write_text(json.dumps(content, indent=1) + "\n", encoding="utf-8")
        case = {"description": spec["description"], "args": args, "now": spec.get("now", NOW), "exit": spec["exit"], "base": BASE}
        if spec.get("patch"):
            case["patch"] = spec["patch"]
        if spec.get("replace"):
            case["replace"] = spec["replace"]
        (folder / "case.yaml").write_text(yaml.safe_dump(case, sort_keys=False, width=100), encoding="utf-8")


if __name__ == "__main__":
    main()
