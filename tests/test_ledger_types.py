"""A ledger field of any wrong type is a rule failure, never an internal error: every field of
the practice's real ledger (three levels deep) is replaced by a value of another JSON type and the
ledger is gated: it yields a verdict, never an exception."""

from __future__ import annotations

import copy
import json
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench_gate.ledger_gate import gate_ledger

ROOT = Path(__file__).resolve().parents[1]
REPO = ROOT / "examples" / "sibyl-repo"
LEDGER = "benchmarks/results/ai-memory/manifest.json"
REAL = json.loads((REPO / LEDGER).read_text(encoding="utf-8"))
NOW = datetime(2026, 7, 4, tzinfo=UTC)
# One value of each JSON type; a field is replaced by one whose type differs from its own.
VALUES: list[Any] = [None, True, 1.5, 7, "x", [], [1], {}, {"k": 1}]


def paths(doc: Any, depth: int = 3) -> list[tuple[Any, ...]]:
    """Every key / index path into ``doc`` down to ``depth`` levels."""
    out: list[tuple[Any, ...]] = []
    if depth == 0:
        return out
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else []
    for key, value in items:
        out.append((key,))
        out.extend((key, *rest) for rest in paths(value, depth - 1))
    return out


PATHS = paths(REAL)


def replaced(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(REAL)
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("ledger-types") / "repo"
    shutil.copytree(REPO, where)
    return where


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(PATHS), st.sampled_from(VALUES))
def test_a_field_of_another_type_fails_a_rule_without_an_internal_error(repo: Path, path: tuple[Any, ...],
                                                                         value: Any) -> None:
    node: Any = REAL
    for key in path:
        node = node[key]
    if type(node) is type(value) or (isinstance(node, dict) and isinstance(value, dict)):
        return
    (repo / LEDGER).write_text(json.dumps(replaced(path, value)), encoding="utf-8")
    verdict = gate_ledger(str(repo / LEDGER), NOW, root=str(repo), external_profiles=["product"])
    assert verdict.results and all("internal error" not in r.message for r in verdict.results)


@pytest.mark.parametrize("value", [1.5, True])
def test_metric_contracts_of_a_non_list_type_is_a_finding(repo: Path, value: Any) -> None:
    (repo / LEDGER).write_text(json.dumps(replaced(("gate_contracts", 0, "metric_contracts"), value)),
                               encoding="utf-8")
    verdict = gate_ledger(str(repo / LEDGER), NOW, root=str(repo), external_profiles=["product"])
    messages = {r.rule: r.message for r in verdict.results if r.status == "fail"}
    shown = "true" if value is True else "1.5"
    assert messages["gate-contracts"] == f"/gate_contracts/0/metric_contracts must be a non-empty list, got {shown}"
