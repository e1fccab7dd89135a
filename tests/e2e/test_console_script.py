"""End to end through the installed ``bench-gate`` console script, run from another directory."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from repo import DATA, ROOT

EXAMPLE = ROOT / "examples" / "longmemeval_sibyl_hybrid_rc1_20260610.json"
VERDICT = json.loads((DATA / "verdict.schema.json").read_text())


def script() -> str:
    here = Path(sys.executable).parent / "bench-gate"
    found = str(here) if here.exists() else shutil.which("bench-gate")
    if found is None:
        pytest.fail("the bench-gate console script is not installed next to this interpreter")
    return found


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1"}
    return subprocess.run([script(), *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=120)


def test_fixture_passes_from_another_directory(tmp_path: Path) -> None:
    proc = run([str(EXAMPLE), "--profile", "ai-memory", "--now", "2026-11-29T12:00:00Z"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    last = proc.stdout.strip().splitlines()[-1]
    assert last.startswith(f"bench-gate: PASS  {EXAMPLE}  profile ai-memory: 0 failed, 23 passed, 25 skipped; "
                           "recomputed from 500 cases")


def test_json_verdict_matches_the_contract(tmp_path: Path) -> None:
    proc = run([str(EXAMPLE), "-p", "ai-memory", "--now", "2026-11-29T12:00:00Z", "--format", "json"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    jsonschema.Draft202012Validator(VERDICT).validate(doc)
    assert doc["passed"] is True
    assert doc["evaluated_at"] == "2026-11-29T12:00:00Z"
    assert doc["inputs"][0]["role"] == "report"
    assert doc["inputs"][0]["sha256"].startswith("cb4a089b8e1ff6a7")


def test_same_inputs_give_identical_bytes(tmp_path: Path) -> None:
    args = [str(EXAMPLE), "-p", "ai-memory", "--now", "2026-11-29T12:00:00+01:00", "--format", "json"]
    first, second = run(args, tmp_path), run(args, tmp_path)
    assert first.stdout == second.stdout
    assert json.loads(first.stdout)["evaluated_at"] == "2026-11-29T11:00:00Z"


def test_every_builtin_profile_is_installed(tmp_path: Path) -> None:
    proc = run(["profiles", "--format", "json"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    names = {p["name"] for p in json.loads(proc.stdout)}
    shipped = {p.stem for p in (ROOT / "profiles").glob("*.yaml")}
    assert names == shipped


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.json", "-p", "ai-memory"], "bench-gate: error: report missing.json: no such file\n"),
        (["empty.json", "-p", "ai-memory"], "bench-gate: error: report empty.json: is empty\n"),
        ([".", "-p", "ai-memory"], "bench-gate: error: report .: is a directory, not a file\n"),
        (["list.json", "-p", "ai-memory"], "bench-gate: error: report list.json: top level is an array, not a JSON object\n"),
        (["binary.json", "-p", "ai-memory"], "bench-gate: error: report binary.json: is not valid UTF-8 (byte offset 1)\n"),
        (["list.json", "-p", "no-such-profile"],
         "bench-gate: error: profile: no-such-profile: unknown profile 'no-such-profile' (built-in profiles: "),
    ],
    ids=["missing", "empty", "directory", "array", "binary", "unknown-profile"],
)
def test_bad_inputs_exit_2_with_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "empty.json").write_text("")
    (tmp_path / "list.json").write_text("[]")
    (tmp_path / "binary.json").write_bytes(b"\x00\xff\xfe")
    proc = run(args, tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith(message)
    assert "Traceback" not in proc.stderr


def test_a_batch_with_an_unreadable_report_exits_2_and_renders_no_verdict(tmp_path: Path) -> None:
    """The two readable reports pass; a verdict of them alone would read as the batch's PASS."""
    (tmp_path / "list.json").write_text("[]")
    proc = run([str(EXAMPLE), "list.json", str(EXAMPLE), "-p", "ai-memory", "--now", "2026-11-29T12:00:00Z",
                "--format", "json"], tmp_path)
    assert proc.returncode == 2
    doc = json.loads(proc.stdout)
    assert doc["schema_version"] == "bench-gate.batch.v1"
    # the unreadable report is in the batch, as a verdict that did not pass
    assert (doc["passed"], [v["passed"] for v in doc["verdicts"]]) == (False, [True, False, True])
    assert doc["verdicts"][1]["results"][0]["message"] == (
        "could not be evaluated: report list.json: top level is an array, not a JSON object")
    assert proc.stderr == "bench-gate: error: report list.json: top level is an array, not a JSON object\n"


def test_batch_exit_code_is_the_worst(tmp_path: Path) -> None:
    proc = run([str(EXAMPLE), str(EXAMPLE), "-p", "ai-memory", "--now", "2026-11-29T12:00:00Z",
                "--min-metric", "recall@5=0.95"], tmp_path)
    assert proc.returncode == 1
    assert proc.stdout.strip().splitlines()[-3:] == [
        "bench-gate: 2 reports, 2 failed, 0 passed",
        f"  FAIL  {EXAMPLE}: overall-thresholds",
        f"  FAIL  {EXAMPLE}: overall-thresholds",
    ]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_full_disk_on_stdout_is_exit_2_with_the_reason(tmp_path: Path) -> None:
    with open("/dev/full", "w") as full:
        proc = subprocess.run([script(), str(EXAMPLE), "-p", "ai-memory"], cwd=tmp_path, stdout=full,
                              stderr=subprocess.PIPE, text=True, env={"PATH": "/usr/bin:/bin"}, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr == "bench-gate: error: cannot write the verdict to standard output: No space left on device\n"
