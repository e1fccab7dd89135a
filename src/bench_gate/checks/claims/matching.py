"""Check kinds of the docs claims scan (the ``claims`` profile, run by ``bench-gate claims``).

``bench-gate claims PATH... --ledger MANIFEST`` (or ``--evidence FILE``, or both) reads the
documents, gates the evidence, and hands both to these kinds: the ``scan`` document holds the
files' text, the ``citable`` document the gated evidence entries (their citable and withheld
values, per-type slices, benchmark, question count, judge, run identities, runtimes; see
:mod:`bench_gate.gates.claims_evidence`) and the ``--verdict`` evidence. Every finding is one
claim at ``file:line:column`` (pointer ``/line/L/column/C``, 1-based, columns in characters) and
carries its :class:`~bench_gate.models.ClaimRecord`: **confirmed** (a value of gated evidence of
the same benchmark, question set, metric, slice and judge equals it at the precision written; a
categorical 100% or 1.0 only exactly), **contradicted** (such evidence gives another value, or
the document's own arithmetic disagrees) or **untestable** (nothing can confirm it); only the
first passes. How a document is read and what counts as a claim is described in
:mod:`bench_gate.checks.claims.commonmark` and :mod:`bench_gate.checks.claims.lexer`.
"""

from __future__ import annotations

import bisect
import fnmatch
import json
import re
from collections.abc import Iterable
from datetime import datetime, timedelta
from fractions import Fraction
from functools import lru_cache
from typing import Any

from bench_gate.records import field, record, replace
from bench_gate.checks.base import kind, FORBID, Context, failed, passed, pct, show_fraction, skipped
from bench_gate.checks.claims.commonmark import Block, Document, read
from bench_gate.checks.claims.lexer import (
    DEFAULT_BENCHMARKS,
    DEFAULT_METRICS,
    DEFAULT_SLICE_ALIASES,
    DEFAULT_SLICES,
    Claim,
    Patterns,
    claims_in,
    mentions,
    negated,
    normalise,
    phrase_text,
    question_counts,
    sentences,
    shown,
    slice_patterns,
    whole_count,
)
from bench_gate.text.isotime import instant_or_none
from bench_gate.models import UNSET, ClaimRecord, Finding, exact_number

SCAN, CITABLE = "scan", "citable"
VERDICT_SCHEMA = "bench-gate.verdict.v1"


# --- inputs ------------------------------------------------------------------------------


def scan_docs(ctx: Context, include_code: bool = False) -> list[Document]:
    data = ctx.doc(SCAN).data or {}
    code = bool(data.get("include_code")) or include_code
    return [read(f["path"], f["text"], code) for f in data.get("files", [])]


def _scope(files: list[Document]) -> str:
    return f"{len(files)} file{'s' if len(files) != 1 else ''}"


def _first(files: list[Document]) -> str:
    return files[0].path if files else SCAN


@record
class Citable:
    metric: str
    value: Fraction
    raw: Any
    entry: str
    artifact: str
    scope: str = ""  # the entry's suite and dataset name, lower case
    slice: str | None = None
    why: str = ""  # for a withheld value: why it is not citable
    pointer: str = ""  # where the value is in its report
    user_profile: str | None = None  # the user profile that gated it (named in every message resting on it)
    benchmarks: frozenset[str] = frozenset()  # the benchmark keys its scope names
    granularity: str | None = None  # what its items are ("session"), when the evidence declares it

    def of(self, benchmark: str) -> bool:
        """True when the entry's suite or dataset is this benchmark (``longmemeval``, ``locomo``...)."""
        return benchmark in self.benchmarks

    def label(self) -> str:
        return f"{self.metric} of {self.slice}" if self.slice else self.metric

    def source(self) -> str:
        """``/citable/4, external/x.json`` or ``headline, results/summary.json, user profile p.yaml``."""
        user = f", user profile {self.user_profile}" if self.user_profile else ""
        return f"{self.entry}, {self.artifact}{user}"

    def rests(self) -> str:
        """`` (user profile p.yaml)`` for a value resting on a user profile, else nothing."""
        return f" (user profile {self.user_profile})" if self.user_profile else ""

    def evidence(self) -> dict[str, Any]:
        shown = show_fraction(self.value, 6)
        if isinstance(self.raw, str) and "/" in self.raw:
            shown = f"{shown} ({self.raw})"  # a count over a total: 48/50
        out: dict[str, Any] = {"entry": self.entry, "artifact": self.artifact, "pointer": self.pointer,
                               "metric": self.label(), "value": shown}
        if self.user_profile:
            out["user_profile"] = self.user_profile
        return out


@lru_cache(maxsize=1024)
def scope_benchmarks(scope: str, benchmarks: tuple[tuple[str, str], ...]) -> frozenset[str]:
    """The benchmark keys an entry's suite and dataset name (``longmemeval_s_cleaned`` is
    LongMemEval-S): read with the patterns documents are read with, so that a number is matched
    only with evidence of the very benchmark and split it names."""
    text = normalise(re.sub(r"[_/.]+", " ", scope)).text
    return frozenset(m.key for m in mentions(text, dict(benchmarks)))


def citable_values(ctx: Context, key: str = "values",
                   benchmarks: dict[str, str] | None = None) -> list[Citable]:
    """The citable values of the evidence (``key="withheld"``: the values no claim may cite)."""
    pats = tuple((benchmarks or DEFAULT_BENCHMARKS).items())
    out = []
    for item in (ctx.doc(CITABLE).data or {}).get(key, []):
        v = item["value"] if isinstance(item["value"], Fraction) else exact_number(item["value"])
        if v is not None and isinstance(item.get("metric"), str):
            scope = str(item.get("scope", ""))
            out.append(Citable(item["metric"].lower(), v, item.get("raw", item["value"]), item["entry"],
                               item["artifact"], scope.lower(), item.get("slice"), str(item.get("why", "")),
                               str(item.get("pointer", "")), item.get("user_profile"),
                               scope_benchmarks(scope, pats),
                               str(item["granularity"]).lower() if item.get("granularity") else None))
    return out


def evidence_source(ctx: Context) -> str:
    """What the evidence came from, as messages name it: ``the ledger`` (``--ledger``), ``the
    evidence file`` (``--evidence``) or ``the ledger and the evidence file`` (both). A message
    never names a ledger that was not given."""
    data = ctx.doc(CITABLE).data or {}
    ledger, evidence = isinstance(data.get("ledger"), dict), isinstance(data.get("evidence"), dict)
    if ledger and evidence:
        return "the ledger and the evidence file"
    return "the evidence file" if evidence else "the ledger"


def citable_entries(ctx: Context) -> list[dict[str, Any]]:
    return list((ctx.doc(CITABLE).data or {}).get("entries", []))


@lru_cache(maxsize=4096)
def _pct(value: Fraction) -> str:
    return f"{show_fraction(value, 4)} ({pct(value)}%)"


def _loc(claim: Claim) -> tuple[str, str]:
    return f"{claim.path}:{claim.line}:{claim.col}", f"/line/{claim.line}/column/{claim.col}"


# --- claim_numbers ------------------------------------------------------------------------


@record
class NumbersParams:
    __pydantic_config__ = FORBID
    report: str = "unmatched"
    metrics: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_METRICS))
    benchmarks: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_BENCHMARKS))
    slices: list[str] = field(default_factory=lambda: list(DEFAULT_SLICES))
    slice_aliases: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_SLICE_ALIASES))
    skip_after: str = r"\s*(?:percentage\s+points?|pp\b|points?\b|pts?\b)"
    include_code: bool = False
    history_rows: str = "skip"

    def __post_init__(self) -> None:
        if self.report not in ("unmatched", "hit_as_recall", "retrieval_as_qa", "ambiguous"):
            raise ValueError("report must be unmatched, hit_as_recall, retrieval_as_qa or ambiguous")
        if self.history_rows not in ("skip", "fail"):
            raise ValueError("history_rows must be skip or fail")
        for pattern in [*self.metrics, *self.benchmarks, self.skip_after]:
            re.compile(pattern)


def patterns(ctx: Context, p: NumbersParams) -> Patterns:
    known = {c.slice for c in citable_values(ctx) if c.slice}
    return Patterns(p.metrics, p.benchmarks, slice_patterns(tuple(sorted(known | set(p.slices))),
                                                           tuple(sorted(p.slice_aliases.items()))),
                    p.skip_after, p.include_code or bool((ctx.doc(SCAN).data or {}).get("include_code")))


def matches(value: Fraction, written: Fraction, unit: Fraction) -> bool:
    """True when ``value`` reads as ``written`` at its precision: rounded or truncated. A
    categorical value (``100%``, ``1.0``, ``1``, ``0%``, ``50/50``) is matched only exactly: no
    rounding turns 0.9717 into "1.0" or 0.004 into "0%"."""
    if written in (0, 1):
        return value == written
    return abs(value - written) <= unit / 2 or written <= value < written + unit


def _holds(c: Citable, claim: Claim) -> bool:
    if claim.bound == "min":
        return c.value >= claim.value
    if claim.bound == "max":
        return c.value <= claim.value
    return matches(c.value, claim.value, claim.unit)


def _wanted(metric: str | None, c: Citable) -> bool:
    if metric is None:
        return True
    if metric.endswith("@*"):
        return re.fullmatch(re.escape(metric[:-1]) + r"\d+", c.metric) is not None
    return c.metric == metric


_RUN_ID = re.compile(r"^#?(?:\d{6,}|(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40})$")


def row_identity(cells: tuple[str, ...], entries: list[dict[str, Any]]) -> tuple[list[str], str | None]:
    """(citable entries the row's cells name, the run id the first cell names when it is none of them)."""
    named: list[str] = []
    for cell in cells:
        token = cell.strip().strip("`").lower()
        if not token:
            continue
        for e in entries:
            for ident in e.get("ids", []):
                ident = str(ident).lower()
                if token == ident or (len(token) >= 7 and _RUN_ID.match(token) and ident.startswith(token)):
                    named.append(e["entry"])
    first = cells[0].strip().strip("`").lower() if cells else ""
    other = first if not named and _RUN_ID.match(first) else None
    return list(dict.fromkeys(named)), other


def _by_mode(cells: tuple[str, ...], entries: list[dict[str, Any]]) -> list[str]:
    if not cells:
        return []
    words = set(re.findall(r"[a-z0-9]+", cells[0].lower()))
    return [e["entry"] for e in entries if isinstance(e.get("mode"), str) and e["mode"].lower() in words]


def narrowed(claim: Claim, values: list[Citable], entries: list[dict[str, Any]]) -> list[Citable]:
    """The citable values a claim may match: its benchmark and split, its question set, its run or
    mode, its slice. A claim that names no benchmark matches only when every value is on one
    benchmark (nothing to confuse it with)."""
    if claim.benchmarks:
        values = [c for c in values if any(c.of(key) for key, _ in claim.benchmarks)]
    elif len({c.benchmarks for c in values}) > 1:
        return []
    if claim.subset:
        # "on a LongMemEval subset": only an entry known to have evaluated part of its dataset
        part = {e["entry"] for e in entries if isinstance(e.get("evaluated"), int) and isinstance(e.get("total"), int)
                and e["evaluated"] < e["total"]}
        values = [c for c in values if c.entry in part]
    if claim.questions is not None and claim.slice is None:
        counts = {e["entry"]: e.get("evaluated") for e in entries}
        values = [c for c in values if counts.get(c.entry) in (None, claim.questions)
                  and (counts.get(c.entry) is not None or c.entry not in counts)]
    if claim.whole and claim.slice is None:
        # "on all 5 categories", "the full benchmark": evidence over part of its questions (LoCoMo's
        # categories 1-4, 470 of 500 questions) cannot confirm it
        by_entry = {e["entry"]: e for e in entries}
        values = [c for c in values if not narrower(by_entry.get(c.entry), claim.whole)]
    if claim.row:
        named, _ = row_identity(claim.row, entries)
        named = named or _by_mode(claim.row, entries)
        if named:
            values = [c for c in values if c.entry in named]
    if claim.run_kind:
        kinds = {e["entry"] for e in entries if claim.run_kind in run_kinds(e)}
        values = [c for c in values if c.entry in kinds]
    if claim.judge:
        # a QA number judged by one model is no result of another judge (nor of an unnamed one)
        judges = {e["entry"]: str(e.get("judge") or "").lower() for e in entries}
        values = [c for c in values if judges.get(c.entry, "") == claim.judge]
    if claim.granularity is not None:
        # "turn-level recall@5" is another metric than session-level recall@5: only a value the
        # evidence declares of that granularity can confirm it
        values = [c for c in values if c.granularity == claim.granularity]
    return [c for c in values if c.slice == claim.slice]


def narrower(entry: dict[str, Any] | None, whole: str) -> str:
    """The question set of an evidence entry when it is narrower than a claim says (``whole``: "all
    5 categories", "the full benchmark"), as the entry names it, else "". An entry whose values are
    over stated groups (LoCoMo's categories 1-4) is narrower than any whole, unless the words count
    as many categories as it holds; one that evaluated part of its dataset is narrower too."""
    if entry is None:
        return ""
    groups = entry.get("groups")
    if isinstance(groups, list) and groups and whole_count(whole) != len(groups):
        return str(entry.get("question_set") or f"the groups {', '.join(map(str, groups))}")
    evaluated, total = entry.get("evaluated"), entry.get("total")
    if isinstance(evaluated, int) and isinstance(total, int) and evaluated < total:
        return f"{evaluated} of its dataset's {total} questions"
    return ""


def _whole_reason(claim: Claim, values: list[Citable], entries: list[dict[str, Any]]) -> str:
    """Why a number said to be on the whole benchmark is untestable, or "" when it is not."""
    if not claim.whole or claim.slice is not None:
        return ""
    by_entry = {e["entry"]: e for e in entries}
    same = [c for c in narrowed(replace(claim, whole=None), values, entries) if _wanted(claim.metric, c)]
    over = next((w for w in (narrower(by_entry.get(c.entry), claim.whole) for c in same) if w), "")
    if not over:
        return ""
    return (f"it is said to be on {shown(claim.whole)!r}, but the evidence's {_what(claim)} is over {over}: a "
            "result on part of the benchmark confirms no number said to be on more of it (name the question set as "
            "the evidence does)")


def _granularity_reason(claim: Claim, values: list[Citable], entries: list[dict[str, Any]]) -> str:
    """Why a number whose metric is qualified by a granularity is untestable, or "" when it is not."""
    if claim.granularity is None:
        return ""
    what = _what(claim)
    if claim.granularity == "mixed":
        return (f"its sentence names several granularities (turn-level, session-level, ...) and does not say which "
                f"one its {what} is counted over")
    same = [c for c in narrowed(replace(claim, granularity=None), values, entries) if _wanted(claim.metric, c)]
    declared = sorted({c.granularity for c in same if c.granularity})
    if declared:
        return (f"the evidence's {what} is {'/'.join(declared)}-level; a {claim.granularity}-level {what} is another "
                "metric")
    return (f"the evidence does not declare what its {what} counts (sessions, turns, ...); a {claim.granularity}-level "
            f"{what} is confirmed only by a value declared {claim.granularity}-level")


def run_kinds(entry: dict[str, Any]) -> set[str]:
    """The kinds of run an entry is ("live", "offline"), from its suite and its runtime mode."""
    runtime = entry.get("runtime") if isinstance(entry.get("runtime"), dict) else {}
    said = f"{entry.get('scope', '')} {runtime.get('runtime_mode', '')}".lower()
    return {k for k in ("live", "offline") if re.search(r"(?<![a-z])" + k + r"(?![a-z])", said)}


def classify(claim: Claim, values: list[Citable]) -> tuple[str, Citable | None]:
    """('matched' | 'hit_as_recall' | 'retrieval_as_qa' | 'unmatched', the value concerned)."""
    for c in values:
        if _wanted(claim.metric, c) and _holds(c, claim):
            return "matched", c
    if claim.metric and claim.metric.startswith("recall@"):
        k = claim.metric.split("@")[1]
        for c in values:
            if re.fullmatch(r"(hit|legacy_recall)@" + (r"\d+" if k == "*" else re.escape(k)), c.metric) \
                    and _holds(c, claim):
                return "hit_as_recall", c
    if claim.metric == "qa_accuracy":
        for c in values:
            if c.metric != "qa_accuracy" and _holds(c, claim):
                return "retrieval_as_qa", c
    near = [c for c in values if _wanted(claim.metric, c)]
    nearest = min(near, key=lambda c: (abs(c.value - claim.value), c.metric, c.entry)) if near else None
    return "unmatched", nearest


def _what(claim: Claim) -> str:
    what = claim.named if claim.metric is None or claim.metric.endswith("@*") else claim.metric
    return f"{what} of {claim.slice}" if claim.slice else what


def _progression_tables(claims: list[Claim], entries: list[dict[str, Any]]) -> dict[tuple[str, int], list[str]]:
    """Tables (file, index) that hold a row naming a citable run and rows naming other runs, each
    with the run ids of its citable rows."""
    citable_rows: dict[tuple[str, int], list[str]] = {}
    other_rows: set[tuple[str, int]] = set()
    for c in claims:
        if c.table is None:
            continue
        named, other = row_identity(c.row, entries)
        first = c.row[0].strip().strip("`").lower().lstrip("#") if c.row else ""
        if named and _RUN_ID.match(first) and first not in citable_rows.get((c.path, c.table), []):
            citable_rows.setdefault((c.path, c.table), []).append(first)
        if other:
            other_rows.add((c.path, c.table))
    return {t: ids for t, ids in citable_rows.items() if t in other_rows}


def _history(run: str, cited: list[str]) -> bool:
    """True when ``run`` is earlier than every cited run of its table. CI run ids grow with time, so
    a numeric id below the cited run's is an earlier run; a higher one is a newer uncited run, and
    a commit or any other id cannot be ordered: neither is history."""
    run = run.lstrip("#")
    return run.isdigit() and bool(cited) and all(c.isdigit() and int(run) < int(c) for c in cited)


@record
class Decision:
    """What the evidence says of one claim: its status, the cause (``matched``,
    ``hit_as_recall``, ``retrieval_as_qa``, ``contradicted``, ``untestable``), the value it
    matched or that contradicts it, and why it is untestable."""

    status: str
    cause: str
    value: Citable | None = None
    reason: str = ""
    others: tuple[Citable, ...] = ()


def _benchmark_names(claim: Claim) -> str:
    return ", ".join(dict.fromkeys(raw for _, raw in claim.benchmarks))


def decide(claim: Claim, values: list[Citable], withheld: list[Citable], entries: list[dict[str, Any]],
           source: str = "the ledger") -> Decision:
    """Confirmed, contradicted or untestable (see the module docs); ``source`` names where the
    evidence came from (:func:`evidence_source`)."""
    if claim.difference:
        return Decision("untestable", "untestable", None,
                        f"a difference of {claim.written} compares two values, and no evidence value is a difference "
                        "(write the two values it is the difference of: each is checked on its own)")
    if claim.metric is None:
        return Decision("untestable", "untestable", None,
                        "it names no metric: a number is confirmed only by a value of its own metric (name the "
                        "metric next to it, in its column or row, or in the heading above it)")
    if claim.bound is not None and not claim.adjacent:
        return Decision("untestable", "untestable", None,
                        "a bound whose metric is not written next to it says nothing a value can confirm")
    pool = narrowed(claim, values, entries)
    cause, c = classify(claim, pool)
    if cause == "matched":
        return Decision("confirmed", cause, c)
    if cause in ("hit_as_recall", "retrieval_as_qa"):
        return Decision("contradicted", cause, c)
    what, on = _what(claim), _benchmark_names(claim)
    held = classify(claim, narrowed(claim, withheld, entries))
    aside = ""
    if held[0] == "matched" and held[1] is not None:
        h = held[1]
        aside = (f" (it reads as {h.label()} {_pct(h.value)} of {h.entry} ({h.artifact}), which is {h.why})")
    same = [v for v in pool if _wanted(claim.metric, v)]
    if claim.metric is not None and same and c is not None:
        others = tuple(sorted({(v.value, v.entry): v for v in same if v is not c}.values(),
                              key=lambda v: (abs(v.value - claim.value), v.entry)))
        return Decision("contradicted", "contradicted", c, aside, others)
    grain = _granularity_reason(claim, values, entries) if values else ""
    whole = _whole_reason(claim, values, entries) if values else ""
    if grain:
        reason = grain
    elif whole:
        reason = whole
    elif not values:
        entry = {"the ledger": "no citable ledger entry whose gate passes",
                 "the evidence file": "no evidence-file entry whose gate passes"}.get(
            source, "no citable ledger entry and no evidence-file entry whose gate passes")
        reason = f"no evidence backs any number ({entry})"
    elif not claim.benchmarks and len({v.benchmarks for v in values}) > 1:
        names = sorted({k for v in values for k in v.benchmarks})
        reason = (f"it names no benchmark, and the evidence covers {', '.join(names)}: nothing says which one it is "
                  "on")
    elif claim.benchmarks and not any(v.of(k) for v in values for k, _ in claim.benchmarks):
        reason = f"no evidence covers {on}"
    else:
        where = f" on {on}" if on else ""
        reason = f"the evidence has no {what}{where}"
        if claim.questions is not None and claim.slice is None:
            reason += f" on {claim.questions} questions"
        elif claim.subset:
            reason += " on a subset of its questions (the text says subset or sample; name the question count)"
        if claim.judge:
            reason += f" judged by {claim.judge}"
    return Decision("untestable", "untestable", None, reason + aside)


def decide_each_name(claim: Claim, values: list[Citable], withheld: list[Citable], entries: list[dict[str, Any]],
                     source: str = "the ledger") -> tuple[Claim, Decision]:
    """:func:`decide` for a number the text gives under two names of one metric ("recall@5 (hit@5)
    is 98%", "hit@5 is 98%, i.e. recall@5"): it must hold for each name, so the claim is confirmed
    only when every name is, and otherwise it is what the first name that is not confirmed makes
    it (a hit@k value also called recall is the hit-as-recall contradiction). Returns the claim as
    read under that name, and the decision."""
    d = decide(claim, values, withheld, entries, source)
    if d.status != "confirmed" or not claim.also:
        return claim, d
    for key, raw in claim.also:
        other = replace(claim, metric=key, named=raw, also=())
        od = decide(other, values, withheld, entries, source)
        if od.status != "confirmed":
            return other, od
    return claim, d


@kind("claim_numbers", NumbersParams, "benchmark numbers in docs match citable values of gated evidence at the precision written")
def claim_numbers(ctx: Context, p: NumbersParams) -> Iterable[Finding]:
    """Every benchmark number must match a citable value *at the precision written*: ``96.6%`` is
    0.966 with a unit of 0.001 and matches a value rounded to it (0.9655..0.9665) or truncated
    to it (0.9660..0.9669); ``0.97`` matches 0.965..0.975. The values it may match are narrowed
    by what the document says: the benchmark (an entry's ``suite`` or dataset name names it),
    the slice (a number in a per-type row or next to a question-type name is matched against
    that type's ``per_type`` slice, never against overall values), and the run or system the
    table row names (a row naming a citable run id, commit or artifact is matched against that
    entry only; a row naming a ``mode`` such as ``Raw`` against the entries of that mode). A
    bound ("over 95%", "at most 0.1") holds when a citable value satisfies it. Only values of
    metrics the gate recomputes are citable; a metric an entry's gate declared not citable, or a
    counter it does not recompute, backs nothing (the ``withheld`` values of the ``citable``
    document), and a claim that would have matched one says so. ``report`` picks what a rule
    reports:

    * ``unmatched``: numbers that match no citable value fail, with the nearest citable value;
    * ``hit_as_recall``: a number called recall that matches no recall value but a ``hit@k``
      (or ``legacy_recall@k``) value fails: hit@k was labelled recall;
    * ``retrieval_as_qa``: a number called QA accuracy that matches a retrieval metric fails;
    * ``ambiguous``: a range (``95-99%``) or a decimal comma (``0,99``) fails: a claim states one
      value.

    A number the text attributes to a live or an offline run ("in the live run") matches only
    entries of that kind of run (their suite or ``runtime_mode``).

    A table whose rows are keyed by run (the first cell a run id or commit) and that holds a
    row for a citable run is a progression table: rows of earlier runs (a CI run id below the
    cited run's) are history, reported as skipped with the run they name, not as claims
    (``history_rows: fail`` checks them too); a newer or unordered run's row is checked.
    """
    values = citable_values(ctx, benchmarks=p.benchmarks)
    withheld = citable_values(ctx, "withheld", benchmarks=p.benchmarks)
    entries = citable_entries(ctx)
    source = evidence_source(ctx)
    files = scan_docs(ctx)
    pats = patterns(ctx, p)
    out: list[Finding] = []
    count = 0
    for doc in files:
        claims = claims_in(doc, pats)
        history = _progression_tables(claims, entries) if p.history_rows == "skip" else {}
        reported_rows: set[tuple[int, int]] = set()
        decided: list[Finding | Decided] = []  # in the document's order
        for claim in claims:
            loc, ptr = _loc(claim)
            if claim.table is not None and (claim.path, claim.table) in history:
                _, other = row_identity(claim.row, entries)
                cited = history[(claim.path, claim.table)]
                if other and not _history(other, cited):
                    claim = replace(claim, quote=f"(run {claim.row[0]} is not earlier than the cited run "
                                                 f"{', '.join(cited)}, so its row is no history) {claim.quote}")
                elif other:
                    if p.report == "unmatched" and (claim.table, claim.table_row) not in reported_rows:
                        reported_rows.add((claim.table, claim.table_row))
                        decided.append(Finding("skip", f"{loc}: row of run {claim.row[0]} is history (an earlier run) "
                                           f"in a table that also holds the citable run's row; {source} does not cite run "
                                           f"{claim.row[0]}, so its numbers ({claim.written} first) are not checked "
                                           "(set history_rows: fail to check them)", claim.path, ptr, claim.raw))
                    continue
            count += 1
            if claim.ambiguous is not None:
                if p.report == "ambiguous":
                    record = ClaimRecord("untestable", claim.raw, None, claim.ambiguous)
                    decided.append(Finding("fail", f"{loc}: untestable: {claim.ambiguous}; a claim must state the one "
                                       f"value the evidence can match {claim.quote}", claim.path, ptr, claim.raw,
                                       None, record))
                continue
            claim, decision = decide_each_name(claim, values, withheld, entries, source)
            decided.append((claim, loc, ptr, decision))
        for item in _other_runs(decided):
            out.extend([item] if isinstance(item, Finding) else _number_finding(p.report, item[3], *item[:3]))
    if out:
        return out
    if p.report == "unmatched":
        found = (f"{count} benchmark number{'s' if count != 1 else ''} in {_scope(files)}, none unmatched" if count
                 else f"no benchmark number found in {_scope(files)}")
        return [passed(found, "", _first(files))]
    label = {"hit_as_recall": "hit@k value called recall", "retrieval_as_qa": "retrieval value called QA accuracy",
             "ambiguous": "range or decimal comma"}[p.report]
    return [passed(f"no {label} among {count} benchmark number{'s' if count != 1 else ''} in {_scope(files)}",
                   "", _first(files))]


Decided = tuple[Claim, str, str, Decision]
"""A claim, its place (``file:line:col`` and pointer) and what the evidence says of it."""


def _other_runs(decided: list[Finding | Decided]) -> list[Finding | Decided]:
    """A sentence that states two values of one metric ("50/50 against 48/50 for the default")
    compares two runs: when one of them is confirmed by an evidence value, the other is not a
    misreading of that value but a number of another run, which no evidence covers. It is
    untestable, not contradicted by the value its neighbour already stands for. Either way it
    fails; only the reason changes. Table cells are not sentences: a row names its own run."""
    confirmed = {(c.path, c.line, c.quote, id(d.value)): c for c, _, _, d in _claims(decided)
                 if d.status == "confirmed" and c.table is None}
    out: list[Finding | Decided] = []
    for item in decided:
        if isinstance(item, Finding):
            out.append(item)
            continue
        claim, loc, ptr, d = item
        other = confirmed.get((claim.path, claim.line, claim.quote, id(d.value))) if d.status == "contradicted" and \
            d.cause == "contradicted" and claim.quote else None
        if other is not None and other is not claim and d.value is not None:
            d = Decision("untestable", "untestable", None,
                         f"the evidence's {d.value.label()} {_pct(d.value.value)} is the value {other.written} in the "
                         f"same sentence states, so this number is of another run or setting, and no evidence covers "
                         f"it{d.reason}")
        out.append((claim, loc, ptr, d))
    return out


def _claims(decided: list[Finding | Decided]) -> list[Decided]:
    return [item for item in decided if not isinstance(item, Finding)]


def _number_finding(report: str, d: Decision, claim: Claim, loc: str, ptr: str) -> list[Finding]:
    """The finding of the rule that reports this claim (each claim is reported by one rule:
    ``unmatched`` reports confirmed, contradicted and untestable numbers, ``hit_as_recall`` and
    ``retrieval_as_qa`` the contradictions of their cause)."""
    what = _what(claim)
    bound = {"min": "at least ", "max": "at most "}.get(claim.bound or "", "")
    c = d.value
    if d.cause in ("hit_as_recall", "retrieval_as_qa"):
        if report != d.cause or c is None:
            return []
        record = ClaimRecord("contradicted", claim.raw, c.evidence(), "")
        if d.cause == "hit_as_recall":
            msg = (f"{loc}: contradicted: {claim.written} is called {claim.named!r} but it is the {c.label()} value "
                   f"{_pct(c.value)} of {c.entry}{c.rests()}, not strict recall (the citable strict recall differs) "
                   f"{claim.quote}")
        else:
            msg = (f"{loc}: contradicted: {claim.written} is called {claim.named!r} but it is the retrieval metric "
                   f"{c.label()} {_pct(c.value)} of {c.entry}{c.rests()}, not QA accuracy {claim.quote}")
        return [Finding("fail", msg, claim.path, ptr, claim.raw, c.metric, record)]
    if report != "unmatched":
        return []
    if d.status == "confirmed" and c is not None:
        record = ClaimRecord("confirmed", claim.raw, c.evidence())
        return [Finding("pass", f"{loc}: confirmed: {what} {bound}{claim.written} matches citable {c.label()} "
                        f"{_pct(c.value)} of {c.entry} ({c.source().split(', ', 1)[1]}) {claim.quote}",
                        claim.path, ptr, claim.raw, c.raw, record)]
    if d.status == "contradicted" and c is not None:
        on = f" on {_benchmark_names(claim)}" if claim.benchmarks else ""
        more = "".join(f"; {o.entry} gives {_pct(o.value)}" for o in d.others[:3])
        record = ClaimRecord("contradicted", claim.raw, c.evidence(), d.reason.strip())
        return [Finding("fail", f"{loc}: contradicted: {what} {bound}{claim.written} matches no citable value at the "
                        f"precision written; the evidence gives {c.label()}{on} {_pct(c.value)} ({c.source()}){more}"
                        f"{d.reason} {claim.quote}", claim.path, ptr, claim.raw, c.raw, record)]
    record = ClaimRecord("untestable", claim.raw, None, d.reason)
    return [Finding("fail", f"{loc}: untestable: {what} {bound}{claim.written}: {d.reason} {claim.quote}",
                    claim.path, ptr, claim.raw, None, record)]


# --- claim_phrase -------------------------------------------------------------------------


@record
class PhraseParams:
    __pydantic_config__ = FORBID
    patterns: list[str]
    reason: str
    unless_verdict: str | None = None
    unless_local_runtime: bool = False
    unless_before: str | None = None
    local_providers: list[str] = field(default_factory=lambda: [
        "none", "local", "offline", "chromadb", "sentence-transformers", "sentence_transformers", "huggingface-local",
        "fastembed", "onnx", "llama.cpp", "ollama"])
    max_verdict_age_days: int = 30
    include_code: bool = False
    # Patterns of a grammatical form (a superlative "the strongest", a comparison "ahead of") that
    # are overclaims only about a result: matched where their sentence names a benchmark, a metric
    # or a result word (``result_words``): "ingest dominates the run time" is no claim.
    in_result_context: list[str] = field(default_factory=list)
    # Patterns of a comparison that are overclaims wherever the system compared with is named: the
    # word after the match is capitalised as written ("ahead of Zep", "surpasses Mem0").
    of_named_system: list[str] = field(default_factory=list)
    result_words: str = (r"\b(?:scores?|scored|scoring|results?|recall|accuracy|accurate|precision|retriev\w*|"
                         r"perform\w*|benchmarks?|leaderboards?|quality|answers?|answering|memory\s+(?:systems?|layers?))\b")

    def __post_init__(self) -> None:
        if not self.patterns:
            raise ValueError("patterns must not be empty")
        for pattern in [*self.patterns, *self.in_result_context, *self.of_named_system, self.result_words,
                        *([self.unless_before] if self.unless_before else [])]:
            re.compile(pattern)
        if self.max_verdict_age_days < 0:
            raise ValueError("max_verdict_age_days must be at least 0")


def _version_family(version: Any) -> str | None:
    m = re.fullmatch(r"(\d+)\.(\d+)(?:\.\d+)?(?:[.+-].*)?", str(version)) if isinstance(version, str) else None
    return f"{m.group(1)}.{m.group(2)}" if m else None


def verdict_problems(info: dict[str, Any], now: datetime, version: str, max_age_days: int) -> list[str]:
    """Why a ``--verdict`` cannot back a state-of-the-art claim (empty: it can)."""
    data, problems = info.get("data"), []
    if not isinstance(data, dict) or data.get("schema_version") != VERDICT_SCHEMA:
        return [f"it is not a bench-gate verdict JSON ({VERDICT_SCHEMA})"]
    tool = data.get("tool") if isinstance(data.get("tool"), dict) else {}
    theirs, ours = _version_family(tool.get("version")), _version_family(version)
    if tool.get("name") != "bench-gate" or theirs is None or theirs != ours:
        problems.append(f"it was written by {tool.get('name')!r} {tool.get('version')!r}, not by bench-gate "
                        f"{ours}.x (this installation): its profile and rules may differ")
    profile = data.get("profile") if isinstance(data.get("profile"), dict) else {}
    if profile.get("name") != "official-sota":
        problems.append(f"it is a verdict of profile {profile.get('name')!r}, not official-sota")
    elif profile.get("digest") != info.get("builtin_digest"):
        problems.append(f"its profile digest {profile.get('digest')!r} is not the digest of the built-in "
                        "official-sota profile of this installation: a changed profile (one that extends, loosens or "
                        "disables rules) proves nothing about the official gate")
    results = data.get("results")
    if not isinstance(results, list) or not results or not all(isinstance(r, dict) for r in results):
        problems.append("it holds no rule results")
        results = []
    statuses = [str(r.get("status")) for r in results]
    fails = sum(1 for r in results if r.get("status") == "fail" and r.get("severity") == "error")
    counts = data.get("counts") if isinstance(data.get("counts"), dict) else {}
    tally = {s: statuses.count(s) for s in ("pass", "fail", "skip")}
    if any(counts.get(s) != n or isinstance(counts.get(s), bool) for s, n in tally.items()):
        problems.append(f"its counts {json.dumps(counts, sort_keys=True, default=str)[:120]} do not match its results "
                        f"({tally['pass']} pass, {tally['fail']} fail, {tally['skip']} skip)")
    if data.get("passed") is not True:
        problems.append("it did not pass")
    elif fails:
        problems.append(f"it says passed but {fails} error rule{'s' if fails != 1 else ''} failed")
    waived = statuses.count("waived")
    if waived:
        problems.append(f"{waived} of its results {'was' if waived == 1 else 'were'} waived: a waived rule of the "
                        "official gate backs no claim")
    missing = sorted(set(info.get("builtin_rules", [])) - {str(r.get("rule")) for r in results})
    if results and missing:
        problems.append(f"it lacks results of {len(missing)} official-sota rule{'s' if len(missing) != 1 else ''} "
                        f"({', '.join(missing[:3])}{', ...' if len(missing) > 3 else ''})")
    disabled = [r.get("rule") for r in results if r.get("status") == "skip"
                and str(r.get("message", "")).startswith("disabled by profile")]
    if disabled:
        problems.append(f"rules were disabled: {', '.join(map(str, disabled[:3]))}")
    inputs = data.get("inputs")
    if not isinstance(inputs, list) or not inputs:
        problems.append("it names no inputs, so nothing ties it to the files it judged")
        inputs = []
    for item in inputs:
        path = item.get("path") if isinstance(item, dict) else None
        now_hash = info.get("hashes", {}).get(path)
        if now_hash == "missing":
            problems.append(f"its input {path} no longer exists")
        elif isinstance(now_hash, str) and now_hash.startswith("error:"):
            problems.append(f"its input {path} cannot be read: {now_hash[6:]}")
        elif not isinstance(item, dict) or now_hash != item.get("sha256"):
            problems.append(f"its input {path} changed since the verdict (sha256 now {str(now_hash)[:12]}..., "
                            f"verdict says {str(item.get('sha256') if isinstance(item, dict) else None)[:12]}...)")
    at = instant_or_none(data.get("evaluated_at"))
    if at is None:
        problems.append(f"its evaluated_at {data.get('evaluated_at')!r} is not an RFC 3339 instant")
    elif at > now:
        problems.append(f"its evaluated_at {data.get('evaluated_at')} is after the scan time")
    elif now - at > timedelta(days=max_age_days):
        problems.append(f"it was evaluated at {data.get('evaluated_at')}, {(now - at).days} days before the scan "
                        f"(limit {max_age_days} days)")
    return problems


def verdict_backing(ctx: Context, profile: str, max_age_days: int) -> tuple[bool, str]:
    """(backed, why) for a claim that needs a passing, verifiable verdict of ``profile``."""
    data = ctx.doc(CITABLE).data or {}
    ran = data.get("sota_run")
    if isinstance(ran, dict):
        if ran.get("passed") is True:
            return True, f"backed by the {profile} gate run on {ran.get('report')} now ({ran.get('summary')})"
        return False, f"the {profile} gate run on {ran.get('report')} failed ({ran.get('summary')})"
    info = data.get("verdict")
    if not isinstance(info, dict):
        return False, "no --verdict or --sota-report was given"
    problems = verdict_problems(info, ctx.now, str(data.get("tool_version", "")), max_age_days)
    if problems:
        return False, f"--verdict {info.get('path')} cannot back it: {'; '.join(problems)}"
    return True, f"backed by the verified {profile} verdict {info.get('path')} ({info['data'].get('evaluated_at')})"


VERDICT_BENCHMARKS = frozenset({"longmemeval"})
VERDICT_METRICS = frozenset({"qa_accuracy"})


def verdict_scope(sentence: str) -> str | None:
    """Why an official-sota verdict does not cover ``sentence`` (None: it does). The official gate
    judges LongMemEval(-S) QA accuracy only; a verdict never backs a claim about another benchmark
    or another metric, whoever's verdict it is."""
    other = sorted({m.raw for m in mentions(sentence, DEFAULT_BENCHMARKS) if m.key not in VERDICT_BENCHMARKS})
    if other:
        return f"the official-sota gate judges LongMemEval-S, not {', '.join(other)}"
    metric = sorted({m.raw for m in mentions(sentence, DEFAULT_METRICS) if m.key not in VERDICT_METRICS})
    if metric:
        return f"the official-sota gate judges QA accuracy, not {', '.join(metric)}"
    return None


def system_scope(ctx: Context, sentence: str, headings: tuple[str, ...]) -> str | None:
    """Why an official-sota result does not back a sentence about a system (None: it does). The
    official gate validated one system (the report's ``result_provenance.validated_system``); a
    sentence backed by it names that system, in itself or in its section headings."""
    data = ctx.doc(CITABLE).data or {}
    ran = data.get("sota_run") if isinstance(data.get("sota_run"), dict) else data.get("verdict")
    system = ran.get("system") if isinstance(ran, dict) else None
    if not isinstance(system, str) or not system:
        return "the official-sota report names no validated system (result_provenance.validated_system.name)"
    name = phrase_text(normalise(system)).text.strip()
    pattern = r"(?<![a-z0-9])" + re.escape(name) + r"(?![a-z0-9])"
    if any(re.search(pattern, phrase_text(normalise(t)).text) for t in (sentence, *headings)):
        return None
    return (f"the official-sota gate validated {system}, and neither this sentence nor its section names {system}: "
            "a verdict backs claims about the system it validated only")


def _remote(runtime: dict[str, Any] | None, local: list[str]) -> list[str] | None:
    """The remote providers a run's runtime names, or None when it does not say."""
    if not isinstance(runtime, dict):
        return None
    said = False
    out = []
    for key, value in sorted(runtime.items()):
        if not key.endswith("_provider") or key.endswith("_configured") or not isinstance(value, str):
            continue
        said = True
        if value.lower() not in local:
            model = runtime.get(key.replace("_provider", "_model"))
            out.append(f"{key} {value}" + (f" ({model})" if isinstance(model, str) else ""))
    for key in ("qa_reader_model", "qa_judge_model", "generation_model"):
        if isinstance(runtime.get(key), str) and runtime[key]:
            said = True
            out.append(f"{key} {runtime[key]}")
    return out if said else None


def _remote_calls(calls: dict[str, Any], local: list[str]) -> list[str]:
    """The remote models a run's QA blocks and accounting name: a reader or judge model whose
    provider is not local (a QA block in ``fixture`` mode calls no model), and an accounting
    record that bills a provider (``cost_basis: openai:gpt-4o``, ``estimated_cost_usd`` above 0)."""
    out: list[str] = []
    for where, block in sorted(calls.items()):
        if where.endswith(" qa"):
            if block.get("enabled") is False or block.get("mode") == "fixture":
                continue
            for role in ("reader", "judge"):
                provider, model = block.get(f"{role}_provider"), block.get(f"{role}_model")
                if (isinstance(provider, str) and provider.lower() in local) or not (provider or model):
                    continue
                out.append(f"{role} {provider or 'of unnamed provider'}" + (f" {model}" if model else "")
                           + f" ({where} block)")
            continue
        for part, record in sorted(block.items()):
            if not isinstance(record, dict):
                continue
            basis = record.get("cost_basis") if isinstance(record.get("cost_basis"), str) else ""
            provider = basis.split(":")[0].lower() if ":" in basis else str(record.get("provider") or "").lower()
            cost = exact_number(record.get("estimated_cost_usd"))
            if provider and provider not in local and (":" in basis or (cost is not None and cost > 0)):
                out.append(f"{part} {basis or provider}" + (f" ${show_fraction(cost, 2)}" if cost else "")
                           + f" ({where})")
    return out


def runtime_backing(ctx: Context, p: PhraseParams) -> tuple[bool, str]:
    entries = citable_entries(ctx)
    if not entries:
        return False, f"{evidence_source(ctx)} cites no run whose runtime could show it"
    unknown, remote = [], []
    local = [x.lower() for x in p.local_providers]
    for e in entries:
        used = _remote(e.get("runtime"), local)
        calls = _remote_calls(e.get("calls") or {}, local)
        if calls:
            used = [*(used or []), *calls]
        if used is None:
            unknown.append(e["entry"])
        elif used:
            remote.append(f"{e['entry']} ({e['artifact']}) used {', '.join(used)}")
    if remote:
        return False, f"the citable run {'; '.join(remote)}"
    if unknown:
        return False, f"the runtime of {', '.join(unknown)} does not say which provider it called"
    return True, "backed: every citable run's runtime, QA block and accounting show only local providers"


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping matches of several patterns are one phrase."""
    out: list[tuple[int, int]] = []
    for a, b in spans:
        if out and a < out[-1][1]:
            out[-1] = (out[-1][0], max(b, out[-1][1]))
        else:
            out.append((a, b))
    return out


def _code_only(block: Block, start: int, end: int) -> bool:
    """True when a phrase is the whole of an inline code span (`` `SOTA` ``): a word set in code
    font, read like any other, not an example."""
    for a, b in block.code:
        if a <= start < b:
            return block.text[a:b].strip(" `") == block.text[start:end].strip(" `")
    return False


def _names_system(text: str, at: int) -> bool:
    """True when the words at ``at`` of a block's text name a system: a capitalised word, after an
    optional "the" (``Zep``, ``the Mem0 baseline``, ``GPT-4``)."""
    m = re.match(r"[\s*_`]*(?:the\s+)?[\s*_`]*([^\W\d_])", text[at:at + 80])
    return m is not None and m.group(1).isupper()


def _result_context(text: str, result_word: re.Pattern[str]) -> bool:
    """True when a phrase text names a benchmark, a metric or a result word: a superlative or a
    comparison there is about a result."""
    return bool(text) and (result_word.search(text) is not None or bool(mentions(text, DEFAULT_BENCHMARKS))
                           or bool(mentions(text, DEFAULT_METRICS)))


@kind("claim_phrase", PhraseParams, "overclaim language in docs")
def claim_phrase(ctx: Context, p: PhraseParams) -> Iterable[Finding]:
    """Overclaim language: every match of ``patterns`` (regular expressions over the phrase text:
    lower case, markup gone, dashes and underscores as spaces, acronym dots gone, so
    ``**State**-of-the-art``, ``S.O.T.A.`` and ``ＳＯＴＡ`` are all matched by ``state of the art`` /
    ``sota``) fails with ``reason``, except a disclaimer (right after "not" or "never") and a
    match preceded by ``unless_before`` ("comparable to the best"). ``unless_verdict:
    official-sota`` lets a match pass when the scan has an official-sota verdict it can trust
    (see ``verdict_backing``) or ran that gate itself (``--sota-report``) and it passed, and the
    sentence is about what that gate judged: LongMemEval question-answering accuracy. A sentence
    that names another benchmark (LoCoMo, LongMemEval-M, LongMemBench) or a retrieval metric
    (recall@5, nDCG) is not backed by it (``verdict_scope``), and neither is a sentence that does
    not name, in itself or its section headings, the system the official report validated
    (``result_provenance.validated_system.name``; ``system_scope``).
    ``unless_local_runtime: true`` lets it pass when every citable run it can concern made no
    remote call: its ``runtime``, its ``qa`` block (reader and judge providers) and its
    ``accounting`` (records billed to a provider) show only local providers; otherwise the message
    names what the runs used.
    """
    files = scan_docs(ctx, p.include_code)
    code_too = p.include_code or bool((ctx.doc(SCAN).data or {}).get("include_code"))
    out: list[Finding] = []
    backing: tuple[bool, str] | None = None
    compiled = [re.compile(pat) for pat in p.patterns]
    contextual = [re.compile(pat) for pat in p.in_result_context]
    named = [re.compile(pat) for pat in p.of_named_system]
    result_word = re.compile(p.result_words)
    before = re.compile(p.unless_before) if p.unless_before else None
    # The phrases the rules before this one spelled out, per file and block: a superlative or a
    # comparison found only by its grammar ("tops", "flawless", "highest") inside a phrase another
    # rule spells ("tops the leaderboard", "flawless recall", "highest ... published") is that
    # rule's finding, reported once.
    spelled: dict[tuple[str, int], list[tuple[int, int]]] = ctx.derived(("claim phrases spelled",), dict)
    for doc in files:
        for index, block in enumerate(doc.blocks):
            pt = phrase_text(normalise(block.text))
            found = {(m.start(), m.end()) for rx in compiled for m in rx.finditer(pt.text)}
            taken = list(spelled.get((doc.path, index), ()))
            spelled.setdefault((doc.path, index), []).extend(
                x for x in found if not negated(pt.text, x[0]))
            grammar: set[tuple[int, int]] = set()
            spans = sentences(pt.text)
            ends = [b for _, b in spans]
            for rx in named:
                for m in rx.finditer(pt.text):
                    if m.end() < len(pt.text) and _names_system(block.text, pt.source(m.end())):
                        grammar.add((m.start(), m.end()))
            about: dict[int, bool] = {}  # per sentence, once: a page of many matches stays linear
            for rx in contextual:
                for m in rx.finditer(pt.text):
                    a, b = spans[min(bisect.bisect_right(ends, m.start()), len(spans) - 1)]
                    if a not in about:
                        about[a] = _result_context(pt.text[a:b], result_word)
                    if about[a]:
                        grammar.add((m.start(), m.end()))
            found |= {(a, b) for a, b in grammar if not any(x < b and a < y for x, y in taken)}
            hits = _merged(sorted(found))
            if not hits:
                continue
            for start, end in hits:
                src, last = pt.source(start), pt.source(end - 1) + 1
                if block.in_code(src) and not code_too and not _code_only(block, src, last):
                    continue
                if negated(pt.text, start):
                    continue
                if before is not None and before.search(pt.text, max(0, start - 40), start):
                    continue
                if backing is None:
                    if p.unless_verdict:
                        backing = verdict_backing(ctx, p.unless_verdict, p.max_verdict_age_days)
                    elif p.unless_local_runtime:
                        backing = runtime_backing(ctx, p)
                    else:
                        backing = (False, "")
                line, col = doc.where(block.offset(src))
                loc, ptr = f"{doc.path}:{line}:{col}", f"/line/{line}/column/{col}"
                phrase = block.text[src:last]
                raw = block.raw(doc.source, src, last)
                a, b = spans[min(bisect.bisect_right(ends, start), len(spans) - 1)]
                said = block.text[pt.source(a):pt.source(b - 1) + 1]
                quote = f' in "{shown(said)}"'
                scope = (verdict_scope(phrase_text(normalise(said)).text) or system_scope(ctx, said, block.headings)) \
                    if p.unless_verdict and backing[0] else None
                if backing[0] and scope is None:
                    record = ClaimRecord("confirmed", raw, {"backing": backing[1]})
                    out.append(Finding("pass", f"{loc}: confirmed: \"{phrase}\" is {backing[1]}{quote}", doc.path,
                                       ptr, raw, UNSET, record))
                else:
                    extra = f"; {scope}" if scope else f"; {backing[1]}" if backing[1] else ""
                    record = ClaimRecord("untestable", raw, None, f"{p.reason}{extra}")
                    out.append(Finding("fail", f"{loc}: untestable: \"{phrase}\": {p.reason}{extra}{quote}", doc.path,
                                       ptr, raw, None, record))
    if out:
        return out
    return [passed(f"no such claim in {_scope(files)}", "", _first(files))]


# --- claim_subset -------------------------------------------------------------------------


@record
class SubsetParams:
    __pydantic_config__ = FORBID
    count_header: str = r"^(?:#\s*)?(?:questions?|cases|queries|qs|n|samples|examples|items|evaluated)\b|^#$"
    says_so: str = r"\b(?:subset|sample[ds]?|partial|sampled|excluding|excluded|only)\b"
    slices: list[str] = field(default_factory=lambda: list(DEFAULT_SLICES))
    slice_aliases: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_SLICE_ALIASES))

    def __post_init__(self) -> None:
        re.compile(self.count_header)
        re.compile(self.says_so)


def _int(text: str) -> int | None:
    m = re.search(r"\d[\d,]*", text)
    return int(m.group(0).replace(",", "")) if m else None


@kind("claim_subset", SubsetParams, "subset results compared with full-set results")
def claim_subset(ctx: Context, p: SubsetParams) -> Iterable[Finding]:
    """A result on a subset compared with full-set results: a table (or a sentence) that puts
    results on different question counts side by side (470 next to 500) fails unless the
    table, its caption, its header or the row says so ("subset", "sample", "partial"). A number
    that only a subset result backs (an entry that evaluated fewer questions than its dataset
    holds) fails unless its sentence or table says so or gives the count.
    """
    files = scan_docs(ctx)
    slice_rx = slice_patterns(tuple(p.slices), tuple(sorted(p.slice_aliases.items())))
    out: list[Finding] = []
    compared = 0
    for doc in files:
        for t in doc.tables:
            heads = [phrase_text(normalise(c.text)).text.strip() for c in t.header]
            col = next((i for i, h in enumerate(heads) if re.search(p.count_header, h)), None)
            rows: list[tuple[int, str, Any]] = []  # (count, label, block)
            for cells in t.rows:
                label = normalise(cells[0].text).text.strip() if cells else ""
                if any(re.search(rx, label.lower()) for rx in slice_rx):
                    continue
                block = cells[col] if col is not None and col < len(cells) else None
                n = _int(normalise(block.text).text) if block is not None else None
                if n is None and cells:
                    counts = question_counts(normalise(cells[0].text).text)
                    n, block = (counts[0][2], cells[0]) if counts else (None, None)
                results = any("%" in normalise(c.text).text or re.search(r"(?<![\d.])0?\.\d", normalise(c.text).text)
                              for c in cells[1:] if c is not block)
                if n is not None and block is not None and results:
                    rows.append((n, label, block))
            said = " ".join([t.caption, *heads, *t.headings])
            if len({n for n, _, _ in rows}) < 2:
                continue
            compared += 1
            full = max(n for n, _, _ in rows)
            full_label = next(label for n, label, _ in rows if n == full)
            for n, label, block in rows:
                if n == full or re.search(p.says_so, f"{said} {label}".lower()):
                    continue
                line, c = doc.where(block.offset(0))
                out.append(failed(f"{doc.path}:{line}:{c}: row \"{shown(label)}\" reports a result on {n} questions "
                                  f"next to {full} questions in row \"{shown(full_label)}\" of the same table: a "
                                  "result on a subset compared with full-set results must say so (name the subset "
                                  "in the row, the header or the caption)", f"/line/{line}/column/{c}", doc.path,
                                  block.text.strip(), full))
        for block in doc.blocks:
            if block.table is not None:
                continue
            n = normalise(block.text)
            for a, b in sentences(n.text):
                counts = question_counts(n.text[a:b])
                distinct = sorted({x[2] for x in counts})
                if len(distinct) < 2 or not re.search(r"%|\b0?\.\d", n.text[a:b]) \
                        or re.search(p.says_so, n.text[a:b].lower()):
                    continue
                compared += 1
                small = next(x for x in counts if x[2] == distinct[0])
                line, c = doc.where(block.offset(n.source(a + small[0])))
                out.append(failed(f"{doc.path}:{line}:{c}: a result on {distinct[0]} questions is compared with "
                                  f"{distinct[-1]} questions in one sentence without saying it is a subset in "
                                  f"\"{shown(n.text[a:b])}\"", f"/line/{line}/column/{c}", doc.path,
                                  block.text[n.source(a + small[0]):n.source(a + small[1] - 1) + 1], distinct[-1]))
    subset_claims = _subset_claims(ctx, p, files)
    out += subset_claims
    if out:
        return out
    return [passed(f"no result on a subset compared with full-set results in {_scope(files)}"
                   + (f" ({compared} comparisons say so)" if compared else ""), "", _first(files))]


def _subset_claims(ctx: Context, p: SubsetParams, files: list[Document]) -> list[Finding]:
    """Numbers that only a subset result backs (an entry that evaluated fewer questions than its
    dataset holds: 470 of 500) presented without saying so in their sentence, row, column, caption
    or section."""
    values, entries = citable_values(ctx), citable_entries(ctx)
    by_ref = {e["entry"]: e for e in entries}

    def subset(ref: str) -> tuple[int, int] | None:
        e = by_ref.get(ref, {})
        n, total = e.get("evaluated"), e.get("total")
        return (n, total) if isinstance(n, int) and isinstance(total, int) and n < total else None

    if not any(subset(e["entry"]) for e in entries):
        return []
    pats = patterns(ctx, NumbersParams())
    out: list[Finding] = []
    for doc in files:
        for claim in claims_in(doc, pats):
            if claim.ambiguous is not None:
                continue
            backing = [c for c in narrowed(claim, values, entries) if _wanted(claim.metric, c) and _holds(c, claim)]
            if not backing or any(subset(c.entry) is None for c in backing):
                continue
            c = backing[0]
            n, total = subset(c.entry) or (0, 0)
            table = doc.tables[claim.table] if claim.table is not None else None
            said = " ".join([claim.quote, *claim.row, claim.column,
                             *((table.caption, *table.headings) if table is not None else ())]).lower()
            if re.search(p.says_so, said) or re.search(rf"(?<![\d.]){n}(?![\d.])", said):
                continue
            loc, ptr = _loc(claim)
            out.append(failed(f"{loc}: {claim.written} comes from {c.entry} ({c.artifact}), a result on {n} of the "
                              f"dataset's {total} questions, but the text does not say it is a subset (name the "
                              f"subset or write \"{n} questions\") {claim.quote}", ptr, claim.path, claim.raw,
                              total))
    return out


# --- claim_boundary -----------------------------------------------------------------------


@record
class Required:
    __pydantic_config__ = FORBID
    files: list[str]
    phrases: list[str]
    name: str = ""


@record
class Forbidden:
    __pydantic_config__ = FORBID
    phrase: str
    reason: str
    files: list[str] = field(default_factory=lambda: ["*"])


@record
class BoundaryParams:
    __pydantic_config__ = FORBID
    require: list[Required] = field(default_factory=list)
    forbid: list[Forbidden] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.require and not self.forbid:
            raise ValueError("give require or forbid phrases")
        for r in self.require:
            if not r.files or not r.phrases:
                raise ValueError("each require item names files and phrases")


def _named(path: str, globs: list[str]) -> bool:
    path = path.replace("\\", "/")
    return any(fnmatch.fnmatchcase(path, g) or fnmatch.fnmatchcase(path, "*/" + g.lstrip("/")) for g in globs)


def _squash(text: str) -> str:
    return " ".join(phrase_text(normalise(text)).text.split())


def _find(doc: Document, phrase: str, visible: bool = False) -> tuple[int, int, str] | None:
    """(line, column, the text as written) of a phrase in a file: on the plain text first, then
    on the file as written. ``visible``: only where a reader of the rendered page sees it (not
    in a comment, a tag's attributes, code or front matter)."""
    want = _squash(phrase)
    for block in doc.blocks:
        if visible and not block.visible:
            continue
        pt = phrase_text(normalise(block.text))
        at = pt.text.find(want) if want else -1
        if at >= 0:
            start, end = pt.source(at), pt.source(at + len(want) - 1) + 1
            return (*doc.where(block.offset(start)), block.raw(doc.source, start, end))
    at = (doc.visible if visible else doc.source).find(phrase)
    if at >= 0:
        return (*doc.where(at), phrase)
    return None


def _unseen(doc: Document, phrase: str) -> str:
    """Where a required phrase is written that no reader of the rendered page sees, if anywhere."""
    at = _find(doc, phrase)
    if at is None:
        return ""
    return f" (written only where a reader does not see it, at line {at[0]}: a comment, a tag attribute, code or front matter)"


@kind("claim_boundary", BoundaryParams, "required and forbidden phrases per file")
def claim_boundary(ctx: Context, p: BoundaryParams) -> Iterable[Finding]:
    """Boundary phrases per file: each ``require`` item names files (globs) and phrases that must
    appear in each of them; each ``forbid`` item a phrase that must appear in none of ``files``
    (default: every file), with the reason. Phrases are compared on the plain text (markup
    gone, case and spacing ignored) and on the file as written. A required phrase counts only
    where a reader of the rendered page sees it: not in an HTML comment, a tag attribute, code
    or front matter; a forbidden phrase is found anywhere.
    """
    files = scan_docs(ctx)
    out: list[Finding] = []
    for r in p.require:
        named = [d for d in files if _named(d.path, r.files)]
        title = f"{r.name}: " if r.name else ""
        if not named:
            out.append(failed(f"{title}no scanned file matches {', '.join(r.files)}, which must hold "
                              f"{len(r.phrases)} required phrase{'s' if len(r.phrases) != 1 else ''}: scan it",
                              "", _first(files), None, r.files))
            continue
        for doc in named:
            missing = [ph for ph in r.phrases if _find(doc, ph, visible=True) is None]
            if missing:
                out.append(failed(f"{doc.path}: {title}required phrase{'s' if len(missing) != 1 else ''} missing: "
                                  + "; ".join(f'"{m}"' + _unseen(doc, m) for m in missing), "", doc.path, None,
                                  missing))
            else:
                out.append(passed(f"{doc.path}: {title}all {len(r.phrases)} required phrases present", "",
                                  doc.path))
    for f in p.forbid:
        for doc in files:
            if not _named(doc.path, f.files):
                continue
            at = _find(doc, f.phrase)
            if at is not None:
                line, col, written = at
                out.append(failed(f"{doc.path}:{line}:{col}: forbidden phrase \"{f.phrase}\": {f.reason}",
                                  f"/line/{line}/column/{col}", doc.path, written, None))
    if not any(x.status == "fail" for x in out) and p.forbid:
        out.append(passed(f"none of {len(p.forbid)} forbidden phrase{'s' if len(p.forbid) != 1 else ''} in "
                          f"{_scope(files)}", "", _first(files)))
    return out


# --- claim_ledger -------------------------------------------------------------------------


@record
class LedgerParams:
    __pydantic_config__ = FORBID
    source: str = "ledger"

    def __post_init__(self) -> None:
        if self.source not in ("ledger", "evidence"):
            raise ValueError("source must be ledger or evidence")


@kind("claim_ledger", LedgerParams, "the claim ledger the docs cite passes its gate")
def claim_ledger(ctx: Context, p: LedgerParams) -> Iterable[Finding]:
    """The ledger the numbers come from passes its own gate."""
    data = ctx.doc(CITABLE).data or {}
    if p.source == "evidence":
        return _evidence_entries(data.get("evidence"))
    info = data.get("ledger")
    if not isinstance(info, dict):
        if isinstance(data.get("evidence"), dict):
            return [skipped("no --ledger given: the numbers are checked against the evidence file only")]
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


def _evidence_entries(info: Any) -> list[Finding]:
    """One finding per entry of the evidence file: its gate passes (and backs numbers) or not."""
    if not isinstance(info, dict):
        return [skipped("no --evidence given")]
    path, entries = str(info.get("path", "?")), info.get("entries") or []
    if not entries:
        return [skipped(f"the evidence file {path} lists no entry: every number in the documents is untestable",
                        "", path)]
    out: list[Finding] = []
    for e in entries:
        profile = f"user profile {e.get('user_profile')}" if e.get("user_profile") else f"profile {e.get('profile')}"
        head = f"evidence {e.get('name')!r} ({e.get('artifact')}, {profile})"
        if e.get("passed") is not True:
            failing = e.get("failed") or []
            more = f": {failing[0]}" if failing else ""
            out.append(failed(f"{head} fails its gate ({e.get('summary')}){more}; no number rests on it", "", path,
                              False, True))
        else:
            n = e.get("values", 0)
            out.append(passed(f"{head} passes its gate ({e.get('summary')}); {n} citable value{'s' if n != 1 else ''}",
                              "", path, True, True))
    return out
