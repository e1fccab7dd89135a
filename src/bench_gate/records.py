"""Records: dataclasses that cost little to define.

``@record`` declares a class exactly as ``@dataclass(frozen=True)`` does, and the result is a
dataclass: :func:`dataclasses.fields`, :func:`dataclasses.replace`, :func:`dataclasses.asdict`
and :func:`dataclasses.is_dataclass` work on it, ``field(default_factory=...)``,
``field(compare=False)`` and ``__post_init__`` mean what they mean there. Its instances are made
from the fields in order, positionally or by name, compare equal when their class and fields are
equal, hash by their fields, print as a dataclass prints, and refuse any assignment or deletion
(:class:`dataclasses.FrozenInstanceError`). ``@record(frozen=False)`` is ``@dataclass``: a
mutable record, compared by its fields and not hashable.

What differs is the cost of defining one. The standard decorator compiles six methods for every
frozen class (``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``,
``__delattr__``), about half a millisecond a class; the fifty classes a gate loads would cost more
than judging a typical report. Here nothing is compiled: every method is a shared function that
reads the class's fields, worked out once per class. Every field of a record is set by
``__init__``, positionally or by name (a class with an ``init=False``, ``kw_only``, ``InitVar``
or ``ClassVar`` field is refused: it is a plain ``@dataclass``). A method the class defines
itself is kept, as with ``@dataclass``.

A record without a docstring is documented by its name and its own field names
(``FieldSpec(path, type, non_empty, ...)``), not by the signature the standard decorator works
out with :mod:`inspect`, which costs more than the rest of the class.

``__post_init__`` may still set a field through ``object.__setattr__``, as with a frozen
dataclass. A subclass of a record is declared with ``@record`` too (``@dataclass(frozen=True)``
refuses a base that the standard decorator does not know as frozen).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, overload

T = TypeVar("T", bound=type)

_OWN = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__")


@overload
def record(cls: T, /) -> T: ...
@overload
def record(*, frozen: bool = True) -> Callable[[T], T]: ...


def record(cls: Any = None, /, *, frozen: bool = True) -> Any:
    """Declare a record class: ``@record`` (frozen) or ``@record(frozen=False)`` (mutable)."""

    def wrap(target: T) -> T:
        return _define(target, frozen)

    return wrap if cls is None else wrap(cls)


def _define(cls: T, frozen: bool) -> T:
    # What the class body defines itself stays; Python sets __hash__ to None in the body of a
    # class that defines __eq__ without __hash__, which is not a hash of its own.
    own = {name for name in _OWN if name in cls.__dict__}
    if cls.__dict__.get("__hash__", 0) is None and "__eq__" in own:
        own.discard("__hash__")
    if not cls.__doc__:
        # the standard decorator would compute the full signature with inspect for this
        cls.__doc__ = f"{cls.__name__}({', '.join(cls.__dict__.get('__annotations__', {}))})"
    dataclasses.dataclass(cls, init=False, repr=False, eq=False)  # a real dataclass, nothing compiled
    found = dataclasses.fields(cls)
    if not all(f.init and not f.kw_only for f in found) or \
            len(found) != len(cls.__dataclass_fields__):  # type: ignore[attr-defined]  # InitVar, ClassVar
        raise TypeError(f"{cls.__qualname__}: a record's fields are all set by __init__, positionally or by "
                        "name (no init=False, kw_only, InitVar or ClassVar): declare it with @dataclass")
    cls.__record_key__ = staticmethod(_getter(tuple(f.name for f in found if f.compare)))  # type: ignore[attr-defined]
    cls.__record_repr__ = tuple(f.name for f in found if f.repr)  # type: ignore[attr-defined]
    methods: dict[str, Any] = {"__init__": _initializer(cls, found), "__repr__": _repr, "__eq__": _eq}
    if frozen:
        methods.update(__hash__=_hash, __setattr__=_no_assignment, __delattr__=_no_deletion)
    else:
        methods["__hash__"] = None
    for name, method in methods.items():
        if name not in own:
            setattr(cls, name, method)
    return cls


def _initializer(cls: type, found: tuple[dataclasses.Field[Any], ...]) -> Callable[..., None]:
    """The ``__init__`` of a record: the fields in order, positionally or by name, the defaults
    and factories for the others, then ``__post_init__`` when the class has one; the values go
    straight into the instance, as a frozen dataclass's ``__init__`` puts them."""
    names = tuple(f.name for f in found)
    known = frozenset(names)
    defaults = {f.name: f.default for f in found if f.default is not dataclasses.MISSING}
    factories = {f.name: f.default_factory for f in found if f.default_factory is not dataclasses.MISSING}
    post_init = hasattr(cls, "__post_init__")
    where = f"{cls.__qualname__}.__init__()"
    least, most = len(names) - len(defaults) - len(factories) + 1, len(names) + 1  # self included
    takes = (f"from {least} to {most} positional arguments" if least < most else
             f"{most} positional argument{'s' if most != 1 else ''}")

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(names):
            raise TypeError(f"{where} takes {takes} but {len(args) + 1} were given")
        given = dict(zip(names, args))
        for name, value in kwargs.items():
            if name not in known:
                raise TypeError(f"{where} got an unexpected keyword argument {name!r}")
            if name in given:
                raise TypeError(f"{where} got multiple values for argument {name!r}")
            given[name] = value
        values = self.__dict__
        for name in names:
            if name in given:
                values[name] = given[name]
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


def _no_assignment(self: Any, name: str, value: Any) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _no_deletion(self: Any, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
