"""The declarative recompute kinds ``aggregate`` and ``ranking``, both over the shared row reading
of ``rows.py``: pass and fail rows, each pinning the message, over JSON Lines rows, arrays and
object members.

Parameters go through the strict validation a profile's ``with:`` goes through.
"""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime
from typing import Any

import pytest

from bench_gate.loaders.dataset import scan
from bench_gate.models import Doc, Finding

import kindtest
from kindtest import doc

NOW = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)


def run(kind: str, params: dict[str, Any], report: Any, rows: list[Any] | None = None,
        dataset: list[Any] | None = None) -> list[Finding]:
    docs: dict[str, Doc] = {}
    if rows is not None:
        docs["rows"] = doc("rows", path="rows.ndjson", rows=tuple((i + 1, r) for i, r in enumerate(rows)))
    if dataset is not None:
        docs["dataset"] = doc("dataset", dataset)
    return kindtest.run(kind, params, doc("report", report, path="summary.json"), **docs)


def first(kind: str, params: dict[str, Any], report: Any, **docs: Any) -> tuple[str, str]:
    found = run(kind, params, report, **docs)
    assert found
    failing = [f for f in found if f.status == "fail"]
    pick = failing[0] if failing else found[0]
    return pick.status, pick.message


ROWS = [
    {"qid": "a", "type": "x", "ok": True, "usd": 0.1},
    {"qid": "b", "type": "x", "ok": False, "usd": 0.2},
    {"qid": "c", "type": "y", "ok": True, "usd": 0.3},
]
SUMMARY = {"n": 3, "ok": 2, "rate": 0.6667, "usd": 0.6, "by_type": {"x": {"n": 2, "ok": 1}, "y": {"n": 1, "ok": 1}}}
SUM_OK = {"rows": "rows", "id": "/qid", "op": "sum", "values": "boolean", "field": "/ok", "claim": "/ok"}
GROUPED = {**SUM_OK, "group_by": "/type", "group_claim": "/by_type/{group}/ok", "groups_at": "/by_type"}

AGGREGATE = [
    ("count", {"rows": "rows", "id": "/qid", "op": "count", "claim": "/n"}, SUMMARY, ROWS, "pass",
     "count of rows is 3 over 3 rows of 'rows', as /n claims"),
    ("count-wrong", {"rows": "rows", "op": "count", "claim": "/n"}, {**SUMMARY, "n": 4}, ROWS, "fail",
     "report:/n claims 4, recomputed count of rows is 3 (3 rows)"),
    ("sum-booleans", SUM_OK, SUMMARY, ROWS, "pass", "sum of /ok is 2 over 3 rows of 'rows', as /ok claims"),
    ("sum-edited", SUM_OK, {**SUMMARY, "ok": 3}, ROWS, "fail",
     "report:/ok claims 3, recomputed sum of /ok is 2 (3 rows)"),
    ("boolean-field-is-a-number", SUM_OK, SUMMARY, [{**ROWS[0], "ok": 1}] + ROWS[1:], "fail",
     "rows line 1 (a): /ok must be true or false, got integer 1"),
    ("number-field-is-a-boolean", {**SUM_OK, "values": "number"}, SUMMARY, ROWS, "fail",
     "rows line 1 (a): /ok must be a number, got boolean true"),
    ("field-missing", SUM_OK, SUMMARY, [{"qid": "a", "type": "x"}], "fail", "rows line 1 (a): /ok is missing"),
    ("field-null", SUM_OK, SUMMARY, [{"qid": "a", "type": "x", "ok": None}], "fail", "rows line 1 (a): /ok is null"),
    ("duplicate-row-id", SUM_OK, SUMMARY, ROWS + [ROWS[0]], "fail",
     "rows: row id 'a' appears twice (line 1 and line 4); a summary over a repeated row is not a summary of the run"),
    ("row-id-missing", SUM_OK, SUMMARY, [{"type": "x", "ok": True}], "fail",
     "rows line 1: the row id /qid must be a non-empty string or an integer, got missing"),
    ("claim-is-a-string", {**SUM_OK, "claim": "/rate_s"}, {**SUMMARY, "rate_s": "2"}, ROWS, "fail",
     'report:/rate_s must be a number, got string "2"'),
    ("claim-is-a-boolean", SUM_OK, {**SUMMARY, "ok": True}, ROWS, "fail", "report:/ok must be a number, got boolean true"),
    ("claim-missing", SUM_OK, {"n": 3}, ROWS, "fail", "report:/ok is missing"),
    ("mean-rounded", {"rows": "rows", "op": "mean", "values": "boolean", "field": "/ok", "claim": "/rate",
                      "places": 4}, SUMMARY, ROWS, "pass",
     "mean of /ok is 0.666667 (2/3 rows) over 3 rows of 'rows', as /rate claims; claimed 0.6667 (4 places); the "
     "exact value 2/3 rounds to 0.6667 at 4 places"),
    ("mean-rounded-too-coarse", {"rows": "rows", "op": "mean", "values": "boolean", "field": "/ok", "claim": "/rate",
                                 "places": 4}, {**SUMMARY, "rate": 0.67}, ROWS, "fail",
     "report:/rate claims 0.67, recomputed mean of /ok is 0.666667 (2/3 rows): the exact value rounds to 0.6667 at "
     "the 4 places the profile declares"),
    ("mean-trailing-zeros-dropped", {"rows": "rows", "op": "mean", "values": "boolean", "field": "/ok", "claim": "/rate",
                                     "places": 4}, {**SUMMARY, "rate": 0.5}, ROWS[:2], "pass",
     "mean of /ok is 0.5 (1/2 rows) over 2 rows of 'rows', as /rate claims"),
    ("mean-exact-needs-nearest-double", {"rows": "rows", "op": "mean", "values": "boolean", "field": "/ok",
                                         "claim": "/rate"}, {**SUMMARY, "rate": 2 / 3}, ROWS, "pass",
     "mean of /ok is 0.666667 (2/3 rows) over 3 rows of 'rows', as /rate claims"),
    ("mean-rounded-to-its-own-places", {"rows": "rows", "op": "mean", "values": "boolean", "field": "/ok",
                                        "claim": "/rate"}, SUMMARY, ROWS, "pass",
     "mean of /ok is 0.666667 (2/3 rows) over 3 rows of 'rows', as /rate claims; claimed 0.6667 (4 places); the "
     "exact value 2/3 rounds to 0.6667 at 4 places"),
    ("mean-rounded-the-other-way", {"rows": "rows", "op": "mean", "values": "boolean", "field": "/ok",
                                    "claim": "/rate"}, {**SUMMARY, "rate": 0.6666}, ROWS, "fail",
     "report:/rate claims 0.6666, recomputed mean of /ok is 0.666667 (2/3 rows): the exact value rounds to 0.6667 at "
     "4 places"),
    ("mean-too-few-places", {"rows": "rows", "op": "mean", "values": "boolean", "field": "/ok",
                             "claim": "/rate"}, {**SUMMARY, "rate": 0.67}, ROWS, "fail",
     "report:/rate claims 0.67, recomputed mean of /ok is 0.666667 (2/3 rows): a rounded claim needs at least 3 "
     "places (min_places), or the places its producer rounds to (places)"),
    ("mean-min-places-2", {"rows": "rows", "op": "mean", "values": "boolean", "field": "/ok", "claim": "/rate",
                           "min_places": 2}, {**SUMMARY, "rate": 0.67}, ROWS, "pass",
     "mean of /ok is 0.666667 (2/3 rows) over 3 rows of 'rows', as /rate claims; claimed 0.67 (2 places); the "
     "exact value 2/3 rounds to 0.67 at 2 places"),
    ("mean-boundary-never-rounded", {"rows": "rows", "op": "mean", "field": "/usd", "claim": "/rate"},
     {**SUMMARY, "rate": 1.0}, [{"usd": 0.9999}, {"usd": 1}], "fail",
     "report:/rate claims 1.0, recomputed mean of /usd is 0.99995 (1.9999/2 rows): a claim of 1.0 must be exact "
     "(rounding never reaches a boundary)"),
    ("mean-boundary-at-many-places", {"rows": "rows", "op": "mean", "field": "/usd", "claim": "/rate"},
     {**SUMMARY, "rate": 1.0}, [{"usd": 0.99999}, {"usd": 1}], "fail",
     "report:/rate claims 1.0, recomputed mean of /usd is 0.999995 (1.99999/2 rows): a claim of 1.0 must be exact "
     "(rounding never reaches a boundary)"),
    ("sum-of-floats-exact", {"rows": "rows", "op": "sum", "field": "/usd", "claim": "/usd"}, SUMMARY, ROWS, "pass",
     "sum of /usd is 0.6 over 3 rows of 'rows', as /usd claims"),
    ("where-filter", {"rows": "rows", "op": "count", "where": [{"field": "/type", "equals": "x"}], "claim": "/by_type/x/n"},
     SUMMARY, ROWS, "pass", 'count of rows where /type equals "x" is 2 over 2 of the 3 rows of \'rows\', as /by_type/x/n claims'),
    ("mean-where-matches-nothing", {"rows": "rows", "op": "mean", "values": "boolean", "field": "/ok",
                                    "where": [{"field": "/type", "equals": "z"}], "claim": "/rate"}, SUMMARY, ROWS, "fail",
     'no rows of rows match /type equals "z": a summary of nothing proves nothing'),
    ("count-where-matches-nothing-is-zero", {"rows": "rows", "op": "count", "where": [{"field": "/type", "equals": "z"}],
                                             "claim": "/n"}, SUMMARY, ROWS, "fail",
     'report:/n claims 3, recomputed count of rows where /type equals "z" is 0 (0 rows); no row of \'rows\' matches '
     '/type equals "z"'),
    ("min-rows-zero-counts-nothing", {"rows": "/failures", "op": "count", "claim": "/failed", "min_rows": 0},
     {"failures": [], "failed": 0}, None, "pass", "count of rows is 0 over 0 items of 'report', as /failed claims"),
    ("min-rows-zero-still-compares", {"rows": "/failures", "op": "count", "claim": "/failed", "min_rows": 0},
     {"failures": [], "failed": 2}, None, "fail", "report:/failed claims 2, recomputed count of rows is 0 (0 items)"),
    ("empty-source-needs-min-rows-zero", {"rows": "/failures", "op": "count", "claim": "/failed"},
     {"failures": [], "failed": 0}, None, "fail", "report:/failures has 0 items (at least 1 needed)"),
    ("count-where-names-the-rows", {"rows": "rows", "op": "count", "where": [{"field": "/type", "equals": "x"}],
                                    "claim": "/n"}, SUMMARY, ROWS, "fail",
     'report:/n claims 3, recomputed count of rows where /type equals "x" is 2 (2 rows); the rows where /type equals '
     '"x": line 1, line 2'),
    ("where-contains-needs-a-string", {"rows": "rows", "op": "count", "where": [{"field": "/ok", "contains": "_abs"}],
                                       "claim": "/n"}, SUMMARY, ROWS, "fail",
     "rows line 1: /ok must be a string to test '/ok contains \"_abs\"', got boolean true"),
    ("grouped", GROUPED, SUMMARY, ROWS, "pass",
     "sum of /ok is 2 over 3 rows of 'rows', as /ok claims; 2 groups agree"),
    ("group-count-edited", GROUPED, {**SUMMARY, "by_type": {"x": {"n": 2, "ok": 2}, "y": {"n": 1, "ok": 1}}}, ROWS,
     "fail", "report:/by_type/x/ok claims 2, recomputed sum of /ok for group 'x' is 1 (2 rows); "
             "rows line 1 (a), line 2 (b)"),
    ("group-claimed-without-rows", GROUPED, {**SUMMARY, "by_type": {**SUMMARY["by_type"], "z": {"ok": 0}}}, ROWS,
     "fail", "group 'z' has no rows in rows: its summary is of rows that are not there (a different subset?)"),
    ("rows-without-group-claim", GROUPED, {**SUMMARY, "by_type": {"x": {"n": 2, "ok": 1}}}, ROWS, "fail",
     "1 rows of group 'y' have no entry in report:/by_type (first: line 3 (c))"),
    ("group-not-a-string", GROUPED, SUMMARY, [{**ROWS[0], "type": 3.5}], "fail",
     "rows line 1 (a): the group /type must be a non-empty string or an integer, got number 3.5"),
    ("group-a-boolean", GROUPED, SUMMARY, [{**ROWS[0], "type": True}], "fail",
     "rows line 1 (a): the group /type must be a non-empty string or an integer, got boolean true"),
    ("integer-groups-are-their-decimals", GROUPED, {"ok": 2, "by_type": {"1": {"ok": 1}, "2": {"ok": 1}}},
     [{**ROWS[0], "type": 1}, {**ROWS[1], "type": 1}, {**ROWS[2], "type": "2"}], "pass",
     "sum of /ok is 2 over 3 rows of 'rows', as /ok claims; 2 groups agree"),
    ("object-members-as-rows", {"rows": "/by_type", "op": "sum", "field": "/n", "claim": "/n"}, SUMMARY, None, "pass",
     "sum of /n is 3 over 2 members of 'report', as /n claims"),
    ("object-members-do-not-add-up", {"rows": "/by_type", "op": "sum", "field": "/n", "claim": "/n"},
     {**SUMMARY, "n": 5}, None, "fail", "report:/n claims 5, recomputed sum of /n is 3 (2 members)"),
    ("one-row-ratio-percent", {"rows": "report", "one_row": True, "op": "ratio", "field": "/ok", "per": "/n",
                               "claim_value": 66.7, "unit": "percent", "places": 1}, SUMMARY, None, "pass",
     "/ok / /n is 66.6667% (2/3) from report:/, as claimed: 66.7%; claimed 66.7% (1 place); the exact value 2/3 "
     "rounds to 66.7% at 1 place"),
    ("one-row-ratio-percent-wrong", {"rows": "report", "one_row": True, "op": "ratio", "field": "/ok", "per": "/n",
                                     "claim_value": 66.6, "unit": "percent", "places": 1}, SUMMARY, None, "fail",
     "the claimed value claims 66.6%, recomputed /ok / /n is 66.6667% (2/3): the exact value rounds to 66.7% at 1 "
     "place"),
    ("ratio-zero-denominator", {"rows": "report", "one_row": True, "op": "ratio", "field": "/ok", "per": "/zero",
                                "claim": "/rate"}, {**SUMMARY, "zero": 0}, None, "fail",
     "report:/rate claims 0.6667, but /ok / /zero is undefined (2/0)"),
    ("task-averaged", {"rows": "rows", "op": "mean", "values": "boolean", "field": "/ok", "group_by": "/type",
                       "combine": "groups", "claim": "/avg"}, {"avg": 0.75}, ROWS, "pass",
     "mean of /ok is 0.75 (the mean of 2 group values) over 3 rows of 'rows', as /avg claims"),
    ("task-averaged-is-not-overall", {"rows": "rows", "op": "mean", "values": "boolean", "field": "/ok",
                                      "group_by": "/type", "combine": "groups", "claim": "/avg"}, {"avg": 2 / 3}, ROWS,
     "fail", "report:/avg claims 0.6666666666666666, recomputed mean of /ok averaged over 2 groups is 0.75 (the mean "
             "of the group values)"),
    ("groups-from-dataset", {"rows": "rows", "id": "/qid", "op": "count", "group_from": "dataset",
                             "group_claim": "/per_type/{group}/n", "groups": ["single", "multi"]},
     {"per_type": {"single": {"n": 2}, "multi": {"n": 1}}}, ROWS, "pass", None),
    ("id-not-in-dataset", {"rows": "rows", "id": "/qid", "op": "count", "group_from": "dataset",
                           "group_claim": "/per_type/{group}/n"}, {"per_type": {}}, ROWS + [{"qid": "d"}], "fail",
     "rows line 4 (d): id 'd' is not in dataset 'dataset', so its group is unknown"),
    ("expected-group-empty", {"rows": "rows", "id": "/qid", "op": "count", "group_from": "dataset",
                              "group_claim": "/per_type/{group}/n", "groups": ["single", "multi", "temporal"]},
     {"per_type": {"single": {"n": 2}, "multi": {"n": 1}}}, ROWS, "fail",
     "group 'temporal' has no rows in rows: its summary is of rows that are not there (a different subset?)"),
]
DATASET = [{"question_id": "a", "question_type": "single"}, {"question_id": "b", "question_type": "single"},
           {"question_id": "c", "question_type": "multi"}]


@pytest.mark.parametrize("params,report,rows,status,message", [a[1:] for a in AGGREGATE], ids=[a[0] for a in AGGREGATE])
def test_aggregate(params: dict[str, Any], report: Any, rows: Any, status: str, message: str | None) -> None:
    got = first("aggregate", params, report, rows=rows, dataset=DATASET)
    assert got[0] == status, got
    if message is not None:
        assert got[1] == message


@pytest.mark.parametrize("params,problem", [
    ({"rows": "rows", "op": "sum", "claim": "/n"}, "count takes no field; sum, mean and ratio need one"),
    ({"rows": "rows", "op": "count", "field": "/x", "claim": "/n"}, "count takes no field"),
    ({"rows": "rows", "op": "ratio", "field": "/x", "claim": "/n"}, "per (the denominator field) goes with ratio"),
    ({"rows": "rows", "op": "count"}, "nothing to compare"),
    ({"rows": "rows", "op": "count", "group_claim": "/x/{group}"}, "need group_by or group_from"),
    ({"rows": "rows", "op": "count", "group_by": "/t", "group_claim": "/x"}, "must contain {group} once"),
    ({"rows": "rows", "op": "count", "claim": "/n", "where": [{"field": "/t"}]}, "a where test has exactly one of"),
    ({"rows": "rows", "op": "count", "claim": "/n", "where": [{"field": "t", "equals": 1}]}, "must be a JSON Pointer"),
    ({"rows": "Rows!", "op": "count", "claim": "/n"}, "must be a document role"),
])
def test_aggregate_parameters_are_checked_when_the_profile_compiles(params: dict[str, Any], problem: str) -> None:
    with pytest.raises(ValueError, match=problem.replace("{", r"\{").replace("(", r"\(").replace(")", r"\)")):
        kindtest.params("aggregate", params)


# --- ranking -----------------------------------------------------------------------------

RANKED = [
    {"qid": "q1", "gold": ["a", "b"], "search": ["x", "a", "y", "b"],
     "score": {"any@1": False, "any@2": True, "all@2": False, "all@4": True}},
    {"qid": "q2", "gold": ["c"], "search": ["c", "x"], "score": {"any@1": True, "any@2": True, "all@2": True, "all@4": True}},
]
FLAGS = {"rows": "rows", "id": "/qid", "ranked": "/search", "gold": "/gold",
         "names": {"any": "recall_any", "all": "recall_all"}, "row_claims": "/score", "required": ["any@1", "all@2"]}


def flipped(rows: list[dict[str, Any]], i: int, key: str) -> list[dict[str, Any]]:
    out = [dict(r, score=dict(r["score"])) for r in rows]
    out[i]["score"][key] = not out[i]["score"][key]
    return out


RANKING = [
    ("flags", FLAGS, {}, RANKED, "pass", "every claim of 2 rows recomputes from its ranking"),
    ("flag-flipped", FLAGS, {}, flipped(RANKED, 0, "any@1"), "fail",
     "1 of 2 rows of 'rows' claim values their rankings do not give: line 1 (q1): any@1 claims true, recomputed false "
     "(first gold id at rank 2, 2 of 2 ranked)"),
    ("ranking-reordered", FLAGS, {}, [dict(RANKED[0], search=["a", "x", "y", "b"]), RANKED[1]], "fail",
     "1 of 2 rows of 'rows' claim values their rankings do not give: line 1 (q1): any@1 claims false, recomputed true "
     "(first gold id at rank 1, 2 of 2 ranked)"),
    ("required-missing", {**FLAGS, "required": ["any@3"]}, {}, RANKED, "fail",
     "2 of 2 rows of 'rows' claim values their rankings do not give: line 1 (q1): /score has no any@3; line 2 (q2): "
     "/score has no any@3"),
    ("unknown-claim-key", FLAGS, {}, [dict(RANKED[0], score={**RANKED[0]["score"], "mrr@1": 1})], "fail",
     "1 of 1 rows of 'rows' claim values their rankings do not give: line 1 (q1): /score/mrr@1 is not a metric this rule "
     "recomputes (names: any, all), so it cannot be verified"),
    ("ranked-twice", FLAGS, {}, [dict(RANKED[0], search=["a", "a"])], "fail",
     "rows line 1 (q1): /search ranks 'a' twice (ranks 1 and 2); a ranking lists each id once"),
    ("gold-twice", FLAGS, {}, [dict(RANKED[0], gold=["a", "a"])], "fail", "rows line 1 (q1): /gold lists 'a' twice"),
    ("gold-empty", FLAGS, {}, [dict(RANKED[0], gold=[])], "fail",
     "rows line 1 (q1): /gold is empty, so its metrics are undefined"),
    ("ranked-not-a-list", FLAGS, {}, [dict(RANKED[0], search="a b")], "fail",
     'rows line 1 (q1): /search must be a list of ranked ids, got string "a b"'),
    ("ranked-id-not-a-string", FLAGS, {}, [dict(RANKED[0], search=["a", 3])], "fail",
     "rows line 1 (q1): /search/1 must be a non-empty string id, got integer 3"),
    ("flag-is-a-string", FLAGS, {}, [dict(RANKED[0], score={**RANKED[0]["score"], "any@1": "false"})], "fail",
     '1 of 1 rows of \'rows\' claim values their rankings do not give: line 1 (q1): /score/any@1 must be a number or a '
     'boolean, got string "false"'),
    ("duplicate-row", FLAGS, {}, RANKED + [RANKED[0]], "fail",
     "rows: row id 'q1' appears twice (line 1 and line 3); a summary over a repeated row is not a summary of the run"),
    ("gold-suffix", {**FLAGS, "gold_suffix": ".md"}, {}, [dict(RANKED[1], search=["c.md", "x"])], "pass",
     "every claim of 1 rows recomputes from its ranking"),
    ("averages", {"rows": "rows", "id": "/qid", "ranked": "/search", "gold": "/gold", "claims_at": "/avg"},
     {"avg": {"recall@1": 0.5, "recall@2": 0.75, "recall_all@2": 0.5, "hit@1": 0.5}}, RANKED, "pass",
     "the claimed averages over 2 rows recompute: recall@1 0.5, recall@2 0.75, recall_all@2 0.5, hit@1 0.5"),
    ("average-is-hit-not-recall", {"rows": "rows", "id": "/qid", "ranked": "/search", "gold": "/gold",
                                   "claims_at": "/avg"}, {"avg": {"recall@2": 1.0}}, RANKED, "fail",
     "report:/avg/recall@2 claims 1.0, recomputed mean recall@2 over 2 rows is 0.75 = 3/4 (it equals recall_any@2: a "
     "different metric under this name?)"),
    ("average-over-excluded-rows", {"rows": "rows", "id": "/qid", "ranked": "/search", "gold": "/gold",
                                    "average_where": [{"field": "/qid", "not_contains": "2"}], "claims": {"recall_any@1": 0.5}},
     {}, RANKED, "fail", "claimed recall_any@1 claims 0.5, recomputed mean recall_any@1 over 1 rows (/qid not contains "
     "\"2\") is 0 = 0/1 (it is the mean over all 2 rows: the excluded rows were averaged in)"),
    ("average-unknown-name", {"rows": "rows", "id": "/qid", "ranked": "/search", "gold": "/gold",
                              "claims": {"mrr@5": 0.5}}, {}, RANKED, "fail",
     "claimed mrr@5 names no metric this rule recomputes (names: hit, recall_any, recall_all, recall, ndcg; NAME@K), "
     "so it cannot be verified"),
    ("ndcg-standard", {"rows": "rows", "id": "/qid", "ranked": "/search", "gold": "/gold", "claims": {"ndcg@2": 0.75}},
     {}, [RANKED[1], dict(RANKED[1], qid="q3", search=["x", "c"])], "fail",
     "claimed ndcg@2 claims 0.75, recomputed mean ndcg@2 over 2 rows is 0.815465 (tolerance 1e-09)"),
    ("ndcg-longmemeval", {"rows": "rows", "id": "/qid", "ranked": "/search", "gold": "/gold", "ndcg": "longmemeval",
                          "claims": {"ndcg@2": 1.0}}, {}, [RANKED[1], dict(RANKED[1], qid="q3", search=["x", "c"])],
     "pass", "the claimed averages over 2 rows recompute: ndcg@2 1"),
    ("renamed-not-relevant", {"rows": "rows", "id": "/qid", "ranked": "/items", "ranked_key": "/id", "gold": "/gold",
                              "renamed": {"old": "answer", "new": "noans"}, "complete": True,
                              "row_claims": "/m", "names": {"recall_all": "recall_all"}},
     {}, [{"qid": "q", "gold": ["answer_1", "answer_2"], "items": [{"id": "answer_1"}, {"id": "s"}, {"id": "noans_2"}],
           "m": {"recall_all@1": 1.0}}], "pass", "every claim of 1 rows recomputes from its ranking"),
    ("complete-ranking-misses-gold", {"rows": "rows", "id": "/qid", "ranked": "/items", "ranked_key": "/id",
                                      "gold": "/gold", "renamed": {"old": "answer", "new": "noans"}, "complete": True,
                                      "row_claims": "/m", "names": {"recall_all": "recall_all"}},
     {}, [{"qid": "q", "gold": ["answer_1", "answer_2"], "items": [{"id": "answer_1"}], "m": {"recall_all@1": 1.0}}],
     "fail", "rows line 1 (q): gold id 'answer_2' is not in the ranking /items (neither as itself nor renamed), which "
             "should hold every candidate"),
    ("all-renamed-vacuous", {"rows": "rows", "id": "/qid", "ranked": "/items", "ranked_key": "/id", "gold": "/gold",
                             "renamed": {"old": "answer", "new": "noans"}, "empty_gold": "vacuous", "row_claims": "/m",
                             "names": {"recall_any": "recall_any", "recall_all": "recall_all", "ndcg_any": "ndcg"}},
     {}, [{"qid": "q", "gold": ["answer_1"], "items": [{"id": "noans_1"}],
           "m": {"recall_any@1": 0.0, "recall_all@1": 1.0, "ndcg_any@1": 0.0}}], "pass",
     "every claim of 1 rows recomputes from its ranking"),
]


@pytest.mark.parametrize("params,report,rows,status,message", [a[1:] for a in RANKING], ids=[a[0] for a in RANKING])
def test_ranking(params: dict[str, Any], report: Any, rows: Any, status: str, message: str) -> None:
    assert first("ranking", params, report, rows=rows) == (status, message)


def test_ranking_reports_the_first_rows_and_counts_the_rest() -> None:
    rows = [dict(RANKED[1], qid=f"q{i}", score={**RANKED[1]["score"], "any@1": False}) for i in range(5)]
    found = run("ranking", FLAGS, {}, rows=rows)
    assert [f.status for f in found] == ["fail", "fail", "fail"]
    assert found[0].message.startswith("5 of 5 rows of 'rows' claim values their rankings do not give: line 1 (q0): "
                                       "any@1 claims false, recomputed true")
    assert "line 2 (q1)" in found[0].message and "line 3 (q2)" in found[0].message
    assert found[1].message.startswith("rows line 4 (q3): any@1 claims false")


@pytest.mark.parametrize("params,problem", [
    ({**FLAGS, "names": {"any": "mrr"}}, "the metrics are hit, recall_any"),
    ({**FLAGS, "required": ["any5"]}, "is not NAME@K"),
    ({**FLAGS, "renamed": {"old": "a", "new": "a"}}, "renamed needs"),
    ({**FLAGS, "ranked": "search"}, "must be a JSON Pointer"),
])
def test_ranking_parameters_are_checked_when_the_profile_compiles(params: dict[str, Any], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        kindtest.params("ranking", params)


def test_a_sum_beyond_the_float_range_fails_with_its_message() -> None:
    big = 10 ** 400
    rows = [{"qid": "a", "v": big}, {"qid": "b", "v": big}]
    found = run("aggregate", {"rows": "rows", "id": "/qid", "op": "sum", "field": "/v", "claim": "/total"},
                {"total": 1}, rows=rows)
    assert found[0].status == "fail"
    assert found[0].message == "report:/total claims 1, recomputed sum of /v is 2.000000e+400 (2 rows)"


# --- relevance from the dataset, not from the log ------------------------------------------------

LME = {"rows": "rows", "id": "/question_id", "ranked": "/ranked", "gold": "/gold",
       "renamed": {"old": "answer", "new": "noans"}, "complete": True, "empty_gold": "vacuous",
       "dataset": "dataset", "claims": {"recall_all@2": 1}}


def _entry(qid: str, answers: list[str], unanswered: tuple[str, ...] = ()) -> dict[str, Any]:
    sessions = ["s1", *answers]
    return {"question_id": qid, "question_type": "t", "answer_session_ids": answers,
            "haystack_session_ids": sessions,
            "haystack_sessions": [[{"role": "user", "content": "", **({"has_answer": True} if s in answers
                                                                       and s not in unanswered else {})}]
                                  for s in sessions]}


def _dataset(entries: list[dict[str, Any]]) -> Doc:
    summary = scan(io.BytesIO(json.dumps(entries).encode()))
    return Doc("dataset", "dataset.json", data=None, extra=summary.extra())


def run_with_dataset(rows: list[Any], entries: list[dict[str, Any]], params: dict[str, Any] = LME) -> Finding:
    found = kindtest.run("ranking", params, rows=doc("rows", path="log.jsonl", rows=tuple((i + 1, r) for i, r in
                                                                                      enumerate(rows))),
                         dataset=_dataset(entries))
    return next((f for f in found if f.status == "fail"), found[0])


DATA = [_entry("q1", ["answer_a"]), _entry("q2", ["answer_b", "answer_c"], unanswered=("answer_c",))]
LOG = [{"question_id": "q1", "gold": ["answer_a"], "ranked": ["answer_a", "s1"]},
       {"question_id": "q2", "gold": ["answer_b", "answer_c"], "ranked": ["answer_b", "noans_c", "s1"]}]


def test_a_log_that_agrees_with_the_dataset_passes() -> None:
    found = run_with_dataset(LOG, DATA)
    assert (found.status, found.message) == ("pass", "the claimed averages over 2 rows recompute: recall_all@2 1; "
                                             "the 2 rows are the 2 questions of dataset 'dataset', with its answer "
                                             "sessions and its no-answer renamings")


def test_a_renaming_the_dataset_does_not_make_fails() -> None:
    renamed = [{**LOG[0], "ranked": ["s1", "noans_a"]}, LOG[1]]
    assert run_with_dataset(renamed, DATA).message == (
        "rows line 1 (q1): /ranked ranks gold id 'answer_a' renamed as 'noans_a', but the dataset gives it an answer "
        "turn: a renaming the dataset does not make drops an answer session the ranking missed")


def test_a_session_the_dataset_renames_may_not_be_ranked_as_itself() -> None:
    kept = [LOG[0], {**LOG[1], "ranked": ["answer_b", "answer_c", "s1"]}]
    assert run_with_dataset(kept, DATA).message == (
        "rows line 2 (q2): the dataset marks gold id 'answer_c' as holding no answer turn, yet /ranked ranks it as "
        "itself (it is renamed 'noans_c')")


def test_gold_ids_trimmed_from_the_log_fail() -> None:
    trimmed = [LOG[0], {**LOG[1], "gold": ["answer_b"]}]
    assert run_with_dataset(trimmed, DATA).message == (
        "rows line 2 (q2): /gold is not the dataset's answer_session_ids (left out: 'answer_c'); the gold ids come "
        "from the dataset, not from the log")


def test_a_question_renamed_as_abstention_is_not_a_dataset_question() -> None:
    marked = [LOG[0], {**LOG[1], "question_id": "q2_abs"}]
    assert run_with_dataset(marked, DATA).message == (
        "1 of 2 rows of 'rows' have ids that are not questions of dataset 'dataset' (first 'q2_abs'): a row the "
        "dataset does not hold cannot be scored against it")


def test_a_log_missing_dataset_questions_fails() -> None:
    assert run_with_dataset(LOG[:1], DATA).message == (
        "dataset 'dataset' has 2 questions and 'rows' 1 rows: 1 questions have no row (first 'q2'); a log that "
        "leaves questions out averages over a subset")


def test_an_id_and_type_list_is_not_enough_to_check_relevance() -> None:
    assert run_with_dataset(LOG, [{"question_id": "q1", "question_type": "t"}]).message == (
        "dataset 'dataset' gives no answer_session_ids with their haystack_sessions for 1 question (first 'q1'): "
        "give the full dataset, not a list of ids and types")


def test_a_ranked_answer_id_that_is_not_gold_fails_without_a_dataset() -> None:
    params = {k: v for k, v in LME.items() if k != "dataset"}
    stray = [{**LOG[0], "ranked": ["answer_a", "answer_z", "s1"]}]
    assert run_with_dataset(stray, DATA, params).message == (
        "rows line 1 (q1): /ranked ranks 'answer_z' (rank 2), which holds 'answer' but is not one of the row's gold "
        "ids /gold: the retrieval script counts every ranked id holding 'answer' as correct, so the row's metrics "
        "and its gold list disagree")


@pytest.mark.parametrize("twin", ["q1\u200b", "Ｑ1", "Q1", " q1"])
def test_row_ids_that_look_the_same_are_one_id(twin: str) -> None:
    params = {k: v for k, v in LME.items() if k != "dataset"}
    found = run_with_dataset([LOG[0], {**LOG[0], "question_id": twin}], DATA, params)
    assert found.status == "fail"
    assert found.message.startswith("rows: row id ") and "appears twice" in found.message
    assert "(line 1 and line 2)" in found.message


def test_a_look_alike_ranked_twice_fails() -> None:
    params = {k: v for k, v in LME.items() if k != "dataset"}
    padded = [{**LOG[0], "ranked": ["s1", "answer_a", "s1\u200b"]}]
    assert run_with_dataset(padded, DATA, params).message == (
        "rows line 1 (q1): /ranked ranks 's1' and 's1\\u200b' (ranks 1 and 3), which differ only by invisible "
        "characters: one id ranked twice")


def test_a_tiny_recomputed_sum_is_not_shown_as_zero() -> None:
    rows = [{"qid": "a", "v": 1e-300}, {"qid": "b", "v": 1e-300}]
    status, message = first("aggregate", {"rows": "rows", "id": "/qid", "op": "sum", "field": "/v", "claim": "/v"},
                            {"v": 0}, rows=rows)
    assert (status, message) == ("fail", "report:/v claims 0, recomputed sum of /v is 2.000000e-300 (2 rows): a claim "
                                         "of 0 must be exact (rounding never reaches a boundary)")


DR = {"rows": "rows", "id": "/question_id", "ranked": "/ranked", "gold": "/gold", "names": {"all": "recall_all"},
      "claims": {"all@2": 1}, "dataset": "dataset", "dataset_suffix": ".md", "dataset_subset": True}


def test_a_subset_of_the_dataset_with_file_names_passes() -> None:
    rows = [{"question_id": "q1", "gold": ["answer_a.md"], "ranked": ["answer_a.md", "s1.md"]}]
    found = run_with_dataset(rows, DATA, DR)
    assert (found.status, found.message) == ("pass", "the claimed averages over 1 rows recompute: all@2 1; the 1 rows "
                                             "are 1 of the 2 questions of dataset 'dataset', with its answer sessions")


def test_a_gold_list_trimmed_in_a_subset_run_fails() -> None:
    rows = [{"question_id": "q2", "gold": ["answer_b.md"], "ranked": ["answer_b.md", "s1.md"]}]
    assert run_with_dataset(rows, DATA, DR).message == (
        "rows line 1 (q2): /gold is not the dataset's answer_session_ids (left out: 'answer_c.md'); the gold ids come "
        "from the dataset, not from the log")


def test_a_dataset_that_lists_a_question_twice_fails() -> None:
    assert run_with_dataset(LOG, [*DATA, _entry("q1", ["answer_z"])]).message == (
        "dataset 'dataset' lists question 'q1' twice")


def test_only_user_turns_decide_a_noans_renaming() -> None:
    """run_retrieval.py renames an answer session whose has_answer marks are all on assistant turns."""
    entry = _entry("q1", ["answer_a"])
    entry["haystack_sessions"][1] = [{"role": "user", "content": ""},
                                     {"role": "assistant", "content": "", "has_answer": True}]
    renamed = [{**LOG[0], "ranked": ["noans_a", "s1"]}]
    params = {**LME, "claims": {"recall_all@2": 1}, "empty_gold": "vacuous"}
    found = run_with_dataset(renamed, [entry], params)
    assert (found.status, found.message) == ("pass", "the claimed averages over 1 rows recompute: recall_all@2 1; the 1 "
                                             "rows are the 1 questions of dataset 'dataset', with its answer sessions "
                                             "and its no-answer renamings")


def test_min_rows_below_zero_is_refused_with_its_reason() -> None:
    from bench_gate.checks.recompute.aggregate import AggregateParams
    with pytest.raises(ValueError, match=r"^min_rows must be 0 or more \(0 accepts a source with no rows\)$"):
        AggregateParams(rows="rows", op="count", claim="/n", min_rows=-1)
    assert AggregateParams(rows="rows", op="count", claim="/n", min_rows=0).min_rows == 0
