"""Check kind ``claim_arithmetic``: a document's numbers agree with each other."""

from __future__ import annotations

import re
from collections.abc import Iterable
from fractions import Fraction

from bench_gate.records import record
from bench_gate.checks.base import FORBID, Context, kind, passed, pct, show_fraction
from bench_gate.checks.claims.commonmark import Block, Document, Table
from bench_gate.checks.claims.lexer import Number, normalise, numbers, sentences, shown
from bench_gate.checks.claims.matching import _first, _scope, scan_docs
from bench_gate.models import ClaimRecord, Finding

# A total row of a table, and how its percentage is made: "Average" / "Mean" / "Macro" is the
# mean of the rows, anything else ("Overall", "Total", "All") the questions' share.
_TOTAL_ROW = re.compile(r"^\W*(?:overall|total|all(?:\s+[\w-]+)?|average|avg|mean|macro(?:[- ]avg)?|micro|"
                        r"weighted|sum|combined)\b", re.IGNORECASE)
_MEAN_ROW = re.compile(r"\b(?:average|avg|mean|macro|task[- ]averaged)\b", re.IGNORECASE)
_TOTAL_COLUMN = re.compile(r"^\W*(?:n|#|count|questions?|cases|queries|samples|items|total|qs|size)\W*$",
                           re.IGNORECASE)
_COUNT_COLUMN = re.compile(r"\b(?:correct|right|hits?|passed|solved|found|answered|successes|k)\b", re.IGNORECASE)
_TOGETHER = re.compile(r"^[\s(\[:=,;~≈-]*(?:(?:questions?|cases|queries|correct(?:ly)?|right|answered|"
                       r"retrieved|found|of\s+them|i\.e\.|that\s+is|or|is|are|was|were)[\s(\[:=,;~≈-]*){0,3}$",
                       re.IGNORECASE)
_ERRORS = re.compile(r"(?<![\w.])(\d[\d,]*)\s+(?:incorrect|wrong|failed|missed|erroneous|unanswered)\s+"
                     r"(?:responses?|answers?|questions?|cases|queries)\b", re.IGNORECASE)
_ERROR_RATE = re.compile(r"\berror(?:\s+rate)?\b|\bwrong\b|\bincorrect\b|\bfail(?:ure|ed)?\s+rate\b", re.IGNORECASE)
_TOTAL_IN_TEXT = re.compile(r"(?:\bout\s+of|\bof|/)\s*(?:the\s+|all\s+)?(\d[\d,]*)\s*(?:questions?|cases|queries)?"
                            r"|(?<![\w.])(\d[\d,]*)\s+(?:questions?|cases|queries)\b", re.IGNORECASE)


@record
class ArithmeticParams:
    __pydantic_config__ = FORBID
    reach: int = 40  # how far apart a percentage and its count may be written, in characters


def _holds(share: Fraction, written: Number) -> bool:
    """True when the share ``k/n`` reads as the written percentage at its precision (a categorical
    100% or 0% only exactly)."""
    if written.value in (0, 1):
        return share == written.value
    return abs(share - written.value) <= written.unit / 2 or written.value <= share < written.value + written.unit


def _share(value: Fraction) -> str:
    return f"{show_fraction(value, 4)} ({pct(value)}%)"


def _where(doc: Document, block: Block, index: int) -> tuple[str, str, int, int]:
    line, col = doc.where(block.offset(index))
    return f"{doc.path}:{line}:{col}", f"/line/{line}/column/{col}", line, col


def _contradicted(doc: Document, block: Block, index: int, end: int, message: str, right: Fraction) -> Finding:
    loc, ptr, _, _ = _where(doc, block, index)
    raw = block.raw(doc.source, index, end)
    record = ClaimRecord("contradicted", raw, {"arithmetic": message, "value": show_fraction(right, 6)}, message)
    return Finding("fail", f"{loc}: contradicted: {message}", doc.path, ptr, raw, show_fraction(right, 6), record)


def _at_cell(doc: Document, cell: Block, message: str, right: Fraction) -> Finding:
    """A contradiction located at the number written in a table cell."""
    start = next((i for i, c in enumerate(cell.text) if c.isdigit() or c == "."), 0)
    end = len(cell.text.rstrip(" *"))
    return _contradicted(doc, cell, start, max(end, start + 1), message, right)


# --- prose -------------------------------------------------------------------------------


def _prose(doc: Document, block: Block, p: ArithmeticParams) -> tuple[list[Finding], int]:
    n = normalise(block.text)
    out: list[Finding] = []
    checked = 0
    for a, b in sentences(n.text):
        text = n.text[a:b]
        found = numbers(text)
        percents = [x for x in found if x.percent and not x.bare and x.ambiguous is None and x.value <= 1]
        counts = [x for x in found if x.of is not None and x.ambiguous is None]
        for c in counts:
            # written together: only brackets, signs and a few words between ("88.9% (443/500",
            # "443 of 500 questions (88.6%)", "443/500 = 88.6%")
            near = [x for x in percents
                    if (0 <= x.start - c.end <= p.reach and _TOGETHER.match(text[c.end:x.start]))
                    or (0 <= c.start - x.end <= p.reach and _TOGETHER.match(text[x.end:c.start]))]
            if not near:
                continue
            x = min(near, key=lambda q: min(abs(q.start - c.end), abs(c.start - q.end)))
            checked += 1
            if not _holds(c.value, x):
                written = f"{x.written} and {c.written}"
                msg = (f"{written} disagree: {c.written} is {_share(c.value)}, not {x.written} at the precision "
                       f"written in \"{shown(text)}\"")
                out.append(_contradicted(doc, block, n.source(a + x.start), n.source(a + x.end - 1) + 1, msg,
                                         c.value))
        for m in _ERRORS.finditer(text):
            errors = int(m.group(1).replace(",", ""))
            totals = [int((t.group(1) or t.group(2)).replace(",", "")) for t in _TOTAL_IN_TEXT.finditer(text)
                      if not (m.start() <= t.start() < m.end())]
            totals = [t for t in totals if t > errors]
            if len(set(totals)) != 1 or not percents:
                continue
            total = totals[0]
            for x in percents:
                rate = Fraction(errors, total)
                said_error = _ERROR_RATE.search(text, max(0, x.start - 30), min(len(text), x.end + 30)) is not None
                want = rate if said_error else 1 - rate
                checked += 1
                if not _holds(want, x):
                    what = "an error rate" if said_error else "an accuracy"
                    msg = (f"{x.written} as {what} disagrees with {errors} wrong of {total}: that is "
                           f"{_share(want)} in \"{shown(text)}\"")
                    out.append(_contradicted(doc, block, n.source(a + x.start), n.source(a + x.end - 1) + 1, msg,
                                             want))
    return out, checked


# --- tables ------------------------------------------------------------------------------


def _cell_number(block: Block) -> tuple[Number | None, int | None]:
    """(the percentage or fraction of a cell, the whole count of a cell)."""
    text = normalise(block.text).text
    found = [x for x in numbers(text) if x.ambiguous is None]
    plain = re.fullmatch(r"\W*(\d{1,3}(?:,\d{3})+|\d+)\W*", text.replace("*", "").strip())
    count = int(plain.group(1).replace(",", "")) if plain else None
    share = next((x for x in found if (x.percent and not x.bare) or (x.of is not None)
                  or (not x.bare and x.value <= 1)), None)
    return share, count


def _table(doc: Document, t: Table) -> tuple[list[Finding], int]:
    heads = [normalise(c.text).text.strip() for c in t.header]
    total_col = next((i for i, h in enumerate(heads) if _TOTAL_COLUMN.match(h)), None)
    count_cols = [i for i, h in enumerate(heads) if _COUNT_COLUMN.search(h) and i != total_col]
    rows = [r for r in t.rows if r]
    parsed = [[_cell_number(c) for c in r] for r in rows]
    share_cols = [j for j in range(len(heads)) if j not in count_cols and j != total_col
                  and sum(1 for r in parsed if j < len(r) and r[j][0] is not None) >= max(1, len(rows) // 2)]
    out: list[Finding] = []
    checked = 0
    body = [i for i, r in enumerate(rows) if not _TOTAL_ROW.match(normalise(r[0].text).text)]
    totals = [i for i, r in enumerate(rows) if i not in body]
    # each row: its count over its total is its share (correct / questions = accuracy)
    for i, r in enumerate(rows):
        n = parsed[i][total_col][1] if total_col is not None and total_col < len(r) else None
        for k in count_cols:
            count = parsed[i][k][1] if k < len(r) else None
            if n is None or count is None or not n:
                continue
            for j in share_cols:
                share = parsed[i][j][0] if j < len(r) else None
                if share is None:
                    continue
                checked += 1
                value = Fraction(count, n)
                if not _holds(value, share):
                    label = normalise(r[0].text).text.strip()
                    msg = (f"row \"{shown(label)}\": {share.written} under \"{heads[j]}\" disagrees with "
                           f"{count} {heads[k]} of {n} {heads[total_col] if total_col is not None else ''}: that is "
                           f"{_share(value)}")
                    out.append(_at_cell(doc, r[j], msg, value))
    # a total row: the sum of the rows' counts, and their share (weighted, or the mean when it says so)
    for i in totals:
        r = rows[i]
        label = normalise(r[0].text).text.strip()
        for col in ([total_col] if total_col is not None else []) + count_cols:
            said = parsed[i][col][1] if col < len(r) else None
            parts = [parsed[b][col][1] for b in body if col < len(rows[b])]
            if said is None or not parts or any(x is None for x in parts):
                continue
            checked += 1
            whole = sum(x for x in parts if x is not None)
            if said != whole:
                msg = (f"row \"{shown(label)}\": {said} under \"{heads[col]}\" is not the sum of the rows above it, "
                       f"{whole}")
                out.append(_at_cell(doc, r[col], msg, Fraction(whole)))
        counted = total_col is not None and any(parsed[i][k][1] is not None for k in count_cols if k < len(r))
        for j in share_cols if not counted else []:  # with its own counts, the row was checked above
            said_share = parsed[i][j][0] if j < len(r) else None
            shares = [parsed[b][j][0] for b in body if j < len(rows[b])]
            if said_share is None or not shares or any(x is None for x in shares):
                continue
            bounds = [(x.value - x.unit / 2, x.value + x.unit) for x in shares if x is not None]
            sizes = [parsed[b][total_col][1] if total_col is not None and total_col < len(rows[b]) else None
                     for b in body]
            mean = (sum(lo for lo, _ in bounds) / len(bounds), sum(hi for _, hi in bounds) / len(bounds))
            weighted = None
            if all(s for s in sizes):
                size = sum(s for s in sizes if s)
                weighted = (sum(lo * s for (lo, _), s in zip(bounds, sizes) if s) / size,
                            sum(hi * s for (_, hi), s in zip(bounds, sizes) if s) / size)
            written = said_share
            lo_w, hi_w = written.value - written.unit / 2, written.value + written.unit

            def meets(span: tuple[Fraction, Fraction]) -> bool:
                return span[0] <= hi_w and lo_w <= span[1] if written.value not in (0, 1) else \
                    span[0] <= written.value <= span[1]

            checked += 1
            mean_ok = meets(mean)
            weighted_ok = weighted is not None and meets(weighted)
            ok = mean_ok if _MEAN_ROW.search(label) or weighted is None else (weighted_ok or mean_ok)
            if not ok:
                middle = (weighted[0] + weighted[1]) / 2 if weighted is not None and not _MEAN_ROW.search(label) \
                    else (mean[0] + mean[1]) / 2
                how = ("the mean of the rows" if _MEAN_ROW.search(label) or weighted is None
                       else "the rows weighted by their questions (or their mean)")
                msg = (f"row \"{shown(label)}\": {written.written} under \"{heads[j]}\" is not what the rows above it "
                       f"give: {how} is about {float(middle * 100):.1f}%")
                out.append(_at_cell(doc, r[j], msg, middle))
    return out, checked


@kind("claim_arithmetic", ArithmeticParams, "a document's own numbers agree with each other")
def claim_arithmetic(ctx: Context, p: ArithmeticParams) -> Iterable[Finding]:
    """A document's own arithmetic, checked with or without evidence, at the precision written:

    * a percentage and a count stated together (``88.9% (443/500)``, ``443 of 500 questions
      (88.6%)``, ``96% (48 of 50)``) must agree: 443/500 is 88.6%, so ``88.9%`` is contradicted;
    * a count of wrong answers with a rate and a total (``57 incorrect responses out of 500,
      an 11.4% error rate``) must agree, as an error rate or an accuracy;
    * in a table, a row's count over its question count (``Correct`` over ``Questions``) is its
      percentage; a total row (``Overall``, ``Total``, ``All``) holds the sum of the rows'
      counts, and its percentage is the rows' share weighted by their question counts (or their
      mean; ``Average`` / ``Mean`` / ``Macro`` rows must be the mean), computed from the rounded
      row values as intervals, so that rounding never makes an honest table fail.

    A categorical 100% or 0% agrees only with a count that is exactly all or none. Each
    disagreement is a contradicted claim whose message gives the value the other numbers give.
    """
    files = scan_docs(ctx)
    out: list[Finding] = []
    checked = 0
    for doc in files:
        for block in doc.blocks:
            if block.table is None:
                found, n = _prose(doc, block, p)
                out += found
                checked += n
        for t in doc.tables:
            found, n = _table(doc, t)
            out += found
            checked += n
    if out:
        return out
    return [passed(f"{checked} number{'s' if checked != 1 else ''} checked against the others stated with "
                   f"{'them' if checked != 1 else 'it'} in {_scope(files)}: they agree", "", _first(files))]

