"""Which LongMemEval questions a retrieval artifact's cases are, and whether they are the full set.

A per-type slice minimum, an exemption for slices of fewer than ten cases and a "500 of 500"
citable bar all rest on two things the report writes itself: each case's ``question_type`` and
the ``dataset`` block. These kinds tie both to LongMemEval-S as bench-gate ships it
(``bench_gate/data/longmemeval_s_question_types.json``: the question type of each of the 500
official question ids).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from bench_gate.records import field, record
from bench_gate.text.canonical import describe, id_key, shown
from bench_gate.text.wording import plural
from bench_gate.checks.recompute.cases import case_ids, ids_of
from bench_gate.checks.recompute.rows import source_rows
from bench_gate.checks.base import (
    kind,
    FORBID,
    MISSING,
    Context,
    Fail,
    failed,
    join,
    jsonable,
    lookup,
    need,
    passed,
    resolve,
    show,
    skipped,
    type_name,
)
from bench_gate.models import Finding, exact_number


OFFICIAL_TYPES_FILE = "longmemeval_s_question_types.json"
DATA = Path(__file__).resolve().parents[2] / "data"
"""Data shipped inside the package (``bench_gate/data``), read by path: ``importlib.resources``
costs more to import than the file costs to read."""


@lru_cache(maxsize=1)
def official_question_types() -> dict[str, str]:
    """The question type of every LongMemEval-S question id, as bench-gate ships it."""
    data = json.loads((DATA / OFFICIAL_TYPES_FILE).read_text("utf-8"))
    return dict(data["question_types"])


@lru_cache(maxsize=1)
def official_keys() -> dict[str, str]:
    """Every official question id by its key (:func:`~bench_gate.text.canonical.id_key`), for
    recognising an official id written another way."""
    return {id_key(qid): qid for qid in official_question_types()}


@record
class QuestionTypesParams:
    __pydantic_config__ = FORBID
    cases: str = "/case_results"
    id_fields: list[str] = field(default_factory=lambda: ["question_id", "case_id", "task_id"])
    type_field: str | None = "question_type"
    extra_types: list[str] = field(default_factory=list)
    full_set: bool = False
    show: int = 3


def _listed(items: list[str], limit: int) -> str:
    more = len(items) - limit
    return "; ".join(items[:limit]) + (f"; and {more} more" if more > 0 else "")


def _at(pointer: str, name: str) -> str:
    """The pointer of a case's field ("" for a JSON Lines row, which has none)."""
    return join(pointer, name) if pointer else ""


def _label(ident: str | None, line: str, where: str) -> str:
    """A case as a failure names it: its id (and line), or where it is."""
    return shown(ident) + line if ident else where


@kind("question_types", QuestionTypesParams, "case question types are LongMemEval's, official ids carry their official types")
def question_types(ctx: Context, p: QuestionTypesParams) -> Iterable[Finding]:
    """Every case's ``question_type`` is one of LongMemEval's six types (single-session-user,
    single-session-assistant, single-session-preference, multi-session, knowledge-update,
    temporal-reasoning) or one of ``extra_types`` (a profile parameter, for a run on another
    dataset that names its own types). A made-up type (``single-session-preference-a``) fails:
    splitting a failing type into small invented types would exempt each part from the slice
    minimums. A case whose id is an official question id must carry that question's official
    type; an id that is an official id only once normalised (letter case, invisible characters,
    fullwidth forms: :mod:`bench_gate.text.canonical`) fails as a look-alike. Ids outside the official
    set are accepted here (a run on another dataset); ``full_set: true`` (the citable bar)
    requires the cases to be exactly the official questions, each once.

    ``cases`` names the rows as every row-reading kind does (``aggregate``, ``ranking``): a
    document role (the rows of a JSON Lines document, such as a file of per-question verdicts
    beside a summary JSON; the items of a top-level array; the members of a top-level object,
    each keyed by its id), ``/pointer`` into the report, or ``ROLE:/pointer``. ``id_fields``
    are the names of a row's id (the first present is used) and ``type_field`` the name of its
    question type::

        check: question_types
        with: {cases: rows, id_fields: [qid], type_field: type}

    Rows that carry no type (the official evaluator's verdicts: ``question_id`` and
    ``autoeval_label``) take ``type_field: null``: each row must then have an id, the ids are
    compared with the official set (a look-alike fails; ``full_set`` requires all 500), and the
    types are LongMemEval-S's own.
    """
    role, ptr, items, noun = source_rows(ctx, p.cases)
    if not items:
        raise Fail(f"{role}:{ptr or '/'} holds no cases: a question set of nothing is no question set",
                   ptr, role, 0, ">= 1 case")
    official = official_question_types()
    vocabulary = sorted(set(official.values()))
    known = set(vocabulary) | set(p.extra_types)
    unknown: dict[str, list[str]] = {}
    untyped: list[str] = []
    relabelled: list[str] = []
    lookalike: list[str] = []
    seen: set[str] = set()
    first_bad = ""
    container = resolve(ctx.doc(role).data, ptr) if noun == "items" and ptr and "*" not in ptr else None
    # the report's own list of cases: its ids are the ones the other case rules derive
    idents = case_ids(ctx, container, p.id_fields) if isinstance(container, list) else \
        ids_of([row[3] for row in items], p.id_fields)
    type_field = p.type_field
    for (place, pointer, key, case, _), found in zip(items, idents):
        if type_field is not None and isinstance(case, dict):
            ident = found or key
            official_type = official.get(ident) if ident is not None else None  # a type is a string
            if official_type is not None and case.get(type_field) == official_type:
                seen.add(ident)  # an official question with its official type: nothing to say
                continue
        # a JSON Lines row has no pointer: messages name its line, and the failure points at the document
        where = pointer or place
        if not isinstance(case, dict):
            untyped.append(f"{where} is {type_name(case)}, not a case")
            first_bad = first_bad or pointer
            continue
        ident = found or key  # the members of an object: the key is the id
        line = "" if pointer else f" ({place})"  # a JSON Lines row is found by its line
        qtype = case.get(p.type_field, MISSING) if p.type_field is not None else None
        if p.type_field is None:
            pass  # verdicts that carry no type: the ids are checked, their types are LongMemEval-S's own
        elif not isinstance(qtype, str):
            untyped.append(f"case {_label(ident, line, where)} has {p.type_field} "
                           f"{show(qtype) if qtype is not MISSING else 'absent'}")
            first_bad = first_bad or _at(pointer, p.type_field)
        elif qtype not in known:
            unknown.setdefault(qtype, []).append(_label(ident, line, where))
            first_bad = first_bad or _at(pointer, p.type_field)
        if ident is None:
            if p.type_field is None:
                untyped.append(f"{where} has no id ({', '.join(p.id_fields)})")
                first_bad = first_bad or pointer
            continue
        if ident in official:
            seen.add(ident)
            if qtype != official[ident] and isinstance(qtype, str) and qtype in known:
                relabelled.append(f"case {ident}{line} is {show(qtype)}, officially {official[ident]}")
                first_bad = first_bad or _at(pointer, p.type_field)
        elif id_key(ident) in official_keys():
            real = official_keys()[id_key(ident)]
            lookalike.append(f"case {_label(ident, line, where)} and the official id {real} {describe(ident, real)}")
            first_bad = first_bad or _at(pointer, p.id_fields[0])
    out: list[Finding] = []
    if unknown:
        parts = [f"{show(t)} ({len(ids)} case{'s' if len(ids) != 1 else ''}, first {ids[0]})"
                 for t, ids in sorted(unknown.items(), key=lambda kv: (-len(kv[1]), kv[0]))]
        count = sum(len(ids) for ids in unknown.values())
        out.append(failed(f"{count} case{'s carry question types' if count != 1 else ' carries a question type'} "
                          f"that LongMemEval does not have: {_listed(parts, p.show)}; the known types are "
                          f"{', '.join(vocabulary + sorted(set(p.extra_types) - set(vocabulary)))} (a made-up type "
                          "splits a slice into parts small enough to escape the per-type minimums)",
                          first_bad, role, sorted(unknown), vocabulary + sorted(p.extra_types)))
    if untyped and p.type_field is None:
        out.append(failed(f"{len(untyped)} case{'s are' if len(untyped) != 1 else ' is'} not a question of the set: "
                          f"{_listed(untyped, p.show)}", first_bad, role, None, "a case with its question id"))
    elif untyped:
        out.append(failed(f"{len(untyped)} case{'s have' if len(untyped) != 1 else ' has'} no question type: "
                          f"{_listed(untyped, p.show)}; a case without its type is in no per-type slice",
                          first_bad, role, None, "a question type"))
    if relabelled:
        out.append(failed(f"{len(relabelled)} official question{'s carry' if len(relabelled) != 1 else ' carries'} "
                          f"another type than LongMemEval-S gives {'them' if len(relabelled) != 1 else 'it'}: "
                          f"{_listed(relabelled, p.show)}; a relabelled case moves into a slice it does not belong to",
                          first_bad, role))
    if lookalike:
        many = len(lookalike) != 1
        out.append(failed(f"{len(lookalike)} case {'ids are official LongMemEval-S ids' if many else 'id is an official LongMemEval-S id'} "
                          f"only as a reader sees {'them' if many else 'it'}: {_listed(lookalike, p.show)}",
                          first_bad, role))
    if p.full_set:
        missing = sorted(set(official) - seen)
        outside = len(items) - len(seen)
        if missing or outside:
            what = []
            if missing:
                what.append(f"{len(missing)} of the {len(official)} official questions are not among the cases "
                            f"(first {', '.join(missing[:p.show])})")
            if outside:
                what.append(f"{outside} case{'s are' if outside != 1 else ' is'} not an official question")
            out.append(failed("the cases are not the full LongMemEval-S question set: " + "; ".join(what)
                              + ". A number on part of the set reads as a number on the benchmark",
                              ptr, role, len(seen), len(official)))
    if out:
        return out
    officials = len(seen)
    whole = f"; the cases are the full set of {len(official)} questions" if p.full_set else ""
    if p.type_field is None:
        scope = (f"{officials} are official LongMemEval-S question ids (the types are the official ones: the cases "
                 "carry none)" if officials else "no case id is an official LongMemEval-S id")
        return [passed(f"{len(items)} cases: {scope}{whole}", ptr, role)]
    scope = (f"the {officials} official ids carry their official types" if officials
             else "no case id is an official LongMemEval-S id")
    return [passed(f"{len(items)} cases: every question type is a LongMemEval type; {scope}{whole}", ptr, role)]


@record
class FullDatasetParams:
    __pydantic_config__ = FORBID
    names: list[str]
    corpus_hashes: list[str]
    questions: int
    dataset: str = "/dataset"


def _count(block: dict[str, Any], name: str) -> int | None:
    number = exact_number(block.get(name))
    return int(number) if number is not None and number.denominator == 1 else None


@kind("full_dataset", FullDatasetParams, "the dataset block describes the whole pinned dataset")
def full_dataset(ctx: Context, p: FullDatasetParams) -> Iterable[Finding]:
    """The ``dataset`` block describes the whole of a pinned dataset: ``name`` is one of
    ``names``, ``corpus_hash`` one of ``corpus_hashes``, ``total_entries``,
    ``evaluated_entries`` and (when written) ``completed_entries`` are exact integers equal to
    ``questions``, ``limit`` is null or absent (or an integer of at least ``questions``), and
    ``selected_case_indices``, when written, is ``0 .. questions-1`` once each. A run on the
    oracle or M split, or on a prefix of 470 entries, is not a number on the full LongMemEval-S
    set however its case count reads.
    """
    block, role, ptr = need(ctx, p.dataset)
    if not isinstance(block, dict):
        raise Fail(f"{ptr} must be an object, got {type_name(block)}", ptr, role)
    n = p.questions
    out: list[Finding] = []
    name = block.get("name", MISSING)
    if name not in p.names:
        out.append(failed(f"{join(ptr, 'name')} is {show(name) if name is not MISSING else 'absent'}, expected "
                          f"{' or '.join(p.names)}: another split (oracle gives the reader only the evidence "
                          "sessions; M is another haystack) is another benchmark",
                          join(ptr, "name"), role, jsonable(name) if name is not MISSING else None, p.names))
    digest = block.get("corpus_hash", MISSING)
    if digest not in p.corpus_hashes:
        out.append(failed(f"{join(ptr, 'corpus_hash')} is {show(digest) if digest is not MISSING else 'absent'}, "
                          f"not the pinned dataset file ({', '.join(p.corpus_hashes)})",
                          join(ptr, "corpus_hash"), role, jsonable(digest) if digest is not MISSING else None,
                          p.corpus_hashes))
    for key, optional in (("total_entries", False), ("evaluated_entries", False), ("completed_entries", True)):
        value = block.get(key, MISSING)
        if value is MISSING and optional:
            continue
        count = _count(block, key)
        if count != n:
            got = "absent" if value is MISSING else show(value)
            out.append(failed(f"{join(ptr, key)} is {got}, expected {n}: the run does not cover the full set",
                              join(ptr, key), role, None if value is MISSING else jsonable(value), n))
    limit = block.get("limit", MISSING)
    if limit is not MISSING and limit is not None:
        count = _count(block, "limit")
        if count is None or count < n:
            out.append(failed(f"{join(ptr, 'limit')} is {show(limit)}: a run limited to fewer than {n} entries "
                              "is a subset", join(ptr, "limit"), role, jsonable(limit), f"null or >= {n}"))
    indices = block.get("selected_case_indices", MISSING)
    if indices is not MISSING:
        numbers = [None if isinstance(v, bool) else exact_number(v) for v in indices] \
            if isinstance(indices, list) else [None]
        if None in numbers or sorted(numbers) != list(range(n)):  # type: ignore[type-var]
            out.append(failed(f"{join(ptr, 'selected_case_indices')} is not 0..{n - 1} once each (got "
                              f"{len(indices) if isinstance(indices, list) else type_name(indices)} entries)",
                              join(ptr, "selected_case_indices"), role, None, f"0..{n - 1}"))
    if out:
        return out
    return [passed(f"{ptr.lstrip('/')}: {show(name)} ({show(digest)}), all {n} entries evaluated, no limit",
                   ptr, role)]


# --- official_question_set --------------------------------------------------------------


@record
class OfficialSetParams:
    __pydantic_config__ = FORBID
    corpus_hashes: list[str]
    names: list[str]
    datasets: list[str] = field(default_factory=lambda: ["/dataset", "/corpus"])
    cases: str = "/case_results"
    id_fields: list[str] = field(default_factory=lambda: ["question_id", "case_id", "task_id"])
    counts: list[str] = field(default_factory=lambda: ["/total_questions", "/completed_questions"])
    named_by: list[str] = field(default_factory=lambda: ["/suite"])
    show: int = 3


def _words(text: str) -> list[str]:
    """The words of a name as a reader sees them (``LongMemEval_S-cleaned.json`` is longmemeval,
    s, cleaned, json), through the identity fold of :mod:`bench_gate.text.canonical`."""
    return [w for w in re.split(r"[\W_]+", id_key(text)) if w]


def names_dataset(text: str, names: list[str]) -> bool:
    """Whether ``text`` names one of the datasets ``names``: their words appear in it in a row
    (``LongMemEval-S live API`` and ``longmemeval_s_cleaned.json`` name ``longmemeval_s``;
    ``LongMemEval-style`` names none of them)."""
    words = _words(text)
    for name in names:
        wanted = _words(name)
        if wanted and any(words[i:i + len(wanted)] == wanted for i in range(len(words) - len(wanted) + 1)):
            return True
    return False


def official_dataset(block: Any, corpus_hashes: list[str], names: list[str]) -> str | None:
    """How a dataset block names an official LongMemEval dataset (``corpus_hash ...``, ``name
    ...``, ``path ...``, ``split ...``), or None when it names none. Names are compared as a
    reader sees them (:func:`names_dataset`), so any spelling of an official file binds the run."""
    if not isinstance(block, dict):
        return None
    digest = block.get("corpus_hash")
    if isinstance(digest, str) and id_key(digest) in {id_key(h) for h in corpus_hashes}:
        return f"corpus_hash {digest}"
    for key in ("name", "split"):
        value = block.get(key)
        if isinstance(value, str) and names_dataset(value, names):
            return f"{key} {show(value)}"
    path = block.get("path")
    if isinstance(path, str) and names_dataset(re.split(r"[\\/]", path)[-1], names):
        return f"path {show(path)}"
    return None


def _declared_subset(block: dict[str, Any], n: int, where: str, role: str) -> tuple[list[int] | None, list[Finding]]:
    """The official indices a dataset block declares it ran (None: the whole set), and the
    problems of the declaration itself."""
    indices = block.get("selected_case_indices", MISSING)
    limit = block.get("limit", MISSING)
    if indices is not MISSING and indices is not None:
        values = [None if isinstance(v, bool) else exact_number(v) for v in indices] if isinstance(indices, list) \
            else [None]
        ok = values and all(v is not None and v.denominator == 1 and 0 <= v < n for v in values) \
            and len(set(values)) == len(values)
        if not ok:
            return None, [failed(f"{join(where, 'selected_case_indices')} must list distinct question indices 0..{n - 1}"
                                 f", got {show(indices)}", join(where, "selected_case_indices"), role,
                                 jsonable(indices), f"indices 0..{n - 1}")]
        return sorted(int(v) for v in values if v is not None), []
    if limit is not MISSING and limit is not None:
        count = exact_number(limit) if not isinstance(limit, bool) else None
        if count is None or count.denominator != 1 or count <= 0:
            return None, [failed(f"{join(where, 'limit')} is {show(limit)}, not a positive count of questions",
                                 join(where, "limit"), role, jsonable(limit), "null or a positive integer")]
        if count < n:
            return list(range(int(count))), []
    return None, []


@kind("official_question_set", OfficialSetParams, "a run on an official dataset holds that dataset's questions, each once, all of them unless it declares a subset")
def official_question_set(ctx: Context, p: OfficialSetParams) -> Iterable[Finding]:
    """When the report's dataset block names an official LongMemEval dataset (its ``corpus_hash``
    is one of ``corpus_hashes``, or its ``name``, ``split`` or the file name of its ``path``
    names one of ``names``: their words in a row, compared as a reader sees them), or a field of
    ``named_by`` does (the ``suite``: ``LongMemEval-S live API``), its cases are that dataset's
    questions:

    * every case id is an official question id, exactly (a made-up id such as ``fake0001`` or a
      look-alike of an official id fails);
    * no question has two cases;
    * the cases are all 500 questions, unless the block declares a subset: ``limit`` N (the first
      N questions of the file) or ``selected_case_indices`` (those questions); then exactly
      those. A dropped question fails whatever the counts say;
    * ``total_entries`` is written and is the dataset's own size (500): the producer's count is
      never trusted, so a run that drops a question and writes 499 everywhere fails, and a
      subset stays visibly a subset (``evaluated_entries`` of ``total_entries``) in the ledger
      entry that echoes the block and in every document a claims scan reads;
    * ``evaluated_entries``, ``completed_entries`` and the report's ``counts`` (``total_questions``,
      ``completed_questions``), when written, are the number of questions the run declares.

    The case ids bind the run too: when any case id is an official question id (as written or as a
    reader sees it), the run is on the official question set whatever its dataset block is called
    (``LongMemEvalS``, ``lme_s``, a hash of a re-serialised copy), so a made-up case beside 499
    official ones fails as it would under the official name.

    With ``cases: ""`` only the counts are checked (a summary without its cases). A run whose
    dataset block, suite and case ids name no official dataset is skipped: its ids are another
    dataset's.
    """
    official = list(official_question_types())
    n = len(official)
    found: list[tuple[str, dict[str, Any], str, str]] = []
    for ref in p.datasets:
        block, role, ptr = lookup(ctx, ref)
        named = official_dataset(block, p.corpus_hashes, p.names)
        if named is not None:
            found.append((named, block, role, ptr))
    for ref in p.named_by:
        value, vrole, vptr = lookup(ctx, ref)
        if not found and isinstance(value, str) and names_dataset(value, p.names):
            # the run says it is on the dataset; its dataset block is held to it
            block, role, ptr = lookup(ctx, p.datasets[0]) if p.datasets else (MISSING, vrole, vptr)
            found.append((f"{vptr.lstrip('/')} {show(value)}", block if isinstance(block, dict) else {}, role,
                          ptr))
    if not found and p.cases:
        # the ids themselves: a run whose cases are LongMemEval questions is on LongMemEval, whatever its
        # dataset block calls the file (``LongMemEvalS``, ``lme_s``), so a made-up case beside them fails
        by_ids = _official_ids_named(ctx, p)
        if by_ids is not None:
            block, role, ptr = lookup(ctx, p.datasets[0]) if p.datasets else (MISSING, "report", "")
            found.append((by_ids, block if isinstance(block, dict) else {}, role, ptr))
    if not found:
        return [skipped("neither the dataset block (corpus hash, name, split or file name) nor any case id names "
                        "an official LongMemEval dataset: the case ids are another dataset's")]
    named, block, role, where = found[0]
    out: list[Finding] = []
    chosen, problems = _declared_subset(block, n, where, role)
    out.extend(problems)
    expected = official if chosen is None else [official[i] for i in chosen]
    scope = f"all {n} questions" if chosen is None else f"the {len(expected)} questions its subset declares"
    total = block.get("total_entries", MISSING)
    if not _same_count(total, n):
        # written, and the dataset's own: a subset then reads as evaluated_entries of total_entries
        # wherever the block is shown (the ledger entry echoes it; a claims scan reads it)
        got = "absent;" if total is MISSING else f"{show(total)}, but"
        out.append(failed(f"{join(where, 'total_entries')} is {got} the dataset it names ({named}) holds "
                          f"{n} questions: a run's own count of its dataset is not trusted, and a run on part of it "
                          "is a subset", join(where, "total_entries"), role, None if total is MISSING
                          else jsonable(total), n))
    for key in ("evaluated_entries", "completed_entries"):
        value = block.get(key, MISSING)
        if value is not MISSING and value is not None and not _same_count(value, len(expected)):
            out.append(failed(f"{join(where, key)} is {show(value)}, but the run declares {scope} of {named}",
                              join(where, key), role, jsonable(value), len(expected)))
    for ref in p.counts:
        value, crole, cptr = lookup(ctx, ref)
        if value is not MISSING and value is not None and not _same_count(value, len(expected)):
            out.append(failed(f"{cptr} is {show(value)}, but the run declares {scope} of {named}", cptr, crole,
                              jsonable(value), len(expected)))
    if p.cases:
        out.extend(_official_cases(ctx, p, official, expected, named, scope))
    if out:
        return out
    what = "every case is an official question, each once, " if p.cases else ""
    return [passed(f"{where.lstrip('/')} names {named}: {what}{scope}"
                   + ("" if chosen is None else f" (a subset of {len(expected)} of {n}, declared)"), where, role)]


def _official_ids_named(ctx: Context, p: OfficialSetParams) -> str | None:
    """How the case ids name LongMemEval-S (``case ids, N of them official question ids (first ...)``),
    or None when no case id is an official question id, as written or as a reader sees it."""
    items, _, _ = lookup(ctx, p.cases)
    if not isinstance(items, list):
        return None
    keys = official_keys()
    hits = [ident for ident in case_ids(ctx, items, p.id_fields) if ident is not None and id_key(ident) in keys]
    if not hits:
        return None
    return (f"LongMemEval-S by its case ids ({len(hits)} of {len(items)} {'is an official question id' if len(hits) == 1 else 'are official question ids'}, "
            f"first {shown(hits[0])})")


def _same_count(value: Any, n: int) -> bool:
    number = None if isinstance(value, bool) else exact_number(value)
    return number is not None and number == n


def _official_cases(ctx: Context, p: OfficialSetParams, official: list[str], expected: list[str], named: str,
                    scope: str) -> list[Finding]:
    items, role, ptr = need(ctx, p.cases)
    if not isinstance(items, list):
        return [failed(f"{ptr} must be a list of cases, got {type_name(items)}", ptr, role)]
    known = set(official)
    by_key = {id_key(q): q for q in official}
    wanted = set(expected)
    seen: dict[str, int] = {}
    outside: list[str] = []
    lookalike: list[str] = []
    twice: list[str] = []
    first_bad = ""
    for i, ident in enumerate(case_ids(ctx, items, p.id_fields)):
        if ident is not None and ident not in seen and ident in wanted:
            seen[ident] = i  # a declared question, once: the usual case, with nothing to word
            continue
        where = join(ptr, i)
        if ident is None:
            outside.append(f"{where} (no id)")
            first_bad = first_bad or where
            continue
        if ident in seen:
            twice.append(f"{shown(ident)} ({join(ptr, seen[ident])} and {where})")
            first_bad = first_bad or where
            continue
        seen[ident] = i
        if ident in known:
            if ident not in wanted:
                outside.append(f"{shown(ident)} ({where}, outside the declared subset)")
                first_bad = first_bad or where
        elif id_key(ident) in by_key:
            real = by_key[id_key(ident)]
            lookalike.append(f"{shown(ident)} ({where}) and the official id {real} {describe(ident, real)}")
            first_bad = first_bad or where
        else:
            outside.append(f"{shown(ident)} ({where})")
            first_bad = first_bad or where
    out: list[Finding] = []
    if outside:
        out.append(failed(f"{plural(len(outside), 'case')} of a run on {named} {'is' if len(outside) == 1 else 'are'} "
                          f"not {'a question' if len(outside) == 1 else 'questions'} it declares: "
                          f"{_listed(outside, p.show)}; a case the dataset does not hold adds a score nobody can "
                          "check", first_bad, role, None, "an official question id"))
    if lookalike:
        out.append(failed(f"{plural(len(lookalike), 'case id')} of a run on {named} only look like official ids: "
                          f"{_listed(lookalike, p.show)}; a look-alike id is a question counted twice or a case "
                          "nobody can check", first_bad, role))
    if twice:
        out.append(failed(f"{plural(len(twice), 'question')} of {named} {'has' if len(twice) == 1 else 'have'} two "
                          f"cases: {_listed(twice, p.show)}", first_bad, role))
    missing = [q for q in expected if q not in seen]
    if missing:
        out.append(failed(f"a run on {named} declaring {scope} has no case for {plural(len(missing), 'question')} "
                          f"(first {', '.join(missing[:p.show])}): a number on {len(expected) - len(missing)} of "
                          "them reads as a "
                          "number on all of them; a run on part of the set declares it (dataset limit or "
                          "selected_case_indices) and is cited as a subset", ptr, role, len(expected) - len(missing),
                          len(expected)))
    return out
