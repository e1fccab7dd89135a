"""Profiles and policies: YAML -> validated models -> a compiled plan of bound rules.

Compilation happens in two steps, both before anything is evaluated:

1. :func:`load_profile` reads a profile (a built-in name or a path), follows ``extends:``
   (cycles are errors), merges parameters, documents, options, policies and inline rules
   (parents first), and checks that every rule id is unique and every check kind exists.
2. :func:`bind` substitutes parameter values (defaults, ``--set``, profile options) into each
   rule's ``with:`` and validates the result against the check kind's parameter class.

Every problem is a :class:`ProfileError` carrying the file, the line and the path inside the
YAML (``profiles/mine.yaml:14: rules[2].with.min: ...``), and never reaches evaluation.
A profile whose plan would run zero rules is an error too.

The compiled objects (:class:`Profile`, :class:`Plan`) are plain frozen dataclasses. YAML is
validated against the pydantic models of :mod:`bench_gate.profile.schema` only when a profile is compiled
from its sources; a built-in profile is normally read from its precompiled form
(:mod:`bench_gate.profile.precompiled`), which is used only while the sha256 of every source it was
compiled from still matches. Binding validates parameters with a small strict validator over
the parameter dataclasses' type hints, with the same rules and messages as the schema models.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import types
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Union, get_args, get_origin, get_type_hints

from bench_gate.profile import yamlsafe
from bench_gate.checks.base import CheckKind, split_ref, valid_pointer

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError

MAX_PROFILE_BYTES = 1024 * 1024
MAX_EXTENDS_DEPTH = 16
_SUBST = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_TYPES = ("boolean", "integer", "number", "string", "list", "map", "number-map")


class ProfileError(Exception):
    """A profile or policy problem: file, line, path inside the YAML, message."""

    def __init__(self, file: str, line: int | None, path: str, message: str) -> None:
        super().__init__(message)
        self.file, self.line, self.path, self.message = file, line, path, message

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line else "")
        inside = f" {self.path}:" if self.path else ""
        return f"{where}:{inside} {self.message}"


# --- the compiled declarations (plain data, the same attributes as the schema models) ------


@dataclass(frozen=True)
class DocumentDecl:
    """A declared document role (see :class:`bench_gate.profile.schema.DocumentSpec`)."""

    option: str | None = None
    from_report: str | None = None
    format: str = "json"
    required: bool = False
    object: bool = True
    description: str = ""

    def to_json(self, exclude_none: bool = False) -> dict[str, Any]:
        return _decl_json(self, exclude_none)


@dataclass(frozen=True)
class OptionDecl:
    """A profile command-line option (see :class:`bench_gate.profile.schema.OptionSpec`)."""

    param: str
    kind: str
    help: str = ""
    metavar: str | None = None

    def to_json(self, exclude_none: bool = False) -> dict[str, Any]:
        return _decl_json(self, exclude_none)


@dataclass(frozen=True)
class Condition:
    """A rule's ``when`` (see :class:`bench_gate.profile.schema.Condition`); exactly one form is set."""

    param: str | None = None
    document: str | None = None
    ref: str | None = None
    exists: bool | None = None
    equals: Any = None
    in_: list[Any] | None = None
    matches: str | None = None
    any: list[Condition] | None = None
    all: list[Condition] | None = None
    not_: Condition | None = None

    def to_json(self) -> dict[str, Any]:
        """As written in YAML: ``in`` and ``not`` by their names, unset forms left out."""
        return _decl_json(self, True)


@dataclass(frozen=True)
class RuleDecl:
    """One rule as declared (see :class:`bench_gate.profile.schema.RuleSpec`)."""

    id: str
    title: str
    check: str
    with_: dict[str, Any]
    severity: str
    why: str
    when: Condition | None = None


_ALIASES = {"in_": "in", "not_": "not"}


def _decl_json(obj: Any, exclude_none: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields(obj):
        value = getattr(obj, f.name)
        if value is None and exclude_none:
            continue
        out[_ALIASES.get(f.name, f.name)] = _json_value(value)
    return out


def _json_value(value: Any) -> Any:
    if isinstance(value, Condition):
        return value.to_json()
    if isinstance(value, list):
        return [_json_value(v) for v in value]
    return value


def condition_from_json(data: Mapping[str, Any]) -> Condition:
    """A :class:`Condition` from its :meth:`Condition.to_json` form (already validated)."""
    kw: dict[str, Any] = {}
    for key, value in data.items():
        name = {"in": "in_", "not": "not_"}.get(key, key)
        if name in ("any", "all"):
            value = [condition_from_json(v) for v in value]
        elif name == "not_":
            value = condition_from_json(value)
        kw[name] = value
    return Condition(**kw)


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    default: Any
    help: str
    source: str


@dataclass(frozen=True)
class Document:
    role: str
    spec: DocumentDecl
    source: str


@dataclass(frozen=True)
class Option:
    name: str
    spec: OptionDecl
    source: str


@dataclass(frozen=True)
class SourcedRule:
    spec: RuleDecl
    source: str
    file: str
    lines: yamlsafe.Lines
    path: tuple[str | int, ...]


@dataclass(frozen=True)
class Profile:
    """A loaded, merged, not yet bound profile."""

    name: str
    description: str
    source: str
    chain: tuple[str, ...]
    params: dict[str, Param]
    documents: dict[str, Document]
    options: dict[str, Option]
    rules: tuple[SourcedRule, ...]
    disabled: dict[str, str]
    files: tuple[tuple[str, str], ...] = ()
    kinds: dict[str, CheckKind] = field(default_factory=dict, repr=False, compare=False)
    """The check kinds the rules use, by name."""


@dataclass(frozen=True)
class BoundRule:
    id: str
    title: str
    check: str
    params: Any
    raw_params: dict[str, Any]
    severity: str
    why: str
    when: Condition | None
    source: str
    disabled_by: str | None = None


@dataclass(frozen=True)
class Plan:
    """What the engine runs: bound rules in order, with the documents they need."""

    profile: Profile
    rules: tuple[BoundRule, ...]
    values: dict[str, Any]
    digest: str
    kinds: dict[str, CheckKind] = field(default_factory=dict, repr=False)

    @property
    def name(self) -> str:
        return self.profile.name


# --- reading files ----------------------------------------------------------------------


def _builtin_dir(kind: str) -> Path:
    """Where built-in YAML lives: inside the installed package, or the source checkout."""
    here = Path(__file__).resolve().parent.parent
    installed = here / kind
    if installed.is_dir():
        return installed
    return here.parents[1] / kind


def builtin_file(kind: str, name: str) -> Path | None:
    """The path of a built-in profile or policy YAML file, if there is one by that name."""
    if not re.match(r"^[a-z0-9][a-z0-9._-]*$", name):
        return None
    entry = _builtin_dir(kind) / f"{name}.yaml"
    return entry if entry.is_file() else None


def builtin_names(kind: str = "profiles") -> list[str]:
    """Names of the built-in profiles (or policies)."""
    try:
        entries = list(_builtin_dir(kind).iterdir())
    except (FileNotFoundError, NotADirectoryError):
        return []
    return sorted(e.name[:-5] for e in entries if e.name.endswith(".yaml"))


def _read_builtin(kind: str, name: str) -> tuple[str, str] | None:
    entry = builtin_file(kind, name)
    if entry is None:
        return None
    return f"{kind}/{name}.yaml", entry.read_bytes().decode("utf-8")


def _read_path(path: str, context: str) -> tuple[str, str]:
    p = Path(path)
    try:
        if p.is_dir():
            raise ProfileError(path, None, "", f"{context} is a directory, not a YAML file")
        if not p.is_file():
            raise ProfileError(path, None, "", f"{context} does not exist")
        if p.stat().st_size > MAX_PROFILE_BYTES:
            raise ProfileError(path, None, "", f"{context} is over {MAX_PROFILE_BYTES} bytes")
        raw = p.read_bytes()
    except OSError as exc:
        raise ProfileError(path, None, "", f"{context} cannot be read ({exc.strerror})") from None
    try:
        return path, raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ProfileError(path, None, "", f"{context} is not UTF-8 text") from None


def _looks_like_path(ref: str) -> bool:
    return "/" in ref or "\\" in ref or ref.endswith((".yaml", ".yml")) or ref.startswith(".")


def _parse(file: str, text: str) -> tuple[Any, yamlsafe.Lines]:
    try:
        data, lines = yamlsafe.load(text)
    except yamlsafe.YamlError as exc:
        raise ProfileError(file, exc.line, yamlsafe.format_path(exc.path) if exc.path else "",
                           exc.message) from None
    if not isinstance(data, dict):
        raise ProfileError(file, 1, "", "the top level must be a mapping")
    return data, lines


def _validate(model: type, data: Any, file: str, lines: yamlsafe.Lines, base: tuple = ()) -> Any:
    from pydantic import ValidationError

    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = base + tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-")))
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown key"
        elif err["type"] == "missing":
            msg = "required key is missing"
        more = len(exc.errors()) - 1
        if more:
            msg += f" (and {more} more problem{'s' if more > 1 else ''})"
        raise ProfileError(file, lines.line(loc), yamlsafe.format_path(loc), msg) from None


# --- loading and merging ----------------------------------------------------------------


def load_profile(ref: str) -> Profile:
    """Load a profile by built-in name or path, following ``extends``.

    A built-in profile is read from its precompiled form when that is current (every source
    file it was compiled from has the recorded sha256); otherwise, and for every path, the
    YAML is compiled.
    """
    if not _looks_like_path(ref):
        from bench_gate.profile import precompiled as compiled

        found = compiled.load(ref)
        if found is not None:
            return found
    return compile_profile(ref)


def compile_profile(ref: str) -> Profile:
    """Compile a profile from its YAML sources (no precompiled form is used)."""
    from bench_gate.checks import registry

    profile = _load(ref, None, ())
    kinds = registry()
    return dataclasses.replace(profile, kinds={r.spec.check: kinds[r.spec.check] for r in profile.rules})


def _resolve_profile(ref: str, relative_to: Path | None) -> tuple[str, str]:
    if _looks_like_path(ref):
        path = Path(ref)
        if relative_to is not None and not path.is_absolute():
            path = relative_to / path
        return _read_path(str(path), f"profile {ref!r}")
    found = _read_builtin("profiles", ref)
    if found is None:
        known = ", ".join(builtin_names()) or "none"
        raise ProfileError(ref, None, "", f"unknown profile {ref!r} (built-in profiles: {known}; "
                                          "or give a path to a profile YAML file)")
    return found


def _load(ref: str, relative_to: Path | None, stack: tuple[str, ...]) -> Profile:
    from bench_gate.profile.schema import ProfileFile

    file, text = _resolve_profile(ref, relative_to)
    key = str(Path(file).resolve()) if _looks_like_path(ref) else file
    data, lines = _parse(file, text)
    if key in stack:
        raise ProfileError(file, lines.line(("extends",)), "extends",
                           "extends cycle: " + " -> ".join(stack + (key,)))
    if len(stack) >= MAX_EXTENDS_DEPTH:
        raise ProfileError(file, lines.line(("extends",)), "extends",
                           f"extends is nested deeper than {MAX_EXTENDS_DEPTH}")
    spec = _validate(ProfileFile, data, file, lines)
    here = Path(file).parent if _looks_like_path(ref) else None
    parents_refs = [spec.extends] if isinstance(spec.extends, str) else list(spec.extends or [])
    parents = [_load(p, here, stack + (key,)) for p in parents_refs]

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
        params[name] = _param(name, raw, file, lines, params.get(name))
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
                               f"no rule {rule_id!r} to disable")
        disabled[rule_id] = spec.name

    profile = Profile(spec.name, spec.description, file, tuple(p.name for p in parents) + (spec.name,),
                      params, documents, options, tuple(rules), disabled, tuple(files))
    _check_profile(profile, file, lines)
    return profile


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
    if _looks_like_path(name):
        path = Path(name) if here is None or Path(name).is_absolute() else here / name
        file, text = _read_path(str(path), f"policy {name!r}")
    else:
        found = _read_builtin("policies", name)
        if found is None:
            known = ", ".join(builtin_names("policies"))
            raise ProfileError(pfile, pline, "use", f"unknown policy {name!r} (built-in: {known})")
        file, text = found
    from bench_gate.profile.schema import PolicyFile

    data, lines = _parse(file, text)
    pol = _validate(PolicyFile, data, file, lines)
    if (file, hashlib.sha256(text.encode()).hexdigest()) not in files:
        files.append((file, hashlib.sha256(text.encode()).hexdigest()))
    return [SourcedRule(_rule_decl(r), f"{file}:{lines.line(('rules', i))}", file, lines, ("rules", i))
            for i, r in enumerate(pol.rules)]


def _param(name: str, raw: Any, file: str, lines: yamlsafe.Lines, inherited: Param | None) -> Param:
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
    _validate(ParamSpec, raw, file, lines, where)
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
        "list": isinstance(value, list),
        "map": isinstance(value, dict),
        "number-map": isinstance(value, dict) and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value.values()),
    }[ptype]
    return None if ok else f"must be of type {ptype}, got {json.dumps(value)[:60]}"


def _check_profile(profile: Profile, file: str, lines: yamlsafe.Lines) -> None:
    from bench_gate.checks import registry

    kinds = registry()
    for r in profile.rules:
        if r.spec.check not in kinds:
            raise ProfileError(r.file, r.lines.line(r.path + ("check",)),
                               yamlsafe.format_path(r.path + ("check",)),
                               f"unknown check kind {r.spec.check!r}")
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


# --- binding ----------------------------------------------------------------------------


class ParamError(Exception):
    """A ``with:`` value its check kind does not accept: the path inside ``with`` and why."""

    def __init__(self, loc: tuple[Any, ...], message: str) -> None:
        super().__init__(message)
        self.loc, self.message = loc, message


class _Reject(Exception):
    """The strict validator's first problem; ``message`` None means "word it like the schema"."""

    def __init__(self, loc: tuple[Any, ...], message: str | None, value: Any = None,
                 plain: bool = False) -> None:
        super().__init__(message)
        self.loc, self.message, self.value, self.plain = loc, message, value, plain

    def text(self) -> str | None:
        """The message as :func:`describe_validation` words it."""
        if self.message is None or self.plain:
            return self.message
        if self.loc and _tag(self.loc[-1]):
            return None  # a key that reads like a type tag: describe_validation words it
        got = self.value
        if isinstance(got, (str, int, float, bool)) or got is None:
            return f"{self.message}, got {json.dumps(got)[:60]}"
        return self.message


class _Unsupported(Exception):
    """A parameter type the strict validator does not know: the schema library decides."""


_NONE = type(None)
_FIELDS: dict[type, tuple[tuple[str, Any, Any], ...]] = {}


def _class_fields(cls: type) -> tuple[tuple[str, Any, Any], ...]:
    found = _FIELDS.get(cls)
    if found is None:
        # Without include_extras, like the schema models: Annotated constraints are not applied.
        hints = get_type_hints(cls)
        found = tuple((f.name, hints[f.name], f) for f in fields(cls))
        _FIELDS[cls] = found
    return found


def _check_class(cls: type, value: Any, loc: tuple[Any, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Reject(loc, f"Input should be a valid dictionary or instance of {cls.__name__}", value)
    out: dict[str, Any] = {}
    names = set()
    for name, hint, f in _class_fields(cls):
        names.add(name)
        if name in value:
            out[name] = _check(hint, value[name], loc + (name,))
        elif f.default is not dataclasses.MISSING:
            out[name] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            out[name] = f.default_factory()
        else:
            raise _Reject(loc + (name,), "required parameter is missing", plain=True)
    for key in value:
        if key not in names:
            raise _Reject(loc + (key,), "unknown parameter", plain=True)
    return out


def _literal_text(options: tuple[Any, ...]) -> str:
    shown = [repr(o) for o in options]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


_UNION_TAGS = {int: "an integer", float: "a number", str: "a string", bool: "a boolean",
               list: "a list", dict: "a mapping"}


def _union_tag(hint: Any) -> str | None:
    if is_dataclass(hint) and isinstance(hint, type):
        return "a mapping" if hint.__name__[:1].isupper() else None
    return _UNION_TAGS.get(get_origin(hint) or hint)


_SHAPES: dict[Any, tuple[str, tuple[Any, ...]]] = {}
_SCALARS = {Any: "any", str: "str", bool: "bool", int: "int", float: "float", _NONE: "none"}


def _shape(hint: Any) -> tuple[str, tuple[Any, ...]]:
    """What a type hint is, worked out once per hint: (form, arguments)."""
    try:
        return _SHAPES[hint]
    except (KeyError, TypeError):
        pass
    form = _SCALARS.get(hint) if isinstance(hint, type) or hint is Any else None
    origin, args = get_origin(hint), get_args(hint)
    if form is None:
        if is_dataclass(hint) and isinstance(hint, type):
            form = "class"
        elif origin is list and len(args) == 1:
            form = "list"
        elif origin is dict and len(args) == 2:
            form = "dict"
        elif origin is Literal:
            form = "literal" if all(isinstance(a, str) for a in args) else "unsupported"
        elif origin in (Union, types.UnionType):
            form = "union"
        else:
            form = "unsupported"
    found = (form, args)
    try:
        _SHAPES[hint] = found
    except TypeError:
        pass
    return found


def _check(hint: Any, value: Any, loc: tuple[Any, ...]) -> Any:
    """The validated plain value (strict: no coercion but int to float), or a _Reject."""
    form, args = _shape(hint)
    if form == "any":
        return value
    if form == "str":
        if isinstance(value, str):
            return value
        raise _Reject(loc, "Input should be a valid string", value)
    if form == "bool":
        if value is True or value is False:
            return value
        raise _Reject(loc, "Input should be a valid boolean", value)
    if form == "int":
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise _Reject(loc, "Input should be a valid integer", value)
    if form == "float":
        if isinstance(value, float):
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            try:
                return float(value)
            except OverflowError:
                raise _Reject(loc, None, value) from None
        raise _Reject(loc, "Input should be a valid number", value)
    if form == "none":
        if value is None:
            return None
        raise _Reject(loc, "Input should be None", value)
    if form == "class":
        return _check_class(hint, value, loc)
    if form == "list":
        if not isinstance(value, list):
            raise _Reject(loc, "Input should be a valid list", value)
        return [_check(args[0], v, loc + (i,)) for i, v in enumerate(value)]
    if form == "dict":
        if not isinstance(value, dict):
            raise _Reject(loc, "Input should be a valid dictionary", value)
        if args[0] is not str or not all(isinstance(k, str) for k in value):
            raise _Unsupported(hint)
        return {k: _check(args[1], v, loc + (k,)) for k, v in value.items()}
    if form == "literal":
        if isinstance(value, str) and value in args:
            return value
        raise _Reject(loc, f"Input should be {_literal_text(args)}", value)
    if form == "union":
        return _check_union(args, value, loc)
    raise _Unsupported(hint)


def _check_union(args: tuple[Any, ...], value: Any, loc: tuple[Any, ...]) -> Any:
    if _NONE in args:
        # Optional: null is accepted, anything else is checked against the other members
        if value is None:
            return None
        args = tuple(a for a in args if a is not _NONE)
        if len(args) == 1:
            return _check(args[0], value, loc)
    if int in args and isinstance(value, int) and not isinstance(value, bool):
        return value  # an exact match wins over int -> float
    problems: list[_Reject] = []
    for member in args:
        try:
            return _check(member, value, loc)
        except _Reject as exc:
            problems.append(exc)
    tags = [_union_tag(a) for a in args]
    if all(p.loc == loc and p.message is not None for p in problems) and all(tags):
        wanted: list[str] = []
        for tag in tags:
            if tag not in wanted:
                wanted.append(tag)  # type: ignore[arg-type]
        if set(wanted) == {"an integer", "a number"}:
            wanted = ["a number"]
        shown = (json.dumps(value)[:60] if isinstance(value, (str, int, float, bool, type(None)))
                 else type(value).__name__)
        raise _Reject(loc, f"expected {' or '.join(wanted)}, got {shown}", plain=True)
    raise _Reject(problems[0].loc, None, value)


def validate_params(cls: type, raw: Any) -> Any:
    """Validate raw ``with:`` data against a kind's parameters; the dataclass instance.

    Strict: ``"30"`` is not an integer, ``true`` is not a number, unknown keys are errors. A
    value that is not accepted raises :class:`ParamError`; a ``ValueError`` or ``TypeError``
    raised by the dataclass itself (``__post_init__``) passes through.
    """
    try:
        plain = _check_class(cls, raw, ())
    except _Reject as exc:
        message = exc.text()
        if message is None:
            message = _schema_wording(cls, raw, exc)
            if isinstance(message, ParamError):
                raise message from None
        raise ParamError(exc.loc, message) from None
    except _Unsupported:
        return _validate_with_schema_models(cls, raw)
    return _build(cls, plain)


def _validate_with_schema_models(cls: type, raw: Any) -> Any:
    """For a type hint the strict validator does not know: the schema models decide."""
    from pydantic import ValidationError

    try:
        return validate_params_with_schema(cls, raw)
    except ValidationError as problem:
        loc, msg = describe_validation(problem)
        raise ParamError(loc, msg) from None


def _schema_wording(cls: type, raw: Any, exc: _Reject) -> ParamError | str:
    """For the rare rejection whose wording the schema library owns: its message."""
    from pydantic import ValidationError

    try:
        validate_params_with_schema(cls, raw)
    except ValidationError as problem:
        loc, msg = describe_validation(problem)
        return ParamError(loc, msg)
    except (ValueError, TypeError):
        pass
    return "Input is not accepted"


# The schema-library path: the reference the strict validator is tested against, the fallback
# for a type hint it does not know, and the wording of rare rejections.

_MODELS: dict[type, Any] = {}


def _convert(t: Any) -> Any:
    """A type with every parameter dataclass replaced by its strict validation model."""
    if is_dataclass(t) and isinstance(t, type):
        return params_model(t)
    origin, args = get_origin(t), get_args(t)
    if origin is list:
        return list[_convert(args[0])]  # type: ignore[misc]
    if origin is dict:
        return dict[_convert(args[0]), _convert(args[1])]  # type: ignore[misc]
    if origin in (Union, types.UnionType):
        return Union[tuple(_convert(a) for a in args)]  # type: ignore[return-value]
    return t


def params_model(cls: type) -> type[BaseModel]:
    """A strict pydantic model mirroring a check kind's parameter dataclass.

    Strict: ``"30"`` is not an integer, ``true`` is not a number, and unknown keys are errors.
    """
    from pydantic import ConfigDict, Field, create_model

    if cls not in _MODELS:
        hints = get_type_hints(cls)
        spec: dict[str, Any] = {}
        for f in fields(cls):
            if f.default is not dataclasses.MISSING:
                default: Any = f.default
            elif f.default_factory is not dataclasses.MISSING:
                default = Field(default_factory=f.default_factory)
            else:
                default = ...
            spec[f.name] = (_convert(hints[f.name]), default)
        _MODELS[cls] = create_model(cls.__name__, __config__=ConfigDict(extra="forbid", strict=True),
                                    **spec)  # type: ignore[call-overload]
    return _MODELS[cls]


def _build(t: Any, value: Any) -> Any:
    """Turn validated plain data back into the (nested) parameter dataclasses."""
    if value is None:
        return None
    form, args = _shape(t)
    if form == "class":
        return t(**{name: _build(hint, value[name]) for name, hint, _ in _class_fields(t) if name in value})
    if form == "list":
        return [_build(args[0], v) for v in value]
    if form == "dict":
        return {k: _build(args[1], v) for k, v in value.items()}
    if form == "union":
        for a in args:
            if is_dataclass(a) and isinstance(value, dict):
                return _build(a, value)
    return value


def validate_params_with_schema(cls: type, raw: Any) -> Any:
    """:func:`validate_params` through the pydantic model (raises its ValidationError)."""
    model = params_model(cls)
    validated = model.model_validate(raw)
    return _build(cls, validated.model_dump())


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
                               f"{exc.message} (check kind {kind.name})") from None
        except (ValueError, TypeError) as exc:
            loc = with_path
            raise ProfileError(r.file, r.lines.line(loc), yamlsafe.format_path(loc),
                               f"{exc} (check kind {kind.name})") from None
        _check_refs(r, raw, profile)
        bound.append(BoundRule(r.spec.id, r.spec.title, r.spec.check, params, raw, r.spec.severity,
                               r.spec.why, r.spec.when, r.source, profile.disabled.get(r.spec.id)))
    digest = _digest(profile, bound, values)
    return Plan(profile, tuple(bound), values, digest, kinds)


def _kinds(profile: Profile) -> dict[str, CheckKind]:
    """The kinds the profile's rules use (the whole registry for a hand-built profile)."""
    if profile.kinds and all(r.spec.check in profile.kinds for r in profile.rules):
        return dict(profile.kinds)
    from bench_gate.checks import registry

    return registry()


_TYPE_TAGS = {"int": "an integer", "float": "a number", "str": "a string", "bool": "a boolean",
              "none": "null", "list": "a list", "dict": "a mapping"}


def _tag(part: Any) -> str | None:
    if not isinstance(part, str):
        return None
    base = part.split("[", 1)[0]
    if base in _TYPE_TAGS:
        return _TYPE_TAGS[base]
    if part and part[0].isupper():  # a nested parameter model's name
        return "a mapping"
    return None


def describe_validation(exc: ValidationError) -> tuple[tuple[Any, ...], str]:
    """(path inside ``with``, one readable message) for the first problem of a validation error.

    Union members show up in pydantic's locations as type tags (``...latency.int``); they are
    folded into one "expected a number or an integer" message instead.
    """
    errors = exc.errors()
    first = errors[0]
    loc = tuple(first["loc"])
    if first["type"] == "extra_forbidden":
        return loc, "unknown parameter"
    if first["type"] in ("missing", "missing_keyword_argument"):
        return loc, "required parameter is missing"
    if loc and _tag(loc[-1]):
        stem = loc[:-1]
        wanted = []
        for err in errors:
            eloc = tuple(err["loc"])
            if eloc[:-1] == stem and _tag(eloc[-1]) and _tag(eloc[-1]) not in wanted:
                wanted.append(_tag(eloc[-1]))
        if set(wanted) == {"an integer", "a number"}:
            wanted = ["a number"]
        got = first.get("input")
        shown = json.dumps(got)[:60] if isinstance(got, (str, int, float, bool, type(None))) else type(got).__name__
        return stem, f"expected {' or '.join(wanted)}, got {shown}"
    got = first.get("input")
    if isinstance(got, (str, int, float, bool)) or got is None:
        return loc, f"{first['msg']}, got {json.dumps(got)[:60]}"
    return loc, first["msg"]


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
        elif isinstance(value, str) and re.match(r"^[a-z][a-z0-9_-]*:/(?!/)", value):
            role, pointer = split_ref(value)
            loc = rule.path + ("with",) + path
            if role not in roles:
                raise ProfileError(rule.file, rule.lines.line(loc), yamlsafe.format_path(loc),
                                   f"document role {role!r} is not declared by the profile")
            if not valid_pointer(pointer):
                raise ProfileError(rule.file, rule.lines.line(loc), yamlsafe.format_path(loc),
                                   f"{value!r} is not a JSON Pointer (~ must be followed by 0 or 1)")

    walk(raw, ())


def _plain(value: Any) -> Any:
    if isinstance(value, Condition):
        return value.to_json()
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)
    return value


def _digest(profile: Profile, rules: list[BoundRule], values: dict[str, Any]) -> str:
    body = {
        "profile": profile.name,
        "chain": list(profile.chain),
        "rules": [{"id": r.id, "check": r.check, "params": _plain(r.params), "severity": r.severity,
                   "when": _plain(r.when), "disabled": r.disabled_by} for r in rules],
        "documents": {k: d.spec.to_json() for k, d in sorted(profile.documents.items())},
        "values": values,
    }
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()
