"""Numbers a claims scan once confirmed because it read less than the page says, each closed by
a mechanism and checked here from examples of its own, with honest counterparts that still pass:

* one value given under two names ("recall@5 (hit@5)", "hit@5 is 98%, i.e. recall@5"): it must
  hold for each name;

Each example runs in-process through the built-in ``claims`` profile with evidence of one
LongMemEval-S run (recall@5 0.9717, hit@5 0.98 on 500 questions)."""

from __future__ import annotations

import pytest

from claimscan import scan


def outcomes(text: str) -> list[tuple[str, str, str, str]]:
    """(rule, result, claim status, text) of every claim."""
    return scan(text)


# --- one value under two names ------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "On LongMemEval-S, Sibyl's recall@5 (hit@5) is 98%.",
    "On LongMemEval-S, Recall@5 (hit@5): 98%.",
    "On LongMemEval-S, Sibyl's hit@5 (recall@5) is 98%.",
    "On LongMemEval-S, Sibyl's recall@5 is 98% (hit@5).",
    "On LongMemEval-S, hit@5 is 98%, i.e. recall@5.",
    "On LongMemEval-S, Sibyl reaches 98% recall@5 (i.e. hit@5).",
    "On LongMemEval-S, recall@5, a.k.a. hit@5, is 98%.",
    "On LongMemEval-S, recall@5, aka hit@5, is 98%.",
    "On LongMemEval-S, recall@5 (also called hit@5) is 98%.",
    "On LongMemEval-S, recall@5 (or hit@5) is 98%.",
    "| System | LongMemEval-S recall@5 (hit@5) |\n|---|---|\n| Sibyl | 98% |",
], ids=["paren-after-recall", "paren-label", "paren-after-hit", "paren-after-number", "ie-after-number",
        "ie-in-paren", "a.k.a.", "aka", "also-called", "paren-or", "column-header"])
def test_a_hit_value_also_named_recall_is_the_hit_as_recall_contradiction(text: str) -> None:
    assert outcomes(text) == [("claim-hit-as-recall", "fail", "contradicted", "98%")]


def test_a_value_under_two_names_is_confirmed_only_when_each_holds() -> None:
    # recall_any@5 is LongMemEval's name of hit@5: one metric, written twice
    assert outcomes("On LongMemEval-S, hit@5 (recall_any@5) is 98%.") == [
        ("claim-number-citable", "pass", "confirmed", "98%")]
    # MRR is another metric, which the evidence does not hold: the number is untestable under it
    assert outcomes("On LongMemEval-S, hit@5 (MRR) is 98%.") == [
        ("claim-number-citable", "fail", "untestable", "98%")]


@pytest.mark.parametrize("text,written", [
    ("On LongMemEval-S, Sibyl's R@5 (recall@5) is 97.17%.", "97.17%"),
    ("On LongMemEval-S, at least one answer session is in the top 5 for 98% of questions (hit@5).", "98%"),
    ("On LongMemEval-S, recall@5 (strict recall over answer sessions) is 97.17%.", "97.17%"),
    ("On LongMemEval-S, recall@5 (recall@10 is the same) is 97.17%.", "97.17%"),
], ids=["same-metric", "answer-session-words", "paren-without-a-metric", "paren-with-its-own-clause"])
def test_one_name_in_a_parenthesis_is_confirmed(text: str, written: str) -> None:
    found = outcomes(text)
    assert ("claim-number-citable", "pass", "confirmed", written) in found, found
    assert all(result == "pass" for _, result, _, _ in found), found
