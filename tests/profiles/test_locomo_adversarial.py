"""Tampered and overclaiming inputs of the ``locomo-qa`` profile, one class per test, each with the
honest input beside it that must still pass.

The classes: a claim right to ``claim_places`` but wrong in the further decimals it writes; a
baseline that is our J to the places it gives (a tie); a judge or answer model that is a
placeholder as a reader reads it (fullwidth, a zero-width space, a look-alike letter, nothing
visible); category names that a reader reads as one given to two categories; category ids and
ranges too long to be numbers; zip member names with digits that are not ASCII; the pinned
question list changed on the command line; a summary carrying a number no rule recomputes.
Inputs are small and made up (LoCoMo itself is not part of the repository); the profile-level
cases run the synthetic example of ``examples/locomo-qa/``.
"""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bench_gate.checks.recompute.questions import parse_groups
from bench_gate.checks.recompute.rows import matches
from bench_gate.loaders.dataset import scan_archive
from bench_gate.models import Finding

import kindtest
from repo import ROOT

NOW = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)

EXAMPLE = ROOT / "examples" / "locomo-qa"


def run(kind: str, params: dict[str, Any], report: Any, **docs: Any) -> list[Finding]:
    return kindtest.run(kind, params, kindtest.doc("report", report, path="eval.json"), now=NOW, **docs)


def one(kind: str, params: dict[str, Any], report: Any, **docs: Any) -> tuple[str, str]:
    found = run(kind, params, report, **docs)
    failing = [f for f in found if f.status == "fail"]
    pick = failing[0] if failing else found[0]
    return pick.status, pick.message


def row(q: str, category: Any, llm: int) -> dict[str, Any]:
    return {"question": q, "answer": "a", "response": "r", "category": category, "bleu_score": 0.5,
            "f1_score": 0.5, "llm_score": llm}


# J = 2/6 = 0.333333...: category 1 is 1/2, category 2 is 1/4.
REPORT = {"0": [row("q1", "1", 1), row("q2", "2", 0), row("q3", "2", 1)],
          "1": [row("q4", "1", 0), row("q5", "2", 0), row("q6", "2", 0)]}
NAMES = {"multi-hop": "1", "temporal": "2", "single-hop": "4"}
BY_NAME = {"rows": "report:/*", "op": "mean", "field": "/llm_score", "group_by": "/category", "group_names": NAMES,
           "names_from": "category_names", "group_noun": "category", "claims": {}, "claim_key": "j",
           "group_claim_key": "j/{group}", "known_claims": ["j", "j/{group}"], "places": 4}


# --- a claim states every decimal it writes ---------------------------------------------------------

@pytest.mark.parametrize(("claimed", "places", "tolerance", "holds"), [
    (0.3333, 4, 0, True),                  # the value rounded to 4 places
    (0.33333, 4, 0, True),                 # 5 decimals, each right
    (0.3333333333333333, 4, 0, True),      # a mean printed in floating point, in full
    (0.33334, 4, 0, False),                # rounds to 0.3333, but its 5th decimal is not the value's
    (0.333349, 4, 0, False),
    (0.3334, 4, 0, False),
    (0.33334, 4, Fraction(1, 10**4), True),  # a tolerance still admits it
    (33.33, 2, 0, True),
])
def test_a_claim_is_right_in_every_decimal_it_writes(claimed: float, places: int, tolerance: Fraction,
                                                      holds: bool) -> None:
    unit = "percent" if claimed > 1 else "fraction"
    assert matches(claimed, Fraction(1, 3), places, tolerance, unit) is holds  # type: ignore[arg-type]


@pytest.mark.parametrize(("claims", "status"), [
    ({"j": 0.3333}, "pass"),
    ({"j": 0.33333}, "pass"),
    ({"j": 0.33338}, "fail"),
    ({"j/1": 0.50004}, "fail"),
    ({"j/1": 0.5}, "pass"),
])
def test_a_claim_with_more_decimals_than_claim_places_must_be_right_to_all_of_them(claims: dict[str, Any],
                                                                                   status: str) -> None:
    got = one("aggregate", {**BY_NAME, "claims": claims}, REPORT)
    assert got[0] == status, got[1]
    if status == "fail":
        name, value = next(iter(claims.items()))
        assert got[1].startswith(f"{name} claims {value}, recomputed mean of /llm_score"), got[1]


def test_a_claim_accepted_by_a_tolerance_says_so_not_rounded_to_places() -> None:
    # --set float_tolerance=1 accepts any F1; the pass must name the tolerance that accepted it
    params = {**BY_NAME, "field": "/f1_score", "claim_key": "f1", "group_claim_key": "f1/{group}",
              "known_claims": [], "tolerance": 1, "claims": {"f1": 0.99}}
    status, message = one("aggregate", params, REPORT)
    assert status == "pass"
    assert message.endswith("f1 0.99 (0.5 over 6 items; claimed 0.99 (2 places); the exact value 3/6 items is 0.5, "
                            "within the tolerance 1)"), message


def test_a_summary_value_with_a_wrong_fifth_decimal_fails() -> None:
    rule = {"rows": "report:/*", "op": "mean", "field": "/llm_score", "claim": "summary:/overall/j", "places": 4}
    assert one("aggregate", rule, REPORT, summary={"overall": {"j": 0.3333}})[0] == "pass"
    status, message = one("aggregate", rule, REPORT, summary={"overall": {"j": 0.33338}})
    assert status == "fail"
    assert message == ("summary:/overall/j claims 0.33338, recomputed mean of /llm_score is 0.333333 (2/6 items): "
                       "the exact value rounds to 0.33333 at 5 places")


# --- a baseline that is our J to its places is a tie -------------------------------------------------

BEATS = {"rows": "report:/*", "field": "/llm_score", "name": "J", "baseline": "baseline:/j",
         "same": [{"what": "judge model", "value": "gpt-4o-mini", "value_name": "--judge-model",
                   "theirs": "baseline:/judge_model"}]}


@pytest.mark.parametrize(("j", "status", "words"), [
    (0.3333, "fail", "equals baseline 0.3333"),
    (0.33333, "fail", "equals baseline 0.33333"),       # smaller, but our J to the 5 places it writes
    (0.3333333, "fail", "equals baseline 0.3333333"),
    (0.3333333333333333, "fail", "equals baseline 0.3333333333333333"),
    (0.3332, "pass", "is greater than baseline 0.3332"),
    (0.33332, "pass", "is greater than baseline 0.33332"),   # smaller at the 5 places it writes
    (0.3334, "fail", "is not greater than baseline 0.3334"),
    (0.33, "fail", "equals baseline 0.33"),             # fewer than 3 places: still our J to its places
    (0.3, "fail", "equals baseline 0.3"),               # 0.3 stands for every value up to 0.35
    (0.32, "pass", "is greater than baseline 0.32"),
    (0.2, "pass", "is greater than baseline 0.2"),
])
def test_a_baseline_that_is_our_value_to_the_places_it_writes_is_a_tie(j: float, status: str, words: str) -> None:
    got = one("beats", BEATS, REPORT, baseline={"judge_model": "gpt-4o-mini", "j": j})
    assert got[0] == status, got[1]
    assert words in got[1]
    assert ("a tie is not better" in got[1]) is words.startswith("equals")


def test_a_baseline_written_to_one_place_is_a_tie_for_every_value_that_rounds_to_it() -> None:
    status, message = one("beats", BEATS, REPORT, baseline={"judge_model": "gpt-4o-mini", "j": 0.3})
    assert status == "fail"
    assert message == ("J 0.333333 (2/6, recomputed) equals baseline 0.3 (the baseline is written to 1 place: it "
                       "stands for every value that rounds to it, and ours rounds to 0.3): a tie is not better, under "
                       "the same judge model \"gpt-4o-mini\"")


# --- a placeholder is a placeholder as a reader reads it ----------------------------------------------

DECLARED = {"what": "judge model", "value_name": "--judge-model"}


@pytest.mark.parametrize(("value", "message"), [
    ("\uff55\uff4e\uff4b\uff4e\uff4f\uff57\uff4e", '--judge-model is string "ｕｎｋｎｏｗｎ": not a judge model'),
    ("unknown\u200b", "--judge-model is string 'unknown\\u200b': not a judge model"),
    ("unkn\u043ewn", '--judge-model is string "unknоwn": not a judge model'),   # a Cyrillic o
    ("\u200b", "--judge-model is string '\\u200b': not a judge model"),
    ("N / A", '--judge-model is string "N / A": not a judge model'),
    ("--", '--judge-model is string "--": not a judge model'),
])
def test_a_placeholder_in_disguise_states_no_judge(value: str, message: str) -> None:
    status, said = one("declared", {**DECLARED, "value": value}, {})
    assert status == "fail"
    assert said.startswith(message), said


@pytest.mark.parametrize("value", ["gpt-4o-mini", "GPT-4o-mini", "claude-3-5-sonnet", "o1"])
def test_a_model_name_is_stated(value: str) -> None:
    assert one("declared", {**DECLARED, "value": value}, {})[0] == "pass"


def test_two_statements_that_differ_by_an_invisible_character_are_shown_apart() -> None:
    params = {**DECLARED, "at": ["summary:/judge_model"], "value": "gpt-4o-mini"}
    status, message = one("declared", params, {}, summary={"judge_model": "gpt-4o\u200b-mini"})
    assert (status, message) == ("fail", "the judge model is stated twice and differs: --judge-model \"gpt-4o-mini\", "
                                         "summary:/judge_model 'gpt-4o\\u200b-mini'")


# --- category names a reader reads as one ---------------------------------------------------------------

@pytest.mark.parametrize(("names", "claims", "problem"), [
    ({"single-hop": "1", "singlehop": "2"}, {"j/singlehop": 0.5},
     "'single-hop' and 'singlehop' are one name as a reader reads it (case, spaces and dashes aside), given to two "
     "categories, '1' and '2'"),
    ({"Single Hop": "2", "single-hop": "1"}, {"j/single-hop": 0.5},
     "'Single Hop' and 'single-hop' are one name as a reader reads it (case, spaces and dashes aside), given to two "
     "categories, '2' and '1'"),
    ({"2": "1"}, {"j/2": 0.25}, "'2' names category '1', but '2' is itself a category of the rows"),
    ({"--": "1"}, {"j/1": 0.5}, "the name '--' has no letter or digit"),
])
def test_ambiguous_category_names_fail_every_claim_by_name(names: dict[str, str], claims: dict[str, Any],
                                                          problem: str) -> None:
    status, message = one("aggregate", {**BY_NAME, "group_names": names, "claims": claims}, REPORT)
    assert status == "fail"
    assert message == (f"category_names is ambiguous: {problem}; a claim under such a name could be read as either "
                       "category")


def test_two_names_of_one_category_are_not_ambiguous() -> None:
    names = {"temporal": "2", "temporal-reasoning": "2", "Temporal Reasoning": "2", "multi-hop": "1"}
    got = one("aggregate", {**BY_NAME, "group_names": names, "claims": {"j/temporal reasoning": 0.25}}, REPORT)
    assert got[0] == "pass", got[1]


# --- ids and ranges that are too long to be numbers -----------------------------------------------------

@pytest.mark.parametrize(("value", "groups"), [
    ("1-4", ["1", "2", "3", "4"]),
    ("1-1000", [str(n) for n in range(1, 1001)]),
    ("1-1001", None),                         # wider than any benchmark's groups
    ("1-99999999999999999999", None),         # would be expanded into 10**20 ids
    ("1-" + "9" * 5000, None),                # longer than Python converts to a number
    ("01-04", None),
    ("9" * 5000, ["9" * 5000]),               # a name, which question_set then finds no category of
])
def test_a_range_of_stated_groups_is_bounded(value: str, groups: list[str] | None) -> None:
    assert parse_groups(value) == groups


def test_a_category_of_5000_digits_fails_as_a_category_not_an_internal_error() -> None:
    huge = "9" * 5000
    report = {"0": [row("q1", huge, 1), *REPORT["0"][1:]], "1": REPORT["1"]}
    qs = {"rows": "report:/*", "counts": {"0": {"1": 1, "2": 2}, "1": {"1": 1, "2": 2}}, "groups": "1,2",
          "group_noun": "category", "part_noun": "conversation"}
    status, message = one("question_set", qs, report)
    assert status == "fail" and "1 row is of a category the result does not state" in message
    status, message = one("question_set", {**qs, "groups": "1-2," + huge}, REPORT)
    assert status == "fail" and "is not a category of the benchmark" in message
    label = {**BY_NAME, "label": "L (categories {groups}, {n} questions)", "claims": {"j": 0.3333}}
    status, message = one("aggregate", label, report)
    assert status == "pass" and message.startswith(f"L (categories 1-2 and {huge}, 6 questions)")


# --- zip member names whose digits are not ASCII ---------------------------------------------------------

def test_archive_members_named_with_other_digits_sort_as_text() -> None:
    members = {"data/26.json": {"qa": []}, "data/\u00b25.json": {"qa": [], "sample_id": "superscript"},
               "data/\u0662\u0666.json": {"qa": [], "sample_id": "arabic-indic"}, "data/100.json": {"qa": []}}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, entry in members.items():
            archive.writestr(name, json.dumps(entry))
    buffer.seek(0)
    assert scan_archive(buffer).names == ["26.json", "100.json", "superscript", "arabic-indic"]


# --- the whole profile on the synthetic example -------------------------------------------------------------

def _gate(tmp_path: Path, args: list[str], summary: dict[str, Any] | None = None,
          baseline: dict[str, Any] | None = None) -> tuple[int, dict[str, Any], str]:
    from golden import run_main

    for name in ("locomo10-synthetic.json", "eval_results.json", "summary.json", "locomo-qa-synthetic.yaml"):
        shutil.copy(EXAMPLE / name, tmp_path / name)
    if summary is not None:
        (tmp_path / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    if baseline is not None:
        (tmp_path / "baseline.json").write_text(json.dumps(baseline), encoding="utf-8")
    code, out, err = run_main(["eval_results.json", *args], "2026-11-29T12:00:00Z", tmp_path, "json")
    return code, (json.loads(out) if out else {}), err


def _failing(verdict: dict[str, Any]) -> dict[str, str]:
    return {r["rule"]: r["message"] for r in verdict["results"] if r["status"] == "fail"}


SYNTHETIC = ["--profile", "locomo-qa-synthetic.yaml", "--dataset", "locomo10-synthetic.json"]
WITH_SUMMARY = [*SYNTHETIC, "--summary", "summary.json"]


def test_the_pinned_question_list_cannot_be_changed_with_set(tmp_path: Path) -> None:
    import yaml

    profile = yaml.safe_load((EXAMPLE / "locomo-qa-synthetic.yaml").read_text(encoding="utf-8"))
    digest = profile["params"]["questions_sha256"]["default"][0]
    code, verdict, err = _gate(tmp_path, ["--profile", "locomo-qa", "--dataset", "locomo10-synthetic.json",
                                          "--summary", "summary.json", "--set", f"questions_sha256={digest}"])
    assert code == 2 and verdict == {}
    assert "--set questions_sha256: a list parameter cannot be set with --set; write a profile that extends " \
           "locomo-qa and sets its default" in err
    code, verdict, _ = _gate(tmp_path, ["--profile", "locomo-qa", "--dataset", "locomo10-synthetic.json",
                                        "--summary", "summary.json"])
    assert code == 1 and "is not the pinned one (17ad1a56cf4c…)" in _failing(verdict)["locomo-question-set"]
    code, verdict, _ = _gate(tmp_path, WITH_SUMMARY)
    assert code == 0 and verdict["profile"]["name"] == "locomo-qa-synthetic"


@pytest.mark.parametrize(("change", "where"), [
    (lambda s: s["overall"].update(accuracy=0.95), "overall: Additional properties are not allowed ('accuracy' was "
                                                   "unexpected)"),
    (lambda s: s.update(j_all_categories=0.95), "(top level): Additional properties are not allowed "
                                                "('j_all_categories' was unexpected)"),
    (lambda s: s["by_category"]["3"].update(j_adjusted=0.9), "by_category.3: Additional properties are not allowed "
                                                             "('j_adjusted' was unexpected)"),
])
def test_a_summary_number_no_rule_recomputes_fails(tmp_path: Path, change: Any, where: str) -> None:
    summary = json.loads((EXAMPLE / "summary.json").read_text(encoding="utf-8"))
    change(summary)
    code, verdict, _ = _gate(tmp_path, WITH_SUMMARY, summary=summary)
    assert code == 1
    assert _failing(verdict) == {"locomo-summary-keys": f"the summary is not valid under the inline schema: {where}"}


def test_the_example_summary_holds_only_what_the_profile_checks(tmp_path: Path) -> None:
    code, verdict, _ = _gate(tmp_path, WITH_SUMMARY)
    assert code == 0
    keys = [r for r in verdict["results"] if r["rule"] == "locomo-summary-keys"]
    assert [r["status"] for r in keys] == ["pass"]


def test_a_baseline_tied_at_its_places_is_not_beaten_by_the_profile(tmp_path: Path) -> None:
    baseline = json.loads((EXAMPLE / "baseline-paper.json").read_text(encoding="utf-8"))
    baseline["j"] = 0.71688   # the example's J is 1104/1540 = 0.716883...: a tie to 5 places, though smaller
    code, verdict, _ = _gate(tmp_path, [*WITH_SUMMARY, "--baseline", "baseline.json"], baseline=baseline)
    assert code == 1
    assert "equals baseline Mem0 0.71688 (quoted from a paper, not re-run here: " in \
           _failing(verdict)["locomo-baseline"]
    baseline["j"] = 0.7168
    code, verdict, _ = _gate(tmp_path, [*WITH_SUMMARY, "--baseline", "baseline.json"], baseline=baseline)
    assert code == 0, _failing(verdict)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("system", "???", '/system is the placeholder "???"'),
    ("system", "\u0422\u0412D", '/system is the placeholder "\u0422\u0412D"'),  # TBD in Cyrillic letters
    ("system", "", "/system is empty"),
    ("system", None, "/system is missing"),
    ("reference", "n/a", '/reference is the placeholder "n/a"'),
])
def test_a_baseline_that_names_no_system_is_no_baseline(tmp_path: Path, field: str, value: Any, message: str) -> None:
    baseline = json.loads((EXAMPLE / "baseline-paper.json").read_text(encoding="utf-8"))
    if value is None:
        del baseline[field]
    else:
        baseline[field] = value
    code, verdict, _ = _gate(tmp_path, [*WITH_SUMMARY, "--baseline", "baseline.json"], baseline=baseline)
    assert code == 1
    assert _failing(verdict)["locomo-baseline-fraction"].startswith(message)


def test_a_baseline_without_a_reference_still_names_its_system(tmp_path: Path) -> None:
    baseline = json.loads((EXAMPLE / "baseline-paper.json").read_text(encoding="utf-8"))
    del baseline["reference"]
    code, verdict, _ = _gate(tmp_path, [*WITH_SUMMARY, "--baseline", "baseline.json"], baseline=baseline)
    assert "locomo-baseline-fraction" not in _failing(verdict)
