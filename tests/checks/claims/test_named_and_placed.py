"""Numbers a claims scan once confirmed because it read less than the page says, each closed by
a mechanism and checked here from examples of its own, with honest counterparts that still pass:

* one value given under two names ("recall@5 (hit@5)", "hit@5 is 98%, i.e. recall@5"): it must
  hold for each name;
* a share of the evidence items ("98% of evidence sessions are retrieved in the top 5"), which is
  strict recall, not hit@k;
* a number with a stray decimal point ("98..0%", "98.%"), which was read as the number before it;
* a granularity stated in a pandoc table caption ("Table: turn-level retrieval", over or under
  the table);
* a granularity stated in a footnote marked on the number, its metric or its sentence
  (``94.06%[^1]`` with ``[^1]: Turn-level.``);
* a question set said in words wider than the evidence's ("on all 5 categories", "the full
  benchmark", "all ten conversations" against LoCoMo evidence over categories 1-4);
* a number after a bracket that holds another metric's value ("recall@5 (hit@5: 98%) is 98%"),
  which was given to the bracketed metric;
* the unit of a metric said in words or named as what is ranked ("an answer turn is in the top
  5", "over the top five turns", "per retrieved turn", "R@5 (turn)", "when ranking individual
  turns"), and every answer-bearing item in the top k ("every session with an answer is in the
  top 5"), which is all-recall, not hit@k.

It also checks readings that confirm honest sentences which once failed, each with the wrong
values it must still fail: a metric in a bracket with a value of its own ("hit@5 is 98%
(recall@5: 94.06%)"), a metric added to a list in a bracket ("recall@5 (and recall@10) are ..."),
"an answer session is in the top 5" (hit@5); and a granularity said with a few words ("[^1]:
Counted over the retrieved turns."), which was missed.

Each example runs in-process through the built-in ``claims`` profile with evidence of one
LongMemEval-S run (recall@5 0.9717, hit@5 0.98 on 500 questions), or of one LoCoMo run over
categories 1-4 (J 0.7169 on 1,540 questions) as the locomo-qa profile declares it."""

from __future__ import annotations

from fractions import Fraction

import pytest

from claimscan import VALUES, messages, scan

from bench_gate.checks.claims.commonmark import read


SESSION = [dict(v, granularity="session") for v in VALUES]


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
    "On LongMemEval-S, recall@5 [hit@5] is 98%.",
    "On LongMemEval-S, recall@5 \u2014 hit@5 \u2014 is 98%.",
    "On LongMemEval-S, recall@5 or hit@5 is 98%.",
    "On LongMemEval-S, hit@5 is 98% (that's recall@5).",
    "On LongMemEval-S, hit@5 is 98% (also recall@5).",
    "On LongMemEval-S, hit@5 is 98% (equivalently, recall@5).",
    "On LongMemEval-S, hit@5 is 98% \u2014 i.e. recall@5.",
    "On LongMemEval-S, recall@5 (hit-rate@5) is 98%.",
    "On LongMemEval-S, recall@5 (Hits@5) is 98%.",
], ids=["paren-after-recall", "paren-label", "paren-after-hit", "paren-after-number", "ie-after-number",
        "ie-in-paren", "a.k.a.", "aka", "also-called", "paren-or", "column-header", "square-brackets",
        "dash-pair", "or-between-names", "thats-in-paren", "also-in-paren", "equivalently-in-paren",
        "dash-ie-at-end", "hit-rate-at-k", "hits-at-k"])
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
    ("On LongMemEval-S, hit@5 is 98% (not recall@5).", "98%"),
    ("On LongMemEval-S, hit@5 is 98% (unlike recall@5).", "98%"),
    ("On LongMemEval-S, hit@5 is 98% (vs. recall@5 of 97.17%).", "98%"),
    ("On LongMemEval-S, hit@5 is 98% or recall@5 is 97.17%.", "98%"),
    ("On LongMemEval-S, recall@5 is 97.17% \u2014 hit@5 is 98%.", "97.17%"),
    ("On LongMemEval-S, hit@5 is 98%, i.e. recall@5 is 97.17%.", "98%"),
], ids=["same-metric", "answer-session-words", "paren-without-a-metric", "paren-with-its-own-clause",
        "paren-not", "paren-unlike", "paren-vs-with-own-value", "or-with-own-value", "dash-with-own-value",
        "ie-with-own-value"])
def test_one_name_in_a_parenthesis_is_confirmed(text: str, written: str) -> None:
    found = outcomes(text)
    assert ("claim-number-citable", "pass", "confirmed", written) in found, found
    assert all(result == "pass" for _, result, _, _ in found), found


# the Sibyl example run, where strict recall@5 and recall@10 differ
SIBYL = [dict(v, metric=m, value=x, pointer=f"/overall/{m}") for v in VALUES[:1]
         for m, x in (("recall@5", Fraction(9406, 10000)), ("recall@10", Fraction(9717, 10000)),
                      ("hit@5", Fraction(98, 100)))]


@pytest.mark.parametrize("text", [
    "On LongMemEval-S, Sibyl's hit@5 is 98% (recall@5: 97.17%).",
    "On LongMemEval-S, Sibyl's hit@5 is 98% (recall@5 is 97.17%).",
    "On LongMemEval-S, Sibyl's hit@5 is 98% [recall@5 = 97.17%].",
    "On LongMemEval-S, Sibyl's hit@5 is 98% (recall@5 97.17%, recall@10 97.17%).",
], ids=["colon", "is", "square-brackets", "two-in-the-bracket"])
def test_a_metric_in_a_bracket_with_its_own_value_names_that_value(text: str) -> None:
    found = outcomes(text)
    assert [(status, written) for _, _, status, written in found][:2] == [("confirmed", "98%"), ("confirmed", "97.17%")]
    assert all(result == "pass" for _, result, _, _ in found), found


@pytest.mark.parametrize("text,wrong", [
    ("On LongMemEval-S, Sibyl's hit@5 is 98% (recall@5: 94.06%).", "94.06%"),
    ("On LongMemEval-S, Sibyl's hit@5 is 97% (recall@5: 97.17%).", "97%"),
], ids=["bracket-value-wrong", "value-before-the-bracket-wrong"])
def test_each_value_of_a_bracket_with_its_own_value_is_checked_under_its_own_name(text: str, wrong: str) -> None:
    found = outcomes(text)
    assert [(result, written) for _, result, _, written in found if result == "fail"] == [("fail", wrong)], found
    assert ("claim-number-citable", "fail", "contradicted", wrong) in found, found


def test_a_hit_value_in_front_of_a_bracket_is_still_recall_when_the_bracket_has_no_value() -> None:
    # the bracket names the number before it when the name has no value of its own
    assert ("claim-hit-as-recall", "fail", "contradicted", "98%") in outcomes(
        "On LongMemEval-S, Sibyl's hit@5 is 98% (recall@5), and nDCG@5 is 91.07%.")
    # and a recall named before the number is still its name
    assert ("claim-hit-as-recall", "fail", "contradicted", "98%") in outcomes(
        "On LongMemEval-S, Sibyl's recall@5 is 98% (hit@5: 98%).")


def test_the_honest_sibyl_sentence_with_a_bracketed_value_confirms_both() -> None:
    text = "On LongMemEval-S, Sibyl's hit@5 is 98% (recall@5: 94.06%)."
    assert [(rule, status) for rule, status, _ in messages(text, values=SIBYL)] == [
        ("claim-number-citable", "pass"), ("claim-number-citable", "pass")]
    found = messages("On LongMemEval-S, Sibyl's hit@5 is 98% (recall@5: 97.17%).", values=SIBYL)
    assert [(rule, status) for rule, status, _ in found] == [("claim-number-citable", "pass"),
                                                            ("claim-number-citable", "fail")], found
    assert "confirmed: hit@5 98%" in found[0][2] and "contradicted: recall@5 97.17%" in found[1][2], found


@pytest.mark.parametrize("text", [
    "On LongMemEval-S, Sibyl's recall@5 (hit@5: 98%) is 98%.",
    "On LongMemEval-S, Sibyl's recall@5 [hit@5 = 98%] is 98%.",
    "On LongMemEval-S, Sibyl's recall@5 (hit@5, the share of questions with an answer session in the top 5: 98%) "
    "is 98%.",
], ids=["parenthesis", "square-brackets", "long-bracket"])
def test_a_number_after_a_bracket_with_a_value_of_its_own_is_not_the_bracketed_metrics(text: str) -> None:
    # the bracket's metric names the value in the bracket; the number after the bracket is the
    # subject's, never confirmed by the bracketed metric's value
    found = messages(text, values=SIBYL)
    assert [status for _, status, _ in found] == ["pass", "fail"], found
    assert "confirmed: hit@5 98%" in found[0][2], found
    assert "recall@5" in found[1][2] or "names no metric" in found[1][2], found


@pytest.mark.parametrize("text,second", [
    ("On LongMemEval-S, Sibyl's hit@5 (recall@5: 94.06%) is 98%.", "confirmed: hit@5 98%"),
    ("On LongMemEval-S, Sibyl's recall@5 (recall@10: 97.17%) is 94.06%.", "confirmed: recall@5 94.06%"),
    ("On LongMemEval-S, Sibyl's recall@5 (hit@5: 98%) is 94.06%.", "confirmed: recall@5 94.06%"),
], ids=["hit-after-recall-aside", "recall-after-recall-aside", "recall-after-hit-aside"])
def test_a_number_after_a_bracket_with_a_value_of_its_own_is_the_subjects(text: str, second: str) -> None:
    found = messages(text, values=SIBYL)
    assert [status for _, status, _ in found] == ["pass", "pass"], found
    assert second in found[1][2], found


# --- a metric added in a bracket to a list -------------------------------------------------

@pytest.mark.parametrize("text", [
    "On LongMemEval-S, Sibyl's recall@5 (and recall@10) are 94.06% and 97.17%.",
    "On LongMemEval-S, Sibyl's recall@5 [and recall@10] are 94.06% and 97.17%.",
    "On LongMemEval-S, Sibyl's hit@5, recall@5 (and recall@10) are 98%, 94.06% and 97.17%.",
], ids=["parenthesis", "square-brackets", "three"])
def test_a_metric_added_in_a_bracket_is_part_of_the_list(text: str) -> None:
    found = messages(text, values=SIBYL)
    assert [status for _, status, _ in found] == ["pass"] * len(found) and len(found) == text.count("%"), found
    assert "confirmed: recall@5 94.06%" in found[-2][2] and "confirmed: recall@10 97.17%" in found[-1][2], found


@pytest.mark.parametrize("text,wrong", [
    ("On LongMemEval-S, Sibyl's recall@5 (and recall@10) are 97.17% and 94.06%.", ["recall@5 97.17%",
                                                                                  "recall@10 94.06%"]),
    ("On LongMemEval-S, Sibyl's recall@5 (and recall@10) are both 97.17%.", ["recall@5 97.17%"]),
    ("On LongMemEval-S, Sibyl's recall@5 (and recall@10) is 97.17%.", ["recall@5 97.17%"]),
], ids=["swapped", "both", "one-number"])
def test_each_metric_of_a_list_with_a_bracket_is_checked(text: str, wrong: list[str]) -> None:
    found = messages(text, values=SIBYL)
    assert [m.split("contradicted: ")[1].split(" matches")[0] for _, status, m in found if status == "fail"] == wrong
    assert all("contradicted" in m for _, status, m in found if status == "fail"), found


def test_a_hit_value_given_to_recall_in_a_bracketed_list_is_the_hit_as_recall_contradiction() -> None:
    found = outcomes("On LongMemEval-S, Sibyl's recall@5 (and hit@5) is 98%.")
    assert ("claim-hit-as-recall", "fail", "contradicted", "98%") in found, found


def test_a_bracket_whose_metric_has_its_own_value_is_no_list() -> None:
    # recall@10 has its value in the bracket: 94.06% is not claimed for a list of recall@5 and recall@10
    found = messages("On LongMemEval-S, Sibyl's recall@5 (and recall@10 is 97.17%) is 94.06%.", values=SIBYL)
    assert len(found) == 2 and "confirmed: recall@10 97.17%" in found[0][2], found


# --- a share of the evidence items is recall ---------------------------------------------

@pytest.mark.parametrize("text,written", [
    ("On LongMemEval-S, 98% of evidence sessions retrieved in the top 5.", "98%"),
    ("On LongMemEval-S, 98% of evidence sessions are retrieved in the top 5.", "98%"),
    ("On LongMemEval-S, 98% of all evidence sessions are in the top 5.", "98%"),
    ("On LongMemEval-S, 98 percent of gold sessions make the top 5.", "98 percent"),
    ("On LongMemEval-S, the share of evidence sessions in the top 5 is 98%.", "98%"),
], ids=["no-verb", "are-retrieved", "all-of-them", "percent-gold", "share-of"])
def test_a_share_of_evidence_items_is_recall_not_hit(text: str, written: str) -> None:
    assert outcomes(text) == [("claim-hit-as-recall", "fail", "contradicted", written)]


@pytest.mark.parametrize("text", [
    "On LongMemEval-S, for 98% of questions, an answer session is in the top 5.",
    "On LongMemEval-S, 98% of questions have an answer session in the top 5.",
    "On LongMemEval-S, 98% of questions have at least one of their answer sessions within the top 5.",
    "On LongMemEval-S, at least one answer session is in the top 5 for 98% of questions.",
], ids=["for-questions", "questions-have", "one-of-their", "at-least-one-first"])
def test_an_answer_session_in_the_top_k_is_a_hit(text: str) -> None:
    assert outcomes(text) == [("claim-number-citable", "pass", "confirmed", "98%")]


@pytest.mark.parametrize("text,found", [
    ("On LongMemEval-S, for 97.17% of questions, an answer session is in the top 5.",
     ("claim-number-citable", "fail", "contradicted", "97.17%")),
    ("On LongMemEval-S, 98% of answer sessions are in the top 5.", ("claim-hit-as-recall", "fail", "contradicted", "98%")),
    ("On LongMemEval-S, 98% of the answer sessions are in the top 5.",
     ("claim-hit-as-recall", "fail", "contradicted", "98%")),
    # "the answer sessions" is no share and no single one of them: no metric is named
    ("On LongMemEval-S, for 98% of questions, the answer sessions are in the top 5.",
     ("claim-number-citable", "fail", "untestable", "98%")),
], ids=["hit-with-recall-value", "share-of-answer-sessions", "share-of-the-answer-sessions", "the-answer-sessions"])
def test_a_share_of_answer_sessions_is_still_recall_and_a_hit_is_checked_as_hit(
        text: str, found: tuple[str, str, str, str]) -> None:
    assert outcomes(text) == [found]


@pytest.mark.parametrize("text,written", [
    ("On LongMemEval-S, 97.17% of the answer sessions are ranked in the top 5.", "97.17%"),
    ("On LongMemEval-S, the fraction of answer sessions within the top 5 is 97.17%.", "97.17%"),
    ("On LongMemEval-S, for 98% of questions at least one evidence session is in the top 5.", "98%"),
    ("On LongMemEval-S, 98% of questions have an evidence session in the top 5.", "98%"),
    ("On LongMemEval-S, at least one of the evidence sessions is in the top 5 for 98% of questions.", "98%"),
], ids=["recall-value", "fraction-recall-value", "questions-at-least-one", "questions-have", "one-of-them"])
def test_shares_of_evidence_and_of_questions_are_confirmed_by_their_own_metric(text: str, written: str) -> None:
    assert outcomes(text) == [("claim-number-citable", "pass", "confirmed", written)]


@pytest.mark.parametrize("text", [
    "On LongMemEval-S, for 98% of questions, every session with an answer is in the top 5.",
    "On LongMemEval-S, for 98% of questions, each session holding an answer is in the top 5.",
    "On LongMemEval-S, for 98% of questions, all sessions containing an answer are in the top 5.",
    "On LongMemEval-S, for 98% of questions, every session with evidence is in the top 5.",
    "On LongMemEval-S, for 98% of questions, all the sessions that are relevant are in the top 5.",
    "On LongMemEval-S, for 98% of questions, every item with an answer is in the top 5.",
], ids=["every-with-an-answer", "each-holding", "all-containing", "every-with-evidence", "all-that-are-relevant",
        "every-item"])
def test_every_item_that_holds_an_answer_in_the_top_k_is_all_recall_not_hit(text: str) -> None:
    # every answer-bearing session in the top 5 is recall_all@5, which the evidence does not hold;
    # the hit@5 value 98% must not confirm it
    found = messages(text)
    assert len(found) == 1 and found[0][1] == "fail", found
    assert "untestable" in found[0][2] and "recall_all@5" in found[0][2], found


@pytest.mark.parametrize("text", [
    "On LongMemEval-S, for each question an answer session is in the top 5 in 98% of cases.",
    "On LongMemEval-S, for all 500 questions, an answer session is in the top 5 for 98%.",
    "On LongMemEval-S, in each of the 500 questions an answer session is in the top 5 for 98%.",
    "On LongMemEval-S, for 98% of all questions, an answer session is in the top 5.",
], ids=["each-question", "all-n-questions", "each-of-the-questions", "of-all-questions"])
def test_every_question_with_an_answer_session_in_the_top_k_is_still_a_hit(text: str) -> None:
    assert outcomes(text) == [("claim-number-citable", "pass", "confirmed", "98%")]


@pytest.mark.parametrize("text,grain", [
    ("On LongMemEval-S, for 98% of questions, an answer turn is in the top 5.", "turn-level hit@5"),
    ("On LongMemEval-S, for 98% of questions, at least one evidence turn is in the top 5.", "turn-level hit@5"),
    ("On LongMemEval-S, 98% of questions have an answer message within the top 5.", "message-level hit@5"),
    ("On LongMemEval-S, 97.17% of the evidence turns are ranked in the top 5.", "turn-level recall@5"),
], ids=["answer-turn", "evidence-turn", "answer-message", "share-of-evidence-turns"])
def test_the_items_a_metric_in_words_counts_are_its_granularity(text: str, grain: str) -> None:
    # a hit or a share counted over turns is another metric than the evidence's session-level one
    found = messages(text, values=SESSION)
    assert len(found) == 1 and found[0][1] == "fail", found
    assert f"a {grain} is another metric" in found[0][2], found


@pytest.mark.parametrize("text,written", [
    ("On LongMemEval-S, for 98% of questions, an answer session is in the top 5.", "98%"),
    ("On LongMemEval-S, 97.17% of the evidence sessions are ranked in the top 5.", "97.17%"),
    ("On LongMemEval-S, QA accuracy, judged against the gold answer span, is 88.6%.", "88.6%"),
], ids=["answer-session", "share-of-evidence-sessions", "qa-against-an-answer-span"])
def test_items_of_the_evidences_unit_or_outside_a_ranking_qualify_nothing(text: str, written: str) -> None:
    assert outcomes(text) == [("claim-number-citable", "pass", "confirmed", written)]


# --- a number with a stray decimal point --------------------------------------------------

@pytest.mark.parametrize("text,written", [
    ("On LongMemEval-S, hit@5 is 98..0%.", "98..0%"),
    ("On LongMemEval-S, hit@5 is 98.%.", "98.%"),
    ("On LongMemEval-S, hit@5 is 98.%", "98.%"),
    ("On LongMemEval-S, hit@5 is 9.8.%.", "9.8.%"),
    ("On LongMemEval-S, hit@5 is 98..0.", "98..0"),
    ("| System | LongMemEval-S hit@5 |\n|---|---|\n| Sibyl | 98..0% |", "98..0%"),
    ("On LongMemEval-S, hit@5 is 98..%.", "98..%"),
    ("On LongMemEval-S, hit@5 is 98.00..%.", "98.00..%"),
    ("On LongMemEval-S, hit@5 is 9.8.0%.", "9.8.0%"),
    ("On LongMemEval-S, hit@5 is 98.0.0%.", "98.0.0%"),
    ("On LongMemEval-S, hit@5 is 98%%.", "98%%"),
    ("On LongMemEval-S, hit@5 is 98.0 % %.", "98.0 % %"),
], ids=["double-point", "point-before-percent", "point-before-percent-at-end", "two-points", "bare-double-point",
        "cell", "two-points-before-percent", "decimals-then-two-points", "three-groups", "three-groups-of-98",
        "percent-twice", "percent-twice-spaced"])
def test_a_malformed_number_is_untestable(text: str, written: str) -> None:
    assert outcomes(text) == [("claim-number-ambiguous", "fail", "untestable", written)]


def test_the_reason_names_the_stray_point() -> None:
    text = "On LongMemEval-S, hit@5 is 98..0%."
    assert messages(text) == [("claim-number-ambiguous", "fail", (
        "README.md:1:28: untestable: 98..0% is no well-formed number (a stray decimal point): write the value as "
        f'one number; a claim must state the one value the evidence can match in "{text}"'))]


@pytest.mark.parametrize("text,why", [
    ("On LongMemEval-S, hit@5 is 9.8.0%.", "more than one decimal point"),
    ("On LongMemEval-S, hit@5 is 98%%.", "its unit written twice"),
    ("On LongMemEval-S, hit@5 is 98..%.", "a stray decimal point"),
])
def test_the_reason_says_what_is_malformed(text: str, why: str) -> None:
    [(_, _, message)] = messages(text)
    assert f"is no well-formed number ({why}): write the value as one number" in message


@pytest.mark.parametrize("text,written", [
    ("On LongMemEval-S, hit@5 is 98.", "98"),
    ("On LongMemEval-S, hit@5 is 98%.", "98%"),
    ("On LongMemEval-S, hit@5 is 0.98.", "0.98"),
], ids=["bare-then-period", "percent-then-period", "decimal-then-period"])
def test_a_number_at_the_end_of_a_sentence_is_well_formed(text: str, written: str) -> None:
    assert outcomes(text) == [("claim-number-citable", "pass", "confirmed", written)]


def test_a_version_is_still_no_number() -> None:
    assert outcomes("We use Python 3.11.2 and LongMemEval-S.") == []


# --- a pandoc table caption ---------------------------------------------------------------

TABLE = "| System | LongMemEval-S recall@5 |\n|---|---|\n| Sibyl | 97.17% |\n"


@pytest.mark.parametrize("text", [
    "Table: turn-level retrieval on LongMemEval-S\n\n" + TABLE,
    TABLE + "\nTable: turn-level retrieval on LongMemEval-S\n",
    TABLE + "\n: Turn-level retrieval on LongMemEval-S\n",
    TABLE + "\ntable: per-turn recall\n",
], ids=["above", "below", "colon-below", "lower-case-below"])
def test_a_granularity_in_a_pandoc_caption_qualifies_the_table(text: str) -> None:
    assert [(status, message.split(": ", 2)[1]) for _, status, message in messages(text, values=SESSION)] == [
        ("fail", "untestable")]


@pytest.mark.parametrize("text", [
    "Table: session-level retrieval on LongMemEval-S\n\n" + TABLE,
    TABLE + "\nThe table is the offline hybrid run; turn-level numbers are on another page.\n",
    TABLE + "\n## Turns\n\nTable: turn-level retrieval\n",
    TABLE + "\n- Table: turn-level retrieval\n",
], ids=["session-caption", "plain-paragraph-below", "caption-of-nothing-after-a-heading", "list-item-below"])
def test_a_paragraph_that_is_no_caption_of_the_table_qualifies_nothing(text: str) -> None:
    assert [status for _, status, _ in messages(text, values=SESSION)] == ["pass"]


def test_the_caption_below_a_table_is_its_caption_and_not_the_next_tables() -> None:
    doc = read("R.md", TABLE + "\nTable: turn-level\n\n" + TABLE, False)
    assert [t.caption for t in doc.tables] == ["Table: turn-level", ""]


# --- a footnote on the number -------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "On LongMemEval-S, Sibyl's recall@5 is 97.17%[^1].\n\n[^1]: Turn-level.\n",
    "On LongMemEval-S, Sibyl's recall@5 is 97.17%[^1].\n\n[^1]: Counted over turns, not sessions.\n",
    "On LongMemEval-S, Sibyl's recall@5[^1] is 97.17%.\n\n[^1]: Turn-level.\n",
    "On LongMemEval-S, Sibyl's recall@5 is 97.17%.[^a]\n\n[^a]: Turn-level retrieval.\n",
    "| System | LongMemEval-S recall@5 |\n|---|---|\n| Sibyl | 97.17%[^1] |\n\n[^1]: Turn-level.\n",
    "| System | LongMemEval-S recall@5[^n] |\n|---|---|\n| Sibyl | 97.17% |\n\n[^n]: Turn-level retrieval.\n",
    "On LongMemEval-S, Sibyl's recall@5 is 97.17%[^1].\n\n[^1]: Turn-level.\n[^2]: Session-level.\n",
    "On LongMemEval-S, Sibyl's recall@5 is 97.17%[^1].\n\n[^1]: Counted over the retrieved turns.\n",
    "On LongMemEval-S, Sibyl's recall@5 is 97.17%[^1].\n\n[^1]: Computed over all retrieved user turns.\n",
    "On LongMemEval-S, Sibyl's recall@5 is 97.17%[^1].\n\n[^1]: Measured over the top-5 ranked messages.\n",
    "On LongMemEval-S, Sibyl's recall@5 computed over the retrieved turns is 97.17%.\n",
], ids=["on-the-number", "in-prose", "on-the-metric", "on-the-sentence", "in-a-cell", "on-the-header",
        "two-notes", "over-the-retrieved-turns", "over-three-words", "over-top-k", "prose-over-the-retrieved"])
def test_a_granularity_in_a_footnote_qualifies_the_number(text: str) -> None:
    found = messages(text, values=SESSION)
    assert len(found) == 1 and found[0][1] == "fail", found
    grain = "message" if "messages" in text else "turn"
    assert f"a {grain}-level recall@5 is another metric" in found[0][2], found


@pytest.mark.parametrize("text", [
    "On LongMemEval-S, Sibyl's recall@5 is 97.17%[^1].\n\n[^1]: Session-level.\n",
    "On LongMemEval-S, Sibyl's recall@5 is 97.17%[^1].\n\n[^1]: Offline hybrid run of 2026-06-10.\n",
    "On LongMemEval-S, Sibyl's recall@5 is 97.17%[^1].\n\n[^2]: Turn-level.\n",
    "On LongMemEval-S, Sibyl's recall@5 is 97.17%.\n\nTurn-level numbers are on another page.\n",
    "On LongMemEval-S, Sibyl's recall@5 is 97.17%[^1].\n\n[^1]: Counted over the retrieved sessions.\n",
    "On LongMemEval-S, Sibyl's recall@5 is 97.17%[^1].\n\n[^1]: Averaged over questions whose answers span several "
    "turns.\n",
    "On LongMemEval-S, Sibyl's recall@5 is 97.17% over questions whose evidence spans several turns.\n",
], ids=["session-note", "note-of-something-else", "another-notes-definition", "no-note", "over-retrieved-sessions",
        "note-over-questions", "prose-over-questions"])
def test_a_footnote_that_qualifies_nothing_or_the_declared_granularity_passes(text: str) -> None:
    assert [status for _, status, _ in messages(text, values=SESSION)] == ["pass"]


@pytest.mark.parametrize("text", [
    "On LongMemEval-S, Sibyl's recall@5, computed over the top five turns, is 97.17%.",
    "On LongMemEval-S, Sibyl's recall@5 over the 50 retrieved turns is 97.17%.",
    "On LongMemEval-S, Sibyl's recall@5 over annotated evidence turns is 97.17%.",
    "On LongMemEval-S, Sibyl's recall@5 over the user's turns is 97.17%.",
    "On LongMemEval-S, Sibyl's recall@5 over every retrieved turn is 97.17%.",
    "On LongMemEval-S, Sibyl's recall@5 per retrieved turn is 97.17%.",
    "On LongMemEval-S, Sibyl's recall@5 among the ten ranked turns is 97.17%.",
], ids=["top-five", "a-count", "annotated", "possessive", "every-singular", "per-retrieved", "among"])
def test_a_granularity_said_with_any_few_words_qualifies_the_number(text: str) -> None:
    found = messages(text, values=SESSION)
    assert len(found) == 1 and found[0][1] == "fail", found
    assert "a turn-level recall@5 is another metric" in found[0][2], found


@pytest.mark.parametrize("text", [
    "On LongMemEval-S, Sibyl's turn recall@5 is 97.17%.",
    "On LongMemEval-S, Sibyl's turn-wise recall@5 is 97.17%.",
    "On LongMemEval-S, Sibyl's recall@5 (turn) is 97.17%.",
    "On LongMemEval-S, Sibyl's recall@5 [turns] is 97.17%.",
    "On LongMemEval-S, Sibyl's recall@5 is 97.17% (turn-based).",
    "On LongMemEval-S, Sibyl's recall@5 on turns is 97.17%.",
    "On LongMemEval-S, Sibyl's recall@5 is 97.17%, with turns as the retrieval unit.",
    "On LongMemEval-S, Sibyl's recall@5 is 97.17% when ranking individual turns.",
    "On LongMemEval-S, Sibyl's recall@5 at the level of turns is 97.17%.",
    "On LongMemEval-S, Sibyl's recall@5 is 97.17% (unit: turn).",
], ids=["unit-before", "wise", "bracket-singular", "square-brackets", "based", "on-turns", "as-the-unit",
        "ranking-turns", "level-of", "unit-colon"])
def test_a_unit_named_as_what_is_ranked_qualifies_the_number(text: str) -> None:
    found = messages(text, values=SESSION)
    assert len(found) == 1 and found[0][1] == "fail", found
    assert "a turn-level recall@5 is another metric" in found[0][2], found


@pytest.mark.parametrize("text", [
    "On LongMemEval-S, Sibyl's multi-turn recall@5 is 97.17%.",
    "On LongMemEval-S (50 sessions of about 10 turns each), Sibyl's recall@5 is 97.17%.",
    "On LongMemEval-S, Sibyl's recall@5 is 97.17% on multi-turn conversations.",
    "On LongMemEval-S, it turns out Sibyl's recall@5 is 97.17%.",
    "On LongMemEval-S, Sibyl's session recall@5 is 97.17%.",
], ids=["multi-turn", "haystack-description", "multi-turn-conversations", "turns-out", "session"])
def test_turns_named_as_no_unit_of_the_metric_qualify_nothing(text: str) -> None:
    assert [status for _, status, _ in messages(text, values=SESSION)] == ["pass"]


@pytest.mark.parametrize("text", [
    "On LongMemEval-S, Sibyl's recall@5 is 97.17% over questions whose evidence spans several turns.",
    "On LongMemEval-S, Sibyl's recall@5 over 500 questions with multi-turn sessions is 97.17%.",
    "On LongMemEval-S, Sibyl's recall@5 is 97.17%, up over the previous round.",
    "On LongMemEval-S, Sibyl's recall@5 is 97.17% over a span of three months.",
], ids=["questions-whose", "questions-with", "previous-round", "a-span-of"])
def test_over_words_that_count_something_else_qualify_nothing(text: str) -> None:
    assert [status for _, status, _ in messages(text, values=SESSION)] == ["pass"]


# --- a question set said in words ---------------------------------------------------------

LOCOMO = "LoCoMo (categories 1-4)"
LOCOMO_VALUES = [{"metric": "j", "value": Fraction(7169, 10000), "entry": "locomo", "artifact": "eval_results.json",
                  "scope": LOCOMO, "pointer": "summary:/overall/j"},
                 {"metric": "j", "value": Fraction(7408, 10000), "entry": "locomo", "artifact": "eval_results.json",
                  "scope": LOCOMO, "pointer": "summary:/by_category/4/j", "slice": "single-hop"}]
LOCOMO_ENTRY = {"entry": "locomo", "artifact": "eval_results.json", "scope": LOCOMO, "ids": ["locomo"],
                "questions": 1540, "evaluated": 1540, "total": None, "runtime": None, "calls": {},
                "groups": ["1", "2", "3", "4"], "question_set": LOCOMO}


@pytest.fixture
def locomo(monkeypatch: pytest.MonkeyPatch) -> None:
    import claimscan

    monkeypatch.setattr(claimscan, "ENTRIES", [LOCOMO_ENTRY])


@pytest.mark.parametrize("text,words", [
    ("On LoCoMo (all 5 categories) the J score is 71.69%.", "all 5 categories"),
    ("On the full benchmark, the LoCoMo J score is 71.69%.", "the full benchmark"),
    ("On LoCoMo, the J score on all ten conversations is 71.69%.", "all ten conversations"),
    ("On LoCoMo, the J score over every category is 71.69%.", "every category"),
    ("On LoCoMo, the J score on all questions is 71.69%.", "all questions"),
    ("On LoCoMo, the J score over all categories except temporal is 71.69%.", "all categories except temporal"),
    ("## LoCoMo: the entire dataset\n\nThe J score is 71.69%.", "the entire dataset"),
    ("| Benchmark | J score |\n|---|---|\n| LoCoMo (all five categories) | 71.69% |", "all five categories"),
], ids=["all-5-categories", "full-benchmark", "all-ten-conversations", "every-category", "all-questions",
        "all-but-one", "heading", "table-row"])
def test_a_question_set_said_wider_than_the_evidences_is_untestable(locomo: None, text: str, words: str) -> None:
    [(rule, status, message)] = messages(text, values=LOCOMO_VALUES)
    assert (rule, status) == ("claim-number-citable", "fail")
    assert (f"untestable: j 71.69%: it is said to be on '{words}', but the evidence's j is over LoCoMo (categories "
            "1-4): a result on part of the benchmark confirms no number said to be on more of it") in message, message


@pytest.mark.parametrize("text", [
    "On LoCoMo (categories 1-4, 1,540 questions) the J score is 71.69%.",
    "On LoCoMo (all 4 categories), the J score is 71.69%.",
    "On LoCoMo, the J score is 71.69%.",
    "On LoCoMo, the single-hop J score is 74.08% on all ten conversations.",
], ids=["categories-named", "all-4-categories", "no-question-set", "a-slice"])
def test_a_question_set_the_evidence_covers_is_confirmed(locomo: None, text: str) -> None:
    assert [status for _, status, _ in messages(text, values=LOCOMO_VALUES)] == ["pass"]


def test_the_full_benchmark_of_an_evidence_over_every_question_is_confirmed() -> None:
    # the LongMemEval-S run evaluated all 500 of its questions and states no groups
    assert outcomes("On the full LongMemEval-S benchmark, recall@5 is 97.17%.") == [
        ("claim-number-citable", "pass", "confirmed", "97.17%")]


def test_the_full_benchmark_of_a_partial_run_is_untestable(monkeypatch: pytest.MonkeyPatch) -> None:
    import claimscan

    monkeypatch.setattr(claimscan, "ENTRIES", [dict(e, evaluated=470) for e in claimscan.ENTRIES])
    [(_, status, message)] = messages("On the full LongMemEval-S benchmark, recall@5 is 97.17%.")
    assert status == "fail" and "the evidence's recall@5 is over 470 of its dataset's 500 questions" in message


# --- the k of a metric is no question count -----------------------------------------------

@pytest.mark.parametrize("text", [
    "On LongMemEval-S, Sibyl's R@5 across questions is 97.17%.",
    "On LongMemEval-S, Sibyl's recall@5 averaged over questions is 97.17%.",
], ids=["across-questions", "averaged-over-questions"])
def test_the_k_of_a_metric_before_questions_is_no_question_count(text: str) -> None:
    assert outcomes(text) == [("claim-number-citable", "pass", "confirmed", "97.17%")]


def test_a_question_count_the_evidence_does_not_hold_is_still_untestable() -> None:
    found = messages("On LongMemEval-S, on 50 questions Sibyl's recall@5 is 97.17%.")
    assert len(found) == 1 and found[0][1] == "fail" and "on 50 questions" in found[0][2], found
