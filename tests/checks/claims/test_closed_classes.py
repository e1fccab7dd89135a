"""Classes of unbacked numbers and phrases that a claims scan once passed, each closed by a
mechanism and checked here from examples of its own, with honest counterparts that still pass:

* result-shaped numbers dropped for want of a metric right next to them (a count written as a
  share, "48/50 for the default", "nine in ten", "1 in 50", a bare number after a result verb);
* superscript digits of the number itself read as a footnote marker (``⁹⁹%``);
* LongMemEval splits written as a suffix, in parentheses or in words (``LongMemEval-L``,
  ``LongMemEval (medium)``, "the oracle split of LongMemEval"), a sentence naming two benchmarks,
  a result said to be on a subset or sample, a question count written with a word between;
* superlatives and comparisons by their grammar (a superlative of standing, a comparison of
  quality in a sentence about a result, a comparison with a named system);
* a metric qualified by a granularity the evidence does not declare ("turn-level recall@5");
* categorical wording without a number ("never misses", "no question is missed", "without a
  single miss", "always retrieves");
* numbers written per mille or as a difference in percentage points;
* a reason that names a ledger when the evidence came from an evidence file;
* one phrase reported by two rules;
* a share above 100% dropped unseen, and the value a change reached read as part of the change;
* a granularity said in prose or by the section, a judge named in other words, a category named
  by its number;
* reStructuredText substitutions and AsciiDoc attributes not read where the page shows them;
* "the best of any system".

Each example runs in-process through the built-in ``claims`` profile with evidence of one
LongMemEval-S run (recall@5 0.9717, hit@5 0.98 on 500 questions)."""

from __future__ import annotations

import unicodedata

import pytest

from claimscan import SCOPE, VALUES, messages, scan


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
    "Sibyl dominates LongMemEval-S.",
    "State of art retrieval.",
    "It exceeds the prior best.",
], ids=["strongest", "most-accurate", "leading", "industry-leading", "record", "world-class", "second-to-none",
        "ranked-1st", "nearly-perfect", "flawless", "perfectly", "dominates", "state-of-art",
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


# --- a metric qualified by what it counts ---------------------------------------------------

SESSION = [dict(v, granularity="session") for v in VALUES]
PERFECT_HIT = [{"metric": "hit@5", "value": 1, "entry": "/citable/0", "artifact": "run.json", "scope": SCOPE,
                "pointer": "/overall/hit@5"}]


@pytest.mark.parametrize("text,col", [
    ("On LongMemEval-S, turn-level recall@5 is 97.17%.", 42),
    ("On LongMemEval-S, per-turn recall@5 is 97.17%.", 40),
    ("On LongMemEval-S, recall@5 at the turn level is 97.17%.", 49),
], ids=["turn-level", "per-turn", "at-the-turn-level"])
def test_a_turn_level_metric_is_not_confirmed_by_a_session_level_value(text: str, col: int) -> None:
    assert messages(text, values=SESSION) == [("claim-number-citable", "fail", (
        f"README.md:1:{col}: untestable: recall@5 97.17%: the evidence's recall@5 is session-level; a turn-level "
        f'recall@5 is another metric in "{text}"'))]


@pytest.mark.parametrize("grain", ["message", "utterance", "token"])
def test_every_granularity_the_evidence_does_not_declare_is_untestable(grain: str) -> None:
    text = f"On LongMemEval-S, {grain}-level recall@5 is 97.17%."
    assert messages(text, values=SESSION) == [("claim-number-citable", "fail", (
        f"README.md:1:{len(grain) + 38}: untestable: recall@5 97.17%: the evidence's recall@5 is session-level; a "
        f'{grain}-level recall@5 is another metric in "{text}"'))]


def test_a_qualified_metric_needs_evidence_that_declares_what_it_counts() -> None:
    text = "On LongMemEval-S, session-level recall@5 is 97.17%."
    assert messages(text) == [("claim-number-citable", "fail", (
        "README.md:1:45: untestable: recall@5 97.17%: the evidence does not declare what its recall@5 counts "
        "(sessions, turns, ...); a session-level recall@5 is confirmed only by a value declared session-level in "
        f'"{text}"'))]


def test_the_granularity_the_evidence_declares_is_confirmed() -> None:
    text = "On LongMemEval-S, session-level recall@5 is 97.17%."
    assert messages(text, values=SESSION) == [("claim-number-citable", "pass", (
        "README.md:1:45: confirmed: recall@5 97.17% matches citable recall@5 0.9717 (97.17%) of /citable/0 "
        f'(run.json) in "{text}"'))]
    assert messages("On LongMemEval-S, recall@5 is 97.17%.", values=SESSION)[0][1] == "pass"


def test_an_ai_memory_report_declares_session_granularity_by_its_rows() -> None:
    from bench_gate.gates.claims_evidence import granularity_of

    assert granularity_of({"case_results": [{"ranked_session_ids": [], "answer_session_ids": []}]}) == "session"
    assert granularity_of({"case_results": [{"ranked_turn_ids": []}]}) == "turn"
    assert granularity_of({"case_results": [{"ranked_turn_ids": []}, {"ranked_session_ids": []}]}) is None
    assert granularity_of({"case_results": []}) is None


# --- categorical wording without a number -------------------------------------------------------

@pytest.mark.parametrize("text,written,col", [
    ("On LongMemEval-S, Sibyl never misses an evidence session (hit@5).", "never misses", 25),
    ("On LongMemEval-S, no question is missed (hit@5).", "no question is missed", 19),
    ("On LongMemEval-S, hit@5 is reached without a single miss.", "without a single miss", 36),
    ("On LongMemEval-S, hit@5 has zero misses.", "zero misses", 29),
    ("On LongMemEval-S, hit@5 shows it always retrieves the answer session.", "always retrieves", 34),
], ids=["never-misses", "no-question-missed", "without-a-single-miss", "zero-misses", "always-retrieves"])
def test_categorical_wording_is_confirmed_only_by_exactly_one(text: str, written: str, col: int) -> None:
    assert messages(text, values=PERFECT_HIT) == [("claim-number-citable", "pass", (
        f"README.md:1:{col}: confirmed: hit@5 {written} (read as 100%) matches citable hit@5 1 (100%) of /citable/0 "
        f'(run.json) in "{text}"'))]
    assert messages(text) == [("claim-number-citable", "fail", (
        f"README.md:1:{col}: contradicted: hit@5 {written} (read as 100%) matches no citable value at the precision "
        f"written; the evidence gives hit@5 on LongMemEval-S 0.98 (98%) (/citable/0, run.json) in \"{text}\""))]


@pytest.mark.parametrize("text,written,col", [
    ("Sibyl's retrieval never misses an evidence session.", "never misses", 19),
    ("On LongMemEval-S, it always retrieves the answer.", "always retrieves", 22),
], ids=["no-benchmark", "no-metric"])
def test_categorical_wording_without_a_metric_is_untestable(text: str, written: str, col: int) -> None:
    found = messages(text, values=PERFECT_HIT)
    assert [(r, s) for r, s, _ in found] == [("claim-number-citable", "fail")]
    assert found[0][2].startswith(f"README.md:1:{col}: untestable: ")
    assert f"{written} (read as 100%): it names no metric" in found[0][2]


@pytest.mark.parametrize("text", [
    "The gate never fails silently.",
    "It does not always retrieve the answer on LongMemEval-S, so recall@5 is 97.17%.",
], ids=["not-about-a-result", "negated"])
def test_categorical_wording_that_claims_nothing_passes(text: str) -> None:
    assert all(status == "pass" for _, status, _ in messages(text)), messages(text)


# --- per mille and percentage points -------------------------------------------------------------

def test_per_mille_is_read_as_a_fraction() -> None:
    assert messages("On LongMemEval-S, hit@5 is 980 per mille.") == [("claim-number-citable", "pass", (
        'README.md:1:28: confirmed: hit@5 980 per mille matches citable hit@5 0.98 (98%) of /citable/0 (run.json) '
        'in "On LongMemEval-S, hit@5 is 980 per mille."'))]
    assert messages("On LongMemEval-S, hit@5 is 990‰.")[0][:2] == ("claim-number-citable", "fail")


@pytest.mark.parametrize("text,written,col", [
    ("On LongMemEval-S, recall@5 improved by +2.3 percentage points.", "+2.3 percentage points", 40),
    ("On LongMemEval-S, recall@5 is up 2.3 pp.", "2.3 pp", 34),
    ("On LongMemEval-S, recall@5 gained 2.3 pts.", "2.3 pts", 35),
    ("| Metric | Live | Replay | Delta |\n|---|---|---|---|\n| `recall@5` | 96.96% | 97.35% | +2.38pp |\n",
     "+2.38pp", 34),
], ids=["percentage-points", "pp", "pts", "delta-not-of-its-row"])
def test_a_difference_in_points_is_untestable(text: str, written: str, col: int) -> None:
    found = [m for m in messages(text) if written in m[2]]
    line = 3 if text.startswith("|") else 1
    assert [(r, s) for r, s, _ in found] == [("claim-number-citable", "fail")], messages(text)
    assert found[0][2].startswith(
        f"README.md:{line}:{col}: untestable: recall@5 {written}: a difference of {written} compares two values, "
        "and no evidence value is a difference (write the two values it is the difference of: each is checked on "
        "its own)")


def test_a_difference_of_its_own_row_is_the_rows_arithmetic() -> None:
    text = "| Metric | Live | Replay | Delta |\n|---|---|---|---|\n| `recall@5` | 96.96% | 97.35% | +0.38pp |\n"
    assert [w for _, _, _, w in scan(text)] == ["96.96%", "97.35%"]


# --- the evidence source named in a reason ----------------------------------------------------

@pytest.mark.parametrize("source,entry", [
    ("evidence", "no evidence-file entry whose gate passes"),
    ("ledger", "no citable ledger entry whose gate passes"),
])
def test_the_reason_names_the_evidence_source_used(source: str, entry: str) -> None:
    text = "On LongMemEval-S, recall@5 is 97.17%."
    assert messages(text, values=[], source=source) == [("claim-number-citable", "fail", (
        f'README.md:1:31: untestable: recall@5 97.17%: no evidence backs any number ({entry}) in "{text}"'))]


# --- one phrase, one rule -------------------------------------------------------------------------

@pytest.mark.parametrize("text,rule,written", [
    ("Sibyl tops the LongMemEval leaderboard.", "overclaim-number-one", "tops the LongMemEval leaderboard"),
    ("Its R@5 comes with flawless recall.", "overclaim-perfect-recall", "flawless recall"),
    ("The highest recall score published.", "overclaim-highest-published", "highest recall score published"),
    ("Sibyl's retrieval never misses an evidence session.", "claim-number-citable", "never misses"),
], ids=["tops-the-leaderboard", "flawless-recall", "highest-published", "never-misses"])
def test_a_phrase_is_reported_by_one_rule(text: str, rule: str, written: str) -> None:
    assert [(r, w) for r, _, _, w in scan(text)] == [(rule, written)]


# --- a share above 100% -------------------------------------------------------------------

@pytest.mark.parametrize("text,written,col", [
    ("On LongMemEval-S, recall@5 is 101%.", "101%", 31),
    ("On LongMemEval-S, recall@5 is 980%.", "980%", 31),
    ("On LongMemEval-S, recall@5 is 9⁸⁰%.", "980%", 31),
    ("On LongMemEval-S, recall@5 is 510/500.", "510/500", 31),
], ids=["101", "980", "superscript-zero", "count-over-all"])
def test_a_share_above_all_questions_is_contradicted(text: str, written: str, col: int) -> None:
    shown = written if "/" not in written else f"{written} (read as 102%)"
    quoted = unicodedata.normalize("NFKC", text)  # messages quote the text as read: ⁸⁰ is 80
    assert messages(text) == [("claim-number-citable", "fail", (
        f"README.md:1:{col}: contradicted: recall@5 {shown} matches no citable value at the precision written; the "
        f'evidence gives recall@5 on LongMemEval-S 0.9717 (97.17%) (/citable/0, run.json) in "{quoted}"'))]


def test_a_share_above_100_percent_in_a_metric_column_is_contradicted() -> None:
    text = "| System | LongMemEval-S R@5 |\n|---|---|\n| ours | 101% |\n"
    assert ("claim-number-citable", "contradicted", "101%") in failing(text)


@pytest.mark.parametrize("text", [
    "On LongMemEval-S, search is 150% faster and recall@5 is 97.17%.",
    "Released 2026/12: on LongMemEval-S recall@5 is 97.17%.",
    "| System | LongMemEval-S latency vs baseline | R@5 |\n|---|---|---|\n| ours | 150% | 97.17% |\n",
], ids=["speed", "date", "latency-column"])
def test_a_number_above_100_percent_of_something_else_is_no_claim(text: str) -> None:
    assert passes(text), scan(text)


# --- a change and the value it reached ------------------------------------------------------

def test_the_value_a_change_reached_is_a_claim() -> None:
    text = "On LongMemEval-S, recall@5 improved by 2% to 99%."
    assert messages(text) == [("claim-number-citable", "fail", (
        "README.md:1:46: contradicted: recall@5 99% matches no citable value at the precision written; the evidence "
        f'gives recall@5 on LongMemEval-S 0.9717 (97.17%) (/citable/0, run.json) in "{text}"'))]
    assert passes("On LongMemEval-S, recall@5 improved by 2% to 97.17%.")


# --- granularity said in prose, or by the section ---------------------------------------------

@pytest.mark.parametrize("text,grain", [
    ("On LongMemEval-S, recall@5 computed over turns is 97.17%.", "turn"),
    ("On LongMemEval-S, recall@5 measured over messages is 97.17%.", "message"),
    ("On LongMemEval-S, recall@5 (turns) is 97.17%.", "turn"),
    ("On LongMemEval-S, recall@5 by turn is 97.17%.", "turn"),
    ("Counting utterances, on LongMemEval-S recall@5 is 97.17%.", "utterance"),
], ids=["computed-over", "measured-over", "parenthesis", "by-turn", "counting"])
def test_a_granularity_said_in_prose_qualifies_the_metric(text: str, grain: str) -> None:
    [(rule, status, message)] = messages(text, values=SESSION)
    assert (rule, status) == ("claim-number-citable", "fail")
    assert message.endswith(f"untestable: recall@5 97.17%: the evidence's recall@5 is session-level; a {grain}-level "
                            f'recall@5 is another metric in "{text}"'), message


@pytest.mark.parametrize("text,line", [
    ("## Turn-level retrieval\n\nOn LongMemEval-S, recall@5 is 97.17%.\n", 3),
    ("- Turn-level retrieval:\n  - On LongMemEval-S, recall@5 is 97.17%.\n", 2),
    ("| System | LongMemEval-S R@5 |\n|---|---|\n| ours | 97.17% (turn-level) |\n", 3),
    ("## Turn-level retrieval\n\n| System | LongMemEval-S R@5 |\n|---|---|\n| ours | 97.17% |\n", 5),
], ids=["heading", "list-parent", "in-the-cell", "heading-over-a-table"])
def test_a_granularity_the_section_names_qualifies_the_metrics_under_it(text: str, line: int) -> None:
    [(rule, status, message)] = messages(text, values=SESSION)
    assert (rule, status) == ("claim-number-citable", "fail")
    assert f"README.md:{line}:" in message and "a turn-level recall@5 is another metric" in message, message


@pytest.mark.parametrize("text", [
    "On LongMemEval-S, recall@5 is 97.17% across sessions.",
    "On LongMemEval-S, recall@5 is 97.17% on multi-turn conversations.",
    "## Session-level retrieval\n\nOn LongMemEval-S, recall@5 is 97.17%.\n",
    "On LongMemEval-S, recall@5 is 97.17%, counting tokens.",
], ids=["across-sessions", "multi-turn", "session-heading", "tokens-spent"])
def test_prose_that_qualifies_nothing_or_the_declared_granularity_passes(text: str) -> None:
    assert all(status == "pass" for _, status, _ in messages(text, values=SESSION)), messages(text, values=SESSION)


# --- the judge named in other words ----------------------------------------------------------

@pytest.mark.parametrize("text", [
    "## GPT-4o judged results\n\nOn LongMemEval-S, QA accuracy is 88.6%.\n",
    "On LongMemEval-S, QA accuracy is 88.6% using GPT-4.1 as the judge.",
    "On LongMemEval-S, QA accuracy is 88.6% (the judge is claude-3.5-sonnet).",
    "On LongMemEval-S, QA accuracy is 88.6%, judged with gpt-4o.",
], ids=["model-judged-heading", "as-the-judge", "the-judge-is", "judged-with"])
def test_a_qa_number_of_another_judge_is_untestable(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import claimscan

    monkeypatch.setattr(claimscan, "ENTRIES", [dict(e, judge="gpt-4o-mini") for e in claimscan.ENTRIES])
    [(rule, status, message)] = messages(text)
    assert (rule, status) == ("claim-number-citable", "fail")
    assert "untestable: qa_accuracy 88.6%: the evidence has no qa_accuracy on LongMemEval-S judged by " in message


def test_a_qa_number_of_its_own_judge_is_confirmed(monkeypatch: pytest.MonkeyPatch) -> None:
    import claimscan

    monkeypatch.setattr(claimscan, "ENTRIES", [dict(e, judge="gpt-4o-mini") for e in claimscan.ENTRIES])
    assert [s for _, s, _ in messages("On LongMemEval-S, QA accuracy is 88.6%, judged with gpt-4o-mini.")] == ["pass"]


# --- a category named by its number ------------------------------------------------------------

def test_a_category_named_by_its_number_is_a_slice_of_its_own() -> None:
    text = "On LongMemEval-S, recall@5 is 97.17% on category 5."
    assert messages(text) == [("claim-number-citable", "fail", (
        "README.md:1:31: untestable: recall@5 of category 5 97.17%: the evidence has no recall@5 of category 5 on "
        f'LongMemEval-S in "{text}"'))]
    assert passes("On LongMemEval-S (categories 1-5), recall@5 is 97.17%.")


# --- text defined once and used by name (reStructuredText, AsciiDoc) ----------------------------

@pytest.mark.parametrize("text,path,where,written", [
    (".. |r5| replace:: 99%\n\nOn LongMemEval-S, recall@5 is |r5|.\n", "README.rst", "3:31", "|r5|"),
    (":r5: 99%\n\nOn LongMemEval-S, recall@5 is {r5}.\n", "README.adoc", "3:31", "{r5}"),
    (":r5: 99%\n\n|===\n|System |LongMemEval-S recall@5\n\n|ours |{r5}\n|===\n", "README.adoc", "6:8", "{r5}"),
], ids=["rst-substitution", "adoc-attribute", "adoc-attribute-in-table"])
def test_a_substitution_reads_as_its_text_where_it_is_used(text: str, path: str, where: str, written: str) -> None:
    assert failing_in(text, path) == [("claim-number-citable", "contradicted", written)]
    [(_, _, message)] = messages(text, path)
    assert message.startswith(f"{path}:{where}: contradicted: recall@5 99% matches no citable value"), message


def test_a_substitution_of_the_backed_value_passes() -> None:
    text = ".. |r5| replace:: 97.17%\n\nOn LongMemEval-S, recall@5 is |r5|.\n"
    assert [m for _, s, m in messages(text, "README.rst") if s != "pass"] == []


def failing_in(text: str, path: str) -> list[tuple[str, str, str]]:
    return [(rule, status, written) for rule, result, status, written in scan(text, path) if result == "fail"]


def test_a_definition_used_nowhere_is_read_as_text() -> None:
    assert failing_in(".. |r5| replace:: LongMemEval-S recall@5 99%\n", "README.rst") == [
        ("claim-number-citable", "contradicted", "99%")]


# --- "the best of any system" ---------------------------------------------------------------------

@pytest.mark.parametrize("text,written", [
    ("On LongMemEval-S, recall@5 is 97.17%, the best of any system.", "best of any system"),
    ("On LongMemEval-S, recall@5 is 97.17%, the best among all published memory systems.",
     "best among all published memory systems"),
], ids=["of-any", "among-all-published"])
def test_best_of_every_system_is_untestable(text: str, written: str) -> None:
    assert ("overclaim-best", "untestable", written) in failing(text)


def test_best_of_the_pages_own_runs_passes() -> None:
    assert passes("On LongMemEval-S, recall@5 is 97.17%, the best of all our runs.")


def test_substitutions_that_expand_past_the_file_fail_readable() -> None:
    text = ".. |a| replace:: " + "x" * 40 + "\n\n" + "|a| " * 5 + "\n"
    assert [(r.rule, r.status, r.message) for r in _readable(text, "README.rst")] == [
        ("claim-text-readable", "fail", "README.rst:3:9: substitutions expand past the size of the file: |a| and the "
                                        "uses after it are not read as the page shows them")]


def _readable(text: str, path: str) -> list:
    from claimscan import _results

    return [r for r in _results(text, path) if r.rule == "claim-text-readable" and r.status == "fail"]


# --- metrics listed first, then their numbers ------------------------------------------------------

def test_metrics_listed_first_take_their_numbers_in_order() -> None:
    text = "On LongMemEval-S, recall@5 and hit@5 are 98% and 97.17%."
    assert messages(text) == [
        ("claim-number-citable", "fail", (
            "README.md:1:50: contradicted: hit@5 97.17% matches no citable value at the precision written; the "
            f'evidence gives hit@5 on LongMemEval-S 0.98 (98%) (/citable/0, run.json) in "{text}"')),
        ("claim-hit-as-recall", "fail", (
            "README.md:1:42: contradicted: 98% is called 'recall@5' but it is the hit@5 value 0.98 (98%) of "
            f'/citable/0, not strict recall (the citable strict recall differs) in "{text}"'))]


@pytest.mark.parametrize("text", [
    "On LongMemEval-S, recall@5 and hit@5 are 97.17% and 98%.",
    "On LongMemEval-S, recall@5, hit@5 and nDCG@5 are 97.17%, 98% and 91.07%.",
    "On LongMemEval-S, recall@5 / hit@5: 97.17% / 98%.",
    "On LongMemEval-S, hit@5 is 98% and recall@5 is 97.17%.",
], ids=["and", "three", "slash", "each-its-own"])
def test_metrics_listed_in_the_order_of_their_numbers_are_confirmed(text: str) -> None:
    assert passes(text), scan(text)


@pytest.mark.parametrize("text,col", [
    ("On LongMemEval-S, recall@5 and hit@5 are both 98%.", 47),
    ("On LongMemEval-S, recall@5 and hit@5 are 98%.", 42),
    ("On LongMemEval-S, recall@5 = hit@5 = 98%.", 38),
], ids=["both", "are", "equals"])
def test_one_number_after_a_list_of_metrics_is_claimed_for_each(text: str, col: int) -> None:
    assert messages(text) == [
        ("claim-number-citable", "pass", (
            f"README.md:1:{col}: confirmed: hit@5 98% matches citable hit@5 0.98 (98%) of /citable/0 (run.json) in "
            f'"{text}"')),
        ("claim-hit-as-recall", "fail", (
            f"README.md:1:{col}: contradicted: 98% is called 'recall@5' but it is the hit@5 value 0.98 (98%) of "
            f'/citable/0, not strict recall (the citable strict recall differs) in "{text}"'))]


@pytest.mark.parametrize("text", [
    "On LongMemEval-S, besides hit@5, recall@5 is 97.17%.",
    "On LongMemEval-S, recall@5 and recall@10 are both 97.17%.",
    "On LongMemEval-S, recall@5 and recall@10 are 97.17% and 97.17%, and hit@5 is 98%.",
], ids=["comma-is-no-list", "both-backed", "list-then-own"])
def test_metrics_that_share_a_backed_number_pass(text: str) -> None:
    assert passes(text), scan(text)
