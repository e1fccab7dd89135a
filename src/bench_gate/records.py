"""Records: dataclasses that cost little to define.

``@record`` declares a class exactly as ``@dataclass(frozen=True)`` does, and the result is a
dataclass: :func:`dataclasses.fields`, :func:`dataclasses.replace`, :func:`dataclasses.asdict`
and :func:`dataclasses.is_dataclass` work on it, ``field(default_factory=...)``,
``field(compare=False)`` and ``__post_init__`` mean what they mean there. Its instances compare
equal when their class and fields are equal, hash by their fields, print as a dataclass prints,
and refuse any assignment or deletion once ``__init__`` has set their fields
(:class:`dataclasses.FrozenInstanceError`). ``@record(frozen=False)`` is ``@dataclass``: a
mutable record, compared by its fields and not hashable.

What differs is the cost of defining one. The standard decorator compiles six methods for every
frozen class (``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``,
``__delattr__``), about half a millisecond a class; the fifty classes a gate loads would cost more
than judging a typical report. Here only ``__init__`` is compiled; the other methods are shared
functions that read the class's field names, worked out once per class. A method the class
defines itself is kept, as with ``@dataclass``.

A record without a docstring is documented by its name and its own field names
(``FieldSpec(path, type, non_empty, ...)``), not by the signature the standard decorator works
out with :mod:`inspect`, which costs more than the rest of the class.

A field of a frozen record can be set once, by ``__init__``; ``__post_init__`` may still set a
field that ``__init__`` does not (``field(init=False)``) through ``object.__setattr__``, as with a
frozen dataclass. A subclass of a record is declared with ``@record`` too (``@dataclass(frozen=True)``
refuses a base that the standard decorator does not know as frozen).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, overload

T = TypeVar("T", bound=type)

_OWN = ("__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__")


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
    dataclasses.dataclass(cls, repr=False, eq=False)  # a real dataclass; only __init__ is compiled
    found = dataclasses.fields(cls)
    cls.__record_key__ = staticmethod(_getter(tuple(f.name for f in found if f.compare)))  # type: ignore[attr-defined]
    cls.__record_repr__ = tuple(f.name for f in found if f.repr)  # type: ignore[attr-defined]
    cls.__record_fields__ = frozenset(f.name for f in found)  # type: ignore[attr-defined]
    methods: dict[str, Any] = {"__repr__": _repr, "__eq__": _eq}
    if frozen:
        methods.update(__hash__=_hash, __setattr__=_set_once, __delattr__=_no_delete)
    else:
        methods["__hash__"] = None
    for name, method in methods.items():
        if name not in own:
            setattr(cls, name, method)
    return cls


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


def _set_once(self: Any, name: str, value: Any) -> None:
    if name in self.__dict__ or name not in self.__record_fields__:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
    object.__setattr__(self, name, value)


def _no_delete(self: Any, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
