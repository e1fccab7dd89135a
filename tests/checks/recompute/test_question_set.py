"""The question_types, full_dataset and cross_question kinds on small reports built from real ids.

Every report uses real LongMemEval-S question ids and types (the shipped table); each failure row
changes one thing and pins the message that names it.
"""

from __future__ import annotations

import copy
import re
from datetime import UTC, datetime
from typing import Any

import pytest

from bench_gate.checks.recompute.isolation import CrossQuestionParams, cross_question
from bench_gate.checks.recompute.question_set import (
    FullDatasetParams, QuestionTypesParams, full_dataset, official_question_types, question_types,
)
from bench_gate.loaders import strictjson
from bench_gate.models import Finding

import kindtest
from golden import ROOT
from kindtest import context, doc

NOW = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)
OFFICIAL = official_question_types()
PREFERENCE = sorted(q for q, t in OFFICIAL.items() if t == "single-session-preference")[:3]
HASH = "sha256:d6f21ea9d60a0d56f34a05b609c79c88a451d2ae03597821ea3d5a9678c3a442"


def run(kind: Any, params: Any, data: Any) -> list[Finding]:
    return kindtest.run(kind, params, data)


def fails(found: list[Finding], pattern: str) -> None:
    """The kind failed (a raised Fail, as the engine records it) with a message matching ``pattern``."""
    [f] = found
    assert f.status == "fail" and re.search(pattern, f.message), f.message


def cases(ids: list[str]) -> list[dict[str, Any]]:
    return [{"question_id": q, "question_type": OFFICIAL[q], "answer_session_ids": [f"answer_{q}"],
             "ranked_session_ids": ["x", f"answer_{q}"]} for q in ids]


def test_the_shipped_table_is_longmemeval_s() -> None:
    counts: dict[str, int] = {}
    for qtype in OFFICIAL.values():
        counts[qtype] = counts.get(qtype, 0) + 1
    assert counts == {"single-session-user": 70, "single-session-assistant": 56, "single-session-preference": 30,
                      "multi-session": 133, "knowledge-update": 78, "temporal-reasoning": 133}
    assert sum(q.endswith("_abs") for q in OFFICIAL) == 30


def test_official_questions_with_their_types_pass() -> None:
    [f] = run(question_types, QuestionTypesParams(), {"case_results": cases(PREFERENCE)})
    assert f.status == "pass"
    assert f.message == ("3 cases: every question type is a LongMemEval type; the 3 official ids carry their "
                         "official types")


def test_ids_of_another_dataset_with_known_types_pass() -> None:
    data = {"case_results": [{"question_id": "my-own-1", "question_type": "multi-session"}]}
    [f] = run(question_types, QuestionTypesParams(), data)
    assert f.status == "pass"
    assert "no case id is an official LongMemEval-S id" in f.message


TYPE_FAILURES = [
    ("made-up-type", lambda c: c[0].update(question_type="single-session-preference-a"),
     f"1 case carries a question type that LongMemEval does not have: \"single-session-preference-a\" (1 case, "
     f"first '{PREFERENCE[0]}'); the known types are knowledge-update, multi-session, single-session-assistant, "
     "single-session-preference, single-session-user, temporal-reasoning (a made-up type splits a slice into parts "
     "small enough to escape the per-type minimums)"),
    ("relabelled", lambda c: c[1].update(question_type="multi-session"),
     f"1 official question carries another type than LongMemEval-S gives it: case {PREFERENCE[1]} is "
     "\"multi-session\", officially single-session-preference; a relabelled case moves into a slice it does not "
     "belong to"),
    ("no-type", lambda c: c[2].pop("question_type"),
     f"1 case has no question type: case '{PREFERENCE[2]}' has question_type absent; a case without its type is "
     "in no per-type slice"),
    ("null-type", lambda c: c[2].update(question_type=None),
     f"1 case has no question type: case '{PREFERENCE[2]}' has question_type null; a case without its type is in "
     "no per-type slice"),
    ("look-alike-id", lambda c: c[0].update(question_id=PREFERENCE[0] + "\u200b"),
     f"1 case id is an official LongMemEval-S id only as a reader sees it: case '{PREFERENCE[0]}\\u200b' and the "
     f"official id {PREFERENCE[0]} differ only by invisible characters"),
]


@pytest.mark.parametrize(("change", "message"), [r[1:] for r in TYPE_FAILURES], ids=[r[0] for r in TYPE_FAILURES])
def test_type_failures(change: Any, message: str) -> None:
    data = {"case_results": cases(PREFERENCE)}
    change(data["case_results"])
    found = run(question_types, QuestionTypesParams(), data)
    assert [(f.status, f.message) for f in found] == [("fail", message)]


def test_extra_types_are_accepted() -> None:
    data = {"case_results": [{"question_id": "q1", "question_type": "adversarial"}]}
    assert run(question_types, QuestionTypesParams(), data)[0].status == "fail"
    assert run(question_types, QuestionTypesParams(extra_types=["adversarial"]), data)[0].status == "pass"


def test_full_set_needs_every_official_question() -> None:
    full = cases(sorted(OFFICIAL))
    [f] = run(question_types, QuestionTypesParams(full_set=True), {"case_results": full})
    assert f.status == "pass" and f.message.endswith("the cases are the full set of 500 questions")
    short = full[:-1] + [{"question_id": "extra", "question_type": "multi-session"}]
    [f] = run(question_types, QuestionTypesParams(full_set=True), {"case_results": short})
    assert f.status == "fail"
    assert f.message == (f"the cases are not the full LongMemEval-S question set: 1 of the 500 official questions "
                         f"are not among the cases (first {sorted(OFFICIAL)[-1]}); 1 case is not an official "
                         "question. A number on part of the set reads as a number on the benchmark")


def test_no_cases_cannot_decide() -> None:
    for empty in ([], {}):
        fails(run(question_types, QuestionTypesParams(), {"case_results": empty}),
              "^report:/case_results holds no cases: a question set of nothing is no question set$")
    fails(run(question_types, QuestionTypesParams(), {"case_results": "none"}),
          "^report:/case_results must be an array or object of rows, got string")


# --- the rows of a JSON Lines document, as aggregate and ranking read them -----------------

def run_rows(params: QuestionTypesParams, report: Any, rows: list[Any]) -> list[Finding]:
    return kindtest.run(question_types, params, doc("report", report, path="summary.json"),
                        rows=doc("rows", path="rows.ndjson", rows=tuple((i + 1, r) for i, r in enumerate(rows))))


def verdicts(ids: list[str]) -> list[dict[str, Any]]:
    """Per-question verdicts as a JSON Lines file writes them: qid, type, and a judge's verdict."""
    return [{"qid": q, "type": OFFICIAL[q], "correct": True} for q in ids]


def test_a_jsonl_role_is_read_like_aggregate_and_ranking_read_it() -> None:
    params = QuestionTypesParams(cases="rows", id_fields=["qid"], type_field="type")
    [f] = run_rows(params, {"n": 3}, verdicts(PREFERENCE))
    assert (f.status, f.message) == ("pass", "3 cases: every question type is a LongMemEval type; the 3 official "
                                             "ids carry their official types")


def test_a_jsonl_row_relabelled_is_named_by_its_id_at_the_document() -> None:
    params = QuestionTypesParams(cases="rows", id_fields=["qid"], type_field="type")
    rows = verdicts(PREFERENCE)
    rows[1]["type"] = "multi-session"
    [f] = run_rows(params, {}, rows)
    assert (f.status, f.document, f.pointer) == ("fail", "rows", "")
    assert f.message == (f"1 official question carries another type than LongMemEval-S gives it: case {PREFERENCE[1]} "
                         "(line 2) is \"multi-session\", officially single-session-preference; a relabelled case moves into a "
                         "slice it does not belong to")


def test_the_official_question_set_from_jsonl_rows() -> None:
    params = QuestionTypesParams(cases="rows", id_fields=["qid"], type_field="type", full_set=True)
    [f] = run_rows(params, {}, verdicts(sorted(OFFICIAL)))
    assert f.status == "pass" and f.message.endswith("the cases are the full set of 500 questions")
    [short] = run_rows(params, {}, verdicts(sorted(OFFICIAL)[:-1]))
    assert short.message == (f"the cases are not the full LongMemEval-S question set: 1 of the 500 official questions "
                             f"are not among the cases (first {sorted(OFFICIAL)[-1]}). A number on part of the set "
                             "reads as a number on the benchmark")


def test_rows_from_a_pointer_into_another_document_and_members_keyed_by_id() -> None:
    ids = PREFERENCE
    report = {"by_id": {q: {"question_type": OFFICIAL[q]} for q in ids}}
    ctx = context({}, summary=doc("summary", report, path="s.json"))
    [f] = kindtest.run(question_types, QuestionTypesParams(cases="summary:/by_id"), ctx)
    assert f.status == "pass" and "the 3 official ids carry their official types" in f.message
    report["by_id"][ids[0]]["question_type"] = "knowledge-update"
    [bad] = kindtest.run(question_types, QuestionTypesParams(cases="summary:/by_id"), ctx)
    assert (bad.document, bad.pointer) == ("summary", f"/by_id/{ids[0]}/question_type")


def test_a_pointer_into_a_jsonl_document_is_refused_as_aggregate_refuses_it() -> None:
    fails(run_rows(QuestionTypesParams(cases="rows:/cases"), {}, verdicts(PREFERENCE)),
          "^document 'rows' is JSON Lines: give rows: rows")


# --- full_dataset ------------------------------------------------------------------------

DATASET = {"name": "longmemeval_s_cleaned", "corpus_hash": HASH, "total_entries": 500, "evaluated_entries": 500,
           "completed_entries": 500, "limit": None, "selected_case_indices": list(range(500))}
FULL = FullDatasetParams(names=["longmemeval_s_cleaned"], corpus_hashes=[HASH], questions=500)


def test_the_real_live_dataset_block_passes() -> None:
    [f] = run(full_dataset, FULL, {"dataset": DATASET})
    assert f.status == "pass"


def test_integral_float_counts_and_a_large_limit_pass() -> None:
    data = {"dataset": {**DATASET, "total_entries": 500.0, "limit": 500}}
    assert run(full_dataset, FULL, data)[0].status == "pass"


DATASET_FAILURES = [
    ("oracle", {"name": "longmemeval_oracle"},
     "/dataset/name is \"longmemeval_oracle\", expected longmemeval_s_cleaned: another split (oracle gives the "
     "reader only the evidence sessions; M is another haystack) is another benchmark"),
    ("other-hash", {"corpus_hash": "sha256:" + "ab" * 32},
     f"/dataset/corpus_hash is \"sha256:{'ab' * 32}\", not the pinned dataset file ({HASH})"),
    ("prefix", {"evaluated_entries": 470}, "/dataset/evaluated_entries is 470, expected 500: the run does not cover "
     "the full set"),
    ("total-string", {"total_entries": "500"}, "/dataset/total_entries is \"500\", expected 500: the run does not "
     "cover the full set"),
    ("limit", {"limit": 470}, "/dataset/limit is 470: a run limited to fewer than 500 entries is a subset"),
    ("limit-bool", {"limit": True}, "/dataset/limit is true: a run limited to fewer than 500 entries is a subset"),
    ("indices", {"selected_case_indices": list(range(499)) + [0]},
     "/dataset/selected_case_indices is not 0..499 once each (got 500 entries)"),
]


@pytest.mark.parametrize(("change", "message"), [r[1:] for r in DATASET_FAILURES],
                         ids=[r[0] for r in DATASET_FAILURES])
def test_dataset_failures(change: dict[str, Any], message: str) -> None:
    found = run(full_dataset, FULL, {"dataset": {**DATASET, **change}})
    assert [(f.status, f.message) for f in found] == [("fail", message)]


def test_missing_counts_fail() -> None:
    block = {k: v for k, v in DATASET.items() if k != "evaluated_entries"}
    [f] = run(full_dataset, FULL, {"dataset": block})
    assert f.message == "/dataset/evaluated_entries is absent, expected 500: the run does not cover the full set"


# --- cross_question ----------------------------------------------------------------------


def test_isolated_rankings_pass() -> None:
    data = {"case_results": cases(PREFERENCE), "overall": {"cross_question_result_count": 0.0}}
    [f] = run(cross_question, CrossQuestionParams(), data)
    assert f.status == "pass"
    assert f.message == "no case among 3 ranks another question's answer session; overall/cross_question_result_count 0.0"


def test_a_shared_answer_session_is_each_questions_own() -> None:
    data = {"case_results": cases(PREFERENCE)}
    data["case_results"][1]["answer_session_ids"].append(f"answer_{PREFERENCE[0]}")
    data["case_results"][1]["ranked_session_ids"].append(f"answer_{PREFERENCE[0]}")
    assert run(cross_question, CrossQuestionParams(), data)[0].status == "pass"


def test_another_questions_answer_session_fails_whatever_the_counter_says() -> None:
    data = {"case_results": cases(PREFERENCE), "overall": {"cross_question_result_count": 0}}
    data["case_results"][0]["ranked_session_ids"].append(f"answer_{PREFERENCE[1]}")
    [f] = run(cross_question, CrossQuestionParams(), data)
    assert f.status == "fail"
    assert f.message == (f"1 case ranks an answer session of another question (1 result; first: case "
                         f"'{PREFERENCE[0]}' ranks 'answer_{PREFERENCE[1]}' of '{PREFERENCE[1]}' at 3): results "
                         "crossed from another question's haystack, yet overall/cross_question_result_count claims 0")
    honest = copy.deepcopy(data)
    honest["overall"]["cross_question_result_count"] = 1
    [f] = run(cross_question, CrossQuestionParams(), honest)
    assert f.status == "fail" and f.message.endswith(", and overall/cross_question_result_count claims 1")



def test_a_session_two_questions_share_is_still_another_questions_for_a_third() -> None:
    """Each case's own answer sessions are its own only while that case is looked at: the two
    owners of a shared session rank it freely, the third case that ranks it afterwards fails."""
    data = {"case_results": cases(PREFERENCE)}
    shared = f"answer_{PREFERENCE[0]}"
    data["case_results"][1]["answer_session_ids"].append(shared)
    data["case_results"][1]["ranked_session_ids"].append(shared)
    data["case_results"][2]["ranked_session_ids"].append(shared)
    [f] = run(cross_question, CrossQuestionParams(), data)
    assert (f.status, f.message) == ("fail", f"1 case ranks an answer session of another question (1 result; first: "
                                             f"case '{PREFERENCE[2]}' ranks '{shared}' of '{PREFERENCE[0]}' at 3): "
                                             "results crossed from another question's haystack")


# --- a summary JSON beside the official evaluator's JSON Lines verdicts (no question type) ---------

QA = ROOT / "examples" / "longmemeval-qa"


def real_verdicts() -> tuple[Any, list[Any]]:
    """activegraph-longmemeval's smoke run as published: scores.json and its 50 judged rows."""
    scores = strictjson.loads((QA / "scores.json").read_bytes())
    rows = [row for _, row in strictjson.loads_lines((QA / "hypotheses.jsonl.eval-results-gpt-4o").read_bytes(),
                                                        16 * 1024 * 1024)]
    return scores, rows


def test_verdicts_without_types_are_official_questions() -> None:
    scores, rows = real_verdicts()
    params = QuestionTypesParams(cases="rows", id_fields=["question_id"], type_field=None)
    [f] = run_rows(params, scores, rows)
    assert (f.status, f.message) == ("pass", "50 cases: 50 are official LongMemEval-S question ids (the types are "
                                             "the official ones: the cases carry none)")


def test_verdicts_of_a_smoke_run_are_not_the_full_set() -> None:
    scores, rows = real_verdicts()
    params = QuestionTypesParams(cases="rows", id_fields=["question_id"], type_field=None, full_set=True)
    [f] = run_rows(params, scores, rows)
    assert f.status == "fail"
    assert f.message.startswith("the cases are not the full LongMemEval-S question set: 450 of the 500 official "
                                "questions are not among the cases (first ")


def test_a_verdict_id_that_only_looks_official_fails() -> None:
    scores, rows = real_verdicts()
    rows[4] = {**rows[4], "question_id": rows[4]["question_id"].upper()}
    [f] = run_rows(QuestionTypesParams(cases="rows", id_fields=["question_id"], type_field=None), scores, rows)
    assert f.status == "fail" and f.message.startswith("1 case id is an official LongMemEval-S id only as a reader "
                                                       "sees it: case ")
    assert "(line 5) and the official id" in f.message


def test_a_verdict_without_an_id_fails() -> None:
    scores, rows = real_verdicts()
    rows[2] = {k: v for k, v in rows[2].items() if k != "question_id"}
    [f] = run_rows(QuestionTypesParams(cases="rows", id_fields=["question_id"], type_field=None), scores, rows)
    assert (f.status, f.message) == ("fail", "1 case is not a question of the set: line 3 has no id (question_id)")
