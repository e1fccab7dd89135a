"""Requirements on the values at refs: groups of values that are equal (``equal``), ``KEY=VALUE``
requirements on one object (``kv_equal``), at least one of several summaries present
(``any_present``), embedding provider and dimensions that agree (``embedding_coherence``), and
``reject``, which always fails (with ``when:``, a combination of values a profile forbids).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from bench_gate.records import field, record
from bench_gate.checks.base import (
    kind,   # noqa: I001
    same,
    FORBID,
    MISSING,
    Context,
    Fail,
    as_count,
    failed,
    jsonable,
    join,
    lookup,
    need,
    passed,
    show,
    skipped,
    split_ref,
    type_name,
)
from bench_gate.checks.generic.fields import is_empty
from bench_gate.models import Finding, exact_number


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
        seen.append(f"{ptr} {'absent' if value is MISSING else 'empty' if is_empty(value) else type_name(value)}")
    role, ptr = split_ref(p.refs[0])
    return [failed("none of the summaries is a non-empty object: " + ", ".join(seen), ptr, role, None,
                   "one non-empty summary")]


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
