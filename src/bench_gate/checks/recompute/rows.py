"""Rows, row filters, groups and claimed values: what ``aggregate`` and ``ranking`` share.

This module defines no check kind. It is the reading side of the two declarative recompute
kinds, so that both read rows, filter them, group them and compare a claim the same way.

**Rows.** ``rows`` names where the rows are:

* ``ROLE`` (a bare document role, such as ``report`` or ``rows``): the rows of a JSON Lines
  document, the items of a top-level JSON array, or the members of a top-level JSON object
  (each member is a row whose id is its key);
* ``/pointer`` or ``ROLE:/pointer``: the array (items) or object (members) at that pointer;
* a pointer with ``*`` tokens: the items (or members) of every array (or object) it reaches, in
  document order. ``report:/*`` reads an object of lists, such as the Mem0 LoCoMo evaluation
  output ``{"0": [row, ...], "1": [...]}``: every row of every conversation, located as
  ``/3/17``; each row keeps the members the ``*`` tokens took (``3``), which a kind may group
  by (``question_set`` does);
* with ``one_row: true``, the object at ``rows`` is itself the only row: a ratio of two fields
  of one summary (``/recall/any@5`` over ``/n``).

JSON Lines rows are already parsed by the strict loader (no NaN, no duplicate keys) and are
visited in file order; a row is located as ``line N`` in messages.

**Row ids.** ``id`` is a JSON Pointer to each row's id (a non-empty string or an integer).
A missing, null or wrongly typed id fails the rule, and so does an id that appears twice:
a summary over a row counted twice is not a summary of the run. Ids are compared as a reader
sees them (:func:`bench_gate.text.canonical.id_key`): ``q1`` and ``q1`` followed by a zero-width
space, a fullwidth ``ｑ1``, ``Q1`` or a look-alike letter of another script (Cyrillic ``с`` for
``c``) are the same id, and ``1`` and ``"1"`` too.

**Filters.** ``where`` is a list of tests on a row field, all of which must hold for the row to
be counted. Each test is ``{field: /pointer, OP: VALUE}`` with exactly one of ``equals``,
``not_equals``, ``one_of``, ``not_one_of`` (JSON equality: ``true`` is not ``1``),
``contains``, ``not_contains`` (substring of a string field). A row whose field is missing or
null, or not a string for ``contains``, fails the rule: a filter that cannot be decided
decides nothing.

**Claimed values.** A claim is a JSON number (a boolean or a string is not). It states the
recomputed value under the one rule every kind applies (:mod:`bench_gate.text.rounding`):

* it is the exact value as written (``0.72`` is 18/25);
* or it reads back as that value's double (``0.9428571428571428`` and ``0.94285714285714284``
  for 66/70);
* or it is the exact value rounded to the decimals the claim is written with, either way of
  rounding a tie, when it has at least ``min_places`` decimals (default 3 for a fraction, 1 for
  a percentage): ``0.7334`` states 0.73344, ``0.7335`` does not;
* or, with ``places: N`` (the producer rounds to N places), it is the value rounded to N places,
  trailing zeros dropped or not: ``0.94`` states 0.94003 at ``places: 4``;
* or, with ``tolerance: T``, it is within T of the value (inclusive).

A claim of a boundary value (0 or 1 of a fraction or rate, 0 or 100 of a percentage) is never
reached by rounding: ``1.0000`` does not state 4699/4700. With ``unit: percent`` the claim is
read as a percentage (97.4 is 0.974), and ``places`` counts the decimals of the percentage as
written. Minimums and thresholds are never decided on a rounded claim: another rule compares the
recomputed value.
"""

from __future__ import annotations

import re
from decimal import Decimal
from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any, Literal

from bench_gate.checks.base import (
    FORBID,
    MISSING,
    Context,
    Fail,
    described,
    expand,
    has_wildcard,
    join,
    resolve,
    same,
    show,
    show_fraction,
    split_ref,
    type_name,
    valid_pointer,
)
from bench_gate.text import canonical, rounding
from bench_gate.text.canonical import id_key
from bench_gate.models import Doc, exact_number
from bench_gate.records import record

_ROLE = re.compile(r"^[a-z][a-z0-9_-]*$")
_TESTS = ("equals", "not_equals", "one_of", "not_one_of", "contains", "not_contains")


def check_source(rows: str) -> None:
    """A profile error for a ``rows`` value that is neither a role nor a (role) pointer."""
    if _ROLE.match(rows):
        return
    role, pointer = split_ref(rows)
    if not pointer.startswith("/") or not valid_pointer(pointer):
        raise ValueError(f"rows {rows!r} must be a document role (rows), a JSON Pointer (/cases) or "
                         "ROLE:/pointer")


def check_pointer(name: str, value: str | None) -> None:
    """A profile error for a row field that is not a JSON Pointer."""
    if value is not None and (not value.startswith("/") or not valid_pointer(value)):
        raise ValueError(f"{name} {value!r} must be a JSON Pointer into a row, such as /qid")


@record
class RowTest:
    """One test of a ``where`` filter: ``{field: /type, equals: knowledge-update}``."""

    __pydantic_config__ = FORBID
    field: str
    equals: Any = None
    not_equals: Any = None
    one_of: list[Any] | None = None
    not_one_of: list[Any] | None = None
    contains: str | None = None
    not_contains: str | None = None

    def __post_init__(self) -> None:
        check_pointer("field", self.field)
        given = [name for name in _TESTS if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError(f"a where test has exactly one of {', '.join(_TESTS)} (got "
                             f"{', '.join(given) or 'none'})")

    def describe(self) -> str:
        for name in _TESTS:
            value = getattr(self, name)
            if value is not None:
                return f"{self.field} {name.replace('_', ' ')} {show(value, 120)}"
        return self.field  # pragma: no cover - __post_init__ guarantees one test


@record
class Row:
    """One row: where it is (for messages), its JSON Pointer in its document, id and value."""

    where: str
    pointer: str
    ident: str | None
    value: Any
    keys: tuple[str, ...] = ()
    """The members (or item indices) the ``*`` tokens of the source took: ``("3",)`` for item 17 of
    ``report:/*`` read at ``/3/17``."""

    def label(self) -> str:
        """``line 7 (qid 3f1e9474)``: where the row is and, when known, its id."""
        return f"{self.where} ({self.ident})" if self.ident is not None and self.ident not in self.where \
            else self.where


@record
class Rows:
    """The rows of one source, with the role and the pointer they were read from."""

    role: str
    pointer: str
    items: list[Row]
    noun: str  # "rows", "items" or "members"

    def field_pointer(self, row: Row, field: str) -> str:
        """The pointer of a field of a row in its document ("" for a JSON Lines row)."""
        return row.pointer + field if self.noun != "rows" else ""


RawRow = tuple[str, str, str | None, Any, tuple[str, ...]]


def source_ref(source: str) -> tuple[str, str]:
    """(role, pointer) of a ``rows`` source: a role (its whole document), ``/pointer`` into the
    report, or ``ROLE:/pointer``."""
    return (source, "") if _ROLE.match(source) else split_ref(source)


def source_rows(ctx: Context, source: str) -> tuple[str, str, list[RawRow], str]:
    """(role, pointer, [(where, pointer, key, value, keys)], noun) of a ``rows`` source: every kind
    that reads rows takes the same refs (a role, ``/pointer``, ``ROLE:/pointer``)."""
    role, pointer = source_ref(source)
    doc: Doc = ctx.doc(role)
    if doc.rows is not None:
        if pointer:
            raise Fail(f"document '{role}' is JSON Lines: give rows: {role} (its rows), not a pointer",
                       document=role)
        return role, "", [(f"line {line}", "", None, value, ()) for line, value in doc.rows], "rows"
    if doc.data is None:
        raise Fail(f"document '{role}' ({doc.path}) holds no JSON rows (it is read for its hash or summary "
                   "only)", document=role)
    if has_wildcard(pointer):
        # the rows come from many places: the document itself is where they are
        return role, "", _wildcard_rows(role, pointer, doc.data), "items"
    container = resolve(doc.data, pointer)
    where = pointer or "the document"
    if container is MISSING or container is None:
        raise Fail(f"{role}:{where} is {'missing' if container is MISSING else 'null'}; it should hold the rows",
                   pointer, role, None, "an array or object of rows")
    if isinstance(container, list):
        # an index needs no escaping: f"{pointer}/{i}" is join(pointer, i), without a call per row
        return role, pointer, [(f"item {i}", f"{pointer}/{i}", None, v, ()) for i, v in enumerate(container)], \
            "items"
    if isinstance(container, dict):
        return role, pointer, [(f"{join(pointer, k) or '/' + k}", join(pointer, k), k, v, ())
                               for k, v in container.items()], "members"
    raise Fail(f"{role}:{where} must be an array or object of rows, got {described(container)}",
               pointer, role, None, "an array or object of rows")


def _wildcard_rows(role: str, pointer: str, data: Any) -> list[RawRow]:
    """The rows of every container a ``*`` pointer reaches (``report:/*``: the items of each member)."""
    out: list[RawRow] = []
    for where, keys, container in expand(data, pointer, role):
        if isinstance(container, list):
            out.extend((join(where, i), join(where, i), None, v, keys) for i, v in enumerate(container))
        elif isinstance(container, dict):
            out.extend((join(where, k), join(where, k), k, v, keys) for k, v in container.items())
        else:
            got = "missing" if container is MISSING else described(container)
            raise Fail(f"{role}:{where} must be an array or object of rows, got {got}", where, role, None,
                       "an array or object of rows")
    return out


def read_rows(ctx: Context, source: str, id_field: str | None, min_rows: int = 1, one_row: bool = False) -> Rows:
    """The rows of a source, each an object, with unique ids when ``id_field`` is given.

    With ``one_row`` the object at the source is itself the only row (a ratio of two fields of
    one summary).
    """
    if one_row:
        role, pointer = (source, "") if _ROLE.match(source) else split_ref(source)
        doc = ctx.doc(role)
        if doc.data is None:
            raise Fail(f"document '{role}' is not a JSON document: one_row needs an object", document=role)
        obj = resolve(doc.data, pointer)
        if not isinstance(obj, dict):
            raise Fail(f"{role}:{pointer or '/'} must be an object, got {described(obj) if obj is not MISSING else 'missing'}",
                       pointer, role, None, "an object")
        return Rows(role, pointer, [Row(f"{role}:{pointer or '/'}", pointer, None, obj)], "objects")
    role, pointer, raw, noun = source_rows(ctx, source)
    if len(raw) < min_rows:
        raise Fail(f"{role}:{pointer or ''} has {len(raw)} {noun} (at least {min_rows} needed)".replace(":  ", " "),
                   pointer, role, len(raw), f">= {min_rows}")
    items: list[Row] = []
    seen: dict[str, tuple[str, str]] = {}
    for where, ptr, key, value, keys in raw:
        if not isinstance(value, dict):
            raise Fail(f"{role} {where} must be an object, got {described(value)}", ptr, role,
                       None, "an object")
        ident = key
        if id_field is not None:
            raw_id = resolve(value, id_field)
            if isinstance(raw_id, bool) or not isinstance(raw_id, (str, int)) or raw_id == "":
                raise Fail(f"{role} {where}: the row id {id_field} must be a non-empty string or an integer, "
                           f"got {described(raw_id)}", ptr + id_field if ptr else "", role, None, "a row id")
            ident = str(raw_id)
            # ids that look the same to a reader (a zero-width space, an unassigned code point,
            # fullwidth letters, case, a Cyrillic letter shaped like a Latin one) are one id
            key = id_key(ident)
            if key in seen:
                first_where, first = seen[key]
                differ = canonical.describe(first, ident)
                how = "" if first == ident else f" ({canonical.shown(ident)} and {canonical.shown(first)} {differ})"
                raise Fail(f"{role}: row id {canonical.shown(ident)} appears twice{how} ({first_where} and {where}); "
                           "a summary over a repeated row is not a summary of the run", ptr + id_field if ptr else "",
                           role, ident, "unique row ids")
            seen[key] = (where, ident)
        items.append(Row(where, ptr, ident, value, keys))
    return Rows(role, pointer, items, noun)


def field_value(rows: Rows, row: Row, field: str) -> Any:
    """A present, non-null field of a row, or a Fail naming the row."""
    value = resolve(row.value, field)
    if value is MISSING or value is None:
        raise Fail(f"{rows.role} {row.label()}: {field} is {'missing' if value is MISSING else 'null'}",
                   rows.field_pointer(row, field), rows.role, None, "a value")
    return value


def selected(rows: Rows, row: Row, where: list[RowTest]) -> bool:
    """Whether every test of ``where`` holds for the row; a Fail when one cannot be decided."""
    for test in where:
        value = field_value(rows, row, test.field)
        if test.contains is not None or test.not_contains is not None:
            if not isinstance(value, str):
                raise Fail(f"{rows.role} {row.label()}: {test.field} must be a string to test "
                           f"'{test.describe()}', got {described(value)}", rows.field_pointer(row, test.field),
                           rows.role, None, "a string")
            holds = (test.contains in value) if test.contains is not None else (test.not_contains not in value)
        elif test.equals is not None:
            holds = same(value, test.equals)
        elif test.not_equals is not None:
            holds = not same(value, test.not_equals)
        elif test.one_of is not None:
            holds = any(same(value, v) for v in test.one_of)
        else:
            holds = not any(same(value, v) for v in test.not_one_of or [])
        if not holds:
            return False
    return True


def describe_where(where: list[RowTest]) -> str:
    return " and ".join(t.describe() for t in where)


def group_template(name: str, value: str | None) -> None:
    """A profile error for a per-group ref without exactly one ``{group}``."""
    if value is not None and value.count("{group}") != 1:
        raise ValueError(f"{name} {value!r} must contain {{group}} once, where the group's name goes")


def group_ref(template: str, group: str) -> str:
    """The ref of one group's claim: ``{group}`` replaced by the group name as a pointer token."""
    return template.replace("{group}", group.replace("~", "~0").replace("/", "~1"))


def types_by_id(doc: Doc) -> Mapping[str, str | None]:
    """Question type by id from a dataset document (the streamed summary or a JSON array)."""
    if doc.extra.get("format") == "dataset":
        pairs: Iterator[tuple[Any, Any]] = zip(doc.extra["ids"], doc.extra["types"])
    elif isinstance(doc.data, list):
        pairs = ((e.get("question_id"), e.get("question_type")) if isinstance(e, dict) else (None, None)
                 for e in doc.data)
    else:
        raise Fail(f"document '{doc.role}' ({doc.path}) must be a dataset: a JSON array of questions with "
                   "question_id and question_type", document=doc.role)
    out: dict[str, str | None] = {}
    for qid, qtype in pairs:
        if isinstance(qid, str) and qid:
            if qid in out:
                raise Fail(f"dataset '{doc.role}' lists question {qid!r} twice", document=doc.role)
            out[qid] = qtype if isinstance(qtype, str) and qtype else None
    return out


# --- claims ------------------------------------------------------------------------------

Unit = Literal["fraction", "percent"]


def claim_number(value: Any, label: str, pointer: str, role: str) -> Fraction:
    """The exact value of a claimed number as written; a Fail for anything else."""
    if value is MISSING or value is None:
        raise Fail(f"{label} is {'missing' if value is MISSING else 'null'}", pointer, role, None, "a number")
    number = exact_number(value)
    if number is None:
        raise Fail(f"{label} must be a number, got {described(value)}", pointer, role,
                   None if isinstance(value, (dict, list)) else value, "a number")
    return number


def judged(claimed_raw: Any, exact: Fraction | float, places: int | None, tolerance: Fraction,
           unit: Unit = "fraction", min_places: int | None = None, rate: bool = True) -> rounding.Judgement | None:
    """How a claimed number states the recomputed value (see the module documentation); None
    when the claim is not a number. ``rate``: the value is a share (its boundaries are 0 and 1,
    or 0 and 100 %), not a count or a sum (boundary 0 only)."""
    value: Fraction | float = exact * 100 if unit == "percent" else exact
    return rounding.judge(claimed_raw, value,
                          min_places=rounding.min_places_for(unit) if min_places is None else min_places,
                          places=places, tolerance=tolerance,
                          boundaries=rounding.boundaries_for(unit) if rate else rounding.POINT_BOUNDARIES)


def matches(claimed_raw: Any, exact: Fraction | float, places: int | None, tolerance: Fraction,
            unit: Unit = "fraction", min_places: int | None = None, rate: bool = True) -> bool:
    """Whether a claimed number states the recomputed value (see the module documentation)."""
    found = judged(claimed_raw, exact, places, tolerance, unit, min_places, rate)
    return found is not None and found.ok


def check_places(places: int | None, min_places: int | None) -> None:
    """A profile error for places or min_places outside 0..20."""
    for name, value in (("places", places), ("min_places", min_places)):
        if value is not None and not 0 <= value <= 20:
            raise ValueError(f"{name} must be between 0 and 20")


def show_value(value: Fraction | float, unit: Unit = "fraction") -> str:
    """A recomputed value for messages: exact when short, else 6 places (a percent with a %)."""
    if unit == "percent":
        return show_fraction(Fraction(value) * 100, 4) + "%"
    if isinstance(value, float):
        return f"{value:.6f}".rstrip("0").rstrip(".") if value not in (0.0, 1.0) else str(int(value))
    if abs(value) >= 10**15 or 0 < abs(value) < Fraction(1, 10**6):
        # a sum of 400-digit numbers, or of 1e-300s, is shown in scientific notation: not as 0.000000
        return f"{Decimal(value.numerator) / Decimal(value.denominator):.6e}"
    return show_fraction(value, 6)
