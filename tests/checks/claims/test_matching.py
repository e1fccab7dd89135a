"""The claims scan: reading Markdown, spellings of numbers and phrases, slices, tables, the
check kinds, and what a SOTA verdict must be to back a claim."""

from __future__ import annotations

import copy
import json
import re
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

import pytest
import yaml

from bench_gate.checks.base import Context
from bench_gate.checks.claims.commonmark import read
from bench_gate.checks.claims.lexer import (
    DEFAULT_BENCHMARKS, DEFAULT_METRICS, DEFAULT_SLICES, Patterns, claims_in, slice_patterns,
)
from bench_gate.checks.claims.matching import (
    BoundaryParams, Forbidden, LedgerParams, NumbersParams, PhraseParams, Required, SubsetParams,
    claim_boundary, claim_ledger, claim_numbers, claim_phrase, claim_subset, matches, verdict_problems,
)

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
SCOPE = "LongMemEval-style offline longmemeval_s_cleaned"
VALUES = [
    {"metric": "recall@5", "value": 0.9405666666666668, "entry": "/citable/0", "artifact": "a.json", "scope": SCOPE},
    {"metric": "hit@5", "value": 0.98, "entry": "/citable/0", "artifact": "a.json", "scope": SCOPE},
    {"metric": "ndcg@5", "value": 0.910665795901335, "entry": "/citable/0", "artifact": "a.json", "scope": SCOPE},
    {"metric": "recall@10", "value": 0.9717, "entry": "/citable/0", "artifact": "a.json", "scope": SCOPE},
    {"metric": "recall@5", "value": 1.0, "entry": "/citable/0", "artifact": "a.json", "scope": SCOPE,
     "slice": "single-session-preference"},
    {"metric": "ndcg@5", "value": 0.8172000628001358, "entry": "/citable/0", "artifact": "a.json", "scope": SCOPE,
     "slice": "single-session-preference"},
    {"metric": "recall@5", "value": 0.9171, "entry": "/citable/1", "artifact": "raw.json", "scope": SCOPE},
    {"metric": "hit@5", "value": 0.966, "entry": "/citable/1", "artifact": "raw.json", "scope": SCOPE},
]
ENTRIES = [
    {"entry": "/citable/0", "artifact": "a.json", "scope": SCOPE, "mode": "hybrid",
     "ids": ["26304777971", "36032a25b2893f2fbcbc074bd0c212fb829dd975", "a.json", "a"], "questions": 500,
     "runtime": {"embedding_provider": "openai", "embedding_model": "text-embedding-3-small"}},
    {"entry": "/citable/1", "artifact": "raw.json", "scope": SCOPE, "mode": "raw", "ids": ["raw.json", "raw"],
     "questions": 500, "runtime": {"embedding_provider": "chromadb", "embedding_model": "chromadb_default"}},
]


def ctx(text: str, path: str = "README.md", verdict: Any = None, include_code: bool = False,
        ledger: dict[str, Any] | None = None, entries: list[dict[str, Any]] | None = None,
        sota_run: Any = None) -> Context:
    return context(
        scan=doc("scan", {"files": [{"path": path, "text": text}], "include_code": include_code}, path=path),
        citable=doc("citable", {"values": VALUES, "entries": ENTRIES if entries is None else entries,
                                "verdict": verdict, "ledger": ledger, "sota_run": sota_run, "tool_version": "0.1.0"},
                    path="m.json"))


def policy_rule(rule_id: str) -> dict[str, Any]:
    rules = yaml.safe_load((ROOT / "policies" / "claims.yaml").read_text(encoding="utf-8"))["rules"]
    return next(r for r in rules if r["id"] == rule_id)


def phrase_params(rule_id: str) -> PhraseParams:
    """The rule's parameters as the built-in claims profile binds them."""
    from bench_gate.profile import load_profile
    from bench_gate.profile.binding import bind

    return next(r.params for r in bind(load_profile("claims")).rules if r.id == rule_id)


# --- precision ---------------------------------------------------------------------------

PRECISION = [
    ("96.6%-low", "0.966", "0.001", "0.9660", True),
    ("96.6%-high-truncated", "0.966", "0.001", "0.9669", True),
    ("96.6%-rounded-up", "0.966", "0.001", "0.9655", True),
    ("96.6%-too-low", "0.966", "0.001", "0.9654", False),
    ("96.6%-too-high", "0.966", "0.001", "0.967", False),
    ("0.97-low", "0.97", "0.01", "0.965", True),
    ("0.97-high", "0.97", "0.01", "0.975", True),
    ("0.97-below", "0.97", "0.01", "0.9649", False),
    ("exact", "0.9406", "0.0001", "0.94056666", True),
]


@pytest.mark.parametrize("written,unit,value,ok", [r[1:] for r in PRECISION], ids=[r[0] for r in PRECISION])
def test_precision(written: str, unit: str, value: str, ok: bool) -> None:
    assert matches(Fraction(value), Fraction(written), Fraction(unit)) is ok


# --- reading Markdown --------------------------------------------------------------------

READING = [
    ("front-matter-description-is-read", "page.md", "---\ntitle: Results\ndescription: R@5 is 96%\n---\n\nBody.",
     [("front-matter", "R@5 is 96%", 3, 14), ("paragraph", "Body.", 6, 1)]),
    ("txt-dashes-are-text", "notes.txt", "---\ntitle: x\n---\nBody.", [("text", "--- title: x --- Body.", 1, 1)]),
    ("text-after-inline-comment-kept", "page.md", "<!-- note --> Recall is 97%.",
     [("comment", " note ", 1, 5), ("html", " Recall is 97%.", 1, 14)]),
    ("comment-inside-paragraph", "page.md", "Recall <!-- x --> is 97%.",
     [("paragraph", "Recall  is 97%.", 1, 1), ("comment", " x ", 1, 12)]),
    ("comment-text-is-read", "page.md", "<!--\nR@5 is 99.6%\n-->\n\nText.",
     [("comment", "\nR@5 is 99.6%\n", 1, 5), ("paragraph", "Text.", 5, 1)]),
    ("img-alt-in-html", "page.md", '<img alt="LongMemEval-S recall@5 99.6%" src="b.svg" width="100%">',
     [("attribute", "LongMemEval-S recall@5 99.6%", 1, 11)]),
    ("img-alt-inline", "page.md", 'See <img alt="R@5 99.6%"> here.',
     [("paragraph", "See  here.", 1, 1), ("attribute", "R@5 99.6%", 1, 15)]),
    ("mdx-component-attributes", "page.mdx", '<Stat label="LongMemEval-S recall@5" value="99.6%" />',
     [("attribute", "LongMemEval-S recall@5 99.6%", 1, 14)]),
    ("mdx-tag-across-lines", "page.mdx", 'Our <Stat\n  label="R@5"\n  value="99.6%" />',
     [("paragraph", "Our ", 1, 1), ("attribute", "R@5 99.6%", 2, 10)]),
    ("mdx-expression-attributes-are-text", "page.mdx", '<Stat label={"R@5"} value={"99.6%"} />',
     [("paragraph", '<Stat label={"R@5"} value={"99.6%"} />', 1, 1)]),
    ("html-badge-src", "page.md", '<img src="https://img.shields.io/badge/LongMemEval_R@5-99.6%25-brightgreen">',
     [("attribute", "LongMemEval R@5 99.6%", 1, 40)]),
    ("shields-static-badge", "page.md",
     "![b](https://img.shields.io/static/v1?label=LongMemEval%20R%405&message=99.6%25&color=green)",
     [("attribute", "b LongMemEval R@5 99.6%", 1, 3)]),
    ("badgen-badge", "page.md", "![b](https://badgen.net/badge/LongMemEval%20R@5/99.6%25/green)",
     [("attribute", "b LongMemEval R@5 99.6%", 1, 3)]),
    ("footnote-is-read", "page.md", "R@5 is[^1]\n\n[^1]: 99.6%",
     [("paragraph", "R@5 is^1", 1, 1), ("footnote", "[^1]: 99.6%", 3, 1)]),
    ("reference-definition-is-read", "page.md", "[r]: https://x.org 'R@5 99.6%'",
     [("reference", "[r]: https://x.org 'R@5 99.6%'", 1, 1)]),
    ("zero-width-characters-left-out", "page.md", "R@5 is 9\u20629.\u034f6\u2064%.",
     [("paragraph", "R@5 is 99.6%.", 1, 1)]),
    ("front-matter-as-yaml", "page.md",
     "---\ntitle: T\ndescription: >-\n  LongMemEval-S R@5\n  of 99.6%\nhighlights:\n  - R@5 of 99.6%\n"
     "seo: {description: nDCG@5 of 99.1%}\nrecall@5: 0.996\n---\nBody.",
     [("front-matter", "LongMemEval-S R@5 of 99.6%", 4, 3), ("front-matter", "R@5 of 99.6%", 7, 5),
      ("front-matter", "nDCG@5 of 99.1%", 8, 20), ("front-matter", "recall@5: 0.996", 9, 1),
      ("paragraph", "Body.", 11, 1)]),
    ("backticks-then-code-is-no-fence", "page.md", "``` `x`\nR@5 is 97%.",
     [("paragraph", "``` x R@5 is 97%.", 1, 1)]),
    ("fence-is-skipped", "page.md", "Before.\n\n```\nR@5 0.5\n```\n\nAfter.",
     [("paragraph", "Before.", 1, 1), ("paragraph", "After.", 7, 1)]),
    ("block-quote", "page.md", "> quoted\n> line", [("quote", "quoted line", 1, 3)]),
    ("list-items", "page.md", "- one\n- two", [("item", "one", 1, 3), ("item", "two", 2, 3)]),
    ("escapes-and-entities", "page.md", "R@5 99\\% and 99&#37;", [("paragraph", "R@5 99% and 99%", 1, 1)]),
    ("badge", "page.md", "[![b](https://img.shields.io/badge/R%405-96.6%25-green)](#x)",
     [("attribute", "b R@5 96.6%", 1, 4)]),
    ("table-cells", "page.md", "| Mode | R@5 |\n|---|---|\n| Raw | **96.6%** |",
     [("cell", "Mode", 1, 3), ("cell", "R@5", 1, 10), ("cell", "Raw", 3, 3), ("cell", "96.6%", 3, 11)]),
]


@pytest.mark.parametrize("path,text,expected", [r[1:] for r in READING], ids=[r[0] for r in READING])
def test_reading(path: str, text: str, expected: list[tuple[str, str, int, int]]) -> None:
    doc = read(path, text)
    assert [(b.kind, b.text, *doc.where(b.offset(0))) for b in doc.blocks] == expected


def test_fence_read_with_include_code() -> None:
    doc = read("page.md", "```\nRecall@5: 0.966\n```", include_code=True)
    assert [(b.kind, b.text, *doc.where(b.offset(0))) for b in doc.blocks] == [("code", "Recall@5: 0.966", 2, 1)]


def test_headings_give_sections() -> None:
    doc = read("page.md", "# LongMemEval\n\n## Per type\n\nText.")
    assert doc.blocks[-1].headings == ("LongMemEval", "Per type")


# --- spellings: every one reads as the number a person reads -----------------------------

PATTERNS = Patterns(DEFAULT_METRICS, DEFAULT_BENCHMARKS, slice_patterns(DEFAULT_SLICES),
                    NumbersParams().skip_after)

SPELLINGS = [
    ("escaped-percent", "R@5 is 99\\%.", "99%", "0.99", None),
    ("entity-percent", "R@5 is 99&#37;.", "99%", "0.99", None),
    ("spaces-before-percent", "R@5 is 99  %.", "99 %", "0.99", None),
    ("fullwidth-percent", "R@5 is 99.0％.", "99.0%", "0.99", None),
    ("leading-dot", "R@5 is .99.", ".99", "0.99", None),
    ("pct", "R@5 is 99 pct.", "99 pct", "0.99", None),
    ("percent-word", "R@5 is 99 percent.", "99 percent", "0.99", None),
    ("zero-width-space", "R@5 is 9\u200b9%.", "99%", "0.99", None),
    ("no-break-space", "R@5 is 99\u00a0%.", "99 %", "0.99", None),
    ("comma-decimal", "R@5 is 0,99.", "0,99", None, "0,99 has a decimal comma"),
    ("comma-decimal-percent", "R@5 is 96,6 %.", "96,6 %", None, "96,6 % has a decimal comma"),
    ("range", "R@5 is 95-99%.", "95-99%", None, "95-99% is a range"),
    ("range-en-dash", "R@5 is 95\u201399%.", "95-99%", None, "95-99% is a range"),
    ("range-to", "R@5 is 95 to 99%.", "95 to 99%", None, "95 to 99% is a range"),
    ("bare-percent-scale", "R@5 is 99.6.", "99.6 (read as 99.6%)", "0.996", None),
    ("bare-one-is-perfect", "R@5 is 1.", "1 (read as 100%)", "1", None),
    ("count-slash", "R@5 is 498/500.", "498/500 (read as 99.6%)", "0.996", None),
    ("count-of", "R@5 is 498 of 500.", "498 of 500 (read as 99.6%)", "0.996", None),
    ("count-out-of", "R@5 is 498 out of 500.", "498 out of 500 (read as 99.6%)", "0.996", None),
    ("score-over-100", "R@5 is 99.6 / 100.", "99.6 / 100 (read as 99.6%)", "0.996", None),
    ("spelled-out", "R@5 is ninety-nine point six percent.", "ninety-nine point six percent", "0.996", None),
    ("exponent", "R@5 is 9.96e-1.", "9.96e-1", "0.996", None),
    ("per-mille", "R@5 is 996‰.", "996‰", "0.996", None),
]


@pytest.mark.parametrize("text,written,value,ambiguous", [r[1:] for r in SPELLINGS], ids=[r[0] for r in SPELLINGS])
def test_spellings(text: str, written: str, value: str | None, ambiguous: str | None) -> None:
    found = claims_in(read("page.md", text), PATTERNS)
    assert len(found) == 1
    c = found[0]
    assert (c.written, c.metric, c.line, c.col) == (written, "recall@5", 1, 8)
    if ambiguous:
        assert c.ambiguous is not None and c.ambiguous.startswith(ambiguous)
    else:
        assert (c.value, c.ambiguous) == (Fraction(value), None)


METRICS = [
    ("metric-far-away", "Recall@5 on the full benchmark, with every session ingested through the production write "
                        "path and no reranking of any kind, reached 94.1%.", "recall@5"),
    ("top-5-recall", "It has 97% top-5 recall.", "recall@5"),
    ("recall-top-five", "Recall (top-5) is 97%.", "recall@5"),
    ("recall-at-10", "Recall at 10 is 97%.", "recall@10"),
    ("number-before-metric", "Strict recall is 96.96% R@5 and 98.90% R@10.", "recall@5"),
    ("hit-rate", "Hit@5 is 98%.", "hit@5"),
    ("h-at", "H@5 is 98%.", "hit@5"),
    ("ndcg", "nDCG@5 is 0.91.", "ndcg@5"),
    ("qa", "QA accuracy is 61%.", "qa_accuracy"),
    ("recall-any-k", "Recall@K is 94%.", "recall@*"),
]


@pytest.mark.parametrize("text,metric", [r[1:] for r in METRICS], ids=[r[0] for r in METRICS])
def test_metric_attribution(text: str, metric: str) -> None:
    assert claims_in(read("page.md", text), PATTERNS)[0].metric == metric


NOT_CLAIMS = [
    ("integer-count", "R@5 over 500 questions."),
    ("version", "Scored with gpt-5.2 on recall@5."),
    ("gate-tolerance", "The gate fails on a recall@5 regression larger than 1.0 percentage point."),
    ("inline-code", "Set `min_recall = 0.5` for strict recall."),
    ("disclaimer", 'Not "100% recall."'),
    ("worked-example", "A two-answer question scored 1/2 contributes 0.5 to strict recall but 1.0 to hit."),
    ("threshold-far-from-metric", "When a filter retains less than 10% of the corpus, candidates keep useful recall."),
    ("no-metric-no-benchmark", "Version 0.5 ships 96% fewer bugs."),
    ("change-by", "Recall@5 improved by 2%."),
    ("k-values", "We report recall@k at k = 5 and 10."),
    ("bare-count-of-units", "R@5 of 5 sessions per question."),
    ("bare-number-far-from-metric", "Recall@5 was measured in 3 runs on 6 question types."),
    ("bare-list-after-comma", "Recall@5, 10 and 20 are reported."),
    ("count-of-questions", "LongMemEval-S has 500 questions; 470 of 500 are answerable."),
    ("bare-in-metric-name", "Top 5 recall was measured."),
]


@pytest.mark.parametrize("text", [r[1] for r in NOT_CLAIMS], ids=[r[0] for r in NOT_CLAIMS])
def test_not_claims(text: str) -> None:
    assert claims_in(read("page.md", text), PATTERNS) == []


# --- claim_numbers -----------------------------------------------------------------------

NUMBERS = [
    ('matched-percent', 'Strict recall@5 is 94.1%.', 'unmatched', [
        ('pass', ('README.md:1:20: confirmed: recall@5 94.1% matches citable recall@5 0.9406 (94.06%) of '
                  '/citable/0 (a.json) in "Strict recall@5 is 94.1%."')),
    ]),
    ('unmatched-with-nearest', 'recall@5 of 99.5% on LongMemEval.', 'unmatched', [
        ('fail', ('README.md:1:13: contradicted: recall@5 99.5% matches no citable value at the precision '
                  'written; the evidence gives recall@5 on LongMemEval 0.9406 (94.06%) (/citable/0, a.json); '
                  '/citable/1 gives 0.9171 (91.71%) in "recall@5 of 99.5% on LongMemEval."')),
    ]),
    ('other-benchmark', 'LoCoMo recall@5 is 94.1%.', 'unmatched', [
        ('fail', ('README.md:1:20: untestable: recall@5 94.1%: no evidence covers LoCoMo in "LoCoMo recall@5 '
                  'is 94.1%."')),
    ]),
    ('top-5-recall-is-not-recall-at-10', 'It has 97% top-5 recall.', 'hit_as_recall', [
        ('fail', ("README.md:1:8: contradicted: 97% is called 'top-5 recall' but it is the hit@5 value 0.966 "
                  '(96.6%) of /citable/1, not strict recall (the citable strict recall differs) in "It has '
                  '97% top-5 recall."')),
    ]),
    ('per-type-prose', ('Single-session preference: the session is always present (R@5 = 100%), but it ranks '
                        'low (NDCG@5 = 81.72%).'), 'unmatched', [
        ('pass', ('README.md:1:65: confirmed: recall@5 of single-session-preference 100% matches citable '
                  'recall@5 of single-session-preference 1 (100%) of /citable/0 (a.json) in "Single-session '
                  'preference: the session is always present (R@5 = 100%), but it ranks low (NDCG@5 = '
                  '81.72%)."')),
        ('pass', ('README.md:1:99: confirmed: ndcg@5 of single-session-preference 81.72% matches citable '
                  'ndcg@5 of single-session-preference 0.8172 (81.72%) of /citable/0 (a.json) in '
                  '"Single-session preference: the session is always present (R@5 = 100%), but it ranks low '
                  '(NDCG@5 = 81.72%)."')),
    ]),
    ('per-type-not-overall', 'Temporal reasoning R@5 is 94.06%.', 'unmatched', [
        ('fail', ('README.md:1:27: untestable: recall@5 of temporal-reasoning 94.06%: the evidence has no '
                  'recall@5 of temporal-reasoning in "Temporal reasoning R@5 is 94.06%."')),
    ]),
    ('table-column-header', '| Mode | LongMemEval R@5 |\n|---|---|\n| Hybrid | **94.1%** |', 'unmatched', [
        ('pass', ('README.md:3:14: confirmed: recall@5 94.1% matches citable recall@5 0.9406 (94.06%) of '
                  '/citable/0 (a.json) in the table at row "Hybrid", column "LongMemEval R@5"')),
    ]),
    ('table-row-mode-is-hit-as-recall', '| Mode | LongMemEval R@5 |\n|---|---|\n| Raw | **96.6%** |', 'hit_as_recall', [
        ('fail', ("README.md:3:11: contradicted: 96.6% is called 'R@5' but it is the hit@5 value 0.966 "
                  '(96.6%) of /citable/1, not strict recall (the citable strict recall differs) in the table '
                  'at row "Raw", column "LongMemEval R@5"')),
    ]),
    ('table-row-header-metric', '## LongMemEval\n\n| Metric | Value |\n|---|---|\n| `ndcg@5` | 91.07% |', 'unmatched', [
        ('pass', ('README.md:5:14: confirmed: ndcg@5 91.07% matches citable ndcg@5 0.9107 (91.07%) of '
                  '/citable/0 (a.json) in the table at row "ndcg@5", column "Value"')),
    ]),
    ('bound-holds', 'Recall@5 above 0.9 on every run.', 'unmatched', [
        ('pass', ('README.md:1:16: confirmed: recall@5 at least 0.9 matches citable recall@5 0.9406 (94.06%) '
                  'of /citable/0 (a.json) in "Recall@5 above 0.9 on every run."')),
    ]),
    ('hit-called-recall', 'Recall@5 reaches 98%.', 'hit_as_recall', [
        ('fail', ("README.md:1:18: contradicted: 98% is called 'Recall@5' but it is the hit@5 value 0.98 "
                  '(98%) of /citable/0, not strict recall (the citable strict recall differs) in "Recall@5 '
                  'reaches 98%."')),
    ]),
    ('retrieval-called-qa', 'QA accuracy: 91%.', 'retrieval_as_qa', [
        ('fail', ("README.md:1:14: contradicted: 91% is called 'QA accuracy' but it is the retrieval metric "
                  'ndcg@5 0.9107 (91.07%) of /citable/0, not QA accuracy in "QA accuracy: 91%."')),
    ]),
    ('range-is-ambiguous', 'R@5 is 95-99%.', 'ambiguous', [
        ('fail', ('README.md:1:8: untestable: 95-99% is a range, not one value; a claim must state the one '
                  'value the evidence can match in "R@5 is 95-99%."')),
    ]),
    ('heading-claim', '## 98% R@5 on LongMemEval', 'hit_as_recall', [
        ('fail', ("README.md:1:4: contradicted: 98% is called 'R@5' but it is the hit@5 value 0.98 (98%) of "
                  '/citable/0, not strict recall (the citable strict recall differs) in "98% R@5 on '
                  'LongMemEval"')),
    ]),
    ('table-percent-header-bare', '| System | R@5 (%) | Questions |\n|---|---|---|\n| Sibyl | 99.6 | 500 |', 'unmatched', [
        ('fail', ('README.md:3:11: contradicted: recall@5 99.6 (read as 99.6%) matches no citable value at '
                  'the precision written; the evidence gives recall@5 0.9406 (94.06%) (/citable/0, a.json); '
                  '/citable/1 gives 0.9171 (91.71%) in the table at row "Sibyl", column "R@5 (%)"')),
    ]),
    ('table-row-metric-bare-not-in-count-column', ('| Metric | k | Value |\n|---|---|---|\n| recall@5 | 5 | '
                                                   '94.06 |'), 'unmatched', [
        ('pass', ('README.md:3:18: confirmed: recall@5 94.06 (read as 94.06%) matches citable recall@5 '
                  '0.9406 (94.06%) of /citable/0 (a.json) in the table at row "recall@5", column "Value"')),
    ]),
    ('two-types-each-its-own', 'Single-session preference R@5 is 100% and temporal reasoning R@5 is 100%.', 'unmatched', [
        ('pass', ('README.md:1:34: confirmed: recall@5 of single-session-preference 100% matches citable '
                  'recall@5 of single-session-preference 1 (100%) of /citable/0 (a.json) in "Single-session '
                  'preference R@5 is 100% and temporal reasoning R@5 is 100%."')),
        ('fail', ('README.md:1:69: untestable: recall@5 of temporal-reasoning 100%: the evidence has no '
                  'recall@5 of temporal-reasoning in "Single-session preference R@5 is 100% and temporal '
                  'reasoning R@5 is 100%."')),
    ]),
    ('type-after-number', 'R@5 is 100% for preference questions and 94.06% overall.', 'unmatched', [
        ('pass', ('README.md:1:8: confirmed: recall@5 of single-session-preference 100% matches citable '
                  'recall@5 of single-session-preference 1 (100%) of /citable/0 (a.json) in "R@5 is 100% for '
                  'preference questions and 94.06% overall."')),
        ('pass', ('README.md:1:42: confirmed: recall@5 94.06% matches citable recall@5 0.9406 (94.06%) of '
                  '/citable/0 (a.json) in "R@5 is 100% for preference questions and 94.06% overall."')),
    ]),
    ('types-then-numbers-respectively', ('Single-session preference and temporal reasoning R@5 are 100% and '
                                         '94.06%.'), 'unmatched', [
        ('pass', ('README.md:1:58: confirmed: recall@5 of single-session-preference 100% matches citable '
                  'recall@5 of single-session-preference 1 (100%) of /citable/0 (a.json) in "Single-session '
                  'preference and temporal reasoning R@5 are 100% and 94.06%."')),
        ('fail', ('README.md:1:67: untestable: recall@5 of temporal-reasoning 94.06%: the evidence has no '
                  'recall@5 of temporal-reasoning in "Single-session preference and temporal reasoning R@5 '
                  'are 100% and 94.06%."')),
    ]),
    ('short-type-name-as-a-label', 'Preference: R@5 = 94.06%.', 'unmatched', [
        ('fail', ('README.md:1:19: contradicted: recall@5 of single-session-preference 94.06% matches no '
                  'citable value at the precision written; the evidence gives recall@5 of '
                  'single-session-preference 1 (100%) (/citable/0, a.json) in "Preference: R@5 = 94.06%."')),
    ]),
    ('short-type-name-in-a-cell', '| Question type | R@5 |\n|---|---|\n| preference (30) | 100% |', 'unmatched', [
        ('pass', ('README.md:3:21: confirmed: recall@5 of single-session-preference 100% matches citable '
                  'recall@5 of single-session-preference 1 (100%) of /citable/0 (a.json) in the table at row '
                  '"preference (30)", column "R@5"')),
    ]),
    ('second-run-in-the-sentence', 'Preference: R@5 = 100%, against 90% for the default.', 'unmatched', [
        ('pass', ('README.md:1:19: confirmed: recall@5 of single-session-preference 100% matches citable recall@5 of '
                  'single-session-preference 1 (100%) of /citable/0 (a.json) in "Preference: R@5 = 100%, against 90% '
                  'for the default."')),
        ('fail', ("README.md:1:33: untestable: recall@5 of single-session-preference 90%: the evidence's recall@5 of "
                  "single-session-preference 1 (100%) is the value 100% in the same sentence states, so this number is "
                  "of another run or setting, and no evidence covers it in \"Preference: R@5 = 100%, against 90% for "
                  "the default.\"")),
    ]),
    ('alone-it-is-contradicted', 'Preference: R@5 = 90%.', 'unmatched', [
        ('fail', ('README.md:1:19: contradicted: recall@5 of single-session-preference 90% matches no citable value '
                  'at the precision written; the evidence gives recall@5 of single-session-preference 1 (100%) '
                  '(/citable/0, a.json) in "Preference: R@5 = 90%."')),
    ]),
    ('another-run-could-be-it', 'Strict recall@5 is 94.1%, against 90.0% for the default.', 'unmatched', [
        ('pass', ('README.md:1:20: confirmed: recall@5 94.1% matches citable recall@5 0.9406 (94.06%) of /citable/0 '
                  '(a.json) in "Strict recall@5 is 94.1%, against 90.0% for the default."')),
        ('fail', ('README.md:1:35: contradicted: recall@5 90.0% matches no citable value at the precision written; '
                  'the evidence gives recall@5 0.9171 (91.71%) (/citable/1, raw.json); /citable/0 gives 0.9406 '
                  '(94.06%) in "Strict recall@5 is 94.1%, against 90.0% for the default."')),
    ]),
    ('no-claim-passes', '# Setup\n\nInstall with pip. It needs 500 questions and 2 GB.', 'unmatched', [
        ('pass', 'no benchmark number found in 1 file'),
    ]),
]


@pytest.mark.parametrize("text,report,expected", [r[1:] for r in NUMBERS], ids=[r[0] for r in NUMBERS])
def test_numbers(text: str, report: str, expected: list[tuple[str, str]]) -> None:
    got = [(f.status, f.message) for f in run_kind(claim_numbers, NumbersParams(report=report), ctx(text))]
    assert got == expected


PROGRESSION = """| Run | R@5 |
|---|---:|
| 26137429505 | 92.45% |
| 26304777971 | 94.06% |
"""


def test_progression_table_rows_of_other_runs_are_history() -> None:
    got = [(f.status, f.message) for f in run_kind(claim_numbers, NumbersParams(), ctx(PROGRESSION))]
    assert got == [
        ("skip", "README.md:3:17: row of run 26137429505 is history (an earlier run) in a table that also holds the "
                 "citable run's row; the ledger does not cite run 26137429505, so its numbers (92.45% first) are not "
                 "checked (set history_rows: fail to check them)"),
        ("pass", 'README.md:4:17: confirmed: recall@5 94.06% matches citable recall@5 0.9406 (94.06%) of /citable/0 (a.json) in '
                 'the table at row "26304777971", column "R@5"')]


@pytest.mark.parametrize("run", ["26999999999", "deadbeef12"], ids=["newer-run", "commit-cannot-be-ordered"])
def test_rows_of_newer_or_unordered_runs_are_no_history(run: str) -> None:
    got = [(f.status, f.message) for f in run_kind(claim_numbers, NumbersParams(), ctx(PROGRESSION + f"| {run} | 99.80% |\n"))]
    assert got[-1][0] == "fail"
    assert f"(run {run} is not earlier than the cited run 26304777971, so its row is no history)" in got[-1][1]


RUN_KIND_ENTRIES = [{**ENTRIES[0], "scope": "LongMemEval-S live API"},
                    {**ENTRIES[1], "runtime": {**ENTRIES[1]["runtime"], "runtime_mode": "offline"}}]


@pytest.mark.parametrize(("text", "status"), [
    ("In the live run, recall@5 is 91.71%.", "fail"),
    ("In the live run, recall@5 is 94.06%.", "pass"),
    ("Offline, recall@5 is 91.71%; in the live run it is 94.06%.", "pass"),
    ("Offline, recall@5 is 94.06%.", "fail"),
], ids=["offline-value-called-live", "live-value-live", "each-clause-its-run", "live-value-called-offline"])
def test_live_and_offline_numbers_match_their_runs(text: str, status: str) -> None:
    got = [f.status for f in run_kind(claim_numbers, NumbersParams(), ctx(text, entries=RUN_KIND_ENTRIES))]
    assert status in got and set(got) <= {status, "pass"}


def test_answering_correctly_is_qa() -> None:
    got = [(f.status, f.message) for f in run_kind(claim_numbers, NumbersParams(report="retrieval_as_qa"), ctx("It answers 94.06% of questions correctly."))]
    assert got == [("fail", "README.md:1:12: contradicted: 94.06% is called 'answers' but it is the retrieval metric recall@5 0.9406 "
                            "(94.06%) of /citable/0, not QA accuracy in \"It answers 94.06% of questions "
                            "correctly.\"")]


SUBSET_ENTRIES = [{**ENTRIES[0], "evaluated": 470, "total": 500}, {**ENTRIES[1], "evaluated": 500, "total": 500}]


@pytest.mark.parametrize(("text", "fails"), [
    ("On LongMemEval-S, recall@5 is 94.06%.", True),
    ("On the 470 answerable questions of LongMemEval-S, recall@5 is 94.06%.", False),
    ("On a subset of LongMemEval-S, recall@5 is 94.06%.", False),
    ("On LongMemEval-S, recall@5 is 91.71%.", False),
    ("| System | LongMemEval-S R@5 |\n|---|---|\n| Sibyl | 94.06% |", True),
], ids=["subset-unsaid", "count-said", "subset-said", "full-set-result", "table-unsaid"])
def test_result_only_a_subset_backs_must_say_so(text: str, fails: bool) -> None:
    got = [f for f in run_kind(claim_subset, SubsetParams(), ctx(text, entries=SUBSET_ENTRIES)) if f.status == "fail"]
    assert bool(got) is fails
    if fails:
        assert "comes from /citable/0 (a.json), a result on 470 of the dataset's 500 questions, but the text does " \
               "not say it is a subset" in got[0].message


def test_run_rows_without_the_citable_run_are_claims() -> None:
    text = "| Run | R@5 |\n|---|---:|\n| 26137429505 | 92.45% |\n"
    assert [f.status for f in run_kind(claim_numbers, NumbersParams(), ctx(text))] == ["fail"]
    assert [f.status for f in run_kind(claim_numbers, NumbersParams(history_rows="fail"), ctx(PROGRESSION))] == ["fail", "pass"]


# --- claim_phrase ------------------------------------------------------------------------

PHRASES = [  # (rule, text, the phrase as written, its column)
    ("sota-bold", "overclaim-sota", "Sibyl is **state** of the art.", "state** of the art", 12),
    ("sota-spaces", "overclaim-sota", "It is state of  the art.", "state of  the art", 7),
    ("sota-nb-hyphen", "overclaim-sota", "A state\u2011of\u2011the\u2011art system.", "state\u2011of\u2011the\u2011art", 3),
    ("sota-dots", "overclaim-sota", "It is S.O.T.A. today.", "S.O.T.A", 7),
    ("sota-fullwidth", "overclaim-sota", "It is ＳＯＴＡ.", "ＳＯＴＡ", 7),
    ("sota-cyrillic", "overclaim-sota", "It is SОТА.", "SОТА", 7),
    ("perfect-recall-bold", "overclaim-perfect-recall", "It has **perfect** recall.", "perfect** recall", 10),
    ("hundred-percent-recall", "overclaim-perfect-recall", "It has 100% recall.", "100% recall", 8),
    ("zero-api-spaces", "overclaim-zero-api", "It needs zero  API calls.", "zero  API calls", 10),
    ("no-api-calls", "overclaim-zero-api", "It makes no API calls.", "no API calls", 10),
    ("first-perfect", "overclaim-first-perfect", "The first perfect score on LongMemEval.", "first perfect score", 5),
    ("highest-published", "overclaim-highest-published", "The highest zero-API score published.",
     "highest zero-API score published", 5),
    ("best", "overclaim-best", "It is the best memory system.", "is the best memory", 4),
    ("number-one", "overclaim-number-one", "Ranked #1 on LongMemEval.", "Ranked #1", 1),
    ("outperforms", "overclaim-beats-everyone", "It outperforms every other system.", "outperforms every other system",
     4),
    ("beats-everyone", "overclaim-beats-everyone", "We beat everyone.", "beat everyone", 4),
    ("worlds-best", "overclaim-best", "The world's best memory.", "world's best", 5),
    ("worlds-best-curly", "overclaim-best", "The world\u2019s best memory.", "world\u2019s best", 5),
    ("tops-the-leaderboard", "overclaim-number-one", "It tops the LongMemEval leaderboard.",
     "tops the LongMemEval leaderboard", 4),
    ("numero-sign", "overclaim-number-one", "It is \u21161 on LongMemEval.", "\u21161", 7),
    ("leads-the-rankings", "overclaim-number-one", "It leads the rankings.", "leads the rankings", 4),
    ("metric-is-perfect", "overclaim-perfect-recall", "Its R@5 is perfect.", "R@5 is perfect", 5),
    ("flawless-recall", "overclaim-perfect-recall", "It has flawless recall.", "flawless recall", 8),
    ("perfect-r-at-5", "overclaim-perfect-recall", "A perfect R@5 on every type.", "perfect R@5", 3),
    ("api-free", "overclaim-zero-api", "It is API-free.", "API-free", 7),
    ("no-llm-calls", "overclaim-zero-api", "It makes no LLM calls.", "no LLM calls", 10),
    ("no-external-api", "overclaim-zero-api", "It needs no external API.", "no external API", 10),
    ("record-breaking", "overclaim-highest-published", "A record-breaking run.", "record-breaking", 3),
    ("unmatched-result", "overclaim-highest-published", "An unmatched result.", "unmatched result", 4),
    ("remains-unrivalled", "overclaim-highest-published", "Its recall remains unrivalled.", "remains unrivalled",
     12),
]


@pytest.mark.parametrize("rule,text,phrase,col", [r[1:] for r in PHRASES], ids=[r[0] for r in PHRASES])
def test_every_phrase_spelling_is_found(rule: str, text: str, phrase: str, col: int) -> None:
    found = list(run_kind(claim_phrase, phrase_params(rule), ctx(text)))
    assert [(f.status, f.actual) for f in found] == [("fail", phrase)]
    assert found[0].message.startswith(f"README.md:1:{col}: ")


NOT_PHRASES = [
    ("disclaimer", "overclaim-perfect-recall", 'Not "100% recall."'),
    ("zero-api-disclaimer", "overclaim-zero-api", 'Not "zero API." The path calls an embedding API.'),
    ("comparable-to-the-best", "overclaim-best", "It is comparable to the best public systems."),
    ("best-practices", "overclaim-best", "Follow best practices when citing."),
    ("in-inline-code", "overclaim-sota", "Set `sota: false` in the config."),
    ("unmatched-numbers", "overclaim-highest-published", "The scan lists unmatched numbers and their nearest value."),
    ("number-of-hops", "overclaim-number-one", "No 1-hop question is skipped."),
    ("no-api-key-needed", "overclaim-zero-api", "No API key is needed to read the docs."),
]


@pytest.mark.parametrize("rule,text", [r[1:] for r in NOT_PHRASES], ids=[r[0] for r in NOT_PHRASES])
def test_not_overclaims(rule: str, text: str) -> None:
    assert [f.status for f in run_kind(claim_phrase, phrase_params(rule), ctx(text))] == ["pass"]


PROJECT_WORDS = re.compile(r"sibyl|zaxy|openai|text-embedding|surreal|chroma|mem0|zep|langmem|mempalace|gpt",
                           re.IGNORECASE)


def test_reasons_name_nothing_of_one_project() -> None:
    rules = yaml.safe_load((ROOT / "policies" / "claims.yaml").read_text(encoding="utf-8"))["rules"]
    for r in rules:
        assert not PROJECT_WORDS.search(json.dumps(r)), r["id"]


def test_zero_api_says_what_the_citable_run_used() -> None:
    f = list(run_kind(claim_phrase, phrase_params("overclaim-zero-api"), ctx("Zero API calls.")))[0]
    assert f.message == ('README.md:1:1: untestable: "Zero API calls": "zero API" holds only when every cited run made no remote '
                         'call (embeddings, reader and judge models included); the citable run /citable/0 (a.json) '
                         'used embedding_provider openai (text-embedding-3-small) in "Zero API calls."')


def test_zero_api_backed_by_local_runtimes() -> None:
    local = [ENTRIES[1]]
    f = list(run_kind(claim_phrase, phrase_params("overclaim-zero-api"), ctx("Zero API calls.", entries=local)))[0]
    assert (f.status, f.message) == ("pass", 'README.md:1:1: confirmed: "Zero API calls" is backed: every citable run\'s '
                                             'runtime, QA block and accounting show only local providers in "Zero '
                                             'API calls."')


QA_MODELS = {"mode": "model", "enabled": True, "reader_provider": "openai", "reader_model": "gpt-4o",
             "judge_provider": "openai", "judge_model": "gpt-5.2"}


@pytest.mark.parametrize(("calls", "status", "used"), [
    ({"artifact qa": QA_MODELS}, "fail", "used reader openai gpt-4o (artifact qa block), judge openai gpt-5.2 "
                                         "(artifact qa block) in"),
    ({"artifact accounting": {"reader": {"estimated_cost_usd": 1.59, "cost_basis": "openai:gpt-4o"}}}, "fail",
     "used reader openai:gpt-4o $1.59 (artifact accounting) in"),
    ({"artifact qa": {**QA_MODELS, "mode": "fixture"}}, "pass", None),
    ({"artifact accounting": {"embedding": {"provider": "chromadb", "estimated_cost_usd": 0.0,
                                            "cost_basis": "not-metered-by-runner"}}}, "pass", None),
], ids=["qa-reader-and-judge", "accounting-bills-a-provider", "fixture-qa-calls-no-model", "local-embedding-costs"])
def test_zero_api_reads_qa_block_and_accounting(calls: dict[str, Any], status: str, used: str | None) -> None:
    local = [{**ENTRIES[1], "calls": calls}]
    f = list(run_kind(claim_phrase, phrase_params("overclaim-zero-api"), ctx("Zero API calls.", entries=local)))[0]
    assert f.status == status
    if used:
        assert f"the citable run /citable/1 (raw.json) {used}" in f.message


def test_zero_api_unknown_runtime_fails() -> None:
    f = list(run_kind(claim_phrase, phrase_params("overclaim-zero-api"), ctx("Zero API.", entries=[{**ENTRIES[1], "runtime": None}])))[0]
    assert f.status == "fail" and f.message.endswith("the runtime of /citable/1 does not say which provider it "
                                                     'called in "Zero API."')


# --- the SOTA verdict --------------------------------------------------------------------


@pytest.fixture(scope="module")
def genuine(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A real passing official-sota verdict of the bundled example, and its evidence info."""
    import shutil

    from golden import run_main

    from bench_gate.gates.claims_evidence import verdict as load_verdict

    work = tmp_path_factory.mktemp("sota") / "official"
    shutil.copytree(ROOT / "examples" / "official", work)
    code, out, _ = run_main(["longmembench-report-sota.json", "--profile", "official-sota"], "2026-11-29T12:00:00Z",
                            work, "json")
    assert code == 0
    (work / "verdict.json").write_text(out, encoding="utf-8")
    import os

    cwd = os.getcwd()
    os.chdir(work)
    try:
        info, _ = load_verdict("verdict.json")
    finally:
        os.chdir(cwd)
    return info


def test_genuine_verdict_backs_sota(genuine: dict[str, Any]) -> None:
    assert verdict_problems(genuine, NOW, "0.1.3", 30) == []
    assert genuine["system"] == "Zaxy"
    f = list(run_kind(claim_phrase, phrase_params("overclaim-sota"), ctx("Zaxy is state of the art.", verdict=genuine)))[0]
    assert (f.status, f.message) == ("pass", 'README.md:1:9: confirmed: "state of the art" is backed by the verified '
                                             'official-sota verdict verdict.json (2026-11-29T12:00:00Z) in "Zaxy is '
                                             'state of the art."')


@pytest.mark.parametrize("text", ["Sibyl is state of the art.", "It is state of the art.",
                                  "# Sibyl\n\nIt is state of the art."], ids=["other-system", "no-system",
                                                                              "other-system-in-heading"])
def test_verdict_backs_only_the_system_it_validated(genuine: dict[str, Any], text: str) -> None:
    f = list(run_kind(claim_phrase, phrase_params("overclaim-sota"), ctx(text, verdict=genuine)))[0]
    assert f.status == "fail"
    assert ("; the official-sota gate validated Zaxy, and neither this sentence nor its section names Zaxy: a "
            "verdict backs claims about the system it validated only in") in f.message


def test_verdict_of_a_section_about_the_system_backs_it(genuine: dict[str, Any]) -> None:
    f = list(run_kind(claim_phrase, phrase_params("overclaim-sota"), ctx("# Zaxy\n\nIt is state of the art.", verdict=genuine)))[0]
    assert f.status == "pass"


def _forged(info: dict[str, Any], edit: Any) -> dict[str, Any]:
    out = copy.deepcopy(info)
    edit(out)
    return out


FORGED = [
    ("counts-fail-and-2019", lambda v: (v["data"]["counts"].update(fail=9), v["data"].update(
        evaluated_at="2019-01-01T00:00:00Z")),
     ["its counts", "evaluated at 2019-01-01T00:00:00Z, 2889 days before the scan (limit 30 days)"]),
    ("user-profile-named-official-sota", lambda v: v["data"]["profile"].update(digest="sha256:" + "1" * 64),
     ["its profile digest 'sha256:1111"]),
    ("rules-dropped", lambda v: v["data"].update(results=v["data"]["results"][:3]),
     ["its counts", "it lacks results of"]),
    ("passed-with-failing-rule", lambda v: v["data"]["results"][0].update(status="fail", severity="error"),
     ["its counts", "it says passed but 1 error rule failed"]),
    ("did-not-pass", lambda v: v["data"].update(passed=False), ["it did not pass"]),
    ("input-changed", lambda v: v["hashes"].update({next(iter(v["hashes"])): "0" * 64}),
     ["changed since the verdict"]),
    ("input-gone", lambda v: v["hashes"].update({next(iter(v["hashes"])): "missing"}), ["no longer exists"]),
    ("other-tool-version", lambda v: v["data"]["tool"].update(version="1.4.0"), ["not by bench-gate 0.1.x"]),
    ("other-profile", lambda v: v["data"]["profile"].update(name="ai-memory"), ["not official-sota"]),
    ("future", lambda v: v["data"].update(evaluated_at="2026-12-01T00:00:00Z"), ["after the scan time"]),
    ("waived", lambda v: v["data"]["results"][0].update(status="waived"), ["was waived"]),
    ("no-inputs", lambda v: v["data"].update(inputs=[]), ["names no inputs"]),
    ("not-a-verdict", lambda v: v["data"].update(schema_version="x"), ["not a bench-gate verdict JSON"]),
]


@pytest.mark.parametrize("edit,why", [r[1:] for r in FORGED], ids=[r[0] for r in FORGED])
def test_forged_or_lax_verdict_backs_nothing(genuine: dict[str, Any], edit: Any, why: list[str]) -> None:
    info = _forged(genuine, edit)
    problems = "; ".join(verdict_problems(info, NOW, "0.1.0", 30))
    for part in why:
        assert part in problems
    f = list(run_kind(claim_phrase, phrase_params("overclaim-sota"), ctx("It is SOTA.", verdict=info)))[0]
    assert f.status == "fail" and "--verdict verdict.json cannot back it: " in f.message


def test_sota_gate_run_backs_or_not() -> None:
    ok = {"report": "r.json", "passed": True, "summary": "0 failed, 46 passed, 3 skipped", "system": "Zaxy"}
    f = list(run_kind(claim_phrase, phrase_params("overclaim-sota"), ctx("Zaxy is SOTA.", sota_run=ok)))[0]
    assert (f.status, f.message) == ("pass", 'README.md:1:9: confirmed: "SOTA" is backed by the official-sota gate run on r.json '
                                             'now (0 failed, 46 passed, 3 skipped) in "Zaxy is SOTA."')
    bad = {**ok, "passed": False, "summary": "2 failed, 44 passed, 3 skipped"}
    f = list(run_kind(claim_phrase, phrase_params("overclaim-sota"), ctx("Zaxy is SOTA.", sota_run=bad)))[0]
    assert f.status == "fail" and f.message.endswith("the official-sota gate run on r.json failed (2 failed, 44 "
                                                     'passed, 3 skipped) in "Zaxy is SOTA."')
    unnamed = {**ok, "system": None}
    f = list(run_kind(claim_phrase, phrase_params("overclaim-sota"), ctx("Zaxy is SOTA.", sota_run=unnamed)))[0]
    assert f.status == "fail" and "the official-sota report names no validated system" in f.message


# --- claim_subset ------------------------------------------------------------------------

SUBSET = """| System | Questions | LongMemEval R@5 |
|---|---:|---:|
| Ours | 500 | 94.1% |
| Other | 470 | 96.2% |
"""


def test_subset_next_to_full_set_is_found() -> None:
    got = [(f.status, f.message) for f in run_kind(claim_subset, SubsetParams(), ctx(SUBSET))]
    assert got == [("fail", 'README.md:4:11: row "Other" reports a result on 470 questions next to 500 questions in row '
                            '"Ours" of the same table: a result on a subset compared with full-set results must say so '
                            "(name the subset in the row, the header or the caption)")]


def test_subset_said_so_passes() -> None:
    said = SUBSET.replace("| Other |", "| Other (470-question subset) |")
    assert [f.status for f in run_kind(claim_subset, SubsetParams(), ctx(said))] == ["pass"]


def test_subset_in_a_sentence() -> None:
    text = "Ours reaches 94.1% R@5 on 500 questions, Other 96.2% on 470 questions."
    got = [(f.status, f.actual) for f in run_kind(claim_subset, SubsetParams(), ctx(text))]
    assert got == [("fail", "470 questions")]


def test_per_type_counts_are_not_subsets() -> None:
    text = "| Type | Cases | R@5 |\n|---|---|---|\n| multi-session | 133 | 95% |\n| knowledge-update | 78 | 98% |\n"
    assert [f.status for f in run_kind(claim_subset, SubsetParams(), ctx(text))] == ["pass"]


# --- claim_boundary ----------------------------------------------------------------------

BOUNDARY = BoundaryParams(
    require=[Required(files=["docs/testing/longmemeval.md"], name="qa-accuracy-boundary",
                      phrases=["not an answer-quality metric", "96.96% R@5"])],
    forbid=[Forbidden(phrase="publishes a QA-accuracy number", reason="no QA-accuracy artifact is pinned")])


def test_boundary_phrases_present() -> None:
    text = "This is **not an answer-quality metric**. Recall is 96.96% R@5."
    got = [(f.status, f.message) for f in run_kind(claim_boundary, BOUNDARY, ctx(text, "docs/testing/longmemeval.md"))]
    assert got == [("pass", "docs/testing/longmemeval.md: qa-accuracy-boundary: all 2 required phrases present"),
                   ("pass", "none of 1 forbidden phrase in 1 file")]


def test_boundary_phrase_missing_and_forbidden_present() -> None:
    text = "Recall is 96.96% R@5.\n\nIt publishes a  QA-accuracy number."
    got = [(f.status, f.message) for f in run_kind(claim_boundary, BOUNDARY, ctx(text, "docs/testing/longmemeval.md"))]
    assert got == [
        ("fail", 'docs/testing/longmemeval.md: qa-accuracy-boundary: required phrase missing: "not an answer-quality '
                 'metric"'),
        ("fail", 'docs/testing/longmemeval.md:3:4: forbidden phrase "publishes a QA-accuracy number": no QA-accuracy '
                 "artifact is pinned")]


def test_boundary_file_not_scanned_fails() -> None:
    got = [(f.status, f.message) for f in run_kind(claim_boundary, BOUNDARY, ctx("x", "README.md"))]
    assert got[0] == ("fail", "qa-accuracy-boundary: no scanned file matches docs/testing/longmemeval.md, which must "
                              "hold 2 required phrases: scan it")


# --- claim_ledger ------------------------------------------------------------------------

LEDGERS = [
    ("passes", {"path": "m.json", "passed": True, "summary": "0 failed, 10 passed, 0 skipped", "values": 4},
     "pass", "ledger m.json passes its gate (0 failed, 10 passed, 0 skipped); 4 citable values"),
    ("fails", {"path": "m.json", "passed": False, "summary": "1 failed, 9 passed, 0 skipped",
               "failed": ["citable-echo: drift", "citable-gates: x"]},
     "fail", "ledger m.json fails its gate (1 failed, 9 passed, 0 skipped): citable-echo: drift; also failing: "
             "citable-gates; no number it lists is citable until it passes"),
]


@pytest.mark.parametrize("ledger,status,message", [r[1:] for r in LEDGERS], ids=[r[0] for r in LEDGERS])
def test_ledger(ledger: dict[str, Any], status: str, message: str) -> None:
    f = list(run_kind(claim_ledger, LedgerParams(), ctx("", ledger=ledger)))[0]
    assert (f.status, f.message) == (status, message)


# --- command line: what cannot be evaluated is exit 2 with the reason ---------------------

USAGE = [
    ("no-ledger-option", ["claims", "doc.md"], "bench-gate: error: --ledger MANIFEST or --evidence FILE is required (the evidence the numbers are checked against)"),
    ("ledger-missing", ["claims", "doc.md", "--ledger", "nosuch.json"],
     "bench-gate: error: --ledger nosuch.json: no such file"),
    ("doc-missing", ["claims", "nosuch.md", "--ledger", "m.json"],
     "bench-gate: error: nosuch.md: no such file or folder"),
    ("no-doc-in-folder", ["claims", "empty", "--ledger", "m.json"],
     "bench-gate: error: no Markdown, HTML or text file (*.md, *.markdown, *.mdx, *.txt, *.text, *.rst, *.adoc, "
     "*.asciidoc, *.html, *.htm, or text without a suffix) in empty"),
    ("not-utf8", ["claims", "bad.md", "--ledger", "m.json"], "bench-gate: error: bad.md: not UTF-8 text (byte 0)"),
    ("verdict-not-json", ["claims", "doc.md", "--ledger", "m.json", "--verdict", "doc.md"],
     "bench-gate: error: --verdict doc.md: is not valid JSON: Expecting value at line 1 column 1"),
    ("ledger-not-json", ["ledger", "doc.md"], "bench-gate: error: ledger doc.md: is not valid JSON: Expecting value "
                                              "at line 1 column 1"),
    ("ledger-format", ["ledger", "m.json", "--format", "xml"],
     "bench-gate: error: --format 'xml': choose one of text, json, junit, sarif, github, markdown"),
]


@pytest.mark.parametrize("args,message", [r[1:] for r in USAGE], ids=[r[0] for r in USAGE])
def test_cannot_evaluate(args: list[str], message: str, tmp_path: Any, monkeypatch: Any,
                         capsys: Any) -> None:
    from bench_gate.cli.app import main

    (tmp_path / "doc.md").write_text("recall@5 0.94\n")
    (tmp_path / "bad.md").write_bytes(b"\xff\xfe")
    (tmp_path / "empty").mkdir()
    (tmp_path / "m.json").write_text('{"citable": []}')
    monkeypatch.chdir(tmp_path)
    assert main([*args, "--now", "2026-11-29T12:00:00Z"]) == 2
    assert capsys.readouterr().err.splitlines()[0] == message


# --- no input makes the scan crash ---------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from repo import ROOT
from kindtest import run as run_kind
from kindtest import context
from kindtest import doc

MARKDOWNISH = st.lists(st.sampled_from(list("ab 0.9%|-`*_#>\n:=@R<!->&;\\,\u200b\u2011％ＳsotaOT") + [
    "R@5", "recall", "<!--", "-->", "```", "---", "| 96.6% |", "|---|", "&#37;", "state of the art", "470 questions",
    "single-session-user", "\n\n", "- ", "> "]), max_size=40).map("".join)


@settings(max_examples=150, deadline=None)
@given(MARKDOWNISH, st.sampled_from(["a.md", "a.txt"]))
def test_any_text_is_read_without_crashing(text: str, path: str) -> None:
    c = ctx(text, path)
    for f in [*run_kind(claim_numbers, NumbersParams(), c), *run_kind(claim_numbers, NumbersParams(report="ambiguous"), c),
              *run_kind(claim_phrase, phrase_params("overclaim-sota"), c), *run_kind(claim_subset, SubsetParams(), c)]:
        assert f.status in ("pass", "fail", "skip")
        m = re.match(r"/line/(\d+)/column/(\d+)", f.pointer)
        if m:
            assert 1 <= int(m.group(1)) <= text.count("\n") + 1


JSONISH = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                       lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=8), kids, max_size=3),
                       max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["schema_version", "tool", "profile", "results", "counts", "passed",
                                        "inputs", "evaluated_at"]), JSONISH))
def test_any_verdict_json_is_judged_without_crashing(data: dict[str, Any]) -> None:
    data.setdefault("schema_version", "bench-gate.verdict.v1")
    problems = verdict_problems({"path": "v.json", "data": data, "hashes": {}, "builtin_digest": "sha256:x",
                                 "builtin_rules": ["a"]}, NOW, "0.1.0", 30)
    assert problems  # nothing random is a verifiable passing verdict


# --- metrics that are not citable ---------------------------------------------------------


def _gated(actual: dict[str, Any], check: str = "claimed_metrics", status: str = "pass") -> Any:
    from bench_gate.models import RuleResult, Verdict

    result = RuleResult("metrics-claimed", "t", status, "error", "m", "report", "", "x:1", check, actual=actual)  # type: ignore[arg-type]
    return Verdict("ai-memory", "sha256:" + "0" * 64, NOW, (), (result,))


def test_only_recomputed_metrics_are_citable() -> None:
    """The values a gated report backs are those its passing claimed_metrics result lists as
    recomputed; declared ones and every other number are withheld, with the reason."""
    from bench_gate.gates.claims_evidence import values_of

    report = {"overall": {"recall@5": 0.94, "latency_p95_ms": 812.0, "created_entity_count": 1.0},
              "per_type": {"multi-session": {"recall@5": 0.9, "latency_p95_ms": 700.0}}}
    verdict = _gated({"recomputed": ["recall@5"], "not_citable": ["latency_p95_ms"]})
    values, withheld, _ = values_of(verdict, report, "/citable/0", "a.json", SCOPE, "ai-memory", None)
    assert [(v["metric"], v.get("slice"), v["pointer"]) for v in values] == [
        ("recall@5", None, "/overall/recall@5"), ("recall@5", "multi-session", "/per_type/multi-session/recall@5")]
    assert [(v["metric"], v["why"]) for v in withheld] == [
        ("latency_p95_ms", "declared not citable by its gate (metrics-claimed)"),
        ("created_entity_count", "not a metric the gate recomputes"),
        ("latency_p95_ms", "not a metric the gate recomputes")]
    # a failing or absent claimed_metrics result backs nothing
    for other in (_gated({"recomputed": ["recall@5"]}, status="fail"), _gated({"recomputed": ["recall@5"]}, "fields")):
        assert values_of(other, report, "/citable/0", "a.json", SCOPE, "ai-memory", None)[:2] == ([], [])


def test_withheld_value_backs_no_claim() -> None:
    c = ctx("On LongMemEval, Sibyl scores 61%.")
    data = c.documents["citable"].data
    data["withheld"] = [{"metric": "qa_accuracy", "value": 0.61, "entry": "/citable/0", "artifact": "a.json",
                         "scope": SCOPE, "why": "declared not citable by its gate (metrics-claimed)"}]
    got = [(f.status, f.message) for f in run_kind(claim_numbers, NumbersParams(), c)]
    assert got == [("fail", "README.md:1:30: untestable: LongMemEval 61%: it names no metric: a number is confirmed only "
                            "by a value of its own metric (name the metric next to it, in its column or row, or in "
                            "the heading above it) in \"On LongMemEval, Sibyl scores 61%.\"")]
    # with its metric named, the withheld value is named as what it would have matched
    c = ctx("On LongMemEval, Sibyl's QA accuracy is 61%.")
    c.documents["citable"].data["withheld"] = data["withheld"]
    got = [(f.status, f.message) for f in run_kind(claim_numbers, NumbersParams(), c)]
    assert got == [("fail", "README.md:1:40: untestable: qa_accuracy 61%: the evidence has no qa_accuracy on LongMemEval "
                            "(it reads as qa_accuracy 0.61 (61%) of /citable/0 (a.json), which is declared not "
                            "citable by its gate (metrics-claimed)) in \"On LongMemEval, Sibyl's QA accuracy is 61%.\"")]


@pytest.mark.parametrize("text", ["R@5 - 99.6 on LongMemEval-S.", "R@5 (%): 99.6.", "Recall@5 climbs to 99.6.",
                                  "Recall@5 99.6 on LongMemEval-S.", "99.6 R@5 on LongMemEval-S."],
                         ids=["dash", "percent-label", "climbs-to", "metric-then-space", "number-then-metric"])
def test_bare_number_written_with_its_metric_is_a_claim(text: str) -> None:
    found = claims_in(read("page.md", text), PATTERNS)
    assert [(c.written, c.metric, c.value) for c in found] == [("99.6 (read as 99.6%)", "recall@5", Fraction(996, 1000))]
