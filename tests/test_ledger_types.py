"""A ledger field of any wrong type is a rule failure with its location, never an internal error.

Every field of the practice's real ledger, at any depth, and every field of the files it names
(the external artifact manifest, a history summary, a receipt) is replaced by a value of another
JSON type, and the ledger is gated: it yields a verdict whose failures say where, never an
exception. The base is the real ledger without its two 2026-05-13 entries, which passes as of
2026-07-04, so a replaced field of the manifest must make it fail: the shipped schema
(``ledger-v2``, rule ``ledger-header``) or a rule that reads the field says so.
"""

from __future__ import annotations

import copy
import json
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bench_gate.gates.ledger_gate as ledger_gate
from bench_gate.cli.commands import read_command
from bench_gate.gates.ledger_gate import gate_ledger

ROOT = Path(__file__).resolve().parents[1]
REPO = ROOT / "examples" / "sibyl-repo"
AI = "benchmarks/results/ai-memory"
LEDGER = f"{AI}/manifest.json"
NOW = datetime(2026, 7, 4, tzinfo=UTC)
# One value of each JSON type; a field is replaced by one whose type differs from its own.
VALUES: list[Any] = [None, True, 1.5, 7, "x", [], [1], {}, {"k": 1}]
FILES = {
    "manifest": LEDGER,
    "external": f"{AI}/external/longmemeval_sibyl_live_full_26304777971.json",
    "history": f"{AI}/history/2026-07-03-live-hybrid.json",
    "receipt": f"{AI}/write-path-integrity-receipt.json",
}


def passing_ledger() -> dict[str, Any]:
    """The real ledger without the two 2026-05-13 entries and their pair (it passes)."""
    doc = json.loads((REPO / LEDGER).read_text(encoding="utf-8"))
    del doc["citable"][0:2]
    del doc["no_regression"][0]
    return doc


REAL = {name: passing_ledger() if name == "manifest" else json.loads((REPO / path).read_text(encoding="utf-8"))
        for name, path in FILES.items()}


def paths(doc: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key / index path into ``doc`` at any depth (the first three items of a long list)."""
    items = doc.items() if isinstance(doc, dict) else enumerate(doc[:3]) if isinstance(doc, list) else []
    for key, value in items:
        yield (*prefix, key)
        yield from paths(value, (*prefix, key))


PATHS = {name: list(paths(doc)) for name, doc in REAL.items()}


def value_at(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def replaced(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    out = copy.deepcopy(doc)
    value_at(out, path[:-1])[path[-1]] = value
    return out


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("ledger-types") / "repo"
    shutil.copytree(REPO, where)
    (where / LEDGER).write_text(json.dumps(REAL["manifest"]), encoding="utf-8")
    return where


@pytest.fixture(scope="module")
def fast_gates() -> Iterator[None]:
    """The citable artifacts' own gates, evaluated once per input: the same artifact, profile and
    flags always give the same verdict (checks are pure), and a 500-case recomputation per
    example would make the property test too slow to run often."""
    original = ledger_gate._gate_artifact
    cache: dict[Any, Any] = {}

    def cached(entry: dict[str, Any], doc: Any, *rest: Any) -> Any:
        key = (json.dumps([entry.get(k) for k in ("gate_profile", "accounting_required", "qa_required")],
                          default=repr), doc.sha256, repr(rest))
        if key not in cache:
            cache[key] = original(entry, doc, *rest)
        info, verdict = cache[key]
        return copy.deepcopy(info), verdict

    ledger_gate._gate_artifact = cached  # type: ignore[assignment]
    yield
    ledger_gate._gate_artifact = original  # type: ignore[assignment]


def gate(repo: Path) -> Any:
    return gate_ledger(str(repo / LEDGER), NOW, root=str(repo), external_profiles=["product"], read_command=read_command)


def test_the_base_ledger_passes(repo: Path, fast_gates: None) -> None:
    verdict = gate(repo)
    assert verdict.passed, [r.message for r in verdict.results if r.status == "fail"]


def mutate(repo: Path, name: str, path: tuple[Any, ...], value: Any) -> Any:
    """Gate the ledger with one field of one file replaced; the file is restored afterwards."""
    target = repo / FILES[name]
    original = target.read_bytes()
    target.write_text(json.dumps(replaced(REAL[name], path, value)), encoding="utf-8")
    try:
        return gate(repo)
    finally:
        target.write_bytes(original)


def json_type(value: Any) -> str:
    # 7 and 0.005 are both JSON numbers: another magnitude is not another type.
    if isinstance(value, bool) or value is None:
        return repr(value) if value is None else "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return type(value).__name__


def other_type(node: Any, value: Any) -> bool:
    return json_type(node) != json_type(value)


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(PATHS["manifest"]), st.sampled_from(VALUES))
def test_a_manifest_field_of_another_type_fails_with_its_location(repo: Path, fast_gates: None,
                                                                  path: tuple[Any, ...], value: Any) -> None:
    if not other_type(value_at(REAL["manifest"], path), value):
        return
    verdict = mutate(repo, "manifest", path, value)
    failures = [r for r in verdict.results if r.status == "fail"]
    assert all("internal error" not in r.message for r in verdict.results)
    assert failures, f"/{'/'.join(map(str, path))} = {value!r} passed"
    assert all(r.pointer or r.document != "report" for r in failures), [r.message for r in failures]


@settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from([(name, p) for name in ("external", "history", "receipt") for p in PATHS[name]]),
       st.sampled_from(VALUES))
def test_a_field_of_another_type_in_a_named_file_is_never_an_internal_error(
        repo: Path, fast_gates: None, where: tuple[str, tuple[Any, ...]], value: Any) -> None:
    name, path = where
    if not other_type(value_at(REAL[name], path), value):
        return
    verdict = mutate(repo, name, path, value)
    assert verdict.results and all("internal error" not in r.message for r in verdict.results)


def test_the_schema_finding_names_the_field(repo: Path, fast_gates: None) -> None:
    verdict = mutate(repo, "manifest", ("gate_contracts", 0, "metric_contracts", 0, "threshold"), "0")
    header = [r for r in verdict.results if r.rule == "ledger-header"]
    assert [(r.status, r.pointer) for r in header] == [("fail", "/gate_contracts/0/metric_contracts/0/threshold")]
    assert header[0].message == ("the ledger is not valid under schema ledger-v2: gate_contracts.0.metric_contracts.0."
                                 "threshold: '0' is not of type 'number'")


@pytest.mark.parametrize("value", [1.5, True])
def test_metric_contracts_of_a_non_list_type_is_a_finding(repo: Path, fast_gates: None, value: Any) -> None:
    verdict = mutate(repo, "manifest", ("gate_contracts", 0, "metric_contracts"), value)
    messages = {r.rule: r.message for r in verdict.results if r.status == "fail"}
    shown = "true" if value is True else "1.5"
    assert messages["gate-contracts"] == f"/gate_contracts/0/metric_contracts must be a non-empty list, got {shown}"
