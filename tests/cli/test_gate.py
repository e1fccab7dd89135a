"""What the gate writes when a batch holds a report it cannot evaluate, when an output would
overwrite an input, and how an error line shows a file name with a line break in it.

Profiles that only their own command can run say so: exit 2 naming the command.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bench_gate.cli.app import main
from bench_gate.profile import load_profile
from bench_gate.profile.sources import builtin_names

from golden import validate_verdict
from inprocess import cli as run
from repo import EXAMPLE, ROOT

NOW = ["--now", "2026-11-29T12:00:00Z"]


@pytest.fixture
def work(tmp_path: Path) -> Path:
    shutil.copy(EXAMPLE, tmp_path / "report.json")
    shutil.copy(EXAMPLE, tmp_path / "again.json")
    (tmp_path / "empty.json").write_text("")
    return tmp_path


UNREADABLE = "could not be evaluated: report empty.json: is empty"


@pytest.mark.parametrize(("fmt", "shows"), [
    ("text", ["FAIL   report-readable  report", f"       {UNREADABLE}",
              "bench-gate: FAIL  empty.json  profile ai-memory: 1 failed, 0 passed",
              "bench-gate: 2 reports, 1 failed, 1 passed", "  FAIL  empty.json: report-readable"]),
    ("junit", ['<testsuites name="bench-gate" tests="49" failures="0" errors="1" skipped="25">',
               f'<error type="error" message="{UNREADABLE}">']),
    ("markdown", ["## ❌ bench-gate FAIL: 1 of 2 reports failed"]),
    ("github", [f"::error file=empty.json,title=report-readable::{UNREADABLE}"]),
    ("sarif", ['"ruleId": "report-readable"', f'"text": "{UNREADABLE}']),
], ids=["text", "junit", "markdown", "github", "sarif"])
def test_a_batch_with_an_unreadable_report_is_not_passed_in_any_format(work: Path, fmt: str,
                                                                       shows: list[str]) -> None:
    code, out, err = run(["report.json", "empty.json", "-p", "ai-memory", *NOW, "--format", fmt], work)
    assert (code, err) == (2, "bench-gate: error: report empty.json: is empty\n")
    for line in shows:
        assert line in out, line
    assert "PASS: 2 of 2" not in out and 'errors="0"' not in out.splitlines()[1]


def test_the_batch_json_holds_the_unreadable_report(work: Path) -> None:
    code, out, _ = run(["report.json", "empty.json", "-p", "ai-memory", *NOW, "--format", "json"], work)
    doc = json.loads(out)
    validate_verdict(doc)
    assert (code, doc["schema_version"], doc["passed"]) == (2, "bench-gate.batch.v1", False)
    bad = doc["verdicts"][1]
    assert (bad["report"], bad["passed"], bad["counts"]) == ("empty.json", False, {"pass": 0, "fail": 1, "skip": 0})
    assert [(r["rule"], r["status"], r["message"], r["check"]) for r in bad["results"]] == [
        ("report-readable", "fail", UNREADABLE, "not-evaluated")]
    # what was read: the empty file's bytes
    assert bad["inputs"] == [{"role": "report", "path": "empty.json", "bytes": 0, "sha256":
                              "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}]


def test_a_missing_report_in_a_batch_lists_the_profile_it_was_judged_with(work: Path) -> None:
    code, out, err = run(["report.json", "missing.json", "-p", "ai-memory", *NOW, "--format", "json"], work)
    doc = json.loads(out)
    validate_verdict(doc)
    assert (code, doc["passed"], err) == (2, False, "bench-gate: error: report missing.json: no such file\n")
    assert {i["role"] for i in doc["verdicts"][1]["inputs"]} == {"profile"}
    assert "profiles/ai-memory.yaml" in [i["path"] for i in doc["verdicts"][1]["inputs"]]


def test_a_batch_of_readable_reports_still_passes(work: Path) -> None:
    code, out, _ = run(["report.json", "again.json", "-p", "ai-memory", *NOW, "--format", "junit"], work)
    assert code == 0
    assert 'failures="0" errors="0"' in out.splitlines()[1] and "<error" not in out


def test_a_line_break_in_a_file_name_stays_on_the_error_line(work: Path) -> None:
    code, _, err = run(["report.json", "nope\n::error::x.json", "-p", "ai-memory", *NOW, "--format", "github"],
                       work)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("bench-gate: error: report nope\\n::error::x.json: ")


@pytest.mark.parametrize(("extra", "output", "message"), [
    ([], ["--output", "report.json"], "--output report.json is an input of this run"),
    ([], ["--output-file", "json=./report.json"], "--output-file json=./report.json is an input of this run"),
    ([], ["--output", "link.json"], "--output link.json is an input of this run"),
    (["--baseline", "again.json"], ["--output", "again.json"], "--output again.json is an input of this run"),
    (["--waivers", "w.yaml"], ["--output-file", "junit=w.yaml"],
     "--output-file junit=w.yaml is the waivers input of this run"),
    ([], ["--output", "mine.yaml"], "--output mine.yaml is an input of this run"),
], ids=["report", "report-other-spelling", "symlink-to-report", "baseline-document", "waivers", "profile"])
def test_an_output_may_not_overwrite_an_input(work: Path, extra: list[str], output: list[str],
                                              message: str) -> None:
    (work / "link.json").symlink_to(work / "report.json")
    (work / "w.yaml").write_text("waivers: []\n")
    (work / "mine.yaml").write_text("name: mine\ndescription: d\nextends: ai-memory\n")
    before = {p.name: p.read_bytes() for p in work.iterdir()}
    profile = "./mine.yaml" if "mine.yaml" in output else "ai-memory"
    code, out, err = run(["report.json", "-p", profile, *extra, *NOW, *output], work)
    assert (code, out) == (2, "")
    assert err == (f"bench-gate: error: {message}; writing the verdict there would destroy what it judged "
                   "(choose another path)\n")
    assert {p.name: p.read_bytes() for p in work.iterdir()} == before


def test_an_output_beside_the_inputs_is_written(work: Path) -> None:
    code, out, err = run(["report.json", "-p", "ai-memory", *NOW, "--output", "verdict.txt",
                          "--output-file", "json=out/verdict.json"], work)
    assert (code, out, err) == (0, "", "")
    assert json.loads((work / "out" / "verdict.json").read_text())["passed"] is True
    assert (work / "verdict.txt").read_text().startswith("bench-gate: PASS  report.json")
    assert (work / "report.json").read_bytes() == EXAMPLE.read_bytes()


# --- Profiles that only their own command can run say so: exit 2 naming the command ------------------

REPORT = str(ROOT / "examples" / "longmemeval_sibyl_hybrid_rc1_20260610.json")


@pytest.mark.parametrize(("profile", "command"), [
    ("ledger", "bench-gate ledger MANIFEST"),
    ("claims", "bench-gate claims PATH... --ledger MANIFEST | --evidence FILE"),
])
def test_command_profile_with_profile_option_is_a_usage_error(capsys: pytest.CaptureFixture[str], profile: str,
                                                               command: str) -> None:
    code = main([REPORT, "--profile", profile, "--now", "2026-11-29T12:00:00Z"])
    captured = capsys.readouterr()
    assert (code, captured.out) == (2, "")
    assert captured.err == (f"bench-gate: error: profile {profile} cannot gate a report given with --profile; "
                            f"it is run by its own command: {command}\n")


def test_only_ledger_and_claims_are_command_profiles() -> None:
    assert {n: load_profile(n).command for n in builtin_names() if load_profile(n).command} == {
        "ledger": "bench-gate ledger MANIFEST", "claims": "bench-gate claims PATH... --ledger MANIFEST | --evidence FILE"}


def test_a_profile_extending_a_command_profile_inherits_its_command(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("name: mine\ndescription: our ledger\nextends: ledger\n", encoding="utf-8")
    assert load_profile(str(path)).command == "bench-gate ledger MANIFEST"
