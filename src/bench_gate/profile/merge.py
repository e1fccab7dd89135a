"""Compiling a profile from YAML: following ``extends``, merging, checking the whole.

:func:`compile_profile` reads a profile (a built-in name or a path), follows ``extends:``
(cycles are errors, at most :data:`MAX_EXTENDS_DEPTH` deep), and merges parents first:
parameters, documents, options, the rules of the policies listed under ``use`` and its inline rules.
Then every rule id must be unique, every check kind registered, every option must set a
declared parameter, and the profile must run at least one rule. The result is a
:class:`~bench_gate.profile.plan.Profile`, not yet bound (see :mod:`bench_gate.profile.binding`).

A profile file (given by path) may not take a built-in profile's name: verdicts name their
profile, and ``profile ai-memory`` must always mean the built-in gate.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from bench_gate.text.pointer import valid_pointer
from bench_gate.profile import yamlsafe
from bench_gate.profile.plan import (
    Condition,
    Document,
    DocumentDecl,
    Option,
    OptionDecl,
    Param,
    Profile,
    ProfileError,
    RuleDecl,
    SourcedRule,
)
from bench_gate.records import replace
from bench_gate.profile.params import READ_BY_BENCH_GATE, declare_param, referenced
from bench_gate.profile.sources import (
    builtin_names,
    looks_like_path,
    parse_yaml,
    read_builtin,
    read_path,
    validate_model,
)
from bench_gate.text.suggest import did_you_mean

MAX_EXTENDS_DEPTH = 16


def compile_profile(ref: str) -> Profile:
    """Compile a profile from its YAML sources (no precompiled form is used)."""
    from bench_gate.checks import registry

    profile = _load(ref, None, ())
    _check_params_used(profile)
    kinds = registry()
    return replace(profile, kinds={r.spec.check: kinds[r.spec.check] for r in profile.rules})


def _resolve_profile(ref: str, relative_to: Path | None) -> tuple[str, str]:
    if looks_like_path(ref):
        path = Path(ref)
        if relative_to is not None and not path.is_absolute():
            path = relative_to / path
        return read_path(str(path), f"profile {ref!r}")
    found = read_builtin("profiles", ref)
    if found is None:
        raise ProfileError(ref, None, "", unknown_profile(ref))
    return found


def unknown_profile(ref: str) -> str:
    """``unknown profile 'ai-memroy'; did you mean 'ai-memory'? (built-in profiles: ...)``."""
    known = builtin_names()
    return (f"unknown profile {ref!r}{did_you_mean(ref, known)} (built-in profiles: "
            f"{', '.join(known) or 'none'}; or give a path to a profile YAML file)")


def _load(ref: str, relative_to: Path | None, stack: tuple[str, ...]) -> Profile:
    from bench_gate.profile.schema import ProfileFile

    file, text = _resolve_profile(ref, relative_to)
    key = str(Path(file).resolve()) if looks_like_path(ref) else file
    data, lines = parse_yaml(file, text)
    if key in stack:
        raise ProfileError(file, lines.line(("extends",)), "extends",
                           "extends cycle: " + " -> ".join(stack + (key,)))
    if len(stack) >= MAX_EXTENDS_DEPTH:
        raise ProfileError(file, lines.line(("extends",)), "extends",
                           f"extends is nested deeper than {MAX_EXTENDS_DEPTH}")
    spec = validate_model(ProfileFile, data, file, lines)
    taken = _builtin_lookalike(spec.name) if looks_like_path(ref) else None
    if taken is not None:
        # the verdict names its profile: "PASS ... profile ai-memory" from a file that extends
        # ai-memory and disables its recompute rules would read as the built-in gate passing
        same = "is" if taken == spec.name else f"reads as {taken!r},"
        raise ProfileError(file, lines.line(("name",)), "name",
                           f"{spec.name!r} {same} the name of a built-in profile; a profile file needs a name "
                           f"of its own (it may extend {taken}), or its verdicts would read as the built-in's")
    here = Path(file).parent if looks_like_path(ref) else None
    parents_refs = [spec.extends] if isinstance(spec.extends, str) else list(spec.extends or [])
    parents = [_parent(p, i, here, stack + (key,), file, lines, isinstance(spec.extends, list))
               for i, p in enumerate(parents_refs)]

    params: dict[str, Param] = {}
    documents: dict[str, Document] = {}
    options: dict[str, Option] = {}
    rules: list[SourcedRule] = []
    disabled: dict[str, str] = {}
    files: list[tuple[str, str]] = []
    for parent in parents:
        params.update(parent.params)
        documents.update(parent.documents)
        options.update(parent.options)
        rules.extend(r for r in parent.rules if r.spec.id not in {x.spec.id for x in rules})
        disabled.update(parent.disabled)
        files.extend(f for f in parent.files if f not in files)
    files.append((file, hashlib.sha256(text.encode()).hexdigest()))

    for name, raw in spec.params.items():
        params[name] = declare_param(name, raw, file, lines, params.get(name))
    for role, doc in spec.documents.items():
        if not re.match(r"^[a-z][a-z0-9_-]*$", role) or role == "report":
            raise ProfileError(file, lines.line(("documents", role)), f"documents.{role}",
                               "a document role is lowercase letters, digits, _ and -, and not 'report'")
        if doc.from_report is not None and not valid_pointer(doc.from_report):
            raise ProfileError(file, lines.line(("documents", role, "from_report")),
                               f"documents.{role}.from_report", "not a JSON Pointer")
        documents[role] = Document(role, DocumentDecl(**doc.model_dump()),
                                   f"{file}:{lines.line(('documents', role))}")
    for name, opt in spec.options.items():
        options[name] = Option(name, OptionDecl(**opt.model_dump()), f"{file}:{lines.line(('options', name))}")

    for i, pol in enumerate(spec.use):
        rules.extend(_policy_rules(pol, here, file, lines.line(("use", i)), files))
    for i, rule in enumerate(spec.rules):
        rules.append(SourcedRule(_rule_decl(rule), f"{file}:{lines.line(('rules', i))}", file, lines,
                                 ("rules", i)))

    seen: dict[str, str] = {}
    for r in rules:
        if r.spec.id in seen and seen[r.spec.id] != r.source:
            raise ProfileError(r.file, lines_of(r), yamlsafe.format_path(r.path + ("id",)),
                               f"duplicate rule id {r.spec.id!r} (also at {seen[r.spec.id]})")
        seen[r.spec.id] = r.source
    for i, rule_id in enumerate(spec.disable):
        if rule_id not in seen:
            raise ProfileError(file, lines.line(("disable", i)), f"disable[{i}]",
                               f"no rule {rule_id!r} to disable{did_you_mean(rule_id, seen)}")
        disabled[rule_id] = spec.name

    command = spec.command or next((p.command for p in parents if p.command), None)
    profile = Profile(spec.name, spec.description, file, tuple(p.name for p in parents) + (spec.name,),
                      params, documents, options, tuple(rules), disabled, tuple(files), command)
    _check_profile(profile, file, lines)
    return profile


def _builtin_lookalike(name: str) -> str | None:
    """The built-in profile ``name`` reads as (``AI_Memory``, ``ai‐memory`` with a Unicode
    hyphen: compared on letters and digits as a reader sees them), or None."""
    from bench_gate.text.canonical import skeleton

    return next((b for b in builtin_names() if skeleton(b) == skeleton(name)), None)


def _parent(ref: str, i: int, here: Path | None, stack: tuple[str, ...], file: str, lines: yamlsafe.Lines,
            listed: bool) -> Profile:
    """A profile named by ``extends``; an unknown built-in name is an error at that line."""
    try:
        return _load(ref, here, stack)
    except ProfileError as exc:
        if exc.file != ref or exc.line is not None:
            raise
        where = ("extends", i) if listed else ("extends",)
        raise ProfileError(file, lines.line(where), yamlsafe.format_path(where), exc.message) from None


def _rule_decl(rule: Any) -> RuleDecl:
    return RuleDecl(rule.id, rule.title, rule.check, rule.with_, rule.severity, rule.why,
                    _condition_decl(rule.when))


def _condition_decl(cond: Any) -> Condition | None:
    """The plain form of a validated :class:`bench_gate.profile.schema.Condition`."""
    if cond is None:
        return None
    return Condition(
        param=cond.param, document=cond.document, ref=cond.ref, exists=cond.exists, equals=cond.equals,
        in_=None if cond.in_ is None else list(cond.in_), matches=cond.matches,
        any=None if cond.any is None else [_condition_decl(c) for c in cond.any],
        all=None if cond.all is None else [_condition_decl(c) for c in cond.all],
        not_=_condition_decl(cond.not_),
    )


def lines_of(rule: SourcedRule) -> int:
    return rule.lines.line(rule.path + ("id",))


def _policy_rules(name: str, here: Path | None, pfile: str, pline: int,
                  files: list[tuple[str, str]]) -> list[SourcedRule]:
    if looks_like_path(name):
        path = Path(name) if here is None or Path(name).is_absolute() else here / name
        file, text = read_path(str(path), f"policy {name!r}")
    else:
        found = read_builtin("policies", name)
        if found is None:
            known = builtin_names("policies")
            raise ProfileError(pfile, pline, "use", f"unknown policy {name!r}{did_you_mean(name, known)} "
                                                    f"(built-in: {', '.join(known)})")
        file, text = found
    from bench_gate.profile.schema import PolicyFile

    data, lines = parse_yaml(file, text)
    pol = validate_model(PolicyFile, data, file, lines)
    if (file, hashlib.sha256(text.encode()).hexdigest()) not in files:
        files.append((file, hashlib.sha256(text.encode()).hexdigest()))
    return [SourcedRule(_rule_decl(r), f"{file}:{lines.line(('rules', i))}", file, lines, ("rules", i))
            for i, r in enumerate(pol.rules)]


def _check_profile(profile: Profile, file: str, lines: yamlsafe.Lines) -> None:
    from bench_gate.checks import registry

    kinds = registry()
    for r in profile.rules:
        if r.spec.check not in kinds:
            raise ProfileError(r.file, r.lines.line(r.path + ("check",)),
                               yamlsafe.format_path(r.path + ("check",)),
                               f"unknown check kind {r.spec.check!r}{did_you_mean(r.spec.check, kinds)} "
                               "(`bench-gate kinds` lists them)")
    for name, opt in profile.options.items():
        if opt.spec.param not in profile.params:
            raise ProfileError(file, lines.line(("options", name)), f"options.{name}.param",
                               f"option {name} sets undeclared parameter {opt.spec.param!r}")
    flags = {o.spec.option: role for role, o in profile.documents.items() if o.spec.option}
    clash = set(flags) & set(profile.options)
    if clash:
        raise ProfileError(file, None, "options", f"option {sorted(clash)[0]} is declared twice")
    active = [r for r in profile.rules if r.spec.id not in profile.disabled]
    if not active:
        where = ("disable",) if ("disable",) in lines.by_path else ()
        raise ProfileError(file, lines.by_path.get(where), yamlsafe.format_path(where) if where else "",
                           "the profile would run zero rules")


def _check_params_used(profile: Profile) -> None:
    """Every parameter is read by a rule (``${name}`` in ``with``, ``when: {param: name}``), an
    option or bench-gate itself: a parameter nothing reads is almost always a misspelt one
    (``max_baseline_age_dys`` next to ``max_baseline_age``), and setting it would change nothing."""
    used = set(READ_BY_BENCH_GATE) | {o.spec.param for o in profile.options.values()}
    for r in profile.rules:
        used |= referenced(r.spec.with_) | _condition_params(r.spec.when)
    for name, param in profile.params.items():
        if name in used:
            continue
        file, _, line = param.source.rpartition(":")
        raise ProfileError(file, int(line) if line.isdigit() else None, f"params.{name}",
                           f"parameter {name!r} is read by no rule, option or condition, so setting it "
                           f"would change nothing{did_you_mean(name, sorted(used & set(profile.params)))}")


def _condition_params(cond: Condition | None) -> set[str]:
    if cond is None:
        return set()
    found = {cond.param} if cond.param else set()
    for c in [*(cond.any or []), *(cond.all or []), *([cond.not_] if cond.not_ else [])]:
        found |= _condition_params(c)
    return found


# --- binding ----------------------------------------------------------------------------
