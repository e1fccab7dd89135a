"""Ledger findings point to a line and column in the file they are about: the manifest itself,
or the artifact a citable entry names, whichever directory the ledger is gated from."""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path

import pytest

from bench_gate.cli.commands import read_command
from bench_gate.gates.ledger_gate import gate_ledger
from golden import ROOT

REPO = ROOT / "examples" / "sibyl-repo"
MANIFEST = "benchmarks/results/ai-memory/manifest.json"
RAW = "benchmarks/results/ai-memory/longmemeval_sibyl_raw_20260513.json"
NOW = datetime(2026, 7, 4, tzinfo=timezone.utc)


def line_col(path: Path, needle: str) -> tuple[int, int]:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return number, line.index(needle) + len(needle) + 1
    raise AssertionError(needle)


@pytest.mark.parametrize("where", ["repository", "elsewhere"])
def test_artifact_and_manifest_findings_have_positions(where: str, tmp_path: Path) -> None:
    cwd = os.getcwd()
    os.chdir(REPO if where == "repository" else ROOT)
    try:
        manifest = MANIFEST if where == "repository" else str(Path("examples/sibyl-repo") / MANIFEST)
        verdict = gate_ledger(manifest, NOW, external_profiles=["product"], read_command=read_command)
        raw = Path(verdict.located["citable/0"])
        assert raw.resolve() == (REPO / RAW).resolve()
        assert json.loads(raw.read_text(encoding="utf-8"))["overall"]["recall@5"] == 0.966
        assert verdict.positions[("citable/0", "/overall/recall@5")] == line_col(raw, '"recall@5": ')
        assert ("report", "/no_regression/0") in verdict.positions
    finally:
        os.chdir(cwd)
