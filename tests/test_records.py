"""@record behaves as @dataclass(frozen=True) (and @record(frozen=False) as @dataclass) does."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any

import pytest

from bench_gate import records
from bench_gate.records import record


@record
class Point:
    """A frozen record."""

    x: int
    y: int = 0
    tags: list[str] = field(default_factory=list, compare=False)
    note: str = field(default="", repr=False)


@dataclass(frozen=True)
class Reference:
    """The same class declared with the standard decorator."""

    x: int
    y: int = 0
    tags: list[str] = field(default_factory=list, compare=False)
    note: str = field(default="", repr=False)


def test_a_record_is_a_dataclass() -> None:
    p = Point(1, 2, ["a"])
    assert dataclasses.is_dataclass(p)
    assert [f.name for f in dataclasses.fields(Point)] == ["x", "y", "tags", "note"]
    assert dataclasses.replace(p, y=5) == Point(1, 5)
    assert dataclasses.asdict(p) == {"x": 1, "y": 2, "tags": ["a"], "note": ""}


def test_equality_hash_and_repr_are_those_of_a_frozen_dataclass() -> None:
    assert repr(Point(1, 2, ["a"], "n")) == repr(Reference(1, 2, ["a"], "n")).replace("Reference", "Point")
    assert Point(1, 2, ["a"]) == Point(1, 2, ["b"])  # tags do not compare
    assert Point(1, 2) != Point(1, 3)
    assert Point(1, 2) != Reference(1, 2)  # another class is never equal
    assert hash(Point(1, 2, ["a"])) == hash(Point(1, 2)) == hash(Reference(1, 2))
    assert {Point(1, 2), Point(1, 2), Point(2, 2)} == {Point(1, 2), Point(2, 2)}


def test_a_frozen_record_refuses_assignment_and_deletion() -> None:
    p = Point(1)
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'x'"):
        p.x = 2  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'other'"):
        p.other = 2  # type: ignore[attr-defined]
    with pytest.raises(FrozenInstanceError, match="cannot delete field 'y'"):
        del p.y  # type: ignore[misc]
    assert (p.x, p.y) == (1, 0)


def test_post_init_runs_and_may_refuse() -> None:
    @record
    class Positive:
        n: int

        def __post_init__(self) -> None:
            if self.n <= 0:
                raise ValueError("n must be positive")

    assert Positive(3).n == 3
    with pytest.raises(ValueError, match="positive"):
        Positive(0)


def test_methods_the_class_defines_are_kept() -> None:
    @record
    class Named:
        name: str

        def __repr__(self) -> str:
            return f"<{self.name}>"

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Named) and other.name.lower() == self.name.lower()

    assert repr(Named("a")) == "<a>"
    assert Named("A") == Named("a")


def test_a_mutable_record_is_a_plain_dataclass() -> None:
    @record(frozen=False)
    class Box:
        items: list[int] = field(default_factory=list)
        size: int = 0

    box = Box()
    box.size = 3
    box.items.append(1)
    assert box == Box([1], 3) and box != Box([1], 4)
    assert repr(box).endswith(".<locals>.Box(items=[1], size=3)")
    with pytest.raises(TypeError):
        hash(box)


def test_a_subclass_adds_fields() -> None:
    @record
    class Point3(Point):
        z: int = 0

    p = Point3(1, 2, z=3)
    assert (p.x, p.y, p.z) == (1, 2, 3)
    assert p != Point(1, 2)
    with pytest.raises(FrozenInstanceError):
        p.z = 4  # type: ignore[misc]


def test_records_with_one_or_no_field() -> None:
    @record
    class One:
        a: int

    @record
    class Zero:
        pass

    assert One(1) == One(1) and One(1) != One(2) and hash(One(1)) == hash((1,))

    @dataclass(frozen=True)
    class Two:
        a: int

    for cls in (One, Two):
        with pytest.raises(TypeError, match=r"__init__\(\) takes 2 positional arguments but 3 were given"):
            cls(1, 2)
    assert Zero() == Zero() and hash(Zero()) == hash(())


@pytest.mark.parametrize(("args", "kwargs"), [
    ((1,), {}), ((1, 2), {}), ((), {"x": 1, "note": "n"}), ((1,), {"tags": ["t"], "y": 3}),
    ((), {}), ((1, 2, [], "n", "extra"), {}), ((1,), {"x": 2}), ((1,), {"z": 2}),
], ids=["one", "two", "by-name", "mixed", "missing", "too-many", "twice", "unknown"])
def test_init_takes_what_a_dataclass_takes(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """The shared __init__ accepts and refuses the calls the standard one does, with its words."""
    def outcome(cls: type) -> Any:
        try:
            made = cls(*args, **kwargs)
        except TypeError as exc:
            return str(exc).replace(cls.__qualname__, "C")
        return dataclasses.astuple(made)

    assert outcome(Point) == outcome(Reference)


def test_a_default_factory_is_called_for_each_instance() -> None:
    a, b = Point(1), Point(2)
    a.tags.append("x")
    assert (a.tags, b.tags) == (["x"], [])


def test_fields_init_does_not_set_are_refused() -> None:
    with pytest.raises(TypeError, match="declare it with @dataclass"):
        @record
        class Derived:
            a: int
            b: int = field(init=False, default=0)


def test_classvar_initvar_and_kw_only_annotations_are_refused() -> None:
    for annotation in ("ClassVar[int]", "typing.ClassVar[int]", "InitVar[int]", "KW_ONLY"):
        with pytest.raises(TypeError, match="declare it with @dataclass"):
            record(type("Odd", (), {"__annotations__": {"a": annotation}}))


def test_a_mutable_default_is_refused_as_the_standard_decorator_refuses_it() -> None:
    with pytest.raises(ValueError, match="mutable default <class 'list'> for field tags is not allowed"):
        record(type("Tagged", (), {"__annotations__": {"tags": "list[str]"}, "tags": []}))


def test_the_modules_own_fields_replace_and_is_record() -> None:
    @record
    class Own:
        a: int
        b: list[int] = records.field(default_factory=list, compare=False)
        c: str = "c"

    made = Own(1)
    assert [(f.name, f.type, f.default) for f in records.fields(Own)] == [
        ("a", "int", records.MISSING), ("b", "list[int]", records.MISSING), ("c", "str", "c")]
    assert records.fields(made) == records.fields(Own)
    assert records.fields(Own)[1].default_factory is list and not records.fields(Own)[1].compare
    assert records.replace(made, c="d") == Own(1, [], "d") and made.c == "c"
    with pytest.raises(TypeError, match="unexpected keyword argument 'd'"):
        records.replace(made, d=1)
    assert records.is_record(Own) and records.is_record(made) and records.is_record(Reference(1))
    assert not records.is_record(1) and not records.is_record(dict)
    # a plain dataclass is described with the same Field and MISSING
    assert [(f.name, f.default, f.default_factory) for f in records.fields(Reference)] == [
        ("x", records.MISSING, records.MISSING), ("y", 0, records.MISSING), ("tags", records.MISSING, list),
        ("note", "", records.MISSING)]
    with pytest.raises(TypeError, match="record or dataclass"):
        records.fields(1)


def test_defining_and_using_records_does_not_load_dataclasses_until_asked() -> None:
    probe = (
        "import sys\n"
        "from bench_gate.records import record, field, fields, replace\n"
        "@record\n"
        "class R:\n"
        "    a: int\n"
        "    b: list = field(default_factory=list)\n"
        "r = replace(R(1), a=2)\n"
        "print(r, [f.name for f in fields(R)], 'dataclasses' in sys.modules, 'inspect' in sys.modules)\n"
        "import dataclasses\n"
        "print(dataclasses.is_dataclass(r), [f.name for f in dataclasses.fields(R)], dataclasses.asdict(r))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["R(a=2, b=[]) ['a', 'b'] False False", "True ['a', 'b'] {'a': 2, 'b': []}"]
