"""The ``question_set`` kind: the rows are exactly a benchmark's questions of the groups a result states."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from bench_gate.records import field, record
from bench_gate.checks.base import (
    FORBID, MISSING, Context, kind, Fail, described, failed, join, jsonable, lookup, passed, resolve, show, split_ref,
)
from bench_gate.checks.recompute.aggregate import numeric_id, render_label
from bench_gate.checks.recompute.rows import (
    Row, Rows, check_pointer, check_source, field_value, read_rows, source_ref,
)
from bench_gate.models import Finding
from bench_gate.text.wording import plural_of

_RANGE = re.compile(r"^([0-9]+)\s*-\s*([0-9]+)$")
MAX_RANGE = 1000
"""The most ids a range of stated groups spans (``1-4`` spans 4): no benchmark has more groups, and a
range of 10**20 ids would be expanded into as many."""
_HEX = re.compile(r"^[0-9a-f]{64}$")


@record
class QuestionSetParams:
    __pydantic_config__ = FORBID
    rows: str
    counts: dict[str, dict[str, int]]
    text: str = "/question"
    group: str = "/category"
    answer: str | None = None
    groups: str | None = None
    groups_option: str = "groups"
    groups_at: list[str] = field(default_factory=list)
    dataset: str | None = None
    dataset_digest: list[str] | None = None
    label: str = "{groups}"
    part_noun: str = "part"
    group_noun: str = "group"
    show: int = 3

    def __post_init__(self) -> None:
        check_source(self.rows)
        for name in ("text", "group", "answer"):
            check_pointer(name, getattr(self, name))
        if not self.counts or not all(self.counts.values()):
            raise ValueError("counts must give each part's questions by group")
        for part, by_group in self.counts.items():
            for group, n in by_group.items():
                if n < 0:
                    raise ValueError(f"counts[{part!r}][{group!r}] must be >= 0")
        if self.dataset_digest is not None and (not self.dataset_digest or
                                                not all(_HEX.match(d) for d in self.dataset_digest)):
            raise ValueError("dataset_digest must list SHA-256 digests (64 lowercase hex digits each)")
        for ref in self.groups_at:
            _, pointer = split_ref(ref)
            if not pointer.startswith("/"):
                raise ValueError(f"groups_at {ref!r} must be a ref: /pointer or ROLE:/pointer")
        if self.show < 1:
            raise ValueError("show must be at least 1")


def group_id(value: Any) -> str | None:
    """A group as an id: an integer as its decimal (``4`` is ``"4"``), a string as written; else None."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, str) and value:
        return value
    return None


def parse_groups(value: Any) -> list[str] | None:
    """Stated groups: a list of ids, or ``"1,2,3,4"`` / ``"1-4"``; None when it is neither."""
    if isinstance(value, list):
        ids = [group_id(v) for v in value]
        if not ids or any(i is None for i in ids):
            return None
        out = [i for i in ids if i is not None]
    elif isinstance(value, str):
        out = []
        for token in value.split(","):
            token = token.strip()
            span = _RANGE.match(token)
            if span is None:
                if not token:
                    return None
                out.append(token)
                continue
            low, high = numeric_id(span.group(1)), numeric_id(span.group(2))
            if low is None or high is None or not low <= high < low + MAX_RANGE:
                return None  # 4-1, 01-04, or a range wider than any benchmark's groups
            out.extend(str(n) for n in range(low, high + 1))
    else:
        return None
    return out if len(set(out)) == len(out) else None


def _sorted(groups: Iterable[str]) -> list[str]:
    return sorted(groups, key=lambda g: (0, n, "") if (n := numeric_id(g)) is not None else (1, 0, g))


def questions_digest(entries: Iterable[Iterable[tuple[Any, Any, Any]]]) -> str:
    """SHA-256 of a dataset's question list in canonical form (see the module documentation)."""
    canon = [[[group_id(c) if group_id(c) is not None else c, q, a] for q, c, a in entry] for entry in entries]
    text = json.dumps(canon, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _answer_text(value: Any) -> str | None:
    """A gold answer as the Mem0 evaluation writes it (``str(answer)``); None when there is none."""
    if value is None:
        return None
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (int, float, str)):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


@record(frozen=False)
class Stated:
    """The stated groups and where they were stated."""

    groups: list[str] | None = None
    where: list[str] = field(default_factory=list)
    problems: list[Finding] = field(default_factory=list)


def _stated(ctx: Context, p: QuestionSetParams) -> Stated:
    out = Stated()
    sources: list[tuple[str, Any, str, str]] = []
    if p.groups is not None and p.groups.strip():
        sources.append((p.groups_option, p.groups, "report", ""))
    for ref in p.groups_at:
        role, _ = split_ref(ref)
        if role not in ctx.documents:
            continue  # a document not supplied states nothing
        value, role, pointer = lookup(ctx, ref)
        if value is MISSING:
            continue
        sources.append((f"{role}:{pointer}", value, role, pointer))
    for where, value, role, pointer in sources:
        parsed = parse_groups(value)
        if parsed is None:
            out.problems.append(failed(f"{where} is {described(value)}: not a list of {p.group_noun} ids (1,2,3,4 "
                                       "or 1-4), each once", pointer, role, jsonable(value), f"{p.group_noun} ids"))
            continue
        if out.groups is not None and set(parsed) != set(out.groups):
            out.problems.append(failed(f"{where} states {_span(parsed)}, but {out.where[0]} states "
                                       f"{_span(out.groups)}: a result covers one question set", pointer, role,
                                       jsonable(value), _sorted(out.groups)))
            continue
        out.groups = out.groups if out.groups is not None else _sorted(parsed)
        out.where.append(where)
    return out


def _span(groups: Iterable[str]) -> str:
    return render_label("{groups}", groups, 0)


def _plural(noun: str, n: int = 2) -> str:
    return noun if n == 1 else plural_of(noun)


def _of(p: QuestionSetParams, groups: list[str]) -> str:
    """``categories 1-4`` / ``category 3``."""
    return f"{_plural(p.group_noun, len(groups))} {_span(groups)}"


def _n(count: int, noun: str) -> str:
    return f"{count:,} {_plural(noun, count)}"


def _part_label(p: QuestionSetParams, part: str, names: dict[str, str]) -> str:
    name = f" ({names[part]})" if part in names else ""
    return f"{p.part_noun} {part}{name}" if part else "the rows"


@kind("question_set", QuestionSetParams,
      "the rows are exactly a benchmark's questions of the stated groups: pinned counts per part and "
      "group, and the dataset's questions")
def question_set(ctx: Context, p: QuestionSetParams) -> Iterable[Finding]:
    """``question_set``: the rows are exactly a benchmark's questions of the groups the result states.

    A number on a benchmark is a number on its questions. LoCoMo has 1,986 questions in five
    categories; a result over categories 1-4 (1,540 questions) reported as "LoCoMo" is another
    number than one over all five, and a result whose rows are not those questions (one dropped,
    one answered twice, one moved to an easier category or to another conversation) is not a
    LoCoMo number at all, however exactly its means recompute. This kind ties the rows to the
    benchmark's questions. Example (the Mem0 evaluation output, ``{"0": [row, ...], ...}``)::

        check: question_set
        with:
          rows: "report:/*"              # the rows of every conversation; the member is the part
          text: /question                # each row's question
          group: /category               # each row's group: a string or an integer id ("4" is 4)
          answer: /answer                # optional: compared with the dataset's answer, as text
          groups: "${categories}"        # the groups the result states: "1,2,3,4" or "1-4" ...
          groups_option: --categories    # ... named so in messages
          groups_at: [summary:/categories]   # ... or a list in a document (each place must agree)
          counts: "${question_counts}"   # pinned: {part: {group: questions}} for the whole benchmark
          dataset: dataset               # optional: a format: dataset document with the questions
          dataset_digest: "${questions_sha256}"   # optional: the dataset's question list, pinned (a list)
          label: "LoCoMo (categories {groups}, {n} questions)"
          part_noun: conversation
          group_noun: category

    **Parts.** The rows are read as ``aggregate`` reads them (:mod:`bench_gate.checks.recompute.rows`);
    a row's part is the member its source's ``*`` took (``report:/*``: the conversation index), or
    ``""`` when the source has no ``*``. A part absent from the report has no rows.

    **The stated groups.** ``groups`` (a parameter, typically from a command-line option) and every
    ref of ``groups_at`` whose document was supplied and holds a value state the groups; each is a
    list of ids or a string of ids and ranges (``"1,2,3,4"``, ``"1-4"``). They must agree, at
    least one must be given, and every stated group must be a group of ``counts``: a result that
    does not say which categories it covers cannot be compared with any other.

    **Counts.** The rows of each part and group must be exactly ``counts[part][group]`` for every
    stated group, and there must be no row of a group that is not stated (a category-5 row in a
    result stated as categories 1-4) or of a part that ``counts`` does not have.

    **The dataset.** With ``dataset`` (a ``format: dataset`` document whose entries carry ``qa``
    lists; see :mod:`bench_gate.loaders.dataset`) supplied: entry ``i`` is part ``"i"``; the
    dataset must have exactly the parts of ``counts`` and, per part and group, exactly those counts;
    with ``dataset_digest`` (a list of accepted digests), the SHA-256 of its question list (the
    compact UTF-8 JSON of ``[[[group, question, answer], ...] per entry]``, the group as its
    decimal string, an absent answer as null) must be a pinned one, whichever file it came in (an
    array or an archive). A profile passes it from a list parameter: a list cannot be changed with
    ``--set``, only by a profile that extends this one, whose name the verdict then carries, so
    a dataset edited to match edited rows cannot be declared the benchmark on the command line.
    Then each part's rows must be the part's questions of the stated groups as a multiset of
    (question, group): question texts repeat inside a part (LoCoMo's conversation 48 asks eleven
    questions twice), so a row is matched by its text and group, and a repeated row is a row too
    many. With ``answer``, a row's answer must be the dataset's answer of that question as text
    (``2022`` is ``"2022"``), where the dataset has one. A mismatch names the row, and where its
    question really is (another part, another group).

    Without the dataset the question texts are not checked (the rows could be other questions in
    the right numbers): a profile should say so, as ``locomo-qa`` does with an error.

    The ``label`` names the question set in every message: ``{groups}`` is the stated groups
    (``1-4``), ``{n}`` the number of pinned questions of those groups (``1,540``). A passing result
    states the label, the groups and the count (``actual``: ``{"label", "groups", "questions"}``),
    for a claims scan to hold a cited number to.

    """
    stated = _stated(ctx, p)
    known = {g for by_group in p.counts.values() for g in by_group}
    if stated.groups is None and not stated.problems:
        where = " or ".join([p.groups_option, *p.groups_at])
        stated.problems.append(failed(f"the {p.group_noun} ids the result covers are not stated ({where}): a result "
                                      f"that does not say which {p.group_noun} ids it covers cannot be compared with "
                                      "any other", "", "report", None, f"the {p.group_noun} ids"))
    unknown = [g for g in stated.groups or [] if g not in known]
    if unknown:
        stated.problems.append(failed(f"{p.group_noun} {', '.join(unknown)} stated in {stated.where[0]} is not a "
                                      f"{p.group_noun} of the benchmark ({_span(known)})", "", "report",
                                      unknown, _sorted(known)))
    if stated.problems:
        label = p.label.replace("{groups}", "not stated").replace("{n}", "?")
        return [_labelled(label, f) for f in stated.problems]
    groups = stated.groups or []
    total = sum(by_group.get(g, 0) for by_group in p.counts.values() for g in groups)
    label = render_label(p.label, groups, total)
    try:
        return [_labelled(label, f) for f in _check(ctx, p, groups, total, label)]
    except Fail as exc:
        raise Fail(f"{label}: {exc.finding.message}", exc.finding.pointer, exc.finding.document,
                   exc.finding.actual, exc.finding.expected) from None


def _labelled(label: str, finding: Finding) -> Finding:
    return Finding(finding.status, f"{label}: {finding.message}", finding.document, finding.pointer,
                   finding.actual, finding.expected)


@record
class Asked:
    """One row as a question: its part, text, group and answer."""

    row: Row
    part: str
    text: str
    group: str
    answer: Any


def _asked(rows: Rows, p: QuestionSetParams) -> list[Asked]:
    out = []
    for row in rows.items:
        text = field_value(rows, row, p.text)
        if not isinstance(text, str) or not text.strip():
            raise Fail(f"{rows.role} {row.label()}: {p.text} must be a question (a non-empty string), got "
                       f"{described(text)}", rows.field_pointer(row, p.text), rows.role, None, "a string")
        raw = field_value(rows, row, p.group)
        group = group_id(raw)
        if group is None:
            raise Fail(f"{rows.role} {row.label()}: {p.group} must be a {p.group_noun} id (a string or an integer), "
                       f"got {described(raw)}", rows.field_pointer(row, p.group), rows.role, None, "an id")
        answer = field_value(rows, row, p.answer) if p.answer is not None else None
        out.append(Asked(row, "/".join(row.keys), text, group, answer))
    return out


def _check(ctx: Context, p: QuestionSetParams, groups: list[str], total: int, label: str) -> list[Finding]:
    rows = read_rows(ctx, p.rows, None, min_rows=1)
    asked = _asked(rows, p)
    names: dict[str, str] = {}
    doc = None
    if p.dataset is not None and p.dataset in ctx.documents:
        doc = ctx.doc(p.dataset)
        if doc.extra.get("format") != "dataset" or "questions" not in doc.extra:
            raise Fail(f"document '{p.dataset}' ({doc.path}) must be a dataset (format: dataset)", document=p.dataset)
        names = {str(i): n for i, n in enumerate(doc.extra["names"]) if n}
    out = _counts(ctx, p, rows, asked, groups, names)
    dataset_note = ""
    if doc is not None:
        found = _dataset(p, doc, asked, groups, names)
        out.extend(found)
        digest = ", whose question list is the pinned one" if p.dataset_digest else ""
        dataset_note = (f"; each row's question, {p.group_noun}{' and answer' if p.answer else ''} are those of "
                        f"dataset '{p.dataset}' ({doc.path}){digest}")
    if out:
        return out
    by_part = Counter(a.part for a in asked)
    return [passed(f"the {len(asked):,} rows are the benchmark's questions of {_of(p, groups)}: "
                   f"{_n(len(by_part), p.part_noun)}, each with its pinned count per {p.group_noun}{dataset_note}",
                   rows.pointer, rows.role, {"label": label, "groups": groups, "questions": total}, total)]


def _listed(items: list[str], limit: int) -> str:
    more = len(items) - limit
    return "; ".join(items[:limit]) + (f"; and {more} more" if more > 0 else "")


def _members(ctx: Context, source: str) -> tuple[str, str, list[str]]:
    """The role, the pointer and the member keys (or item indices) that the one ``*`` of a rows
    source (``report:/*``) runs over, with rows or without: a part that holds no rows is still a
    part the result says it has."""
    role, pointer = source_ref(source)
    if pointer.count("*") != 1 or role not in ctx.documents:
        return role, pointer, []
    pointer = pointer.split("*", 1)[0].rstrip("/")
    container = resolve(ctx.doc(role).data, pointer)
    if isinstance(container, dict):
        return role, pointer, [str(key) for key in container]
    return role, pointer, [str(i) for i in range(len(container))] if isinstance(container, list) else []


def _counts(ctx: Context, p: QuestionSetParams, rows: Rows, asked: list[Asked], groups: list[str],
            names: dict[str, str]) -> list[Finding]:
    out: list[Finding] = []
    outside = [a for a in asked if a.group not in groups]
    if outside:
        by = Counter(a.group for a in outside)
        what = ", ".join(f"{n} of {p.group_noun} {g}" for g, n in sorted(by.items()))
        out.append(failed(f"{_n(len(outside), 'row')} {'is' if len(outside) == 1 else 'are'} of a {p.group_noun} "
                          f"the result does not state ({what}; first {outside[0].row.label()}): a result stated as "
                          f"{_of(p, groups)} holds only "
                          "those questions", rows.field_pointer(outside[0].row, p.group), rows.role,
                          len(outside), 0))
    strays = [a for a in asked if a.part not in p.counts]
    role, pointer, members = _members(ctx, p.rows)
    empty = [part for part in members if part not in p.counts and part not in {a.part for a in strays}]
    if empty:
        out.append(failed(f"{role}:{pointer or '/'} has {p.part_noun} {empty[0]!r} with no rows, which the "
                          f"benchmark does not have ({_plural(p.part_noun)} {_span(p.counts)}): a result holds the "
                          f"benchmark's {_plural(p.part_noun)} and nothing else", join(pointer, empty[0]),
                          role, empty[0], _sorted(p.counts)))
    if strays:
        out.append(failed(f"{_n(len(strays), 'row')} {'is' if len(strays) == 1 else 'are'} in {p.part_noun} "
                          f"{strays[0].part!r}, which the benchmark does not have ({_plural(p.part_noun)} "
                          f"{_span(p.counts)}; first {strays[0].row.label()})",
                          strays[0].row.pointer, rows.role, strays[0].part, _sorted(p.counts)))
    have = Counter((a.part, a.group) for a in asked)
    wrong = []
    for part in _sorted(p.counts):
        for group in groups:
            want, got = p.counts[part].get(group, 0), have.get((part, group), 0)
            if want != got:
                wrong.append(f"{_part_label(p, part, names)}, {p.group_noun} {group}: {_n(got, 'row')}, the "
                             f"benchmark has {want}")
    if wrong:
        out.append(failed(f"the rows are not the benchmark's questions of {_of(p, groups)} "
                          f"({_n(len(asked), 'row')}): {_listed(wrong, p.show)}; a question left out, added or moved "
                          "changes every mean", rows.pointer, rows.role, len(asked),
                          sum(p.counts[part].get(g, 0) for part in p.counts for g in groups)))
    return out


def _dataset(p: QuestionSetParams, doc: Any, asked: list[Asked], groups: list[str],
             names: dict[str, str]) -> list[Finding]:
    role = doc.role
    where = f"dataset '{role}' ({doc.path})"
    entries: tuple[Any, ...] = doc.extra["questions"]
    missing_qa = [str(i) for i, e in enumerate(entries) if e is None]
    if missing_qa:
        return [failed(f"{where}: entry {missing_qa[0]} has no qa list of questions ({len(missing_qa)} entries of "
                       f"{len(entries)}): not a dataset of this benchmark's shape", "", role)]
    problems: list[str] = []
    if len(entries) != len(p.counts) or set(map(str, range(len(entries)))) != set(p.counts):
        problems.append(f"it has {_n(len(entries), 'entry')}, the benchmark {_n(len(p.counts), p.part_noun)} "
                        f"({_span(p.counts)})")
    bad_items = [(i, j) for i, e in enumerate(entries) for j, (q, c, _) in enumerate(e)
                 if not isinstance(q, str) or group_id(c) is None]
    if bad_items:
        i, j = bad_items[0]
        problems.append(f"{_n(len(bad_items), 'question')} lack a question string or a {p.group_noun} id (first: "
                        f"entry {i}, question {j})")
    if not problems:
        for i, entry in enumerate(entries):
            part = str(i)
            have = Counter(group_id(c) for _, c, _ in entry)
            for group in _sorted(set(have) | set(p.counts[part])):
                if have.get(group, 0) != p.counts[part].get(group, 0):
                    problems.append(f"{_part_label(p, part, names)} has {have.get(group, 0)} questions of "
                                    f"{p.group_noun} {group}, the pinned count is {p.counts[part].get(group, 0)}")
    if not problems and p.dataset_digest is not None:
        digest = questions_digest(entries)
        if digest not in p.dataset_digest:
            pinned = " or ".join(f"{d[:12]}…" for d in p.dataset_digest)
            problems.append(f"its question list (sha256 {digest[:12]}…) is not the pinned one "
                            f"({pinned}): a question, {p.group_noun} or answer differs")
    if problems:
        return [failed(f"{where} is not the benchmark's dataset as pinned: {_listed(problems, p.show)}", "", role,
                       None, "the pinned dataset")]
    return _rows_against(p, asked, entries, groups, names, where)


def _rows_against(p: QuestionSetParams, asked: list[Asked], entries: tuple[Any, ...], groups: list[str],
                  names: dict[str, str], where: str) -> list[Finding]:
    wanted: dict[str, Counter[tuple[str, str]]] = {}
    answers: dict[tuple[str, str, str], set[str | None]] = {}
    home: dict[str, list[tuple[str, str]]] = {}  # question text -> [(part, group)] anywhere in the dataset
    loose: dict[tuple[str, str], str] = {}
    for i, entry in enumerate(entries):
        part = str(i)
        wanted[part] = Counter()
        for q, c, a in entry:
            g = group_id(c)
            assert g is not None
            home.setdefault(q, []).append((part, g))
            loose.setdefault((part, " ".join(q.casefold().split())), q)
            answers.setdefault((part, q, g), set()).add(_answer_text(a))
            if g in groups:
                wanted[part][(q, g)] += 1
    extra: list[str] = []
    first: Asked | None = None
    left = {part: Counter(c) for part, c in wanted.items()}
    wrong_answers: list[str] = []
    for a in asked:
        if a.part not in left or a.group not in groups:
            continue  # already failed by the counts
        key = (a.text, a.group)
        if left[a.part][key] > 0:
            left[a.part][key] -= 1
            if p.answer is not None:
                gold = answers[(a.part, a.text, a.group)] - {None}
                if gold and _answer_text(a.answer) not in gold:
                    wrong_answers.append(f"{a.row.label()} answers {show(a.answer)}, the dataset {show(sorted(gold)[0])}")
            continue
        first = first or a
        extra.append(f"{a.row.label()} {show(a.text, 60)} ({p.group_noun} {a.group}): {_why(p, a, wanted, home, loose, names)}")
    absent = [f"{_part_label(p, part, names)}: {show(q, 60)} ({p.group_noun} {g})"
              for part in _sorted(left) for (q, g), n in left[part].items() for _ in range(n)]
    out: list[Finding] = []
    if extra or absent:
        parts = []
        if extra:
            parts.append(f"{_n(len(extra), 'row')} {'is' if len(extra) == 1 else 'are'} not a question of "
                         f"{'its' if len(extra) == 1 else 'their'} {p.part_noun} in {where}: "
                         f"{_listed(extra, p.show)}")
        if absent:
            parts.append(f"{_n(len(absent), 'question')} {'has' if len(absent) == 1 else 'have'} no row: "
                         f"{_listed(absent, p.show)}")
        pointer = first.row.pointer if first is not None else ""
        out.append(failed(f"{'; '.join(parts)}; the rows must be the dataset's questions of {_of(p, groups)}, "
                          "each as often as the dataset asks it", pointer, "report",
                          len(extra), 0))
    if wrong_answers:
        out.append(failed(f"{_n(len(wrong_answers), 'row')} {'carries' if len(wrong_answers) == 1 else 'carry'} "
                          "another gold answer than the dataset: "
                          f"{_listed(wrong_answers, p.show)}; the judge compared the response with that answer",
                          "", "report", len(wrong_answers), 0))
    return out


def _why(p: QuestionSetParams, a: Asked, wanted: dict[str, Counter[tuple[str, str]]],
         home: dict[str, list[tuple[str, str]]], loose: dict[tuple[str, str], str], names: dict[str, str]) -> str:
    """Where a row's question really is, for the failure message."""
    places = home.get(a.text, [])
    here = [g for part, g in places if part == a.part]
    if a.group in here:
        n = wanted[a.part][(a.text, a.group)]
        return f"asked {n} time{'s' if n != 1 else ''} in the dataset, and this row is one more"
    if here:
        return f"the dataset has it as {p.group_noun} {here[0]}"
    if places:
        part, g = places[0]
        return f"it is a question of {_part_label(p, part, names)} ({p.group_noun} {g})"
    near = loose.get((a.part, " ".join(a.text.casefold().split())))
    if near is not None:
        return f"the dataset writes it {show(near, 60)} (another case or spacing)"
    return "no question of the dataset"
