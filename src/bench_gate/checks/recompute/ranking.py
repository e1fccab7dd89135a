"""``ranking``: retrieval metrics recomputed from each row's ranked ids and gold ids."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from fractions import Fraction
from typing import Any, Literal

from bench_gate.records import field, record
from bench_gate.text import canonical
from bench_gate.checks.base import (
    kind,
    FORBID,
    MISSING,
    Context,
    Fail,
    described,
    failed,
    jsonable,
    join,
    lookup,
    passed,
    resolve,
    show,
    type_name,
)
from bench_gate.checks.recompute.rows import (
    Row,
    Rows,
    RowTest,
    check_places,
    check_pointer,
    check_source,
    describe_where,
    field_value,
    judged,
    matches,
    read_rows,
    selected,
    show_value,
)
from bench_gate.models import Finding, exact_number
from bench_gate.text import rounding

Number = int | float
METRICS = ("hit", "recall_any", "recall_all", "recall", "ndcg")
ZERO_ONE = ("hit", "recall_any", "recall_all")
_KEY = re.compile(r"^(.+)@([1-9][0-9]{0,5})$")
MAX_SHOWN = 3


@record
class Rename:
    """A gold id ranked only under another name is not relevant: ``old`` replaced by ``new``."""

    __pydantic_config__ = FORBID
    old: str
    new: str

    def __post_init__(self) -> None:
        if not self.old or self.old == self.new:
            raise ValueError("renamed needs a non-empty old text and a different new one")


@record
class RankingParams:
    __pydantic_config__ = FORBID
    rows: str
    id: str
    ranked: str
    gold: str
    ranked_key: str | None = None
    gold_prefix: str = ""
    gold_suffix: str = ""
    renamed: Rename | None = None
    complete: bool = False
    empty_gold: Literal["fail", "vacuous"] = "fail"
    names: dict[str, str] = field(default_factory=dict)
    ndcg: Literal["standard", "longmemeval"] = "standard"
    row_claims: str | None = None
    required: list[str] = field(default_factory=list)
    average_where: list[RowTest] = field(default_factory=list)
    claims: dict[str, Number] = field(default_factory=dict)
    claims_at: str | None = None
    places: int | None = None
    min_places: int | None = None
    tolerance: Number = 1e-9
    dataset: str | None = None
    dataset_suffix: str = ""
    dataset_subset: bool = False

    def __post_init__(self) -> None:
        check_source(self.rows)
        if self.dataset is not None and not self.dataset:
            raise ValueError("dataset names a document role")
        if self.dataset is None and (self.dataset_suffix or self.dataset_subset):
            raise ValueError("dataset_suffix and dataset_subset need dataset")
        for name in ("id", "ranked", "gold", "ranked_key", "row_claims"):
            check_pointer(name, getattr(self, name))
        for name, metric in self.names.items():
            if metric not in METRICS:
                raise ValueError(f"names: {name} maps to {metric!r}; the metrics are {', '.join(METRICS)}")
            if not name or "@" in name:
                raise ValueError(f"names: {name!r} must be a non-empty name without @")
        for key in self.required:
            if self.parse(key) is None:
                raise ValueError(f"required: {key!r} is not NAME@K with NAME one of {', '.join(self.known())}")
        if self.row_claims is None and self.claims_at is None and self.required:
            raise ValueError("required names claims that row_claims or claims_at hold")
        check_places(self.places, self.min_places)
        if self.tolerance < 0:
            raise ValueError("tolerance must be >= 0")

    def known(self) -> dict[str, str]:
        """The format's metric names: ``names``, or the metrics by their own names."""
        return dict(self.names) if self.names else {m: m for m in METRICS}

    def parse(self, key: str) -> tuple[str, int] | None:
        """(metric, k) of a claimed ``NAME@K`` key, or None when it names no recomputed metric."""
        m = _KEY.match(key)
        if not m or m.group(1) not in self.known():
            return None
        return self.known()[m.group(1)], int(m.group(2))


@record
class Scored:
    """One row with the positions of its relevant gold ids in its ranking."""

    row: Row
    positions: list[int]  # 0-based ranks of the relevant gold ids that are ranked, ascending
    relevant: int  # number of relevant gold ids
    ranked: int  # length of the ranking


def _discount(i: int, form: str) -> float:
    if form == "longmemeval":
        return 1.0 if i == 0 else 1.0 / math.log2(i + 1)
    return 1.0 / math.log2(i + 2)


def value(s: Scored, metric: str, k: int, form: str) -> Fraction | float | None:
    """The metric of one row at k; None when it is undefined (strict recall with no gold)."""
    found = sum(1 for pos in s.positions if pos < k)
    if s.relevant == 0:  # only with empty_gold: vacuous
        return {"hit": Fraction(0), "recall_any": Fraction(0), "recall_all": Fraction(1),
                "recall": None, "ndcg": 0.0}[metric]
    if metric in ("hit", "recall_any"):
        return Fraction(1 if found else 0)
    if metric == "recall_all":
        return Fraction(1 if found == s.relevant else 0)
    if metric == "recall":
        return Fraction(found, s.relevant)
    dcg = sum(_discount(pos, form) for pos in s.positions if pos < k)
    ideal = sum(_discount(i, form) for i in range(min(s.relevant, k)))
    return dcg / ideal


def _string_list(rows: Rows, row: Row, pointer: str, key: str | None, what: str) -> list[str]:
    items = field_value(rows, row, pointer)
    if not isinstance(items, list):
        raise Fail(f"{rows.role} {row.label()}: {pointer} must be a list of {what}, got {described(items)}",
                   rows.field_pointer(row, pointer), rows.role, None, "a list")
    out: list[str] = []
    for i, item in enumerate(items):
        ident = resolve(item, key) if key is not None else item
        if not isinstance(ident, str) or not ident:
            where = f"{pointer}/{i}{key or ''}"
            raise Fail(f"{rows.role} {row.label()}: {where} must be a non-empty string id, got "
                       f"{described(ident) if ident is not MISSING else 'missing'}",
                       rows.field_pointer(row, where), rows.role, None, "a string id")
        out.append(ident)
    return out


def score(rows: Rows, row: Row, p: RankingParams, truth: Truth | None = None) -> Scored:
    """The positions of a row's relevant gold ids; a Fail for a malformed row.

    With ``truth`` (the row's entry of the dataset) the gold ids must be the dataset's, and a
    gold id is renamed exactly when the dataset says its session holds no answer turn.
    """
    ranked = _string_list(rows, row, p.ranked, p.ranked_key, "ranked ids")
    own = _string_list(rows, row, p.gold, None, "gold ids")
    if truth is not None:
        _same_gold(rows, row, p, own, truth)
    gold = [p.gold_prefix + g + p.gold_suffix for g in own]
    unanswered = {p.gold_prefix + g + p.gold_suffix for g in truth.unanswered} if truth is not None else None
    position: dict[str, int] = {}
    for i, ident in enumerate(ranked):
        if ident in position:
            raise Fail(f"{rows.role} {row.label()}: {p.ranked} ranks {ident!r} twice (ranks {position[ident] + 1} "
                       f"and {i + 1}); a ranking lists each id once", rows.field_pointer(row, p.ranked), rows.role,
                       ident, "each id once")
        position[ident] = i
    for first, later, a, b in canonical.collisions(enumerate(ranked))[:1]:
        raise Fail(f"{rows.role} {row.label()}: {p.ranked} ranks {canonical.shown(a)} and {canonical.shown(b)} "
                   f"(ranks {first + 1} and {later + 1}), which {canonical.describe(a, b)}: one id ranked twice",
                   rows.field_pointer(row, p.ranked), rows.role, b, "each id once")
    if len(set(gold)) != len(gold):
        twice = next(g for g in gold if gold.count(g) > 1)
        raise Fail(f"{rows.role} {row.label()}: {p.gold} lists {twice!r} twice", rows.field_pointer(row, p.gold),
                   rows.role, twice, "each gold id once")
    if p.renamed is not None:
        _no_stray_marker(rows, row, p, ranked, gold)
    relevant: list[str] = []
    for g in gold:
        if unanswered is not None and p.renamed is not None:
            _renamed_as_dataset_says(rows, row, p, g, g in unanswered, position)
        if g in position:
            relevant.append(g)
            continue
        if p.renamed is not None and p.renamed.old in g and g.replace(p.renamed.old, p.renamed.new) in position:
            continue  # ranked under its renamed id: not relevant
        if p.complete:
            raise Fail(f"{rows.role} {row.label()}: gold id {g!r} is not in the ranking {p.ranked} (neither as "
                       "itself nor renamed), which should hold every candidate", rows.field_pointer(row, p.ranked),
                       rows.role, g, "every gold id ranked")
        relevant.append(g)
    if not relevant and p.empty_gold == "fail":
        why = "is empty" if not gold else "has no relevant id (all renamed)"
        raise Fail(f"{rows.role} {row.label()}: {p.gold} {why}, so its metrics are undefined",
                   rows.field_pointer(row, p.gold), rows.role, None, "at least one gold id")
    positions = sorted(position[g] for g in relevant if g in position)
    return Scored(row, positions, len(relevant), len(ranked))


@record
class Truth:
    """A row's entry in the dataset: its answer sessions, and those holding no answer turn."""

    answers: tuple[str, ...]
    unanswered: frozenset[str]


def dataset_truth(ctx: Context, p: RankingParams, rows: Rows) -> dict[str, Truth]:
    """Each row's dataset entry; a Fail when the rows and the dataset are not the same questions.

    The dataset's session ids get ``dataset_suffix`` (a format that writes sessions as files);
    with ``dataset_subset`` the rows may be a subset of the questions.
    """
    assert p.dataset is not None
    role, end = p.dataset, p.dataset_suffix
    doc = ctx.doc(role)
    if doc.extra.get("format") != "dataset":
        raise Fail(f"document '{role}' ({doc.path}) must be a dataset (a JSON array of questions)", document=role)
    truth: dict[str, Truth] = {}
    lacking: list[str] = []
    seen: set[str] = set()
    for qid, answers, unanswered in zip(doc.extra["ids"], doc.extra["answers"], doc.extra["unanswered"]):
        if qid is None:
            continue
        if qid in seen:
            raise Fail(f"dataset '{role}' lists question {canonical.shown(qid)} twice", document=role)
        seen.add(qid)
        if answers is None or unanswered is None:
            lacking.append(qid)
            continue
        truth[qid] = Truth(tuple(a + end for a in answers), frozenset(u + end for u in unanswered))
    if lacking:
        raise Fail(f"dataset '{role}' gives no answer_session_ids with their haystack_sessions for "
                   f"{len(lacking)} question{'s' if len(lacking) != 1 else ''} (first {canonical.shown(lacking[0])}): "
                   "give the full dataset, not a list of ids and types", document=role)
    ids = [row.ident for row in rows.items]
    unknown = [i for i in ids if i not in truth]
    if unknown:
        raise Fail(f"{len(unknown)} of {len(ids)} {rows.noun} of '{rows.role}' have ids that are not questions of dataset '{role}' "
                   f"(first {canonical.shown(unknown[0])}): a row the dataset does not hold cannot be scored against it",
                   rows.pointer, rows.role, unknown[0], "a dataset question id")
    missing = sorted(set(truth) - set(ids))
    if missing and not p.dataset_subset:
        raise Fail(f"dataset '{role}' has {len(truth)} questions and '{rows.role}' {len(ids)} {rows.noun}: "
                   f"{len(missing)} questions have no row (first {canonical.shown(missing[0])}); a log that leaves "
                   "questions out averages over a subset", rows.pointer, rows.role, len(ids), len(truth))
    return truth


def _same_gold(rows: Rows, row: Row, p: RankingParams, own: list[str], truth: Truth) -> None:
    if sorted(own) == sorted(truth.answers):
        return
    extra = [g for g in own if g not in truth.answers]
    lost = [g for g in truth.answers if g not in own]
    parts = ([f"not in the dataset: {', '.join(map(repr, extra))}"] if extra else []) + \
        ([f"left out: {', '.join(map(repr, lost))}"] if lost else [])
    raise Fail(f"{rows.role} {row.label()}: {p.gold} is not the dataset's answer_session_ids "
               f"({'; '.join(parts) or 'listed a different number of times'}); the gold ids come from the dataset, "
               "not from the log", rows.field_pointer(row, p.gold), rows.role, own, list(truth.answers))


def _renamed_as_dataset_says(rows: Rows, row: Row, p: RankingParams, g: str, unanswered: bool,
                             position: dict[str, int]) -> None:
    assert p.renamed is not None
    new = g.replace(p.renamed.old, p.renamed.new) if p.renamed.old in g else None
    unanswered = unanswered and new is not None  # the script renames only an id holding the marker
    if unanswered and g in position:
        raise Fail(f"{rows.role} {row.label()}: the dataset marks gold id {g!r} as holding no answer turn, yet "
                   f"{p.ranked} ranks it as itself (it is renamed {new!r})", rows.field_pointer(row, p.ranked),
                   rows.role, g, new)
    if not unanswered and g not in position and new is not None and new in position:
        raise Fail(f"{rows.role} {row.label()}: {p.ranked} ranks gold id {g!r} renamed as {new!r}, but the dataset "
                   "gives it an answer turn: a renaming the dataset does not make drops an answer session the "
                   "ranking missed", rows.field_pointer(row, p.ranked), rows.role, new, g)


def _no_stray_marker(rows: Rows, row: Row, p: RankingParams, ranked: list[str], gold: list[str]) -> None:
    """A ranked id holding the marker (``answer``) must be a gold id: the LongMemEval script counts it as one."""
    assert p.renamed is not None
    stray = [r for r in ranked if p.renamed.old in r and r not in gold]
    if stray:
        raise Fail(f"{rows.role} {row.label()}: {p.ranked} ranks {stray[0]!r} (rank {ranked.index(stray[0]) + 1}), "
                   f"which holds {p.renamed.old!r} but is not one of the row's gold ids {p.gold}: the retrieval "
                   f"script counts every ranked id holding {p.renamed.old!r} as correct, so the row's metrics and "
                   "its gold list disagree", rows.field_pointer(row, p.ranked), rows.role, stray[0], "a gold id")


def _where_first(s: Scored) -> str:
    if s.relevant == 0:
        return "no relevant gold id"
    if not s.positions:
        return f"no gold id in the {s.ranked} ranked"
    return f"first gold id at rank {s.positions[0] + 1}, {len(s.positions)} of {s.relevant} ranked"


def _row_problem(rows: Rows, s: Scored, p: RankingParams) -> Finding | None:
    """The first claim of one row that its ranking does not support, with how many differ."""
    assert p.row_claims is not None
    claims = field_value(rows, s.row, p.row_claims)
    where = rows.field_pointer(s.row, p.row_claims)
    if not isinstance(claims, dict):
        return failed(f"{rows.role} {s.row.label()}: {p.row_claims} must be an object of NAME@K values, got "
                      f"{described(claims)}", where, rows.role, None, "an object")
    problems: list[Finding] = []
    for key in p.required:
        if key not in claims:
            problems.append(failed(f"{rows.role} {s.row.label()}: {p.row_claims} has no {key}", join(where, key)
                                   if where else "", rows.role, None, "present"))
    for key, raw in claims.items():
        parsed = p.parse(key)
        at = join(where, key) if where else ""
        if parsed is None:
            problems.append(failed(f"{rows.role} {s.row.label()}: {p.row_claims}/{key} is not a metric this rule "
                                   f"recomputes (names: {', '.join(p.known())}), so it cannot be verified", at,
                                   rows.role, jsonable(raw), "a recomputed NAME@K"))
            continue
        metric, k = parsed
        recomputed = value(s, metric, k, p.ndcg)
        if recomputed is None:
            problems.append(failed(f"{rows.role} {s.row.label()}: {key} is undefined without relevant gold ids",
                                   at, rows.role, jsonable(raw), None))
            continue
        if isinstance(raw, bool) and metric in ZERO_ONE:
            ok = raw == (recomputed == 1)
            shown_rec: Any = recomputed == 1
            judgement = None
        elif exact_number(raw) is None:
            problems.append(failed(f"{rows.role} {s.row.label()}: {p.row_claims}/{key} must be a number"
                                   f"{' or a boolean' if metric in ZERO_ONE else ''}, got {described(raw)}", at,
                                   rows.role, None, "a number"))
            continue
        else:
            judgement = judged(raw, recomputed, p.places, _tolerance(p, metric), min_places=p.min_places)
            ok = judgement is not None and judgement.ok
            shown_rec = show_value(recomputed)
        if not ok:
            problems.append(failed(f"{rows.role} {s.row.label()}: {key} claims {show(raw)}, recomputed "
                                   f"{show(shown_rec) if isinstance(shown_rec, bool) else shown_rec} "
                                   f"({_where_first(s)}){_rule(judgement)}",
                                   at, rows.role, jsonable(raw),
                                   shown_rec if isinstance(shown_rec, bool) else float(recomputed)))
    if not problems:
        return None
    first = problems[0]
    more = f" and {len(problems) - 1} more claim{'s' if len(problems) > 2 else ''} of the row" if len(problems) > 1 else ""
    return Finding("fail", first.message + more, first.document, first.pointer, first.actual, first.expected)


def _average_claims(ctx: Context, p: RankingParams) -> list[tuple[str, Any, str, str]]:
    """(key, claimed value, role, pointer) of every claimed average."""
    out: list[tuple[str, Any, str, str]] = []
    if p.claims_at is not None:
        obj, role, pointer = lookup(ctx, p.claims_at)
        if not isinstance(obj, dict):
            raise Fail(f"{role}:{pointer} must be an object of claimed averages keyed NAME@K, got "
                       f"{type_name(obj)}", pointer, role, None, "an object")
        for key in p.required:
            if key not in obj:
                raise Fail(f"{role}:{pointer} has no {key}", join(pointer, key), role, None, "present")
        out += [(key, raw, role, join(pointer, key)) for key, raw in obj.items()]
    out += [(key, raw, "report", "") for key, raw in sorted(p.claims.items())]
    return out


@kind("ranking", RankingParams, "hit/recall_any/recall_all/strict recall/nDCG@k recomputed per row from ranked and gold ids, "
              "and their averages")
def ranking(ctx: Context, p: RankingParams) -> Iterable[Finding]:
    """``ranking``: retrieval metrics recomputed from each row's ranked ids and gold ids.

    For every row, the ranked list R (best first) and the gold ids G give, at a cut-off k
    (top k = ``R[:k]``):

    ``hit`` / ``recall_any``
        1 when some gold id is in the top k, else 0;
    ``recall_all``
        1 when every gold id is in the top k, else 0;
    ``recall``
        strict recall: the share of gold ids in the top k (one of two found is 1/2);
    ``ndcg``
        DCG / ideal DCG with binary relevance. ``ndcg: standard`` (the default) discounts rank r
        (1-based) by 1/log2(r + 1); ``ndcg: longmemeval`` uses the LongMemEval evaluator's
        formula, which gives ranks 1 and 2 full weight and rank r ≥ 2 the weight 1/log2(r). The
        ideal DCG is that of min(|G|, k) gold ids at the top.

    Metrics are exact fractions (``recall`` of 2/3 is 2/3, not 0.6666…), except nDCG, a float.
    Example, a format whose rows carry
    ``gold`` and ``search`` lists and their flags in ``search_score``::

        check: ranking
        with:
          rows: rows                      # a document role, /pointer or ROLE:/pointer
          id: /qid                        # each row's id: present, unique
          ranked: /search                 # the ranked ids (strings) ...
          # ranked_key: /corpus_id        # ... or objects holding the id at this pointer
          gold: /gold
          # gold_suffix: .md              # id mapping: gold ids get a prefix/suffix first
          names: {any: recall_any, all: recall_all}   # how the format names the metrics
          row_claims: /search_score       # each row's claimed values, keyed NAME@K: {"any@1": true}
          required: [any@1, any@5, all@5, all@10]
          claims_at: summary:/search      # optional: claimed averages, keyed NAME@K
          claims: {}                      # optional: claimed averages, e.g. from --claim NAME=VALUE

    Every key of a row's claims (and of ``claims_at``) must name a metric the kind recomputes
    (``NAME@K`` with ``NAME`` in ``names``): a claimed number nobody recomputes fails. A per-row
    claim may be a boolean for the 0/1 metrics (``hit``, ``recall_any``, ``recall_all``) or a
    number. Averages are the plain mean over the rows that pass ``average_where`` (a list of
    ``where`` tests, e.g. ``{field: /question_id, not_contains: _abs}``). Claims are compared by
    the rule ``bench-gate kinds aggregate`` states (exact, the value as a double, rounded to the
    claim's own decimals when it has at least ``min_places``, rounded to the declared ``places``,
    or within ``tolerance``); nDCG, a float, is compared within ``tolerance`` (default 1e-9).

    Gold ids that are not relevant: with ``renamed: {old: answer, new: noans}``, a gold id that is
    not in the ranking but whose renamed form is (``answer_x`` ranked as ``noans_x``) is not
    relevant; the LongMemEval retrieval script renames an answer session without an answer turn so.
    With ``complete: true`` the ranking holds every candidate, and a gold id that is in it neither
    as itself nor renamed fails the row. A row with no relevant gold id fails (``empty_gold:
    fail``, the default), or scores as that script does (``empty_gold: vacuous``: any-metrics 0,
    ``recall_all`` 1, nDCG 0; strict recall still fails: it is undefined).

    Fail closed: a missing or wrongly typed list, a non-string id, an id ranked twice (also as a
    look-alike: with a zero-width space, in fullwidth letters or another case), a gold id listed
    twice, a row id repeated: each fails the rule with the row. With ``renamed``, a ranked id
    holding the ``old`` text that is not a gold id fails the row: the LongMemEval script counts
    every such id as relevant, so the row's metrics and its gold list would disagree.

    Relevance from a dataset: ``dataset: ROLE`` names a ``format: dataset`` document (the
    LongMemEval dataset the rows were run on). The rows must then be exactly its questions (a row
    id it does not hold fails, and so does a question with no row), each row's gold ids must be the
    dataset's ``answer_session_ids``, and with ``renamed`` a gold id is renamed exactly when the
    dataset's ``haystack_sessions`` give no user turn of that session ``has_answer: true`` (as
    the LongMemEval retrieval script decides it).
    ``dataset_suffix: .md`` appends to the dataset's session ids what the rows append (a format
    that writes sessions as files); ``dataset_subset: true`` lets the rows be some of the
    dataset's questions (a smoke run), each still checked. Without a dataset, the
    gold ids and renamings are the rows' own: a profile should say so (see the
    ``longmemeval-retrieval`` profile's ``lme-ret-dataset-given`` warning). A failure names the first
    differing rows, with where the first gold id was ranked.
    """
    rows = read_rows(ctx, p.rows, p.id)
    truth = dataset_truth(ctx, p, rows) if p.dataset is not None else None
    scored = [score(rows, row, p, truth[str(row.ident)] if truth is not None else None) for row in rows.items]
    out: list[Finding] = []
    if p.row_claims is not None:
        problems = [f for f in (_row_problem(rows, s, p) for s in scored) if f is not None]
        if problems:
            shown = "; ".join(f.message.removeprefix(f"{rows.role} ") for f in problems[:MAX_SHOWN])
            head = problems[0]
            out.append(Finding("fail", f"{len(problems)} of {len(scored)} {rows.noun} of '{rows.role}' claim values "
                               f"their rankings do not give: {shown}", head.document, head.pointer,
                               head.actual, head.expected))
            out.extend(problems[MAX_SHOWN:])
    averaged = [s for s in scored if not p.average_where or selected(rows, s.row, p.average_where)]
    claimed = _average_claims(ctx, p) if (p.claims_at is not None or p.claims) else []
    if (p.claims_at is not None or p.claims) and not averaged:
        raise Fail(f"no {rows.noun} of {rows.role} match {describe_where(p.average_where)}: there is nothing to "
                   "average", rows.pointer, rows.role, 0, ">= 1 row")
    means: dict[str, Fraction | float] = {}
    notes: dict[str, str] = {}
    for key, raw, role, pointer in claimed:
        label = f"{role}:{pointer}" if pointer else f"claimed {key}"
        parsed = p.parse(key)
        if parsed is None:
            out.append(failed(f"{label} names no metric this rule recomputes (names: {', '.join(p.known())}; "
                              "NAME@K), so it cannot be verified", pointer, role, jsonable(raw), "a recomputed NAME@K"))
            continue
        metric, k = parsed
        values = [value(s, metric, k, p.ndcg) for s in averaged]
        if any(v is None for v in values):
            out.append(failed(f"{label}: {key} is undefined for rows without relevant gold ids", pointer, role))
            continue
        mean = _mean(values)  # type: ignore[arg-type]
        means[key] = mean
        if exact_number(raw) is None:
            out.append(failed(f"{label} must be a number, got {described(raw)}", pointer, role, None, "a number"))
            continue
        tol = _tolerance(p, metric)
        judgement = judged(raw, mean, p.places, tol, min_places=p.min_places)
        if judgement is None or not judgement.ok:
            over = f"{len(averaged)} {rows.noun}" + (f" ({describe_where(p.average_where)})" if p.average_where else "")
            exact = f" = {_as_ratio(mean, len(averaged))}" if isinstance(mean, Fraction) else ""
            out.append(failed(f"{label} claims {show(raw)}, recomputed mean {key} over {over} is "
                              f"{show_value(mean)}{exact}{_rule(judgement)}{_hint(key, raw, scored, averaged, p)}",
                              pointer, role, jsonable(raw), float(mean)))
        elif judgement.how == "rounded":
            notes[key] = judgement.note()
    if out:
        return out
    parts = []
    if p.row_claims is not None:
        parts.append(f"every claim of {len(scored)} {rows.noun} recomputes from its ranking")
    if means:
        shown = ", ".join(f"{k} {show_value(v)}{notes.get(k, '')}" for k, v in means.items())
        where = f" ({describe_where(p.average_where)})" if p.average_where else ""
        parts.append(f"the claimed averages over {len(averaged)} {rows.noun}{where} recompute: {shown}")
    if truth is not None:
        which = f"{len(scored)} of the {len(truth)}" if len(scored) != len(truth) else f"the {len(truth)}"
        parts.append(f"the {len(scored)} {rows.noun} are {which} questions of dataset '{p.dataset}', "
                     "with its answer sessions" + (" and its no-answer renamings" if p.renamed else ""))
    if not parts:
        return [failed("nothing was claimed: no per-row claims and no claimed average to compare")]
    return [passed("; ".join(parts), rows.pointer, rows.role)]


def _rule(judgement: rounding.Judgement | None) -> str:
    """Why a claim written with decimals does not state the value: the comparison rule's words."""
    why = judgement.why() if judgement is not None else ""
    if why:
        return f": {why}"
    return f" (tolerance {float(judgement.tolerance):g})" if judgement is not None and judgement.tolerance else ""


def _tolerance(p: RankingParams, metric: str) -> Fraction:
    """nDCG is a float, compared within ``tolerance``; the other metrics are exact fractions."""
    return (exact_number(p.tolerance) or Fraction(0)) if metric == "ndcg" else Fraction(0)


def _mean(values: list[Fraction | float]) -> Fraction | float:
    if all(isinstance(v, Fraction) for v in values):
        return sum(values, Fraction(0)) / len(values)  # type: ignore[arg-type]
    return math.fsum(float(v) for v in values) / len(values)


def _as_ratio(mean: Fraction, n: int) -> str:
    """``445/470`` for a mean of 0/1 values over n rows; the reduced fraction otherwise."""
    scaled = mean * n
    return f"{scaled.numerator}/{n}" if scaled.denominator == 1 else f"{mean.numerator}/{mean.denominator}"


def _hint(key: str, raw: Any, scored: list[Scored], averaged: list[Scored], p: RankingParams) -> str:
    """Why a claimed average may differ: another metric at the same k, or all rows averaged."""
    metric, k = p.parse(key)  # type: ignore[misc]
    claimed = exact_number(raw)
    for other in ("recall_any", "recall_all", "recall"):
        if other == metric or metric == "ndcg":
            continue
        values = [value(s, other, k, p.ndcg) for s in averaged]
        if None not in values and matches(raw, _mean(values), p.places, Fraction(0),  # type: ignore[arg-type]
                                          min_places=p.min_places):
            return f" (it equals {other}@{k}: a different metric under this name?)"
    if len(averaged) != len(scored) and claimed is not None:
        values = [value(s, metric, k, p.ndcg) for s in scored]
        if None not in values:
            mean = _mean(values)  # type: ignore[arg-type]
            if matches(raw, mean, p.places, _tolerance(p, metric), min_places=p.min_places):
                return f" (it is the mean over all {len(scored)} rows: the excluded rows were averaged in)"
    return ""
