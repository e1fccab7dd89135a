"""Profile parameters: their declaration, their types, and ``${name}`` substitution.

A profile declares parameters (``params:``) with a default, optionally a ``type`` and a
``help``; a child profile may change a default but not a type. The types are ``boolean``,
``integer``, ``number`` (finite), ``string``, ``duration`` (an ISO 8601 duration such as ``P30D``
or ``P1M``, see :mod:`bench_gate.text.isotime`), ``list``, ``map`` and ``number-map``. Values come
from the defaults, ``--set PARAM=VALUE`` and the profile's own command-line options, and are
written into a rule's ``with:`` by :func:`substitute`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from bench_gate.profile import yamlsafe
from bench_gate.profile.plan import Param, ProfileError
from bench_gate.profile.sources import validate_model

_SUBST = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")

READ_BY_BENCH_GATE = {
    "max_waiver": "the longest a waiver may run (--waivers)",
    "report_format": "how REPORT is read: json, jsonl or runfolder",
    "artifact_tables": "the metric tables a report's artifacts hold",
    "external_profiles": "the gate profiles enforced outside bench-gate a ledger may name",
    "summary_case_rules": "the rules a ledger's history summaries cannot decide (their cases are archived)",
}
"""Parameters bench-gate itself reads (``plan.values``), not a rule: declaring one is never
unused. Code that reads a parameter from the plan lists it here, or every profile declaring it
fails to compile."""


def referenced(value: Any) -> set[str]:
    """The parameter names a ``with:`` value refers to (``${name}``)."""
    if isinstance(value, str):
        return set(_SUBST.findall(value))
    if isinstance(value, list):
        return set().union(*(referenced(v) for v in value)) if value else set()
    if isinstance(value, dict):
        return set().union(*(referenced(v) for v in value.values())) if value else set()
    return set()


def declare_param(name: str, raw: Any, file: str, lines: yamlsafe.Lines, inherited: Param | None) -> Param:
    where = ("params", name)
    src = f"{file}:{lines.line(where)}"
    if not re.match(r"^[a-z_][a-z0-9_]*$", name):
        raise ProfileError(file, lines.line(where), f"params.{name}", "a parameter name is lower_snake_case")
    if isinstance(raw, dict):
        ps = _validate_param_spec(raw, file, lines, where)
        default, ptype, help_ = ps["default"], ps.get("type"), ps.get("help", "")
    else:
        default, ptype, help_ = raw, None, ""
    if ptype is None:
        ptype = inherited.type if inherited else _infer(default)
    if ptype is None:
        raise ProfileError(file, lines.line(where), f"params.{name}",
                           "a null default needs an explicit type")
    if inherited is not None and inherited.type != ptype:
        raise ProfileError(file, lines.line(where), f"params.{name}",
                           f"type {ptype} conflicts with inherited type {inherited.type}")
    problem = type_problem(default, ptype, allow_null=True)
    if problem:
        raise ProfileError(file, lines.line(where), f"params.{name}", f"default {problem}")
    return Param(name, ptype, default, help_ or (inherited.help if inherited else ""), src)


def _validate_param_spec(raw: dict[str, Any], file: str, lines: yamlsafe.Lines, where: tuple) -> dict:
    from bench_gate.profile.schema import ParamSpec

    if "default" not in raw:
        raise ProfileError(file, lines.line(where), yamlsafe.format_path(where),
                           "the long form of a parameter needs a 'default' key")
    validate_model(ParamSpec, raw, file, lines, where)
    return raw


def _infer(value: Any) -> str | None:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "map"
    return None


def type_problem(value: Any, ptype: str, allow_null: bool = False) -> str | None:
    """Why ``value`` is not of parameter type ``ptype`` (None if it is)."""
    if value is None:
        return None if allow_null else "must not be null"
    ok = {
        "boolean": isinstance(value, bool),
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "number": isinstance(value, (int, float)) and not isinstance(value, bool)
        and value == value and value not in (float("inf"), float("-inf")),
        "string": isinstance(value, str),
        "duration": isinstance(value, str) and _is_duration(value),
        "list": isinstance(value, list),
        "map": isinstance(value, dict),
        "number-map": isinstance(value, dict) and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value.values()),
    }[ptype]
    if not ok and ptype == "duration":
        return f"must be an ISO 8601 duration (P30D, P1M, P1Y), got {json.dumps(value)[:60]}"
    return None if ok else f"must be of type {ptype}, got {json.dumps(value)[:60]}"


def _is_duration(text: str) -> bool:
    from bench_gate.text.isotime import TimeError, parse_duration

    try:
        parse_duration(text)
    except TimeError:
        return False
    return True


def substitute(value: Any, values: dict[str, Any], where: str) -> Any:
    """Replace ``${name}`` in strings; a whole-string reference keeps the value's type."""
    if isinstance(value, str):
        whole = _SUBST.fullmatch(value)
        if whole:
            name = whole.group(1)
            if name not in values:
                raise KeyError(name)
            return values[name]

        def repl(m: re.Match[str]) -> str:
            if m.group(1) not in values:
                raise KeyError(m.group(1))
            value = values[m.group(1)]
            # inside a longer string a non-string value is written as JSON (true, [1, 2]), never
            # as Python would print it (True)
            return value if isinstance(value, str) else json.dumps(value)

        return _SUBST.sub(repl, value)
    if isinstance(value, list):
        return [substitute(v, values, where) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, values, where) for k, v in value.items()}
    return value
