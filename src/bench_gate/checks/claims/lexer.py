"""Finding result claims in the blocks of a document: normalised text, numbers, metrics, slices.

Normalisation comes first, so that spellings that read the same to a person are the same to
the scan: Unicode NFKC (``99.0％`` is ``99.0%``, ``ＳＯＴＡ`` is ``SOTA``), zero-width characters
removed (``9\u200b9%`` is ``99%``), every dash is ``-``, look-alike Cyrillic and Greek letters are
their Latin twins (the Unicode confusables table), and runs of white space are one space (``99  %`` is ``99 %``). Escaped and
entity percent signs were already resolved by the Markdown reader.

A **number** is a percentage (``96.6%``, ``96.6 %``, ``96.6 percent``, ``96.6 per cent``,
``96.6 pct``, ``ninety-six point six percent``, ``966‰``, ``966 per mille``), a decimal fraction (``0.966``, ``.966``,
``9.66e-1``), a count of questions (``498 of 500 questions``, ``498 of the 500``, ``10 out of 10``:
the fraction, at the precision of one in n) or a categorical word ("a perfect score", "answers
every question correctly", "zero errors", "never misses": exactly 1) or a difference in points
(``+2.3 pp``: a comparison of two values, untestable unless it is its table row's own arithmetic). Where a metric is written right next to it,
a *bare* number is one too (``recall@5 is 99.6`` reads 99.6%, ``R@5: 1`` reads 1.0, every cell
under ``| R@5 (%) |``, every value of a chart that names a metric), and so is a bare count
(``R@5 = 498/500``, ``99.6 / 100``). A range (``95-99%``, ``95 to 99%``) and a comma decimal (``0,99``,
``96,6 %``) are *ambiguous*: a claim must state one value.

A number is a claim when it is in a benchmark context (see :class:`_Finder`): a benchmark or a
metric named in its sentence, cell, row, column, caption, list parents or headings, or a known
benchmark anywhere in the file. It is not a claim when it is plainly not a result: a bare
number away from a metric or followed by a unit (``500 questions``, ``top 5``, ``k = 5``), part of
a word, version or path (``gpt-5.2``, ``v0.7``, ``predates 1.0``), a quantity or price (``0.9
seconds``, ``0.005 USD``), a share of a resource (``10% of the corpus``), a parameter (``a
threshold of 0.1``), a change (``improved by 2%``), inside an inline code span (an example) or after "not"/"never" (a disclaimer: ``Not
"100% recall."``), or in a worked example of a definition (a sentence with a small ratio such as
``1/2`` and a verb like "contributes" or "scores").

A claim's **metric** is found by structure first: in a table, the column header, else the first
cell of the row (``| recall@5 | 96.96% |``), else a cell of the row naming a metric (``| System |
Metric | Score |``); in prose, a metric written right next to the number (``R@5 = 100%``,
``96.96% R@5``, ``recall@5 of 96.6%``, ``97% top-5 recall``), else the only metric the sentence
names, however far away, else the nearest one; else a specific metric the list parents, caption
or headings name. Its **benchmark** is the nearest one named: the sentence, the cell and its row
and header, the list parents, the caption, the headings, else the page's only benchmark (a page
naming several leaves it ``unsure``). "Less than 10%", "at least 0.9" and the like are bounds;
"up to 99.6%" is a value. A claim also carries the question count written with it and the judge
a QA number names.

A claim's **slice** is the question type named by the first cell of its table row, by its column
header, or in its sentence (``single-session preference``, or a short name such as "preference
questions"), matched against the slice names the ledger knows; a claim with a slice is matched
against that slice of the citable artifacts. In a sentence naming several types, each number
belongs to the type of its own clause (:func:`slice_for`).
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any

from bench_gate.records import record, replace
from bench_gate.checks.claims.commonmark import Block, Document, Table
from bench_gate.text.canonical import ascii_lookalike

# --- normalisation -----------------------------------------------------------------------

ZERO_WIDTH = frozenset({0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD, 0x180E})
DASHES = frozenset("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d")


@record
class Normal:
    """Normalised text and, for each character, its index in the block's text."""

    text: str
    index: tuple[int, ...]

    def source(self, i: int) -> int:
        return self.index[min(max(i, 0), len(self.index) - 1)] if self.index else 0


@lru_cache(maxsize=65536)
def normalise(text: str) -> Normal:
    out: list[str] = []
    idx: list[int] = []
    for i, c in enumerate(text):
        if ord(c) in ZERO_WIDTH:
            continue
        for ch in unicodedata.normalize("NFKC", c):
            if ch in DASHES:
                ch = "-"
            if not ch.isascii() and ch.isalpha():
                ch = ascii_lookalike(ch)
            if ch.isspace():
                if out and out[-1] == " ":
                    continue
                ch = " "
            out.append(ch)
            idx.append(i)
    return Normal("".join(out), tuple(idx))


@lru_cache(maxsize=65536)
def phrase_text(n: Normal) -> Normal:
    """For phrase matching: lower case, ``-``/``_`` as spaces, dots of acronyms gone
    (``S.O.T.A.`` is ``sota``), markup characters gone, one space between words."""
    lowered = n.text.lower()
    drop = set()
    for m in re.finditer(r"(?<![a-z0-9])(?:[a-z]\.){2,}", lowered):
        drop.update(i for i in range(m.start(), m.end()) if lowered[i] == ".")
    out: list[str] = []
    idx: list[int] = []
    for i, ch in enumerate(lowered):
        if i in drop or ch in "*`~":
            continue
        if ch in "-_":
            ch = " "
        if ch == " " and out and out[-1] == " ":
            continue
        out.append(ch)
        idx.append(n.index[i])
    return Normal("".join(out), tuple(idx))


# --- sentences ---------------------------------------------------------------------------

_SPLIT = re.compile(r"(?<=[.!?])[\"'”’)*]*\s+(?=\S)")
_ABBREVIATION = re.compile(r"(?:^|[\s(])(?:e\.g|i\.e|a\.k\.a|vs|etc|cf|approx|no|fig)\.$", re.IGNORECASE)


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of a normalised block text."""
    out: list[tuple[int, int]] = []
    begin = 0
    for m in _SPLIT.finditer(text):
        end = m.start()
        while end > begin and text[end - 1] in "\"'”’)*":
            end -= 1
        # only the last characters can be an abbreviation: a window keeps this linear
        # (the character before the sentence is the space the split consumed: it stands for ``^``)
        if _ABBREVIATION.search(text, max(begin - 1, end - 12, 0), end):
            continue
        out.append((begin, m.start()))
        begin = m.end()
    out.append((begin, len(text)))
    return out


# --- metrics, benchmarks, slices ----------------------------------------------------------

WORDS = {"one": "1", "three": "3", "five": "5", "ten": "10", "twenty": "20"}
_K = r"(\d+|k|one|three|five|ten|twenty)"

DEFAULT_METRICS: dict[str, str] = {
    # Metrics the scan has no meaning for are still metrics: each stands for itself (a label such
    # as "QA F1" or "MAP@10" is never backed by a citable value of another metric).
    # LongMemEval's recall_any@k is hit@k: one evidence session in the top k
    r"\brecall_any\s*@\s*" + _K: "hit@{1}",
    r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\s*@\s*\d+\b": "{0}",
    r"\b(?:MAP|mean\s+average\s+precision)\s*@\s*" + _K: "map@{1}",
    # LoCoMo's scores: the LLM judge's J, BLEU-1
    r"\bLLM[- ]as[- ]a[- ]judge(?:\s+(?:score|accuracy))?\b|\bJ[- ]score\b|\(J\)|\bJ(?=\s*[:=])": "j",
    r"\b(?:QA\s+|token\s+)?F1(?:\s+score)?\b": "f1",
    r"\bexact[- ]match\b": "exact_match",
    r"\b(?:answer|response)\s+correctness\b|\bcorrectness\b": "answer_correctness",
    r"\b(?:LLM[- ])?judge\s+score\b|\bjudge[- ]rated\s+score\b": "judge_score",
    r"\bBLEU[- ]?1\b": "bleu1",
    r"\b(?:BLEU|ROUGE(?:-[L12])?|BERTScore|METEOR)\b": "{0}",
    r"\btop\s?-?\s?" + _K + r"\s+(?:strict\s+|session\s+)?recall\b": "recall@{1}",
    r"\b(?:strict\s+)?recall\s*\(\s*top\s?-?\s?" + _K + r"\s*\)": "recall@{1}",
    r"\b(?:strict\s+)?(?:multi-answer\s+)?recall\s*@\s*" + _K: "recall@{1}",
    r"\brecall\s+at\s+" + _K + r"\b": "recall@{1}",
    r"\bR\s?@\s?" + _K: "recall@{1}",
    r"\bhits?(?:[\s-]?rate)?\s*@\s*" + _K: "hit@{1}",
    r"\bH\s?@\s?" + _K: "hit@{1}",
    r"\bsuccess\s*@\s*" + _K: "hit@{1}",
    r"\btop\s?-?\s?" + _K + r"\s+(?:hit\s+rate|hit|accuracy)\b": "hit@{1}",
    # The same metrics in words. A share *of the evidence items* is strict recall: "98% of evidence
    # sessions are retrieved in the top 5" (or "the share of evidence sessions in the top 5")
    # counts sessions, not questions; a share of the questions with an evidence item in the top k
    # is hit@k ("for 98% of questions, one evidence session ...").
    r"(?:(?<=%)|(?<=% )|(?<=percent )|(?<=per cent )|(?<=pct )|\b(?:share|fraction|proportion|percentage)\s+)"
    r"of\s+(?:the\s+|all\s+(?:the\s+)?|their\s+|its\s+)?"
    r"(?:evidence|answer|gold|relevant|correct|ground[- ]truth|target|needle)(?:\s+[\w-]+){0,5}?"
    r"\s+(?:in|reached|reach|reaches|within|made|make|makes|into)\s+the\s+top[\s-]?" + _K + r"\b": "recall@{1}",
    # Every evidence item in the top k is all-recall, one is a hit.
    r"\b(?:all|every)\s+(?:of\s+)?(?:the\s+|its\s+)?(?:evidence|answer|gold|relevant|correct)(?:\s+[\w-]+){0,3}?"
    r"\s+(?:in|reached|reaches|within|made|makes)\s+the\s+top[\s-]?" + _K + r"\b": "recall_all@{1}",
    # ... and so is every item that holds one: "every session with an answer is in the top 5", "all
    # sessions containing evidence are in the top 5" (not "for each question, an answer session ...")
    r"\b(?:all|every|each)\s+(?!(?:of\s+)?(?:the\s+)?(?:\d+\s+)?(?:questions?|quer(?:y|ies)|cases?|probes?|tasks?|"
    r"samples?)\b)(?:[\w'’-]+\s+){0,5}?(?:(?:a|an|any|the|its|their|some)\s+)?"
    r"(?:answers?|evidence|gold|relevant|correct)(?:\s+[\w-]+){0,5}?"
    r"\s+(?:in|reached|reaches|within|made|makes)\s+the\s+top[\s-]?" + _K + r"\b": "recall_all@{1}",
    r"\b(?:(?:a|an|any|one|the|some|at\s+least\s+one)\s+)?(?:correct|relevant|gold|evidence)(?:\s+[\w-]+){0,5}?"
    r"\s+(?:in|reached|reaches|within|made|makes)\s+the\s+top[\s-]?" + _K + r"\b": "hit@{1}",
    # "an answer session is in the top 5" is one of a question's answer sessions, a hit; a share of
    # the answer sessions is recall (above), and "the answer sessions" says neither
    r"\b(?:a|an|any|one|at\s+least\s+one)\s+(?:of\s+(?:the|its|their)\s+)?answer(?:\s+[\w-]+){0,5}?"
    r"\s+(?:in|reached|reaches|within|made|makes)\s+the\s+top[\s-]?" + _K + r"\b": "hit@{1}",
    r"\bn?dcg\s*@\s*" + _K: "ndcg@{1}",
    r"\b(?:precision|P)\s?@\s?" + _K: "precision@{1}",
    r"\bmrr\b": "mrr",
    r"\b(?:QA|question[- ]answering|answer|end[- ]to[- ]end|judge)[- ]?accuracy\b": "qa_accuracy",
    # Answering in words is QA too: "answers 94% of questions correctly", "94% correct answers".
    r"\banswer(?:s|ed|ing)?\b(?=(?:\s+\S+){0,5}?\s+correctly\b)": "qa_accuracy",
    r"\bcorrect(?:ly)?\s+answer(?:s|ed)?\b(?!\s+sessions?\b)|\banswered\s+correctly\b": "qa_accuracy",
    r"\bhit[- ]rate\b": "hit@*",
    r"\brecall\b": "recall@*",
    r"\bhits?\b": "hit@*",
    r"\bn?dcg\b": "ndcg@*",
    r"\baccuracy\b": "qa_accuracy",
}
_LME = r"(?:Long[- _]?Mem[- _]?Eval|LME)"
DEFAULT_BENCHMARKS: dict[str, str] = {
    # The oracle split holds only the evidence sessions: a result on it is not a LongMemEval-S result.
    r"\b" + _LME + r"[- _]?\(?\s?oracle\b\)?": "longmemeval-oracle",
    r"\b" + _LME + r"[- _]?M\b": "longmemeval-m",
    # The split named in words next to the benchmark: "the oracle split of LongMemEval".
    r"\boracle\s+(?:split|setting|variant|version|set|subset|data|dataset|haystacks?)\b": "longmemeval-oracle",
    r"\b(?:medium|M)\s+(?:split|setting|variant|version)\b": "longmemeval-m",
    # A LongMemEval of another name or version is a benchmark of its own: "LongMemEval-V2",
    # "Persona-LongMemEval" (each its own key, never matched with LongMemEval-S evidence).
    r"\bLong[- _]?Mem[- _]?Eval[- _]?v\d+\b|\b(?!Long)[A-Z][A-Za-z0-9]+-Long[- _]?Mem[- _]?Eval\b": "{0}",
    # The split written after the name, as a suffix or in parentheses: S (and the cleaned S file) is
    # LongMemEval-S; any other ("LongMemEval-L", "LongMemEval_XL", "LongMemEval (medium)") is a
    # benchmark of its own, never matched with LongMemEval-S evidence. A metric written after an
    # underscore (a badge's "LongMemEval_R@10") and "-style" or "-like" name no split.
    r"\bLong[- _]?Mem[- _]?Eval(?:[- _]?S(?:[- _]cleaned)?|[- _]cleaned)?\s?\(\s?(?:S|small|cleaned|LME(?:-S)?|"
    r"S,\s?cleaned)\s?\)": "longmemeval",
    r"\bLong[- _]?Mem[- _]?Eval(?:[-_](?!S(?:\W|$|_cleaned))(?!(?:R|H|P|recall|hit|ndcg|dcg|mrr|qa|accuracy|style|like|"
    r"based|format|compatible|inspired|type)(?:\W|_|$))[A-Za-z][A-Za-z0-9]*(?![@%\w])|\s?\(\s?[A-Za-z][\w-]{0,15}\s?\))": "{0}",
    r"\bLong[- _]?Mem[- _]?Eval(?:[- _]?S)?(?:[- _]cleaned)?(?![A-Za-z0-9])": "longmemeval",
    r"\bLME(?:[- _]?S)?\b": "longmemeval",
    r"\bLoCoMo\b": "locomo",
    r"\bLong[- _]?Mem[- _]?Bench\b|\bLMEB\b": "longmembench",
    r"(?-i:\bBEAM\b)": "beam",  # upper case only: "beam search" is no benchmark
    r"\bMemory[- ]?Agent[- ]?Bench\b": "memoryagentbench",
}
DEFAULT_SLICES: tuple[str, ...] = (
    "single-session-user", "single-session-assistant", "single-session-preference", "multi-session",
    "knowledge-update", "temporal-reasoning",
)
# The short names people write for question types, each the type it means. In prose a short name
# names a type only when a word such as "questions" or "category" follows it ("preference
# questions", "temporal category"); a table cell that is just the short name names it too.
# Abstention and the multi-hop / single-hop / open-domain / adversarial categories of other
# benchmarks are slices of their own: a number attributed to one the ledger does not hold
# matches nothing, never the overall value.
DEFAULT_SLICE_ALIASES: dict[str, str] = {
    "single-session preference": "single-session-preference", "preference": "single-session-preference",
    "preferences": "single-session-preference", "single-session user": "single-session-user",
    "user": "single-session-user", "single-session assistant": "single-session-assistant",
    "assistant": "single-session-assistant", "temporal": "temporal-reasoning",
    "knowledge updates": "knowledge-update", "update": "knowledge-update", "updates": "knowledge-update",
    "multi session": "multi-session", "multi-session reasoning": "multi-session", "abstention": "abstention",
    "abstentions": "abstention", "unanswerable": "abstention", "multi-hop": "multi-hop", "single-hop": "single-hop",
    "open-domain": "open-domain", "adversarial": "adversarial",
}
_TYPE_NOUN = r"(?:questions?|qs|items|cases|category|categories|type|types|slice|subset|split|tasks?)"
# Names that are their own slice wherever they appear (no noun needed): no one writes them otherwise.
_SELF_EVIDENT = frozenset({"abstention", "abstentions", "multi-hop", "single-hop", "open-domain"})


@record
class Mention:
    start: int
    end: int
    key: str  # canonical: recall@5, recall@*, qa_accuracy, longmemeval, single-session-user
    raw: str


@lru_cache(maxsize=32)
def _compiled(patterns: tuple[tuple[str, str], ...]) -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((re.compile(p, re.IGNORECASE), c) for p, c in patterns)


class Spans:
    """Non-overlapping spans of a text, sorted: adding and testing one is logarithmic, so that a
    page of a million characters is read in linear time."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def overlaps(self, start: int, end: int) -> bool:
        i = bisect.bisect_left(self.starts, start)
        if i < len(self.starts) and self.starts[i] < end:
            return True
        return i > 0 and self.ends[i - 1] > start

    def add(self, start: int, end: int) -> None:
        i = bisect.bisect_left(self.starts, start)
        self.starts.insert(i, start)
        self.ends.insert(i, end)


def mentions(text: str, patterns: dict[str, str]) -> list[Mention]:
    """Non-overlapping mentions of ``patterns`` (earlier patterns win), in text order."""
    found: list[Mention] = []
    taken = Spans()
    for rx, canon in _compiled(tuple(patterns.items())):
        for m in rx.finditer(text):
            if m.end() == m.start() or taken.overlaps(m.start(), m.end()):
                continue
            taken.add(m.start(), m.end())
            key = canon
            if canon == "{0}":  # a metric the scan does not know: its own name, spaces as "_"
                key = re.sub(r"\s+", "", m.group(0))
            elif "{1}" in canon and m.groups():
                k = m.group(1).lower()
                key = canon.replace("{1}", "*" if k == "k" else WORDS.get(k, k))
            found.append(Mention(m.start(), m.end(), key.lower(), m.group(0)))
    return sorted(found, key=lambda x: x.start)


def slice_patterns(names: tuple[str, ...], aliases: tuple[tuple[str, str], ...] = ()) -> dict[str, str]:
    """A pattern per slice name: ``single-session-preference`` is also ``single session preference``.

    ``aliases`` (short name, slice) add the short names people write: in prose followed by a word
    such as "questions" ("preference questions") or as the label a sentence starts with
    ("Preference: R@5 = 100%"), or as a whole table cell ("| temporal |")."""
    out = {}
    for name in sorted(set(names), key=len, reverse=True):
        words = [re.escape(w) for w in re.split(r"[-_ ]+", name) if w]
        out[r"(?<![\w-])" + r"[-_ ]?".join(words) + r"(?![\w-])"] = name
    for alias, name in sorted(aliases, key=lambda x: len(x[0]), reverse=True):
        words = r"[-_ ]?".join(re.escape(w) for w in re.split(r"[-_ ]+", alias) if w)
        if alias in _SELF_EVIDENT:
            out.setdefault(r"(?<![\w-])" + words + r"(?![\w-])", name)
        else:
            out.setdefault(r"(?<![\w-])" + words + r"(?=\s+" + _TYPE_NOUN + r"\b)|^\s*" + words
                           + r"(?:\s+" + _TYPE_NOUN + r")?\s*(?:\(\s*\d+\s*\))?\s*(?:$|:)", name)
    # A category named by its number ("category 5", "cat. 2") is a slice too, whose number papers
    # name differently (LoCoMo's category 1 is multi-hop in one, single-hop in another): it is
    # matched by no named slice, so its numbers are untestable, never taken for the overall value.
    out.setdefault(_CATEGORY_NUMBER, "category {1}")
    return out


_CATEGORY_NUMBER = r"(?<![\w-])(?:category|cat\.)\s?#?(\d{1,2})(?![\w-]|\s*(?:-|–|to|and|or|,|&)\s*\d)"


def _named_slices(found: list[Mention]) -> list[Mention]:
    """The slices a text names, a category's number left out when it also names the slice by name
    ("Category 4 (single-hop)")."""
    named = [m for m in found if not m.key.startswith("category ")]
    return named if named else found


_EXCLUDED_BEFORE = re.compile(r"\b(?:excluding|without|except|minus|not\s+counting|other\s+than)\s+(?:the\s+)?$")
_EXCLUDED_AFTER = re.compile(r"^\s*(?:" + _TYPE_NOUN + r"\s+)?(?:are\s+|were\s+)?(?:excluded|removed|dropped|"
                             r"left\s+out)\b")
_OVERALL = re.compile(r"\b(?:overall|in\s+total|across\s+(?:all|every)\b|(?:on\s+)?all\s+(?:\d+\s+)?questions|"
                      r"on\s+average|averaged)\b")
_CLAUSE = re.compile(r"[;,]|\s(?:and|while|whereas|but|vs\.?|versus)\s")


# The judge a QA number names: "GPT-4o-mini judge", "judged by gpt-4o", "judge: claude-3.5-sonnet".
_MODEL = r"((?:gpt|claude|gemini|llama|qwen|mistral|deepseek|o\d)[\w.:-]*)"
# Also "GPT-4o judged", "GPT-4.1 as the judge", "judged with gpt-4o", "the judge is claude-3.5".
JUDGE = re.compile(r"\b" + _MODEL + r"(?:\s+as)?\s+(?:an?\s+|the\s+)?(?:llm[- ])?judge\b|\bjudged\s+(?:by|with|using)\s+"
                   + _MODEL + r"|\bjudge(?:\s+model)?\s*(?:[:=]|\bis\b|\bwas\b)?\s*" + _MODEL + r"|\b" + _MODEL
                   + r"[\s-]+judged\b", re.IGNORECASE)


def judge_in(text: str) -> str | None:
    """The judge model a text names, lower case, or None."""
    m = JUDGE.search(text)
    if m is None:
        return None
    return next(g for g in m.groups() if g).lower().rstrip(".,;:")


# The kind of run a number is attributed to: a number "in the live run" is matched only against
# entries of live runs, one "offline" only against offline runs.
RUN_KINDS: dict[str, str] = {r"\blive\b": "live", r"\boffline\b": "offline"}


def _named(text: str, slices: list[Mention]) -> list[Mention]:
    """The slice mentions of a text that name a slice (not "excluding abstention questions")."""
    return [x for x in slices if not _EXCLUDED_BEFORE.search(text[max(0, x.start - 30):x.start])
            and not _EXCLUDED_AFTER.match(text[x.end:x.end + 40])]


def respectively(text: str, starts: list[int], slices: list[Mention]) -> list[str] | None:
    """The slices of the numbers at ``starts`` when a sentence lists the types first and then as
    many numbers ("multi-session and knowledge-update R@5 are 91.05% and 99.36%"): the n-th number
    belongs to the n-th type. None when the sentence is not written that way."""
    named = _named(text, slices)
    if len(named) < 2 or len(starts) != len(named) or len({x.key for x in named}) != len(named):
        return None
    if any(x.end > min(starts) for x in named):
        return None
    return [x.key for x in named]


def _qualified(bench: list[Mention]) -> list[Mention]:
    """Benchmark mentions without a plain LongMemEval that a split named next to it qualifies: in
    "the oracle split of LongMemEval" the number is on the oracle split, not on LongMemEval-S."""
    split = [x for x in bench if x.key.startswith("longmemeval") and x.key != "longmemeval"]
    if not split:
        return bench
    return [x for x in bench if x.key != "longmemeval"
            or not any(abs(x.start - y.end) <= 40 or abs(y.start - x.end) <= 40 for y in split)]


class _Clauses:
    """The slice (or kind of run) each number of one sentence belongs to, with the sentence's
    clauses and named mentions computed once (see :func:`slice_for`)."""

    def __init__(self, text: str, found: list[Mention]) -> None:
        self.text = text
        self.found = found
        self.named = _named(text, found) if found else []
        self.cuts = [m.start() for m in _CLAUSE.finditer(text)] if self.named else []

    def owner(self, start: int, end: int) -> str | None:
        named = self.named
        if not named:
            return None
        i = bisect.bisect_left(self.cuts, start)
        lo = self.cuts[i - 1] if i > 0 else -1
        j = bisect.bisect_left(self.cuts, end)
        hi = self.cuts[j] if j < len(self.cuts) else len(self.text)
        before = [x for x in named if x.end <= start]
        after = [x for x in named if x.start >= end]
        if _OVERALL.search(self.text, lo + 1, hi) and not any(lo < x.start and x.end <= hi for x in named):
            return None  # "... and 94.06% overall": the clause says it is no slice
        in_clause_before = [x for x in before if x.start > lo]
        in_clause_after = [x for x in after if x.end <= hi]
        for group, last in ((in_clause_before, True), (in_clause_after, False), (before, True), (after, False)):
            if group:
                return (group[-1] if last else group[0]).key
        return None


# What joins the items of a list: "recall@5 and hit@5", "R@5, R@10 and nDCG@5", "98% / 94.06%".
_LIST_JOIN = re.compile(r"^\s*(?:,\s*(?:and\s+)?|and\s+|/\s*|&\s*|=\s*)$", re.IGNORECASE)
# The last join of a list of metrics that share what follows ("recall@5 and hit@5 are 98%"): a
# comma alone is no list ("Besides hit@5, recall@5 is 94%"). A bracket opened by "and" around the
# last metric alone is a join too ("recall@5 (and recall@10) are 94.06% and 97.17%").
_LAST_JOIN = re.compile(r"^\s*(?:,\s*)?(?:and|&|/|=)\s*$", re.IGNORECASE)
_BRACKET_JOIN = re.compile(r"^\s*([(\[])\s*and\s+$", re.IGNORECASE)
# What stands between a list of metrics and the number they share: "are", "are both", "each reach", "=".
_SHARED = re.compile(r"^[\s:=≈~()\[\],*]*(?:(?:are|were|is|was|both|each|all|reach|reached|reaches|score|scored|"
                     r"stand\s+at|equal|come\s+to|of|at)[\s:=≈~()\[\],*]*)*$", re.IGNORECASE)


def coordinated(text: str, spans: list[tuple[int, int]], metrics: list[Mention]) -> list[list[Mention] | None]:
    """For each number at ``spans`` (in order), the metrics a list gives it, or None: a sentence
    that lists n metrics and then n numbers ("recall@5 and hit@5 are 94.06% and 98%") gives the
    k-th number to the k-th metric, not to the metric written right before it; one number after a
    list of metrics ("recall@5 and hit@5 are both 98%", "R@5 = hit@5 = 98%") is claimed for each
    of them. Linear in the sentence: each metric and number is looked at a bounded number of times."""
    out: list[list[Mention] | None] = [None] * len(spans)
    ms = sorted(metrics, key=lambda m: m.start)
    j = 0
    i = 0
    while i < len(spans):
        start = spans[i][0]
        while j < len(ms) and ms[j].end <= start:
            j += 1
        last = j - 1  # the last metric written before the number
        if last < 0 or len(text[ms[last].end:start]) > 24 or not _SHARED.match(text[ms[last].end:start]):
            i += 1
            continue
        first = last
        while first > 0 and (_LIST_JOIN.match(text[ms[first - 1].end:ms[first].start])
                             and (first < last or _LAST_JOIN.match(text[ms[first - 1].end:ms[first].start]))
                             or first == last and _bracket_join(text, ms[first - 1], ms[first])):
            first -= 1
        group = ms[first:last + 1]
        if len(group) < 2 or len({m.key for m in group}) != len(group):
            i += 1
            continue
        k = i
        while k + 1 < len(spans) and k - i + 1 < len(group) and _LIST_JOIN.match(text[spans[k][1]:spans[k + 1][0]]):
            k += 1
        if k - i + 1 == len(group):
            for n, m in enumerate(group):
                out[i + n] = [m]
            i = k + 1
        else:
            out[i] = group
            i += 1
    return out


def _bracket_join(text: str, before: Mention, last: Mention) -> bool:
    """Whether the last metric of a list is joined to the one before it by a bracket that "and"
    opens and that closes right after it: "recall@5 (and recall@10) are ..." (not "recall@5 (and
    recall@10 is 97%)", where the bracket's metric has a value of its own)."""
    m = _BRACKET_JOIN.match(text[before.end:last.start])
    return m is not None and _CLOSES[m.group(1)].match(text, last.end) is not None


# Two names given as one metric: what stands between a metric (or a number) and a second metric
# that renames it: "recall@5 (hit@5)", "98% (i.e. hit@5)", "hit@5, i.e. recall@5", "recall@5, aka
# hit@5", "recall@5 (also called hit@5)", "98% (that's recall@5)", "recall@5 [hit@5]", "recall@5 -
# hit@5 - is 98%" (a pair of dashes is a parenthesis), "98% - i.e. recall@5". A bracket must close
# right after the second name: in "recall@5 (hit@5: 98%)" hit@5 has a value of its own. Inside a
# bracket, any few words may lead to the second name but words that set it against the first
# ("(not hit@5)", "(vs. hit@5)", "(unlike hit@5)"). Between two metric names, "or" says the
# same ("recall@5 or hit@5 is 98%"); after a number it does not ("98% or recall@5 of 94%"). A slash
# is a list read against as many numbers ("recall@5 / hit@5: 94% / 98%"), elsewhere.
_RENAME = (r"(?:i\.?\s?e\.?|aka|a\.k\.a\.?|also\s+(?:called|known\s+as|named|termed)|otherwise\s+known\s+as|"
           r"that\s+is|namely|equivalently|also)")
_CONTRAST = (r"(?:not|no|nor|vs|versus|unlike|compared|compare|cf|against|than|excluding|excl|except|without|"
             r"instead|rather|see|over|under|below|above|beyond|beats?|from|to|and|with|plus|minus|including|incl|"
             r"but|while|whereas|where|when)")
_LEAD = r"(?:(?!" + _CONTRAST + r"\b)[\w'’.]+,?\s+){0,3}"
_APPOSITION = re.compile(r"\s*[(\[]\s*" + _LEAD + r"|\s*-\s*" + _LEAD + r"|[,;]?\s*" + _RENAME + r"\s*,?\s*",
                         re.IGNORECASE)
_BETWEEN_NAMES = re.compile(r"\s+or\s+", re.IGNORECASE)
_CLOSES = {"(": re.compile(r"\s*\)"), "[": re.compile(r"\s*\]"), "-": re.compile(r"\s*-(?!\s*\d)")}


def _renames(text: str, end: int, other: Mention, names: bool = False) -> bool:
    """True when the metric ``other`` is written as another name of what ends at ``end`` (a metric
    name when ``names``, else a number)."""
    if other.start < end or other.start - end > 32:
        return False
    if names and _BETWEEN_NAMES.fullmatch(text, end, other.start):
        return True
    m = _APPOSITION.fullmatch(text, end, other.start)
    if m is None:
        return False
    opened = m.group(0).lstrip()[:1]
    if opened in _CLOSES:
        # a bracket or a dash closes right after the second name; a dash that ends the sentence
        # or the text closes it too ("98% - i.e. recall@5.")
        if _CLOSES[opened].match(text, other.end) is not None:
            return True
        return opened == "-" and re.match(r"\s*(?:[.;,!?]|$)", text[other.end:]) is not None \
            and _RENAME_AFTER_DASH.match(text, end) is not None
    # "hit@5 is 98%, i.e. recall@5 is 94%": after a number, a name with a value of its own names
    # that value (after a name, the value that follows is the one both name: "recall@5, aka hit@5, is 98%")
    return names or not _own_number(text, other.end)


_RENAME_AFTER_DASH = re.compile(r"\s*-\s*" + _RENAME + r"\b", re.IGNORECASE)
_DIGIT = re.compile(r"\.?\d")


_OPENED = re.compile(r"[(\[]")


def _own_number(text: str, end: int, inside: bool = False) -> bool:
    """Whether a metric name ending at ``end`` is followed by a number of its own ("recall@5 is
    94%"); ``inside`` a bracket, before the bracket closes ("(recall@5: 94%)", not "(R@5), 99%")."""
    m = _DIGIT.search(text, end, end + 40)
    if m is None or _GLUE.match(text[end:m.start()]) is None:
        return False
    return not inside or not any(c in ")]" for c in text[end:m.start()])


def _two_metrics(a: str, b: str) -> bool:
    """True when metric keys ``a`` and ``b`` are two metrics: not one metric written twice
    ("R@5 (recall@5)"), nor two k of one metric, which is a list ("recall@5 (@10)")."""
    return a != b and not ("@" in a and "@" in b and a.split("@")[0] == b.split("@")[0])


def renamed(text: str, by_start: list[Mention], starts: list[int], anchor: Mention | None,
            number: tuple[int, int] | None = None) -> tuple[tuple[str, str], ...]:
    """The metrics other than ``anchor``'s that a text gives as names of it, or of the number at
    ``number``: "recall@5 (hit@5) is 98%", "recall@5 is 98% (hit@5)", "hit@5 is 98%, i.e.
    recall@5" name one value twice, and it must hold for each. ``by_start`` are the text's metric
    mentions in order and ``starts`` their starts. A bounded number of neighbours is looked at."""
    if anchor is None:
        return ()
    group = [anchor]
    if number is not None:
        i = bisect.bisect_left(starts, number[1])
        if i < len(by_start) and _renames(text, number[1], by_start[i]):
            group.append(by_start[i])
            # the metric written right before the number names it too: "recall@5 is 98% (hit@5)"
            j = bisect.bisect_left(starts, number[0]) - 1
            if j >= 0 and by_start[j].end <= number[0] and number[0] - by_start[j].end <= 24 \
                    and _GLUE.match(text[by_start[j].end:number[0]]):
                group.append(by_start[j])
    todo, seen = list(group), {(x.start, x.end) for x in group}
    steps = 0
    while todo and steps < 8:
        x = todo.pop()
        steps += 1
        i = bisect.bisect_left(starts, x.start)
        k = bisect.bisect_left(starts, x.end)
        near = ([by_start[k]] if k < len(by_start) and _renames(text, x.end, by_start[k], True) else []) + \
            ([by_start[i - 1]] if i > 0 and _renames(text, by_start[i - 1].end, x, True) else [])
        for y in near:
            if (y.start, y.end) not in seen:
                seen.add((y.start, y.end))
                group.append(y)
                todo.append(y)
    out: dict[str, str] = {}
    for y in group:
        if _two_metrics(anchor.key, y.key):
            out.setdefault(y.key, y.raw)
    return tuple(out.items())


def slice_for(text: str, start: int, end: int, slices: list[Mention]) -> str | None:
    """The question type a number at ``text[start:end]`` belongs to: the type named in its own
    clause (before it, else after it), else the nearest type named before it in the sentence,
    else the nearest one after. A type named as excluded ("excluding abstention questions")
    names no slice, and a clause that says "overall" (or "across all questions") without naming a
    type is about no slice."""
    return _Clauses(text, slices).owner(start, end)


# --- numbers -----------------------------------------------------------------------------

_NUM = re.compile(r"""
    (?<![\w.@/$^#+±-])
    (?P<range>(?:\d{1,3}(?:[.,]\d+)?|\.\d+)\s?%?\s?(?:-|to)\s?)?
    (?P<num>\d{1,3}(?:,\d+)?(?:\.\d+)?|\.\d+)
    (?:e(?P<exp>[-+]?\d{1,2}))?
    (?P<unit>\s?%|\s?‰|\s?(?:percent|per\s?cent|pct|per\s?mille|per\s?mil|permille)\b)?
    (?![\w@%‰/]|\.\d|,\d|-\d)
""", re.VERBOSE | re.IGNORECASE)
# A number with a stray decimal point ("98..0%", "98.%", "9.8.%", "98..5", "94.06..%"), with more
# than one decimal point before its unit ("94.0.6%", "9.4.06%") or with its unit written twice
# ("94.06%%"): no one value can be read from it, so it is no claim the evidence can confirm
# (untestable), never the number before the stray point, and never passed over as no number at
# all. An ellipsis after a number ("98...") has no digit after it and is not one; a version
# ("3.11.2") has no unit and is not one either.
_UNIT_WORD = r"\s?(?:%|‰|percent\b|per\s?cent\b|pct\b)"


def _malformed_why(written: str) -> str:
    """What is wrong with a number :data:`_MALFORMED` matched, in a few words."""
    if len(re.findall(r"[%‰]", written)) > 1:
        return "its unit written twice"
    if ".." not in written and re.search(r"\.\d+\.\d", written):
        return "more than one decimal point"
    return "a stray decimal point"
_MALFORMED = re.compile(
    r"(?<![\w.@/$^#+±-])\d{1,3}(?:"
    r"(?:\.\d+)?\.{2,}\d+(?:\.+\d+)*(?:\.+(?=" + _UNIT_WORD + r"))?"  # 98..0, 94..06..%
    r"|(?:\.+\d+)*\.+(?=" + _UNIT_WORD + r")"  # 98.%, 98..%, 9.8.%, 94.06..%
    r"|\.\d+(?:\.\d+)+(?=" + _UNIT_WORD + r")"  # 94.0.6%, 9.4.06%
    r"|(?:\.\d+)?(?=" + _UNIT_WORD + r"\s?[%‰]))"  # 94.06%%
    r"(?P<unit>" + _UNIT_WORD + r"(?:\s?[%‰])*)?", re.IGNORECASE)
# A difference in percentage points: "+2.3 percentage points", "2.3 pp", "+0.38pp", "2 pts".
_POINTS = re.compile(r"(?<![\w.@/$^#])(?P<sign>\+/-|[+±-])?\s?(?P<num>\d{1,3}(?:\.\d+)?|\.\d+)\s?"
                     r"(?:percentage[\s-]points?|pp|p\.p\.|pts?|points?)(?![\w@%])", re.IGNORECASE)
# A count: "498/500", "498 of 500", "498 out of 500", "1 in 50", "99.6 / 100", "498:500".
_OF = re.compile(r"(?<![\w.@/$^#+±:-])(?P<k>\d{1,6}(?:\.\d+)?)\s?(?P<sep>/|:|\bout\s+of\b|\bof\b|\bin\b)\s?"
                 r"(?P<the>(?:the|all|all\s+the)\s+)?(?P<n>\d{1,6})(?![\w@%/:]|\.\d|,\d)", re.IGNORECASE)
# What a count counts when it is a share of the benchmark's questions ("498 of 500 questions").
_ITEMS = re.compile(r"\s*(?:[a-z-]+\s+)?(?:questions?|cases|queries|conversations|tasks|samples|items|examples|"
                    r"probes|prompts)\b", re.IGNORECASE)
_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
         "sixteen seventeen eighteen nineteen").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_WORD = r"(?:" + "|".join(_ONES + _TENS + ["hundred", "point", "and"]) + r")"
# A count in words: "nine in ten", "nine out of ten", "forty-eight of the fifty questions".
_SPELLED_INT = (r"(?:(?:" + "|".join(_ONES + _TENS) + r")(?:[\s-]+(?:hundred|and|" + "|".join(_ONES[1:10])
                + r"))*|hundred)")
_OF_WORDS = re.compile(r"(?<![\w-])(?P<k>" + _SPELLED_INT + r"|\d{1,6})\s+(?P<sep>out\s+of|in|of)\s+"
                       r"(?P<the>(?:the|all|all\s+the)\s+)?(?P<n>" + _SPELLED_INT + r"|\d{1,6})(?![\w-])",
                       re.IGNORECASE)
_SPELLED = re.compile(r"(?<![\w-])(?P<words>(?:" + "|".join(_ONES + _TENS + ["point"]) + r")(?:[\s-]+" + _WORD + r")*)\s?(?:%|percent|per\s?cent)\b",
                      re.IGNORECASE)
_NEGATED = re.compile(r"\b(?:not|never)\b[\s\"'“”‘’*_]*(?:we\s+|it\s+|is\s+)?$", re.IGNORECASE)
_BOUND_MAX = re.compile(r"(?:\b(?:less|fewer|lower)\s+than|\bunder|\bbelow|\bat\s+most|\bup\s+to|"
                        r"\bno\s+more\s+than|<=|<|≤)\s*$", re.IGNORECASE)
_BOUND_MIN = re.compile(r"(?:\b(?:more|greater|higher)\s+than|\bover|\babove|\bat\s+least|\bexceeds?|"
                        r"\bexceeding|\bbeyond|>=|>|≥)\s*$", re.IGNORECASE)
_CHANGE_BEFORE = re.compile(r"(?:\bby|\b(?:gain|drop|loss|increase|decrease|improvement|delta)s?\s+of)\s*$",
                            re.IGNORECASE)
_GLUE = re.compile(r"^[\s:=≈~()\[\],*]*(?:(?:is|was|are|were|of|at|reaches|reached|scores?|scored|"
                   r"achieves?|achieved|gets|got|hits|stands\s+at|above|over|below|under|at\s+least|at\s+most|"
                   r"(?:more|less|greater|lower|higher)\s+than|>=|<=|>|<|≥|≤|=|:)[\s:=≈~()\[\],*]*)*$",
                   re.IGNORECASE)
_RATIO = re.compile(r"(?<![\d.])\d\s?/\s?\d(?![\d.])")
_EXPLAINS = re.compile(r"\b(?:contribut\w*|counts?\s+as|scor\w+|worth|yields?|gives?|equals?)\b", re.IGNORECASE)
_COUNT = re.compile(r"(?<![\w.@])(\d{1,3}(?:,\d{3})*|\d+)\s*(?:/\s*\d[\d,]*\s*)?(?:-\s*)?"
                    r"(?:(?!(?:of|in|on|for|and|or|the|with|per|from)\b)[A-Za-z][\w-]*\s+){0,2}"
                    r"(?:questions?|cases|queries|qs|samples|examples|items|conversations)\b", re.IGNORECASE)


@record
class Number:
    start: int
    end: int
    written: str
    value: Fraction
    unit: Fraction
    percent: bool
    ambiguous: str | None = None
    bare: bool = False  # written without "%" and not as a 0..1 decimal: a claim only next to a metric
    of: int | None = None  # n of a count k/n: the questions it is a share of
    categorical: bool = False  # a categorical word ("a perfect score", "every question"): exactly 1
    share: bool = False  # a count written as a share ("48/50", "9 out of 10", "1 in 50"): result-shaped itself
    difference: bool = False  # a difference in percentage points ("+2.3 pp"): it compares two values


def _value(num: str, percent: bool) -> tuple[Fraction, Fraction]:
    places = len(num.split(".")[1]) if "." in num else 0
    value = Fraction(Decimal(num if not num.startswith(".") else "0" + num))
    unit = Fraction(1, 10**places)
    return (value / 100, unit / 100) if percent else (value, unit)


def _spelled(words: str) -> tuple[Fraction, Fraction] | None:
    """``ninety-nine point six`` is (99.6, 0.1); None when the words are no number."""
    whole, digits, after_point, seen = 0, "", False, False
    for w in re.split(r"[\s-]+", words.lower()):
        if w == "and":
            continue
        if w == "point":
            if after_point:
                return None
            after_point = True
            continue
        if after_point:
            if w not in _ONES[:10]:
                return None
            digits += str(_ONES.index(w))
        elif w == "hundred":
            whole = (whole or 1) * 100
        elif w in _TENS:
            whole += 10 * (_TENS.index(w) + 2)
        else:
            whole += _ONES.index(w)
        seen = True
    if not seen or (after_point and not digits):
        return None
    return _value(f"{whole}.{digits}" if digits else str(whole), False)


def numbers(text: str) -> list[Number]:
    """Every percentage, decimal, count (``498/500``) and bare number in a normalised text, with
    ranges and comma decimals marked. A bare number (``99.6``, ``96``, ``1`` without a percent
    sign) is read as a percentage when it is above 1 and as a fraction when it is 0 or 1; it is
    ``bare`` because it is a claim only where a metric is written right next to it."""
    out: list[Number] = []
    taken = Spans()
    for m in _SPELLED.finditer(text):
        parsed = _spelled(m.group("words"))
        if parsed is not None and parsed[0] <= 100:
            out.append(Number(m.start(), m.end(), m.group(0), parsed[0] / 100, parsed[1] / 100, True))
            taken.add(m.start(), m.end())
    for m in _OF.finditer(text):
        k, n = Fraction(Decimal(m.group("k"))), int(m.group("n"))
        sep = m.group("sep").lower()
        if n < 2 or taken.overlaps(m.start(), m.end()) or (k > n and sep not in ("/", "out of")):
            continue  # "510/500" is kept: more than all questions is a claim no evidence confirms
        if sep == "in" and ("." in m.group("k") or 1900 <= n <= 2100):
            continue  # "5 in 2026" is a date; "0.5 in 10" no count
        step = _value(m.group("k"), False)[1]
        # "498 of the 500 questions", "10 out of 10": a share of the questions, a result in itself;
        # "R@5 = 498/500" is one only next to its metric (a bare count)
        counted = _ITEMS.match(text, m.end()) is not None and sep != ":"
        out.append(Number(m.start(), m.end(), m.group(0), k / n, step / n, False, bare=not counted, of=n,
                          share=sep not in (":", "of") or m.group("the") is not None))
        taken.add(m.start(), m.end())
    for m in _OF_WORDS.finditer(text):
        if taken.overlaps(m.start(), m.end()) or (m.group("k").isdigit() and m.group("n").isdigit()):
            continue
        k_n = [_spelled(g) if not g.isdigit() else (Fraction(int(g)), Fraction(1)) for g in (m.group("k"), m.group("n"))]
        if k_n[0] is None or k_n[1] is None:
            continue
        k, n = k_n[0][0], k_n[1][0]
        if n < 2 or k > n or n.denominator != 1 or k.denominator != 1:
            continue
        sep = m.group("sep").lower()
        if sep == "of" and m.group("the") is None and _ITEMS.match(text, m.end()) is None:
            continue  # "one of two modes" is no share of the questions
        counted = _ITEMS.match(text, m.end()) is not None
        out.append(Number(m.start(), m.end(), m.group(0), k / n, Fraction(1) / n, False, bare=not counted,
                          of=int(n), share=True))
        taken.add(m.start(), m.end())
    for m in _POINTS.finditer(text):
        if taken.overlaps(m.start(), m.end()):
            continue
        value, step = _value(m.group("num"), True)
        out.append(Number(m.start(), m.end(), m.group(0).strip(), value, step, True, difference=True))
        taken.add(m.start(), m.end())
    for m in _MALFORMED.finditer(text):
        if taken.overlaps(m.start(), m.end()):
            continue
        written = m.group(0).strip()
        out.append(Number(m.start(), m.end(), written, Fraction(0), Fraction(1), m.group("unit") is not None,
                          f"{written} is no well-formed number ({_malformed_why(written)}): write the value as one "
                          "number", bare=m.group("unit") is None))
        taken.add(m.start(), m.end())
    for m in _NUM.finditer(text):
        if taken.overlaps(m.start(), m.end()):
            continue
        num, unit, rng = m.group("num"), m.group("unit"), m.group("range")
        start = m.start()
        if rng and re.search(r"\bto\s?$", rng) and _CHANGE_BEFORE.search(text, max(0, start - 40), start):
            # "improved by 2% to 99%" is a change and the value it reached: the change is no claim,
            # the value is one (never dropped with the change as one "range")
            start, rng = m.start("num"), None
        permille = unit is not None and (unit.strip() == "‰" or "mil" in unit.lower())
        percent = unit is not None and not permille
        written = text[start:m.end()].strip()
        if rng:
            # a range of plain whole numbers ("categories 1-4") is a claim only next to a metric
            plain = unit is None and "." not in m.group(0) and not m.group("exp")
            out.append(Number(start, m.end(), written, Fraction(0), Fraction(1), percent,
                              f"{written} is a range, not one value", bare=plain))
            continue
        if "," in num:
            head, _, tail = num.partition(",")
            tail_digits = tail.split(".")[0]
            if head == "0" or len(tail_digits) != 3 or "." in tail:
                if head == "0" or len(tail_digits) != 3:
                    out.append(Number(start, m.end(), written, Fraction(0), Fraction(1), percent,
                                      f"{written} has a decimal comma (or is a list): write the value with a "
                                      f"decimal point"))
                    continue
            num = num.replace(",", "")
        value, step = _value(num, percent)
        if permille:
            value, step = value / 1000, step / 1000
        if m.group("exp"):
            scale = Fraction(10) ** int(m.group("exp"))
            value, step = value * scale, step * scale
            percent = True  # an explicit scale is as explicit as a percent sign
        if unit is not None or m.group("exp") or ("." in num and value <= 1):
            out.append(Number(start, m.end(), written, value, step, percent))
        elif value <= 1 and "." not in num:  # "recall@5: 1" is a perfect score, not 1%
            out.append(Number(start, m.end(), written, value, Fraction(1, 100), False, bare=True))
        elif value <= 100:  # "99.6" under "R@5 (%)" or after "recall@5 is"
            out.append(Number(start, m.end(), written, value / 100, step / 100, True, bare=True))
    return sorted(out, key=lambda x: x.start)


def negated(text: str, start: int) -> bool:
    """True when what starts at ``start`` is disclaimed: ``Not "100% recall."``."""
    return _NEGATED.search(text[max(0, start - 24):start]) is not None


# --- claims ------------------------------------------------------------------------------


@record
class Claim:
    """One number presented as a benchmark result, with what the document says it is."""

    path: str
    line: int
    col: int
    written: str
    value: Fraction
    unit: Fraction
    metric: str | None  # canonical metric, "recall@*" for any k, None: any metric of the benchmark
    named: str  # the metric or benchmark as written
    benchmarks: tuple[tuple[str, str], ...] = ()  # (key, as written)
    slice: str | None = None
    bound: str | None = None  # "min" (over 95%) or "max" (under 5%)
    ambiguous: str | None = None
    quote: str = ""
    row: tuple[str, ...] = ()  # the cells of the table row, for the run or system it names
    column: str = ""  # the column header
    table: int | None = None
    table_row: int = 0
    raw: str = ""  # the number as written in the file
    run_kind: str | None = None  # "live" or "offline": the kind of run the text attributes it to
    questions: int | None = None  # the question count written with it (``498/500``, "on 470 questions")
    adjacent: bool = True  # its metric is written right next to it (a bound needs that to be testable)
    unsure: tuple[str, ...] = ()  # the page's benchmarks, when it names several and nothing near says which
    judge: str | None = None  # the judge model the text names for a QA number
    subset: bool = False  # said to be on a subset or sample ("a LongMemEval subset") without its question count
    granularity: str | None = None  # what its metric counts, when the text says: "turn" for "turn-level recall@5"
    difference: bool = False  # a difference in percentage points ("+2.3 pp"): a comparison of two values
    # other metrics the text gives the number as the same one ("recall@5 (hit@5)", "98%, i.e. recall@5"):
    # (key, as written); the number must hold for each of them
    also: tuple[tuple[str, str], ...] = ()
    # the words that say it is on the whole benchmark ("all 5 categories", "the full benchmark", "all
    # ten conversations"): evidence over part of its questions cannot confirm it
    whole: str | None = None


@record
class Patterns:
    """What the scan looks for: metric, benchmark and slice patterns (pattern -> canonical key)."""

    metrics: dict[str, str]
    benchmarks: dict[str, str]
    slices: dict[str, str]
    skip_after: str
    include_code: bool = False

    def key(self) -> tuple[object, ...]:
        return (tuple(self.metrics.items()), tuple(self.benchmarks.items()), tuple(self.slices.items()),
                self.skip_after, self.include_code)


SENTENCE_CHARS = 200


def shown(text: str) -> str:
    """A sentence as messages quote it: white space collapsed, at most ``SENTENCE_CHARS``
    characters (only the start of a long text is looked at, so quoting stays cheap)."""
    head = " ".join(text[:SENTENCE_CHARS * 4].split())
    if len(head) <= SENTENCE_CHARS and len(text) <= SENTENCE_CHARS * 4:
        return head
    return head[: SENTENCE_CHARS - 1] + "…" if len(head) >= SENTENCE_CHARS else head + "…"


class _Near:
    """Mentions of a text sorted by place, for finding the ones near a number in logarithmic time."""

    def __init__(self, found: list[Mention]) -> None:
        self.found = sorted(found, key=lambda x: x.start)
        self.starts = [x.start for x in self.found]
        self.kinds = {x.key for x in self.found}

    def around(self, start: int, end: int, reach: int = 30) -> list[Mention]:
        """The mentions that start within ``reach`` characters of ``start..end`` (or end there)."""
        lo = bisect.bisect_left(self.starts, start - reach - 60)
        hi = bisect.bisect_right(self.starts, end + reach)
        return [x for x in self.found[lo:hi] if x.end >= start - reach]

    def nearest(self, start: int, end: int, text: str = "") -> Mention | None:
        """The mention nearest to ``start..end``, but one in a bracket that holds a value of its own
        and closes before the number ("recall@5 (hit@5: 98%) is 98%": hit@5 names the 98% inside)."""
        if not self.found:
            return None
        i = bisect.bisect_left(self.starts, start)
        near = [x for x in self.found[max(0, i - 2):i + 2]
                if not (x.end <= start and _VALUE_THEN_CLOSE.match(text, x.end, min(start, x.end + 120)))]
        return min(near, key=lambda x: min(abs(x.start - end), abs(start - x.end))) if near else None


# A metric's own value and the bracket that closes after it: "hit@5: 98%)" in "recall@5 (hit@5: 98%) is 98%".
_VALUE_THEN_CLOSE = re.compile(r"[^()\[\]]*?\d[^()\[\]]*[)\]]")
# A bracket with a value in it, as an aside between a metric and its number: " (hit@5: 98%) is ".
_VALUED_ASIDE = re.compile(r"\s*[(\[][^()\[\]]{0,80}?\d[^()\[\]]{0,80}?[)\]]")


def _metric_for(text: str, num: Number, names: _Near) -> tuple[Mention | None, bool]:
    """(the metric mention a number belongs to, whether it is written right next to it)."""
    best: tuple[int, Mention] | None = None
    for x in names.around(num.start, num.end):
        if num.start <= x.start < num.end or x.start <= num.start < x.end:
            continue
        between = text[x.end:num.start] if x.end <= num.start else text[num.end:x.start]
        aside = _VALUED_ASIDE.match(between) if x.end <= num.start else None
        if aside is not None:
            between = between[aside.end():]  # "recall@5 (hit@5: 98%) is 98%": the bracket is an aside
        if len(between) <= 24 and _GLUE.match(between):
            if x.start >= num.end and _OPENED.search(between) and _own_number(text, x.end, inside=True):
                continue  # "hit@5 is 98% (recall@5: 94.06%)": the name in the bracket names its own value
            gap = len(between) + (0 if "@" in x.key and not x.key.endswith("@*") else 1)
            if best is None or gap < best[0]:
                best = (gap, x)
    if best is not None:
        return best[1], True
    if len(names.kinds) == 1:
        return names.found[0], False
    return names.nearest(num.start, num.end, text), False


def _cell_text(block: Block | None) -> str:
    return normalise(block.text).text.strip() if block is not None else ""


_FOUND: dict[tuple[int, tuple[object, ...]], tuple[Document, list[Claim]]] = {}


def claims_in(doc: Document, p: Patterns) -> list[Claim]:
    """Every result claim of a document, in reading order (computed once per document and
    patterns: several rules ask)."""
    key = (id(doc), p.key())
    hit = _FOUND.get(key)
    if hit is not None and hit[0] is doc:
        return list(hit[1])
    found = _Finder(doc, p).claims()
    if len(_FOUND) > 16:
        _FOUND.clear()
    _FOUND[key] = (doc, found)
    return list(found)


# A bare number (no "%", not a 0..1 decimal) is a claim only when a metric or benchmark is written
# right before it with a verb or sign between ("recall@5 is 99.6", "R@5: 1", "R@5 = 498/500") or right
# after it with only a space between ("99.6 R@5"); never when a unit follows ("5 questions").
_BARE_AFTER_NAME = re.compile(r"^[\s*_()\[\]%]*(?:(?:is|was|are|were|of|at|reaches|reached|reaching|scores?|"
                              r"scored|achieves?|achieved|gets|got|hits|stands\s+at|of\s+about|about|around|roughly|"
                              r"approximately|nearly|almost|(?:climbs?|climbed|rises?|rose|improves?|improved|"
                              r"increases?|increased|jumps?|jumped|goes|went)\s+to|=|:|-|≈|~|>=|<=|>|<|≥|≤)"
                              r"[\s*_()\[\]%~≈]*)*$", re.IGNORECASE)
_BARE_UNIT = re.compile(r"\s*(?:questions?|cases|queries|qs|samples|examples|items|conversations|sessions?|turns?|"
                        r"tokens?|ms|s|sec|secs|seconds?|minutes?|min|hours?|h|days?|runs?|docs?|documents?|chunks?|"
                        r"memories|results?|users?|gb|mb|kb|x|times|k|candidates|passages|hops?|steps?|"
                        r"dimensions?|dims?|epochs?|shots?|-shot|\$)\b", re.IGNORECASE)
# A decimal followed by a unit or a currency is a quantity, not a score ("0.9 seconds", "0.005 USD").
_QUANTITY = re.compile(r"\s*(?:usd|eur|gbp|dollars?|cents?|ms|s|sec|secs|seconds?|minutes?|min|hours?|h|gb|mb|kb|"
                       r"gib|mib|tokens?|bytes?|calls?|requests?|qps|rps)\b", re.IGNORECASE)
# A version: "predates 1.0", "since 0.8", "the 1.0 release".
_VERSION_BEFORE = re.compile(r"\b(?:v|version|versions|release|releases|predates?|since|until|before|after|from|"
                             r"up\s+to)\s*$", re.IGNORECASE)
_VERSION_AFTER = re.compile(r"\s*(?:release|releases|version|line|series|branch|tag)\b", re.IGNORECASE)
# A share of a resource is a setting or a cost, not a result: "retains less than 10% of the corpus".
_SHARE_OF_RESOURCE = re.compile(
    r"\s*of\s+(?:the\s+|its\s+|our\s+|their\s+|a\s+|all\s+|each\s+)?(?:[\w-]+\s+){0,2}?(?:corpus|corpora|index|"
    r"haystacks?|context(?:\s+window)?|budget|tokens?|memory|storage|disk|ram|cpu|gpu|runtime|traffic|"
    r"vectors?|embeddings?|cost|price|bandwidth|capacity|quota)\b", re.IGNORECASE)
# A value set as a parameter: "a threshold of 0.1", "temperature = 0.2".
_PARAMETER_BEFORE = re.compile(r"\b(?:threshold|cut-?off|limit|temperature|weight|alpha|beta|lambda|gamma|top[- ]?p|"
                               r"dropout|learning\s+rate|lr|sampling\s+rate|margin|decay|penalty|"
                               r"(?:filter[- ])?selectivity)\s*(?:of|=|:|is|at|to|set\s+to)?\s*[`\"']?\s*$",
                               re.IGNORECASE)
# Categorical words are claims of a perfect score, matched only by evidence that is exactly 1:
# "a perfect score", "answers every question correctly", "zero errors". ("Perfect recall" is the
# overclaim rule's: a perfect retrieval score is usually hit@k.)
_CATEGORICAL = re.compile(
    r"\b(?:perfect|flawless|faultless)\s+(?:qa\s+|answer\s+)?(?:score|scores|result|results|accuracy|run|marks)\b"
    r"|\b(?:answers|answered|retrieves|retrieved|finds|found|solves|solved|passes|passed|gets|got|surfaces|"
    r"surfaced)(?:\s+[\w@-]+){0,8}?\s+(?:for|on|in|across)\s+(?:every|each|all(?:\s+\d+)?)\s+(?:single\s+)?"
    r"(?:question|query|case|probe|task)s?\b"
    r"|\b(?:every|each|all(?:\s+\d+)?)\s+(?:single\s+)?(?:question|query|case|probe|task)s?\b"
    r"(?=[^.;:]{0,40}?\b(?:correct(?:ly)?|right|answered|retrieved|found|solved|passed)\b)"
    r"|\b(?:zero|0)\s+(?:errors?|mistakes?|failures?|misses|wrong\s+answers?|incorrect\s+answers?)\b"
    r"|\bno\s+(?:wrong|incorrect)\s+answers?\b",
    re.IGNORECASE)
# is never failing: "never misses an evidence session", "no question is missed", "without a
# single miss", "it always retrieves the answer" are each a claim of exactly 1, but only in a
# sentence about a result (a metric, a benchmark or a result word: "the gate never fails silently"
# is none).
_NEVER_FAILS = re.compile(
    r"\bnever\s+(?:once\s+)?(?:miss(?:es|ed)?|fail(?:s|ed)?(?:\s+to\s+[a-z]+)?|drops?|dropped|loses|lost)\b"
    r"|\b(?:no|not\s+(?:a|one)(?:\s+single)?)\s+(?:single\s+)?(?:question|query|case|probe|task|session|answer)s?"
    r"\s+(?:is|was|are|were|gets|got)\s+(?:ever\s+)?(?:missed|wrong|failed|lost|dropped|answered\s+wrong(?:ly)?|"
    r"answered\s+incorrectly)\b"
    r"|\b(?:without|with\s+no|with\s+zero|not)\s+(?:a\s+|one\s+|any\s+)?(?:single\s+)?(?:miss|misses|error|errors|"
    r"mistake|mistakes|failure|failures|wrong\s+answers?)\b"
    r"|\b(?:always|invariably)\s+(?:retrieves?|retrieved|finds?|found|answers?|answered|surfaces?|surfaced|ranks?|"
    r"ranked|returns?|returned|recalls?|recalled|gets?|got|hits?)\b",
    re.IGNORECASE)
# What makes a sentence about a result for a categorical word with no metric or benchmark in it.
_RESULT_WORD = re.compile(r"\b(?:scores?|scored|results?|recall\w*|accura\w+|precision|retriev\w*|answer\w*|"
                          r"evidence|questions?|benchmarks?|leaderboards?|hits?)\b", re.IGNORECASE)
# What a retrieval metric counts, when the text qualifies it: "turn-level recall@5", "per-message
# recall", "recall@5 at the session level", "R@5 (utterance-level)". A metric counted over turns is
# another metric than the same name counted over sessions.
_GRAIN = r"(turn|message|utterance|token|session|round|chunk|sentence|passage|document|fact|span|conversation)s?"
_GRAIN_BEFORE = re.compile(r"\b" + _GRAIN + r"[\s-]?(?:level|granularity|based|wise)\s+(?:[\w@-]+\s+){0,2}$|\bper[\s-]"
                           + _GRAIN + r"\s+(?:[\w@-]+\s+){0,2}$|(?<![\w-])" + _GRAIN + r"\s+$", re.IGNORECASE)
_GRAIN_AFTER = re.compile(r"^\s*\(?\s*(?:(?:at|on)\s+(?:the\s+)?" + _GRAIN + r"\s+level|" + _GRAIN
                          + r"[\s-]?(?:level|granularity|based|wise)|per[\s-]" + _GRAIN + r")\b", re.IGNORECASE)
# ... and the same said in prose: "recall@5 computed over turns", "counting messages", "R@5 (turns)",
# "R@5 by turn" (a unit a session is made of: "across sessions" is how a mean is taken, not this;
# tokens are what a run spends: "20% less on tokens" qualifies nothing). Between "over" and the
# unit stand at most four words of any kind that say which of them ("over the retrieved turns",
# "over all user turns", "over the top five turns", "over the user's turns", "over every retrieved
# turn"), but a word that names what else is counted or starts a clause about it: "over questions
# whose answers span several turns" counts questions. "Over the turns of the conversation" is read
# as turn-level: a number it qualifies is untestable against session-level evidence, never
# confirmed by it. "Per" takes up to two such words ("per retrieved turn").
_PART = r"(turn|message|utterance|round|chunk|sentence|passage|fact|span)"
_OTHER = (r"(?:questions?|quer(?:y|ies)|cases?|samples?|examples?|probes?|tasks?|items?|sessions?|conversations|"
          r"haystacks?|benchmarks?|datasets?|runs?|whose|which|that|where|when|with|without|having|containing|"
          r"spanning|spans?|of|from|in|on|for|per|than|by)")
_WHICH = r"(?:(?!" + _OTHER + r"\b)[\w'’-]+\s+){0,4}"
# a unit said in the singular ("over every retrieved turn"); "a span of", "the last round", "the
# fact that" are no units
_ONE = r"(turn|message|utterance|chunk|passage|sentence)"
_WHICH2 = r"(?:(?!" + _OTHER + r"\b)[\w'’-]+\s+){0,2}"
# The items a retrieval metric said in words ranks are its unit too: "an answer turn is in the
# top 5" is turn-level, "98% of evidence messages in the top 10" message-level (a QA number
# "judged against the gold answer span" ranks nothing and is not qualified).
_ITEM = (r"\b(?:answer|evidence|gold|relevant|correct|target|needle|ground[- ]truth)[\s-]+" + _PART
         + r"s?\b(?=(?:\s+[\w-]+){0,5}?\s+(?:in|reached|reach|reaches|within|made|make|makes|into)\s+the\s+top\b)")
# ... and the unit named as what is ranked or scored: "R@5 (turn)", "R@5 [turns]", "recall@5 on
# turns", "when ranking individual turns", "at the level of turns", "with turns as the retrieval
# unit", "unit: turn", "turn-based", "turn-wise" ("multi-turn sessions" names no unit)
_RANKED = (r"\b(?:on|rank(?:s|ed|ing)?|retriev(?:es|ed|ing|e)|scor(?:es|ed|ing|e)|index(?:es|ed|ing)?|"
           r"return(?:s|ed|ing)?|search(?:es|ed|ing)?|embed(?:s|ded|ding)?)\s+")
_UNIT_NAMED = (r"[(\[]\s*" + _ONE + r"s?\s*[)\]]|\blevel\s+of\s+(?:the\s+|individual\s+|single\s+)?" + _PART
               + r"s\b|\b(?:with|using)\s+(?:the\s+|individual\s+|single\s+)?" + _PART + r"s\s+as\s+(?:the\s+)?"
               r"(?:retrieval\s+|ranking\s+|scoring\s+)?units?\b|\bunits?\s*(?::|=|is|are|was|were)\s*(?:the\s+|a\s+|an\s+|"
               r"individual\s+|single\s+)?" + _ONE + r"s?\b|(?<![\w-])" + _ONE + r"[\s-]?(?:based|wise)\b|"
               + _RANKED + _WHICH + r"(?:" + _PART + r"s|" + _ONE + r")\b")
_GRAIN_ANY = re.compile(_ITEM + r"|" + _UNIT_NAMED + r"|\b" + _GRAIN + r"[\s-]?(?:level|granularity)\b|\bper[\s-]" + _GRAIN + r"\b|\bper\s+"
                        + _WHICH2 + _ONE + r"\b|\b(?:at|on)\s+"
                        r"(?:the\s+)?" + _GRAIN + r"\s+level\b|\b(?:over|across|among|counting|counted\s+(?:over|in|on|by)|"
                        r"computed\s+(?:over|on|by)|measured\s+(?:over|on|by))\s+" + _WHICH
                        + r"(?:" + _PART + r"s|" + _ONE + r")\b|\bby\s+" + _PART + r"s?\b(?![\s-]+by\b)|\(\s*" + _PART
                        + r"s\s*\)", re.IGNORECASE)


def granularity(text: str, metric: Mention | None = None) -> str | None:
    """The unit a metric is counted over, as the text qualifies it (``turn`` for "turn-level
    recall@5"): the qualifier written right before or after the metric, else the one qualifier
    the text names (several different ones and none is the number's: ``"mixed"``)."""
    if metric is not None:
        for m in (_GRAIN_BEFORE.search(text, max(0, metric.start - 40), metric.start),
                  _GRAIN_AFTER.match(text[metric.end:metric.end + 40])):
            if m is not None:
                return next(g for g in m.groups() if g).lower()
    return _named_grain(text)


@lru_cache(maxsize=64)
def _named_grain(text: str) -> str | None:
    # once per sentence, not once per number in it: a long line of numbers stays linear
    named = {next(g for g in m.groups() if g).lower() for m in _GRAIN_ANY.finditer(text)}
    return named.pop() if len(named) == 1 else "mixed" if named else None


# A gate's tolerance for a change is a setting, not a result: "fails on a regression larger than
# 1.0 percentage point", "a drop of up to 2 pp".
_THRESHOLD_BEFORE = re.compile(r"\b(?:regressions?|drops?|declines?|tolerance|slack|noise|allowed|allows?|"
                               r"threshold|margin)\b[^.;]{0,30}?(?:(?:larger|greater|bigger|more)\s+than|above|over|"
                               r"beyond|exceeding|within|up\s+to|of|=|:)\s*$", re.IGNORECASE)


def _difference_agrees(num: Number, cells: tuple[str, ...], col: int) -> bool:
    """True when a difference in points in a table row is the difference of the row's two other
    percentages at the precision written (each of them rounded too): the document's arithmetic,
    whose two values are claims of their own. Any other difference compares values no evidence
    holds."""
    others = [x for j, c in enumerate(cells) if j != col for x in numbers(c)
              if x.percent and not x.difference and x.ambiguous is None and not x.bare]
    if len(others) != 2:
        return False
    gap = abs(others[1].value - others[0].value)
    slack = num.unit / 2 + (others[0].unit + others[1].unit) / 2
    return abs(gap - num.value) <= slack


# A verb that gives a result: the bare number right after it is a score ("scores 98 on LongMemEval-S").
_RESULT_VERB = re.compile(r"\b(?:scor(?:es|ed|ing)|achiev(?:es|ed|ing)|reach(?:es|ed|ing)|hit(?:s|ting)?|gets|got|"
                          r"posts?|posted|attains?|attained|obtains?|obtained|records?|recorded|delivers?|delivered|"
                          r"earns?|earned)\s+(?:a\s+|an\s+|of\s+|about\s+|around\s+|roughly\s+|nearly\s+|almost\s+|"
                          r"over\s+|above\s+|~\s?|≈\s?)*$", re.IGNORECASE)
# The ends of a chart's axis ("y-axis 0 --> 100") are no values.
_AXIS = re.compile(r"\s*-->")
_AXIS_BEFORE = re.compile(r"-->\s*$")
_SKIP_AFTER: dict[str, re.Pattern[str]] = {}


def _skip_after(pattern: str) -> re.Pattern[str]:
    if pattern not in _SKIP_AFTER:
        _SKIP_AFTER[pattern] = re.compile(pattern, re.IGNORECASE)
    return _SKIP_AFTER[pattern]


def _read_as(num: Number) -> str:
    """The number as written and, for a bare number, a count or a categorical word, how the scan
    reads it."""
    if num.categorical:
        return f"{num.written} (read as 100%)"
    if not num.bare and num.of is None:
        return num.written
    return f"{num.written} (read as {float(num.value * 100):.6g}%)"


def _bare_anchor(text: str, num: Number, near: _Near) -> Mention | None:
    """The metric or benchmark a bare number is written with, or None: then it is not a claim."""
    if _BARE_UNIT.match(text, num.end):
        return None
    best: tuple[int, Mention] | None = None
    for x in near.around(num.start, num.end):
        if x.raw.lower().rstrip().endswith("k") and x.key.endswith("@*"):
            continue  # "recall@k = 5" gives k, not a value
        if x.end <= num.start:
            between = text[x.end:num.start]
            ok = len(between) <= 24 and _BARE_AFTER_NAME.match(between) is not None
        elif x.start >= num.end:
            between = text[num.end:x.start]
            ok = between in ("", " ")
        else:
            return None  # inside a name: the 5 of "top 5 recall"
        if ok and (best is None or len(between) < best[0]):
            best = (len(between), x)
    return best[1] if best else None


def categorical(text: str) -> list[Number]:
    """The categorical words of a text, each a claim of a perfect score (value 1, exact): "a
    perfect score", "every question ... correct", "zero errors", and, in a sentence about a result,
    "never misses", "no question is missed", "without a single miss", "always retrieves"."""
    found = [Number(m.start(), m.end(), m.group(0), Fraction(1), Fraction(0), False, categorical=True)
             for m in _CATEGORICAL.finditer(text)]
    if _RESULT_WORD.search(text) or mentions(text, DEFAULT_METRICS) or mentions(text, DEFAULT_BENCHMARKS):
        found += [Number(m.start(), m.end(), m.group(0), Fraction(1), Fraction(0), False, categorical=True)
                  for m in _NEVER_FAILS.finditer(text)
                  if not any(x.start < m.end() and m.start() < x.end for x in found)]
    return sorted(found, key=lambda x: x.start)


def _not_a_result(text: str, num: Number) -> bool:
    """A number that is plainly not a result, by the documented rule: a quantity with a unit or a
    currency, a version, a share of a resource, a parameter's value."""
    if num.categorical:
        return False
    if not num.percent and num.of is None and (_QUANTITY.match(text, num.end) or _VERSION_AFTER.match(text, num.end)
                                               or _VERSION_BEFORE.search(text, max(0, num.start - 30), num.start)):
        return True
    if num.percent and _SHARE_OF_RESOURCE.match(text, num.end):
        return True
    return _PARAMETER_BEFORE.search(text, max(0, num.start - 40), num.start) is not None


# Footnotes: a definition "[^1]: Turn-level." and its marker right after a number or a metric
# ("94.06%[^1]"; "^1" where the definition also reads as a link reference). What a note says
# of the number (its granularity) is said of the number.
_NOTE_DEF = re.compile(r"\[\^([^\]\s]+)\]:")
_NOTE_MARKS = re.compile(r"\[?\^([A-Za-z0-9_-]+)\]?(?!:)")
_NOTE_MARK = re.compile(r"\s?" + _NOTE_MARKS.pattern)  # the one right after a number or metric


def footnotes(doc: Document) -> dict[str, str]:
    """The footnote definitions of a document, label (lower case) to text, normalised."""
    out: dict[str, str] = {}
    for block in doc.blocks:
        if not block.text.lstrip().startswith("[^"):
            continue
        text = normalise(block.text).text
        found = list(_NOTE_DEF.finditer(text))
        for d, nxt in zip(found, [*found[1:], None]):
            out.setdefault(d.group(1).lower(), text[d.end():nxt.start() if nxt is not None else len(text)].strip())
    return out


@record
class _Around:
    """What the structure around a unit of text names, nearest first: the benchmarks, the metric
    (when that structure names exactly one), and the page's benchmarks when several are named
    and nothing nearer says which."""

    benchmarks: tuple[tuple[str, str], ...] = ()
    metric: Mention | None = None
    unsure: tuple[str, ...] = ()


class _Finder:
    """Every result claim of one document (see the module docs for the rules)."""

    def __init__(self, doc: Document, p: Patterns) -> None:
        self.doc, self.p = doc, p
        page: dict[str, str] = {}
        for block in doc.blocks:
            for m in mentions(normalise(block.text).text, p.benchmarks):
                page.setdefault(m.key, m.raw)
        self.page = tuple(page.items())
        self.notes = footnotes(doc)
        self._note_grains: dict[str, str | None] = {}
        self._texts: dict[str, tuple[tuple[str, str], ...]] = {}
        self._metrics: dict[str, Mention | None] = {}
        self._tables: dict[int, dict[str, Any]] = {}
        self._rows: dict[tuple[int, int], tuple[str, ...]] = {}

    def claims(self) -> list[Claim]:
        out: list[Claim] = []
        for block in self.doc.blocks:
            n = normalise(block.text)
            table = self.doc.tables[block.table] if block.table is not None else None
            if table is not None and block.row >= 0:
                out.extend(self._cell_claims(block, n, table))
                continue
            around = self._around(block, table)
            for a, b in sentences(n.text):
                out.extend(self._sentence_claims(block, n, a, b, around))
        return out

    def _note_grain(self, text: str, at: int | None = None) -> str | None:
        """The granularity the footnotes of ``text`` say: the note whose marker is right at ``at``
        (after a number or a metric), else the notes the text marks (several that differ:
        ``"mixed"``)."""
        if not self.notes:
            return None
        if at is None and text in self._note_grains:
            return self._note_grains[text]  # a header or row label asked once per cell: once per text
        if "^" not in text:
            if at is None:
                self._note_grains[text] = None
            return None
        if at is not None:
            m = _NOTE_MARK.match(text, at)
            note = self.notes.get(m.group(1).lower()) if m else None
            return granularity(note) if note is not None else None
        grains = {granularity(self.notes[m.group(1).lower()]) for m in _NOTE_MARKS.finditer(text)
                  if m.group(1).lower() in self.notes} - {None}
        found = grains.pop() if len(grains) == 1 else "mixed" if grains else None
        self._note_grains[text] = found
        return found

    # --- what the structure names ------------------------------------------------------------

    def _benchmarks_in(self, text: str) -> tuple[tuple[str, str], ...]:
        if text not in self._texts:
            self._texts[text] = tuple(dict.fromkeys((m.key, m.raw) for m in _qualified(
                mentions(normalise(text).text, self.p.benchmarks))))
        return self._texts[text]

    def _metric_in(self, text: str) -> Mention | None:
        """The metric a heading, caption or list parent names, when it names exactly one."""
        if text not in self._metrics:
            # only a specific metric (recall@5, not "Recall", which is as often a product's name)
            found = [m for m in mentions(normalise(text).text, self.p.metrics) if not m.key.endswith("@*")
                     and m.key != "qa_accuracy" or "qa" in m.raw.lower()]
            self._metrics[text] = found[0] if len({m.key for m in found}) == 1 else None
        return self._metrics[text]

    def _around(self, block: Block, table: Table | None, more: tuple[str, ...] = ()) -> _Around:
        """Benchmarks and metric from the structure around a block, nearest first: ``more`` (a
        table's header row and caption), list parents, section headings; else the page's only
        benchmark (several, and the number is on one nobody can tell)."""
        levels = [*more, *reversed(block.parents), *((table.caption,) if table is not None else ()),
                  *reversed(block.headings)]
        benchmarks: tuple[tuple[str, str], ...] = ()
        for text in levels:
            benchmarks = self._benchmarks_in(text)
            if benchmarks:
                break
        metric = next((m for m in (self._metric_in(t) for t in levels) if m is not None), None)
        unsure: tuple[str, ...] = ()
        if not benchmarks:
            if len(self.page) == 1:
                benchmarks = self.page
            elif len(self.page) > 1:
                unsure = tuple(raw for _, raw in self.page)
        return _Around(benchmarks, metric, unsure)

    # --- prose -------------------------------------------------------------------------------

    def _sentence_claims(self, block: Block, n: Normal, a: int, b: int, around: _Around) -> list[Claim]:
        doc, p = self.doc, self.p
        text = n.text[a:b]
        found = numbers(text)
        found += [c for c in categorical(text) if not any(x.start < c.end and c.start < x.end for x in found)]
        if not found:
            return []
        names = _Near(mentions(text, p.metrics))
        bench = _qualified(mentions(text, p.benchmarks))
        near = _Near(names.found + bench)
        lower = text.lower()
        slices = _Clauses(lower, _named_slices(mentions(lower, p.slices)))
        kinds = _Clauses(lower, mentions(lower, RUN_KINDS))
        keys = tuple(dict.fromkeys((x.key, x.raw) for x in bench)) or around.benchmarks
        unsure = () if keys else around.unsure
        # A sentence naming several benchmarks: each number is on the benchmark of its own clause
        # ("94.06% on LongMemEval-S, 71% on LoCoMo"), never on whichever of them has evidence.
        several = _Clauses(lower if len(lower) == len(text) else text, bench) \
            if len({x.key for x in bench}) > 1 else None
        subset = _SUBSET.search(text) is not None or any(_SUBSET.search(t) for t in (*block.parents, *block.headings))
        explains = _RATIO.search(text) is not None and _EXPLAINS.search(text) is not None
        counts = {c for _, _, c in question_counts(text)}
        judge = judge_in(text) or next((j for j in (judge_in(t) for t in (*block.parents, *block.headings)) if j), None)
        # a granularity the list parents or the section name qualifies every metric under them
        # ("## Turn-level retrieval"), nearest first, unless the sentence names its own
        grain_around = next((g for g in (granularity(t) for t in (*reversed(block.parents), *reversed(block.headings)))
                             if g), None)
        quote = f'in "{shown(text)}"'
        notes_grain = self._note_grain(text)  # a footnote the sentence marks ("[^1]: Turn-level.")
        whole = whole_set(text) or next((w for w in map(whole_set, (*reversed(block.parents), *reversed(block.headings)))
                                         if w), None)
        skip_after = _skip_after(p.skip_after)
        diagram = block.kind == "diagram"
        out: list[Claim] = []
        starts: list[int] = []
        ends: list[int] = []
        # the sentence's metric mentions, looked up per number without a scan of them all: a line
        # of thousands of numbers and metrics stays linear
        named = set(names.found)
        order = {id(x): i for i, x in enumerate(names.found)}
        by_start = sorted(names.found, key=lambda x: x.start)
        mention_starts = [x.start for x in by_start]
        for num in sorted(found, key=lambda x: x.start):
            src = n.source(a + num.start)
            if block.in_code(src) and not p.include_code:
                continue
            if negated(text, num.start) or explains:
                continue
            if num.difference:
                if _THRESHOLD_BEFORE.search(text, max(0, num.start - 60), num.start):
                    continue  # a gate's tolerance ("fails on a regression larger than 1.0 percentage point")
            elif skip_after.match(text, num.end) or _CHANGE_BEFORE.search(text, max(0, num.start - 40), num.start):
                continue
            # A share above 100% ("hit@5 is 101%", "510/500") is no result a run can have; it is a
            # claim when its metric is written right next to it (below), never dropped unseen.
            over = num.ambiguous is None and num.value > 1
            if num.bare and diagram and names.found:
                # a chart's values are plain numbers under its title or axis: "bar [94.1, 96.6]"
                if _AXIS.match(text, num.end) or _AXIS_BEFORE.search(text, max(0, num.start - 6), num.start):
                    continue
                metric, adjacent = _metric_for(text, num, names)
            elif num.bare:
                anchor = _bare_anchor(text, num, near)
                if anchor is None:
                    # A count written as a share ("against 48/50 for the default", "nine in ten") or a
                    # bare number a result verb gives ("scores 98 on LongMemEval-S") is result-shaped
                    # by itself: in a benchmark context it is a claim, never dropped for want of a
                    # metric right next to it.
                    if _BARE_UNIT.match(text, num.end) or not (keys or unsure or names.found or around.metric):
                        continue
                    if not (num.share or _RESULT_VERB.search(text, max(0, num.start - 40), num.start)):
                        continue
                    metric, adjacent = _metric_for(text, num, names)
                else:
                    metric, adjacent = (anchor, True) if anchor in named else _metric_for(text, num, names)
            elif _not_a_result(text, num):
                continue
            else:
                inside = sorted((x for x in by_start[bisect.bisect_left(mention_starts, num.start):
                                                     bisect.bisect_left(mention_starts, num.end)]
                                 if x.end <= num.end), key=lambda x: order[id(x)])
                metric, adjacent = (inside[0], True) if inside else _metric_for(text, num, names)
            if over and not adjacent:
                continue  # "150% faster", "2026/12": a number of something else
            window = max(0, num.start - 40)
            bound = None if num.difference else (
                "max" if _BOUND_MAX.search(text, window, num.start) else
                "min" if _BOUND_MIN.search(text, window, num.start) else None)
            if metric is None and around.metric is not None and not names.found:
                metric = around.metric
            if metric is None and not keys and not unsure and not (num.categorical and _RESULT_WORD.search(text)):
                continue  # no benchmark context: a number of something else (a categorical word about a
                # result is a claim wherever it is: "Sibyl's retrieval never misses")
            sl = slices.owner(num.start, num.end)
            own_keys, own_unsure = keys, unsure
            if several is not None:
                owner = several.owner(num.start, num.end)
                own_keys = tuple(k for k in keys if k[0] == owner) if owner else ()
                own_unsure = () if own_keys else tuple(raw for _, raw in keys)
            line, col = doc.where(block.offset(src))
            raw = block.raw(doc.source, src, n.source(a + num.end - 1) + 1)
            questions = (num.of if num.of is not None and (not num.bare or num.share)
                         and num.value * num.of == int(num.value * num.of)
                         else next(iter(counts)) if len(counts) == 1 else None)
            out.append(Claim(doc.path, line, col, _read_as(num), num.value, num.unit,
                             metric.key if metric else None,
                             metric.raw if metric else (own_keys[0][1] if own_keys else "the number"), own_keys, sl,
                             bound if bound else None, num.ambiguous, quote, raw=raw,
                             run_kind=kinds.owner(num.start, num.end), questions=questions,
                             adjacent=adjacent, unsure=own_unsure, judge=judge,
                             subset=subset and questions is None, difference=num.difference,
                             granularity=granularity(text, metric if metric in named else None)
                             or self._note_grain(text, num.end)
                             or (self._note_grain(text, metric.end) if metric in named and metric else None)
                             or notes_grain or grain_around,
                             also=renamed(text, by_start, mention_starts, metric if metric in named else None,
                                          (num.start, num.end)), whole=whole))
            starts.append(num.start)
            ends.append(num.end)
        listed = respectively(lower, starts, slices.found)
        if listed is not None:
            out = [replace(c, slice=sl) for c, sl in zip(out, listed)]
        given = coordinated(text, list(zip(starts, ends)), names.found)
        out = [replace(c, metric=m.key, named=m.raw, adjacent=True) if ms else c
               for c, ms in zip(out, given) for m in (ms or [None])]
        return out

    # --- tables ------------------------------------------------------------------------------

    def _table(self, index: int, table: Table) -> dict[str, Any]:
        """What a table's header row, caption and sections name (computed once per table)."""
        if index not in self._tables:
            heads = [_cell_text(c) for c in table.header]
            self._tables[index] = {
                "heads": heads,
                "metrics": [mentions(h, self.p.metrics) for h in heads],
                "slices": [mentions(h.lower(), self.p.slices) for h in heads],
                "kinds": next((m.key for t in (table.caption, *table.headings)
                               for m in mentions(t.lower(), RUN_KINDS)[:1]), None),
                "context": " ".join(heads),
            }
        return self._tables[index]

    def _row(self, index: int, table: Table, row: int) -> tuple[str, ...]:
        if (index, row) not in self._rows:
            self._rows[(index, row)] = tuple(_cell_text(c) for c in table.rows[row])
        return self._rows[(index, row)]

    def _cell_claims(self, block: Block, n: Normal, table: Table) -> list[Claim]:
        doc, p = self.doc, self.p
        # a share above 100% under a metric's column or in a metric's row is a claim too (below)
        found = [x for x in numbers(n.text) if x.ambiguous is not None or x.value <= 1 or not x.bare]
        if not found:
            return []
        assert block.table is not None
        info = self._table(block.table, table)
        header = info["heads"][block.col] if block.col < len(info["heads"]) else ""
        cells = self._row(block.table, table, block.row)
        first = cells[0] if cells else ""
        head_metric = info["metrics"][block.col] if block.col < len(info["metrics"]) else []
        # the metric of a row: its first cell ("| recall@5 | 96.96% |"), or a cell that is just a
        # metric's name in a "System | Metric | Score" table
        row_metric = mentions(first, p.metrics) if block.col > 0 else []
        first_names = bool(row_metric)  # the first cell names the row's metric (not another cell)
        if not row_metric:
            # a cell of the row that names a metric and holds no number: "| Sibyl | LongMemEval R@5 | 99.6% |"
            named = [m for j, c in enumerate(cells) if j != block.col and not numbers(c)
                     for m in mentions(c, p.metrics)]
            row_metric = named if len({m.key for m in named}) == 1 else []
        cell_bench = tuple(dict.fromkeys((m.key, m.raw) for t in (header, *cells)
                                         for m in mentions(t, p.benchmarks)))
        around = self._around(block, table, (info["context"],))
        keys = cell_bench or around.benchmarks
        unsure = () if keys else around.unsure
        sl_row = _named_slices(mentions(first.lower(), p.slices)) if block.col > 0 else []
        sl_head = _named_slices(info["slices"][block.col]) if block.col < len(info["slices"]) else []
        sl = (sl_row or sl_head or [None])[0]
        kind = next((m.key for t in (first, header) for m in mentions(t.lower(), RUN_KINDS)[:1]), None) \
            or info["kinds"]
        counts_column = _NOT_RESULT_HEADER.search(header) is not None or _NOT_RESULT_HEADER.search(first) is not None
        skip_after = _skip_after(p.skip_after)
        out: list[Claim] = []
        for num in found:
            src = n.source(num.start)
            if block.in_code(src) and not p.include_code:
                continue
            if skip_after.match(n.text, num.end):
                continue
            metric = (head_metric or row_metric or [None])[0]
            # "| Recall@5 (hit@5) |": the column's value is given as both
            also = renamed(header, head_metric, [m.start for m in head_metric], metric) if head_metric else \
                renamed(first, row_metric, [m.start for m in row_metric], metric) if first_names else ()
            if num.bare:
                # A bare number is a result under a metric's column ("| R@5 (%) | 99.6 |"), or in a row
                # named by a metric when its column is no count, size or time column.
                if block.col == 0 or _BARE_UNIT.match(n.text, num.end):
                    continue
                if not head_metric and not (row_metric and not _NOT_RESULT_HEADER.search(header)):
                    continue
            elif _not_a_result(n.text, num) or (counts_column and not head_metric and not row_metric
                                                and (num.of is not None or not num.percent)):
                continue  # a count or a quantity under a column of counts, sizes or times
            if num.difference and _difference_agrees(num, cells, block.col):
                continue  # "+0.38pp" next to 96.96% and 97.35%: the row's own arithmetic, each value a claim
            if num.ambiguous is None and num.value > 1 and not (head_metric or row_metric) and not num.difference:
                continue  # above 100% is a claim only under a metric's column or in a metric's row
            if metric is None and around.metric is not None:
                metric = around.metric
            if metric is None and not keys and not unsure:
                continue
            line, col = doc.where(block.offset(src))
            where = f'row "{shown(first)}", column "{shown(header)}"' if block.col > 0 else f'column "{shown(header)}"'
            out.append(Claim(doc.path, line, col, _read_as(num), num.value, num.unit,
                             metric.key if metric else None,
                             metric.raw if metric else (keys[0][1] if keys else "the number"), keys,
                             sl.key if sl else None, None, num.ambiguous, f"in the table at {where}", cells, header,
                             block.table, block.row, block.raw(doc.source, src, n.source(num.end - 1) + 1), kind,
                             questions=num.of, adjacent=bool(head_metric or row_metric), unsure=unsure,
                             judge=judge_in(f"{header} {' '.join(cells)} {table.caption} {' '.join(table.headings)}"),
                             subset=num.of is None and _SUBSET.search(
                                 f"{header} {' '.join(cells)} {table.caption} {' '.join(table.headings)}") is not None,
                             difference=num.difference,
                             granularity=next((g for g in (granularity(n.text), self._note_grain(n.text),
                                                          granularity(header), self._note_grain(header),
                                                          granularity(first), self._note_grain(first),
                                                          *(granularity(t) for t in (
                                                              table.caption, *reversed(table.headings))))
                                               if g is not None), None), also=also,
                             whole=next((w for w in map(whole_set, (n.text, header, first, table.caption,
                                                                    *reversed(table.headings))) if w), None)))
        return out


# A result said to be on the whole benchmark, in words: "all 5 categories", "every conversation",
# "the full benchmark", "the entire LoCoMo dataset", "all questions" (a question count, "all 500
# questions", is read as the count), or on all of it but a part: "all categories except
# adversarial". Neither can be compared with the groups evidence states it is over.
_SMALL = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
          "eleven": 11, "twelve": 12}
_WHOLE = re.compile(
    r"\b(?:all|every)\s+(?:of\s+)?(?:the\s+|its\s+)?(?:(?P<n>\d{1,2}|" + "|".join(_SMALL) + r")\s+)?"
    r"(?:(?:question|benchmark|locomo)\s+)?(?P<noun>categories|category|conversations?|dialogues?|types|tasks|splits)\b"
    r"|\b(?:the\s+)?(?:full|whole|entire|complete|unfiltered)\s+(?:[\w-]+\s+){0,2}?(?:benchmark|dataset|data\s?set|"
    r"test\s+set|question\s+set|set\s+of\s+questions|suite)\b"
    r"|\ball\s+(?:of\s+)?(?:the\s+|its\s+)?questions\b",
    re.IGNORECASE)
_BUT = re.compile(r"\s*,?\s*(?:except|but|other\s+than|excluding|save|without|minus)\s+(?:the\s+)?[\w-]+"
                  r"(?:\s+(?:and|or)\s+[\w-]+)?", re.IGNORECASE)


@lru_cache(maxsize=1024)
def whole_set(text: str) -> str | None:
    """The words of a text that say a result is on the whole benchmark (or all of it but a part),
    or None."""
    m = _WHOLE.search(text)
    if m is None:
        return None
    but = _BUT.match(text, m.end())
    return text[m.start():but.end() if but else m.end()]


def whole_count(words: str) -> int | None:
    """The number of categories "all 5 categories" names, or None (another noun, no number, or
    all but a part)."""
    m = _WHOLE.match(words)
    if m is None or m.end() != len(words) or not m.group("n") \
            or not (m.group("noun") or "").lower().startswith("categor"):
        return None
    n = m.group("n").lower()
    return int(n) if n.isdigit() else _SMALL[n]


# A result said to be on part of the benchmark: "a LongMemEval subset", "a random sample", "the first 100".
_SUBSET = re.compile(r"\b(?:subsets?|samples?|sampled|subsampled|partial|portion|first\s+\d+|random\s+\d+|"
                     r"held[- ]out)\b", re.IGNORECASE)
# A column of counts, sizes or times: its bare numbers are not results even in a row named by a metric.
_NOT_RESULT_HEADER = re.compile(r"\b(?:questions?|cases|queries|qs|n|k|count|samples|examples|items|sessions?|turns?|"
                                r"tokens?|ms|seconds?|latency|time|elapsed|cost|size|runs?|date|version|commit|"
                                r"run\s*id)\b|^#$|\$", re.IGNORECASE)


def question_counts(text: str) -> list[tuple[int, int, int]]:
    """(start, end, count) of "470 questions", "500/500 questions", "(470-question subset)"."""
    out = []
    for m in _COUNT.finditer(text):
        out.append((m.start(), m.end(), int(m.group(1).replace(",", ""))))
    return out
