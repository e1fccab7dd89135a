"""Every way a result is written that the scan reads as a claim: any line ending, footnote markers,
math, rendered fences, table header rows, metric columns and rows, HTML, reStructuredText and
AsciiDoc tables, list parents and headings; and a long page of numbers is read whole."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bench_gate.checks.claims.commonmark import read
from bench_gate.checks.claims.lexer import (
    DEFAULT_BENCHMARKS, DEFAULT_METRICS, DEFAULT_SLICE_ALIASES, DEFAULT_SLICES, Patterns, claims_in, slice_patterns,
)

PATTERNS = Patterns(DEFAULT_METRICS, DEFAULT_BENCHMARKS,
                    slice_patterns(DEFAULT_SLICES, tuple(sorted(DEFAULT_SLICE_ALIASES.items()))), r"\s*(?:pp\b)")


def found(path: str, text: str) -> list[tuple[int, int, str, str | None, Fraction, str]]:
    """(line, column, as written, metric, value, first benchmark) of every claim."""
    return [(c.line, c.col, c.raw, c.metric, c.value, c.benchmarks[0][0] if c.benchmarks else "")
            for c in claims_in(read(path, text), PATTERNS)]


R5 = ("recall@5", Fraction(996, 1000), "longmemeval")

FORMS = [
    ("crlf", "page.md", "On LongMemEval-S\r\nrecall@5 is 99.6%.\r\n", [(2, 13, "99.6%", *R5)]),
    ("cr-only", "page.md", "# LongMemEval-S\r\rrecall@5 is 99.6%.\r", [(3, 13, "99.6%", *R5)]),
    ("cr-only-text", "notes.txt", "LongMemEval-S\rrecall@5 is 99.6%.\r", [(2, 13, "99.6%", *R5)]),
    ("superscript-footnote", "page.md", "LongMemEval-S recall@5 is 99.6%¹.", [(1, 27, "99.6%", *R5)]),
    ("sup-footnote", "page.md", "LongMemEval-S recall@5 is 99.6%<sup>1</sup>.", [(1, 27, "99.6%", *R5)]),
    ("caret-footnote", "page.md", "LongMemEval-S recall@5 is 99.6%[^1].\n\n[^1]: one run.", [(1, 27, "99.6%", *R5)]),
    ("inline-math", "page.md", "LongMemEval-S recall@5 is $99.6\\%$.", [(1, 28, "99.6\\%", *R5)]),
    ("display-math", "page.md", "On LongMemEval-S: $$\\text{R@5} = \\mathbf{99.6}\\%$$",
     [(1, 42, "99.6}\\%", *R5)]),
    ("math-fence", "page.md", "# LongMemEval-S\n\n```math\n\\text{recall@5} = 99.6\\%\n```\n",
     [(4, 19, "99.6", *R5)]),
    ("mermaid-chart", "page.md", "# LongMemEval-S\n\n```mermaid\nxychart-beta\n  title \"Recall@5 (%)\"\n"
     "  y-axis 0 --> 100\n  bar [99.6]\n```\n", [(7, 8, "99.6", *R5)]),
    ("header-row", "page.md", "| LongMemEval-S R@5 99.6% | notes |\n|---|---|\n| x | y |\n", [(1, 21, "99.6%", *R5)]),
    ("metric-column-cell", "page.md", "| System | Metric | Score |\n|---|---|---|\n| Sibyl | LongMemEval-S R@5 | 99.6% |\n",
     [(3, 31, "99.6%", *R5)]),
    ("caption-names-metric", "page.md", "LongMemEval-S recall@5:\n\n| System | Score |\n|---|---|\n| Sibyl | 99.6% |\n",
     [(5, 11, "99.6%", *R5)]),
    ("html-table", "page.md", "<table>\n<tr><th>System</th><th>LongMemEval-S R@5</th></tr>\n"
     "<tr><td>Sibyl</td><td><b>99.6</b>%</td></tr>\n</table>\n", [(3, 26, "99.6</b>%", *R5)]),
    ("html-page-table", "page.html", "<table><tr><th>Metric</th><th>LongMemEval-S</th></tr>"
     "<tr><td>recall@5</td><td>0.996</td></tr></table>", [(1, 79, "0.996", *R5)]),
    ("rst-grid-table", "page.rst", "LongMemEval-S\n=============\n\n+--------+-------+\n| System | R@5   |\n"
     "+========+=======+\n| Sibyl  | 99.6% |\n+--------+-------+\n", [(7, 12, "99.6%", *R5)]),
    ("rst-simple-table", "page.rst", "LongMemEval-S\n=============\n\n======  =====\nSystem  R@5\n======  =====\n"
     "Sibyl   99.6%\n======  =====\n", [(7, 9, "99.6%", *R5)]),
    ("rst-list-table", "page.rst", ".. list-table:: LongMemEval-S\n   :header-rows: 1\n\n   * - System\n     - R@5\n"
     "   * - Sibyl\n     - 99.6%\n", [(7, 8, "99.6%", *R5)]),
    ("adoc-table", "page.adoc", "== LongMemEval-S\n\n[options=\"header\"]\n|===\n|System |R@5\n|Sibyl |99.6%\n|===\n",
     [(6, 9, "99.6%", *R5)]),
    ("list-parent-names-the-benchmark", "page.md", "- LongMemEval-S:\n  - recall@5 is 99.6%\n",
     [(2, 17, "99.6%", *R5)]),
    ("heading-names-the-benchmark", "page.md", "## LongMemEval-S\n\nIts recall@5 is 99.6%.\n",
     [(3, 17, "99.6%", *R5)]),
    ("sentence-overrides-the-heading", "page.md", "## LoCoMo\n\nOn LongMemEval-S recall@5 is 99.6%.\n",
     [(3, 30, "99.6%", *R5)]),
    ("up-to-is-a-value", "page.md", "LongMemEval-S recall@5 of up to 99.6%.", [(1, 33, "99.6%", *R5)]),
    ("of-the-n-questions", "page.md", "On LongMemEval-S, recall@5 holds for 498 of the 500 questions.",
     [(1, 38, "498 of the 500", *R5)]),
]


@pytest.mark.parametrize("path,text,expected", [f[1:] for f in FORMS], ids=[f[0] for f in FORMS])
def test_every_form_is_read(path: str, text: str, expected: list[tuple[object, ...]]) -> None:
    assert found(path, text) == expected


def test_a_heading_benchmark_applies_to_the_numbers_below_it() -> None:
    """A LongMemEval-looking number under a LoCoMo heading is a LoCoMo number."""
    [claim] = claims_in(read("page.md", "## LoCoMo\n\nRecall@5 is 99.6%.\n"), PATTERNS)
    assert claim.benchmarks == (("locomo", "LoCoMo"),)


def test_a_page_naming_several_benchmarks_leaves_an_unplaced_number_unsure() -> None:
    [claim] = claims_in(read("page.md", "We ran LoCoMo and LongMemEval-S.\n\nRecall@5 is 99.6%.\n"), PATTERNS)
    assert (claim.benchmarks, claim.unsure) == ((), ("LoCoMo", "LongMemEval-S"))


@pytest.mark.parametrize("text", [
    "On LongMemEval-S, a filter that retains less than 10% of the corpus is demoted.",
    "On LongMemEval-S the threshold of 0.1 is used.",
    "LongMemEval-S costs 0.005 USD per question.",
    "LongMemEval-S runs took 0.9 seconds each.",
    "The LongMemEval-S harness predates 1.0 and is withdrawn.",
    "LongMemEval-S has 500 questions; 470 of 500 are answerable.",
], ids=["share-of-a-resource", "parameter", "price", "duration", "version", "dataset-count"])
def test_plainly_not_results(text: str) -> None:
    assert found("page.md", text) == []


def test_categorical_words_are_claims_of_a_perfect_score() -> None:
    text = ("On LongMemEval-S it answers every question correctly (QA accuracy). "
            "Its recall@5 is a perfect score. It makes zero errors on LongMemEval-S QA accuracy.")
    got = [(c.raw, c.metric, c.value, c.unit) for c in claims_in(read("page.md", text), PATTERNS)]
    assert got == [("every question", "qa_accuracy", 1, 0), ("perfect score", "recall@5", 1, 0),
                   ("zero errors", "qa_accuracy", 1, 0)]


@pytest.mark.parametrize("shape", ["one-line", "table"])
def test_a_long_page_finds_every_number(shape: str) -> None:
    """A page of 200 KB of numbers is read whole, each number once (how long it takes is a
    benchmark's figure, not a test's: bench/run.py --only claims)."""
    count = 200_000 // 30
    if shape == "one-line":
        text = "LongMemEval recall@5 " + " ".join(f"{i % 100}.{i % 10}%" for i in range(count)) + "\n"
    else:
        text = "| Type | R@5 |\n|---|---|\n" + "".join(f"| multi-session | {i % 100}.{i % 10}% |\n"
                                                  for i in range(count))
    found = claims_in(read("page.md", text), PATTERNS)
    assert len(found) == count
    assert [c.value for c in found[:3]] == [Fraction(0), Fraction(11, 1000), Fraction(22, 1000)]
