"""What the ``locomo-qa`` profile is built from, each piece with passing and failing inputs.

The kinds ``question_set``, ``declared`` and ``beats``; ``aggregate``'s group names, claims by
name and label; rows and ``fields`` read through a ``*`` pointer; LoCoMo datasets read from a
JSON array or a zip archive. Inputs are small and made up here (LoCoMo itself is not part of
the repository); the whole profile runs on the synthetic example in ``golden/locomo-qa/``.
"""

from __future__ import annotations

import io
import json
import zipfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bench_gate.checks.base import Fail, expand
from bench_gate.checks.recompute.aggregate import render_label
from bench_gate.checks.recompute.questions import parse_groups, questions_digest
from bench_gate.loaders.dataset import DatasetError, scan, scan_archive
from bench_gate.models import Doc, Finding

import kindtest
from repo import ROOT

NOW = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)


def run(kind: str, params: dict[str, Any], report: Any, **docs: Any) -> list[Finding]:
    return kindtest.run(kind, params, kindtest.doc("report", report, path="eval.json"), **docs)


def one(kind: str, params: dict[str, Any], report: Any, **docs: Any) -> tuple[str, str]:
    found = run(kind, params, report, **docs)
    failing = [f for f in found if f.status == "fail"]
    pick = failing[0] if failing else found[0]
    return pick.status, pick.message


def row(q: str, category: Any, llm: int = 1, f1: float = 0.5, bleu: float = 0.25, answer: str = "a") -> dict[str, Any]:
    return {"question": q, "answer": answer, "response": "r", "category": category, "bleu_score": bleu,
            "f1_score": f1, "llm_score": llm}


# A two-conversation benchmark: conversation 0 asks q1 (category 1), q2 (2), q3 (2), q9 (3);
# conversation 1 asks q4 (1), q5 (2), and q5 again (2), and q6 (3).
DATASET = [
    {"sample_id": "conv-a", "qa": [{"question": "q1", "answer": "a", "category": 1},
                                   {"question": "q2", "answer": 2022, "category": 2},
                                   {"question": "q3", "answer": "a", "category": 2},
                                   {"question": "q9", "adversarial_answer": "x", "category": 3}]},
    {"sample_id": "conv-b", "qa": [{"question": "q4", "answer": "a", "category": 1},
                                   {"question": "q5", "answer": "a", "category": 2},
                                   {"question": "q5", "answer": "a", "category": 2},
                                   {"question": "q6", "adversarial_answer": "x", "category": 3}]},
]
COUNTS = {"0": {"1": 1, "2": 2, "3": 1}, "1": {"1": 1, "2": 2, "3": 1}}
REPORT = {"0": [row("q1", "1"), row("q2", "2", 0, answer="2022"), row("q3", "2")],
          "1": [row("q4", "1", 0), row("q5", "2"), row("q5", "2")]}


def dataset_doc(entries: list[Any] = DATASET) -> Doc:
    summary = scan(io.BytesIO(json.dumps(entries).encode()))
    return Doc("dataset", "locomo.json", summary.sha256, summary.size, extra=summary.extra())


DIGEST = questions_digest(dataset_doc().extra["questions"])
QS = {"rows": "report:/*", "counts": COUNTS, "answer": "/answer", "groups": "1,2", "groups_option": "--categories",
      "groups_at": ["summary:/categories"], "dataset": "dataset", "dataset_digest": [DIGEST],
      "label": "Bench (categories {groups}, {n} questions)", "part_noun": "conversation", "group_noun": "category"}


def moved(report: dict[str, list[dict[str, Any]]], src: tuple[str, int], dst: str) -> dict[str, Any]:
    out = json.loads(json.dumps(report))
    out[dst].append(out[src[0]].pop(src[1]))
    return out


def edited(report: dict[str, Any], conv: str, i: int, **change: Any) -> dict[str, Any]:
    out = json.loads(json.dumps(report))
    out[conv][i].update(change)
    return out


# --- question_set -----------------------------------------------------------------------------

QUESTION_SET = [
    ("passes-with-the-dataset", QS, REPORT, {}, "pass",
     "Bench (categories 1-2, 6 questions): the 6 rows are the benchmark's questions of categories 1-2: 2 "
     "conversations, each with its pinned count per category; each row's question, category and answer are those "
     "of dataset 'dataset' (locomo.json), whose question list is the pinned one"),
    ("passes-without-the-dataset", {**QS, "dataset": None}, REPORT, {}, "pass",
     "Bench (categories 1-2, 6 questions): the 6 rows are the benchmark's questions of categories 1-2: 2 "
     "conversations, each with its pinned count per category"),
    ("integer-categories", QS, {"0": [row("q1", 1), row("q2", 2, answer="2022"), row("q3", 2)],
                                "1": [row("q4", 1), row("q5", 2), row("q5", 2)]}, {}, "pass", None),
    ("categories-from-the-summary", {**QS, "groups": None}, REPORT, {"summary": {"categories": [1, 2]}}, "pass", None),
    ("categories-stated-twice-and-differ", QS, REPORT, {"summary": {"categories": [1, 2, 3]}}, "fail",
     "Bench (categories not stated, ? questions): summary:/categories states 1-3, but --categories states 1-2: "
     "a result covers one question set"),
    ("categories-not-stated", {**QS, "groups": None}, REPORT, {}, "fail",
     "Bench (categories not stated, ? questions): the category ids the result covers are not stated (--categories "
     "or summary:/categories): a result that does not say which category ids it covers cannot be compared with any "
     "other"),
    ("categories-unreadable", {**QS, "groups": "1,,2"}, REPORT, {}, "fail",
     'Bench (categories not stated, ? questions): --categories is string "1,,2": not a list of category ids (1,2,3,4 '
     "or 1-4), each once"),
    ("category-the-benchmark-lacks", {**QS, "groups": "1,2,7"}, REPORT, {}, "fail",
     "Bench (categories not stated, ? questions): category 7 stated in --categories is not a category of the "
     "benchmark (1-3)"),
    ("all-categories-claimed", {**QS, "groups": "1-3"}, REPORT, {}, "fail",
     "Bench (categories 1-3, 8 questions): the rows are not the benchmark's questions of categories 1-3 (6 rows): "
     "conversation 0 (conv-a), category 3: 0 rows, the benchmark has 1; conversation 1 (conv-b), category 3: 0 rows, "
     "the benchmark has 1; a question left out, added or moved changes every mean"),
    ("row-of-a-category-not-stated", {**QS, "groups": "1"}, REPORT, {}, "fail",
     "Bench (categories 1, 2 questions): 4 rows are of a category the result does not state (4 of category 2; "
     "first /0/1): a result stated as category 1 holds only those questions"),
    ("row-dropped", QS, {**REPORT, "1": REPORT["1"][:2]}, {}, "fail",
     "Bench (categories 1-2, 6 questions): the rows are not the benchmark's questions of categories 1-2 (5 rows): "
     "conversation 1 (conv-b), category 2: 1 row, the benchmark has 2; a question left out, added or moved changes "
     "every mean"),
    ("row-moved-to-another-conversation", {**QS, "dataset": None}, moved(REPORT, ("0", 2), "1"), {}, "fail",
     "Bench (categories 1-2, 6 questions): the rows are not the benchmark's questions of categories 1-2 (6 rows): "
     "conversation 0, category 2: 1 row, the benchmark has 2; conversation 1, category 2: 3 rows, the benchmark has "
     "2; a question left out, added or moved changes every mean"),
    ("row-in-a-conversation-the-benchmark-lacks", QS, {**REPORT, "7": [row("q1", "1")]}, {}, "fail",
     "Bench (categories 1-2, 6 questions): 1 row is in conversation '7', which the benchmark does not have "
     "(conversations 0-1; first /7/0)"),
    ("empty-conversation-the-benchmark-lacks", QS, {**REPORT, "7": []}, {}, "fail",
     "Bench (categories 1-2, 6 questions): report:/ has conversation '7' with no rows, which the benchmark does not "
     "have (conversations 0-1): a result holds the benchmark's conversations and nothing else"),
    ("question-not-a-string", QS, edited(REPORT, "0", 0, question=7), {}, "fail",
     "Bench (categories 1-2, 6 questions): report /0/0: /question must be a question (a non-empty string), got "
     "integer 7"),
    ("category-not-an-id", QS, edited(REPORT, "0", 0, category=1.0), {}, "fail",
     "Bench (categories 1-2, 6 questions): report /0/0: /category must be a category id (a string or an "
     "integer), got number 1.0"),
    ("conversation-not-a-list", QS, {**REPORT, "1": {"question": "q4"}}, {}, "fail",
     "Bench (categories 1-2, 6 questions): report /1/question must be an object, got string \"q4\""),
]


@pytest.mark.parametrize(("params", "report", "docs", "status", "message"),
                         [c[1:] for c in QUESTION_SET], ids=[c[0] for c in QUESTION_SET])
def test_question_set(params: dict[str, Any], report: Any, docs: dict[str, Any], status: str,
                      message: str | None) -> None:
    got = one("question_set", params, report, dataset=dataset_doc(), **docs)
    assert got[0] == status, got[1]
    if message is not None:
        assert got[1] == message


def test_a_passing_question_set_states_its_label_groups_and_count() -> None:
    found = run("question_set", QS, REPORT, dataset=dataset_doc())
    assert found[0].actual == {"label": "Bench (categories 1-2, 6 questions)", "groups": ["1", "2"], "questions": 6}


@pytest.mark.parametrize(("report", "words"), [
    (edited(REPORT, "0", 0, category="2"), "/0/0 \"q1\" (category 2): the dataset has it as category 1"),
    (edited(REPORT, "1", 2, question="q2"),
     '/1/2 "q2" (category 2): it is a question of conversation 0 (conv-a) (category 2)'),
    (edited(REPORT, "1", 1, question="q4", category="2"), '/1/1 "q4" (category 2): the dataset has it as category 1'),
    (edited(REPORT, "0", 2, question="q2"), '/0/2 "q2" (category 2): asked 1 time in the dataset, and this row is '
                                            "one more"),
    (edited(REPORT, "0", 2, question="Q3 "), '/0/2 "Q3 " (category 2): the dataset writes it "q3" (another case or '
                                             "spacing)"),
    (edited(REPORT, "0", 2, question="q7"), '/0/2 "q7" (category 2): no question of the dataset'),
])
def test_a_row_that_is_not_a_question_of_its_conversation_says_where_its_question_is(report: Any, words: str) -> None:
    found = run("question_set", {**QS, "groups": "1,2"}, report, dataset=dataset_doc())
    assert {f.status for f in found} == {"fail"}
    assert any(words in f.message for f in found), [f.message for f in found]


def test_a_question_asked_twice_needs_two_rows() -> None:
    report = {**REPORT, "1": REPORT["1"][:2] + [row("q4", "1")]}
    found = run("question_set", QS, report, dataset=dataset_doc())
    assert [f.status for f in found] == ["fail", "fail"]
    assert '1 question has no row: conversation 1 (conv-b): "q5" (category 2)' in found[1].message


def test_a_row_with_another_gold_answer_fails() -> None:
    status, message = one("question_set", QS, edited(REPORT, "0", 1, answer="2023"), dataset=dataset_doc())
    assert (status, message) == ("fail", 'Bench (categories 1-2, 6 questions): 1 row carries another gold answer '
                                         'than the dataset: /0/1 answers "2023", the dataset "2022"; the judge '
                                         "compared the response with that answer")


def test_a_dataset_with_other_counts_or_another_question_list_is_not_the_pinned_one() -> None:
    relabelled = json.loads(json.dumps(DATASET))
    relabelled[0]["qa"][2]["category"] = 3
    status, message = one("question_set", QS, REPORT, dataset=dataset_doc(relabelled))
    assert status == "fail"
    assert message.endswith("dataset 'dataset' (locomo.json) is not the benchmark's dataset as pinned: conversation "
                            "0 (conv-a) has 1 questions of category 2, the pinned count is 2; conversation 0 (conv-a) "
                            "has 2 questions of category 3, the pinned count is 1")
    reworded = json.loads(json.dumps(DATASET))
    reworded[1]["qa"][0]["question"] = "q4?"
    status, message = one("question_set", QS, REPORT, dataset=dataset_doc(reworded))
    assert status == "fail"
    assert f"is not the pinned one ({DIGEST[:12]}…): a question, category or answer differs" in message
    assert one("question_set", {**QS, "dataset_digest": None}, edited(REPORT, "1", 0, question="q4?"),
               dataset=dataset_doc(reworded))[0] == "pass"


def test_a_dataset_without_qa_lists_is_not_this_benchmark() -> None:
    status, message = one("question_set", QS, REPORT,
                          dataset=dataset_doc([{"question_id": "a", "question_type": "t"}] * 2))
    assert status == "fail"
    assert "entry 0 has no qa list of questions (2 entries of 2)" in message


@pytest.mark.parametrize(("params", "problem"), [
    ({**QS, "counts": {}}, "counts must give each part's questions by group"),
    ({**QS, "counts": {"0": {"1": -1}}}, "counts['0']['1'] must be >= 0"),
    ({**QS, "dataset_digest": ["abc"]}, "dataset_digest must list SHA-256 digests"),
    ({**QS, "dataset_digest": []}, "dataset_digest must list SHA-256 digests"),
    ({**QS, "groups_at": ["summary:categories"]}, "must be a ref"),
    ({**QS, "rows": "report:*"}, "must be a document role"),
])
def test_question_set_parameters_are_checked_when_the_profile_compiles(params: dict[str, Any], problem: str) -> None:
    with pytest.raises(ValueError, match=problem.replace("[", r"\[").replace("]", r"\]")):
        kindtest.params("question_set", params)


@pytest.mark.parametrize(("value", "groups"), [
    ("1,2,3,4", ["1", "2", "3", "4"]), ("1-4", ["1", "2", "3", "4"]), (" 1 - 2 , 4", ["1", "2", "4"]),
    ([1, 2, 3, 4], ["1", "2", "3", "4"]), (["1", 5], ["1", "5"]), ("single-hop", ["single-hop"]),
    ("4-1", None), ("1,1", None), ("", None), ([], None), ([True], None), ([1.5], None), (4, None), ("1,,2", None),
])
def test_stated_groups_are_lists_or_ids_and_ranges(value: Any, groups: list[str] | None) -> None:
    assert parse_groups(value) == groups


@pytest.mark.parametrize(("groups", "n", "label"), [
    (["1", "2", "3", "4"], 1540, "L (categories 1-4, 1,540 questions)"),
    (["4", "2", "1"], 7, "L (categories 1-2 and 4, 7 questions)"),
    (["1", "3", "5"], 7, "L (categories 1, 3 and 5, 7 questions)"),
    (["1", "2", "3", "5", "6", "7", "x"], 0, "L (categories 1-3, 5-7 and x, 0 questions)"),
])
def test_a_label_lists_runs_of_numbers_as_ranges(groups: list[str], n: int, label: str) -> None:
    assert render_label("L (categories {groups}, {n} questions)", groups, n) == label


# --- rows and fields through * ------------------------------------------------------------------

def test_a_star_pointer_reaches_every_member_in_document_order() -> None:
    assert expand({"b": [1], "a": []}, "/*") == [("/b", ("b",), [1]), ("/a", ("a",), [])]
    assert expand({"b": [{"x": 1}]}, "/*/0/x") == [("/b/0/x", ("b",), 1)]
    assert expand({"b": [{"x": 1}]}, "/*/1/x")[0][2] is not None  # MISSING, not an error
    with pytest.raises(Fail, match=r"report:/b must be an object or an array \('\*' in /\*/\* goes through"):
        expand({"b": 3}, "/*/*")


FIELDS = {"base": "/*", "each": True, "fields": [{"path": "/question", "type": "string"},
                                                 {"path": "/llm_score", "type": "integer", "one_of": [0, 1]},
                                                 {"path": "/f1_score", "type": "number", "min": 0, "max": 1}]}


@pytest.mark.parametrize(("report", "status", "message"), [
    (REPORT, "pass", "all 6 items of the 2 lists at /* have question, llm_score, f1_score"),
    ({**REPORT, "1": []}, "pass", "all 3 items of the 2 lists at /* have question, llm_score, f1_score"),
    (edited(REPORT, "1", 2, llm_score=2), "fail", "/1/2/llm_score is 2, expected one of 0, 1"),
    (edited(REPORT, "0", 0, f1_score=1.5), "fail", "/0/0/f1_score is 1.5, above the maximum 1"),
    ({**REPORT, "1": {"a": 1}}, "fail", "/1 must be a list, got object"),
    ({"0": [], "1": []}, "fail", "/* reaches 0 items (at least 1 needed)"),
])
def test_fields_through_a_star_base(report: Any, status: str, message: str) -> None:
    assert one("fields", FIELDS, report) == (status, message)


def test_aggregate_reads_rows_through_a_star_and_names_them_by_where_they_are() -> None:
    params = {"rows": "report:/*", "op": "mean", "field": "/llm_score", "claim_value": 0.5}
    assert one("aggregate", params, REPORT) == ("fail", "the claimed value claims 0.5, recomputed mean of /llm_score "
                                                        "is 0.666667 (4/6 items)")
    status, message = one("aggregate", params, edited(REPORT, "1", 1, llm_score="1"))
    assert (status, message) == ("fail", 'report /1/1: /llm_score must be a number, got string "1"')


# --- aggregate: group names, claims by name, label ----------------------------------------------

NAMES = {"multi-hop": "1", "temporal": "2", "single-hop": "4"}
BY_NAME = {"rows": "report:/*", "op": "mean", "field": "/llm_score", "group_by": "/category", "group_names": NAMES,
           "names_from": "category_names", "group_noun": "category", "claims": {}, "claim_key": "j",
           "group_claim_key": "j/{group}", "known_claims": ["j", "j/{group}", "n", "n/{group}"], "places": 4,
           "label": "L (categories {groups}, {n} questions)"}


@pytest.mark.parametrize(("claims", "status", "message"), [
    ({"j": 0.6667, "j/1": 0.5, "j/temporal": 0.75}, "pass",
     "L (categories 1-2, 6 questions): mean of /llm_score over 6 items of 'report' is as claimed (rounded to 4 "
     "places): j 0.6667 (0.666667 over 6 items; claimed 0.6667 (4 places); the exact value 4/6 items rounds to "
     "0.6667 at 4 places); j/1 0.5 (0.5, category 1); j/temporal 0.75 (0.75, category 2 ('temporal' in "
     "category_names))"),
    ({"j/Multi Hop": 0.5}, "pass", None),
    ({"j/temporal": 0.5}, "fail",
     "L (categories 1-2, 6 questions): j/temporal claims 0.5, recomputed mean of /llm_score for category '2' "
     "('temporal' in category_names) is 0.75 (3/4 items) (rounded to 4 places); 0.5 is category 1's value (0.5, "
     "1/2 items), which category_names calls 'multi-hop': the claim names category 1 'temporal', another naming "
     "than category_names ('temporal' is category 2)"),
    ({"j/2": 0.5}, "fail",
     "L (categories 1-2, 6 questions): j/2 claims 0.5, recomputed mean of /llm_score for category '2' is 0.75 "
     "(3/4 items) (rounded to 4 places)"),
    ({"j/single-hop": 0.5}, "fail",
     "L (categories 1-2, 6 questions): j/single-hop claims 0.5 for category 'single-hop' ('single-hop' is category "
     "'4' in category_names), which has no items here (categories of the rows: 1, 2; names: multi-hop = 1, "
     "single-hop = 4, temporal = 2)"),
    ({"jj": 0.5}, "fail",
     "L (categories 1-2, 6 questions): jj names no value this profile recomputes (the names are j, j/GROUP, n, "
     "n/GROUP, GROUP a category or one of its names): a claimed number nobody recomputes is not checked"),
    ({"n": 6}, "skip", "L (categories 1-2, 6 questions): no claim is named j or j/{group}"),
])
def test_aggregate_claims_by_name(claims: dict[str, Any], status: str, message: str | None) -> None:
    got = one("aggregate", {**BY_NAME, "claims": claims}, REPORT)
    assert got[0] == status, got[1]
    if message is not None:
        assert got[1] == message


SUMMARY_RULE = {"rows": "report:/*", "op": "mean", "field": "/llm_score", "group_by": "/category",
                "group_names": NAMES, "names_from": "category_names", "group_noun": "category",
                "claim": "summary:/overall/j", "group_claim": "summary:/by_category/{group}/j",
                "groups_at": "summary:/by_category"}


@pytest.mark.parametrize(("by_category", "status", "message"), [
    ({"1": {"j": 0.5}, "2": {"j": 0.75}}, "pass",
     "mean of /llm_score is 0.666667 (4/6 items) over 6 items of 'report', as summary:/overall/j claims; 2 "
     "categories agree"),
    ({"multi-hop": {"j": 0.5}, "Temporal": {"j": 0.75}}, "pass", None),
    ({"temporal": {"j": 0.5}, "multi-hop": {"j": 0.75}}, "fail",
     "summary:/by_category/multi-hop/j claims 0.75, recomputed mean of /llm_score for category '1' ('multi-hop' in "
     "category_names) is 0.5 (1/2 items); 0.75 is category 2's value (0.75, 3/4 items), which category_names calls "
     "'temporal': the claim names category 2 'multi-hop', another naming than category_names ('multi-hop' is "
     "category 1); rows /0/0, /1/0"),
    ({"1": {"j": 0.5}, "multi-hop": {"j": 0.5}, "2": {"j": 0.75}}, "fail",
     "summary:/by_category claims category '1' twice, as '1' and 'multi-hop'"),
    ({"1": {"j": 0.5}}, "fail", "4 items of category '2' have no entry in summary:/by_category (first: /0/1)"),
    ({"1": {"j": 0.5}, "2": {"j": 0.75}, "single-hop": {"j": 1}}, "fail",
     "category '4' ('single-hop' is category '4' in category_names) has no items in report: its summary is of rows "
     "that are not there (a different subset?)"),
])
def test_aggregate_groups_claimed_by_name(by_category: dict[str, Any], status: str, message: str | None) -> None:
    summary = {"overall": {"j": 0.6666666666666666}, "by_category": by_category}
    got = one("aggregate", SUMMARY_RULE, REPORT, summary=summary)
    assert got[0] == status, got[1]
    if message is not None:
        assert got[1] == message


@pytest.mark.parametrize(("params", "problem"), [
    ({**BY_NAME, "claim_key": None, "group_claim_key": None, "known_claims": [], "claim": "/j", "claims": {"j": 1}},
     "claims are read by name"),
    ({**BY_NAME, "group_claim_key": "j/x"}, "must contain {group} once"),
    ({**BY_NAME, "known_claims": ["j/{group}/{group}"]}, "may contain {group} at most once"),
    ({**BY_NAME, "label": " "}, "label must name the rows"),
    ({k: v for k, v in BY_NAME.items() if k != "group_by"}, "need group_by or group_from"),
])
def test_aggregate_name_parameters_are_checked_when_the_profile_compiles(params: dict[str, Any], problem: str) -> None:
    with pytest.raises(ValueError, match=problem.replace("{", r"\{").replace("}", r"\}")):
        kindtest.params("aggregate", params)


# --- declared ---------------------------------------------------------------------------------

DECLARED = {"what": "judge model", "at": ["summary:/judge_model"], "value": None, "value_name": "--judge-model",
            "differs": "a J from another judge is another measurement"}


@pytest.mark.parametrize(("params", "docs", "status", "message"), [
    (DECLARED, {"summary": {"judge_model": "gpt-4o-mini"}}, "pass", 'judge model "gpt-4o-mini" (summary:/judge_model)'),
    ({**DECLARED, "value": "gpt-4o-mini"}, {}, "pass", 'judge model "gpt-4o-mini" (--judge-model)'),
    ({**DECLARED, "value": "GPT-4o-mini "}, {"summary": {"judge_model": "gpt-4o-mini"}}, "pass",
     'judge model "gpt-4o-mini" (summary:/judge_model; --judge-model)'),
    ({**DECLARED, "value": "gpt-4o"}, {"summary": {"judge_model": "gpt-4o-mini"}}, "fail",
     'the judge model is stated twice and differs: --judge-model "gpt-4o", summary:/judge_model "gpt-4o-mini"'),
    (DECLARED, {"summary": {"judge_model": "N/A"}}, "fail",
     'summary:/judge_model is string "N/A": not a judge model (a name, not a placeholder)'),
    (DECLARED, {"summary": {"judge_model": 4}}, "fail",
     "summary:/judge_model is integer 4: not a judge model (a name, not a placeholder)"),
    (DECLARED, {"summary": {}}, "fail",
     "the judge model is not stated (summary:/judge_model or --judge-model): a number whose judge model is unknown "
     "cannot be compared with any other"),
    (DECLARED, {}, "fail", "the judge model is not stated (summary:/judge_model or --judge-model): a number whose "
                           "judge model is unknown cannot be compared with any other"),
    ({**DECLARED, "value": "gpt-4o-mini", "compare_at": ["baseline:/judge_model"]},
     {"baseline": {"judge_model": "gpt-4o"}}, "fail",
     'baseline:/judge_model is "gpt-4o", our judge model is "gpt-4o-mini": a J from another judge is another '
     "measurement"),
    ({**DECLARED, "value": "gpt-4o-mini", "compare_at": ["baseline:/judge_model"]}, {"baseline": {}}, "fail",
     "baseline:/judge_model is not stated: the judge model of what we compare with must be stated (ours is "
     '"gpt-4o-mini")'),
    ({**DECLARED, "value": "gpt-4o-mini", "compare_at": ["baseline:/judge_model"]},
     {"baseline": {"judge_model": "GPT-4o-mini"}}, "pass",
     'judge model "gpt-4o-mini" (--judge-model); baseline:/judge_model states the same'),
])
def test_declared(params: dict[str, Any], docs: dict[str, Any], status: str, message: str) -> None:
    assert one("declared", params, {}, **docs) == (status, message)


# --- beats ------------------------------------------------------------------------------------

BEATS = {"rows": "report:/*", "field": "/llm_score", "name": "J", "baseline": "baseline:/j",
         "system": "baseline:/system", "source": "baseline:/source",
         "sources": {"paper": "quoted from a paper, not re-run here", "run": "re-run with the same harness"},
         "reference": "baseline:/reference",
         "same": [{"what": "judge model", "at": ["summary:/judge_model"], "value": "gpt-4o-mini",
                   "value_name": "--judge-model", "theirs": "baseline:/judge_model"},
                  {"what": "categories", "at": ["summary:/categories"], "value": "1-2", "value_name": "--categories",
                   "theirs": "baseline:/categories", "as_groups": True}],
         "label": "L (categories {groups}, {n} questions)"}
BASELINE = {"system": "Mem0", "source": "paper", "reference": "a paper, table 1", "judge_model": "gpt-4o-mini",
            "categories": [1, 2], "j": 0.6}


@pytest.mark.parametrize(("baseline", "summary", "status", "message"), [
    (BASELINE, {}, "pass",
     'L (categories 1-2, 6 questions): J 0.666667 (4/6, recomputed) is greater than baseline Mem0 0.6 (quoted from a '
     'paper, not re-run here: "a paper, table 1"), under the same judge model "gpt-4o-mini", categories 1-2'),
    ({**BASELINE, "source": "run", "j": 0.8}, {}, "fail",
     'L (categories 1-2, 6 questions): J 0.666667 (4/6, recomputed) is not greater than baseline Mem0 0.8 (re-run '
     'with the same harness: "a paper, table 1"), under the same judge model "gpt-4o-mini", categories 1-2'),
    ({**BASELINE, "source": "run", "j": 0.7}, {}, "fail",
     'L (categories 1-2, 6 questions): J 0.666667 (4/6, recomputed) equals baseline Mem0 0.7 (re-run with the same '
     'harness: "a paper, table 1") (the baseline is written to 1 place: it stands for every value that rounds to it, '
     'and ours rounds to 0.7): a tie is not better, under the same judge model "gpt-4o-mini", categories 1-2'),
    ({**BASELINE, "j": 0.6666666666666666}, {}, "fail",
     'L (categories 1-2, 6 questions): J 0.666667 (4/6, recomputed) equals baseline Mem0 0.6666666666666666 (quoted '
     'from a paper, not re-run here: "a paper, table 1"): a tie is not better, under the same judge model '
     '"gpt-4o-mini", categories 1-2'),
    ({**BASELINE, "judge_model": "gpt-4o", "j": 0.1}, {}, "fail",
     'L (categories 1-2, 6 questions): J is not compared with baseline Mem0 0.1 (quoted from a paper, not re-run '
     'here: "a paper, table 1"): judge model "gpt-4o" (baseline:/judge_model), ours "gpt-4o-mini"; a number '
     "measured with another judge model is another measurement, so it is never beaten strictly across them"),
    ({**BASELINE, "categories": [1, 2, 3, 4], "j": 0.1}, {}, "fail",
     'L (categories 1-2, 6 questions): J is not compared with baseline Mem0 0.1 (quoted from a paper, not re-run '
     'here: "a paper, table 1"): categories 1-4 (baseline:/categories), ours 1-2; a number measured with another '
     "categories is another measurement, so it is never beaten strictly across them"),
    ({k: v for k, v in BASELINE.items() if k != "judge_model"}, {}, "fail",
     "L (categories 1-2, 6 questions): baseline:/judge_model is not stated: a baseline whose judge model is unknown "
     "is not like for like"),
    ({k: v for k, v in BASELINE.items() if k != "source"}, {}, "fail",
     "L (categories 1-2, 6 questions): baseline:/source is missing: say how the baseline number came about, one of "
     "paper, run"),
    ({**BASELINE, "source": "blog"}, {}, "fail",
     'L (categories 1-2, 6 questions): baseline:/source is string "blog": say how the baseline number came about, '
     "one of paper, run"),
    (BASELINE, {"judge_model": "gpt-4o"}, "fail",
     'L (categories 1-2, 6 questions): the judge model is stated twice and differs: --judge-model "gpt-4o-mini", '
     'summary:/judge_model "gpt-4o"'),
])
def test_beats(baseline: dict[str, Any], summary: dict[str, Any], status: str, message: str | None) -> None:
    got = one("beats", BEATS, REPORT, baseline=baseline, summary=summary)
    assert got[0] == status, got[1]
    if message is not None:
        assert got[1] == message


def test_beats_needs_our_side_stated() -> None:
    params = {**BEATS, "same": [{**BEATS["same"][0], "value": None}]}
    status, message = one("beats", params, REPORT, baseline=BASELINE)
    assert (status, message) == ("fail", "L (categories not stated, 6 questions): our judge model is not stated "
                                         "(summary:/judge_model or --judge-model): the comparison with the baseline "
                                         "cannot be like for like")


# --- datasets: a JSON array or a zip archive ----------------------------------------------------

def _zip(members: dict[str, bytes]) -> io.BytesIO:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    buffer.seek(0)
    return buffer


def test_a_zip_of_conversations_is_the_same_dataset_as_the_array() -> None:
    members = {"data/v2/": b"", "data/v2/30.json": json.dumps(DATASET[1]).encode(),
               "data/v2/4.json": json.dumps({k: v for k, v in DATASET[0].items() if k != "sample_id"}).encode(),
               "__MACOSX/data/v2/._4.json": b"\x00\x05binary", "data/v2/README.txt": b"not an entry"}
    summary = scan_archive(_zip(members))
    array = scan(io.BytesIO(json.dumps(DATASET).encode()))
    assert summary.questions == array.questions
    assert questions_digest(summary.questions) == questions_digest(array.questions) == DIGEST
    assert summary.names == ["4.json", "conv-b"]
    assert array.names == ["conv-a", "conv-b"]


@pytest.mark.parametrize(("members", "error"), [
    ({"a.txt": b"x"}, "is a zip archive with no .json member"),
    ({"a.json": b"{\"qa\": [}"}, "member 'a.json' "),
    ({"a.json": b"\xef\xbb\xbf{}"}, "member 'a.json' "),
])
def test_an_archive_that_is_not_a_dataset_is_an_error(members: dict[str, bytes], error: str) -> None:
    with pytest.raises(DatasetError, match=error.replace("[", r"\[")):
        scan_archive(_zip(members))


def test_an_archive_with_two_members_of_one_name_is_ambiguous() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.json", b"{}")
        with pytest.warns(UserWarning):
            archive.writestr("a.json", b"[]")
    buffer.seek(0)
    with pytest.raises(DatasetError, match="holds two members named 'a.json'"):
        scan_archive(buffer)


def test_a_file_that_only_starts_like_a_zip_is_an_error() -> None:
    with pytest.raises(DatasetError, match="is not a readable zip archive"):
        scan_archive(io.BytesIO(b"PK\x03\x04 not really"))


# --- the synthetic example is what its generator writes ------------------------------------------

def test_the_example_files_are_what_make_locomo_cases_writes() -> None:
    import make_locomo_cases as m

    folder = ROOT / "examples" / "locomo-qa"
    for name, text in m.example_files().items():
        assert (folder / name).read_text(encoding="utf-8") == text, name
    data = m.dataset()
    assert [sum(1 for q in e["qa"] if q["category"] == int(c)) for e in data for c in "12345"] == \
        [n for counts in m.COUNTS.values() for n in counts.values()]
    assert m.question_list_sha(data) == questions_digest(
        scan(io.BytesIO((folder / "locomo10-synthetic.json").read_bytes())).questions)


@pytest.mark.parametrize(("word", "many"), [("category", "categories"), ("entry", "entries"), ("day", "days"),
                                            ("case", "cases"), ("key", "keys"), ("y", "ys")])
def test_a_consonant_and_y_makes_a_plural_in_ies(word: str, many: str) -> None:
    from bench_gate.text.wording import plural, plural_of

    assert plural_of(word) == many
    assert plural(2, word) == f"2 {many}" and plural(1, word) == f"1 {word}"


# --- the whole profile on the synthetic example: the tamperings golden/locomo-qa/ does not pin ----

def _variants() -> dict[str, dict[str, Any]]:
    import make_locomo_cases as m

    specs = m.cases()
    return {name: spec for name, spec in specs.items() if name not in m.GOLDEN_CASES}


VARIANTS = _variants()


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_profile_fails_each_tampered_copy_of_the_example(name: str, tmp_path: Path) -> None:
    import make_locomo_cases as m
    from golden import ROOT, apply_patch, run_main

    spec = VARIANTS[name]
    example = ROOT / "examples" / "locomo-qa"
    for file in ("locomo10-synthetic.json", "eval_results.json", "summary.json", m.PROFILE):
        (tmp_path / file).write_bytes((example / file).read_bytes())
    if "summary" in spec:
        (tmp_path / "summary.json").write_text(json.dumps(spec["summary"]), encoding="utf-8")
    if "base" in spec:
        report = apply_patch(json.loads((ROOT / spec["base"]).read_text(encoding="utf-8")), spec["patch"])
        (tmp_path / "report.json").write_text(json.dumps(report), encoding="utf-8")
        args = spec["args"]
    else:
        args = [spec["report"], *spec["args"]]
    code, out, err = run_main(args, "2026-11-29T12:00:00Z", tmp_path, "json")
    verdict = json.loads(out)
    failing = [r["rule"] for r in verdict["results"] if r["status"] == "fail"]
    assert (code, failing) == (spec["exit"], spec["fails"]), err
    messages = " ".join(m["message"] for r in verdict["results"] if r["status"] == "fail"
                        for m in [r, *r.get("details", [])])
    assert spec["says"] in messages


# --- citable_values: what a passing locomo-qa gate lets a page cite ------------------------------

SCORES = {"j": 0.75, "f1": 0.5, "bleu1": 0.25, "n": 4}
CITABLE = {"benchmark": "LoCoMo", "groups": None, "groups_at": ["summary:/categories"], "group_noun": "category",
           "questions": "summary:/overall/n", "judge": "summary:/judge_model", "judge_value": None,
           "values": [{"metric": "j", "value": "summary:/overall/j"}], "slices_at": "summary:/by_category",
           "slice_values": [{"metric": "j", "value": "/j"}],
           "slice_ids": {"single-hop": "4", "multi-hop": "1", "temporal": "2", "temporal-reasoning": "2"}}


def cited(summary: dict[str, Any], **params: Any) -> tuple[str, str, Any]:
    found = run("citable_values", {**CITABLE, **params}, {}, summary=summary)
    return found[0].status, found[0].message, found[0].actual


def test_citable_values_carry_the_categories_question_count_and_judge() -> None:
    summary = {"categories": [1, 2, 3, 4], "judge_model": "gpt-4o-mini", "overall": SCORES,
               "by_category": {"1": SCORES, "2": SCORES, "3": SCORES}}
    status, message, actual = cited(summary)
    assert status == "pass"
    assert message.startswith("5 citable values on LoCoMo (categories 1-4, 4 questions)")
    assert (actual["benchmark"], actual["questions"], actual["judge"], actual["groups"]) == (
        "LoCoMo (categories 1-4)", 4, "gpt-4o-mini", ["1", "2", "3", "4"])
    # a category is cited under every name of its id (2: temporal, temporal-reasoning), and one
    # without a name (3) under its id
    assert [v.get("slice") for v in actual["values"]] == [None, "multi-hop", "temporal", "temporal-reasoning", "3"]


def test_a_slice_keyed_by_a_name_is_cited_under_the_names_of_its_category() -> None:
    summary = {"categories": "1-4", "judge_model": "gpt-4o-mini", "overall": SCORES,
               "by_category": {"Single Hop": SCORES, "temporal": SCORES}}
    status, _, actual = cited(summary)
    assert status == "pass"
    assert [v.get("slice") for v in actual["values"][1:]] == ["single-hop", "temporal", "temporal-reasoning"]


def test_the_judge_comes_from_the_summary_or_the_gate_and_never_two() -> None:
    summary = {"categories": [1, 2, 3, 4], "overall": SCORES, "by_category": {"1": SCORES}}
    assert cited(summary, judge_value="gpt-4o-mini")[2]["judge"] == "gpt-4o-mini"
    status, message, _ = cited(summary)
    assert (status, message) == ("fail", "no judge model is stated at summary:/judge_model: a QA value must say "
                                         "which model judged it")
    status, message, _ = cited({**summary, "judge_model": "gpt-4o"}, judge_value="gpt-4o-mini")
    assert status == "fail" and 'is "gpt-4o", but the judge stated for this gate is "gpt-4o-mini"' in message
    status, message, _ = cited({**summary, "judge_model": " "})
    assert status == "fail" and "must say which model judged it" in message


def test_values_without_stated_categories_or_with_two_statements_are_not_citable() -> None:
    summary = {"judge_model": "gpt-4o-mini", "overall": SCORES, "by_category": {"1": SCORES}}
    status, message, _ = cited(summary)
    assert (status, message) == ("fail", "no categories are stated: a value must say which question set it is over")
    status, message, _ = cited({**summary, "categories": [1, 2, 3, 4]}, groups="1-5")
    assert status == "fail" and "summary:/categories states other categories than the stated categories" in message
    status, message, _ = cited({**summary, "categories": [1, 1, 2]})
    assert status == "fail" and "not a list of category ids" in message
    assert cited({**summary, "categories": [1, 2, 3, 4]}, groups="1,2,3,4")[0] == "pass"


def test_slice_names_and_slice_ids_are_one_or_the_other() -> None:
    with pytest.raises(Exception, match="slice_names .* or slice_ids"):
        kindtest.params("citable_values", {**CITABLE, "slice_names": {"1": "multi-hop"}})


def test_the_profile_declares_the_summary_citable_only_when_the_gate_reads_it(tmp_path: Path) -> None:
    """locomo-qa's locomo-citable rule on the example: it passes with the summary, with the judge
    from --judge-model when the summary leaves it out, and does not run on --claim alone."""
    import make_locomo_cases as m
    from golden import ROOT, run_main

    example = ROOT / "examples" / "locomo-qa"
    for file in ("locomo10-synthetic.json", "eval_results.json", m.PROFILE):
        (tmp_path / file).write_bytes((example / file).read_bytes())
    summary = json.loads((example / "summary.json").read_text(encoding="utf-8"))
    del summary["judge_model"]
    (tmp_path / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    base = ["eval_results.json", "--profile", m.PROFILE, "--dataset", "locomo10-synthetic.json"]

    def rule(args: list[str]) -> dict[str, Any]:
        code, out, _ = run_main(base + args, "2026-11-29T12:00:00Z", tmp_path, "json")
        return next(r for r in json.loads(out)["results"] if r["rule"] == "locomo-citable")

    given = rule(["--summary", "summary.json", "--judge-model", "gpt-4o-mini"])
    assert given["status"] == "pass" and given["actual"]["judge"] == "gpt-4o-mini"
    assert given["actual"]["benchmark"] == "LoCoMo (categories 1-4)" and given["actual"]["questions"] == 1540
    assert rule(["--summary", "summary.json"])["status"] == "fail"
    claims_only = rule(["--categories", "1-4", "--judge-model", "gpt-4o-mini", "--answer-model", "gpt-4o-mini",
                        "--claim", "j=0.7169"])
    assert claims_only["status"] == "skip"
