"""Parameter binding: the strict validator, its messages, and its agreement with the schema models.

``policy.validate_params`` checks ``with:`` values against a check kind's parameter dataclass
without the schema library; ``policy.validate_params_with_schema`` is the pydantic reference it
replaced. The differential test feeds both the parameters of every rule of every built-in
profile, mutated one field at a time, and requires the same decision, the same value and the
same message.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import pytest
from pydantic import ValidationError

from bench_gate.checks import registry
from bench_gate.checks.base import FORBID
from bench_gate.profile.binding import bind, plain
from bench_gate.profile.kindparams import describe_validation, ParamError, validate_params, validate_params_with_schema
from bench_gate.profile.merge import compile_profile
from bench_gate.profile.plan import ProfileError
from bench_gate.profile.params import substitute
from bench_gate.profile.sources import builtin_names

KINDS = registry()


def outcome_fast(cls: type, raw: Any) -> tuple[str, Any]:
    try:
        value = validate_params(cls, raw)
    except ParamError as exc:
        return "reject", (exc.loc, exc.message)
    except (ValueError, TypeError) as exc:
        return "error", str(exc)
    return "accept", (type(value).__name__, plain(value), repr(value))


def outcome_schema(cls: type, raw: Any) -> tuple[str, Any]:
    try:
        value = validate_params_with_schema(cls, raw)
    except ValidationError as exc:
        return "reject", describe_validation(exc)
    except (ValueError, TypeError) as exc:
        return "error", str(exc)
    return "accept", (type(value).__name__, plain(value), repr(value))


WRONG: list[Any] = ["1000", 1000, 0, -1, 1.5, 2.0, True, False, None, [], {}, ["x"], [1], [1.5],
                    {"k": "v"}, {"k": 1}, {"Key": "v"}, {"int": "v"}, [{"a": 1}], "x", "overall"]


def corpus() -> list[tuple[str, str, dict[str, Any]]]:
    rows: list[tuple[str, str, dict[str, Any]]] = []
    seen: set[str] = set()
    for name in builtin_names():
        profile = compile_profile(name)
        values = {n: p.default for n, p in profile.params.items()}
        for rule in profile.rules:
            raw = substitute(rule.spec.with_, values, rule.source)
            key = repr((rule.spec.check, raw))
            if key in seen:
                continue
            seen.add(key)
            rows.append((f"{name}/{rule.spec.id}", rule.spec.check, raw))
    return rows


def mutations(raw: dict[str, Any], cls: type) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [raw, {**raw, "zzz": 1}, {"zzz": 1, **raw}]
    for key in raw:
        out.append({k: v for k, v in raw.items() if k != key})
    names = [f.name for f in dataclasses.fields(cls)]
    for key in names:
        for bad in WRONG:
            out.append({**raw, key: bad})
        current = raw.get(key)
        if isinstance(current, list) and current and isinstance(current[0], dict):
            item = current[0]
            for sub in list(item) + ["zzz"]:
                for bad in WRONG[:10]:
                    out.append({**raw, key: [{**item, sub: bad}] + current[1:]})
                out.append({**raw, key: [{k: v for k, v in item.items() if k != sub}] + current[1:]})
            out.append({**raw, key: ["x"] + current[1:]})
        if isinstance(current, dict) and current:
            first = next(iter(current))
            for bad in WRONG[:10]:
                out.append({**raw, key: {**current, first: bad}})
    return out


CORPUS = corpus()


@pytest.mark.parametrize(("check", "raw"), [(c, r) for _, c, r in CORPUS], ids=[i for i, _, _ in CORPUS])
def test_strict_validator_agrees_with_schema_models(check: str, raw: dict[str, Any]) -> None:
    cls = KINDS[check].params
    for variant in mutations(raw, cls):
        assert outcome_fast(cls, variant) == outcome_schema(cls, variant), variant


def test_every_kind_is_covered() -> None:
    used = {c for _, c, _ in CORPUS}
    assert len(used) >= 40


# --- the messages, pinned ----------------------------------------------------------------


@dataclass(frozen=True)
class Inner:
    __pydantic_config__ = FORBID

    path: str
    limit: int = 0

    def __post_init__(self) -> None:
        if not self.path.startswith("/"):
            raise ValueError(f"path {self.path!r} must start with /")


@dataclass(frozen=True)
class Sample:
    __pydantic_config__ = FORBID

    name: str
    ratio: float = 0.5
    count: int = 1
    flag: bool = False
    limit: int | float | None = None
    mode: str = "a"
    items: list[Inner] = field(default_factory=list)
    table: dict[str, int | float] = field(default_factory=dict)
    tags: list[str] | None = None
    label: str | None = None


@pytest.mark.parametrize(("raw", "expected"), [
    ({"name": "n"}, ("accept", "Sample(name='n', ratio=0.5, count=1, flag=False, limit=None, mode='a', "
                               "items=[], table={}, tags=None, label=None)")),
    ({"name": "n", "ratio": 1}, ("accept", "Sample(name='n', ratio=1.0, count=1, flag=False, limit=None, "
                                           "mode='a', items=[], table={}, tags=None, label=None)")),
    ({"name": "n", "limit": 3}, ("accept", "Sample(name='n', ratio=0.5, count=1, flag=False, limit=3, mode='a', "
                                           "items=[], table={}, tags=None, label=None)")),
    ({}, ("reject", (("name",), "required parameter is missing"))),
    ({"name": "n", "nmae": 1}, ("reject", (("nmae",), "unknown parameter"))),
    ({"nmae": 1}, ("reject", (("name",), "required parameter is missing"))),
    ({"name": 5}, ("reject", (("name",), "Input should be a valid string, got 5"))),
    ({"name": None}, ("reject", (("name",), "Input should be a valid string, got null"))),
    ({"name": "n", "count": "30"}, ("reject", (("count",), 'Input should be a valid integer, got "30"'))),
    ({"name": "n", "count": 30.0}, ("reject", (("count",), "Input should be a valid integer, got 30.0"))),
    ({"name": "n", "count": True}, ("reject", (("count",), "Input should be a valid integer, got true"))),
    ({"name": "n", "ratio": True}, ("reject", (("ratio",), "Input should be a valid number, got true"))),
    ({"name": "n", "flag": 1}, ("reject", (("flag",), "Input should be a valid boolean, got 1"))),
    ({"name": "n", "limit": "1000"}, ("reject", (("limit",), 'expected a number, got "1000"'))),
    ({"name": "n", "limit": [1]}, ("reject", (("limit",), "expected a number, got list"))),
    ({"name": "n", "table": {"k": "v"}}, ("reject", (("table", "k"), 'expected a number, got "v"'))),
    ({"name": "n", "table": []}, ("reject", (("table",), "Input should be a valid dictionary"))),
    ({"name": "n", "tags": "x"}, ("reject", (("tags",), 'Input should be a valid list, got "x"'))),
    ({"name": "n", "tags": [1]}, ("reject", (("tags", 0), "Input should be a valid string, got 1"))),
    ({"name": "n", "items": [{"limit": 1}]}, ("reject", (("items", 0, "path"), "required parameter is missing"))),
    ({"name": "n", "items": [{"path": "/a", "x": 1}]}, ("reject", (("items", 0, "x"), "unknown parameter"))),
    ({"name": "n", "items": ["x"]}, ("reject", (("items", 0), "Input should be a valid dictionary or instance "
                                                               'of Inner, got "x"'))),
    ({"name": "n", "items": [{"path": "a"}]}, ("error", "path 'a' must start with /")),
    ({"name": "n", "items": [{"path": "a"}], "count": "1"}, ("reject", (("count",), 'Input should be a valid '
                                                                                    'integer, got "1"'))),
], ids=["defaults", "int-for-float", "int-in-union", "missing", "unknown", "missing-before-unknown", "string",
        "null-string", "string-int", "float-int", "bool-int", "bool-float", "bool-for-bool", "union-string",
        "union-list", "map-value", "map-type", "list-type", "list-item", "nested-missing", "nested-unknown",
        "nested-type", "post-init", "validation-before-post-init"])
def test_messages(raw: dict[str, Any], expected: tuple[str, Any]) -> None:
    got = outcome_fast(Sample, raw)
    if got[0] == "accept":
        got = ("accept", got[1][2])
    assert got == expected
    schema = outcome_schema(Sample, raw)
    assert (schema[0], schema[1][2] if schema[0] == "accept" else schema[1]) == expected


# --- binding: where the message points ----------------------------------------------------


def test_bind_points_at_the_value() -> None:
    profile = compile_profile("ai-memory")
    with pytest.raises(ProfileError) as err:
        bind(profile, {"slice_min_cases": "10"})
    assert str(err.value).startswith("policies/")
    assert 'Input should be a valid integer, got "10" (check kind ' in str(err.value)


def test_precompiled_and_source_bind_alike() -> None:
    from bench_gate.profile import precompiled as compiled

    for name in builtin_names():
        pre = compiled.load(name)
        assert pre is not None, f"precompiled {name} is stale: run python -m bench_gate.profile.precompiled"
        assert bind(pre).digest == bind(compile_profile(name)).digest


@dataclass(frozen=True)
class Exotic:
    __pydantic_config__ = FORBID

    pair: tuple[int, int] = (0, 0)


@pytest.mark.parametrize(("raw", "expected"), [
    ({}, ("accept", "Exotic(pair=(0, 0))")),
    ({"pair": "x"}, ("reject", (("pair",), 'Input should be a valid tuple, got "x"'))),
    ({"pair": [1, 2]}, ("reject", (("pair",), "Input should be a valid tuple"))),
    ({"x": 1}, ("reject", (("x",), "unknown parameter"))),
], ids=["default", "string", "list-is-not-a-tuple", "unknown"])
def test_a_type_the_validator_does_not_know_goes_to_the_schema_models(raw: dict[str, Any],
                                                                       expected: tuple[str, Any]) -> None:
    got = outcome_fast(Exotic, raw)
    assert (got[0], got[1][2] if got[0] == "accept" else got[1]) == expected


def _parameter_classes() -> list[type]:
    """Every parameter class of every registered kind, nested ones included."""
    import typing

    found: list[type] = []

    def visit(hint: Any) -> None:
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            if hint in found:
                return
            found.append(hint)
            for nested in typing.get_type_hints(hint).values():
                visit(nested)
        for arg in typing.get_args(hint):
            visit(arg)

    for kind in KINDS.values():
        visit(kind.params)
    return found


def test_type_hints_are_those_of_get_type_hints() -> None:
    """The validator's reading of parameter annotations (each text compiled once per process)
    is typing.get_type_hints's, for every parameter class of every kind, and for a class whose
    annotation names one of its own attributes."""
    import typing

    from bench_gate.profile.kindparams import type_hints

    classes = _parameter_classes()
    assert len(classes) > 40
    for cls in classes:
        assert type_hints(cls) == typing.get_type_hints(cls), cls.__name__

    @dataclass(frozen=True)
    class Shadowing:
        Number = str  # a class attribute the module does not define: the annotation reads it
        value: Number
        other: int | None = None

    assert type_hints(Shadowing) == typing.get_type_hints(Shadowing) == {"value": str, "other": int | None}
    assert type_hints(_Forward) == typing.get_type_hints(_Forward) == {"later": list[_Later]}


# --- parameters are validated when the profile compiles -----------------------------------


METRICS = {"official_longmemeval_task_averaged_accuracy": "task_averaged",
           "official_longmemeval_overall_accuracy": "overall"}


def _validate(kind: str, raw: dict[str, Any]) -> Any:
    return validate_params(KINDS[kind].params, raw)


@pytest.mark.parametrize(("kind", "raw"), [
    ("fresh", {"at": "baseline:/checked_at", "max_age": "P30D"}),
    ("public_url", {"at": "baseline:/evidence_url", "optional": True, "blocked_domains": ["corp.dev"]}),
    ("qa_rows", {"document": "eval_log", "expected_count": 500}),
    ("qa_beats_baseline", {"metrics": METRICS}),
    ("qa_accuracy_at_least", {"min": None}),
    ("qa_accuracy_at_least", {"min": 1}),
    ("cross_check", {"fields": {"a": ["/x", "validator:/x"]}, "tolerances": {"a": 0.000001}}),
    ("cli_conflicts", {"given": {"--validator-name": None}, "against": {"--validator-name": ["/x"]}}),
], ids=["fresh", "public-url", "rows", "beats", "min-null", "min-integer", "cross-check", "cli-conflicts"])
def test_params_accepted(kind: str, raw: dict[str, Any]) -> None:
    params = _validate(kind, raw)
    assert type(params) is KINDS[kind].params
    # every value given is kept exactly, with its type (1 stays the integer 1, null stays null)
    given = {k: getattr(params, k) for k in raw}
    assert given == raw
    assert [type(v) for v in given.values()] == [type(v) for v in raw.values()]
    # and every parameter not given has its declared default
    for f in dataclasses.fields(params):
        if f.name not in raw and f.default is not dataclasses.MISSING:
            assert getattr(params, f.name) == f.default


@pytest.mark.parametrize(("kind", "raw", "message"), [
    ("fresh", {"at": "/x", "max_age": "30"}, "max_age '30' is not an ISO 8601 duration (P30D, P2W, P1M, P1Y, PT12H)"),
    ("fresh", {"at": "/x", "max_age": 30}, "Input should be a valid string, got 30"),
    ("fresh", {"at": "/x", "max_age": True}, "Input should be a valid string, got true"),
    ("fresh", {"at": "/x", "max_age": "-P1D"}, "max_age '-P1D' is not an ISO 8601 duration (P30D, P2W, P1M, P1Y, PT12H)"),
    ("fresh", {"at": "/x", "max_age": "P30D", "max_age_days": 30}, "unknown parameter"),
    ("fresh", {"at": "/x"}, "required parameter is missing"),
    ("public_url", {"at": "/x", "max_length": 0}, "max_length must be 1 or more, got 0"),
    ("qa_rows", {"document": "eval_log", "expected_count": -5}, "expected_count must be 0 or more, got -5"),
    ("qa_beats_baseline", {"metrics": {"m": "average"}}, "Input should be 'overall' or 'task_averaged', got \"average\""),
    ("qa_id_sets", {"left": "a", "right": "b", "relation": "superset"}, "Input should be 'equal' or 'subset', got \"superset\""),
    ("qa_accuracy", {"places": 20}, "places must be between 0 and 12, got 20"),
    ("same_evaluator", {"require": "maybe"}, "Input should be 'match' or 'disclosed', got \"maybe\""),
], ids=["string-days", "float-days", "bool-days", "negative-days", "unknown-key", "missing-key", "zero-length",
        "negative-count", "bad-kind", "bad-relation", "places", "bad-require"])
def test_params_refused(kind: str, raw: dict[str, Any], message: str) -> None:
    with pytest.raises((ParamError, ValueError)) as err:
        _validate(kind, raw)
    text = err.value.message if isinstance(err.value, ParamError) else str(err.value)
    assert text == message


@dataclass(frozen=True)
class _Forward:
    later: list["_Later"] = field(default_factory=list)  # a quoted forward reference


@dataclass(frozen=True)
class _Later:
    name: str
