"""Reading Markdown and plain text for the claims scan: blocks of plain text that know where
every character came from.

A document becomes a list of :class:`Block`: headings, paragraphs, list items, block quotes,
table cells, front-matter values, HTML text, HTML comments, attribute values of HTML and MDX
tags, and (only when asked) fenced code. The text of a block is what a reader sees: markup is
gone (``**96.6%**`` reads ``96.6%``), backslash escapes and character references are resolved
(``99\\%`` and ``99&#37;`` read ``99%``), invisible characters (zero-width spaces and joiners,
soft hyphens, variation selectors: every Unicode format character) are left out, HTML tags are
dropped but the text around them is kept (``<b>Recall</b> is 97%`` reads ``Recall is 97%``).
Every character keeps the offset it has in the file, so a finding can say ``file:line:column``
of the number as written.

Text a reader of the rendered page never sees is still published source, so it is read too,
each in a block of its own kind: the text of an HTML comment (kind ``comment``), the values of
tag attributes (kind ``attribute``: ``<img alt="R@5 99.6%">``, ``<Stat label="R@5"
value="99.6%" />``; a badge URL in ``src`` reads as its label and message) and link reference
definitions (kind ``reference``), and table cells past the header's count, which GFM drops
(kind ``overflow``). :data:`HIDDEN` names these kinds together with ``code`` and
``front-matter``; :attr:`Document.visible` is the file with all such text blanked, for checks
that need what a reader actually sees (a required disclaimer must be visible).

Markdown (``.md``, ``.markdown``, ``.mdx``) is parsed by a CommonMark parser with GFM tables
(markdown-it-py), not by patterns over lines, so a line such as ```` ``` `x` ```` is the
paragraph it is in CommonMark, not a fence. A leading ``---`` ... ``---`` block of a Markdown
file is front matter, parsed as YAML (composed only: no tag is constructed, an alias is not
expanded): every scalar value, at any depth (block scalars, list items, nested mappings), is a
block of kind ``front-matter`` (a page ``description:`` often holds the headline claim; a bare
number reads with its key, ``recall@5: 0.996``) and ``title:`` heads the page. Front matter that
is not valid YAML is a :class:`Problem`, and its lines are read as text. Plain text (``.txt``
and anything else) is read as paragraphs separated by blank lines, without markup and without
front matter: a ``---`` line is text.

Nothing in a file goes unread. A source line that the parser turns into no block (a footnote
``[^1]: ...``, which GitHub shows, or a link reference definition) is read as text of kind
``footnote`` or ``reference``; text nested deeper than the parser follows (``MAX_NESTING``
levels: a list item counts two) is read the same way and is also a :class:`Problem`.

A :class:`Problem` is something the reader cannot read the way a person sees it; the scan fails
on each (rule ``claim-text-readable``). Bidirectional control characters are one: an override
(U+202D, U+202E) anywhere, and any other direction control (U+200E, U+200F, U+061C,
U+202A-U+202C, U+2066-U+2069) in a block that holds a digit, since ``recall@5 is
U+202E %6.99 U+202C`` renders as ``99.6%`` but reads ``%6.99``.

Tables: every cell is a block of kind ``cell`` with its table, row (``-1`` for the header row)
and column, so that a claim in a cell can take its metric from the column header and its
system or slice from the first cell of its row. A table's *caption* is the paragraph right
before it when that paragraph ends with ``:``, or a pandoc caption: the paragraph right before or
after it that starts with ``Table:`` or ``:``. Every block carries the section headings above
it (``Block.headings``, outermost first), so a claim can take its benchmark from its section.

An image's alt text, its badge text and its title are an ``attribute`` block of their own (a
reader sees the picture, not the words). Decimal digits of every script read as ASCII digits,
the Arabic percent sign and decimal separator as ``%`` and ``.``, and a combining mark on an
ASCII character is left out (``9\u03369\u0336%`` reads ``99%``).

Inline code spans stay in the text (``code`` lists their spans: numbers inside are examples
unless the scan is asked to include code), except code holding nothing but a number
(`` `99.6%` ``): that is a value set in code font, read like any other. Link and image titles
(tooltips) are attribute text; a reference definition's badge URL reads as its label and message.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from functools import cached_property, lru_cache
from typing import Any
from urllib.parse import unquote_to_bytes

from bench_gate.records import field, record, replace
from bench_gate.text.canonical import invisible

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx")
RST_SUFFIXES = (".rst", ".rest")
ADOC_SUFFIXES = (".adoc", ".asciidoc", ".asc")
HTML_SUFFIXES = (".html", ".htm")

# Fences GitHub renders (a formula, a chart) rather than shows as code: their text is read.
RENDERED_FENCES = frozenset({"math", "latex", "katex", "mermaid"})

# Kinds of block a reader of the rendered page does not see (still published source).
HIDDEN = frozenset({"comment", "attribute", "reference", "overflow", "code", "front-matter"})

# Block nesting the parser follows (the commonmark preset stops at 20: a 10-deep list).
MAX_NESTING = 100


@record
class Block:
    """A run of plain text and where each of its characters is in the file."""

    kind: str  # heading, paragraph, item, quote, cell, html, text, footnote, or one of HIDDEN
    text: str
    offsets: tuple[int, ...]  # file offset of each character of text
    headings: tuple[str, ...] = ()  # the section headings above the block, outermost first
    code: tuple[tuple[int, int], ...] = ()  # (start, end) of inline code spans in text
    table: int | None = None  # index into Document.tables for a cell
    row: int = 0  # -1 for the header row
    col: int = 0
    parents: tuple[str, ...] = ()  # the text of the list items it is nested in, outermost first

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

    @property
    def visible(self) -> bool:
        """True when a reader of the rendered page sees this text."""
        return self.kind not in HIDDEN


@record
class Problem:
    """Something in a file that cannot be read the way a person sees it (the scan fails on it)."""

    offset: int
    message: str
    written: str = ""


@record
class Table:
    """A GFM table: its cells by row (the header row first) and what names it."""

    header: tuple[Block, ...]
    rows: tuple[tuple[Block, ...], ...]
    caption: str = ""
    headings: tuple[str, ...] = ()

    def cell(self, row: int, col: int) -> Block | None:
        cells = self.header if row < 0 else self.rows[row]
        return cells[col] if col < len(cells) else None


@record
class Document:
    """The blocks and tables of one file, and a map from offsets to (line, column)."""

    path: str
    source: str
    blocks: tuple[Block, ...]
    tables: tuple[Table, ...] = ()
    line_starts: tuple[int, ...] = field(default=(0,), repr=False)
    problems: tuple[Problem, ...] = ()
    hidden: tuple[tuple[int, int], ...] = field(default=(), repr=False)  # source spans nobody sees

    @cached_property
    def visible(self) -> str:
        """The file with every span a reader does not see (comments, tags, code, front matter)
        blanked, so that offsets are file offsets."""
        chars = list(self.source)
        for a, b in self.hidden:
            for i in range(max(a, 0), min(b, len(chars))):
                if chars[i] != "\n":
                    chars[i] = " "
        return "".join(chars)

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

_FM_END = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.MULTILINE)
_SKIPPABLE = " \t\n>|-+\"'"


@record(frozen=False)
class _FrontMatter:
    stop: int = 0  # end offset of the front matter, 0 when there is none
    title: str = ""
    blocks: list[Block] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def _placed(value: str, raw: str, base: int) -> tuple[int, ...]:
    """The file offset of each character of a YAML scalar's value, found in order in its source
    ``raw`` (quotes, indentation, line folding and block headers skipped over)."""
    offsets: list[int] = []
    cur = 0
    last = max(len(raw) - 1, 0)
    for ch in value:
        if ch.isspace():
            offsets.append(base + min(cur, last))
            while cur < len(raw) and raw[cur].isspace():
                cur += 1
            continue
        j = raw.find(ch, cur)
        if j >= 0 and (j - cur <= 3 or not raw[cur:j].strip(_SKIPPABLE)):
            offsets.append(base + j)
            cur = j + 1
        else:  # an escape sequence: the character sits where its escape starts
            offsets.append(base + min(cur, last))
    return tuple(offsets)


def _front_matter(text: str) -> _FrontMatter:
    """Front matter parsed as YAML: every scalar value, at any depth, with its offsets."""
    if not text.startswith("---\n") and text.rstrip("\n") != "---":
        return _FrontMatter()
    end = _FM_END.search(text, 4)
    if end is None:
        return _FrontMatter()
    out = _FrontMatter(stop=end.end())
    body = text[4:end.start()]
    import yaml  # imported here: only a page with front matter pays for it

    try:
        root = yaml.compose(body, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError, ValueError) as exc:
        line = getattr(getattr(exc, "problem_mark", None), "line", None)
        where = f" (line {line + 2})" if isinstance(line, int) else ""
        out.problems.append(Problem(0, f"the front matter is not valid YAML{where}: its lines are read as text, "
                                       "but a site generator would not read them this way; fix the YAML"))
        for m in re.finditer(r"[^\n]*\S[^\n]*", body):
            out.blocks.append(Block("front-matter", m.group(0), tuple(range(4 + m.start(), 4 + m.end()))))
        return out
    seen: set[int] = set()
    stack: list[tuple[Any, str, bool]] = [(root, "", True)] if root is not None else []
    found: list[tuple[str, str, Any]] = []  # (key, value, node)
    while stack:
        node, key, top = stack.pop()
        if id(node) in seen:  # an alias is read once, never expanded
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for k, v in reversed(node.value):
                name = str(k.value) if isinstance(k, yaml.ScalarNode) else ""
                stack.append((v, name, top and isinstance(node, yaml.MappingNode) and node is root))
                if not isinstance(k, yaml.ScalarNode):
                    stack.append((k, "", False))
        elif isinstance(node, yaml.SequenceNode):
            for v in reversed(node.value):
                stack.append((v, "", False))
        elif isinstance(node, yaml.ScalarNode):
            value = str(node.value)
            if top and key.lower() == "title" and node is not root:
                out.title = value
                continue
            if value.strip():
                found.append((key, value, node))
    for key, value, node in found:
        raw = body[node.start_mark.index:node.end_mark.index]
        offsets = _placed(value, raw, 4 + node.start_mark.index)
        if key and not any(c.isspace() for c in value.strip()):
            # a bare value means nothing without its key: ``recall@5: 0.996``
            at = 4 + node.start_mark.index
            key_at = text.rfind(key, 4, at)
            key_offsets = tuple(range(key_at, key_at + len(key))) if key_at >= 0 else (at,) * len(key)
            value, offsets = f"{key}: {value}", key_offsets + (at, at) + offsets
        out.blocks.append(Block("front-matter", value, offsets))
    return out


# --- Markdown ----------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _parser() -> Any:
    # Imported here: only the claims scan pays for the Markdown parser.
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": True, "maxNesting": MAX_NESTING}).enable("table")
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
        self.extra: list[tuple[str, str, tuple[int, ...]]] = []  # comments and attributes met inline
        self.hidden: list[tuple[int, int]] = []
        self.titles: list[str] = []

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
        if not _BARE_VALUE.fullmatch(content):
            # a value set in code font (`` `99.6%` ``) is the value, not an example
            self.code.append((start, len(self.text)))
        self.skip(markup)

    def html(self, content: str) -> None:
        """An inline tag or comment: it reads as nothing here, its text as a block of its own."""
        at = self.source.find(content, self.cursor) if content else -1
        if at < 0:
            return
        self.cursor = at + len(content)
        self.hidden.append((at, self.cursor))
        self.extra.extend(_markup_text(content, at))
        if re.fullmatch(r"<(?:br|/?sup|/?sub)\b[^>]*>", content.strip(), re.IGNORECASE):
            self.space()  # a line break, or a superscript footnote marker: not part of the number before it

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
                self.html(tok.content)
            elif kind == "image":
                # An image's alt text and badge are not page text (a reader sees the picture): they
                # are read as an attribute block of their own.
                start = len(self.text)
                self.inline(tok.children or [])
                self.image()
                alt = "".join(self.text[start:])
                begin = self.offsets[start] if alt else self.cursor
                if alt.strip():
                    self.extra.append(("attribute", alt, tuple(self.offsets[start:])))
                del self.text[start:], self.offsets[start:]
                self.code = [c for c in self.code if c[1] <= start]
                self.space()
                self.title(str(tok.attrGet("title") or ""))
                self.hidden.append((begin, max(self.cursor, begin)))
            elif kind == "link_open":
                self.titles.append(str(tok.attrGet("title") or ""))
            elif kind == "link_close":
                self.title(self.titles.pop() if self.titles else "")
            elif kind.endswith("_open") or kind.endswith("_close"):
                if tok.markup and kind.endswith("_open"):
                    self.skip(tok.markup)
            elif tok.content:
                self.literal(tok.content)

    def image(self) -> None:
        """A badge image (shields.io, badgen.net) reads as its label and message: headline
        claims often live there, URL-encoded. The URL is taken as written, after ``](``."""
        m = _IMAGE_URL.match(self.source, self.cursor)
        if m is None:
            return
        parts = badge_text(m.group(1))
        for part in parts:
            self.space()
            for ch, offset in part:
                self.text.append(ch)
                self.offsets.append(m.start(1) + offset)
        self.cursor = m.end(1)

    def title(self, title: str) -> None:
        """A link or image title (a tooltip): attribute text of its own."""
        at = self.source.find(title, self.cursor) if title.strip() else -1
        if at >= 0 and "\n\n" not in self.source[self.cursor:at]:
            self.extra.append(("attribute", title, tuple(range(at, at + len(title)))))
            self.hidden.append((at, at + len(title)))
            self.cursor = at + len(title)

    def block(self, kind: str, headings: tuple[str, ...], **where: Any) -> Block:
        return Block(kind, "".join(self.text), tuple(self.offsets), headings, tuple(self.code), **where)

    def extras(self, headings: tuple[str, ...]) -> list[Block]:
        return [Block(kind, text, offsets, headings) for kind, text, offsets in self.extra]


_WRITTEN = re.compile(r"(?:%[0-9A-Fa-f]{2})+|\\.|&#?\w+;")
# The URL of an inline image, right after its alt text (a reference image has none here).
_IMAGE_URL = re.compile(r"[^\]\n]{0,80}?\]\(\s*<?([^\s)>]+)")
# Inline code that holds nothing but a number: a value set in code font, read as a claim.
_BARE_VALUE = re.compile(r"\s*[~≈]?\s*(?:\d+(?:[.,]\d+)?|[.,]\d+)\s*(?:%|％|percent|pct)?\s*")


# --- badges ------------------------------------------------------------------------------

Chars = list[tuple[str, int]]  # characters with their offsets in a URL


def _url_decoded(text: str, base: int, plus: bool = False) -> Chars:
    """``%XX`` (UTF-8) and, in a query, ``+`` decoded, each character at its offset."""
    out: Chars = []
    for m in re.finditer(r"((?:%[0-9A-Fa-f]{2})+)|(.)", text, re.DOTALL):
        if m.group(1):
            decoded = unquote_to_bytes(m.group(1)).decode("utf-8", errors="replace")
            out.extend((c, base + m.start()) for c in decoded)
        else:
            out.append((" " if plus and m.group(2) == "+" else m.group(2), base + m.start()))
    return out


def _shields_path(path: str, base: int) -> list[Chars]:
    """The ``-``-separated parts of a shields.io badge path: ``--`` is ``-``, ``__`` is ``_``,
    ``_`` is a space, ``%XX`` is URL encoding."""
    parts: list[Chars] = [[]]
    i = 0
    while i < len(path):
        two = path[i:i + 2]
        if two in ("--", "__"):
            parts[-1].append((two[0], base + i))
            i += 2
        elif path[i] == "-":
            parts.append([])
            i += 1
        else:
            m = re.compile(r"(?:%[0-9A-Fa-f]{2})+").match(path, i)
            if m:
                parts[-1].extend(_url_decoded(m.group(0), base + i))
                i = m.end()
            else:
                parts[-1].append((" " if path[i] == "_" else path[i], base + i))
                i += 1
    return parts


_SHIELDS = re.compile(r"(?:img\.)?shields\.io/badge/(?!dynamic/)([^/?#\s]+)", re.IGNORECASE)
_BADGEN = re.compile(r"badgen\.net/badge/([^?#\s]+)", re.IGNORECASE)
_BADGE_HOST = re.compile(r"(?:shields\.io|badgen\.net)/", re.IGNORECASE)


def badge_text(url: str) -> list[Chars]:
    """The label and message of a badge URL, each with the offset of every character in ``url``
    (nothing for another URL): ``img.shields.io/badge/LABEL-MESSAGE-COLOR``,
    ``img.shields.io/static/v1?label=L&message=M``, ``badgen.net/badge/LABEL/MESSAGE/COLOR``, and
    a ``label=`` / ``message=`` / ``status=`` query on either host."""
    if not _BADGE_HOST.search(url):
        return []
    parts: list[Chars] = []
    query = url.find("?")
    if query >= 0:
        for m in re.finditer(r"(?:^|[?&;])(label|message|status)=([^&;#]*)", url[query:]):
            parts.append(_url_decoded(m.group(2), query + m.start(2), plus=True))
    m = _SHIELDS.search(url)
    if m is not None:
        parts = parts[:1] + [p for p in _shields_path(m.group(1), m.start(1))[:2]] + parts[1:]
    m = _BADGEN.search(url)
    if m is not None:
        base = m.start(1)
        for seg in re.finditer(r"[^/]+", m.group(1)):
            if len(parts) >= 2 + (query >= 0):
                break  # the colour is not text
            parts.append(_url_decoded(seg.group(0), base + seg.start()))
    return [p for p in parts if any(not c.isspace() for c, _ in p)]


# --- HTML --------------------------------------------------------------------------------

_VALUE = r"""(?:"[^"]*"|'[^']*'|\{(?:[^{}]|\{[^{}]*\})*\}|[^\s"'=<>`]+)"""
_ATTR = re.compile(r"""([^\s"'<>/={}]+)(?:\s*=\s*(""" + _VALUE + r"))?")
_MARKUP = re.compile(r"<!--(.*?)(?:-->|\Z)|<[!?][^>]*>|</[A-Za-z][\w.:-]*\s*>"
                     r"|<([A-Za-z][\w.:-]*)((?:\s+[^\s\"'<>/={}]+(?:\s*=\s*" + _VALUE + r")?|\s*\{[^{}]*\})*)\s*/?>",
                     re.DOTALL)
# Attributes that hold no prose: layout, identifiers, links. ``src`` is read only as a badge.
_NOT_TEXT = frozenset("""href src srcset class classname id style width height align valign target rel type
    lang dir role tabindex loading decoding xmlns viewbox d fill stroke key ref colspan rowspan border
    cellpadding cellspacing bgcolor color size face start for method action frameborder allow
    allowfullscreen crossorigin integrity referrerpolicy sizes media charset async defer open checked
    disabled hidden""".split())


# Tags that sit inside a line of text without separating it (a comment does not either).
# (``<sup>`` and ``<sub>`` are not among them: ``99%<sup>1</sup>`` is 99% and a footnote marker.)
_PHRASING = frozenset("""a abbr b bdi bdo cite code data del dfn em font i ins kbd mark q s samp small span
    strong time u var wbr""".split())


def _entities(raw: str, base: int) -> Chars:
    """An attribute value with its character references resolved, each character at its offset."""
    import html

    out: Chars = []
    for m in re.finditer(r"&#?\w+;|(.)", raw, re.DOTALL):
        if m.group(1) is not None:
            out.append((m.group(1), base + m.start()))
        else:
            out.extend((c, base + m.start()) for c in html.unescape(m.group(0)))
    return out


def _attribute_text(attrs: str, base: int) -> Chars:
    """The values of a tag's attributes that hold text, joined by spaces (a badge ``src`` as its
    label and message; a JSX ``{"99.6%"}`` or ``{99.6}`` as its content)."""
    out: Chars = []
    for m in _ATTR.finditer(attrs):
        name, value = m.group(1).lower(), m.group(2)
        if value is None:
            continue
        at = base + m.start(2)
        if value[:1] in "\"'":
            value, at = value[1:-1], at + 1
        elif value.startswith("{"):
            inner = value[1:-1].strip()
            at += value.index(inner) if inner else 0
            if len(inner) >= 2 and inner[0] == inner[-1] and inner[0] in "\"'`":
                inner, at = inner[1:-1], at + 1
            value = inner
        if name == "src":
            pieces = [[(c, at + o) for c, o in part] for part in badge_text(value)]
        elif name in _NOT_TEXT or name.startswith("on"):
            continue
        else:
            pieces = [_entities(value, at)]
        for piece in pieces:
            if out:
                out.append((" ", piece[0][1] if piece else at))
            out.extend(piece)
    return out


def _markup_text(content: str, base: int) -> list[tuple[str, str, tuple[int, ...]]]:
    """(kind, text, offsets) of what one tag or comment holds: a comment's text, a tag's
    attribute values."""
    out: list[tuple[str, str, tuple[int, ...]]] = []
    for m in _MARKUP.finditer(content):
        if m.group(1) is not None and m.group(1).strip():
            out.append(("comment", m.group(1), tuple(range(base + m.start(1), base + m.end(1)))))
        elif m.group(2) is not None:
            chars = _attribute_text(m.group(3) or "", base + m.start(3))
            if any(not c.isspace() for c, _ in chars):
                out.append(("attribute", "".join(c for c, _ in chars), tuple(o for _, o in chars)))
    return out


class _HtmlTable:
    """The rows and cells of one ``<table>`` as its tags open and close."""

    def __init__(self) -> None:
        self.rows: list[list[tuple[list[str], list[int], bool]]] = []  # (text, offsets, is a <th>)
        self.cell: tuple[list[str], list[int], bool] | None = None
        self.caption: tuple[list[str], list[int]] | None = None
        self.in_head = False
        self.head_rows = 0

    def sink(self) -> tuple[list[str], list[int]] | None:
        """Where text goes now: the open cell or caption (None: outside both)."""
        if self.cell is not None:
            return self.cell[0], self.cell[1]
        return self.caption

    def tag(self, name: str, closing: bool) -> None:
        if name == "caption":
            self.caption = None if closing else ([], [])
            if closing:
                return
        elif name in ("td", "th"):
            self.close_cell()
            if not closing:
                if not self.rows:
                    self.rows.append([])
                self.cell = ([], [], name == "th")
        elif name == "tr":
            self.close_cell()
            if not closing:
                self.rows.append([])
                if self.in_head:
                    self.head_rows += 1
        elif name == "thead":
            self.in_head = not closing

    def close_cell(self) -> None:
        if self.cell is not None:
            if not self.rows:
                self.rows.append([])
            self.rows[-1].append(self.cell)
            self.cell = None


def _html_text(source: str, start: int, content: str, headings: tuple[str, ...],
               tables: list[Table] | None = None) -> tuple[list[Block], list[tuple[int, int]]]:
    """The blocks of an HTML block: its text outside tags and comments (``<!-- x --> Recall
    97%`` reads `` Recall 97%``), its comments' text and its tags' attribute values; and the
    spans of its tags and comments, which nobody sees. A ``<table>`` is read as a table (its
    cells, header row and caption), appended to ``tables``, like a Markdown table."""
    at = source.find(content, start)
    base = at if at >= 0 else start
    text: list[str] = []
    offsets: list[int] = []
    blocks: list[Block] = []
    hidden: list[tuple[int, int]] = []
    pos = 0
    table: _HtmlTable | None = None
    captions: list[str] = []

    def between(a: int, b: int) -> None:
        sink = table.sink() if table is not None else None
        into_text, into_offsets = sink if sink is not None else (text, offsets)
        for ch, where in _entities(content[a:b], base + a):
            into_text.append(" " if ch == "\n" else ch)
            into_offsets.append(where)

    def finish(t: _HtmlTable) -> None:
        t.close_cell()
        rows = [r for r in t.rows if r]
        if not rows or tables is None:
            return
        index = len(tables)
        head = 1 if (t.head_rows or all(c[2] for c in rows[0])) else 0
        built = [[Block("cell", "".join(c[0]), tuple(c[1]), headings, (), index, r - head, j)
                  for j, c in enumerate(row)] for r, row in enumerate(rows)]
        caption = "".join(t.caption[0]) if t.caption else (captions[-1] if captions else "")
        header = tuple(built[0]) if head else ()
        tables.append(Table(header, tuple(tuple(r) for r in built[head:]), caption, headings))
        for row in built:
            blocks.extend(row)

    for m in _MARKUP.finditer(content):
        between(pos, m.start())
        name = re.match(r"(</?)([A-Za-z][\w.:-]*)", m.group(0))
        tag = name.group(2).lower() if name else ""
        closing = bool(name) and name.group(1) == "</"
        if tables is not None and tag == "table":
            if not closing and table is None:
                table = _HtmlTable()
            elif closing and table is not None:
                finish(table)
                table = None
        elif table is not None and tag in ("td", "th", "tr", "thead", "caption"):
            if tag == "caption" and closing and table.caption is not None:
                captions.append("".join(table.caption[0]))
            table.tag(tag, closing)
        sink = table.sink() if table is not None else None
        into_text, into_offsets = sink if sink is not None else (text, offsets)
        if not m.group(0).startswith("<!--") and not (tag in _PHRASING):
            # a block tag (<td>, <p>, <br>, a component) separates words; <b>99</b>.6% reads 99.6%
            into_text.append(" ")
            into_offsets.append(base + m.start())
        pos = m.end()
        hidden.append((base + m.start(), base + m.end()))
        blocks.extend(Block(k, t, o, headings) for k, t, o in _markup_text(m.group(0), base + m.start()))
    between(pos, len(content))
    if table is not None:
        finish(table)
    joined = "".join(text)
    if joined.strip():
        blocks.insert(0, Block("html", joined, tuple(offsets), headings))
    return blocks, hidden


# A pandoc table caption: a paragraph right before or after a table that starts with "Table:" or ":".
_PANDOC_CAPTION = re.compile(r"\s*(?:Table)?:\s+\S", re.IGNORECASE)


# --- what the parser left out ------------------------------------------------------------

_CONTAINERS = frozenset({"blockquote_open", "bullet_list_open", "ordered_list_open", "list_item_open"})
_MARKERS = re.compile(r"(?:[ \t]*(?:>|[-+*](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$)))*[ \t]*")


def _unread(tokens: list[Any], body: str, starts: tuple[int, ...]) -> list[Block]:
    """Source lines no block token covers, as text: footnotes (``[^1]: ...``), link reference
    definitions, and anything the parser stopped reading (nesting beyond its limit)."""
    covered = bytearray(len(starts))
    for tok in tokens:
        if tok.map and tok.type not in _CONTAINERS:
            for line in range(tok.map[0], min(tok.map[1], len(starts))):
                covered[line] = 1
    out: list[Block] = []
    run: list[tuple[int, int]] = []  # (start, end) offsets of consecutive unread lines

    def flush() -> None:
        if not run:
            return
        text, offsets = [], []
        for a, b in run:
            if text:
                text.append(" ")
                offsets.append(a)
            text.extend(body[a:b])
            offsets.extend(range(a, b))
        first = "".join(text)
        kind = "footnote" if first.startswith("[^") else "reference" if re.match(r"\[[^\]]+\]:", first) else "text"
        url = re.match(r"\[[^\]]+\]:\s*<?([^\s>]+)", first) if kind == "reference" else None
        for part in badge_text(url.group(1)) if url else []:
            text.append(" ")
            offsets.append(offsets[-1])
            text.extend(c for c, _ in part)
            offsets.extend(offsets[url.start(1) + o] for _, o in part)
        out.append(Block(kind, "".join(text), tuple(offsets)))
        run.clear()

    for line, start in enumerate(starts):
        end = starts[line + 1] - 1 if line + 1 < len(starts) else len(body)
        if covered[line]:
            flush()
            continue
        m = _MARKERS.match(body, start, end)
        a = m.end() if m else start
        if not body[a:end].strip():
            flush()
            continue
        run.append((a, end))
    flush()
    return out


# --- visible characters ------------------------------------------------------------------

# Decimal digits of every script read as the digits they are (``٩٩٫٦٪`` is ``99.6%``): NFKC
# maps fullwidth and mathematical digits, not Arabic-Indic, Devanagari or Bengali ones.
_ARABIC_SIGNS = {"\u066a": "%", "\u066b": ".", "\u066c": ","}


def _ascii_digit(ch: str) -> str:
    if ch.isascii():
        return ch
    if ch in _ARABIC_SIGNS:
        return _ARABIC_SIGNS[ch]
    value = unicodedata.decimal(ch, None) if unicodedata.category(ch) == "Nd" else None
    return ch if value is None else str(value)


_OVERRIDES = frozenset("\u202d\u202e")
_DIRECTION = frozenset("\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _visible_chars(block: Block) -> tuple[Block, list[Problem]]:
    """The block without invisible characters (each left out with its offset), and a problem for
    bidirectional controls that may make the text render in another order than it reads."""
    problems: list[Problem] = []
    controls = [i for i, c in enumerate(block.text) if c in _DIRECTION]
    if controls and (any(block.text[i] in _OVERRIDES for i in controls) or any(c.isdigit() for c in block.text)):
        i = controls[0]
        ch = block.text[i]
        names = list(dict.fromkeys(f"U+{ord(block.text[j]):04X} {unicodedata.name(block.text[j], '')}".strip()
                                   for j in controls))
        shown_text = "".join(c for c in block.text if not invisible(c)).strip()
        if len(shown_text) > 80:
            shown_text = shown_text[:77] + "..."
        problems.append(Problem(
            block.offset(i),
            f"bidirectional control character{'s' if len(names) > 1 else ''} {', '.join(names)} in "
            f"\"{shown_text}\": the text renders in another order than it is written "
            f"(a number may show as another number); remove {'them' if len(controls) > 1 else 'it'}",
            ch))
    digits = block.text if block.text.isascii() else "".join(_ascii_digit(c) for c in block.text)
    if digits != block.text:
        block = replace(block, text=digits)
    keep = []
    for i, c in enumerate(block.text):
        if invisible(c):
            continue
        if keep and unicodedata.combining(c) and block.text[keep[-1]].isascii():
            # a combining mark on a digit or letter (9\u0336 renders a struck-through 9): the
            # character under it is what is read
            continue
        keep.append(i)
    if len(keep) == len(block.text):
        return block, problems
    index = {old: new for new, old in enumerate(keep)}
    code = []
    for a, b in block.code:
        inside = [index[i] for i in range(a, b) if i in index]
        if inside:
            code.append((inside[0], inside[-1] + 1))
    text = "".join(block.text[i] for i in keep)
    offsets = tuple(block.offset(i) for i in keep)
    return replace(block, text=text, offsets=offsets, code=tuple(code)), problems


# Inline math as GitHub renders it: ``$99.6\%$`` and ``$$\textbf{99.6}\%$$`` read ``99.6%``. A
# dollar opens math only before a non-space and closes after one, not before a digit, so prices
# ("$5 and $10") are no math.
_MATH = re.compile(r"(\$\$?)(?=\S)([^$\n]*?\S)\1(?!\d)")
_TEX_COMMAND = re.compile(r"\\(?:[A-Za-z]+\*?|[,;:! ])")
# Footnote markers written as superscript digits (``99%¹``): not digits of the number before them.
_SUPERSCRIPTS = frozenset("⁰¹²³⁴⁵⁶⁷⁸⁹")


def _footnote_marks(text: str) -> set[int]:
    """The superscript digits of ``text`` that are footnote markers: a run right after a number or a
    word (``99%¹``, ``recall¹``). A run after a space or at the start, or before a percent sign or a
    decimal point, is the number itself (``⁹⁹%`` reads ``99%``), never dropped."""
    out: set[int] = set()
    i = 0
    while i < len(text):
        if text[i] not in _SUPERSCRIPTS:
            i += 1
            continue
        j = i
        while j < len(text) and text[j] in _SUPERSCRIPTS:
            j += 1
        after = text[j:j + 2]
        number = after[:1] in ("%", "‰", "٪", "％") or (after[:1] in ".·" and after[1:2].isdigit()) \
            or after.lower().startswith(" %") or (i == 0 or text[i - 1].isspace())
        if not number:
            out.update(range(i, j))
        i = j
    return out


def _unmath(block: Block) -> Block:
    """The block with the markup of inline math left out (``$``, TeX commands, braces) and
    superscript footnote markers read as spaces; every kept character keeps its offset."""
    text = block.text
    whole = block.kind == "diagram"  # a math fence is math throughout
    if "$" not in text and not whole and not any(c in _SUPERSCRIPTS for c in text):
        return block
    drop: set[int] = set()
    spaces: set[int] = _footnote_marks(text)
    spans = [(0, 0, 0, len(text))] if whole else [
        (m.start(), len(m.group(1)), m.start(2), m.end(2)) for m in _MATH.finditer(text)]
    for begin, fence, inner_start, inner_end in spans:
        drop.update(range(begin, begin + fence))
        drop.update(range(inner_end, inner_end + fence))
        inner = text[inner_start:inner_end]
        for c in _TEX_COMMAND.finditer(inner):
            if c.group(0) in ("\\%", "\\,", "\\ "):
                drop.add(inner_start + c.start())  # \% is a percent sign, \, a thin space
                continue
            drop.update(range(inner_start + c.start(), inner_start + c.end()))
        drop.update(inner_start + i for i, ch in enumerate(inner) if ch in "{}")
    if not drop and not spaces:
        return block
    keep = [i for i in range(len(text)) if i not in drop]
    index = {old: new for new, old in enumerate(keep)}
    code = []
    for a, b in block.code:
        inside = [index[i] for i in range(a, b) if i in index]
        if inside:
            code.append((inside[0], inside[-1] + 1))
    new = "".join(" " if i in spaces else text[i] for i in keep)
    return replace(block, text=new, offsets=tuple(block.offset(i) for i in keep), code=tuple(code))


def _finish(path: str, source: str, blocks: list[Block], tables: list[Table], problems: list[Problem],
            hidden: list[tuple[int, int]]) -> Document:
    clean: list[Block] = []
    for block in blocks:
        b, found = _visible_chars(_unmath(block))
        problems.extend(found)
        if b.text.strip() or b.kind == "cell":
            clean.append(b)
    cells = {(b.table, b.row, b.col): b for b in clean if b.kind == "cell"}
    fixed = []
    for t in tables:
        header = tuple(cells.get((c.table, c.row, c.col), c) for c in t.header)
        rows = tuple(tuple(cells.get((c.table, c.row, c.col), c) for c in r) for r in t.rows)
        fixed.append(replace(t, header=header, rows=rows))
    clean.sort(key=lambda blk: blk.offset(0))
    problems.sort(key=lambda p: p.offset)
    return Document(path, source, tuple(clean), tuple(fixed), _line_starts(source), tuple(problems),
                    tuple(sorted(hidden)))


def _markdown(path: str, source: str, include_code: bool) -> Document:
    fm = _front_matter(source)
    stop = fm.stop
    # Front matter is blanked, not cut, so that offsets in the parsed body are file offsets.
    body = "".join(c if c == "\n" else " " for c in source[:stop]) + source[stop:]
    starts = _line_starts(source)
    title = fm.title
    blocks: list[Block] = [replace(b, headings=(title,) if title else ()) for b in fm.blocks]
    problems: list[Problem] = list(fm.problems)
    hidden: list[tuple[int, int]] = [(0, stop)] if stop else []
    tables: list[Table] = []
    tokens = _parser().parse(body)
    heading_stack: list[tuple[int, str]] = [(0, title)] if title else []
    container: list[str] = []
    items: list[str | None] = []  # the first text of each open list item, outermost first
    table_rows: list[list[Block]] | None = None
    row_cells: list[Block] = []
    row_cursor: int | None = None
    row_start: int | None = None
    cell_extras: list[tuple[int, int, list[Block]]] = []
    in_head = False
    last_paragraph = ""
    after_table: int | None = None  # the table the block just read follows, if nothing came between
    deep = next((t for t in tokens if t.level >= MAX_NESTING - 1), None)
    if deep is not None:
        at = starts[deep.map[0]] if deep.map else 0
        problems.append(Problem(at, f"Markdown nested more than {MAX_NESTING - 1} levels deep (a list item counts "
                                    "two): the parser stops there, so what is below is read as plain lines, "
                                    "without its structure; flatten it"))
    for i, tok in enumerate(tokens):
        kind = tok.type
        line_start = starts[tok.map[0]] if tok.map else None
        headings = tuple(t for _, t in heading_stack if t)
        if kind not in ("paragraph_open", "inline"):
            after_table = None  # only the paragraph right after a table can be its caption
        if kind == "list_item_open":
            items.append(None)
        elif kind == "list_item_close":
            if items:
                items.pop()
        elif kind in ("bullet_list_open", "ordered_list_open"):
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
            row_cursor = row_start = line_start
        elif kind == "tr_close" and table_rows is not None:
            table_rows.append(row_cells)
            # GFM drops the cells past the header's count; they are published source all the same
            if row_cursor is not None and row_start is not None and row_cursor >= row_start:
                eol = body.find("\n", row_start)
                rest = body[row_cursor:eol if eol >= 0 else len(body)]  # empty once past the row's line
                if rest.strip(" \t|"):
                    lead = len(rest) - len(rest.lstrip(" \t|"))
                    text = rest.strip(" \t|").replace("|", " ")
                    extra = Block("overflow", text, tuple(range(row_cursor + lead, row_cursor + lead + len(text))),
                                  headings)
                    if in_head:
                        blocks.append(extra)
                    else:  # read as one more cell of its row
                        cell_extras.append((len(table_rows) - 1, len(row_cells), [extra]))
        elif kind == "table_close" and table_rows is not None:
            index = len(tables)
            fixed = [[Block(c.kind, c.text, c.offsets, c.headings, c.code, index, r - 1, j)
                      for j, c in enumerate(cells)] for r, cells in enumerate(table_rows)]
            caption = last_paragraph if last_paragraph.rstrip().endswith(":") or _PANDOC_CAPTION.match(
                last_paragraph) else ""
            tables.append(Table(tuple(fixed[0]) if fixed else (), tuple(tuple(r) for r in fixed[1:]),
                                caption, headings))
            for cells in fixed:
                blocks.extend(cells)
            for r, j, extras in cell_extras:
                blocks.extend(replace(x, table=index, row=r - 1, col=j) for x in extras)
            cell_extras = []
            table_rows = None
            last_paragraph = ""
            after_table = index
        elif kind == "inline" and line_start is not None:
            if table_rows is not None:
                b = _Builder(body, row_cursor if row_cursor is not None else line_start)
                b.inline(tok.children or [])
                row_cells.append(b.block("cell", headings, table=None, row=-1 if in_head else 0))
                if in_head:
                    blocks.extend(b.extras(headings))
                else:  # a comment in a cell is read under the cell's column header and row
                    cell_extras.append((len(table_rows), len(row_cells) - 1, b.extras(headings)))
                hidden.extend(b.hidden)
                bar = body.find("|", b.cursor)
                row_cursor = bar + 1 if bar >= 0 else b.cursor
                continue
            b = _Builder(body, line_start)
            b.inline(tok.children or [])
            blocks.extend(b.extras(headings))
            hidden.extend(b.hidden)
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
            # a nested item reads under the items it is nested in ("- LoCoMo:\n  - R@5 99%")
            parents = tuple(t for t in items[:-1] if t)
            block = b.block(container[-1] if container else "paragraph", headings, parents=parents)
            if items and items[-1] is None:
                items[-1] = block.text
            blocks.append(block)
            last_paragraph = block.text
            if after_table is not None and not container and _PANDOC_CAPTION.match(block.text):
                # a pandoc caption under its table ("Table: turn-level retrieval on LongMemEval-S")
                tables[after_table] = replace(tables[after_table], caption=block.text)
                last_paragraph = ""
            after_table = None
        elif kind == "html_block" and line_start is not None:
            found, spans = _html_text(body, line_start, tok.content, headings, tables)
            blocks.extend(found)
            hidden.extend(spans)
        elif kind == "fence" and tok.map and tok.info.strip().split(" ")[0].lower() in RENDERED_FENCES:
            # GitHub renders math and mermaid fences as formulas and charts: read, like prose
            at = body.find(tok.content, starts[tok.map[0]])
            base = at if at >= 0 else starts[tok.map[0]]
            text = "".join(" " if c == "\n" else c for c in tok.content)
            blocks.append(Block("diagram", text, tuple(range(base, base + len(text))), headings))
        elif kind in ("fence", "code_block") and tok.map:
            end = starts[tok.map[1]] if tok.map[1] < len(starts) else len(source)
            hidden.append((starts[tok.map[0]], end))
            if include_code:
                at = body.find(tok.content, starts[tok.map[0]])
                base = at if at >= 0 else starts[tok.map[0]]
                for m in re.finditer(r"[^\n]+", tok.content):
                    blocks.append(Block("code", m.group(0), tuple(range(base + m.start(), base + m.end())),
                                        headings))
    heads_at = sorted((h.offset(0), (*h.headings, h.text)) for h in blocks if h.kind == "heading")
    for b in _unread(tokens, body, starts):
        # a line the parser made nothing of: under the section it is in
        i = bisect.bisect_left(heads_at, (b.offset(0),)) - 1
        heads = heads_at[i][1] if i >= 0 else ((title,) if title else ())
        blocks.append(replace(b, headings=heads))
        if b.kind == "reference":
            hidden.append((b.offset(0), b.offset(len(b.text) - 1) + 1))
    return _finish(path, source, blocks, tables, problems, hidden)


# Text a file defines once and uses by name: a reStructuredText substitution (``.. |r5| replace::
# 99.6%`` used as ``|r5|``) and an AsciiDoc attribute (``:r5: 99.6%`` used as ``{r5}``). The page
# shows the definition's text where the name is used, so that is what the sentence says.
_RST_DEFINE = re.compile(r"^\.\.\s+\|(?P<name>[^|\n]+)\|\s+replace::[ \t]*(?P<text>[^\n]*)$", re.MULTILINE)
_RST_USE = re.compile(r"\|(?P<name>[^|\s](?:[^|\n]*[^|\s])?)\|(?:__?)?")
_ADOC_DEFINE = re.compile(r"^:(?P<name>[A-Za-z0-9_][\w-]*):[ \t]+(?P<text>[^\n]*)$", re.MULTILINE)
_ADOC_USE = re.compile(r"\{(?P<name>[A-Za-z0-9_][\w-]*)\}")


def _substituted(text: str, offsets: tuple[int, ...], defined: dict[str, str], use: re.Pattern[str],
                 budget: list[int], problems: list[Problem]) -> tuple[str, tuple[int, ...]]:
    """``text`` with each use of a defined name replaced by its text, every character of the
    replacement placed at the use (one pass: a definition's own uses are left as written).

    The replacements of one file add at most as many characters as the file has (``budget``), so
    reading stays linear in its size; a use past that is left as written and fails
    ``claim-text-readable``, since the page would show text the scan did not read."""
    if not defined:
        return text, offsets
    parts: list[str] = []
    where: list[int] = []
    at = 0
    for m in use.finditer(text):
        value = defined.get(m.group("name").strip().lower())
        if value is None or text[max(0, m.start() - 4):m.start()].rstrip().endswith(".."):
            continue  # not defined, or the definition itself (".. |r5| replace:: ...")
        if len(value) > budget[0]:
            if budget[0] >= 0:
                problems.append(Problem(offsets[m.start()], "substitutions expand past the size of the file: "
                                        f"{m.group(0)} and the uses after it are not read as the page shows them",
                                        m.group(0)))
                budget[0] = -1
            continue
        budget[0] -= len(value)
        parts.append(text[at:m.start()])
        where.extend(offsets[at:m.start()])
        parts.append(value)
        # the replacement stands where the use is written: its first character at the use's start,
        # its last at the use's end (a claim in it is quoted as written: "|r5|")
        where.extend([offsets[m.start()]] * (len(value) - 1) + [offsets[m.end() - 1]] if value else [])
        at = m.end()
    if not parts:
        return text, offsets
    parts.append(text[at:])
    where.extend(offsets[at:])
    return "".join(parts), tuple(where)


def _plain(path: str, source: str) -> Document:
    """Plain text as paragraphs; reStructuredText and AsciiDoc with their section titles and
    tables (:mod:`bench_gate.checks.claims.textmarkup`)."""
    from bench_gate.checks.claims import textmarkup

    lower = path.lower()
    found = (textmarkup.rst(source) if lower.endswith(RST_SUFFIXES) else
             textmarkup.adoc(source) if lower.endswith(ADOC_SUFFIXES) else textmarkup.Structure())
    starts = _line_starts(source)
    blocks: list[Block] = []
    tables: list[Table] = []
    titles = sorted(found.titles.items())
    define, use = ((_RST_DEFINE, _RST_USE) if lower.endswith(RST_SUFFIXES) else
                   (_ADOC_DEFINE, _ADOC_USE) if lower.endswith(ADOC_SUFFIXES) else (None, None))
    defined = {m.group("name").strip().lower(): m.group("text").strip()
               for m in define.finditer(source)} if define is not None else {}
    if defined and use is not None:
        # a definition whose name is used is read where it is used (as the page shows it), not
        # again on its own line; one used nowhere is read as text like any other line
        used = {u.group("name").strip().lower() for u in use.finditer(source)
                if not source[max(0, u.start() - 4):u.start()].rstrip().endswith("..")}
        for m in define.finditer(source):
            if m.group("name").strip().lower() in used:
                found.taken.add(bisect.bisect_right(starts, m.start()) - 1)

    budget, problems = [len(source)], []

    def shown(text: str, offsets: tuple[int, ...]) -> tuple[str, tuple[int, ...]]:
        return _substituted(text, offsets, defined, use, budget, problems) if use is not None else (text, offsets)

    title_at = [starts[line] for line, _ in titles]
    heading_blocks = []
    for line, (_, text) in titles:
        at = starts[line] + source[starts[line]:].find(text)
        heading_blocks.append(shown(text, tuple(range(at, at + len(text)))))
    # the titles as the page shows them, for the blocks under them
    context = [(level, heading_blocks[k][0]) for k, (_, (level, _)) in enumerate(titles)]

    def headings_at(offset: int) -> tuple[str, ...]:
        stack: list[tuple[int, str]] = []
        for k in range(bisect.bisect_right(title_at, offset)):
            level, text = context[k]
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, text))
        return tuple(t for _, t in stack)

    for (line, _), shown_title in zip(titles, heading_blocks):
        blocks.append(Block("heading", *shown_title, headings_at(starts[line] - 1)))
    for t in found.tables:
        index = len(tables)
        heads = headings_at(starts[t.first])
        built = [[Block("cell", *shown(text, offsets), heads, (), index, r - (1 if t.header_rows else 0), j)
                  for j, (text, offsets) in enumerate(row)] for r, row in enumerate(t.rows)]
        head = 1 if t.header_rows else 0
        tables.append(Table(tuple(built[0]) if head else (), tuple(tuple(r) for r in built[head:]), t.caption, heads))
        for row in built:
            blocks.extend(row)
    skip = found.taken | set(found.titles)
    for m in re.finditer(r"(?:[^\n]*\S[^\n]*(?:\n|$))+", source):
        # a paragraph, less the lines of titles and tables
        line0 = bisect.bisect_right(starts, m.start()) - 1
        parts = []
        for k, piece in enumerate(m.group(0).rstrip("\n").split("\n")):
            if line0 + k not in skip and piece.strip():
                parts.append((starts[line0 + k], piece))
        if not parts:
            continue
        text = " ".join(piece for _, piece in parts)
        offsets: list[int] = []
        for k, (at, piece) in enumerate(parts):
            if k:
                offsets.append(at - 1)
            offsets.extend(range(at, at + len(piece)))
        blocks.append(Block("text", *shown(text, tuple(offsets)), headings_at(parts[0][0])))
    return _finish(path, source, blocks, tables, problems, [])


def _html_page(path: str, source: str) -> Document:
    tables: list[Table] = []
    blocks, hidden = _html_text(source, 0, source, (), tables)
    return _finish(path, source, blocks, tables, [], hidden)


@lru_cache(maxsize=64)
def read(path: str, source: str, include_code: bool = False) -> Document:
    """The blocks of one file (see :func:`_read`), whatever its line endings: CRLF and CR-only
    line ends are LF (columns do not change: a line end is the last character of its line)."""
    if "\r" in source:
        source = source.replace("\r\n", "\n").replace("\r", "\n")
    return _read(path, source, include_code)


@lru_cache(maxsize=64)
def _read(path: str, source: str, include_code: bool = False) -> Document:
    """The blocks of one file: Markdown by its suffix, HTML (``.html``, ``.htm``) as its text,
    comments and attribute values, plain text otherwise."""
    lower = path.lower()
    if lower.endswith(MARKDOWN_SUFFIXES):
        return _markdown(path, source, include_code)
    if lower.endswith(HTML_SUFFIXES):
        return _html_page(path, source)
    return _plain(path, source)
