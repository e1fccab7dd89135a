"""The json_schema kind and the shipped report-shape schemas."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bench_gate.checks.generic.shape import SHIPPED, JsonSchemaParams
from bench_gate.engine import evaluate
from bench_gate.models import Doc
from bench_gate.profile import load_profile
from bench_gate.profile.binding import bind
from bench_gate.profile.plan import ProfileError
from bench_gate.profile.sources import read_schema, shipped_schemas

import kindtest
from repo import ROOT

NOW = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)
SIBYL = ROOT / "examples" / "sibyl-repo" / "benchmarks" / "results" / "ai-memory"
SCHEMA = {"type": "object", "required": ["name", "count"],
          "properties": {"name": {"type": "string"}, "count": {"type": "integer", "minimum": 0},
                         "items": {"type": "array", "items": {"type": "number"}}}}


def run(data: Any, at: str = "", schema: Any = SCHEMA) -> list[Any]:
    return [(f.status, f.message, f.pointer) for f in kindtest.run("json_schema", JsonSchemaParams(schema=schema, at=at),
                                                                     data)]


def test_valid_document_passes() -> None:
    assert run({"name": "x", "count": 3, "items": [1, 2.5]}) == [
        ("pass", "the report is valid under the inline schema (JSON Schema 2020-12)", "")]


def test_every_violation_with_its_pointer() -> None:
    bad = "the report is not valid under the inline schema: "
    assert run({"name": 7, "count": -1, "items": [1, "two", 3, True]}) == [
        ("fail", bad + "count: -1 is less than the minimum of 0", "/count"),
        ("fail", bad + "items.1: 'two' is not of type 'number'", "/items/1"),
        ("fail", bad + "items.3: True is not of type 'number'", "/items/3"),
        ("fail", bad + "name: 7 is not of type 'string'", "/name"),
    ]


def test_value_at_a_pointer_and_escaped_keys() -> None:
    data = {"a/b": {"x~y": {"name": "n"}}}
    assert run(data, at="/a~1b/x~0y") == [
        ("fail", "a/b.x~y is not valid under the inline schema: (top level): 'count' is a required property",
         "/a~1b/x~0y"),
    ]


def test_missing_value_fails() -> None:
    assert run({}, at="/nope") == [("fail", "nope is missing", "/nope")]


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_schemas_are_valid_and_listed(name: str) -> None:
    assert name in shipped_schemas()
    assert read_schema(name, "policies/ledger-header.yaml")["$schema"] == "https://json-schema.org/draft/2020-12/schema"


# Real artifacts are valid under the schema of their format.
REAL = [
    ("retrieval-report", SIBYL / "longmemeval_sibyl_hybrid_rc1_20260610.json"),
    ("retrieval-report", SIBYL / "longmemeval_sibyl_raw_20260513.json"),
    ("retrieval-report", SIBYL / "external" / "longmemeval_sibyl_live_full_26304777971.json"),
    ("ledger-v2", SIBYL / "manifest.json"),
    ("aef-summary", ROOT / "golden" / "aef-seal" / "example-run-intact" / "run" / "summary.json"),
]


@pytest.mark.parametrize(("name", "path"), REAL, ids=[p.name for _, p in REAL])
def test_real_artifacts_match_their_schema(name: str, path: Path) -> None:
    data = json.loads(path.read_bytes())
    assert run(data, schema=read_schema(name, "policies/ledger-header.yaml"))[0][0] == "pass"


# The official report in its importer's real shape: claim_allowed is a sentence, paths may be null.
OFFICIAL = {
    "schema_version": "zaxy.longmembench-report.v1", "generated_at": "2026-06-10T12:00:00Z", "status": "complete",
    "external_suite": {"source_url": "https://github.com/xiaowu0162/LongMemEval", "dataset_url": "https://huggingface.co/x",
                       "worktree": "/w/LongMemEval", "commit": "a" * 40,
                       "official_evaluator": "/w/LongMemEval/src/evaluation/evaluate_qa.py",
                       "dataset_counts": {"longmemeval_oracle.json": 500, "longmemeval_s_cleaned.json": 500,
                                          "longmemeval_m_cleaned.json": None}},
    "result_provenance": {"source": "longmembench-import", "dataset": "/w/data/s.json", "hypotheses": "/w/h.jsonl",
                          "official_eval_log": "/w/h.jsonl.eval-results-gpt-4o", "diagnostic_report": None,
                          "sota_baseline": None, "validator_evidence": None, "validator_evidence_verified": False,
                          "validator": None},
    "official_qa": None, "zaxy_diagnostic": None, "sota_baseline": None,
    "sota_claim": {"official_sota_candidate": False, "reason": "no official QA",
                   "claim_allowed": "LongMemEval-compatible diagnostic only"},
    "caveats": [],
}


def test_official_report_real_shape() -> None:
    schema = read_schema("longmembench-report", "policies/ledger-header.yaml")
    assert run(OFFICIAL, schema=schema)[0][0] == "pass"
    flag = {**OFFICIAL, "sota_claim": {**OFFICIAL["sota_claim"], "claim_allowed": True}}
    status, message, pointer = run(flag, schema=schema)[0]
    assert (status, pointer) == ("fail", "/sota_claim/claim_allowed")
    assert message.startswith("the report is not valid under the inline schema: sota_claim.claim_allowed: True is "
                              "not one of ['official LongMemEval SOTA', ")
    assert message.endswith("…") and len(message) < 250


PROFILE = """name: shaped
description: a report format of our own
rules:
  - id: shape
    title: the report has our shape
    check: json_schema
    with: {schema: %s}
    why: a report of another shape cannot be judged
"""


def write(tmp: Path, schema_ref: str, schema: Any = None, where: str = "shape.schema.json") -> str:
    (tmp / "gates").mkdir(exist_ok=True)
    if schema is not None:
        target = tmp / "gates" / where
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(schema), encoding="utf-8")
    path = tmp / "gates" / "shaped.yaml"
    path.write_text(PROFILE % schema_ref, encoding="utf-8")
    return str(path)


def test_schema_beside_a_user_profile(tmp_path: Path) -> None:
    plan = bind(load_profile(write(tmp_path, "shape.schema.json", SCHEMA)))
    report = Doc("report", "r.json", data={"name": 1, "count": "3"})
    verdict = evaluate(plan, {"report": report}, NOW)
    (result,) = verdict.results
    bad = "the report is not valid under schema shape.schema.json: "
    assert (result.status, result.message, result.pointer) == (
        "fail", bad + "count: '3' is not of type 'integer' (and 1 more)", "/count")
    assert [(d.message, d.pointer) for d in result.details] == [(bad + "name: 1 is not of type 'string'", "/name")]


@pytest.mark.parametrize(("ref", "schema", "message"), [
    ("../outside.schema.json", SCHEMA, "schema '../outside.schema.json' leaves the folder of"),
    ("missing.schema.json", None, "schema 'missing.schema.json' does not exist beside"),
    ("no-such-schema", None, "no shipped schema 'no-such-schema' (shipped: aef-summary, ledger-v2, "
                             "longmembench-report, retrieval-report"),
    ("bad.schema.json", {"type": "objekt"}, "schema 'bad.schema.json' is not a valid JSON Schema: 'objekt' is not valid"),
    ("/etc/passwd.json", None, "schema '/etc/passwd.json' is neither a shipped schema name nor a relative path"),
])
def test_schema_problems_are_profile_errors(tmp_path: Path, ref: str, schema: Any, message: str) -> None:
    if ref.startswith("../"):
        (tmp_path / "outside.schema.json").write_text(json.dumps(schema), encoding="utf-8")
        path = write(tmp_path, ref)
    else:
        path = write(tmp_path, ref, schema, where=ref)
    with pytest.raises(ProfileError) as exc:
        bind(load_profile(path))
    assert message in str(exc.value)
    assert str(exc.value).startswith(path + ":7: rules[0].with.schema: ")


def _no_network(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("a check opened a connection")


REMOTE = {"$ref": "http://127.0.0.1:8765/remote.json"}
LOCAL_DEFS = {"$defs": {"name": {"type": "string"}}, "type": "object",
              "properties": {"name": {"$ref": "#/$defs/name"}}}


@pytest.mark.parametrize("schema", [
    REMOTE,
    {"$ref": "file:///etc/passwd"},
    {"properties": {"x": {"$ref": "other.schema.json#/$defs/x"}}},
    {"$dynamicRef": "https://example.org/anchor"},
])
def test_a_reference_that_leaves_the_schema_fails_and_fetches_nothing(
        monkeypatch: pytest.MonkeyPatch, schema: dict[str, Any]) -> None:
    import urllib.request

    monkeypatch.setattr(urllib.request, "urlopen", _no_network)
    ((status, message, pointer),) = run({"name": "x"}, schema=schema)
    assert (status, pointer) == ("fail", "")
    assert message.startswith("the inline schema refers to ")
    assert message.endswith("which is not inside the schema (references to URLs or other files are not followed: "
                            "a verdict must not depend on them)")


def test_references_inside_the_schema_resolve() -> None:
    assert run({"name": "x"}, schema=LOCAL_DEFS)[0][0] == "pass"
    ((status, message, pointer),) = run({"name": 3}, schema=LOCAL_DEFS)
    assert (status, pointer) == ("fail", "/name")
    assert message == "the report is not valid under the inline schema: name: 3 is not of type 'string'"


@pytest.mark.parametrize("inline", [True, False])
def test_a_remote_reference_is_a_profile_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               inline: bool) -> None:
    import urllib.request

    monkeypatch.setattr(urllib.request, "urlopen", _no_network)
    path = write(tmp_path, json.dumps(REMOTE)) if inline else write(tmp_path, "remote.schema.json", REMOTE,
                                                                      where="remote.schema.json")
    with pytest.raises(ProfileError) as exc:
        bind(load_profile(path))
    what = "the inline schema" if inline else "schema 'remote.schema.json'"
    assert (f"{what} refers to 'http://127.0.0.1:8765/remote.json', which is not inside the schema "
            "(references to URLs or other files are not followed: a verdict must not depend on them)") in str(exc.value)
