"""Reading Markdown and plain text for the claims scan: blocks of plain text that know where
every character came from.

A document becomes a list of :class:`Block`: headings, paragraphs, list items, block quotes,
table cells, front-matter values, and (only when asked) fenced code. The text of a block is
what a reader sees: markup is gone (``**96.6%**`` reads ``96.6%``), backslash escapes and
character references are resolved (``99\\%`` and ``99&#37;`` read ``99%``), HTML tags and
comments are dropped but the text around them is kept (``<!-- note --> Recall is 97%`` reads
`` Recall is 97%``). Every character keeps the offset it has in the file, so a finding can say
``file:line:column`` of the number as written.

Markdown (``.md``, ``.markdown``, ``.mdx``) is parsed by a CommonMark parser with GFM tables
(markdown-it-py), not by patterns over lines, so a line such as ```` ``` `x` ```` is the
paragraph it is in CommonMark, not a fence. A leading ``---`` ... ``---`` block of a Markdown
file is front matter: its ``key: value`` lines are blocks of kind ``front-matter`` (a page
``description:`` often holds the headline claim) and its ``title:`` heads the page. Plain text
(``.txt`` and anything else) is read as paragraphs separated by blank lines, without markup
and without front matter: a ``---`` line is text.

Tables: every cell is a block of kind ``cell`` with its table, row (``-1`` for the header row)
and column, so that a claim in a cell can take its metric from the column header and its
system or slice from the first cell of its row. A table's *caption* is the paragraph right
before it when that paragraph ends with ``:``.

Inline code spans stay in the text (``code`` lists their spans: numbers inside are examples
unless the scan is asked to include code).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx")


@dataclass(frozen=True)
class Block:
    """A run of plain text and where each of its characters is in the file."""

    kind: str  # heading, paragraph, item, quote, cell, front-matter, html, code, text
    text: str
    offsets: tuple[int, ...]  # file offset of each character of text
    headings: tuple[str, ...] = ()  # the section headings above the block, outermost first
    code: tuple[tuple[int, int], ...] = ()  # (start, end) of inline code spans in text
    table: int | None = None  # index into Document.tables for a cell
    row: int = 0  # -1 for the header row
    col: int = 0

    def offset(self, index: int) -> int:
        if not self.offsets:
            return 0
        return self.offsets[min(max(index, 0), len(self.offsets) - 1)]

    def raw(self, source: str, start: int, end: int) -> str:
        """The file text that reads as ``text[start:end]`` (markup around it left out)."""
        if start >= end or not self.offsets:
            return ""
        last = self.offset(end - 1)
        m = _WRITTEN.match(source, last)
        return source[self.offset(start):last + (len(m.group(0)) if m else 1)]

    def in_code(self, index: int) -> bool:
        return any(a <= index < b for a, b in self.code)


@dataclass(frozen=True)
class Table:
    """A GFM table: its cells by row (the header row first) and what names it."""

    header: tuple[Block, ...]
    rows: tuple[tuple[Block, ...], ...]
    caption: str = ""
    headings: tuple[str, ...] = ()

    def cell(self, row: int, col: int) -> Block | None:
        cells = self.header if row < 0 else self.rows[row]
        return cells[col] if col < len(cells) else None


@dataclass(frozen=True)
class Document:
    """The blocks and tables of one file, and a map from offsets to (line, column)."""

    path: str
    source: str
    blocks: tuple[Block, ...]
    tables: tuple[Table, ...] = ()
    line_starts: tuple[int, ...] = field(default=(0,), repr=False)

    def where(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a file offset; columns count characters."""
        i = bisect.bisect_right(self.line_starts, offset) - 1
        return i + 1, offset - self.line_starts[i] + 1


def _line_starts(text: str) -> tuple[int, ...]:
    starts = [0]
    for m in re.finditer("\n", text):
        starts.append(m.end())
    return tuple(starts)


# --- front matter ------------------------------------------------------------------------

_FM_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:\s?(.*)$")


def _front_matter(text: str) -> tuple[int, list[tuple[str, int, str]]]:
    """(end offset of the front matter or 0, [(key, value offset, value)])."""
    if not text.startswith("---\n") and text.rstrip("\n") != "---":
        return 0, []
    end = re.search(r"^(?:---|\.\.\.)[ \t]*$", text[4:], re.MULTILINE)
    if end is None:
        return 0, []
    stop = 4 + end.end()
    fields: list[tuple[str, int, str]] = []
    pos = 4
    for line in text[4:4 + end.start()].split("\n"):
        m = _FM_KEY.match(line)
        if m and m.group(2).strip() and m.group(2).strip() not in ("|", ">", "|-", ">-"):
            value = m.group(2)
            start = pos + m.start(2)
            stripped = value.strip()
            if len(stripped) >= 2 and stripped[0] == stripped[-1] and stripped[0] in "\"'":
                start += value.index(stripped[0]) + 1
                value = stripped[1:-1]
            fields.append((m.group(1).lower(), start, value.rstrip()))
        elif fields and line.startswith((" ", "\t")) and line.strip():
            key, start, value = fields[-1]
            # a folded continuation line: kept as its own field so offsets stay exact
            fields.append((key, pos + len(line) - len(line.lstrip()), line.strip()))
        pos += len(line) + 1
    return stop, fields


# --- Markdown ----------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _parser() -> Any:
    # Imported here: only the claims scan pays for the Markdown parser.
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    md.disable("text_join")  # keep escapes and entities as their own tokens: they map to source
    return md


class _Builder:
    """Plain text and offsets of one inline run, found in the source from a cursor on."""

    def __init__(self, source: str, cursor: int) -> None:
        self.source = source
        self.cursor = cursor
        self.text: list[str] = []
        self.offsets: list[int] = []
        self.code: list[tuple[int, int]] = []

    def _find(self, needle: str) -> int:
        if not needle:
            return self.cursor
        at = self.source.find(needle, self.cursor)
        return self.cursor if at < 0 else at

    def literal(self, content: str) -> None:
        """Text that is written in the source as it reads."""
        at = self.source.find(content, self.cursor) if content else -1
        if at < 0:
            # Not found verbatim (e.g. tabs expanded): place it at the cursor, character by character.
            for ch in content:
                self.text.append(ch)
                self.offsets.append(min(self.cursor, max(len(self.source) - 1, 0)))
            return
        for i, ch in enumerate(content):
            self.text.append(ch)
            self.offsets.append(at + i)
        self.cursor = at + len(content)

    def special(self, content: str, markup: str) -> None:
        """An escape or character reference: reads ``content``, written ``markup``."""
        at = self._find(markup)
        for ch in content:
            self.text.append(ch)
            self.offsets.append(at)
        self.cursor = at + len(markup)

    def space(self) -> None:
        self.text.append(" ")
        self.offsets.append(min(self.cursor, max(len(self.source) - 1, 0)))

    def skip(self, written: str) -> None:
        at = self.source.find(written, self.cursor) if written else -1
        if at >= 0:
            self.cursor = at + len(written)

    def code_span(self, content: str, markup: str) -> None:
        at = self._find(markup)
        self.cursor = at + len(markup)
        start = len(self.text)
        if self.source.find(content, self.cursor) >= 0:
            self.literal(content)
        else:  # a span across lines reads with spaces for the line ends
            for ch in content:
                self.text.append(ch)
                self.offsets.append(self.cursor)
        self.code.append((start, len(self.text)))
        self.skip(markup)

    def inline(self, children: list[Any]) -> None:
        for tok in children:
            kind = tok.type
            if kind == "text":
                self.literal(tok.content)
            elif kind == "text_special":
                self.special(tok.content, tok.markup)
            elif kind == "code_inline":
                self.code_span(tok.content, tok.markup)
            elif kind in ("softbreak", "hardbreak"):
                self.space()
            elif kind == "html_inline":
                self.skip(tok.content)
                if re.fullmatch(r"<br\s*/?>", tok.content.strip(), re.IGNORECASE):
                    self.space()
            elif kind == "image":
                self.inline(tok.children or [])
                self.badge(str(tok.attrGet("src") or ""))
            elif kind.endswith("_open") or kind.endswith("_close"):
                if tok.markup and kind.endswith("_open") and not kind.startswith("link"):
                    self.skip(tok.markup)
            elif tok.content:
                self.literal(tok.content)

    def badge(self, src: str) -> None:
        """A static badge image (``img.shields.io/badge/LABEL-MESSAGE-COLOR``) reads as
        ``LABEL MESSAGE``: headline claims often live there, URL-encoded."""
        m = _BADGE.search(src)
        at = self.source.find(src, self.cursor) if m else -1
        if m is None or at < 0:
            return
        base = at + m.start(1)
        parts = _badge_parts(m.group(1))
        self.space()
        for j, part in enumerate(parts[:2]):  # the colour is not text
            if j:
                self.space()
            for ch, offset in part:
                self.text.append(ch)
                self.offsets.append(base + offset)
        self.cursor = at + len(src)

    def block(self, kind: str, headings: tuple[str, ...], **where: Any) -> Block:
        return Block(kind, "".join(self.text), tuple(self.offsets), headings, tuple(self.code), **where)


_WRITTEN = re.compile(r"(?:%[0-9A-Fa-f]{2})+|\\.|&#?\w+;")
_BADGE = re.compile(r"img\.shields\.io/badge/([^/?#]+)")


def _badge_parts(path: str) -> list[list[tuple[str, int]]]:
    """The ``-``-separated parts of a badge path, each decoded with the offset of every
    character: ``--`` is ``-``, ``__`` is ``_``, ``_`` is a space, ``%XX`` is URL encoding."""
    parts: list[list[tuple[str, int]]] = [[]]
    raw: list[tuple[int, int]] = []  # (byte, offset) of a pending %XX sequence
    i = 0

    def flush() -> None:
        if raw:
            data = bytes(b for b, _ in raw)
            text = data.decode("utf-8", errors="replace")
            parts[-1].extend((c, raw[0][1]) for c in text)
            raw.clear()

    while i < len(path):
        two = path[i:i + 2]
        if two in ("--", "__"):
            flush()
            parts[-1].append((two[0], i))
            i += 2
            continue
        ch = path[i]
        if ch == "%" and re.fullmatch(r"[0-9A-Fa-f]{2}", path[i + 1:i + 3]):
            raw.append((int(path[i + 1:i + 3], 16), i))
            i += 3
            continue
        flush()
        if ch == "-":
            parts.append([])
        else:
            parts[-1].append((" " if ch == "_" else ch, i))
        i += 1
    flush()
    return parts


_TAG = re.compile(r"<!--.*?-->|<!--.*|<[^>\n]*>", re.DOTALL)


def _html_text(source: str, start: int, content: str, headings: tuple[str, ...]) -> Block | None:
    """The text of an HTML block outside its tags and comments (``<!-- x --> Recall 97%``)."""
    at = source.find(content, start)
    base = at if at >= 0 else start
    text: list[str] = []
    offsets: list[int] = []
    pos = 0
    for m in _TAG.finditer(content):
        for i in range(pos, m.start()):
            text.append(" " if content[i] == "\n" else content[i])
            offsets.append(base + i)
        text.append(" ")
        offsets.append(base + m.start())
        pos = m.end()
    for i in range(pos, len(content)):
        text.append(" " if content[i] == "\n" else content[i])
        offsets.append(base + i)
    joined = "".join(text)
    if not joined.strip():
        return None
    return Block("html", joined, tuple(offsets), headings)


def _markdown(path: str, source: str, include_code: bool) -> Document:
    stop, fields = _front_matter(source)
    # Front matter is blanked, not cut, so that offsets in the parsed body are file offsets.
    body = "".join(c if c == "\n" else " " for c in source[:stop]) + source[stop:]
    starts = _line_starts(source)
    blocks: list[Block] = []
    tables: list[Table] = []
    title = next((v for k, _, v in fields if k == "title"), "")
    for key, at, value in fields:
        if key == "title":
            continue
        blocks.append(Block("front-matter", value, tuple(range(at, at + len(value))), (title,) if title else ()))
    tokens = _parser().parse(body)
    heading_stack: list[tuple[int, str]] = [(0, title)] if title else []
    container: list[str] = []
    table_rows: list[list[Block]] | None = None
    row_cells: list[Block] = []
    row_cursor: int | None = None
    in_head = False
    last_paragraph = ""
    for i, tok in enumerate(tokens):
        kind = tok.type
        line_start = starts[tok.map[0]] if tok.map else None
        headings = tuple(t for _, t in heading_stack if t)
        if kind in ("bullet_list_open", "ordered_list_open"):
            container.append("item")
        elif kind == "blockquote_open":
            container.append("quote")
        elif kind in ("bullet_list_close", "ordered_list_close", "blockquote_close"):
            container.pop()
        elif kind == "table_open":
            table_rows = []
        elif kind == "thead_open":
            in_head = True
        elif kind == "thead_close":
            in_head = False
        elif kind == "tr_open":
            row_cells = []
            row_cursor = line_start
        elif kind == "tr_close" and table_rows is not None:
            table_rows.append(row_cells)
        elif kind == "table_close" and table_rows is not None:
            index = len(tables)
            fixed = [[Block(c.kind, c.text, c.offsets, c.headings, c.code, index, r - 1, j)
                      for j, c in enumerate(cells)] for r, cells in enumerate(table_rows)]
            caption = last_paragraph if last_paragraph.rstrip().endswith(":") else ""
            tables.append(Table(tuple(fixed[0]) if fixed else (), tuple(tuple(r) for r in fixed[1:]),
                                caption, headings))
            for cells in fixed:
                blocks.extend(cells)
            table_rows = None
            last_paragraph = ""
        elif kind == "inline" and line_start is not None:
            if table_rows is not None:
                b = _Builder(body, row_cursor if row_cursor is not None else line_start)
                b.inline(tok.children or [])
                row_cells.append(b.block("cell", headings, table=None, row=-1 if in_head else 0))
                bar = body.find("|", b.cursor)
                row_cursor = bar + 1 if bar >= 0 else b.cursor
                continue
            b = _Builder(body, line_start)
            b.inline(tok.children or [])
            prev = tokens[i - 1].type if i else ""
            if prev == "heading_open":
                level = int(tokens[i - 1].tag[1:])
                text = "".join(b.text)
                while heading_stack and heading_stack[-1][0] >= level:
                    heading_stack.pop()
                blocks.append(b.block("heading", tuple(t for _, t in heading_stack if t)))
                heading_stack.append((level, text))
                last_paragraph = ""
                continue
            block = b.block(container[-1] if container else "paragraph", headings)
            blocks.append(block)
            last_paragraph = block.text
        elif kind == "html_block" and line_start is not None:
            found = _html_text(body, line_start, tok.content, headings)
            if found is not None:
                blocks.append(found)
        elif kind in ("fence", "code_block") and include_code and line_start is not None:
            at = body.find(tok.content, line_start)
            base = at if at >= 0 else line_start
            for m in re.finditer(r"[^\n]+", tok.content):
                blocks.append(Block("code", m.group(0), tuple(range(base + m.start(), base + m.end())), headings))
    blocks.sort(key=lambda blk: blk.offset(0))
    return Document(path, source, tuple(blocks), tuple(tables), starts)


def _plain(path: str, source: str) -> Document:
    blocks = []
    for m in re.finditer(r"(?:[^\n]*\S[^\n]*(?:\n|$))+", source):
        para = m.group(0).rstrip("\n")
        text = "".join(" " if c == "\n" else c for c in para)
        blocks.append(Block("text", text, tuple(range(m.start(), m.start() + len(para)))))
    return Document(path, source, tuple(blocks), (), _line_starts(source))


@lru_cache(maxsize=64)
def read(path: str, source: str, include_code: bool = False) -> Document:
    """The blocks of one file: Markdown by its suffix, plain text otherwise."""
    if path.lower().endswith(MARKDOWN_SUFFIXES):
        return _markdown(path, source, include_code)
    return _plain(path, source)
