"""Check kinds of the docs claims scan (the ``claims`` profile, run by ``bench-gate claims``).

``bench-gate claims PATH... --ledger MANIFEST`` reads the Markdown and text files, gates the
ledger, and hands both to these kinds: the ``scan`` document holds the files' text, the
``citable`` document the values of the ledger's citable entries and the ``official-sota``
verdict when one was given. Every finding is one claim at ``file:line:column`` (pointer
``/line/L/column/C``, 1-based, columns in characters) with the sentence it sits in.

What is scanned: paragraphs, list items, headings and table rows. Fenced code blocks
(```` ``` ```` / ``~~~``) and a leading YAML front matter are skipped unless ``--include-code``;
HTML comments are always skipped. A sentence ends at ``.``, ``!`` or ``?`` followed by white space
(not after ``e.g.``, ``i.e.``, ``vs.``, ``etc.``, ``cf.``, ``approx.``), or at the end of its
block.

``claim_numbers``
    A benchmark number is a percentage (``94.1%``, ``94.1 percent``, 0 to 100) or a decimal fraction (``0.94``,
    0 to 1) in a sentence that names a metric (``metrics``: regular expression -> canonical
    metric, ``{1}`` standing for the first group, ``*`` for any k) or a benchmark
    (``benchmarks``: regular expression -> benchmark key). Integers without ``%`` (``500 questions``, ``top 5``) and changes
    (``1.0 percentage point``, ``skip_after``) are not claims, nor is a number inside an
    inline code span (```0.5```: an example) unless ``--include-code``. The number belongs to the
    nearest metric name at most ``max_gap`` characters away, else to the benchmark (any
    metric). When the sentence names a benchmark, only the ledger entries of that benchmark
    count (an entry's ``suite`` or ``dataset.name`` names it): a LongMemEval number written
    next to "LoCoMo" matches nothing. It matches a citable value of that metric *at the precision written*: ``94.1%``
    means 0.941 with a unit of 0.001, and matches a value within half a unit (rounded,
    0.9405..0.9415) or in ``[0.941, 0.942)`` (truncated), so ``96.6%`` matches 0.9660..0.9669
    and ``0.97`` matches 0.965..0.975. ``report`` picks what a rule reports:

    * ``unmatched``: numbers that match no citable value fail (with the nearest citable value
      of that metric), matched numbers pass;
    * ``hit_as_recall``: a number called recall that matches no recall value but a ``hit@k``
      (or ``legacy_recall@k``) value fails: hit@k was labelled recall;
    * ``retrieval_as_qa``: a number called QA accuracy that matches no ``qa_accuracy`` but a
      retrieval metric fails: a retrieval number presented as answer accuracy.

    Example::

        check: claim_numbers
        with: {report: unmatched, max_gap: 60}

``claim_phrase``
    Overclaim language: every match of ``patterns`` (case-insensitive regular expressions)
    fails with ``reason``, except a disclaimer (the phrase right after "not" or "never", as in
    ``Not "100% recall."``). With ``unless_verdict: official-sota`` a match passes when the
    command line supplied a verdict JSON of that profile that passed (``--verdict``).

    Example::

        check: claim_phrase
        with: {patterns: ["\\\\bzero[- ]API\\\\b"], reason: "The retrieval path calls the embedding API."}
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any

from bench_gate.checks.base import FORBID, CheckKind, Context, failed, passed, show_fraction
from bench_gate.models import Finding, exact_number

SCAN, CITABLE = "scan", "citable"
SENTENCE_CHARS = 200

DEFAULT_METRICS: dict[str, str] = {
    r"\b(?:strict\s+)?recall\s*@\s*(\d+)": "recall@{1}",
    r"\bR@(\d+)": "recall@{1}",
    r"\bhit\s*@\s*(\d+)": "hit@{1}",
    r"\bn?dcg\s*@\s*(\d+)": "ndcg@{1}",
    r"\b(?:precision|P)\s*@\s*(\d+)": "precision@{1}",
    r"\bmrr\b": "mrr",
    r"\b(?:QA|answer)[- ]accuracy\b": "qa_accuracy",
    r"\bhit[- ]rate\b": "hit@*",
    r"\brecall\b": "recall@*",
    r"\bhits?\b": "hit@*",
    r"\baccuracy\b": "qa_accuracy",
}
DEFAULT_BENCHMARKS: dict[str, str] = {
    r"\bLongMemEval-M\b": "longmemeval-m",
    r"\bLongMemEval(?:-S)?\b": "longmemeval",
    r"\bLoCoMo\b": "locomo",
    r"\bLongMemBench\b": "longmembench",
}


# --- reading Markdown ---------------------------------------------------------------------


@dataclass(frozen=True)
class Sentence:
    """A sentence with a map from character offsets to (line, column)."""

    text: str
    segments: tuple[tuple[int, int, int], ...]  # (offset in text, line, column) of each line part

    def where(self, offset: int) -> tuple[int, int]:
        line, col, start = self.segments[0][1], self.segments[0][2], 0
        for off, ln, c in self.segments:
            if off > offset:
                break
            start, line, col = off, ln, c
        return line, col + (offset - start)

    def shown(self) -> str:
        text = " ".join(self.text.split())
        return text if len(text) <= SENTENCE_CHARS else text[: SENTENCE_CHARS - 1] + "…"


_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_BLOCK_START = re.compile(r"^\s*(#{1,6}\s|[-*+]\s|\d+[.)]\s|\||>)")
_SPLIT = re.compile(r"(?<=[.!?])\s+(?=\S)")
_ABBREVIATION = re.compile(r"(?:^|[\s(])(?:e\.g|i\.e|vs|etc|cf|approx)\.$", re.IGNORECASE)


def split_sentences(text: str) -> list[tuple[int, str]]:
    """(offset, sentence) pieces of a block of text."""
    out: list[tuple[int, str]] = []
    begin = 0
    for m in _SPLIT.finditer(text):
        if _ABBREVIATION.search(text[begin:m.start()]):
            continue
        out.append((begin, text[begin:m.start()]))
        begin = m.end()
    out.append((begin, text[begin:]))
    return out


@lru_cache(maxsize=64)
def sentences(text: str, include_code: bool) -> tuple[Sentence, ...]:
    """The sentences of a Markdown or text document, in order."""
    lines = text.split("\n")
    blocks: list[list[tuple[int, int, str]]] = []  # (line, column, text)
    current: list[tuple[int, int, str]] = []
    fence: str | None = None
    in_comment = False
    start = 0
    if lines and lines[0].strip() == "---" and not include_code:
        for j in range(1, len(lines)):
            if lines[j].strip() in ("---", "..."):
                start = j + 1
                break

    def flush() -> None:
        nonlocal current
        if current:
            blocks.append(current)
        current = []

    for idx in range(start, len(lines)):
        raw = lines[idx].rstrip("\r")
        m = _FENCE.match(raw)
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not raw.strip()[len(m.group(1)):].strip():
                fence = None
                flush()
            elif include_code:
                current.append((idx + 1, 1, raw))
            continue
        if m:
            flush()
            fence = m.group(1)
            continue
        if in_comment or raw.lstrip().startswith("<!--"):
            in_comment = "-->" not in raw
            flush()
            continue
        if not raw.strip():
            flush()
            continue
        if _BLOCK_START.match(raw) or raw.lstrip().startswith(":::"):
            flush()
        lead = len(raw) - len(raw.lstrip())
        current.append((idx + 1, lead + 1, raw.strip()))
        if raw.lstrip().startswith(("#", "|", ":::")):
            flush()
    flush()

    out: list[Sentence] = []
    for block in blocks:
        text_parts: list[str] = []
        segs: list[tuple[int, int, int]] = []
        offset = 0
        for ln, col, part in block:
            segs.append((offset, ln, col))
            text_parts.append(part)
            offset += len(part) + 1
        joined = " ".join(text_parts)
        for begin, piece in split_sentences(joined):
            pos = begin + len(piece)
            rebased: list[tuple[int, int, int]] = []
            for (off, ln, col), part in zip(segs, text_parts):
                if off + len(part) < begin or off > pos:
                    continue  # this line does not overlap the sentence
                rebased.append((0, ln, col + (begin - off)) if off <= begin else (off - begin, ln, col))
            out.append(Sentence(piece, tuple(rebased)))
    return tuple(out)


# --- numbers and metrics ------------------------------------------------------------------

_CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)")
_NEGATED = r"\b(not|never)\b[\s\"'“”‘’*_]*(we\s+|it\s+|is\s+)?$"


def code_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every inline code span of a sentence."""
    return [(m.start(), m.end()) for m in _CODE_SPAN.finditer(text)]


def negated(text: str, start: int) -> bool:
    """True when the phrase at ``start`` is disclaimed: ``Not "100% recall."``."""
    return re.search(_NEGATED, text[max(0, start - 24):start], re.IGNORECASE) is not None


_NUMBER = re.compile(r"(?<![\w.@/$^-])(\d{1,3}(?:\.\d+)?)(\s?%|\s+per\s?cent\b)?(?![\w@%]|\.\d)")


@dataclass(frozen=True)
class Claim:
    path: str
    sentence: Sentence
    start: int
    written: str
    value: Fraction
    unit: Fraction
    metric: str | None  # canonical ("recall@5", "recall@*", "qa_accuracy") or None: benchmark only
    named: str  # the metric or benchmark as written
    benchmarks: tuple[tuple[str, str], ...] = ()  # (key, as written) of the benchmarks the sentence names


def _written(number: str, percent: bool) -> tuple[Fraction, Fraction]:
    places = len(number.split(".")[1]) if "." in number else 0
    value = Fraction(Decimal(number))
    unit = Fraction(1, 10**places)
    if percent:
        return value / 100, unit / 100
    return value, unit


def matches(value: Fraction, written: Fraction, unit: Fraction) -> bool:
    """True when ``value`` reads as ``written`` at its precision: rounded or truncated."""
    return abs(value - written) <= unit / 2 or written <= value < written + unit


def _mentions(text: str, patterns: dict[str, str]) -> list[tuple[int, int, str, str]]:
    found: list[tuple[int, int, str, str]] = []
    taken: list[tuple[int, int]] = []
    for pattern, canon in patterns.items():
        for m in re.finditer(pattern, text, re.IGNORECASE):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            name = canon.replace("{1}", m.group(1)) if "{1}" in canon and m.groups() else canon
            found.append((m.start(), m.end(), name.lower(), m.group(0)))
            taken.append((m.start(), m.end()))
    return found


def claims_in(path: str, text: str, include_code: bool, metrics: dict[str, str], benchmarks: dict[str, str],
              max_gap: int, skip_after: str) -> list[Claim]:
    out: list[Claim] = []
    for s in sentences(text, include_code):
        names = _mentions(s.text, metrics)
        bench = [(a, raw) for a, _, _, raw in sorted(_mentions(s.text, benchmarks))]
        keys = tuple(dict.fromkeys((key, raw) for _, _, key, raw in sorted(_mentions(s.text, benchmarks))))
        if not names and not bench:
            continue
        spans = [] if include_code else code_spans(s.text)
        for m in _NUMBER.finditer(s.text):
            number, pct = m.group(1), bool(m.group(2))
            if any(a <= m.start() < b for a, b in spans):
                continue  # `0.5` in inline code is an example, not a claim
            if negated(s.text, m.start()):
                continue  # a disclaimer: Not "100% recall."
            if not pct and "." not in number:
                continue
            if re.match(skip_after, s.text[m.end():], re.IGNORECASE):
                continue
            value, unit = _written(number, pct)
            if value > 1:
                continue
            if any(a <= m.start() < b for a, b, _, _ in names):
                continue  # the k of recall@5
            metric, named, best = None, bench[0][1] if bench else "", max_gap + 1
            for a, b, canon, raw in names:
                gap = m.start() - b if b <= m.start() else a - m.end()
                if 0 <= gap < best:
                    metric, named, best = canon, raw, gap
            if metric is None and not bench:
                continue
            out.append(Claim(path, s, m.start(), m.group(0).strip(), value, unit, metric, named, keys))
    return out


@dataclass(frozen=True)
class Citable:
    metric: str
    value: Fraction
    raw: Any
    entry: str
    artifact: str
    scope: str = ""  # the entry's suite and dataset name, lowercase

    def of(self, benchmark: str) -> bool:
        """True when the entry's suite or dataset is this benchmark (``longmemeval``, ``locomo``...)."""
        pattern = r"(?<![a-z0-9])" + re.escape(benchmark).replace(r"\-", "[-_ ]?") + r"(?![a-z0-9])"
        return re.search(pattern, self.scope) is not None


def citable_values(ctx: Context) -> list[Citable]:
    doc = ctx.doc(CITABLE)
    out = []
    for item in (doc.data or {}).get("values", []):
        v = exact_number(item["value"])
        if v is not None:
            out.append(Citable(item["metric"].lower(), v, item["value"], item["entry"], item["artifact"],
                               str(item.get("scope", "")).lower()))
    return out


def _wanted(metric: str | None, c: Citable) -> bool:
    if metric is None:
        return True
    if metric.endswith("@*"):
        return re.fullmatch(re.escape(metric[:-1]) + r"\d+", c.metric) is not None
    return c.metric == metric


def _pct(value: Fraction) -> str:
    return f"{show_fraction(value, 4)} ({show_fraction(value * 100, 2)}%)"


def where(claim: Claim) -> tuple[str, str]:
    line, col = claim.sentence.where(claim.start)
    return f"{claim.path}:{line}:{col}", f"/line/{line}/column/{col}"


def scan_docs(ctx: Context) -> list[tuple[str, str]]:
    doc = ctx.doc(SCAN)
    return [(f["path"], f["text"]) for f in (doc.data or {}).get("files", [])]


# --- claim_numbers ------------------------------------------------------------------------


@dataclass(frozen=True)
class NumbersParams:
    __pydantic_config__ = FORBID
    report: str = "unmatched"
    metrics: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_METRICS))
    benchmarks: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_BENCHMARKS))
    max_gap: int = 60
    skip_after: str = r"\s*(percentage\s+points?|pp\b|points?\b)"
    include_code: bool = False

    def __post_init__(self) -> None:
        if self.report not in ("unmatched", "hit_as_recall", "retrieval_as_qa"):
            raise ValueError("report must be unmatched, hit_as_recall or retrieval_as_qa")
        for pattern in [*self.metrics, *self.benchmarks, self.skip_after]:
            re.compile(pattern)


def classify(claim: Claim, values: list[Citable]) -> tuple[str, Citable | None]:
    """('matched' | 'hit_as_recall' | 'retrieval_as_qa' | 'unmatched', the value concerned).

    A sentence that names a benchmark is matched only against entries of that benchmark.
    """
    if claim.benchmarks:
        values = [c for c in values if any(c.of(key) for key, _ in claim.benchmarks)]
    for c in values:
        if _wanted(claim.metric, c) and matches(c.value, claim.value, claim.unit):
            return "matched", c
    if claim.metric and claim.metric.startswith("recall@"):
        k = claim.metric.split("@")[1]
        for c in values:
            if re.fullmatch(r"(hit|legacy_recall)@" + (r"\d+" if k == "*" else k), c.metric) and \
                    matches(c.value, claim.value, claim.unit):
                return "hit_as_recall", c
    if claim.metric == "qa_accuracy":
        for c in values:
            if c.metric != "qa_accuracy" and matches(c.value, claim.value, claim.unit):
                return "retrieval_as_qa", c
    near = [c for c in values if _wanted(claim.metric, c)]
    nearest = min(near, key=lambda c: (abs(c.value - claim.value), c.metric)) if near else None
    return "unmatched", nearest


def run_numbers(ctx: Context, p: NumbersParams) -> Iterable[Finding]:
    values = citable_values(ctx)
    files = scan_docs(ctx)
    include_code = bool(ctx.doc(SCAN).data.get("include_code", p.include_code))
    out: list[Finding] = []
    count = 0
    for path, text in files:
        for claim in claims_in(path, text, include_code, p.metrics, p.benchmarks, p.max_gap, p.skip_after):
            count += 1
            kind, c = classify(claim, values)
            loc, ptr = where(claim)
            what = claim.named if claim.metric is None or claim.metric.endswith("@*") else claim.metric
            quote = f' in "{claim.sentence.shown()}"'
            if p.report == "unmatched":
                if kind == "matched" and c is not None:
                    out.append(passed(f"{loc}: {what} {claim.written} matches citable {c.metric} "
                                      f"{_pct(c.value)} of {c.entry} ({c.artifact}){quote}", ptr, path,
                                      claim.written, c.raw))
                elif kind == "unmatched":
                    of = f" on {', '.join(raw for _, raw in claim.benchmarks)}" if claim.benchmarks else ""
                    near = (f"; nearest citable {c.metric}{of} is {_pct(c.value)} ({c.entry}, {c.artifact})" if c
                            else f"; the ledger cites no {what}{of}")
                    out.append(failed(f"{loc}: {what} {claim.written} matches no citable value at the precision "
                                      f"written{near}{quote}", ptr, path, claim.written,
                                      c.raw if c else None))
            elif p.report == kind and c is not None:
                if kind == "hit_as_recall":
                    msg = (f"{loc}: {claim.written} is called {claim.named!r} but it is the {c.metric} value "
                           f"{_pct(c.value)} of {c.entry}, not strict recall{quote}")
                else:
                    msg = (f"{loc}: {claim.written} is called {claim.named!r} but it is the retrieval metric "
                           f"{c.metric} {_pct(c.value)} of {c.entry}, not QA accuracy{quote}")
                out.append(failed(msg, ptr, path, claim.written, c.metric))
    if out:
        return out
    scope = f"{len(files)} file{'s' if len(files) != 1 else ''}"
    if p.report == "unmatched":
        found = (f"{count} benchmark number{'s' if count != 1 else ''} in {scope}, none unmatched" if count
                 else f"no benchmark number found in {scope}")
        return [passed(found, "", files[0][0] if files else SCAN)]
    label = "hit@k value called recall" if p.report == "hit_as_recall" else "retrieval value called QA accuracy"
    return [passed(f"no {label} among {count} benchmark number{'s' if count != 1 else ''} in {scope}", "",
                   files[0][0] if files else SCAN)]


# --- claim_phrase -------------------------------------------------------------------------


@dataclass(frozen=True)
class PhraseParams:
    __pydantic_config__ = FORBID
    patterns: list[str]
    reason: str
    unless_verdict: str | None = None
    include_code: bool = False

    def __post_init__(self) -> None:
        if not self.patterns:
            raise ValueError("patterns must not be empty")
        for pattern in self.patterns:
            re.compile(pattern)


def verdict_backing(ctx: Context, profile: str) -> tuple[bool, str]:
    """(backed, why) for a claim that needs a passing verdict of ``profile``."""
    info = (ctx.doc(CITABLE).data or {}).get("verdict")
    if not isinstance(info, dict):
        return False, "no --verdict was given"
    data, path = info.get("data"), info.get("path")
    if not isinstance(data, dict) or data.get("schema_version") != "bench-gate.verdict.v1":
        return False, f"--verdict {path} is not a bench-gate verdict JSON (bench-gate.verdict.v1)"
    name = (data.get("profile") or {}).get("name") if isinstance(data.get("profile"), dict) else None
    if name != profile:
        return False, f"--verdict {path} is a verdict of profile {name!r}, not {profile}"
    if data.get("passed") is not True:
        return False, f"--verdict {path} ({profile}, {data.get('evaluated_at')}) did not pass"
    return True, f"backed by the passing {profile} verdict {path} ({data.get('evaluated_at')})"


def run_phrase(ctx: Context, p: PhraseParams) -> Iterable[Finding]:
    files = scan_docs(ctx)
    include_code = bool(ctx.doc(SCAN).data.get("include_code", p.include_code))
    out: list[Finding] = []
    backed, why = verdict_backing(ctx, p.unless_verdict) if p.unless_verdict else (False, "")
    for path, text in files:
        for s in sentences(text, include_code):
            hits = sorted({(m.start(), m.group(0)) for pat in p.patterns
                           for m in re.finditer(pat, s.text, re.IGNORECASE)})
            for start, phrase in hits:
                if negated(s.text, start):
                    continue  # a disclaimer: Not "zero API."
                line, col = s.where(start)
                loc, ptr = f"{path}:{line}:{col}", f"/line/{line}/column/{col}"
                quote = f' in "{s.shown()}"'
                if backed:
                    out.append(passed(f"{loc}: \"{phrase}\" is {why}{quote}", ptr, path, phrase))
                else:
                    extra = f"; {why}" if p.unless_verdict else ""
                    out.append(failed(f"{loc}: \"{phrase}\": {p.reason}{extra}{quote}", ptr, path, phrase, None))
    if out:
        return out
    return [passed(f"no such claim in {len(files)} file{'s' if len(files) != 1 else ''}", "",
                   files[0][0] if files else SCAN)]


# --- claim_ledger -------------------------------------------------------------------------


@dataclass(frozen=True)
class LedgerParams:
    __pydantic_config__ = FORBID


def run_ledger(ctx: Context, p: LedgerParams) -> Iterable[Finding]:
    info = (ctx.doc(CITABLE).data or {}).get("ledger")
    if not isinstance(info, dict):
        return [failed("no ledger verdict: run through `bench-gate claims PATH... --ledger MANIFEST`", "", CITABLE)]
    path, summary = info.get("path", "?"), info.get("summary", "")
    if info.get("passed") is not True:
        first = info.get("failed") or []
        more = f": {first[0]}" if first else ""
        if len(first) > 1:
            more += f"; also failing: {', '.join(f.split(':')[0] for f in first[1:])}"
        return [failed(f"ledger {path} fails its gate ({summary}){more}; no number it lists is citable until it "
                       "passes", "", path, False, True)]
    n = info.get("values", 0)
    return [passed(f"ledger {path} passes its gate ({summary}); {n} citable value{'s' if n != 1 else ''}",
                   "", path, True, True)]


KINDS: tuple[CheckKind, ...] = (
    CheckKind("claim_ledger", LedgerParams, run_ledger, "the claim ledger the docs cite passes its gate"),
    CheckKind("claim_numbers", NumbersParams, run_numbers,
              "benchmark numbers in docs match citable ledger values at the precision written"),
    CheckKind("claim_phrase", PhraseParams, run_phrase, "overclaim language in docs"),
)
