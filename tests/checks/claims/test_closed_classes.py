"""Classes of unbacked numbers and phrases that a claims scan once passed, each closed by a
mechanism and checked here from examples of its own, with honest counterparts that still pass:

* result-shaped numbers dropped for want of a metric right next to them (a count written as a
  share, "48/50 for the default", "nine in ten", "1 in 50", a bare number after a result verb);
* superscript digits of the number itself read as a footnote marker (``⁹⁹%``);
* LongMemEval splits written as a suffix, in parentheses or in words (``LongMemEval-L``,
  ``LongMemEval (medium)``, "the oracle split of LongMemEval"), a sentence naming two benchmarks,
  a result said to be on a subset or sample, a question count written with a word between;
* superlatives and comparisons by their grammar (a superlative of standing, a comparison of
  quality in a sentence about a result, a comparison with a named system).

Each example runs in-process through the built-in ``claims`` profile with evidence of one
LongMemEval-S run (recall@5 0.9717, hit@5 0.98 on 500 questions)."""

from __future__ import annotations

import pytest

from claimscan import scan


def failing(text: str) -> list[tuple[str, str, str]]:
    """(rule, claim status, text) of every failing claim."""
    return [(rule, status, written) for rule, result, status, written in scan(text) if result == "fail"]


def passes(text: str) -> bool:
    return all(result == "pass" for _, result, _, _ in scan(text))


# --- numbers that were dropped ------------------------------------------------------------

@pytest.mark.parametrize("text,written", [
    ("On LongMemEval-S our reranker puts all evidence in the top 5 on 500/500 questions against 480/500 for "
     "the default.", "480/500"),
    ("On LongMemEval-S, recall@5 is 97.17%, against 48/50 for the baseline.", "48/50"),
    ("Sibyl scores 98 out of 100 on LongMemEval-S.", "98 out of 100"),
    ("Sibyl scores 99 on LongMemEval-S.", "99"),
    ("On LongMemEval-S, nine in ten questions have every evidence session in the top 5.", "nine in ten"),
    ("On LongMemEval-S only 1 in 50 questions misses its evidence (recall@5).", "1 in 50"),
    ("LongMemEval-S recall@5: 498:500.", "498:500"),
], ids=["count-away-from-metric", "count-after-comma", "out-of-hundred", "result-verb", "words-in",
        "digits-in", "colon-ratio"])
def test_a_result_shaped_number_is_never_dropped(text: str, written: str) -> None:
    assert any(w == written and status in ("untestable", "contradicted") for _, status, w in failing(text)), \
        scan(text)


@pytest.mark.parametrize("text", [
    "On LongMemEval-S, recall@5 is 97.17% over 500 questions in 3 runs.",
    "On LongMemEval-S, 2 of 3 runs were offline; recall@5 is 97.17%.",
    "LongMemEval-S was released in 2024; recall@5 is 97.17%.",
    "On LongMemEval-S, the top 5 of 50 candidates hold the evidence for 98% of questions (hit@5).",
], ids=["runs", "of-runs", "year", "candidates"])
def test_counts_of_other_things_stay_out(text: str) -> None:
    assert passes(text), scan(text)


def test_superscript_digits_before_a_percent_sign_are_the_number() -> None:
    assert ("claim-number-citable", "contradicted", "⁹⁹%") in failing("On LongMemEval-S, recall@5 is ⁹⁹%.")
    assert passes("On LongMemEval-S, recall@5 is 97.17%¹.")


# --- numbers of another split, set or benchmark -----------------------------------------------

@pytest.mark.parametrize("text", [
    "On LongMemEval-L, recall@5 is 97.17%.",
    "On LongMemEval_XL recall@5 is 97.17%.",
    "On LongMemEval (medium), recall@5 is 97.17%.",
    "On the oracle split of LongMemEval, recall@5 is 97.17%.",
    "On a LongMemEval subset, recall@5 is 97.17%.",
    "On a random sample of LongMemEval-S, recall@5 is 97.17%.",
    "On 100 LongMemEval-S questions, recall@5 is 97.17%.",
    "Recall@5 is 97.17% on LoCoMo and 91% on LongMemEval-S.",
], ids=["suffix-l", "suffix-xl", "parenthesised", "oracle-in-words", "subset", "sample", "count-with-word",
        "two-benchmarks"])
def test_a_number_of_another_split_or_set_is_not_confirmed(text: str) -> None:
    found = failing(text)
    assert any(w == "97.17%" and status == "untestable" for _, status, w in found), scan(text)


@pytest.mark.parametrize("text", [
    "On LongMemEval-S (cleaned), recall@5 is 97.17%.",
    "On LongMemEval (S), recall@5 is 97.17%.",
    "On longmemeval_s_cleaned.json, recall@5 is 97.17%.",
    "On all 500 LongMemEval-S questions, recall@5 is 97.17%.",
    "Recall@5 is 71% on LoCoMo and 97.17% on LongMemEval-S.",
], ids=["cleaned", "s-in-parentheses", "file-name", "count-with-word", "own-clause"])
def test_the_same_split_named_otherwise_is_confirmed(text: str) -> None:
    assert ("claim-number-citable", "pass", "confirmed", "97.17%") in scan(text), scan(text)


# --- superlatives and comparisons by their grammar ---------------------------------------------

@pytest.mark.parametrize("text", [
    "Sibyl is the strongest memory system on LongMemEval-S.",
    "Sibyl has the most accurate retrieval.",
    "The leading memory system for agents.",
    "Industry-leading recall.",
    "Sibyl sets a record on LongMemEval-S.",
    "World-class retrieval.",
    "Retrieval second to none.",
    "Sibyl is ranked 1st on LongMemEval-S.",
    "Recall@5 is nearly perfect.",
    "Retrieval on LongMemEval-S is flawless.",
    "Sibyl scored perfectly on LongMemEval-S.",
    "Sibyl's retrieval never misses an evidence session.",
    "Sibyl dominates LongMemEval-S.",
    "State of art retrieval.",
    "It exceeds the prior best.",
], ids=["strongest", "most-accurate", "leading", "industry-leading", "record", "world-class", "second-to-none",
        "ranked-1st", "nearly-perfect", "flawless", "perfectly", "never-misses", "dominates", "state-of-art",
        "exceeds-best"])
def test_a_superlative_of_standing_is_untestable(text: str) -> None:
    assert any(rule.startswith("overclaim") and status == "untestable" for rule, status, _ in failing(text)), scan(text)


@pytest.mark.parametrize("text", [
    "Sibyl is stronger than Mem0 on LongMemEval-S.",
    "Sibyl is well ahead of Zep.",
    "Sibyl surpasses Zep and Mem0.",
    "Sibyl outscores every other system.",
    "Higher recall@5 than all prior systems.",
    "Sibyl retrieves better than Zep.",
], ids=["stronger-than", "ahead-of", "surpasses-named", "outscores", "higher-than-all", "better-than"])
def test_a_comparison_with_another_system_is_untestable(text: str) -> None:
    assert any(rule.startswith("overclaim") and status == "untestable" for rule, status, _ in failing(text)), scan(text)


@pytest.mark.parametrize("text", [
    "Multi-session is the weakest question type.",
    "The latest run is the citable one.",
    "Hybrid gives the highest recall@5 of the three modes.",
    "Ingest dominates because each question writes a fresh haystack.",
    "This isolation is stronger than metadata-scoped filtering.",
    "The gate fails when the drop exceeds the threshold.",
    "Recall@10 is higher than recall@5.",
    "Leading and trailing spaces are trimmed.",
], ids=["weakest-type", "latest", "scoped-to-modes", "dominates-no-result", "design-comparison", "threshold",
        "metric-vs-metric", "leading-spaces"])
def test_ordinary_superlatives_and_comparisons_pass(text: str) -> None:
    assert not any(rule.startswith("overclaim") for rule, _, _ in failing(text)), scan(text)
