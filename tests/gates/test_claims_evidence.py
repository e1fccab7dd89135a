"""A ``--verdict`` is re-checked by running official-sota again on the files it names.

The digest and rule ids of the built-in official-sota profile are public, so a verdict JSON with
every result "pass" is easy to write by hand. These tests start from a real run on the bundled
example, then forge verdicts around real and unrelated files: only a verdict whose recorded
inputs pass official-sota again (each unchanged since) backs a state-of-the-art claim.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from golden import run_main

from bench_gate.checks.claims.matching import verdict_problems
from bench_gate.gates.claims_evidence import RERUN
from bench_gate.gates.claims_evidence import verdict as load_verdict
from repo import ROOT

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
AT = "2026-11-29T12:00:00Z"


@pytest.fixture()
def work(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "official"
    shutil.copytree(ROOT / "examples" / "official", folder)
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        yield folder
    finally:
        os.chdir(cwd)


def real_verdict(work: Path, report: str = "longmembench-report-sota.json") -> dict[str, Any]:
    code, out, _ = run_main([report, "--profile", "official-sota"], AT, work, "json")
    return {"code": code, "data": json.loads(out)}


def all_pass(real: dict[str, Any], inputs: list[dict[str, Any]]) -> dict[str, Any]:
    """A verdict written by hand: the real digest and rule ids, every result pass."""
    names = sorted({r["rule"] for r in real["results"]})
    return {**real, "inputs": inputs, "passed": True,
            "counts": {"pass": len(names), "fail": 0, "skip": 0},
            "results": [{"rule": n, "status": "pass", "severity": "error", "message": "ok"} for n in names]}


def problems(work: Path, data: dict[str, Any]) -> str:
    (work / "verdict.json").write_text(json.dumps(data), encoding="utf-8")
    info, _ = load_verdict("verdict.json")
    return "; ".join(verdict_problems(info, NOW, "0.1.0", 30))


def entry(work: Path, role: str, rel: str) -> dict[str, Any]:
    data = (work / rel).read_bytes()
    return {"role": role, "path": rel, "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}


def test_a_real_passing_verdict_still_backs(work: Path) -> None:
    real = real_verdict(work)
    assert real["code"] == 0
    assert problems(work, real["data"]) == ""


def test_a_forged_verdict_over_an_unrelated_file_names_what_it_lacks(work: Path) -> None:
    real = real_verdict(work)["data"]
    (work / "unrelated.txt").write_text("nothing to see\n")
    found = problems(work, all_pass(real, [entry(work, "report", "unrelated.txt")]))
    assert found == (f"its input {RERUN} cannot be read: it names no baseline, dataset, eval_log, hypotheses, "
                     "validator file, so official-sota cannot be run again on what it judged (a verdict must list "
                     "every document official-sota reads)")


def test_forged_passing_results_over_real_failing_evidence_back_nothing(work: Path) -> None:
    # the real OMEGA baseline: stale and not beaten; the forged verdict says every rule passed
    real = real_verdict(work, "longmembench-report.json")
    assert real["code"] == 1
    forged = all_pass(real["data"], real["data"]["inputs"])
    forged["profile"] = real_verdict(work)["data"]["profile"]  # not needed for the report, kept honest
    found = problems(work, forged)
    assert found.startswith(f"its input {RERUN} cannot be read: its recorded inputs fail official-sota when it is "
                            "run again: ")
    assert "error rules failed (first: " in found


def test_an_oracle_split_bundle_with_a_forged_pass_backs_nothing(work: Path) -> None:
    (work / "data" / "longmemeval_s_question_types.json").rename(work / "data" / "longmemeval_oracle.json")
    for name in ("longmembench-report-sota.json", "validator-evidence.json"):
        text = (work / name).read_text().replace("longmemeval_s_question_types.json", "longmemeval_oracle.json")
        text = text.replace("data/longmemeval_s_cleaned.json", "data/longmemeval_oracle.json")
        text = text.replace('"longmemeval_oracle.json": null', '"longmemeval_oracle.json": 500')
        (work / name).write_text(text.replace('"longmemeval_s_cleaned.json": 500', '"longmemeval_s_cleaned.json": null'))
    real = real_verdict(work)
    assert real["code"] == 1
    found = problems(work, all_pass(real["data"], real["data"]["inputs"]))
    assert "(first: sota-dataset-split: the result is on the LongMemEval oracle split" in found


def test_an_input_changed_since_is_named_and_not_rerun(work: Path) -> None:
    real = real_verdict(work)["data"]
    (work / "validator-evidence.json").write_text((work / "validator-evidence.json").read_text() + " ")
    found = problems(work, real)
    assert "its input validator-evidence.json changed since the verdict" in found
    assert RERUN not in found


def test_two_files_for_one_role(work: Path) -> None:
    real = real_verdict(work)["data"]
    extra = entry(work, "dataset", "sota-baseline.json")
    found = problems(work, {**real, "inputs": real["inputs"] + [extra]})
    assert f"its input {RERUN} cannot be read: it names two dataset files" in found
