"""The common gate path imports only what it needs: no schema library, YAML parser or crypto, and
no dataclasses (records describe themselves without the module, and without inspect)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from repo import ROOT

FIXTURE = "examples/longmemeval_sibyl_hybrid_rc1_20260610.json"
HEAVY = ("pydantic", "pydantic_core", "yaml", "jsonschema", "cryptography", "importlib.metadata",
         "importlib.resources", "dateutil", "typer", "click",
         "validators", "dataclasses", "inspect", "bench_gate.profile.schema",
         "bench_gate.checks.pair.arm_folder", "bench_gate.checks.pair.run_seal", "bench_gate.checks.pair.arm_record",
         "bench_gate.checks.pair.pairing", "bench_gate.checks.pair.outcome",
         "bench_gate.checks.official.evaluator_log", "bench_gate.checks.official.accuracy",
         "bench_gate.checks.official.provenance", "bench_gate.checks.generic.integrity",
         "bench_gate.checks.ledger.external", "bench_gate.checks.claims.matching", "bench_gate.report.sarif")

PROBE = """
import json, sys
from bench_gate.cli.app import main
code = main(sys.argv[1:])
sys.stdout.flush()
sys.stderr.write(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


@pytest.mark.parametrize("args", [
    [],
    ["--require-qa", "--max-metric", "latency_p95_ms=1000", "--format", "json"],
    ["--baseline", FIXTURE, "--set", "citable=false", "--format", "markdown"],
], ids=["plain", "options-json", "baseline-set-markdown"])
def test_common_path_imports_nothing_heavy(args: list[str]) -> None:
    proc = subprocess.run([sys.executable, "-c", PROBE, FIXTURE, "--profile", "ai-memory", *args],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    info = json.loads(proc.stderr)
    assert info["code"] in (0, 1)
    loaded = [m for m in info["modules"] if any(m == h or m.startswith(h + ".") for h in HEAVY)]
    assert loaded == []


def test_a_profile_path_is_compiled_with_the_schema_models(tmp_path: Path) -> None:
    profile = tmp_path / "mine.yaml"
    profile.write_text("name: mine\ndescription: mine\nextends: ai-memory\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-c", PROBE, FIXTURE, "--profile", str(profile)],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    info = json.loads(proc.stderr)
    assert info["code"] == 0
    assert "pydantic" in info["modules"] and "yaml" in info["modules"]
