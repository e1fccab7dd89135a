"""Validating a rule's ``with:`` against its check kind's parameter record.

Strict: ``"30"`` is not an integer, ``true`` is not a number, and unknown keys are errors. A
small validator over the records' type hints does the common cases fast; the pydantic model
mirroring the record (:func:`params_model`) is the reference it is tested against, the
fallback for a type hint it does not know, and the wording of rare rejections. A value that is
not accepted raises :class:`ParamError`: the path inside ``with`` and one readable message.
"""

from __future__ import annotations

import json
import sys
import types
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from bench_gate.records import MISSING, fields, is_record

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError

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
        hints = type_hints(cls)
        found = tuple((f.name, hints[f.name], f) for f in fields(cls))
        _FIELDS[cls] = found
    return found


_CODE: dict[str, Any] = {}
_EVALUATED: dict[tuple[str, str], Any] = {}


def type_hints(cls: type) -> dict[str, Any]:
    """``typing.get_type_hints(cls)`` of a parameter class, without ``include_extras`` (like
    the schema models: Annotated constraints are not applied).

    A parameter class's annotations are text (``from __future__ import annotations``), and
    get_type_hints compiles every one of them anew; the classes of a module repeat the same few
    (``str``, ``list[str]``, ``int | None``), so each text is compiled once and evaluated once
    per module. A text naming an attribute of its class that its module does not define is
    evaluated with the class's namespace as get_type_hints does, and anything unusual (an
    ``Annotated``, a quoted forward reference, an annotation that is not text) is left to
    get_type_hints itself. ``tests/profile/test_binding.py``
    compares the two for every registered kind.
    """
    hints: dict[str, Any] = {}
    for base in reversed(cls.__mro__):
        annotations = base.__dict__.get("__annotations__", {})
        if not annotations:
            continue
        module = sys.modules[base.__module__]
        for name, text in annotations.items():
            if not isinstance(text, str) or "Annotated" in text or "'" in text or '"' in text:
                return get_type_hints(cls)  # an Annotated, a forward reference written as a string
            code = _CODE.get(text)
            if code is None:
                code = _CODE[text] = compile(text, "<annotation>", "eval")
            if any(n in base.__dict__ and n not in module.__dict__ for n in code.co_names):
                # as get_type_hints does: the module's names first, then the class's, then builtins
                value = eval(code, dict(vars(base)), module.__dict__)  # noqa: S307 - the class's own annotation
            else:
                key = (text, base.__module__)
                if key not in _EVALUATED:
                    _EVALUATED[key] = eval(code, module.__dict__)  # noqa: S307 - the class's own annotation
                value = _EVALUATED[key]
            hints[name] = type(None) if value is None else value
    return hints


def _check_class(cls: type, value: Any, loc: tuple[Any, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Reject(loc, f"Input should be a valid dictionary or instance of {cls.__name__}", value)
    out: dict[str, Any] = {}
    names = set()
    for name, hint, f in _class_fields(cls):
        names.add(name)
        if name in value:
            out[name] = _check(hint, value[name], loc + (name,))
        elif f.default is not MISSING:
            out[name] = f.default
        elif f.default_factory is not MISSING:
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
    if is_record(hint) and isinstance(hint, type):
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
        if is_record(hint) and isinstance(hint, type):
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


def names_at(cls: type, loc: tuple[Any, ...]) -> list[str]:
    """The parameter names a kind accepts at ``loc`` inside ``with`` (``()``: its top level),
    for suggesting the intended name of an unknown one; [] where no parameter class is known."""
    def fields_of(hint: Any) -> dict[str, Any] | None:
        if is_record(hint) and isinstance(hint, type):
            return {name: h for name, h, _ in _class_fields(hint)}
        return None

    return list(keys_at(cls, loc, fields_of))


def keys_at(root: Any, loc: tuple[Any, ...], fields_of: Any) -> dict[str, Any]:
    """The keys (with their type hints) of the record type found at ``loc`` inside ``root``.

    ``fields_of(hint)`` gives a record type's keys and their hints, or None for any other type;
    a step into a list takes an index, into a dict a key, and a union is searched member by
    member. {} when ``loc`` leads to no record type."""
    def inside(hint: Any, part: Any) -> dict[str, Any] | None:
        origin, args = get_origin(hint), get_args(hint)
        if origin in (Union, types.UnionType):
            return next((x for x in (inside(a, part) for a in args) if x is not None), None)
        if part is None:
            return fields_of(hint)
        fields = fields_of(hint)
        if fields is not None and isinstance(part, str) and part in fields:
            return {"": fields[part]}
        if origin is list and len(args) == 1 and isinstance(part, int):
            return {"": args[0]}
        if origin is dict and len(args) == 2 and isinstance(part, str):
            return {"": args[1]}
        return None

    hint = root
    for part in loc:
        step = inside(hint, part)
        if step is None:
            return {}
        hint = step[""]
    return inside(hint, None) or {}


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


# The schema-library path: the reference the strict validator is tested against, the fallback
# for a type hint it does not know, and the wording of rare rejections.

_MODELS: dict[type, Any] = {}


def _convert(t: Any) -> Any:
    """A type with every parameter record replaced by its strict validation model."""
    if is_record(t) and isinstance(t, type):
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
    """A strict pydantic model mirroring a check kind's parameter record.

    Strict: ``"30"`` is not an integer, ``true`` is not a number, and unknown keys are errors.
    """
    from pydantic import ConfigDict, Field, create_model

    if cls not in _MODELS:
        hints = get_type_hints(cls)
        spec: dict[str, Any] = {}
        for f in fields(cls):
            if f.default is not MISSING:
                default: Any = f.default
            elif f.default_factory is not MISSING:
                default = Field(default_factory=f.default_factory)
            else:
                default = ...
            spec[f.name] = (_convert(hints[f.name]), default)
        _MODELS[cls] = create_model(cls.__name__, __config__=ConfigDict(extra="forbid", strict=True),
                                    **spec)  # type: ignore[call-overload]
    return _MODELS[cls]


def _build(t: Any, value: Any) -> Any:
    """Turn validated plain data back into the (nested) parameter records."""
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
            if is_record(a) and isinstance(value, dict):
                return _build(a, value)
    return value


def validate_params_with_schema(cls: type, raw: Any) -> Any:
    """:func:`validate_params` through the pydantic model (raises its ValidationError)."""
    model = params_model(cls)
    validated = model.model_validate(raw)
    return _build(cls, validated.model_dump())


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
