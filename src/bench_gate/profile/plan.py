"""The compiled profile: frozen records (:mod:`bench_gate.records`), and the one error type of compilation.

A profile exists in two shapes only: as YAML validated against the pydantic models of
:mod:`bench_gate.profile.schema` (while it is compiled), and as the objects here. A loaded,
merged, not yet bound profile is a :class:`Profile`; binding parameter values into it gives the
:class:`Plan` the engine runs, a tuple of :class:`BoundRule`.

Every compilation problem is a :class:`ProfileError` carrying the file, the line and the path
inside the YAML (``profiles/mine.yaml:14: rules[2].with.min: ...``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bench_gate.records import field, fields, record
from bench_gate.checks.base import CheckKind
from bench_gate.profile import yamlsafe


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


# --- the compiled declarations (plain data, the same attributes as the schema models) ------


@record
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


@record
class OptionDecl:
    """A profile command-line option (see :class:`bench_gate.profile.schema.OptionSpec`)."""

    param: str
    kind: str
    help: str = ""
    metavar: str | None = None

    def to_json(self, exclude_none: bool = False) -> dict[str, Any]:
        return _decl_json(self, exclude_none)


@record
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


@record
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


@record
class Param:
    name: str
    type: str
    default: Any
    help: str
    source: str


@record
class Document:
    role: str
    spec: DocumentDecl
    source: str


@record
class Option:
    name: str
    spec: OptionDecl
    source: str


@record
class SourcedRule:
    spec: RuleDecl
    source: str
    file: str
    lines: yamlsafe.Lines
    path: tuple[str | int, ...]


@record
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
    command: str | None = None
    """The command that runs this profile, when only a command can (``bench-gate ledger ...``)."""
    kinds: dict[str, CheckKind] = field(default_factory=dict, repr=False, compare=False)
    """The check kinds the rules use, by name."""


@record
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


@record
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
