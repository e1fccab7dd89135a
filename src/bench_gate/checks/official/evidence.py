"""Official LongMemEval reports as the real importer writes them: file counts, paths from
another machine, the producer's own claim, scored hypotheses and known datasets.

The ``longmembench-import`` command of zaxy writes ``external_suite.dataset_counts`` keyed by
dataset **file name**, records the absolute paths of the machine it ran on, keeps its hashes in
separate audit and validator files rather than in an ``artifacts`` block, and states its own
claim level as a string (``sota_claim.claim_allowed``). These kinds read those shapes as they are.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from bench_gate.records import field, record
from bench_gate.checks.base import (
    described,
    kind,
    FORBID, MISSING, Context, Fail, as_count, escape, failed, jsonable, lookup, passed, show, skipped,
    type_name,
)
from bench_gate.checks.generic.integrity import _short, ref_label
from bench_gate.text.wording import plural
from bench_gate.text.canonical import describe, id_key, shown
from bench_gate.checks.official.accuracy import fraction_in_unit
from bench_gate.checks.official.evaluator_log import Kind, entries, show_acc, tally
from bench_gate.checks.recompute.question_set import official_question_types
from bench_gate.models import Finding

DEFAULT_LEVELS = ["LongMemEval-compatible diagnostic only", "official LongMemEval partial-set evidence",
                  "official LongMemEval full-set candidate", "official LongMemEval SOTA"]


# --- dataset_file_counts -----------------------------------------------------------------


@record
class FileCountsParams:
    __pydantic_config__ = FORBID
    at: str = "/external_suite/dataset_counts"
    dataset: str = "dataset"
    optional: bool = True


def _entries_of(ctx: Context, role: str) -> tuple[str, int]:
    doc = ctx.doc(role)
    if doc.extra.get("format") == "dataset":
        return doc.path, int(doc.extra["entries"])
    return doc.path, len(entries(doc))


@kind("dataset_file_counts", FileCountsParams, "entry counts by dataset file name; the judged file's count is its real one")
def dataset_file_counts(ctx: Context, p: FileCountsParams) -> Iterable[Finding]:
    """``at`` (default ``/external_suite/dataset_counts``) maps dataset file names to entry counts
    (an integer, or null: not known). Every value is an exact integer >= 0 or null; the count
    for the file actually judged (the base name of the ``dataset`` document's path) equals its
    real number of entries. A file not listed, or listed as null, is said so and not a failure
    (the entries themselves are counted by ``qa_rows``). Absent: skipped unless
    ``optional: false``.
    """
    table, role, ptr = lookup(ctx, p.at)
    label = ref_label(role, ptr)
    if table is MISSING or table is None:
        if p.optional:
            return [skipped(f"{label} is not given", ptr, role)]
        raise Fail(f"{label} is {'missing' if table is MISSING else 'null'}", ptr, role, None, "an object")
    if not isinstance(table, dict):
        raise Fail(f"{label} must be an object of entry counts by dataset file name, got {type_name(table)}",
                   ptr, role, None, "an object")
    path, actual = _entries_of(ctx, p.dataset)
    used = posixpath.basename(path.replace("\\", "/"))
    out: list[Finding] = []
    for name, value in table.items():
        where = f"{ptr}/{escape(name)}"
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            out.append(failed(f"{label}.{name} must be an entry count or null, got {described(value)}",
                              where, role, jsonable(value), "an integer or null"))
            continue
        try:
            count = as_count(value, f"{label}.{name}", where, role)
        except Fail as exc:
            out.append(exc.finding)
            continue
        if count < 0:
            out.append(failed(f"{label}.{name} is {count}, not a count", where, role, count, ">= 0"))
        elif name == used and count != actual:
            out.append(failed(f"{label}.{name} is {count}, but the {p.dataset} file {path} has {actual} entries",
                              where, role, count, actual))
    if out:
        return out
    listed = ", ".join(f"{k} {'unknown' if v is None else show(v)}" for k, v in table.items()) or "no files"
    if used not in table:
        note = f"the {p.dataset} file {used} is not listed"
    elif table[used] is None:
        note = f"the count of the {p.dataset} file {used} is not known (null)"
    else:
        note = f"the {p.dataset} file {used} counts {actual} entries, as listed"
    return [passed(f"{label}: {listed}; {note}", ptr, role, jsonable(table.get(used)), actual)]


# --- producer_claim ----------------------------------------------------------------------


@record
class ProducerClaimParams:
    __pydantic_config__ = FORBID
    expected: int
    levels: list[str] = field(default_factory=lambda: list(DEFAULT_LEVELS))
    at: str = "/sota_claim/claim_allowed"
    eval_log: str = "eval_log"
    dataset: str = "dataset"
    baseline: str | None = None
    metrics: dict[str, Kind] = field(default_factory=dict)
    require: str | None = None

    def __post_init__(self) -> None:
        if len(self.levels) != 4 or len(set(self.levels)) != 4:
            raise ValueError("levels lists the 4 claim levels, weakest first: diagnostic, partial, full, SOTA")
        if self.require is not None and self.require not in self.levels:
            raise ValueError(f"require must be one of the levels, got {self.require!r}")


def _supported(ctx: Context, p: ProducerClaimParams) -> tuple[int, str]:
    """The strongest level the evidence supports (index into levels) and why not higher."""
    try:
        rows = entries(ctx.doc(p.eval_log))
    except Fail as exc:
        return 0, f"no evaluator log to support more ({exc.finding.message})"
    if not rows:
        return 0, f"the {p.eval_log} has no rows"
    try:
        _, size = _entries_of(ctx, p.dataset)
    except Fail as exc:
        return 1, f"the {p.dataset} cannot be counted ({exc.finding.message})"
    if len(rows) != p.expected or size != p.expected:
        return 1, f"{len(rows)} evaluated rows over {size} dataset entries is not the full {p.expected}"
    if p.baseline is None:
        return 2, "this profile does not compare with a baseline (gate a SOTA claim with official-sota)"
    try:
        metric, _, _ = lookup(ctx, f"{p.baseline}:/metric")
        if not isinstance(metric, str) or metric not in p.metrics:
            return 2, f"the baseline metric {show(metric)} is not an official QA accuracy"
        kind = p.metrics[metric]
        base, raw, _, _ = fraction_in_unit(ctx, f"{p.baseline}:/accuracy")
        ours = tally(ctx, p.eval_log, p.dataset).accuracy(kind)
    except Fail as exc:
        return 2, f"the comparison cannot be made ({exc.finding.message})"
    words = "overall" if kind == "overall" else "task-averaged"
    if ours is None or not ours > base:
        shown = show_acc(ours) if ours is not None else "unknown"
        return 2, f"the recomputed {words} accuracy {shown} is not greater than the baseline {show(raw)}"
    return 3, ""


@kind("producer_claim", ProducerClaimParams, "the producer's claim level is no more than the recomputed evidence supports")
def producer_claim(ctx: Context, p: ProducerClaimParams) -> Iterable[Finding]:
    """The producer's statement ``at`` (default ``/sota_claim/claim_allowed``) is one of the
    ``levels`` (weakest first) and claims no more than the evidence supports, recomputed here:
    "partial-set" needs evaluator rows, "full-set" needs exactly ``expected`` rows over a dataset
    of ``expected`` entries, "SOTA" needs in addition a ``baseline`` document whose accuracy the
    recomputed accuracy of the same kind strictly beats (``metrics`` maps baseline metrics to
    ``overall`` or ``task_averaged``). With ``require`` set, the statement must be exactly that
    level (official-sota requires the SOTA statement: a report that does not claim SOTA is not
    a SOTA claim). With ``baseline: null`` a SOTA statement is beyond what the profile checks and
    fails with that reason. Params: ``levels`` (list of 4), ``at``, ``expected``, ``eval_log``,
    ``dataset``, ``baseline`` (role or null), ``metrics``, ``require`` (level or null).
    """
    value, role, ptr = lookup(ctx, p.at)
    label = ref_label(role, ptr)
    known = ", ".join(repr(level) for level in p.levels)
    if not isinstance(value, str):
        raise Fail(f"{label} is {type_name(value)}{'' if value in (MISSING, None) else ' ' + show(value)}: "
                   f"the report states no claim level (expected one of {known})", ptr, role, jsonable(value),
                   p.require or p.levels)
    if value not in p.levels:
        raise Fail(f"{label} {show(value)} is not a claim level the producer writes (expected one of {known})",
                   ptr, role, value, p.levels)
    claimed = p.levels.index(value)
    if p.require is not None and value != p.require:
        return [failed(f"{label} is {show(value)}: the report itself does not claim {p.require!r}", ptr, role,
                       value, p.require)]
    level, why = _supported(ctx, p)
    if claimed > level:
        return [failed(f"{label} {show(value)} claims more than the evidence supports: {why}; at most "
                       f"{p.levels[level]!r}", ptr, role, value, p.levels[level])]
    supported = f"the evidence supports {p.levels[level]!r}" if level != claimed else "recomputed from the evidence"
    return [passed(f"{label} {show(value)}: {supported}", ptr, role, value, p.levels[level])]


# --- same_path ---------------------------------------------------------------------------


@record
class SamePathParams:
    __pydantic_config__ = FORBID
    groups: list[list[str]]
    optional: bool = False


def _parts(path: str) -> list[str]:
    return [p for p in posixpath.normpath(path.replace("\\", "/")).split("/") if p not in ("", ".")]


def same_file(a: str, b: str) -> bool:
    """Two written paths name one file: equal, or absolute (resolved) ending with relative (as given)."""
    pa, pb = _parts(a), _parts(b)
    if posixpath.isabs(a) == posixpath.isabs(b):
        return pa == pb
    rel = pb if posixpath.isabs(a) else pa
    full = pa if posixpath.isabs(a) else pb
    while rel and rel[0] == "..":  # "../../data/x.json" resolved elsewhere: compare what follows
        rel = rel[1:]
    return bool(rel) and full[-len(rel):] == rel


@kind("same_path", SamePathParams, "pairs of written paths name the same file")
def same_path(ctx: Context, p: SamePathParams) -> Iterable[Finding]:
    """Each pair of refs names the same file: equal after normalisation, or one absolute (as the
    importer resolves it) and ending with the other's components (as it was given, relative).
    ``optional: true`` skips a pair with an absent or null member.
    """
    out: list[Finding] = []
    checked = 0
    for group in p.groups:
        if len(group) != 2:
            raise Fail(f"same_path groups are pairs of refs, got {len(group)}")
        (a, arole, aptr), (b, brole, bptr) = lookup(ctx, group[0]), lookup(ctx, group[1])
        if a in (MISSING, None) or b in (MISSING, None):
            if p.optional:
                continue
            out.append(failed(f"{ref_label(arole, aptr)} is {show(a)} and {ref_label(brole, bptr)} is {show(b)}",
                              aptr, arole, jsonable(a), jsonable(b)))
            continue
        if not isinstance(a, str) or not isinstance(b, str) or not same_file(a, b):
            out.append(failed(f"{ref_label(arole, aptr)} {show(a, 120)} and {ref_label(brole, bptr)} {show(b, 120)} "
                              "name different files", aptr, arole, jsonable(a), jsonable(b)))
            continue
        checked += 1
    if out:
        return out
    if not checked:
        return [skipped("no pair of paths is given")]
    return [passed(f"{plural(checked, 'pair')} of paths name the same files", "", "report", checked, checked)]


# --- qa_hypotheses_scored ----------------------------------------------------------------


@record
class ScoredParams:
    __pydantic_config__ = FORBID
    hypotheses: str = "hypotheses"
    eval_log: str = "eval_log"
    id_field: str = "question_id"
    text_field: str = "hypothesis"
    show: int = 3


def _texts(ctx: Context, role: str, p: ScoredParams) -> dict[str, tuple[str, Any]]:
    out: dict[str, tuple[str, Any]] = {}
    for entry in entries(ctx.doc(role)):
        obj = entry.value if isinstance(entry.value, dict) else {}
        qid = obj.get(p.id_field)
        if isinstance(qid, str) and qid not in out:
            out[qid] = (entry.where, obj.get(p.text_field, MISSING))
    return out


@kind("qa_hypotheses_scored", ScoredParams, "the evaluator log scored exactly the hypotheses file's texts")
def qa_hypotheses_scored(ctx: Context, p: ScoredParams) -> Iterable[Finding]:
    """For every ``question_id``, the ``hypothesis`` text in the evaluator log is exactly the text in
    the hypotheses file: the log scored these answers, not others. Params: ``hypotheses``,
    ``eval_log``, ``id_field``, ``text_field`` (default ``hypothesis``), ``show``.
    """
    hyps, log = _texts(ctx, p.hypotheses, p), _texts(ctx, p.eval_log, p)
    bad: list[str] = []
    compared = 0
    for qid, (where, text) in log.items():
        if qid not in hyps:
            continue  # an id set difference is qa_id_sets' finding
        hwhere, htext = hyps[qid]
        if not isinstance(text, str):
            bad.append(f"{qid} ({p.eval_log} {where}): the log carries {type_name(text)} as {p.text_field}")
        elif not isinstance(htext, str):
            bad.append(f"{qid} ({p.hypotheses} {hwhere}): {p.text_field} is {type_name(htext)}")
        elif text != htext:
            bad.append(f"{qid}: scored {show(text, 40)} but the {p.hypotheses} file has {show(htext, 40)}")
        else:
            compared += 1
    if bad:
        return [failed(f"{len(bad)} of {len(log)} {p.eval_log} rows scored another {p.text_field} than the "
                       f"{p.hypotheses} file holds; first: {'; '.join(bad[:p.show])}", "", p.eval_log, len(bad), 0)]
    if not compared:
        raise Fail(f"no {p.eval_log} row could be compared with the {p.hypotheses} file (no common id)",
                   document=p.eval_log)
    return [passed(f"all {compared} {p.text_field} texts the {p.eval_log} scored are the {p.hypotheses} file's",
                   "", p.eval_log, compared, compared)]


# --- importer_keys ---------------------------------------------------------------------


@record
class ImporterKeysParams:
    __pydantic_config__ = FORBID
    blocks: dict[str, list[str]]


@kind("importer_keys", ImporterKeysParams, "the importer's blocks hold only the keys it writes (no unrecomputed numbers)")
def importer_keys(ctx: Context, p: ImporterKeysParams) -> Iterable[Finding]:
    """The importer's blocks hold only the keys it writes: ``blocks`` maps a ref (``/official_qa``,
    ``/sota_claim``) to its keys. Any other key fails, naming it and its value: a
    ``task_averaged_accuracy`` or a per-type table added to a block is a claimed number no rule
    recomputes, and a reader takes it as gated. An absent or null block is skipped (its own rules
    decide whether it must be present).
    """
    out: list[Finding] = []
    checked = 0
    for ref, keys in p.blocks.items():
        block, role, ptr = lookup(ctx, ref)
        if block is MISSING or block is None or not isinstance(block, dict):
            continue  # presence and type are the block's own rules
        checked += 1
        extra = [k for k in block if k not in keys]
        if extra:
            shown_extra = ", ".join(f"{k} ({show(block[k], 40)})" for k in extra[:5])
            out.append(failed(f"{ref_label(role, ptr)} has {plural(len(extra), 'key')} the importer does not write: "
                              f"{shown_extra}{' and more' if len(extra) > 5 else ''}; no rule recomputes "
                              f"{'it' if len(extra) == 1 else 'them'}, so a number there would read as gated", f"{ptr}/{escape(extra[0])}", role,
                              extra, sorted(keys)))
    if out:
        return out
    if not checked:
        return [skipped("no importer block is present")]
    return [passed(f"{plural(checked, 'block')} hold only the keys the importer writes", "", "report", checked, checked)]


# --- known_dataset -----------------------------------------------------------------------


@record
class KnownDatasetParams:
    __pydantic_config__ = FORBID
    accepted: dict[str, list[str]]
    document: str = "dataset"
    require: Literal["verified", "consistent"] = "verified"
    id_field: str = "question_id"
    type_field: str = "question_type"
    show: int = 3


@record(frozen=False)
class TypeAudit:
    """Each dataset entry sorted by what the official table says of it."""

    matched: int = 0
    relabelled: list[str] = field(default_factory=list)
    lookalike: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)


def audit_types(entries_: Iterable[tuple[str, Any, Any]], official: Mapping[str, str]) -> TypeAudit:
    """Compare every (where, id, type) with the official table, exactly and as a reader sees ids."""
    by_key = {id_key(qid): qid for qid in official}
    out = TypeAudit()
    for where, qid, qtype in entries_:
        if not isinstance(qid, str) or not qid:
            out.outside.append(f"{where} (no id)")
        elif qid in official:
            if qtype == official[qid]:
                out.matched += 1
            else:
                out.relabelled.append(f"{qid} ({where}) is {show(qtype)}, officially {official[qid]}")
        elif id_key(qid) in by_key:
            real = by_key[id_key(qid)]
            out.lookalike.append(f"{shown(qid)} ({where}) and the official id {real} {describe(qid, real)}")
        else:
            out.outside.append(f"{shown(qid)} ({where})")
    return out


def _typed_entries(ctx: Context, p: KnownDatasetParams) -> list[tuple[str, Any, Any]]:
    doc = ctx.doc(p.document)
    if doc.extra.get("format") == "dataset":
        return [(f"entry {i}", qid, qtype) for i, (qid, qtype) in enumerate(zip(doc.extra["ids"], doc.extra["types"]))]
    return [(e.where, *((e.value.get(p.id_field), e.value.get(p.type_field)) if isinstance(e.value, dict)
                        else (None, None))) for e in entries(doc)]


@kind("known_dataset", KnownDatasetParams, "the dataset's question types are LongMemEval-S's (by known SHA-256 or by content)")
def known_dataset(ctx: Context, p: KnownDatasetParams) -> Iterable[Finding]:
    """The ``document``'s question types are the benchmark's. The real question type of every
    LongMemEval-S question id is public and ships with bench-gate
    (``bench_gate/data/longmemeval_s_question_types.json``, with its source); every entry whose
    id is one of those ids must carry that type, exactly as written. A relabelled id, or an id
    that equals an official id only as a reader sees it (other case, an invisible or fullwidth
    character), always fails, naming the first ids: relabelling moves correct answers into
    small types and lifts the task-averaged accuracy without changing a label. With
    ``require: verified`` (default) the question types must also be *verified*: the file's
    SHA-256 is one of the ``accepted`` hashes (file name -> SHA-256 of the official file), or
    every entry is an official id with its official type (verified by content: a file that
    holds exactly the benchmark's ids and types is the benchmark for this purpose, whatever its
    bytes). Ids outside the table leave the types unverified, a failure in this mode. With
    ``require: consistent`` only relabelled ids fail and unverified ids are listed.
    official-full runs both: ``official-dataset-types`` (consistent, an error) and
    ``official-dataset-known`` (verified, a warning; ``--strict`` makes it fail);
    official-sota adds ``sota-dataset-verified`` (verified, an error): a SOTA comparison is
    decided by the task-averaged accuracy, so unverified types fail closed there.
    """
    doc = ctx.doc(p.document)
    found = audit_types(_typed_entries(ctx, p), official_question_types())
    where = f"the {p.document} file {doc.path}"
    wrong = found.relabelled + found.lookalike
    if wrong:
        parts = []
        if found.relabelled:
            parts.append(f"{plural(len(found.relabelled), 'official LongMemEval-S question')} "
                         f"{'carries' if len(found.relabelled) == 1 else 'carry'} another question type "
                         f"(first: {'; '.join(found.relabelled[:p.show])})")
        if found.lookalike:
            parts.append(f"{plural(len(found.lookalike), 'id')} only {'looks' if len(found.lookalike) == 1 else 'look'} "
                         "like official ids "
                         f"(first: {'; '.join(found.lookalike[:p.show])})")
        return [failed(f"{where}: {' and '.join(parts)}: relabelled question types change the task-averaged "
                       "accuracy without changing a label", "", p.document, len(wrong), 0)]
    for name, hashes in p.accepted.items():
        if doc.sha256 in hashes:
            return [passed(f"{where} (sha256 {_short(doc.sha256)}) is the official {name}: its question types "
                           "are the benchmark's", "", p.document, doc.sha256, name)]
    if not found.outside and found.matched:
        return [passed(f"{where}: all {found.matched} entries are official LongMemEval-S ids with their official "
                       "question types (verified by content)", "", p.document, found.matched, found.matched)]
    n_out = len(found.outside)
    unverified = (f"{n_out} {'entry' if n_out == 1 else 'entries'} of {found.matched + n_out} "
                  f"{'is' if len(found.outside) == 1 else 'are'} not an official LongMemEval-S id "
                  f"(first: {', '.join(found.outside[:p.show])})")
    if p.require == "consistent":
        return [passed(f"{where}: no official LongMemEval-S question is relabelled ({found.matched} official "
                       f"ids with their types); {unverified}: their types are unverified", "", p.document, 0, 0)]
    known = ", ".join(f"{name} {', '.join(_short(h) for h in hashes)}" for name, hashes in p.accepted.items())
    return [failed(f"{where} (sha256 {_short(doc.sha256)}) is not a known official LongMemEval file and "
                   f"{unverified}: their question types, and the task-averaged accuracy computed from them, are "
                   f"unverified (accepted: "
                   f"{known or 'none'})", "", p.document, len(found.outside), 0)]
