"""A metric name the profile declares (``declared_metrics``: ``*_count``, ``*_ms``...) is read as
declared, not by the ``@`` in it: ``recall@5_count`` is a count, not a recall outside [0, 1].
The names the gate recomputes stay fractions whatever a pattern says, and an undeclared name with
an ``@`` is still held to [0, 1]."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from bench_gate.cli.app import main

from repo import ROOT

BASE = json.loads((ROOT / "examples" / "longmemeval_sibyl_hybrid_rc1_20260610.json").read_text(encoding="utf-8"))


def gate(report: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
         capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, Any]]:
    (tmp_path / "report.json").write_text(json.dumps(report), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    main(["report.json", "--profile", "ai-memory", "--now", "2026-11-29T12:00:00Z", "--format", "json"])
    out, err = capsys.readouterr()
    assert err == ""
    return {r["rule"]: r for r in json.loads(out)["results"]}


@pytest.mark.parametrize(("key", "value"), [("recall@5_count", 471.0), ("hit@10_ms", 12.5),
                                            ("recall@5_tokens", 1200.0), ("ndcg@10_seconds", 3.25)])
def test_a_declared_count_with_an_at_is_not_a_fraction(key: str, value: float, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    report = copy.deepcopy(BASE)
    report["overall"][key] = value
    next(iter(report["per_type"].values()))[key] = value
    results = gate(report, tmp_path, monkeypatch, capsys)
    assert results["metrics-consistent"]["status"] == "pass", results["metrics-consistent"]["message"]
    assert results["metrics-claimed"]["status"] == "pass", results["metrics-claimed"]["message"]


@pytest.mark.parametrize(("key", "value", "rule"), [("recall@5", 94.06, "metrics-consistent"),
                                                    ("mrr@5", 5, "metrics-consistent"),
                                                    ("recall@5_score", 3, "metrics-consistent")])
def test_fractions_and_undeclared_names_stay_in_range(key: str, value: float, rule: str, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    report = copy.deepcopy(BASE)
    report["overall"][key] = value
    results = gate(report, tmp_path, monkeypatch, capsys)
    assert results[rule]["status"] == "fail"
    assert f"overall {key} is {value}, outside [0, 1]" in json.dumps(results[rule])
