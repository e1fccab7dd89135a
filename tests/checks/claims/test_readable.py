"""What the claims scan reads: text a reader never sees is still read, text that renders in
another order than it is written fails, nothing nested past the parser is dropped, front matter
is YAML, a required boundary phrase counts only where a reader sees it, and a folder's files are
either read or listed."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bench_gate.checks.base import Context
from bench_gate.checks.claims.commonmark import MAX_NESTING, badge_text, read
from bench_gate.checks.claims.matching import BoundaryParams, Required, claim_boundary
from bench_gate.checks.claims.readable import ReadableParams, claim_readable
from bench_gate.gates.claims_gate import _files

from kindtest import context, doc, run as run_kind

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def ctx(files: dict[str, str], skipped: list[str] | None = None) -> Context:
    data = {"files": [{"path": p, "text": t} for p, t in files.items()], "include_code": False,
            "skipped": skipped or []}
    return context(scan=doc("scan", data, path=", ".join(files)))


def readable(files: dict[str, str], skipped: list[str] | None = None) -> list[tuple[str, str, str]]:
    return [(f.status, f.pointer, f.message) for f in run_kind(claim_readable, ReadableParams(), ctx(files, skipped))]


# --- direction controls ------------------------------------------------------------------

BIDI = [
    ("override-in-prose", "page.md", "Recall@5 is \u202e%6.99\u202c.", "/line/1/column/13",
     'page.md:1:13: bidirectional control characters U+202E RIGHT-TO-LEFT OVERRIDE, U+202C POP DIRECTIONAL '
     'FORMATTING in "Recall@5 is %6.99.": the text renders in another order than it is written (a number may '
     'show as another number); remove them'),
    ("override-in-a-cell", "page.md", "| R@5 |\n|---|\n| \u202e%6.99\u202c |", "/line/3/column/3", None),
    ("isolate-next-to-a-number", "notes.txt", "R@5 \u2067is 99.6%\u2069", "/line/1/column/5", None),
    ("override-in-a-phrase-without-digits", "page.md", "We are \u202etra eht fo etats\u202c.", "/line/1/column/8",
     None),
    ("mark-in-front-matter", "page.md", "---\ndescription: R@5 \u200f99.6%\n---\n", "/line/2/column/18", None),
    ("override-in-a-comment", "page.md", "<!-- R@5 \u202e%6.99 -->", "/line/1/column/10", None),
]


@pytest.mark.parametrize("path,text,pointer,message", [r[1:] for r in BIDI], ids=[r[0] for r in BIDI])
def test_direction_controls_fail(path: str, text: str, pointer: str, message: str | None) -> None:
    got = readable({path: text})
    assert [(s, p) for s, p, _ in got] == [("fail", pointer)]
    if message is not None:
        assert got[0][2] == message


def test_direction_mark_in_text_without_digits_is_prose() -> None:
    # Right-to-left text uses direction marks; without a number or an override nothing can be reordered into a claim.
    assert readable({"page.md": "\u05e9\u05dc\u05d5\u05dd\u200f world"}) == [
        ("pass", "", "1 file read as it renders: no direction override, nothing nested past the parser")]


def test_invisible_characters_never_hide_a_number() -> None:
    doc = read("page.md", "R@5 is 9\u20629.\u034f6\ufe0f%, hit@5 1\u00ad0\u200d0%.")
    assert doc.blocks[0].text == "R@5 is 99.6%, hit@5 100%."
    assert doc.where(doc.blocks[0].offset(10)) == (1, 13)  # "6" after two left-out characters


# --- nesting -----------------------------------------------------------------------------


def test_ten_deep_list_and_twenty_deep_quote_are_read() -> None:
    text = "- " * 10 + "R@5 is 99.6%.\n\n" + "> " * 20 + "R@10 is 99.9%.\n"
    doc = read("page.md", text)
    assert [b.text for b in doc.blocks] == ["R@5 is 99.6%.", "R@10 is 99.9%."]
    assert doc.problems == ()


def test_nesting_past_the_parser_is_read_as_lines_and_fails() -> None:
    text = "Intro.\n\n" + ">" * (MAX_NESTING + 5) + " R@5 is 99.6%.\n"
    doc = read("page.md", text)
    assert [(b.kind, b.text) for b in doc.blocks] == [("paragraph", "Intro."), ("text", "R@5 is 99.6%.")]
    got = readable({"page.md": text})
    assert got == [("fail", "/line/3/column/1",
                    f"page.md:3:1: Markdown nested more than {MAX_NESTING - 1} levels deep (a list item counts two): "
                    "the parser stops there, so what is below is read as plain lines, without its structure; "
                    "flatten it")]


# --- front matter ------------------------------------------------------------------------


def test_front_matter_aliases_are_read_once_and_tags_not_constructed() -> None:
    text = "---\na: &x R@5 of 99.6%\nb: *x\nc: !!python/object:os.system echo\n---\n"
    doc = read("page.md", text)
    assert [(b.text, doc.where(b.offset(0))) for b in doc.blocks] == [("R@5 of 99.6%", (2, 7)), ("c: echo", (4, 1))]


def test_front_matter_that_is_not_yaml_is_read_as_lines_and_fails() -> None:
    text = "---\ndescription: R@5: [99.6%\n---\nBody.\n"
    doc = read("page.md", text)
    assert [b.text for b in doc.blocks] == ["description: R@5: [99.6%", "Body."]
    assert [(s, p) for s, p, _ in readable({"page.md": text})] == [("fail", "/line/1/column/1")]
    assert "the front matter is not valid YAML" in readable({"page.md": text})[0][2]


def test_front_matter_nested_too_deep_for_the_yaml_parser_fails_not_crashes() -> None:
    text = "---\nx: " + "[" * 5000 + "\n---\n"
    assert [s for s, _, _ in readable({"page.md": text})] == ["fail"]


# --- badges ------------------------------------------------------------------------------

BADGES = [
    ("shields-path", "https://img.shields.io/badge/LongMemEval_R%405-99.6%25-green", ["LongMemEval R@5", "99.6%"]),
    ("shields-label-less", "https://img.shields.io/badge/-99.6%25-green?label=R%405", ["R@5", "99.6%"]),
    ("shields-static", "https://img.shields.io/static/v1?label=R+at+5&message=99.6%25&color=x", ["R at 5", "99.6%"]),
    ("shields-dynamic-is-no-text", "https://img.shields.io/badge/dynamic/json?url=x&query=y", []),
    ("badgen", "https://badgen.net/badge/R@5/99.6%25/green", ["R@5", "99.6%"]),
    ("other-host", "https://example.org/badge/R@5-99.6%25-green", []),
]


@pytest.mark.parametrize("url,parts", [r[1:] for r in BADGES], ids=[r[0] for r in BADGES])
def test_badges(url: str, parts: list[str]) -> None:
    got = badge_text(url)
    assert ["".join(c for c, _ in p) for p in got] == parts
    for p in got:  # every character sits where it is written (a %XX at its %)
        for c, at in p:
            assert url[at] in (c, "%", "_", "+")


def test_layout_attributes_are_not_text() -> None:
    doc = read("page.md", '<table width="100%" style="width: 50%"><tr><td title="R@5 99.6%">x</td></tr></table>')
    # (the table is read as a table: its one cell holds x)
    assert [(b.kind, b.text) for b in doc.blocks] == [("cell", " x"), ("attribute", "R@5 99.6%")]


# --- boundary phrases must be visible ----------------------------------------------------

REQUIRE = BoundaryParams(require=[Required(files=["page.md"], phrases=["not an answer-quality metric"])])
HIDDEN_PLACES = [
    ("comment", "Recall is 96.96%. <!-- not an answer-quality metric -->"),
    ("comment-block", "<!--\nnot an answer-quality metric\n-->\n\nRecall is 96.96%."),
    ("fence", "Recall is 96.96%.\n\n```text\nnot an answer-quality metric\n```"),
    ("indented-code", "Recall is 96.96%.\n\n    not an answer-quality metric"),
    ("attribute", 'Recall is 96.96%. <span title="not an answer-quality metric">*</span>'),
    ("front-matter", "---\nnote: not an answer-quality metric\n---\nRecall is 96.96%."),
    ("reference-title", "Recall is 96.96%.\n\n[x]: https://x.org 'not an answer-quality metric'"),
    ("image-alt-text", "Recall is 96.96%. ![not an answer-quality metric](pixel.png)"),
]


@pytest.mark.parametrize("text", [r[1] for r in HIDDEN_PLACES], ids=[r[0] for r in HIDDEN_PLACES])
def test_a_required_phrase_a_reader_never_sees_is_missing(text: str) -> None:
    got = [(f.status, f.message) for f in run_kind(claim_boundary, REQUIRE, ctx({"page.md": text}))]
    assert got[0][0] == "fail"
    assert got[0][1].startswith('page.md: required phrase missing: "not an answer-quality metric" (written only '
                                "where a reader does not see it, at line ")


@pytest.mark.parametrize("text", ["Recall is 96.96%; **not an answer-quality** metric.",
                                  "- Recall is 96.96%,\n  not an answer-quality metric",
                                  "<p>not an answer-quality metric</p>"])
def test_a_required_phrase_in_prose_is_present(text: str) -> None:
    assert [f.status for f in run_kind(claim_boundary, REQUIRE, ctx({"page.md": text}))] == ["pass"]


# --- folders -----------------------------------------------------------------------------


def test_folder_reads_text_documents_and_lists_the_rest(tmp_path: Path) -> None:
    for name in ("README.md", "README", "index.rst", "guide.adoc", "site.html", "notes.txt"):
        (tmp_path / name).write_text("On LongMemEval-S, recall@5 is 99.6%.\n", encoding="utf-8")
    (tmp_path / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0")
    (tmp_path / "BINARY").write_bytes(b"\0\1\2")
    (tmp_path / "data.json").write_text("{}", encoding="utf-8")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "x.md").write_text("x", encoding="utf-8")
    found, skipped = _files([str(tmp_path)])
    assert sorted(f.name for f in found) == ["README", "README.md", "guide.adoc", "index.rst", "notes.txt",
                                             "site.html"]
    assert sorted(f.name for f in skipped) == ["BINARY", "data.json", "logo.png"]


def test_skipped_files_are_listed_in_the_verdict() -> None:
    got = readable({"README.md": "Text."}, ["docs/a.png", "docs/b.png", "docs/c.json"])
    assert got[-1] == ("skip", "", "3 files in the scanned folders are not a document and were not read "
                                   "(1 *.json, 2 *.png; first: docs/a.png); name a file to scan it as text")


# --- inline code, titles, references ------------------------------------------------------

CODE_AND_TITLES = [
    ("value-in-code-font", "On LongMemEval-S, recall@5 is `99.6%`.", [("paragraph", "On LongMemEval-S, recall@5 is 99.6%.", ())]),
    ("code-example-stays-code", "Set `top_k=0.5`.", [("paragraph", "Set top_k=0.5.", ((4, 13),))]),
    ("link-and-image-titles", "[R@5](https://x.org 'R@5 99.6%') ![a](b.png \"R@10 99.9%\")",
     [("paragraph", "R@5  ", ()), ("attribute", "R@5 99.6%", ()), ("attribute", "a", ()), ("attribute", "R@10 99.9%", ())]),
    ("entities-in-html", "<p>R@5 is 99&#37;</p>", [("html", " R@5 is 99% ", ())]),
    ("reference-style-badge", "[![R@5][b]](#x)\n\n[b]: https://img.shields.io/badge/R%405-99.6%25-green",
     [("attribute", "R@5", ()),
      ("reference", "[b]: https://img.shields.io/badge/R%405-99.6%25-green R@5 99.6%", ())]),
    ("link-to-a-badge-url-is-not-an-image", "![](https://img.shields.io/badge/R%405-99.6%25-green) and "
     "[x](https://img.shields.io/badge/X-1%25-red)", [("attribute", " R@5 99.6%", ()), ("paragraph", "  and x", ())]),
]


@pytest.mark.parametrize("text,expected", [r[1:] for r in CODE_AND_TITLES], ids=[r[0] for r in CODE_AND_TITLES])
def test_code_titles_and_references(text: str, expected: list[tuple[str, str, tuple[tuple[int, int], ...]]]) -> None:
    assert [(b.kind, b.text, b.code) for b in read("page.md", text).blocks] == expected


def test_table_cells_past_the_header_are_read() -> None:
    doc = read("page.md", "Sys | R@5\n---|---\nA | 96% | 99.6% R@5\nB | 97%\n\nText | x")
    assert [(b.kind, b.text, doc.where(b.offset(0))) for b in doc.blocks if not b.visible] == [
        ("overflow", "99.6% R@5", (3, 11))]


def test_digits_of_every_script_read_as_digits() -> None:
    doc = read("page.md", "R@5 is \u0669\u0669\u066b\u0666\u066a, \u096f\u096f.\u096c% and \u06f9\u06f9\u066b\u06f6\u066a.")
    assert doc.blocks[0].text == "R@5 is 99.6%, 99.6% and 99.6%."


def test_a_component_named_by_its_metric() -> None:
    doc = read("page.mdx", '<Metric name="LongMemEval-S recall@5" value="99.6%" />')
    assert [(b.kind, b.text) for b in doc.blocks] == [("attribute", "LongMemEval-S recall@5 99.6%")]


def test_inline_tags_in_html_do_not_split_a_number() -> None:
    assert [b.text for b in read("page.md", "<p>R@5 is <b>99</b>.6%</p>").blocks] == [" R@5 is 99.6% "]
    assert [b.text for b in read("page.md", "<tr><td>R@5</td><td>99.6%</td></tr>").blocks] == ["  R@5  99.6%  "]


def test_a_comment_or_an_extra_cell_in_a_table_row_is_read_under_its_column() -> None:
    doc = read("page.md", "| System | R@5 |\n|---|---|\n| A | 96.96%<!-- 99.6% --> |\n| B | 96% | 99.6% |")
    assert [(b.kind, b.text, b.table, b.row, b.col) for b in doc.blocks if not b.visible] == [
        ("comment", " 99.6% ", 0, 0, 1), ("overflow", "99.6%", 0, 1, 2)]


def test_combining_marks_do_not_hide_a_number() -> None:
    doc = read("page.md", "R@5 is 9\u03369\u0336.\u03366\u0336% and caf\u0065\u0301.")
    assert doc.blocks[0].text == "R@5 is 99.6% and cafe."
