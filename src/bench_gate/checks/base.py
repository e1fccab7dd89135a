"""What every check kind is built from.

A check kind is a pure function ``run(ctx, params) -> Iterable[Finding]`` plus a parameter
class (a frozen record, :mod:`bench_gate.records`, validated with ``extra="forbid"`` when the
profile compiles). It receives everything already loaded in a :class:`Context`: the documents
by role and the instant ``now``. It reads no file, no clock, no environment.

Values are addressed by **refs**: ``"/overall/recall@5"`` is a JSON Pointer (RFC 6901) into the
report; ``"baseline:/overall/recall@5"`` points into the document with role ``baseline``.

Fail closed is built in: the accessors here raise :class:`Fail` for a missing value, a null,
a wrong type or a non-finite number, and the engine turns that into a failing result with the
location. A check never has to remember to fail; it has to go out of its way to pass.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeVar

from bench_gate.records import field, record
from bench_gate.models import UNSET, Doc, Finding, WrittenFloat, exact_number
from bench_gate.jsonvalues import described, jsonable, same, show, show_fraction, show_list, type_name
from bench_gate.loaders.strictjson import only_strings
from bench_gate.text.pointer import MISSING, escape, join, resolve, split_ref, tokens, valid_pointer

__all__ = ["MISSING", "described", "escape", "join", "jsonable", "only_strings", "resolve", "same", "show",
           "show_fraction", "show_list", "split_ref", "tokens", "type_name",
           "valid_pointer"]  # re-exported for the kinds

T = TypeVar("T")


@record
class Context:
    """Everything a check may look at."""

    now: datetime
    documents: Mapping[str, Doc]
    declared: frozenset[str] = frozenset()
    shared: dict[Hashable, Any] = field(default_factory=dict, compare=False, repr=False)
    """What :meth:`derived` has worked out in this evaluation."""

    def derived(self, key: Hashable, compute: Callable[[], T]) -> T:
        """``compute()``, worked out once per evaluation for all the rules that ask by ``key``.

        For data several rules derive from the same part of a document (each case's id, its
        lists of ids): the documents do not change while a plan runs, and every evaluation
        starts with a new Context, so nothing outlives the verdict it was computed for.
        ``key`` must name the input exactly, e.g. ``("case ids", id(items), tuple(fields))``.
        """
        try:
            return self.shared[key]  # type: ignore[no-any-return]
        except KeyError:
            value = self.shared[key] = compute()
            return value

    def doc(self, role: str) -> Doc:
        """The document for ``role``; a Fail when it is absent or could not be read."""
        found = self.documents.get(role)
        if found is None:
            raise Fail(f"document '{role}' was not supplied", document=role)
        if found.error is not None:
            raise Fail(f"document '{role}' ({found.path}) {found.error}", document=role)
        return found


class Fail(Exception):
    """Raised inside a check: the rule fails with this message at this location."""

    def __init__(
        self,
        message: str,
        pointer: str = "",
        document: str = "report",
        actual: Any = UNSET,
        expected: Any = UNSET,
    ) -> None:
        super().__init__(message)
        self.finding = Finding("fail", message, document, pointer, actual, expected)


WILDCARD = "*"
"""A pointer token that stands for every member of an object or item of an array, where a
kind says so (``rows: report:/*``, ``fields`` with ``base: /*``). A member literally named
``*`` cannot be addressed there."""


def has_wildcard(pointer: str) -> bool:
    """Whether a pointer has a ``*`` token."""
    return WILDCARD in tokens(pointer)


def expand(data: Any, pointer: str, role: str = "report") -> list[tuple[str, tuple[str, ...], Any]]:
    """Every value a pointer with ``*`` tokens reaches: ``(pointer, keys, value)`` in document order.

    ``keys`` are the member names (or item indices) the wildcards took. A plain token that is not
    there gives its entry the value MISSING; a wildcard over a value that is neither an object nor
    an array is a Fail (there is nothing to go through).
    """
    found: list[tuple[str, tuple[str, ...], Any]] = [("", (), data)]
    for tok in tokens(pointer):
        nxt: list[tuple[str, tuple[str, ...], Any]] = []
        for where, keys, cur in found:
            if cur is MISSING:
                nxt.append((join(where, tok), keys, MISSING))
            elif tok != WILDCARD:
                nxt.append((join(where, tok), keys, resolve(cur, "/" + escape(tok))))
            elif isinstance(cur, dict):
                nxt.extend((join(where, k), (*keys, k), v) for k, v in cur.items())
            elif isinstance(cur, list):
                nxt.extend((join(where, i), (*keys, str(i)), v) for i, v in enumerate(cur))
            else:
                raise Fail(f"{role}:{where or '/'} must be an object or an array ('*' in {pointer} goes through "
                           f"its members), got {type_name(cur)}", where, role, None, "an object or an array")
        found = nxt
    return found


def lookup(ctx: Context, ref: str) -> tuple[Any, str, str]:
    """(value or MISSING, role, pointer) for a ref; Fail when the document is unusable."""
    role, pointer = split_ref(ref)
    doc = ctx.doc(role)
    if doc.data is None and doc.rows is not None:
        raise Fail(f"document '{role}' is JSON Lines; a pointer needs a JSON document", document=role)
    return resolve(doc.data, pointer), role, pointer


# --- typed access (each raises Fail with the location) -----------------------------------


def need(ctx: Context, ref: str, what: str | None = None) -> tuple[Any, str, str]:
    """A present, non-null value: (value, role, pointer)."""
    value, role, pointer = lookup(ctx, ref)
    label = what or pointer
    if value is MISSING:
        raise Fail(f"{label} is missing", pointer, role, None, "present")
    if value is None:
        raise Fail(f"{label} is null", pointer, role, None, "a value")
    return value, role, pointer


def as_number(value: Any, label: str, pointer: str, role: str = "report") -> Fraction:
    """The exact value of a JSON number; a Fail for booleans, strings and anything else."""
    if value is MISSING:
        raise Fail(f"{label} is missing", pointer, role, None, "a number")
    number = exact_number(value)
    if number is None:
        raise Fail(
            f"{label} must be a number, got {described(value)}",
            pointer, role, jsonable(value), "a number",
        )
    return number


def as_count(value: Any, label: str, pointer: str, role: str = "report") -> int:
    """An exact integer as written: ``500`` or ``500.0``; never ``480.4``, ``true`` or ``"500"``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Fail(
            f"{label} must be an integer, got {described(value)}",
            pointer, role, jsonable(value), "an integer",
        )
    if isinstance(value, WrittenFloat) and Decimal(value.literal) != int(value) or (
            isinstance(value, float) and not value.is_integer()):
        raise Fail(
            f"{label} must be an exact integer, got {show(value)}",
            pointer, role, jsonable(value), "an integer",
        )
    return int(value)


def number_at(ctx: Context, ref: str, what: str | None = None) -> tuple[Fraction, Any, str, str]:
    """(exact value, raw value, role, pointer) of a required number."""
    value, role, pointer = need(ctx, ref, what)
    return as_number(value, what or pointer, pointer, role), value, role, pointer


def pct(value: Fraction) -> str:
    return show_fraction(value * 100, 2)


# --- the kind record and its registration ------------------------------------------------

CheckFn = Callable[[Context, Any], Iterable[Finding]]


@record
class CheckKind:
    """A registered check kind: its name, parameter class, function and one-line summary.

    The function's docstring is the kind's documentation (``bench-gate kinds NAME`` and the
    reference in ``docs/profiles.md`` are generated from it).
    """

    name: str
    params: type
    run: CheckFn
    summary: str


_REGISTERED: dict[str, list[CheckKind]] = {}


def kind(name: str, params: type, summary: str) -> Callable[[CheckFn], CheckFn]:
    """Register the decorated function as the check kind ``name`` with its parameter class.

    ::

        @kind("fresh", FreshParams, "a date is not in the future and at most max_age old")
        def fresh(ctx: Context, p: FreshParams) -> Iterable[Finding]:
            \"\"\"The documentation of the kind, shown by ``bench-gate kinds fresh``.\"\"\"

    The kind belongs to the family module it is defined in; :mod:`bench_gate.checks` lists
    those modules explicitly, so a kind exists only once its module is on that list.
    """

    def register(fn: CheckFn) -> CheckFn:
        _REGISTERED.setdefault(fn.__module__, []).append(CheckKind(name, params, fn, summary))
        return fn

    return register


def kinds_of(module: str) -> tuple[CheckKind, ...]:
    """The kinds registered by one module (already imported), in the order they are defined."""
    return tuple(_REGISTERED.get(module, ()))


def passed(message: str, pointer: str = "", document: str = "report", actual: Any = UNSET,
           expected: Any = UNSET) -> Finding:
    return Finding("pass", message, document, pointer, actual, expected)


def failed(message: str, pointer: str = "", document: str = "report", actual: Any = UNSET,
           expected: Any = UNSET) -> Finding:
    return Finding("fail", message, document, pointer, actual, expected)


def skipped(message: str, pointer: str = "", document: str = "report") -> Finding:
    return Finding("skip", message, document, pointer)


FORBID: dict[str, Any] = {"extra": "forbid", "strict": True}
"""The pydantic config every parameter class carries: unknown keys and coercions are errors."""
