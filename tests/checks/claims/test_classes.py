"""Every class of unbacked number or phrase a claims scan must not pass, each from examples of
its own: categorical claims reached by rounding, the document's own arithmetic, numbers of other
benchmarks, splits and question sets, numbers with no metric or evidence, superlatives and
comparatives. Each example is checked in-process through the rules of the built-in ``claims``
profile, with evidence of one LongMemEval-S run."""

from __future__ import annotations

import pytest
from claimscan import scan


def statuses(text: str) -> list[tuple[str, str]]:
    return [(status, written) for _, _, status, written in scan(text)]


def test_an_honest_sentence_is_confirmed() -> None:
    assert statuses("On LongMemEval-S, strict recall@5 is 97.17% and nDCG@5 is 0.91.") == [
        ("confirmed", "97.17%"), ("confirmed", "0.91")]


# --- categorical claims are exact --------------------------------------------------------

@pytest.mark.parametrize("text,written", [
    ("On LongMemEval-S, recall@10 is 1.0.", "1.0"),
    ("On LongMemEval-S, recall@10 is 100%.", "100%"),
    ("On LongMemEval-S, R@10: 1", "1"),
    ("On LongMemEval-S, recall@10 holds for 500 out of 500 questions.", "500 out of 500"),
    ("On LongMemEval-S, recall@10 holds for 500/500 questions.", "500/500"),
    ("On LongMemEval-S, recall@10 is a perfect score.", "perfect score"),
], ids=["one-point-zero", "hundred-percent", "bare-one", "all-out-of-all", "n-of-n", "perfect-score"])
def test_a_categorical_value_is_never_reached_by_rounding(text: str, written: str) -> None:
    """recall@10 is 0.9717: "1.0" at one decimal place would round to it, but 1.0 means every one."""
    assert ("contradicted", written) in statuses(text)


@pytest.mark.parametrize("text", [
    "On LongMemEval-S, it answers every question correctly (QA accuracy).",
    "On LongMemEval-S it makes zero errors (QA accuracy).",
], ids=["every-question", "zero-errors"])
def test_categorical_words_need_exact_evidence(text: str) -> None:
    assert [s for s, _ in statuses(text)] == ["contradicted"]


# --- the document's own arithmetic -------------------------------------------------------

@pytest.mark.parametrize("text,written", [
    ("On LongMemEval-S, QA accuracy is 88.9% (443/500 questions correct).", "88.9%"),
    ("It answers 443 of 500 questions (88.9%) on LongMemEval-S.", "88.9%"),
    ("There were 57 incorrect responses out of 500 questions, an 11.6% error rate.", "11.6%"),
    ("| Type | Questions | Correct | Accuracy |\n|---|---|---|---|\n| multi-session | 133 | 120 | 91.0% |\n",
     "91.0%"),
    ("| Type | Questions | Correct | Accuracy |\n|---|---|---|---|\n| a | 70 | 66 | 94.3% |\n"
     "| b | 30 | 20 | 66.7% |\n| Overall | 101 | 86 | 85.1% |\n", "101"),
    ("| Type | n | QA accuracy |\n|---|---|---|\n| a | 70 | 94.3% |\n| b | 30 | 66.7% |\n| Overall | 100 | 90.0% |\n",
     "90.0%"),
    ("| Type | n | QA accuracy |\n|---|---|---|\n| a | 70 | 94.3% |\n| b | 30 | 66.7% |\n| Average | 100 | 86.0% |\n",
     "86.0%"),
], ids=["percent-and-count", "count-then-percent", "error-rate", "row-count-and-percent", "total-not-the-sum",
        "overall-not-the-rows", "average-not-the-mean"])
def test_arithmetic_that_does_not_add_up_is_contradicted(text: str, written: str) -> None:
    found = [(rule, status, w) for rule, _, status, w in scan(text) if rule == "claim-arithmetic"]
    assert ("claim-arithmetic", "contradicted", written) in found


@pytest.mark.parametrize("text", [
    "On LongMemEval-S, QA accuracy is 88.6% (443/500 questions correct).",
    "There were 57 incorrect responses out of 500 questions, an 11.4% error rate.",
    "| Type | n | QA accuracy |\n|---|---|---|\n| a | 70 | 94.3% |\n| b | 30 | 66.7% |\n| Overall | 100 | 86.0% |\n",
    "| Type | n | QA accuracy |\n|---|---|---|\n| a | 70 | 94.3% |\n| b | 30 | 66.7% |\n| Average | 100 | 80.5% |\n",
], ids=["percent-and-count", "error-rate", "overall-weighted", "average-mean"])
def test_arithmetic_that_adds_up_passes(text: str) -> None:
    assert [r for r in scan(text) if r[0] == "claim-arithmetic"] == []


# --- other benchmarks, splits, question sets --------------------------------------------

@pytest.mark.parametrize("text", [
    "On LoCoMo, recall@5 is 97.17%.",
    "On LongMemEval-M, recall@5 is 97.17%.",
    "On LongMemEval (oracle), recall@5 is 97.17%.",
    "On BEAM, recall@5 is 97.17%.",
    "On MemoryAgentBench, recall@5 is 97.17%.",
    "On LongMemEval-V2, recall@5 is 97.17%.",
    "## LoCoMo\n\nRecall@5 is 97.17%.",
    "## LoCoMo\n\n- Results:\n  - recall@5 is 97.17%",
    "On LongMemEval-S, recall@5 is 97.17% on 470 questions.",
], ids=["locomo", "longmemeval-m", "oracle", "beam", "memoryagentbench", "longmemeval-variant", "under-a-heading",
        "in-a-nested-list", "other-question-set"])
def test_a_number_is_never_matched_across_benchmarks(text: str) -> None:
    assert statuses(text) == [("untestable", "97.17%")]


# --- numbers without a metric or without evidence ---------------------------------------

@pytest.mark.parametrize("text", [
    "Sibyl scores 97.17% on LongMemEval-S.",
    "First System: To exceed 88% on LongMemEval-S.",
    "On LongMemEval-S it is SUPERHUMAN (>85%).",
    "LongMemEval-S MRR is 0.91.",
], ids=["no-metric", "bound-without-metric", "bound-in-brackets", "metric-without-evidence"])
def test_what_nothing_can_confirm_is_untestable(text: str) -> None:
    found = statuses(text)
    assert found and all(s == "untestable" for s, _ in found), found


# --- superlatives and comparatives -------------------------------------------------------

@pytest.mark.parametrize("text,phrase", [
    ("The first system to achieve >88% on LongMemEval-S.", "first system"),
    ("Sibyl is the first-ever memory to do it.", "first-ever memory"),
    ("Sibyl is number 1 on LongMemEval.", "number 1"),
    ("The highest-scoring memory system.", "highest-scoring"),
    ("It surpasses every prior system.", "surpasses every prior system"),
    ("Sibyl is `SOTA` on LongMemEval.", "SOTA"),
    ("It makes 0 API calls.", "0 API calls"),
    ("Sibyl is 2x more accurate than Zep.", "2x more accurate than Zep"),
    ("Sibyl outperforms Mem0 on LongMemEval.", "outperforms Mem0"),
    ("Its results are SUPERHUMAN.", "SUPERHUMAN"),
    ("The only system to reach 97% recall.", "only system to"),
], ids=["first-system", "first-ever", "number-1", "highest-scoring", "surpasses-every", "sota-in-code",
        "zero-api-digit", "times-more-than", "outperforms-named", "superhuman", "only-system"])
def test_superlatives_and_comparatives_are_untestable(text: str, phrase: str) -> None:
    found = [(status, written) for rule, _, status, written in scan(text) if rule.startswith("overclaim")]
    assert ("untestable", phrase) in found, found


@pytest.mark.parametrize("text", [
    "First, install the package.",
    "Follow best practices when you publish.",
    "It is the only way to run the gate.",
    "Sibyl is comparable to the best public systems.",
    "If the best score is below the threshold, it widens.",
], ids=["first-step", "best-practices", "only-way", "comparable-to-the-best", "conditional-best"])
def test_ordinary_words_are_no_superlatives(text: str) -> None:
    assert [r for r in scan(text) if r[0].startswith("overclaim")] == []

