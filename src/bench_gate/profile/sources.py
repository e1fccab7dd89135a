"""Reading profile and policy YAML: built-in files by name, user files by path, strictly.

A built-in profile or policy is named (``ai-memory``, ``freshness``) and read from the package;
anything that looks like a path (``./mine.yaml``, ``gates/ours.yml``) is read from disk, at most
:data:`MAX_PROFILE_BYTES`, UTF-8 only. The text is parsed by :mod:`bench_gate.profile.yamlsafe`
(unambiguous YAML with line numbers) and validated against a model of
:mod:`bench_gate.profile.schema`; every problem is a
:class:`~bench_gate.profile.plan.ProfileError` with file, line and path.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bench_gate.profile import yamlsafe
from bench_gate.profile.plan import ProfileError
from bench_gate.text.suggest import did_you_mean

MAX_PROFILE_BYTES = 1024 * 1024


def builtin_dir(kind: str) -> Path:
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
    entry = builtin_dir(kind) / f"{name}.yaml"
    return entry if entry.is_file() else None


def builtin_names(kind: str = "profiles") -> list[str]:
    """Names of the built-in profiles (or policies)."""
    try:
        entries = list(builtin_dir(kind).iterdir())
    except (FileNotFoundError, NotADirectoryError):
        return []
    return sorted(e.name[:-5] for e in entries if e.name.endswith(".yaml"))


def read_builtin(kind: str, name: str) -> tuple[str, str] | None:
    entry = builtin_file(kind, name)
    if entry is None:
        return None
    return f"{kind}/{name}.yaml", entry.read_bytes().decode("utf-8")


def read_path(path: str, context: str) -> tuple[str, str]:
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


def looks_like_path(ref: str) -> bool:
    return "/" in ref or "\\" in ref or ref.endswith((".yaml", ".yml")) or ref.startswith(".")


def parse_yaml(file: str, text: str) -> tuple[Any, yamlsafe.Lines]:
    try:
        data, lines = yamlsafe.load(text)
    except yamlsafe.YamlError as exc:
        raise ProfileError(file, exc.line, yamlsafe.format_path(exc.path) if exc.path else "",
                           exc.message) from None
    if not isinstance(data, dict):
        raise ProfileError(file, 1, "", "the top level must be a mapping")
    return data, lines


def validate_model(model: type, data: Any, file: str, lines: yamlsafe.Lines, base: tuple = ()) -> Any:
    from pydantic import ValidationError

    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = base + tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-")))
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown key" + did_you_mean(str(loc[-1]), _keys_at(model, loc[len(base):-1]))
        elif err["type"] == "missing":
            msg = "required key is missing"
        more = len(exc.errors()) - 1
        if more:
            msg += f" (and {more} more problem{'s' if more > 1 else ''})"
        raise ProfileError(file, lines.line(loc), yamlsafe.format_path(loc), msg) from None


def _keys_at(model: type, loc: tuple[Any, ...]) -> list[str]:
    """The keys a schema model accepts at ``loc`` (for suggesting the intended one); [] if unknown."""
    from pydantic import BaseModel

    from bench_gate.profile.kindparams import keys_at

    def fields_of(hint: Any) -> dict[str, Any] | None:
        if isinstance(hint, type) and issubclass(hint, BaseModel):
            return {f.alias or name: f.annotation for name, f in hint.model_fields.items()}
        return None

    return list(keys_at(model, loc, fields_of))


# --- loading and merging ----------------------------------------------------------------


MAX_SCHEMA_BYTES = 1024 * 1024
_SHIPPED = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def shipped_schemas() -> list[str]:
    """Names of the JSON Schemas shipped with bench-gate (``bench_gate/schemas/NAME.schema.json``)."""
    folder = Path(__file__).resolve().parent.parent / "schemas"
    return sorted(p.name[: -len(".schema.json")] for p in folder.glob("*.schema.json"))


def read_schema(ref: str, declared_in: str) -> dict[str, Any]:
    """A JSON Schema named by a rule: shipped (``ledger-v2``) or a ``.json`` path beside the file.

    A path is relative to the profile or policy file that declares the rule and must stay in
    that file's folder (after following links). The schema must be strict JSON, an object, at
    most :data:`MAX_SCHEMA_BYTES`, and a valid Draft 2020-12 schema. Problems raise ValueError
    with the reason; the caller adds file and line.
    """
    from bench_gate.checks.generic.shape import schema_problem
    from bench_gate.loaders import strictjson

    if _SHIPPED.match(ref):
        path = Path(__file__).resolve().parent.parent / "schemas" / f"{ref}.schema.json"
        if not path.is_file():
            raise ValueError(f"no shipped schema {ref!r} (shipped: {', '.join(shipped_schemas())}; "
                             "or a path to a .json file beside the profile)")
    else:
        if not ref.endswith(".json") or Path(ref).is_absolute():
            raise ValueError(f"schema {ref!r} is neither a shipped schema name nor a relative path to a .json file")
        declared = Path(declared_in)
        if not declared.is_file():
            kind, _, name = declared_in.partition("/")
            builtin = builtin_file(kind, name[:-5]) if kind in ("profiles", "policies") and name.endswith(".yaml") \
                else None
            if builtin is None:
                raise ValueError(f"schema {ref!r}: the folder of {declared_in} is unknown")
            declared = builtin
        base = declared.resolve().parent
        path = (base / ref).resolve()
        if base not in path.parents:
            raise ValueError(f"schema {ref!r} leaves the folder of {declared_in}")
        if not path.is_file():
            raise ValueError(f"schema {ref!r} does not exist beside {declared_in}")
    if path.stat().st_size > MAX_SCHEMA_BYTES:
        raise ValueError(f"schema {ref!r} is over {MAX_SCHEMA_BYTES} bytes")
    try:
        schema = strictjson.loads(path.read_bytes())
    except (OSError, strictjson.JsonError) as exc:
        raise ValueError(f"schema {ref!r} is not readable JSON ({exc})") from None
    problem = schema_problem(schema)
    if problem:
        raise ValueError(f"schema {ref!r} {problem}")
    return schema
