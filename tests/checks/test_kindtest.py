"""The shared way of running a kind in a test (``kindtest``) does what the engine does, and it is
the only one: no test builds a Context or runs a kind's function by hand."""

from __future__ import annotations

import re

import pytest

from bench_gate.checks.generic.fields import FieldsParams, fields
from bench_gate.profile.kindparams import ParamError
from kindtest import ABSENT, NOW, context, first, kind, params, run
from repo import ROOT


def test_a_kind_runs_by_name_or_by_its_registered_function() -> None:
    raw = {"fields": [{"path": "/name", "type": "string"}]}
    assert run("fields", raw, {"name": "x"}) == run(fields, raw, {"name": "x"})
    assert first("fields", raw, {"name": "x"}) == ("pass", 'report: name="x"')
    assert kind(fields).name == "fields"


def test_dict_parameters_are_validated_as_a_profile_would() -> None:
    with pytest.raises(ParamError, match="unknown parameter") as err:
        params("fields", {"fields": [{"path": "/a"}], "nope": 1})
    assert err.value.loc == ("nope",)
    with pytest.raises(AssertionError, match="equal takes EqualParams, not FieldsParams"):
        params("equal", FieldsParams(fields=[]))


def test_a_raised_fail_is_the_failing_finding() -> None:
    (found,) = run("fields", {"fields": [{"path": "/name"}]}, [1])
    assert (found.status, found.message) == ("fail", "the document must be an object, got array")


def test_documents_by_role_and_a_null_report() -> None:
    ctx = context(None, baseline={"a": 1})
    assert ctx.now == NOW
    assert ctx.documents["report"].data is None and ctx.documents["report"].path == "r.json"
    assert ctx.documents["baseline"].data == {"a": 1} and ctx.documents["baseline"].path == "baseline.json"
    assert "report" not in context(ABSENT, baseline={}).documents


def test_no_test_builds_a_context_by_hand() -> None:
    """One helper builds contexts; a second way would drift from it (the engine's semantics)."""
    tests = ROOT / "tests"
    by_hand = [str(p.relative_to(tests)) for p in sorted(tests.rglob("*.py"))
               if p.name != "kindtest.py" and re.search(r"\bContext\(", p.read_text(encoding="utf-8"))]
    assert by_hand == []
