"""Records: frozen value classes that cost nothing to define.

``@record`` declares a class as ``@dataclass(frozen=True)`` does: annotated class attributes
are its fields, in order (a base record's first), with their defaults, and :func:`field` gives
``default_factory``, ``compare=False`` and ``repr=False``. Its instances are made from the
fields in order, positionally or by name, run ``__post_init__`` when the class has one,
compare equal when their class and compared fields are equal, hash by those fields, print as a
dataclass prints, and refuse any assignment or deletion
(:class:`~dataclasses.FrozenInstanceError`). ``@record(frozen=False)`` is a mutable record:
compared by its fields and not hashable. A method the class defines itself is kept, as with
``@dataclass``. :func:`fields`, :func:`replace` and :func:`is_record` are this module's
:func:`dataclasses.fields`, :func:`dataclasses.replace` and :func:`dataclasses.is_dataclass`.

What differs is the cost. The standard decorator compiles six methods for every frozen class
(``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``) and
imports :mod:`inspect` and everything it needs; the fifty classes a gate loads would cost more
than judging a typical report. Here nothing is compiled and nothing is imported: every method is
a shared function that reads the class's fields, worked out once per class from its
annotations, which are not evaluated. Every field of a record is set by ``__init__``,
positionally or by name: a ``ClassVar``, ``InitVar`` or ``KW_ONLY`` annotation is refused (such a
class is a plain ``@dataclass``).

A record is still a dataclass to code that asks: the first time anything reads a record's
``__dataclass_fields__`` (:func:`dataclasses.fields`, :func:`dataclasses.replace`,
:func:`dataclasses.asdict`, :func:`dataclasses.is_dataclass`, a library validating one), the
standard decorator describes an equivalent class and its answer is kept. A gate never asks.

A record without a docstring is documented by its name and its own field names
(``FieldSpec(path, type, non_empty, ...)``), not by the signature the standard decorator works
out with :mod:`inspect`.

``__post_init__`` may still set a field through ``object.__setattr__``, as with a frozen
dataclass. A subclass of a record is declared with ``@record`` too.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, overload

T = TypeVar("T", bound=type)

_OWN = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__")
_REFUSED = ("ClassVar", "InitVar", "KW_ONLY")
"""Annotations of what is not a field set by ``__init__`` (with or without a module prefix)."""


class _Missing:
    """No default (the counterpart of :data:`dataclasses.MISSING`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()
"""A field without a default or without a default factory."""


class Field:
    """One field of a record: its name, its annotation as written, and how it is set and compared."""

    __slots__ = ("name", "type", "default", "default_factory", "compare", "repr")

    def __init__(self, default: Any = MISSING, default_factory: Any = MISSING, compare: bool = True,
                 repr: bool = True) -> None:  # noqa: A002 - the name dataclasses.field uses
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.name = ""
        self.type: Any = None
        self.default, self.default_factory, self.compare, self.repr = default, default_factory, compare, repr

    def __repr__(self) -> str:
        return f"Field(name={self.name!r}, type={self.type!r}, default={self.default!r})"


def field(*, default: Any = MISSING, default_factory: Any = MISSING, compare: bool = True,
          repr: bool = True) -> Any:  # noqa: A002
    """A field's default, factory and comparison, as :func:`dataclasses.field` gives them."""
    return Field(default, default_factory, compare, repr)


@overload
def record(cls: T, /) -> T: ...
@overload
def record(*, frozen: bool = True) -> Callable[[T], T]: ...


def record(cls: Any = None, /, *, frozen: bool = True) -> Any:
    """Declare a record class: ``@record`` (frozen) or ``@record(frozen=False)`` (mutable)."""

    def wrap(target: T) -> T:
        return _define(target, frozen)

    return wrap if cls is None else wrap(cls)


def fields(class_or_instance: Any) -> tuple[Field, ...]:
    """The fields of a record or a dataclass (a class or an instance), in order, as this
    module's :class:`Field` (:data:`MISSING` for no default); TypeError for anything else."""
    found = getattr(class_or_instance, "__record_fields__", None)
    if found is not None:
        return found  # type: ignore[no-any-return]
    cls = class_or_instance if isinstance(class_or_instance, type) else type(class_or_instance)
    found = _DATACLASS_FIELDS.get(cls)
    if found is None:
        standard = sys.modules.get("dataclasses")  # loaded already if cls is a dataclass
        if standard is None or not standard.is_dataclass(cls):
            raise TypeError("must be called with a record or dataclass type or instance")

        def own(v: Any) -> Any:
            return MISSING if v is standard.MISSING else v

        found = []
        for f in standard.fields(cls):
            described = Field(own(f.default), own(f.default_factory), bool(f.compare), bool(f.repr))
            described.name, described.type = f.name, f.type
            found.append(described)
        found = _DATACLASS_FIELDS[cls] = tuple(found)
    return found  # type: ignore[no-any-return]


_DATACLASS_FIELDS: dict[type, tuple[Field, ...]] = {}


def is_record(obj: Any) -> bool:
    """Whether ``obj`` is a record or a dataclass (a class or an instance)."""
    cls = obj if isinstance(obj, type) else type(obj)
    if hasattr(cls, "__record_fields__"):
        return True
    # a plain dataclass: the standard library is loaded already if one exists
    return "dataclasses" in sys.modules and sys.modules["dataclasses"].is_dataclass(obj)


def replace(obj: Any, /, **changes: Any) -> Any:
    """A copy of a record instance with some fields changed (:func:`dataclasses.replace`)."""
    found = fields(obj)
    if isinstance(obj, type):
        raise TypeError("replace() should be called on record instances")
    values = {f.name: getattr(obj, f.name) for f in found}
    for name in changes:
        if name not in values:
            raise TypeError(f"{type(obj).__qualname__}.__init__() got an unexpected keyword argument {name!r}")
    values.update(changes)
    return obj.__class__(**values)


def _define(cls: T, frozen: bool) -> T:
    # What the class body defines itself stays; Python sets __hash__ to None in the body of a
    # class that defines __eq__ without __hash__, which is not a hash of its own.
    own = {name for name in _OWN if name in cls.__dict__}
    if cls.__dict__.get("__hash__", 0) is None and "__eq__" in own:
        own.discard("__hash__")
    if not cls.__doc__:
        cls.__doc__ = f"{cls.__name__}({', '.join(cls.__dict__.get('__annotations__', {}))})"
    found = _collect(cls)
    cls.__record_fields__ = found  # type: ignore[attr-defined]
    cls.__record_key__ = staticmethod(_getter(tuple(f.name for f in found if f.compare)))  # type: ignore[attr-defined]
    cls.__record_repr__ = tuple(f.name for f in found if f.repr)  # type: ignore[attr-defined]
    cls.__dataclass_fields__ = _AsDataclass("__dataclass_fields__", frozen)  # type: ignore[attr-defined]
    cls.__dataclass_params__ = _AsDataclass("__dataclass_params__", frozen)  # type: ignore[attr-defined]
    methods: dict[str, Any] = {"__init__": _initializer(cls, found), "__repr__": _repr, "__eq__": _eq}
    if frozen:
        methods.update(__hash__=_hash, __setattr__=_no_assignment, __delattr__=_no_deletion)
    else:
        methods["__hash__"] = None
    for name, method in methods.items():
        if name not in own:
            setattr(cls, name, method)
    return cls


def _collect(cls: type) -> tuple[Field, ...]:
    """The fields of ``cls``: its bases' (as the standard decorator orders them), then its own.

    The class attribute of a field becomes its default, as with ``@dataclass``; a field with a
    factory or without a default leaves no class attribute behind.
    """
    by_name: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        for f in base.__dict__.get("__record_fields__", ()):
            by_name[f.name] = f
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        written = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", repr(annotation))
        if written.split("[", 1)[0].rsplit(".", 1)[-1].strip() in _REFUSED:
            raise TypeError(f"{cls.__qualname__}: a record's fields are all set by __init__, positionally or by "
                            "name (no init=False, kw_only, InitVar or ClassVar): declare it with @dataclass")
        value = cls.__dict__.get(name, MISSING)
        f = _as_field(cls, name, value)
        f.name, f.type = name, annotation
        if f.default is not MISSING and type(f.default).__hash__ is None:  # the standard decorator's test
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: use "
                             "default_factory")
        if f.default is MISSING:
            if value is not MISSING:
                delattr(cls, name)
        else:
            setattr(cls, name, f.default)
        by_name[name] = f  # a field a base declares keeps its place, as with @dataclass
    return tuple(by_name.values())


def _as_field(cls: type, name: str, value: Any) -> Field:
    """The Field a class attribute declares: its own default, :func:`field`, or a
    :func:`dataclasses.field` (read without importing the module: it is loaded if one exists)."""
    if isinstance(value, Field):
        return Field(value.default, value.default_factory, value.compare, value.repr)
    standard = sys.modules.get("dataclasses")
    if standard is not None and isinstance(value, standard.Field):
        if not value.init or value.kw_only is True:
            raise TypeError(f"{cls.__qualname__}.{name}: a record's fields are all set by __init__, positionally or "
                            "by name (no init=False, kw_only, InitVar or ClassVar): declare it with @dataclass")

        def own(v: Any) -> Any:
            return MISSING if v is standard.MISSING else v

        return Field(own(value.default), own(value.default_factory), bool(value.compare), bool(value.repr))
    return Field(value)


class _AsDataclass:
    """``__dataclass_fields__`` and ``__dataclass_params__`` of a record, worked out by the
    standard decorator the first time they are read, for the class they are read on."""

    def __init__(self, attribute: str, frozen: bool) -> None:
        self.attribute, self.frozen = attribute, frozen

    def __get__(self, obj: Any, owner: type) -> Any:
        import dataclasses  # only code that treats a record as a dataclass pays for the module

        described = owner.__dict__.get("__record_described__")
        if described is None:
            namespace: dict[str, Any] = {"__module__": owner.__module__, "__qualname__": owner.__qualname__,
                                         "__annotations__": {}}
            for f in fields(owner):
                namespace["__annotations__"][f.name] = f.type
                namespace[f.name] = dataclasses.field(
                    default=dataclasses.MISSING if f.default is MISSING else f.default,
                    default_factory=dataclasses.MISSING if f.default_factory is MISSING else f.default_factory,
                    compare=f.compare, repr=f.repr)
            twin: Any = dataclasses.dataclass(type(owner.__name__, (), namespace), init=False, repr=False, eq=False,
                                              frozen=self.frozen)
            described = (twin.__dataclass_fields__, twin.__dataclass_params__)
            type.__setattr__(owner, "__record_described__", described)
        return described[0] if self.attribute == "__dataclass_fields__" else described[1]


def _initializer(cls: type, found: tuple[Field, ...]) -> Callable[..., None]:
    """The ``__init__`` of a record: the fields in order, positionally or by name, the defaults
    and factories for the others, then ``__post_init__`` when the class has one; the values go
    straight into the instance, as a frozen dataclass's ``__init__`` puts them."""
    names = tuple(f.name for f in found)
    count = len(names)
    known = frozenset(names)
    defaults = {f.name: f.default for f in found if f.default is not MISSING}
    factories = {f.name: f.default_factory for f in found if f.default_factory is not MISSING}
    post_init = hasattr(cls, "__post_init__")
    where = f"{cls.__qualname__}.__init__()"
    least, most = count - len(defaults) - len(factories) + 1, count + 1  # self included
    takes = (f"from {least} to {most} positional arguments" if least < most else
             f"{most} positional argument{'s' if most != 1 else ''}")

    # (name, default, factory) of each field, for the fields a positional call leaves out
    rest = tuple((f.name, f.default, f.default_factory) for f in found)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        values = self.__dict__
        given = len(args)
        if not kwargs and given <= count:  # the first fields in order, as most calls give them
            values.update(zip(names, args))
            for name, default, factory in rest[given:]:
                if default is not MISSING:
                    values[name] = default
                elif factory is not MISSING:
                    values[name] = factory()
                else:
                    raise TypeError(f"{where} missing 1 required positional argument: {name!r}")
        else:
            if len(args) > count:
                raise TypeError(f"{where} takes {takes} but {len(args) + 1} were given")
            named = dict(zip(names, args))
            for name, value in kwargs.items():
                if name not in known:
                    raise TypeError(f"{where} got an unexpected keyword argument {name!r}")
                if name in named:
                    raise TypeError(f"{where} got multiple values for argument {name!r}")
                named[name] = value
            for name in names:
                if name in named:
                    values[name] = named[name]
                elif name in defaults:
                    values[name] = defaults[name]
                elif name in factories:
                    values[name] = factories[name]()
                else:
                    raise TypeError(f"{where} missing 1 required positional argument: {name!r}")
        if post_init:
            self.__post_init__()

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The values of ``names`` of an instance, as a tuple (``attrgetter`` works at C speed)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__record_repr__)
    return f"{self.__class__.__qualname__}({shown})"


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    key = self.__record_key__
    return key(self) == key(other)


def _hash(self: Any) -> int:
    return hash(self.__record_key__(self))


def _frozen_error() -> type[Exception]:
    """:class:`dataclasses.FrozenInstanceError`, the error a frozen dataclass raises (loaded only
    when a frozen record is written to, which is a bug)."""
    from dataclasses import FrozenInstanceError

    return FrozenInstanceError


def _no_assignment(self: Any, name: str, value: Any) -> None:
    raise _frozen_error()(f"cannot assign to field {name!r}")


def _no_deletion(self: Any, name: str) -> None:
    raise _frozen_error()(f"cannot delete field {name!r}")
