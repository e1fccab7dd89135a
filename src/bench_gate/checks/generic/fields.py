"""The ``fields`` kind: presence, type and value constraints of the fields of an object, or of
every item of a list.

Most rules of a profile are made of it. A field is named by a JSON Pointer (alternatives
``/generated_at|/timestamp``: the first present is checked) and may carry a type, ranges,
allowed values, refused placeholders and a pattern; see :func:`fields` for every option. The
helpers that check one field (:func:`check_field`) and describe fields that pass
(:func:`describe_fields`) are used by other kinds too, as is :func:`placeholder_digest` (a
well-formed digest that hashes nothing).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from itertools import repeat
from typing import Any

from bench_gate.records import record
from bench_gate.checks.base import (
    described,
    kind,   # noqa: I001
    same,
    FORBID,
    MISSING,
    Context,
    Fail,
    expand,
    failed,
    has_wildcard,
    jsonable,
    join,
    lookup,
    need,
    passed,
    resolve,
    show,
    split_ref,
    type_name,
)
from bench_gate.models import Finding, exact_number

Number = int | float

NAMED_PATTERNS = {
    "commit": r"[0-9a-f]{40}",
    "sha256": r"[0-9a-f]{64}",
    "sha256-uri": r"sha256:[0-9a-f]{64}",
}
NAMED_PATTERN_TEXT = {
    "commit": "a full 40-hex commit SHA in lowercase (a short SHA is ambiguous: as a repository grows, "
              "more commits share its prefix)",
}
"""How a failure message describes each named pattern: what is expected, and why."""
TYPES = ("string", "integer", "number", "boolean", "object", "array", "string-or-array", "any")
EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
"""The SHA-256 of zero bytes: a tool that hashed nothing (an empty or unread file) writes it."""


def placeholder_digest(digest: str) -> str | None:
    """Why a well-formed hex digest is a placeholder rather than a real hash, or None.

    One repeated character (``000…0``, ``fff…f``) is what a template or a stub writes; the
    SHA-256 of empty input is what hashing a missing or empty file gives.
    """
    hexpart = digest.split(":", 1)[-1].lower()
    if hexpart and len(set(hexpart)) == 1:
        return f"a placeholder digest (all {hexpart[0]!r})"
    if hexpart == EMPTY_SHA256:
        return "the SHA-256 of empty input"
    return None


# --- fields ------------------------------------------------------------------------------


@record
class FieldSpec:
    __pydantic_config__ = FORBID
    path: str
    type: str = "any"
    non_empty: bool = True
    optional: bool = False
    one_of: list[Any] | None = None
    not_one_of: list[Any] | None = None
    min: Number | None = None
    max: Number | None = None
    exclusive_min: Number | None = None
    exclusive_max: Number | None = None
    pattern: str | None = None
    equals_ref: str | None = None
    expect: str | None = None

    def __post_init__(self) -> None:
        if self.type not in TYPES:
            raise ValueError(f"type must be one of {', '.join(TYPES)}")
        for alt in self.path.split("|"):
            if alt and not alt.startswith("/"):
                raise ValueError(f"path {alt!r} must be a JSON Pointer starting with /")
        if self.pattern is not None:
            re.compile(NAMED_PATTERNS.get(self.pattern, self.pattern))


@record
class FieldsParams:
    __pydantic_config__ = FORBID
    fields: list[FieldSpec]
    base: str = ""
    each: bool = False
    min_items: int = 1


def _type_ok(value: Any, wanted: str) -> bool:
    if wanted == "any":
        return True
    if wanted == "string":
        return isinstance(value, str)
    if wanted == "integer":
        return not isinstance(value, bool) and isinstance(value, (int, float)) and \
            exact_number(value) is not None and exact_number(value).denominator == 1  # type: ignore[union-attr]
    if wanted == "number":
        return exact_number(value) is not None
    if wanted == "boolean":
        return isinstance(value, bool)
    if wanted == "object":
        return isinstance(value, dict)
    if wanted == "array":
        return isinstance(value, list)
    return isinstance(value, (str, list))  # string-or-array


def is_empty(value: Any) -> bool:
    """No visible content: a string of only spaces or invisible characters ("\u200b"), [] or {}."""
    if isinstance(value, str):
        if _PRINTABLE_ASCII.fullmatch(value):
            return False  # ASCII letters, digits, punctuation and symbols are all visible
        from bench_gate.text.canonical import visible

        return not visible(value)
    return isinstance(value, (list, dict)) and not value


_PRINTABLE_ASCII = re.compile("[!-~]+")


def _bad_item(value: list[Any], pointer: str, role: str) -> Finding | None:
    """A string-or-array given as an array (an argv) holds only visible strings."""
    for i, item in enumerate(value):
        if not isinstance(item, str):
            return failed(f"{pointer}/{i} must be a string, got {described(item)}", f"{pointer}/{i}",
                          role, jsonable(item), "a string")
        if is_empty(item):
            return failed(f"{pointer}/{i} is empty", f"{pointer}/{i}", role, item, "non-empty")
    return None


def _placeholder(value: Any, bad_values: list[Any]) -> bool:
    """Equal to a placeholder as a reader sees it (``N/A`` is ``n/a``), or no letter or digit at all
    (``-``, ``???``): a string that names nothing."""
    from bench_gate.text.canonical import skeleton

    if not isinstance(value, str):
        return any(same(value, bad) for bad in bad_values)
    key = skeleton(value)
    return not key or any(isinstance(bad, str) and skeleton(bad) == key for bad in bad_values)


@lru_cache(maxsize=1024)
def _alternatives(path: str) -> tuple[str, ...]:
    """The pointers of a field path (``/generated_at|/timestamp``), split once per path."""
    return tuple(path.split("|"))


def check_field(ctx: Context, obj: Any, spec: FieldSpec, role: str, base: str) -> Finding | None:
    """None if the field satisfies the spec, else a failing finding at its location."""
    alts = _alternatives(spec.path)
    chosen, value = alts[0], MISSING
    for alt in alts:
        candidate = resolve(obj, alt)
        if candidate is not MISSING:
            chosen, value = alt, candidate
            break
    pointer = base + chosen
    if value is MISSING:
        if spec.optional:
            return None
        label = pointer if len(alts) == 1 else f"{pointer} (or {', '.join(base + a for a in alts[1:])})"
        return failed(f"{label} is missing", pointer, role, None, "present")
    if value is None:
        return failed(f"{pointer} is null", pointer, role, None, _expected(spec))
    if not _type_ok(value, spec.type):
        what = "an exact integer" if spec.type == "integer" else f"a {spec.type}"
        return failed(f"{pointer} must be {what}, got {described(value)}", pointer, role,
                      jsonable(value), _expected(spec))
    if spec.non_empty and is_empty(value):
        return failed(f"{pointer} is empty", pointer, role, jsonable(value), "non-empty")
    if spec.non_empty and spec.type == "string-or-array" and isinstance(value, list):
        bad_item = _bad_item(value, pointer, role)
        if bad_item is not None:
            return bad_item
    if spec.one_of is not None and not any(same(value, v) for v in spec.one_of):
        wanted = spec.expect or (show(spec.one_of[0]) if len(spec.one_of) == 1 else
                                 "one of " + ", ".join(show(v) for v in spec.one_of))
        return failed(f"{pointer} is {show(value)}, expected {wanted}", pointer, role, jsonable(value),
                      spec.one_of[0] if len(spec.one_of) == 1 else spec.one_of)
    if spec.not_one_of is not None and _placeholder(value, spec.not_one_of):
        return failed(f"{pointer} is the placeholder {show(value)}", pointer, role,
                      jsonable(value), f"not one of {spec.not_one_of}")
    if spec.min is not None or spec.max is not None or spec.exclusive_min is not None or \
            spec.exclusive_max is not None:
        bounds = [(spec.min, ">=", "below the minimum"), (spec.max, "<=", "above the maximum"),
                  (spec.exclusive_min, ">", "not above"), (spec.exclusive_max, "<", "not below")]
        number = exact_number(value)
        if number is None:
            return failed(f"{pointer} must be a number, got {described(value)}", pointer, role,
                          jsonable(value), "a number")
        for limit, op, words in bounds:
            if limit is None:
                continue
            lim = exact_number(limit)
            assert lim is not None
            ok = {">=": number >= lim, "<=": number <= lim, ">": number > lim, "<": number < lim}[op]
            if not ok:
                return failed(f"{pointer} is {show(value)}, {words} {show(limit)}", pointer, role,
                              jsonable(value), f"{op} {show(limit)}")
    if spec.pattern is not None:
        regex = NAMED_PATTERNS.get(spec.pattern, spec.pattern)
        if not isinstance(value, str) or re.fullmatch(regex, value) is None:
            name = spec.expect or (f"a {spec.pattern}" if spec.pattern in NAMED_PATTERNS else f"a match of /{regex}/")
            wanted = spec.expect or NAMED_PATTERN_TEXT.get(spec.pattern or "", name)
            return failed(f"{pointer} is {show(value)}, expected {wanted}", pointer, role, jsonable(value), name)
        fake = placeholder_digest(value) if spec.pattern in NAMED_PATTERNS else None
        if fake:
            name = spec.expect or f"a real {spec.pattern}"
            return failed(f"{pointer} is {show(value)}, {fake}, expected {name}", pointer, role, value, name)
    if spec.equals_ref is not None:
        other, orole, optr = lookup(ctx, spec.equals_ref)
        if not same(value, other):
            return failed(f"{pointer} is {show(value)} but {orole}:{optr} is {show(other)}", pointer, role,
                          jsonable(value), jsonable(other))
    return None


def _top_keys(spec: FieldSpec) -> tuple[str, ...] | None:
    """The keys of a field checked only for presence, type and non-emptiness whose path is
    one key or alternative keys (``/question_id|/case_id``); None for any other field."""
    if any(v is not None for v in (spec.one_of, spec.not_one_of, spec.min, spec.max, spec.exclusive_min,
                                   spec.exclusive_max, spec.pattern, spec.equals_ref)):
        return None
    keys = tuple(alt[1:] for alt in _alternatives(spec.path))
    if any(not key or "/" in key or "~" in key for key in keys):
        return None
    return keys


def _plainly_ok(item: dict[str, Any], keys: tuple[str, ...], spec: FieldSpec) -> bool:
    """True when :func:`check_field` would find nothing wrong with this field of ``item``
    (``keys`` from :func:`_top_keys`); False leaves the decision and the wording to it."""
    for key in keys:
        value = item.get(key, MISSING)
        if value is not MISSING:
            break
    else:
        return spec.optional
    if value is None or not _type_ok(value, spec.type):
        return False
    if spec.non_empty and (is_empty(value) or (spec.type == "string-or-array" and isinstance(value, list))):
        return False  # an array of strings is checked item by item there
    return True


_COLUMN_TYPES: dict[str, type] = {"string": str, "array": list, "object": dict}


def _all_plainly_ok(items: list[Any], quick: list[tuple[tuple[str, ...] | None, FieldSpec]]) -> bool:
    """True when every item is an object and :func:`_plainly_ok` holds for each of its fields,
    shown field by field over all the items at once in a few C-level passes; False when that
    does not show it (then every item is looked at on its own).

    It shows it only for string, array and object fields whose first key every item has: of the
    type exactly, and when non-empty, truthy, and for strings all of printable ASCII (so each
    is non-empty and visible, as :func:`is_empty` decides).
    """
    if not items or set(map(type, items)) != {dict}:
        return False
    for keys, spec in quick:
        wanted = _COLUMN_TYPES.get(spec.type)
        if keys is None or wanted is None:
            return False
        values = list(map(dict.get, items, repeat(keys[0])))
        if set(map(type, values)) != {wanted}:
            return False
        if spec.non_empty and not (all(values) and (wanted is not str or _PRINTABLE_ASCII.fullmatch("".join(values)))):
            return False
    return True


def describe_fields(obj: Any, specs: list[FieldSpec]) -> str:
    """``name=value`` for each checked field (``name absent, optional`` when absent)."""
    parts = []
    for spec in specs:
        alts = spec.path.split("|")
        for alt in alts:
            value = resolve(obj, alt)
            if value is not MISSING:
                parts.append(f"{alt.lstrip('/')}={show(value, 80)}")
                break
        else:
            parts.append(f"{alts[0].lstrip('/')} absent (optional)")
    return ", ".join(parts)


def _expected(spec: FieldSpec) -> str:
    return "a value" if spec.type == "any" else f"a {spec.type}"


@kind("fields", FieldsParams, "presence, type and value constraints of fields")
def fields(ctx: Context, p: FieldsParams) -> Iterable[Finding]:
    """Presence, type, non-emptiness, ranges, allowed values, placeholders and patterns of fields
    in one object (``base``) or in every item of a list (``each: true``). A ``*`` token in
    ``base`` goes through every member (or item) at that level: ``base: /*`` with ``each: true``
    checks every item of every list of an object of lists (the Mem0 LoCoMo output, one list per
    conversation; ``min_items`` then counts all the items). A field path may list
    alternatives, ``/generated_at|/timestamp``: the first one present is checked. Example::

        check: fields
        with:
          base: /runtime
          fields:
            - {path: /embedding_dimensions, type: integer, min: 0}
            - {path: /retrieval_mode, type: string, one_of: [hybrid, raw, native]}

    Field options: ``type`` (string, integer, number, boolean, object, array,
    string-or-array, any; default any), ``non_empty`` (default true: no string without a
    visible character (spaces, zero-width and other invisible characters do not count), empty
    list or empty object, and a string-or-array given as an array holds only such strings),
    ``optional`` (absent is fine; present is checked), ``one_of``, ``not_one_of``
    (placeholders: strings compared on their letters and digits as a reader sees them, so
    ``N/A`` is ``n/a``; a string with no letter or digit at all, ``-`` or ``???``, is a
    placeholder too), ``min``,
    ``max``, ``exclusive_min``, ``exclusive_max`` (exact), ``pattern`` (a regular expression
    or one of ``commit`` (40 hex), ``sha256`` (64 lowercase hex), ``sha256-uri``
    (``sha256:`` + 64 hex); a named pattern also refuses placeholder digests: one repeated
    character such as all zeros, and the SHA-256 of empty input), ``equals_ref`` (equal to
    the value at another ref), ``expect`` (how the expected value is described in a failure
    message).
    """
    if has_wildcard(split_ref(p.base)[1]):
        return _fields_everywhere(ctx, p)
    obj, role, base_ptr = need(ctx, p.base)
    if not p.each:
        if not isinstance(obj, dict):
            raise Fail(f"{base_ptr or 'the document'} must be an object, got {type_name(obj)}", base_ptr, role,
                       jsonable(obj) if not isinstance(obj, (dict, list)) else type_name(obj), "an object")
        problems = [f for f in (check_field(ctx, obj, s, role, base_ptr) for s in p.fields) if f]
        if problems:
            return problems
        return [passed(f"{base_ptr or role}: {describe_fields(obj, p.fields)}", base_ptr, role)]
    if not isinstance(obj, list):
        raise Fail(f"{base_ptr} must be a list, got {type_name(obj)}", base_ptr, role, None, "a list")
    if len(obj) < p.min_items:
        raise Fail(f"{base_ptr} has {len(obj)} items (at least {p.min_items} needed)", base_ptr, role,
                   len(obj), f">= {p.min_items}")
    out = _check_items(ctx, p, obj, role, base_ptr)
    if out:
        return out
    names = ", ".join(f.path.lstrip("/").replace("|/", " or ") for f in p.fields)
    return [passed(f"all {len(obj)} items of {base_ptr} have {names}", base_ptr, role)]


def _check_items(ctx: Context, p: FieldsParams, items: list[Any], role: str, base_ptr: str) -> list[Finding]:
    out: list[Finding] = []
    quick = [(_top_keys(s), s) for s in p.fields]
    if _all_plainly_ok(items, quick):
        return out
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            out.append(failed(f"{join(base_ptr, i)} must be an object, got {type_name(item)}", join(base_ptr, i),
                              role))
            continue
        if all(keys is not None and _plainly_ok(item, keys, s) for keys, s in quick):
            continue  # nearly every item: nothing to say, so nothing is worded
        where = join(base_ptr, i)
        out.extend(f for f in (check_field(ctx, item, s, role, where) for s in p.fields) if f)
    return out


def _fields_everywhere(ctx: Context, p: FieldsParams) -> list[Finding]:
    """``base`` with ``*``: every object it reaches (``each``: every item of every list it reaches)."""
    role, pointer = split_ref(p.base)
    doc = ctx.doc(role)
    if doc.data is None:
        raise Fail(f"document '{role}' is not a JSON document: {p.base} needs one", document=role)
    found = expand(doc.data, pointer, role)
    out: list[Finding] = []
    count = 0
    for where, _, value in found:
        if value is MISSING or value is None:
            out.append(failed(f"{where} is {'missing' if value is MISSING else 'null'}", where, role, None,
                              "a list" if p.each else "an object"))
        elif p.each and not isinstance(value, list):
            out.append(failed(f"{where} must be a list, got {type_name(value)}", where, role, None, "a list"))
        elif p.each:
            count += len(value)
            out.extend(_check_items(ctx, p, value, role, where))
        elif not isinstance(value, dict):
            out.append(failed(f"{where} must be an object, got {type_name(value)}", where, role, None, "an object"))
        else:
            count += 1
            out.extend(f for f in (check_field(ctx, value, s, role, where) for s in p.fields) if f)
    if not out and count < p.min_items:
        out.append(failed(f"{p.base} reaches {count} {'items' if p.each else 'objects'} (at least {p.min_items} "
                          "needed)", pointer, role, count, f">= {p.min_items}"))
    if out:
        return out
    names = ", ".join(f.path.lstrip("/").replace("|/", " or ") for f in p.fields)
    what = f"items of the {len(found)} lists" if p.each else "objects"
    return [passed(f"all {count} {what} at {pointer} have {names}", pointer, role)]
