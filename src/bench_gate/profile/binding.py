"""Binding: parameter values into every rule, validated, giving the compiled plan.

:func:`bind` takes a loaded :class:`~bench_gate.profile.plan.Profile` and the parameter values
(defaults, ``--set``, profile options), substitutes them into each rule's ``with:``, validates
the result against the check kind's parameters (:mod:`bench_gate.profile.kindparams`), checks
that every ``role:/pointer`` names a declared document, and returns the
:class:`~bench_gate.profile.plan.Plan`, with a digest of everything that decides a verdict.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import lru_cache
from typing import Any

from bench_gate.checks.base import CheckKind
from bench_gate.text.pointer import split_ref, valid_pointer
from bench_gate.profile import yamlsafe
from bench_gate.profile.kindparams import ParamError, names_at, validate_params
from bench_gate.profile.plan import (
    BoundRule,
    Condition,
    Plan,
    Profile,
    ProfileError,
    SourcedRule,
)
from bench_gate.profile.params import substitute
from bench_gate.records import fields, is_record
from bench_gate.text.suggest import did_you_mean


def bind(profile: Profile, overrides: dict[str, Any] | None = None) -> Plan:
    """Bind parameter values into every rule and validate them; the compiled plan."""
    values = {name: p.default for name, p in profile.params.items()}
    values.update(overrides or {})
    kinds = _kinds(profile)
    bound: list[BoundRule] = []
    for r in profile.rules:
        kind = kinds[r.spec.check]
        with_path = r.path + ("with",)
        try:
            raw = substitute(r.spec.with_, values, r.source)
        except KeyError as exc:
            raise ProfileError(r.file, r.lines.line(with_path), yamlsafe.format_path(with_path),
                               f"${{{exc.args[0]}}} is not a declared parameter") from None
        try:
            params = validate_params(kind.params, raw)
        except ParamError as exc:
            loc = with_path + exc.loc
            raise ProfileError(r.file, r.lines.line(loc), yamlsafe.format_path(loc),
                               _param_message(exc, kind)) from None
        except (ValueError, TypeError) as exc:
            loc = with_path
            raise ProfileError(r.file, r.lines.line(loc), yamlsafe.format_path(loc),
                               f"{exc} (check kind {kind.name})") from None
        if hasattr(params, "with_files"):
            params = _read_files(params, r, kind.name)
        _check_refs(r, raw, profile)
        bound.append(BoundRule(r.spec.id, r.spec.title, r.spec.check, params, raw, r.spec.severity,
                               r.spec.why, r.spec.when, r.source, profile.disabled.get(r.spec.id)))
    digest = _digest(profile, bound, values)
    return Plan(profile, tuple(bound), values, digest, kinds)


def _param_message(exc: ParamError, kind: CheckKind) -> str:
    """The problem, naming the kind; an unknown parameter gets the closest name the kind takes
    at that place, or the list of them."""
    if exc.message != "unknown parameter" or not exc.loc:
        return f"{exc.message} (check kind {kind.name})"
    names = names_at(kind.params, exc.loc[:-1])
    hint = did_you_mean(str(exc.loc[-1]), names)
    if hint or not names:
        return f"{exc.message}{hint} (check kind {kind.name})"
    return f"{exc.message} (check kind {kind.name} takes {', '.join(names)})"


def _read_files(params: Any, rule: SourcedRule, kind: str) -> Any:
    """Files a rule names (a JSON Schema), read now so that the check itself reads none."""
    from bench_gate.checks.generic.shape import schema_problem
    from bench_gate.profile.sources import read_schema

    loc = rule.path + ("with", "schema")
    try:
        params = params.with_files(lambda ref: read_schema(ref, rule.file))
        problem = schema_problem(params.schema)
        if problem:
            raise ValueError(f"the inline schema {problem}")
        return params
    except ValueError as exc:
        raise ProfileError(rule.file, rule.lines.line(loc), yamlsafe.format_path(loc),
                           f"{exc} (check kind {kind})") from None


def _kinds(profile: Profile) -> dict[str, CheckKind]:
    """The kinds the profile's rules use (the whole registry for a hand-built profile)."""
    if profile.kinds and all(r.spec.check in profile.kinds for r in profile.rules):
        return dict(profile.kinds)
    from bench_gate.checks import registry

    return registry()


_ROLE_REF = re.compile(r"^[a-z][a-z0-9_-]*:/(?!/)")


def _check_refs(rule: SourcedRule, raw: Any, profile: Profile) -> None:
    """Every ``role:/pointer`` in a rule names a declared document and a valid pointer."""
    roles = set(profile.documents) | {"report"}

    def walk(value: Any, path: tuple) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, path + (k,))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, path + (i,))
        # "https://..." is a URL (an allowed value, a pattern), not a role ref
        elif isinstance(value, str) and _ROLE_REF.match(value):
            role, pointer = split_ref(value)
            loc = rule.path + ("with",) + path
            if role not in roles:
                raise ProfileError(rule.file, rule.lines.line(loc), yamlsafe.format_path(loc),
                                   f"document role {role!r} is not declared by the profile")
            if not valid_pointer(pointer):
                raise ProfileError(rule.file, rule.lines.line(loc), yamlsafe.format_path(loc),
                                   f"{value!r} is not a JSON Pointer (~ must be followed by 0 or 1)")

    walk(raw, ())


def plain(value: Any) -> Any:
    if type(value) in _LEAVES:
        return value
    if isinstance(value, Condition):
        return value.to_json()
    if is_record(value) and not isinstance(value, type):
        return {name: plain(getattr(value, name)) for name in _field_names(type(value))}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)
    return value


_LEAVES = frozenset({str, int, float, bool, type(None)})
"""JSON scalars: :func:`plain` returns them as they are (most values of a plan are)."""


@lru_cache(maxsize=None)
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def _digest(profile: Profile, rules: list[BoundRule], values: dict[str, Any]) -> str:
    body = {
        "profile": profile.name,
        "chain": list(profile.chain),
        "rules": [{"id": r.id, "check": r.check, "params": plain(r.params), "severity": r.severity,
                   "when": plain(r.when), "disabled": r.disabled_by} for r in rules],
        "documents": {k: d.spec.to_json() for k, d in sorted(profile.documents.items())},
        "values": values,
    }
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()
