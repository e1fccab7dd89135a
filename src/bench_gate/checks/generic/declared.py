"""The ``declared`` kind: a fact a result states about itself, the same wherever it is stated."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from bench_gate.records import field, record
from bench_gate.checks.base import (
    FORBID, MISSING, Context, kind, described, failed, jsonable, lookup, passed, show, split_ref,
)
from bench_gate.models import Finding
from bench_gate.text.canonical import invisible, shown, skeleton

PLACEHOLDERS = ("unknown", "n/a", "na", "none", "null", "tbd", "todo", "unspecified", "not disclosed",
                "not_disclosed", "undisclosed", "-", "?")


@record
class DeclaredParams:
    __pydantic_config__ = FORBID
    what: str
    at: list[str] = field(default_factory=list)
    value: str | None = None
    value_name: str = "a parameter"
    compare_at: list[str] = field(default_factory=list)
    differs: str = "the two are not comparable"
    placeholders: list[str] = field(default_factory=lambda: list(PLACEHOLDERS))

    def __post_init__(self) -> None:
        if not self.what.strip():
            raise ValueError("what must name the fact (judge model)")
        for ref in [*self.at, *self.compare_at]:
            if not split_ref(ref)[1].startswith("/"):
                raise ValueError(f"{ref!r} must be a ref: /pointer or ROLE:/pointer")


def loose(value: str) -> str:
    """A name as a reader compares it: case and surrounding spaces aside."""
    return " ".join(value.split()).casefold()


@record(frozen=False)
class Statement:
    """One place a fact is stated: where (for messages), the role and pointer, the value."""

    where: str
    role: str
    pointer: str
    value: Any


def statements(ctx: Context, at: Iterable[str], value: Any, name: str) -> list[Statement]:
    """Every place that states the fact: refs whose document was supplied and holds a value, then
    the parameter's value (named ``name``) unless it is null."""
    out: list[Statement] = []
    for ref in at:
        role, _ = split_ref(ref)
        if role not in ctx.documents:
            continue
        stated, role, pointer = lookup(ctx, ref)
        if stated is not MISSING:
            out.append(Statement(f"{role}:{pointer}", role, pointer, stated))
    if value is not None:
        out.append(Statement(name, "report", "", value))
    return out


def _hidden(value: Any) -> bool:
    return isinstance(value, str) and any(invisible(ch) or not ch.isprintable() for ch in value)


def _said(value: Any) -> str:
    """A stated value for a message, its invisible characters escaped (``'unknown\\u200b'``)."""
    return f"string {shown(value)}" if _hidden(value) else described(value)


def visible_show(value: Any) -> str:
    """:func:`show`, or for a string with invisible characters its escaped form: two names that differ
    only by a zero-width space must not print the same."""
    return shown(value) if _hidden(value) else show(value)


def agreed(what: str, found: list[Statement], key: Callable[[Any], Any | None], shown: Callable[[Any], str],
           expected: str) -> tuple[Any, list[Finding]]:
    """The one value the statements agree on (its first form), or the failures: a statement ``key``
    cannot read (None), or two that differ."""
    problems: list[Finding] = []
    first: Statement | None = None
    for s in found:
        if key(s.value) is None:
            problems.append(failed(f"{s.where} is {_said(s.value)}: not {expected}", s.pointer, s.role,
                                   jsonable(s.value), expected))
        elif first is None:
            first = s
        elif key(s.value) != key(first.value):
            problems.append(failed(f"the {what} is stated twice and differs: {s.where} {shown(s.value)}, "
                                   f"{first.where} {shown(first.value)}", s.pointer, s.role, jsonable(s.value),
                                   jsonable(first.value)))
    return (first.value if first is not None else None), problems


def _name_key(placeholders: list[str]) -> Callable[[Any], str | None]:
    # a placeholder is recognised as a reader reads it: "ｕｎｋｎｏｗｎ", "unknown" with a zero-width space or
    # a Cyrillic letter, and a string with no letter or digit at all ("\u200b", "-") name nothing
    bad = {skeleton(p) for p in placeholders}

    def key(value: Any) -> str | None:
        if not isinstance(value, str) or skeleton(value) in bad or not skeleton(value):
            return None
        return loose(value)
    return key


@kind("declared", DeclaredParams,
      "a fact a result states about itself (its judge model), the same wherever stated and in what it is "
      "compared with")
def declared(ctx: Context, p: DeclaredParams) -> Iterable[Finding]:
    """``declared``: a fact a result states about itself (its judge model, its answer model), stated
    at least once, the same wherever it is stated, and the same in the documents it is compared with.

    An LLM-judged accuracy is a measurement by a judge: the same answers judged by ``gpt-4o`` and by
    ``gpt-4o-mini`` give two numbers, and a number whose judge is not stated cannot be compared with
    any other. A fact may be stated in a document (a summary's ``judge_model``) or given on the
    command line (a profile option that sets a parameter); where both state it, they must agree.
    Example::

        check: declared
        with:
          what: judge model
          at: [summary:/judge_model]      # refs; a document not supplied, or the field absent, states nothing
          value: "${judge_model}"         # a parameter's value; null states nothing
          value_name: --judge-model       # how it is named in messages
          compare_at: [baseline:/judge_model]   # optional: must state the same (absent is a failure)
          differs: a J from another judge is another measurement

    Each stated value must be a visible string that is not a placeholder (``unknown``, ``n/a``,
    ``tbd``, ...: ``placeholders``), as a reader reads it: a placeholder in fullwidth letters, with a
    zero-width space or a look-alike letter of another script is still a placeholder, and a string
    with no letter or digit (``-``, a zero-width space alone) names nothing. Values compare as a reader reads a model name: letter case and
    surrounding spaces aside (``GPT-4o-mini`` is ``gpt-4o-mini``); a dated snapshot is another
    model (``gpt-4o-mini-2024-07-18`` is not ``gpt-4o-mini``). The passing message names the value
    and where it is stated (``actual`` is the value), so a verdict says which judge it held.

    """
    found = statements(ctx, p.at, p.value, p.value_name)
    places = " or ".join([*p.at, p.value_name])
    if not found:
        return [failed(f"the {p.what} is not stated ({places}): a number whose {p.what} is unknown cannot be "
                       "compared with any other", "", "report", None, f"the {p.what}")]
    key = _name_key(p.placeholders)
    value, problems = agreed(p.what, found, key, visible_show, f"a {p.what} (a name, not a placeholder)")
    if problems:
        return problems
    out: list[Finding] = []
    for ref in p.compare_at:
        theirs, role, pointer = lookup(ctx, ref)
        if theirs is MISSING or key(theirs) is None:
            got = "not stated" if theirs is MISSING else f"{described(theirs)}, not a {p.what}"
            out.append(failed(f"{role}:{pointer} is {got}: the {p.what} of what we compare with must be stated "
                              f"(ours is {show(value)})", pointer, role,
                              None if theirs is MISSING else jsonable(theirs), value))
        elif key(theirs) != key(value):
            out.append(failed(f"{role}:{pointer} is {show(theirs)}, our {p.what} is {show(value)}: {p.differs}",
                              pointer, role, jsonable(theirs), value))
    if out:
        return out
    where = "; ".join(s.where for s in found)
    same = f"; {', '.join(p.compare_at)} states the same" if p.compare_at else ""
    return [passed(f"{p.what} {show(value)} ({where}){same}", found[0].pointer, found[0].role, value, value)]
