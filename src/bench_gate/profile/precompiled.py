"""Precompiled built-in profiles: a loaded profile as JSON, with the digests of its sources.

Compiling a profile reads YAML and validates it against the schema models, which costs more
than judging a typical report. The built-in profiles are therefore shipped compiled as well:
``src/bench_gate/profile/plans/<name>.json`` holds the loaded, merged, not yet bound profile
(:class:`~bench_gate.profile.plan.Profile`), the check-kind family module of every kind its rules use,
and the sha256 of every file it was compiled from: each profile and policy YAML file, and the
code that defines what compiling means (the schema, model, sources, merge and params modules,
and this one).

At run time :func:`load` uses the precompiled form only when all of those files still have the
recorded sha256 and every kind is still registered in its recorded family; otherwise it returns
None and the profile is compiled from its YAML as if no precompiled form existed. Binding
(parameter values, ``--set``, profile options) always happens at run time. A profile given by
path is always compiled from source.

Regenerate after changing a built-in profile or policy::

    python -m bench_gate.profile.precompiled          # writes src/bench_gate/profile/plans/*.json
    python -m bench_gate.profile.precompiled --check  # exit 1 if a committed file is stale

``tests/profile/test_precompiled.py`` fails while a committed file is stale.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from bench_gate import __version__
from bench_gate.profile import yamlsafe
from bench_gate.profile.plan import (
    Document,
    DocumentDecl,
    Option,
    OptionDecl,
    Param,
    Profile,
    RuleDecl,
    SourcedRule,
    condition_from_json,
)
from bench_gate.profile.sources import builtin_dir, builtin_names

FORMAT = 2
HERE = Path(__file__).resolve().parent
PRECOMPILED = HERE / "plans"
CODE = ("schema.py", "plan.py", "sources.py", "merge.py", "params.py", "precompiled.py")
"""Modules whose code decides what a compiled profile is; a change to one retires the files."""


def _sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _source_path(name: str) -> Path | None:
    """Where a recorded source lives now: ``profiles/x.yaml``, ``policies/x.yaml`` or ``code:x.py``."""
    if name.startswith("code:"):
        return HERE / name[5:]
    kind, _, file = name.partition("/")
    if kind not in ("profiles", "policies") or "/" in file or not file.endswith(".yaml"):
        return None
    return builtin_dir(kind) / file


def _rule_json(rule: SourcedRule) -> dict[str, Any]:
    spec = rule.spec
    return {"id": spec.id, "title": spec.title, "check": spec.check, "with": spec.with_,
            "severity": spec.severity, "why": spec.why,
            "when": None if spec.when is None else spec.when.to_json(),
            "source": rule.source, "file": rule.file, "path": list(rule.path)}


def dump(profile: Profile) -> dict[str, Any]:
    """The JSON form of a built-in profile compiled from source."""
    from bench_gate.checks import families
    from bench_gate.checks.base import kinds_of

    family_of = {found.name: family.__name__ for family in families() for found in kinds_of(family.__name__)}
    sources = {file: digest for file, digest in profile.files}
    for name in CODE:
        sources[f"code:{name}"] = _sha256(HERE / name)
    lines: dict[str, list[list[Any]]] = {}
    for rule in profile.rules:
        if rule.file not in lines:
            # Binding needs the lines of rules only: every path it asks about starts at a rule.
            lines[rule.file] = [[list(path), line] for path, line in rule.lines.by_path.items()
                                if len(path) >= 2 and path[0] == "rules"]
    return {
        "format": FORMAT,
        "version": __version__,
        "sources": sources,
        "kinds": {name: family_of[name] for name in sorted(profile.kinds)},
        "profile": {
            "name": profile.name,
            "description": profile.description,
            "source": profile.source,
            "chain": list(profile.chain),
            "params": [[p.name, p.type, p.default, p.help, p.source] for p in profile.params.values()],
            "documents": [[d.role, d.spec.to_json(), d.source] for d in profile.documents.values()],
            "options": [[o.name, o.spec.to_json(), o.source] for o in profile.options.values()],
            "rules": [_rule_json(r) for r in profile.rules],
            "disabled": profile.disabled,
            "files": [list(f) for f in profile.files],
            "command": profile.command,
        },
        "lines": lines,
    }


def _current(data: dict[str, Any]) -> bool:
    if data.get("format") != FORMAT or data.get("version") != __version__:
        return False
    sources = data.get("sources")
    if not isinstance(sources, dict) or not sources:
        return False
    for name, digest in sources.items():
        path = _source_path(name)
        # a source that cannot be read (or was recorded unread) retires the file
        if path is None or digest is None or _sha256(path) != digest:
            return False
    return True


def _profile(data: dict[str, Any]) -> Profile | None:
    from bench_gate.checks import family_kinds

    kinds = {}
    families: dict[str, dict[str, Any]] = {}
    for name, module in data["kinds"].items():
        if module not in families:
            families[module] = family_kinds(module)
        kind = families[module].get(name)
        if kind is None:
            return None
        kinds[name] = kind
    p = data["profile"]
    line_maps = {file: yamlsafe.Lines({tuple(path): line for path, line in entries})
                 for file, entries in data["lines"].items()}
    rules = []
    for r in p["rules"]:
        when = None if r["when"] is None else condition_from_json(r["when"])
        spec = RuleDecl(r["id"], r["title"], r["check"], r["with"], r["severity"], r["why"], when)
        rules.append(SourcedRule(spec, r["source"], r["file"], line_maps[r["file"]], tuple(r["path"])))
    if any(r.spec.check not in kinds for r in rules):
        return None
    return Profile(
        name=p["name"], description=p["description"], source=p["source"], chain=tuple(p["chain"]),
        params={row[0]: Param(*row) for row in p["params"]},
        documents={role: Document(role, DocumentDecl(**spec), source) for role, spec, source in p["documents"]},
        options={name: Option(name, OptionDecl(**spec), source) for name, spec, source in p["options"]},
        rules=tuple(rules), disabled=dict(p["disabled"]), files=tuple(tuple(f) for f in p["files"]),
        command=p["command"], kinds=kinds,
    )


def load(name: str) -> Profile | None:
    """The precompiled built-in profile ``name`` if it is current, else None."""
    if not name or "/" in name or "\\" in name or name.startswith("."):
        return None
    path = PRECOMPILED / f"{name}.json"
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    try:
        if not _current(data):
            return None
        return _profile(data)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return None  # a damaged file is as good as none: compile from source


def render(name: str) -> str:
    """The precompiled file's text for built-in profile ``name``, compiled from source now."""
    from bench_gate.profile.merge import compile_profile

    return json.dumps(dump(compile_profile(name)), indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` verify) the precompiled file of every built-in profile."""
    args = list(sys.argv[1:] if argv is None else argv)
    check = args == ["--check"]
    if args and not check:
        sys.stderr.write("usage: python -m bench_gate.profile.precompiled [--check]\n")
        return 2
    stale = []
    names = builtin_names()
    if not check:
        PRECOMPILED.mkdir(exist_ok=True)
        for old in PRECOMPILED.glob("*.json"):
            if old.stem not in names:
                old.unlink()
    for name in names:
        text = render(name)
        target = PRECOMPILED / f"{name}.json"
        current = target.read_text(encoding="utf-8") if target.is_file() else None
        if current == text:
            continue
        stale.append(name)
        if not check:
            target.write_text(text, encoding="utf-8")
    if check and stale:
        sys.stderr.write(f"stale precompiled profiles: {', '.join(stale)} "
                         "(run: python -m bench_gate.profile.precompiled)\n")
        return 1
    for name in ([] if check else stale):
        sys.stdout.write(f"wrote {PRECOMPILED / (name + '.json')}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
