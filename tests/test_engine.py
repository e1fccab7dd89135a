"""The engine's own guarantees: a crashing or silent check fails, ``when`` skips with its reason,
and every declared document has a result of its own."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bench_gate.checks.base import CheckKind, Context, Fail, failed, passed, skipped
from bench_gate.checks.generic.values import RejectParams
from bench_gate.engine import evaluate, run_rule, run_rule_each
from bench_gate.models import Doc, Finding, RuleResult
from bench_gate.profile import load_profile
from bench_gate.profile.binding import bind
from bench_gate.profile.plan import BoundRule, Plan

from kindtest import context

NOW = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)

PROFILE = """\
name: engine-test
description: a gate for the engine's tests
params:
  strict: false
documents:
  baseline: {option: --baseline, format: json, required: true, description: the baseline}
  notes: {from_report: /notes_path, format: json}
options:
  --strict: {param: strict, kind: flag}
rules:
  - id: always
    title: always fails
    check: reject
    with: {message: rejected}
    why: w
"""


@pytest.fixture
def plan(tmp_path: Path) -> Plan:
    path = tmp_path / "engine.yaml"
    path.write_text(PROFILE, encoding="utf-8")
    return bind(load_profile(str(path)))


def with_kind(plan: Plan, name: str, fn: Any) -> tuple[Plan, BoundRule]:
    """The plan with a kind ``name`` running ``fn``, and a rule that uses it."""
    kind = CheckKind(name, RejectParams, fn, "a kind for this test")
    rule = dataclasses.replace(plan.rules[0], id=f"uses-{name}", check=name)
    return dataclasses.replace(plan, kinds={**plan.kinds, name: kind}), rule


def ctx(data: Any = None, **others: Doc) -> Context:
    return context(data or {}, **others)


def result(plan: Plan, fn: Any, context: Context | None = None) -> RuleResult:
    p, rule = with_kind(plan, "probe", fn)
    return run_rule(p, rule, context or ctx())


def _raises_key_error(c: Context, p: Any) -> Iterable[Finding]:
    return [passed("fine")] if {}["x"] else []


def _raises_type_error(c: Context, p: Any) -> Iterable[Finding]:
    raise TypeError("unsupported operand " + "x" * 300)


def _recursion(c: Context, p: Any) -> Iterable[Finding]:
    raise RecursionError("maximum recursion depth exceeded")


def _yields_then_raises(c: Context, p: Any) -> Iterable[Finding]:
    yield passed("first looked fine")
    raise ValueError("then broke")


def _fail_raised(c: Context, p: Any) -> Iterable[Finding]:
    raise Fail("/x is missing", "/x", "report", None, "present")


def _nothing(c: Context, p: Any) -> Iterable[Finding]:
    return []


def _only_passes(c: Context, p: Any) -> Iterable[Finding]:
    return [passed("a is 1 (limit 2)", "/a"), passed("b is 1")]


def _pass_and_fail(c: Context, p: Any) -> Iterable[Finding]:
    return [passed("a is fine"), failed("b is 3 (limit 2)", "/b"), failed("c is 4 (limit 2)", "/c")]


def _skip(c: Context, p: Any) -> Iterable[Finding]:
    return [skipped("nothing to check")]


def _doc_fail(c: Context, p: Any) -> Iterable[Finding]:
    c.doc("baseline")
    return [passed("baseline read")]


OUTCOMES = [
    ("unexpected-exception", _raises_key_error, "fail", "internal error in check kind probe: KeyError: 'x'", ""),
    ("long-exception-text-cut", _raises_type_error, "fail",
     "internal error in check kind probe: TypeError: unsupported operand " + "x" * 180, ""),
    ("recursion", _recursion, "fail", "internal error in check kind probe: input nested too deeply", ""),
    ("raises-after-a-pass", _yields_then_raises, "fail", "internal error in check kind probe: ValueError: then broke", ""),
    ("fail-raised", _fail_raised, "fail", "/x is missing", "/x"),
    ("no-finding", _nothing, "fail", "the check reached no decision (it produced no finding)", ""),
    ("first-pass-shown", _only_passes, "pass", "a is 1 (limit 2)", "/a"),
    ("failures-win-over-passes", _pass_and_fail, "fail", "b is 3 (limit 2) (and 1 more)", "/b"),
    ("skip", _skip, "skip", "nothing to check", ""),
    ("document-absent", _doc_fail, "fail", "document 'baseline' was not supplied", ""),
]


@pytest.mark.parametrize(("fn", "status", "message", "pointer"), [r[1:] for r in OUTCOMES], ids=[r[0] for r in OUTCOMES])
def test_check_outcomes(plan: Plan, fn: Any, status: str, message: str, pointer: str) -> None:
    r = result(plan, fn)
    assert (r.status, r.message, r.pointer) == (status, message, pointer)
    assert (r.rule, r.check, r.why) == ("uses-probe", "probe", "w")


EACH = [
    ("every-finding-its-own-result", _pass_and_fail,
     [("pass", "a is fine", ""), ("fail", "b is 3 (limit 2)", "/b"), ("fail", "c is 4 (limit 2)", "/c")]),
    ("no-finding-still-fails", _nothing, [("fail", "the check reached no decision (it produced no finding)", "")]),
    ("crash-fails", _yields_then_raises, [("fail", "internal error in check kind probe: ValueError: then broke", "")]),
    ("fail-raised", _fail_raised, [("fail", "/x is missing", "/x")]),
]


@pytest.mark.parametrize(("fn", "expected"), [r[1:] for r in EACH], ids=[r[0] for r in EACH])
def test_each_finding_is_a_result(plan: Plan, fn: Any, expected: list[tuple[str, str, str]]) -> None:
    """The claims verb's mode: one result per finding, with the same fail-closed guarantees."""
    p, rule = with_kind(plan, "probe", fn)
    got = run_rule_each(p, rule, ctx())
    assert [(r.status, r.message, r.pointer) for r in got] == expected
    assert {r.rule for r in got} == {"uses-probe"}


def test_each_finding_honours_when_and_disabled(plan: Plan) -> None:
    from bench_gate.profile.plan import Condition

    p, rule = with_kind(plan, "probe", _pass_and_fail)
    off = dataclasses.replace(rule, when=Condition(param="strict"))
    assert [(r.status, r.message) for r in run_rule_each(p, off, ctx())] == [
        ("skip", "not applicable: --strict not given")]
    gone = dataclasses.replace(rule, disabled_by="mine")
    assert [(r.status, r.message) for r in run_rule_each(p, gone, ctx())] == [("skip", "disabled by profile mine")]


def test_further_failures_are_details(plan: Plan) -> None:
    r = result(plan, _pass_and_fail)
    assert [(d.message, d.pointer) for d in r.details] == [("c is 4 (limit 2)", "/c")]
    assert r.omitted_details == 0


def test_details_are_capped(plan: Plan) -> None:
    r = result(plan, lambda c, p: [failed(f"problem {i}") for i in range(25)])
    assert r.message == "problem 0 (and 24 more)"
    assert (len(r.details), r.omitted_details) == (20, 4)


def test_unreadable_document_fails_the_rule_with_its_reason(plan: Plan) -> None:
    bad = Doc("baseline", "b.json", error="is not valid JSON: Expecting value at line 1 column 1")
    r = result(plan, _doc_fail, ctx(baseline=bad))
    assert (r.status, r.message, r.document) == (
        "fail", "document 'baseline' (b.json) is not valid JSON: Expecting value at line 1 column 1", "baseline")


# --- when --------------------------------------------------------------------------------


def when_rule(plan: Plan, when: dict[str, Any]) -> tuple[Plan, BoundRule]:
    from bench_gate.profile.plan import condition_from_json

    rule = dataclasses.replace(plan.rules[0], when=condition_from_json(when))
    return plan, rule


WHEN = [
    ("param-false", {"param": "strict"}, {}, "skip", "not applicable: --strict not given"),
    ("param-undeclared-option", {"param": "other"}, {}, "skip", "not applicable: parameter other not given"),
    ("document-absent", {"document": "baseline"}, {}, "skip", "not applicable: document 'baseline' not supplied"),
    ("ref-absent", {"ref": "/mode", "exists": True}, {}, "skip", "not applicable: report:/mode is absent"),
    ("ref-present-but-must-not", {"ref": "/mode", "exists": False}, {"mode": "x"}, "skip",
     "not applicable: report:/mode is present"),
    ("ref-not-equal", {"ref": "/mode", "equals": "live"}, {"mode": "offline"}, "skip",
     'not applicable: report:/mode is "offline", not "live"'),
    ("ref-true-is-not-1", {"ref": "/flag", "equals": 1}, {"flag": True}, "skip",
     "not applicable: report:/flag is true, not 1"),
    ("ref-not-in", {"ref": "/mode", "in": ["live", "replay"]}, {"mode": "offline"}, "skip",
     'not applicable: report:/mode is "offline", not one of ["live", "replay"]'),
    ("ref-no-match", {"ref": "/mode", "matches": "^live"}, {"mode": "offline-live"}, "skip",
     'not applicable: report:/mode is "offline-live", which does not match ^live'),
    ("ref-match-needs-string", {"ref": "/mode", "matches": "1"}, {"mode": 1}, "skip",
     "not applicable: report:/mode is 1, which does not match 1"),
    ("any-none", {"any": [{"param": "strict"}, {"ref": "/mode", "exists": True}]}, {}, "skip",
     "not applicable: --strict not given and report:/mode is absent"),
    ("all-first-false", {"all": [{"ref": "/mode", "exists": True}, {"param": "strict"}]}, {}, "skip",
     "not applicable: report:/mode is absent"),
    ("not", {"not": {"ref": "/mode", "exists": False}}, {}, "skip", "not applicable: report:/mode is absent"),
    # when it holds, the check runs
    ("ref-equal-runs", {"ref": "/mode", "equals": "live"}, {"mode": "live"}, "fail", "rejected"),
    ("ref-1-equals-1.0-runs", {"ref": "/n", "equals": 1}, {"n": 1.0}, "fail", "rejected"),
    ("any-one-runs", {"any": [{"param": "strict"}, {"ref": "/mode", "exists": True}]}, {"mode": "x"}, "fail",
     "rejected"),
    ("not-runs", {"not": {"ref": "/mode", "exists": True}}, {}, "fail", "rejected"),
]


@pytest.mark.parametrize(("when", "data", "status", "message"), [r[1:] for r in WHEN], ids=[r[0] for r in WHEN])
def test_when(plan: Plan, when: dict[str, Any], data: dict[str, Any], status: str, message: str) -> None:
    p, rule = when_rule(plan, when)
    r = run_rule(p, rule, ctx(data))
    assert (r.status, r.message) == (status, message)


def test_when_on_an_unreadable_document_fails(plan: Plan) -> None:
    p, rule = when_rule(plan, {"ref": "baseline:/mode", "exists": True})
    bad = Doc("baseline", "b.json", error="has a duplicate key \"mode\" in one object")
    r = run_rule(p, rule, ctx(baseline=bad))
    assert (r.status, r.message) == ("fail", "document 'baseline' (b.json) has a duplicate key \"mode\" in one object")


def test_when_param_true_runs(plan: Plan) -> None:
    p, rule = when_rule(plan, {"param": "strict"})
    p = dataclasses.replace(p, values={**p.values, "strict": True})
    assert run_rule(p, rule, ctx()).status == "fail"


def test_disabled_rule_skips_before_anything_else(plan: Plan) -> None:
    p, rule = with_kind(plan, "probe", _raises_key_error)
    rule = dataclasses.replace(rule, disabled_by="stricter")
    r = run_rule(p, rule, ctx())
    assert (r.status, r.message) == ("skip", "disabled by profile stricter")


# --- document results --------------------------------------------------------------------


def doc_results(plan: Plan, **docs: Doc) -> list[tuple[str, str, str]]:
    verdict = evaluate(plan, {"report": Doc("report", "r.json", data={}), **docs}, NOW)
    return [(r.rule, r.status, r.message) for r in verdict.results if r.check == "document"]


DOCUMENTS = [
    ("required-absent-fails-optional-absent-skips", {}, [
        ("document-baseline", "fail", "required document 'baseline' was not supplied (give --baseline PATH)"),
        ("document-notes", "skip", "optional document 'notes' was not supplied"),
    ]),
    ("read-from-cli-and-report", {
        "baseline": Doc("baseline", "b.json", sha256="ab" * 32, size=12, origin="cli"),
        "notes": Doc("notes", "notes.json", sha256="cd" * 32, size=3, origin="report"),
    }, [
        ("document-baseline", "pass", f"read b.json from the command line (12 bytes, sha256 {'ab' * 8}…)"),
        ("document-notes", "pass", f"read notes.json from the report:/notes_path (3 bytes, sha256 {'cd' * 8}…)"),
    ]),
    ("unreadable-fails-with-reason", {
        "baseline": Doc("baseline", "b.json", error="is not valid JSON: Expecting value at line 1 column 1"),
        "notes": Doc("notes", "../notes.json", error="escapes the evidence root"),
    }, [
        ("document-baseline", "fail", "b.json: is not valid JSON: Expecting value at line 1 column 1"),
        ("document-notes", "fail", "../notes.json: escapes the evidence root"),
    ]),
]


@pytest.mark.parametrize(("docs", "expected"), [r[1:] for r in DOCUMENTS], ids=[r[0] for r in DOCUMENTS])
def test_document_results(plan: Plan, docs: dict[str, Doc], expected: list[tuple[str, str, str]]) -> None:
    assert doc_results(plan, **docs) == expected


def test_required_document_hint_names_the_report_field(tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(PROFILE.replace("notes: {from_report: /notes_path, format: json}",
                                    "notes: {from_report: /notes_path, format: json, required: true}"))
    plan = bind(load_profile(str(path)))
    assert doc_results(plan, baseline=Doc("baseline", "b.json", sha256="ab" * 32, size=1, origin="cli"))[1] == (
        "document-notes", "fail", "required document 'notes' was not supplied "
        "(give --doc notes=PATH or set report:/notes_path)")


def test_document_results_come_first_in_declaration_order(plan: Plan) -> None:
    verdict = evaluate(plan, {"report": Doc("report", "r.json", data={})}, NOW)
    assert [r.rule for r in verdict.results] == ["document-baseline", "document-notes", "always"]
    assert not verdict.passed
