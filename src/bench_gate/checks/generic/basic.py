"""Generic check kinds: the building blocks most rules are made of."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import field
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
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
    as_count,
    as_number,
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
    show_fraction,
    skipped,
    split_ref,
    type_name,
)
from bench_gate.models import Finding, exact_number
from bench_gate.text import rounding

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


def _empty(value: Any) -> bool:
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
        if _empty(item):
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
    if spec.non_empty and _empty(value):
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
    if spec.non_empty and (_empty(value) or (spec.type == "string-or-array" and isinstance(value, list))):
        return False  # an array of strings is checked item by item there
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


# --- equal -------------------------------------------------------------------------------


@record
class EqualParams:
    __pydantic_config__ = FORBID
    groups: list[list[str]]
    optional: bool = False


@kind("equal", EqualParams, "groups of values that must be equal")
def equal(ctx: Context, p: EqualParams) -> Iterable[Finding]:
    """Each group of refs holds the same JSON value (``true`` is not ``1``; ``1`` is ``1.0``).
    With ``optional: true`` a group with an absent member is skipped instead of failing.
    """
    out: list[Finding] = []
    checked = 0
    for group in p.groups:
        if len(group) < 2:
            raise Fail("an equal group needs at least two refs")
        vals = [lookup(ctx, ref) for ref in group]
        absent = [f"{r}:{ptr}" for v, r, ptr in vals if v is MISSING]
        if absent:
            if p.optional:
                continue
            v, r, ptr = next(x for x in vals if x[0] is MISSING)
            out.append(failed(f"{r}:{ptr} is missing (it must equal {', '.join(group)})", ptr, r, None, "present"))
            continue
        nulls = [x for x in vals if x[0] is None]
        if nulls:  # null equal to null is no evidence that two values agree
            v, r, ptr = nulls[0]
            out.append(failed(f"{r}:{ptr} is null (it must equal {', '.join(group)})", ptr, r, None, "a value"))
            continue
        checked += 1
        first, frole, fptr = vals[0]
        for v, r, ptr in vals[1:]:
            if not same(first, v):
                out.append(failed(f"{r}:{ptr} is {show(v)} but {frole}:{fptr} is {show(first)}", ptr, r,
                                  jsonable(v), jsonable(first)))
    if out:
        return out
    if checked == 0:
        return [skipped("nothing to compare: the values are absent")]
    return [passed(f"{checked} group{'s' if checked != 1 else ''} of values agree")]


# --- thresholds --------------------------------------------------------------------------


@record
class ThresholdParams:
    __pydantic_config__ = FORBID
    table: str = "/overall"
    min: dict[str, Number] = field(default_factory=dict)
    max: dict[str, Number] = field(default_factory=dict)
    extra_min: dict[str, Number] | None = None
    extra_max: dict[str, Number] | None = None


def _limits(p: ThresholdParams) -> list[tuple[str, str, Fraction, Any]]:
    mins = {**p.min, **(p.extra_min or {})}
    maxs = {**p.max, **(p.extra_max or {})}
    out = []
    for name, lim in mins.items():
        out.append((name, ">=", exact_number(lim), lim))
    for name, lim in maxs.items():
        out.append((name, "<=", exact_number(lim), lim))
    return out  # type: ignore[return-value]


def compare_table(table: Any, where: str, role: str, limits: list[tuple[str, str, Fraction, Any]],
                  label: str) -> tuple[list[Finding], list[str]]:
    problems: list[Finding] = []
    shown: list[str] = []
    for name, op, lim, raw in limits:
        ptr = join(where, name)
        value = table.get(name, MISSING)
        if value is MISSING or value is None:
            problems.append(failed(f"{label} {name} is {'missing' if value is MISSING else 'null'} "
                                   f"(threshold {op} {show(raw)})", ptr, role, None, f"{op} {show(raw)}"))
            continue
        number = exact_number(value)
        if number is None:
            problems.append(failed(f"{label} {name} must be a number, got {described(value)}",
                                   ptr, role, jsonable(value), f"{op} {show(raw)}"))
            continue
        ok = number >= lim if op == ">=" else number <= lim
        if not ok:
            words = "below the minimum" if op == ">=" else "above the maximum"
            shown_value = show_fraction(number)
            if Fraction(shown_value) == lim:  # rounded, 0.7499999 would read "0.7500 is below 0.75"
                shown_value = show(value)
            problems.append(failed(f"{label} {name} {shown_value} is {words} {show(raw)}", ptr, role,
                                   jsonable(value), f"{op} {show(raw)}"))
        else:
            shown.append(f"{name} {show_fraction(number)} {'≥' if op == '>=' else '≤'} {show(raw)}")
    return problems, shown


@kind("metric_thresholds", ThresholdParams, "minimum/maximum metric values")
def metric_thresholds(ctx: Context, p: ThresholdParams) -> Iterable[Finding]:
    """Minimum and maximum values of the metrics in one metric table (``/overall``). ``extra_min``
    and ``extra_max`` (from ``--min-metric`` / ``--max-metric``) add or override limits.
    A missing metric fails. Comparison is exact: a tie with a minimum passes, ``0.7499`` does
    not pass ``0.75``.
    """
    table, role, ptr = need(ctx, p.table)
    if not isinstance(table, dict):
        raise Fail(f"{ptr} must be an object of metrics, got {type_name(table)}", ptr, role)
    limits = _limits(p)
    if not limits:
        return [skipped("no thresholds configured")]
    problems, shown = compare_table(table, ptr, role, limits, ptr.lstrip("/") or "report")
    return problems or [passed(f"{ptr.lstrip('/')}: " + ", ".join(shown), ptr, role)]


@record
class SliceParams:
    __pydantic_config__ = FORBID
    summaries: list[str] = field(default_factory=lambda: ["/per_type", "/per_slice", "/per_category", "/per_task"])
    min: dict[str, Number] = field(default_factory=dict)
    max: dict[str, Number] = field(default_factory=dict)
    min_cases: int = 10
    per_type: str = "/per_type"
    cases: str = "/case_results"
    type_field: str = "question_type"
    diagnostic_counts: str = "/diagnostics/question_type_counts"


def _type_counts(ctx: Context, p: SliceParams) -> dict[str, int] | None:
    cases, _, _ = lookup(ctx, p.cases)
    if isinstance(cases, list):
        counts: dict[str, int] = {}
        for case in cases:
            if isinstance(case, dict) and isinstance(case.get(p.type_field), str):
                counts[case[p.type_field]] = counts.get(case[p.type_field], 0) + 1
        return counts
    diag, role, ptr = lookup(ctx, p.diagnostic_counts)
    if isinstance(diag, dict):
        out = {}
        for name, entry in diag.items():
            raw = entry.get("cases") if isinstance(entry, dict) else MISSING
            try:
                out[name] = as_count(raw, f"{ptr}/{name}/cases", join(ptr, name, "cases"), role)
            except Fail:
                continue  # an unreadable count leaves the slice checked (fail closed)
        return out
    return None


@kind("slice_thresholds", SliceParams, "thresholds on every summary slice")
def slice_thresholds(ctx: Context, p: SliceParams) -> Iterable[Finding]:
    """The same limits on every slice of every summary table (``/per_type`` ...), except per-type
    slices with fewer than ``min_cases`` cases (counted from the cases when they are there,
    else from ``/diagnostics/question_type_counts``; a slice whose count is unknown is checked).
    """
    limits = _limits(ThresholdParams(min=p.min, max=p.max))
    counts = _type_counts(ctx, p)
    problems: list[Finding] = []
    checked, exempt = 0, []
    for summary in p.summaries:
        table, role, ptr = lookup(ctx, summary)
        if table is MISSING:
            continue
        if not isinstance(table, dict):
            problems.append(failed(f"{ptr} must be an object of slices, got {type_name(table)}", ptr, role))
            continue
        for name, metrics in table.items():
            where = join(ptr, name)
            if summary == p.per_type and counts is not None and name in counts and counts[name] < p.min_cases:
                exempt.append(f"{name} ({counts[name]} cases)")
                continue
            if not isinstance(metrics, dict):
                problems.append(failed(f"{where} must be an object of metrics, got {type_name(metrics)}", where, role))
                continue
            checked += 1
            found, _ = compare_table(metrics, where, role, limits, f"{ptr.lstrip('/')}[{name}]")
            problems.extend(found)
    if problems:
        return problems
    if checked == 0 and not exempt:
        return [failed("no summary slices to check (" + ", ".join(p.summaries) + " are all absent)")]
    note = f"; exempt (fewer than {p.min_cases} cases): {', '.join(exempt)}" if exempt else ""
    if checked == 0:
        return [passed(f"no slice has {p.min_cases} or more cases, so no slice minimum applies{note}")]
    return [passed(f"{checked} slices meet " + ", ".join(f"{n} {op} {show(r)}" for n, op, _, r in limits) + note)]


def lookup_first(ctx: Context, refs: str) -> tuple[Any, str, str]:
    """The first present value among ``a|b`` alternatives (the first ref when none is)."""
    options = refs.split("|")
    for i, ref in enumerate(options):
        if i and not ref.startswith("/") and ":" not in ref:
            raise Fail(f"alternative {ref!r} is not a ref")
        found = lookup(ctx, ref)
        if found[0] is not MISSING:
            return found
    return lookup(ctx, options[0])


# --- presence among alternatives ---------------------------------------------------------


@record
class AnyPresentParams:
    __pydantic_config__ = FORBID
    refs: list[str]


@kind("any_present", AnyPresentParams, "at least one non-empty summary")
def any_present(ctx: Context, p: AnyPresentParams) -> Iterable[Finding]:
    """At least one of several refs is a non-empty object (or list)."""
    seen = []
    for ref in p.refs:
        value, role, ptr = lookup(ctx, ref)
        if isinstance(value, (dict, list)) and value:
            return [passed(f"{ptr} is present with {len(value)} entries", ptr, role)]
        seen.append(f"{ptr} {'absent' if value is MISSING else 'empty' if _empty(value) else type_name(value)}")
    role, ptr = split_ref(p.refs[0])
    return [failed("none of the summaries is a non-empty object: " + ", ".join(seen), ptr, role, None,
                   "one non-empty summary")]


# --- counts ------------------------------------------------------------------------------


@record
class CountsParams:
    __pydantic_config__ = FORBID
    values: list[str] = field(default_factory=list)
    lengths: list[str] = field(default_factory=list)
    optional: list[str] = field(default_factory=list)
    equals: int | None = None


@kind("counts_agree", CountsParams, "integer counts and lengths agree")
def counts_agree(ctx: Context, p: CountsParams) -> Iterable[Finding]:
    """Exact integer counts (and list lengths) agree with each other and with ``equals``."""
    found: list[tuple[str, int, str, str]] = []
    for ref in p.values:
        value, role, ptr = lookup_first(ctx, ref)
        if value is MISSING and ref in p.optional:
            continue
        if value is MISSING or value is None:
            raise Fail(f"{ptr} is {'missing' if value is MISSING else 'null'}", ptr, role, None, "an integer count")
        found.append((ptr, as_count(value, ptr, ptr, role), role, ptr))
    for ref in p.lengths:
        value, role, ptr = lookup(ctx, ref)
        if value is MISSING and ref in p.optional:
            continue
        if not isinstance(value, list):
            raise Fail(f"{ptr} must be a list, got {type_name(value)}", ptr, role, None, "a list")
        found.append((f"len({ptr})", len(value), role, ptr))
    if not found:
        return [skipped("no counts present")]
    described = ", ".join(f"{name} = {n}" for name, n, _, _ in found)
    if p.equals is not None:
        bad = [(name, n, r, ptr) for name, n, r, ptr in found if n != p.equals]
        if bad:
            name, n, r, ptr = bad[0]
            return [failed(f"{name} is {n}, expected {p.equals} ({described})", ptr, r, n, p.equals)]
    if len({n for _, n, _, _ in found}) > 1:
        name, n, r, ptr = found[-1]
        return [failed(f"counts disagree: {described}", ptr, r, n, found[0][1])]
    return [passed(f"counts agree: {described}")]


@record
class SumParams:
    __pydantic_config__ = FORBID
    total: str
    parts: list[str]
    tolerance: Number = 0


@kind("sum_equals", SumParams, "a total equals the sum of its parts")
def sum_equals(ctx: Context, p: SumParams) -> Iterable[Finding]:
    """``total`` equals the sum of ``parts`` (exactly, or within ``tolerance``)."""
    value, role, ptr = need(ctx, p.total)
    total = as_number(value, ptr, ptr, role)
    acc = Fraction(0)
    names = []
    for ref in p.parts:
        v, r, pp = need(ctx, ref)
        acc += as_number(v, pp, pp, r)
        names.append(pp)
    tol = exact_number(p.tolerance) or Fraction(0)
    if abs(total - acc) > tol:
        return [failed(f"{ptr} is {show(value)} but {' + '.join(names)} = {show_fraction(acc, 6)}", ptr, role,
                       jsonable(value), jsonable(acc))]
    return [passed(f"{ptr} {show(value)} = {' + '.join(names)}", ptr, role)]


@record
class TallyParams:
    __pydantic_config__ = FORBID
    list: str
    flag: str
    eligible: str | None = None
    claimed_count: str | None = None
    claimed_total: str | None = None
    claimed_ratio: str | None = None
    tolerance: Number = 1e-9


@kind("case_tally", TallyParams, "claimed counts and ratio recomputed from cases")
def case_tally(ctx: Context, p: TallyParams) -> Iterable[Finding]:
    """Counts items of a list whose boolean ``flag`` is true (among items whose ``eligible`` flag
    is true) and compares the count, the eligible total and their ratio with the claimed values:
    counts exactly; the ratio within ``tolerance`` (default 1e-9) or by the rule of
    ``bench-gate kinds aggregate`` (its double, or rounded to the decimals it is written with,
    at least 3; 0 and 1 are never reached by rounding).
    """
    items, role, ptr = need(ctx, p.list)
    if not isinstance(items, list) or not items:
        raise Fail(f"{ptr} must be a non-empty list, got {type_name(items)}", ptr, role)
    problems: list[Finding] = []
    count = total = 0
    for i, item in enumerate(items):
        where = join(ptr, i)
        if p.eligible is not None:
            ok = resolve(item, p.eligible)
            if not isinstance(ok, bool):
                problems.append(failed(f"{where}{p.eligible} must be true or false, got {show(ok)}",
                                       where + p.eligible, role, jsonable(ok), "a boolean"))
                continue
            if not ok:
                continue
        flag = resolve(item, p.flag)
        if not isinstance(flag, bool):
            problems.append(failed(f"{where}{p.flag} must be true or false, got {show(flag)}", where + p.flag, role,
                                   jsonable(flag), "a boolean"))
            continue
        total += 1
        count += flag
    if problems:
        return problems
    out: list[Finding] = []
    how = ""
    for ref, actual, what in ((p.claimed_count, count, "counted"), (p.claimed_total, total, "evaluated")):
        if ref is None:
            continue
        v, r, pp = need(ctx, ref)
        claimed = as_count(v, pp, pp, r)
        if claimed != actual:
            out.append(failed(f"{pp} claims {claimed}, but {actual} cases are {what} in {ptr}", pp, r, claimed, actual))
    if p.claimed_ratio is not None:
        v, r, pp = need(ctx, p.claimed_ratio)
        claimed_ratio = as_number(v, pp, pp, r)
        if total == 0:
            out.append(failed(f"{pp} is {show(v)} but no case was evaluated", pp, r, jsonable(v), None))
        else:
            ratio = Fraction(count, total)
            judgement = rounding.judge(v, ratio, tolerance=exact_number(p.tolerance) or 0)
            how = judgement.how_text() if judgement is not None and judgement.ok else ""
            if judgement is None or not judgement.ok:
                why = judgement.why() if judgement is not None else ""
                out.append(failed(f"{pp} claims {show(v)}, but {count}/{total} = {show_fraction(ratio)} from {ptr}"
                                  f"{': ' + why if why else ''}", pp, r, jsonable(v), jsonable(ratio)))
    if out:
        return out
    how = f" (the ratio {how})" if p.claimed_ratio is not None and how else ""
    return [passed(f"{count} of {total} evaluated cases are true; the claims match{how}", ptr, role)]


# --- key/value requirements --------------------------------------------------------------


@record
class KvParams:
    __pydantic_config__ = FORBID
    base: str
    expected: dict[str, str] | None = None


_JSON_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")


def kv_matches(actual: Any, wanted: str) -> bool:
    if wanted in ("true", "false"):
        return isinstance(actual, bool) and actual == (wanted == "true")
    if isinstance(actual, bool):
        return False
    if isinstance(actual, (int, float)):
        if not _JSON_NUMBER.fullmatch(wanted):  # Fraction() also reads "1/2", "1_0" and " 1"
            return False
        return exact_number(actual) == Fraction(wanted)
    return isinstance(actual, str) and actual == wanted


@kind("kv_equal", KvParams, "KEY=VALUE requirements on an object")
def kv_equal(ctx: Context, p: KvParams) -> Iterable[Finding]:
    """Each ``KEY=VALUE`` requirement holds in one object: ``true``/``false`` match JSON booleans,
    a number matches the same number, anything else matches the string exactly.
    """
    if not p.expected:
        return [skipped("no requirements given")]
    obj, role, ptr = need(ctx, p.base)
    if not isinstance(obj, dict):
        raise Fail(f"{ptr} must be an object, got {type_name(obj)}", ptr, role)
    out = []
    for key, wanted in p.expected.items():
        where = join(ptr, key)
        actual = obj.get(key, MISSING)
        if actual is MISSING:
            out.append(failed(f"{where} is missing (required {key}={wanted})", where, role, None, wanted))
        elif not kv_matches(actual, wanted):
            out.append(failed(f"{where} is {show(actual)}, required {key}={wanted}", where, role,
                              jsonable(actual), wanted))
    if out:
        return out
    return [passed(", ".join(f"{k}={v}" for k, v in p.expected.items()), ptr, role)]


# --- regression --------------------------------------------------------------------------

HIGHER_PREFIXES = ("recall@", "hit@", "ndcg@", "precision@", "success@")
HIGHER_NAMES = ("mrr", "pass_rate", "qa_accuracy", "qa_mean_score")
LOWER_SUFFIXES = ("_ms", "_seconds", "_count", "_chars", "_tokens")
FRACTION_METRICS_NOTE = "fractions in [0, 1]"


def direction(name: str) -> str | None:
    """'higher', 'lower' or None (unknown) for a metric name."""
    if name.startswith(HIGHER_PREFIXES) or name in HIGHER_NAMES:
        return "higher"
    if name.endswith(LOWER_SUFFIXES):
        return "lower"
    return None


@record
class RegressionParams:
    __pydantic_config__ = FORBID
    candidate: str = "/overall"
    baseline: str = "baseline:/overall"
    metrics: list[str] = field(default_factory=list)
    default_metrics: list[str] = field(default_factory=list)
    max_regression: dict[str, Number] | None = None

    def __post_init__(self) -> None:
        # an allowance is the most a metric may lose; a negative one would demand an improvement
        # and is a mistake in the command line or profile, never something to evaluate
        for name, value in (self.max_regression or {}).items():
            number = exact_number(value)
            if number is not None and number < 0:
                raise ValueError(f"--max-regression {name}={show(value)}: an allowed regression is never negative "
                                 "(0 allows none)")


@kind("regression", RegressionParams, "no regression against a baseline")
def regression(ctx: Context, p: RegressionParams) -> Iterable[Finding]:
    """Candidate metrics against a baseline document: higher-is-better metrics may not drop, and
    lower-is-better metrics may not rise, by more than ``max_regression`` (default 0). A
    regression of exactly the allowed amount passes. An allowance of 1 or more on a
    higher-is-better fraction fails: it would let any drop pass (a percentage point written as 1). A metric whose direction is unknown fails.
    """
    cand, crole, cptr = need(ctx, p.candidate)
    base, brole, bptr = need(ctx, p.baseline)
    for obj, r, ptr in ((cand, crole, cptr), (base, brole, bptr)):
        if not isinstance(obj, dict):
            raise Fail(f"{r}:{ptr} must be an object of metrics, got {type_name(obj)}", ptr, r)
    metrics = p.metrics or p.default_metrics
    if not metrics:
        raise Fail("no metrics to compare (give --baseline-metric NAME)")
    allowed_map = p.max_regression or {}
    out: list[Finding] = []
    for name in allowed_map:
        if name not in metrics:
            out.append(failed(f"--max-regression {name} is given but {name} is not compared "
                              f"(compared: {', '.join(metrics)})"))
    shown = []
    for name in metrics:
        way = direction(name)
        cp, bp = join(cptr, name), join(bptr, name)
        if way is None:
            out.append(failed(f"{name}: unknown direction (is higher or lower better?); name it with a "
                              "known prefix or suffix", cp, crole))
            continue
        allowed = exact_number(allowed_map.get(name, 0))
        if allowed is None or allowed < 0:
            out.append(failed(f"--max-regression {name} must be a number >= 0", cp, crole))
            continue
        if way == "higher" and allowed >= 1:
            # a fraction in [0, 1] cannot drop by 1 or more: such an allowance lets any drop pass
            out.append(failed(f"--max-regression {name}={show_fraction(allowed)} allows any drop of a fraction in "
                              "[0, 1] (percentage points? one point is 0.01)", cp, crole))
            continue
        try:
            c_raw, b_raw = cand.get(name, MISSING), base.get(name, MISSING)
            c = as_number(c_raw, f"{crole}:{cp}", cp, crole)
            b = as_number(b_raw, f"{brole}:{bp}", bp, brole)
        except Fail as exc:
            out.append(exc.finding)
            continue
        if way == "higher" and (c > 1 or b > 1 or c < 0 or b < 0):
            out.append(failed(f"{name} must be a fraction in [0, 1]: candidate {show_fraction(c)}, baseline "
                              f"{show_fraction(b)} (a percent mixed with a fraction?)", cp, crole))
            continue
        drop = (b - c) if way == "higher" else (c - b)
        if drop > allowed:
            verb = "dropped" if way == "higher" else "rose"
            shown_drop = show_fraction(drop)
            if Fraction(shown_drop) == allowed:  # rounded, 0.10000001 would read "0.1000 (allowed 0.1)"
                shown_drop = format(Decimal(drop.numerator) / Decimal(drop.denominator), "f")
            out.append(failed(f"{name} {verb} from baseline {show(b_raw)} to {show(c_raw)}, a regression "
                              f"of {shown_drop} (allowed {show_fraction(allowed)})", cp, crole,
                              jsonable(c), f"{'>=' if way == 'higher' else '<='} {show_fraction(b - allowed if way == 'higher' else b + allowed)}"))
        else:
            shown.append(f"{name} {show(c_raw)} vs baseline {show(b_raw)}: regression {show_fraction(max(drop, Fraction(0)))}"
                         f" (allowed {show_fraction(allowed)})")
    return out or [passed("; ".join(shown), cptr, crole)]


# --- embedding coherence -----------------------------------------------------------------


@record
class EmbeddingParams:
    __pydantic_config__ = FORBID
    provider: str = "/runtime/embedding_provider"
    model: str = "/runtime/embedding_model"
    dimensions: str = "/runtime/embedding_dimensions"
    non_embedding_providers: list[str] = field(default_factory=lambda: ["none", "not-applicable", "n/a", "disabled"])
    known_dimensions: dict[str, int] = field(default_factory=dict)


@kind("embedding_coherence", EmbeddingParams, "embedding provider/dimensions")
def embedding_coherence(ctx: Context, p: EmbeddingParams) -> Iterable[Finding]:
    """A non-embedding provider has dimensions 0; any other has a positive integer, and a known
    provider/model pair has its known dimensions (a table in the policy).
    """
    provider, prole, pptr = need(ctx, p.provider)
    model, _, _ = need(ctx, p.model)
    dims_raw, drole, dptr = need(ctx, p.dimensions)
    if not isinstance(provider, str) or not isinstance(model, str):
        raise Fail(f"{pptr} and the model must be strings", pptr, prole)
    dims = as_count(dims_raw, dptr, dptr, drole)
    key = f"{provider.strip().lower()}/{model.strip().lower()}"
    if provider.strip().lower() in [x.lower() for x in p.non_embedding_providers]:
        if dims != 0:
            return [failed(f"{dptr} is {dims}, but provider {provider!r} computes no embeddings (expected 0)",
                           dptr, drole, dims, 0)]
        return [passed(f"provider {provider!r} has no embeddings and dimensions 0", dptr, drole)]
    if dims <= 0:
        return [failed(f"{dptr} is {dims}; embedding provider {provider!r} needs a positive dimension",
                       dptr, drole, dims, "> 0")]
    known = {k.lower(): v for k, v in p.known_dimensions.items()}
    if key in known and known[key] != dims:
        return [failed(f"{dptr} is {dims}, but {provider} {model} has {known[key]} dimensions",
                       dptr, drole, dims, known[key])]
    return [passed(f"{provider} {model}: {dims} dimensions", dptr, drole)]


@record
class RejectParams:
    __pydantic_config__ = FORBID
    message: str


@kind("reject", RejectParams, "always fails (use with when: to forbid a combination)")
def reject(ctx: Context, p: RejectParams) -> Iterable[Finding]:
    """Always fails: used with ``when`` to reject a combination of inputs."""
    return [failed(p.message)]
