"""The structure of reStructuredText and AsciiDoc files, for the claims reader: section titles and
tables, so that a number in such a table takes its metric from its column and its benchmark from
the title above it, as in Markdown.

reStructuredText: a title is a line underlined (and optionally overlined) with a repeated
punctuation character at least as long as it; tables are grid tables (``+---+`` borders,
``+===+`` under the header rows), simple tables (columns set by ``===  ===`` borders, the header
between the first two borders) and ``.. list-table::`` directives (``* -`` rows, ``:header-rows:``;
the directive's argument is the caption). AsciiDoc: a title is a line starting with ``=``; a
table is ``|===`` ... ``|===``, cells starting with ``|``, the first row a header when an
``[options="header"]`` / ``[%header]`` line comes before it or a blank line follows it; a
``.Title`` line right above is the caption.

Each table is returned as rows of cells, each cell its text and the file offset of every
character, with the lines it takes (which are then not read again as paragraphs).
"""

from __future__ import annotations

import re

from bench_gate.records import field, record

Cell = tuple[str, tuple[int, ...]]


@record(frozen=False)
class Found:
    """A table of a plain-text markup file: rows of cells, the header row count, a caption, and
    the lines (0-based, end excluded) it takes."""

    rows: list[list[Cell]]
    header_rows: int
    caption: str
    first: int
    last: int


@record(frozen=False)
class Structure:
    tables: list[Found] = field(default_factory=list)
    titles: dict[int, tuple[int, str]] = field(default_factory=dict)  # line -> (level, title)
    taken: set[int] = field(default_factory=set)  # lines that are no paragraph text


def _lines(source: str) -> list[tuple[int, str]]:
    out, at = [], 0
    for line in source.split("\n"):
        out.append((at, line))
        at += len(line) + 1
    return out


def _cell(parts: list[tuple[int, str]]) -> Cell:
    """Text pieces (offset, text) of one cell joined by spaces, with the offset of each character."""
    text: list[str] = []
    offsets: list[int] = []
    for at, piece in parts:
        stripped = piece.strip()
        if not stripped:
            continue
        lead = len(piece) - len(piece.lstrip())
        if text:
            text.append(" ")
            offsets.append(at + lead)
        text.extend(stripped)
        offsets.extend(range(at + lead, at + lead + len(stripped)))
    return "".join(text), tuple(offsets)


# --- reStructuredText -------------------------------------------------------------------

_RST_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+:.])\1{2,}\s*$")
_GRID_BORDER = re.compile(r"^\s*\+(?:[-=]+\+)+\s*$")
_SIMPLE_BORDER = re.compile(r"^\s*=+(?:\s+=+)+\s*$")


def rst(source: str) -> Structure:
    out = Structure()
    lines = _lines(source)
    levels: list[str] = []
    i = 0
    while i < len(lines):
        at, line = lines[i]
        if _GRID_BORDER.match(line):
            i = _grid(lines, i, out)
            continue
        if _SIMPLE_BORDER.match(line):
            i = _simple(lines, i, out)
            continue
        if line.strip().startswith(".. list-table::"):
            i = _list_table(lines, i, out)
            continue
        nxt = lines[i + 1][1] if i + 1 < len(lines) else ""
        m = _RST_UNDERLINE.match(nxt)
        if line.strip() and not _RST_UNDERLINE.match(line) and m and len(nxt.rstrip()) >= len(line.rstrip()):
            char = m.group(1)
            if char not in levels:
                levels.append(char)
            out.titles[i] = (levels.index(char) + 1, line.strip())
            out.taken.add(i + 1)
            if i > 0 and lines[i - 1][1].strip() == nxt.strip():
                out.taken.add(i - 1)  # an overline
            i += 2
            continue
        i += 1
    return out


def _grid(lines: list[tuple[int, str]], i: int, out: Structure) -> int:
    border = lines[i][1]
    cuts = [k for k, c in enumerate(border) if c == "+"]
    rows: list[list[Cell]] = []
    header = 0
    pending: list[list[tuple[int, str]]] = [[] for _ in cuts[:-1]]
    j = i + 1
    while j < len(lines):
        at, line = lines[j]
        if _GRID_BORDER.match(line):
            if any(pending_parts for pending_parts in pending):
                rows.append([_cell(p) for p in pending])
            pending = [[] for _ in cuts[:-1]]
            if "=" in line:
                header = len(rows)
            j += 1
            continue
        if not line.lstrip().startswith("|"):
            break
        for k in range(len(cuts) - 1):
            a, b = cuts[k] + 1, cuts[k + 1]
            pending[k].append((at + a, line[a:b]))
        j += 1
    if rows:
        out.tables.append(Found(rows, header, "", i, j))
        out.taken.update(range(i, j))
    return max(j, i + 1)


def _simple(lines: list[tuple[int, str]], i: int, out: Structure) -> int:
    border = lines[i][1]
    spans = [(m.start(), m.end()) for m in re.finditer(r"=+", border)]
    rows: list[list[Cell]] = []
    borders = [i]
    j = i + 1
    while j < len(lines):
        at, line = lines[j]
        if _SIMPLE_BORDER.match(line):
            borders.append(j)
            j += 1
            nxt = lines[j][1] if j < len(lines) else ""
            if len(borders) >= 2 and (not nxt.strip() or len(borders) == 3):
                break
            continue
        if not line.strip():
            j += 1
            continue
        cells: list[Cell] = []
        for k, (a, _) in enumerate(spans):
            b = spans[k + 1][0] if k + 1 < len(spans) else len(line)
            cells.append(_cell([(at + a, line[a:b])]))
        rows.append(cells)
        j += 1
    if len(borders) < 2 or not rows:
        return i + 1
    header = 0
    if len(borders) >= 3:
        header = sum(1 for r in range(borders[0] + 1, borders[1]) if lines[r][1].strip())
    out.tables.append(Found(rows, header, "", i, j))
    out.taken.update(range(i, j))
    return j


def _list_table(lines: list[tuple[int, str]], i: int, out: Structure) -> int:
    caption = lines[i][1].strip()[len(".. list-table::"):].strip()
    header = 0
    rows: list[list[list[tuple[int, str]]]] = []
    j = i + 1
    while j < len(lines):
        at, line = lines[j]
        stripped = line.strip()
        if stripped and not line[:1].isspace():
            break  # the directive's body is indented
        option = re.match(r"^\s*:header-rows:\s*(\d+)", line)
        row = re.match(r"^\s*\*\s+-\s?(.*)$", line)
        cell = re.match(r"^\s+-\s?(.*)$", line)
        if option:
            header = int(option.group(1))
        elif row:
            rows.append([[(at + row.start(1), row.group(1))]])
        elif cell and rows:
            rows[-1].append([(at + cell.start(1), cell.group(1))])
        elif stripped and rows and not stripped.startswith(":"):
            rows[-1][-1].append((at, line))  # a cell's text goes on over more lines
        j += 1
    built = [[_cell(c) for c in r] for r in rows]
    if built:
        out.tables.append(Found(built, header, caption, i, j))
        out.taken.update(range(i, j))
    return j


# --- AsciiDoc ----------------------------------------------------------------------------

_ADOC_TITLE = re.compile(r"^(=+)\s+(\S.*)$")


def adoc(source: str) -> Structure:
    out = Structure()
    lines = _lines(source)
    i = 0
    while i < len(lines):
        at, line = lines[i]
        if line.strip() == "|===":
            i = _adoc_table(lines, i, out)
            continue
        m = _ADOC_TITLE.match(line)
        if m:
            out.titles[i] = (len(m.group(1)), m.group(2).strip())
        i += 1
    return out


def _adoc_table(lines: list[tuple[int, str]], i: int, out: Structure) -> int:
    above = [lines[k][1].strip() for k in range(max(0, i - 2), i)]
    header = 1 if any(re.search(r"%header|options\s*=\s*\"?[^\"\]]*header", a) for a in above) else 0
    caption = next((a[1:].strip() for a in reversed(above) if a.startswith(".") and not a.startswith("..")), "")
    cells: list[Cell] = []
    first_line_cells = 0
    blank_after_first = False
    j = i + 1
    first_row_line: int | None = None
    while j < len(lines) and lines[j][1].strip() != "|===":
        at, line = lines[j]
        if not line.strip():
            if first_row_line is not None and j == first_row_line + 1:
                blank_after_first = True
            j += 1
            continue
        if line.lstrip().startswith("|"):
            parts = [(m.start(1), m.group(1)) for m in re.finditer(r"\|([^|]*)", line)]
            if first_row_line is None:
                first_row_line = j
                first_line_cells = len(parts)
            cells.extend(_cell([(at + a, text)]) for a, text in parts)
        elif cells:  # a continuation of the last cell
            text, offsets = cells[-1]
            more = _cell([(at, line)])
            cells[-1] = (f"{text} {more[0]}", offsets + (more[1][0] if more[1] else at,) + more[1])
        j += 1
    width = max(first_line_cells, 1)
    rows = [cells[k:k + width] for k in range(0, len(cells), width)]
    if blank_after_first and first_line_cells > 1:
        header = 1
    end = min(j + 1, len(lines))
    if rows:
        out.tables.append(Found(rows, header, caption, i, end))
    out.taken.update(range(i, end))
    return end
