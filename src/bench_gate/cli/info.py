"""The information commands: ``profiles``, ``explain PROFILE``, ``kinds`` and ``schema``.

* ``bench-gate profiles`` lists the built-in profiles with their description and source.
* ``bench-gate explain PROFILE [--format text|json] [--set P=V]`` prints every rule the profile
  runs, in order: id, title, severity, check kind, effective parameters, ``when``, ``why`` and
  the source file:line, then the documents, parameters and options it declares.
* ``bench-gate kinds [--format json]`` lists every registered check kind with its parameters,
  their types and defaults (the full documentation of each kind is its module's docstring).
* ``bench-gate schema`` prints the JSON Schema of profile and policy files.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any


def profiles(fmt: str) -> int:
    """``bench-gate profiles``: the built-in profiles with their description and source."""
    from bench_gate.profile import load_profile
    from bench_gate.profile.sources import builtin_names

    rows = []
    for name in builtin_names():
        prof = load_profile(name)
        rows.append({"name": name, "description": prof.description, "source": prof.source,
                     "extends": list(prof.chain[:-1])})
    if fmt == "json":
        sys.stdout.write(json.dumps(rows, indent=2) + "\n")
    else:
        width = max((len(r["name"]) for r in rows), default=8)
        for r in rows:
            sys.stdout.write(f"{r['name']:<{width}}  {r['description']}  ({r['source']})\n")
    return 0


def explain_dict(plan: Any) -> dict[str, Any]:
    from bench_gate.profile.kinddocs import without_nulls
    from bench_gate.profile.binding import plain

    prof = plan.profile
    return {
        "profile": prof.name,
        "description": prof.description,
        "source": prof.source,
        "extends": list(prof.chain[:-1]),
        "digest": plan.digest,
        "documents": {role: {**d.spec.to_json(exclude_none=True), "source": d.source}
                      for role, d in prof.documents.items()},
        "params": {n: {"type": p.type, "default": p.default, "value": plan.values.get(n),
                       "help": p.help, "source": p.source} for n, p in prof.params.items()},
        "options": {n: {**o.spec.to_json(exclude_none=True), "source": o.source}
                    for n, o in prof.options.items()},
        "rules": [
            {"id": r.id, "title": r.title, "severity": r.severity, "check": r.check,
             "params": without_nulls(plain(r.params)), "when": plain(r.when), "why": r.why, "source": r.source,
             **({"disabled_by": r.disabled_by} if r.disabled_by else {})}
            for r in plan.rules
        ],
    }


def explain(profile: str, fmt: str, sets: list[str], rule: str | None = None) -> int:
    """``bench-gate explain PROFILE [RULE]``: every rule the profile runs (or one), with its parameters."""
    from bench_gate.cli.options import Usage, set_values
    from bench_gate.profile import load_profile
    from bench_gate.profile.binding import bind
    from bench_gate.profile.plan import ProfileError

    try:
        prof = load_profile(profile)
        plan = bind(prof, set_values(sets, prof))
    except ProfileError as exc:
        raise Usage(f"profile: {exc}") from None
    if rule is not None:
        from bench_gate.profile.kinddocs import rule_entry, rule_text

        try:
            entry = rule_entry(plan, rule)
        except KeyError as exc:
            raise Usage(str(exc.args[0])) from None
        sys.stdout.write(json.dumps(entry, indent=2, default=str) + "\n" if fmt == "json" else rule_text(entry))
        return 0
    info = explain_dict(plan)
    if fmt == "json":
        sys.stdout.write(json.dumps(info, indent=2, default=str) + "\n")
        return 0
    out = [f"profile {info['profile']}: {info['description']}", f"  source: {info['source']}"]
    if info["extends"]:
        out.append(f"  extends: {', '.join(info['extends'])}")
    out.append(f"  digest: {info['digest']}")
    out.append("documents:")
    for role, d in info["documents"].items():
        how = d.get("option") or f"--doc {role}=PATH"
        frm = f", or report:{d['from_report']}" if d.get("from_report") else ""
        out.append(f"  {role} ({d['format']}, {'required' if d['required'] else 'optional'}): {how}{frm}")
    out.append("options:")
    for name, o in info["options"].items():
        out.append(f"  {name} ({o['kind']}) -> {o['param']}: {o.get('help', '')}")
    out.append("parameters:")
    for name, prm in info["params"].items():
        out.append(f"  {name} = {json.dumps(prm['value'])} ({prm['type']})")
    out.append(f"rules ({len(info['rules'])}):")
    for r in info["rules"]:
        out.append(f"  {r['id']}  [{r['severity']}, {r['check']}]  {r['source']}")
        out.append(f"      {r['title']}")
        out.append(f"      why: {r['why']}")
        if r.get("when"):
            out.append(f"      when: {json.dumps(r['when'], sort_keys=True)}")
        if r.get("disabled_by"):
            out.append(f"      disabled by profile {r['disabled_by']}")
        out.append(f"      with: {json.dumps(r['params'], sort_keys=True, default=str)}")
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def schema(which: str) -> int:
    """``bench-gate schema [profile|policy]``: the JSON Schema of profile and policy files."""
    from bench_gate.profile.schema import json_schemas

    schemas = json_schemas()
    doc = schemas if which == "all" else schemas[which]
    sys.stdout.write(json.dumps(doc, indent=2, sort_keys=True) + "\n")
    return 0


def kinds_list() -> list[dict[str, Any]]:
    """Every registered check kind with its parameters (name, type, default or required)."""
    from bench_gate.checks import registry
    from bench_gate.profile.kinddocs import params_of

    return [{"kind": name, "summary": kind.summary, "module": kind.run.__module__, "params": params_of(kind)}
            for name, kind in sorted(registry().items())]


def kinds(fmt: str, name: str | None = None) -> int:
    """``bench-gate kinds [NAME]``: every registered check kind with its parameters, or one documented."""
    if name is not None:
        from bench_gate.checks import registry
        from bench_gate.cli.options import Usage
        from bench_gate.profile.kinddocs import kind_doc, kind_entry, params_of

        try:
            text = kind_entry(name)
        except KeyError as exc:
            raise Usage(str(exc.args[0])) from None
        if fmt == "json":
            kind = registry()[name]
            row = {"kind": name, "summary": kind.summary, "module": kind.run.__module__,
                   "params": params_of(kind), "doc": kind_doc(kind)}
            sys.stdout.write(json.dumps(row, indent=2, default=str) + "\n")
        else:
            sys.stdout.write(text)
        return 0
    rows = kinds_list()
    if fmt == "json":
        sys.stdout.write(json.dumps(rows, indent=2, default=str) + "\n")
        return 0
    lines = []
    for row in rows:
        lines.append(f"{row['kind']}  ({row['module']})")
        lines.append(f"    {row['summary']}")
        for prm in row["params"]:
            lines.append(f"    {prm['name']}: {prm['type']} = {json.dumps(prm['default'], default=str)}")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
