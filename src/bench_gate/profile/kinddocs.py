"""The documentation of check kinds and rules, taken from where it is written once.

Each check kind is documented once, in the docstring of its function (the one its
``@kind(...)`` decorator registers). Everything that shows a kind to a reader is made from that
text:

* :func:`kind_entry`: one kind (``bench-gate kinds NAME``): name, summary, module, parameters
  with their types and defaults, and the documentation;
* :func:`rule_entry`: one rule of a compiled plan (``bench-gate explain PROFILE RULE``), with
  its effective parameters; a parameter whose value is null is left out;
* :func:`kinds_markdown`: the check-kind reference of ``docs/profiles.md``, between the
  markers ``<!-- kinds:begin -->`` and ``<!-- kinds:end -->``.

Regenerate the reference after changing a kind's documentation::

    python -m bench_gate.profile.kinddocs            # rewrites the section of docs/profiles.md
    python -m bench_gate.profile.kinddocs --check    # exit 1 if it is stale

``tests/profile/test_kinddocs.py`` fails while it is stale.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import sys
import typing
from pathlib import Path
from typing import Any

from bench_gate.checks import registry
from bench_gate.checks.base import CheckKind
from bench_gate.records import MISSING, fields, is_record
from bench_gate.text.suggest import did_you_mean

BEGIN, END = "<!-- kinds:begin -->", "<!-- kinds:end -->"
GUIDE = Path(__file__).resolve().parents[3] / "docs" / "profiles.md"


def kind_doc(kind: CheckKind) -> str:
    """The documentation of one kind (its function's docstring), dedented; empty when it has none."""
    return (inspect.getdoc(kind.run) or "").strip()


def _type_text(hint: Any) -> str:
    text = str(hint).replace("typing.", "")
    for prefix in ("<class '", "'>"):
        text = text.replace(prefix, "")
    return text.rsplit(".", 1)[-1] if text.startswith("bench_gate.") else text


def params_of(kind: CheckKind) -> list[dict[str, Any]]:
    """The kind's parameters: name, type, and default (``"(required)"`` when there is none)."""
    hints = typing.get_type_hints(kind.params)
    out = []
    for f in fields(kind.params):
        if f.default is not MISSING:
            default: Any = f.default
        elif f.default_factory is not MISSING:
            default = f.default_factory()
        else:
            default = "(required)"
        if is_record(default):
            default = dataclasses.asdict(default)  # the record's dataclass view, nested records too
        out.append({"name": f.name, "type": _type_text(hints[f.name]), "default": default})
    return out


def kind_entry(name: str) -> str:
    """``bench-gate kinds NAME``: one kind as text; KeyError naming the known kinds."""
    kinds = registry()
    if name not in kinds:
        raise KeyError(f"no check kind {name!r}{did_you_mean(name, kinds)} (known: {', '.join(sorted(kinds))})")
    kind = kinds[name]
    out = [f"{kind.name}  ({kind.run.__module__})", f"    {kind.summary}", "", "parameters:"]
    for p in params_of(kind):
        out.append(f"    {p['name']}: {p['type']} = {json.dumps(p['default'], default=str)}")
    out += ["", *kind_doc(kind).split("\n")]
    return "\n".join(out).rstrip() + "\n"


def without_nulls(value: Any) -> Any:
    """A parameter value with every null left out (a null parameter is the kind's default: unset)."""
    if isinstance(value, dict):
        return {k: without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nulls(v) for v in value]
    return value


def rule_entry(plan: Any, rule_id: str) -> dict[str, Any]:
    """One rule of a compiled plan with its effective parameters (nulls left out); KeyError if absent."""
    from bench_gate.profile.binding import plain

    for r in plan.rules:
        if r.id == rule_id:
            entry = {"id": r.id, "title": r.title, "severity": r.severity, "check": r.check,
                     "params": without_nulls(plain(r.params)), "when": plain(r.when), "why": r.why,
                     "source": r.source}
            if r.disabled_by:
                entry["disabled_by"] = r.disabled_by
            return {k: v for k, v in entry.items() if v is not None}
    raise KeyError(f"profile {plan.name} has no rule {rule_id!r}{did_you_mean(rule_id, [r.id for r in plan.rules])} "
                   f"(`bench-gate explain {plan.name}` lists them)")


def rule_text(entry: dict[str, Any]) -> str:
    """:func:`rule_entry` as the text ``bench-gate explain PROFILE RULE`` prints."""
    out = [f"{entry['id']}  [{entry['severity']}, {entry['check']}]  {entry['source']}",
           f"    {entry['title']}", f"    why: {entry['why']}"]
    if entry.get("when"):
        out.append(f"    when: {json.dumps(entry['when'], sort_keys=True)}")
    if entry.get("disabled_by"):
        out.append(f"    disabled by profile {entry['disabled_by']}")
    out.append(f"    with: {json.dumps(entry['params'], sort_keys=True, default=str)}")
    return "\n".join(out) + "\n"


def kinds_markdown() -> str:
    """The check-kind reference of the profile guide, one section per kind, by module."""
    by_module: dict[str, list[CheckKind]] = {}
    for kind in registry().values():
        by_module.setdefault(kind.run.__module__, []).append(kind)
    out = [BEGIN, "", "| module | kinds |", "|---|---|"]
    for module, kinds in by_module.items():
        path = module.replace(".", "/") + ".py"
        out.append(f"| `{path}` | {', '.join(f'[`{k.name}`](#{k.name})' for k in kinds)} |")
    for module, kinds in by_module.items():
        for kind in kinds:
            out += ["", f"### {kind.name}", "", f"{kind.summary} (`{module}`)", "", "| parameter | type | default |",
                    "|---|---|---|"]
            for p in params_of(kind):
                default = "required" if p["default"] == "(required)" else f"`{json.dumps(p['default'], default=str)}`"
                out.append(f"| `{p['name']}` | `{p['type']}` | {default} |")
            out += ["", "```text", kind_doc(kind), "```"]
    out += ["", END]
    return "\n".join(out) + "\n"


def render_guide(text: str) -> str:
    """``docs/profiles.md`` with its generated section replaced."""
    start, end = text.index(BEGIN), text.index(END) + len(END) + 1
    return text[:start] + kinds_markdown() + text[end:]


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    current = GUIDE.read_text(encoding="utf-8")
    wanted = render_guide(current)
    if args == ["--check"]:
        if wanted != current:
            sys.stderr.write("docs/profiles.md is stale: run python -m bench_gate.profile.kinddocs\n")
            return 1
        return 0
    if args:
        sys.stderr.write("usage: python -m bench_gate.profile.kinddocs [--check]\n")
        return 2
    GUIDE.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
