"""``file:line:column`` of a finding names the file as it was found, wherever the gate runs from.

The official example's report holds the producer's absolute paths (``/home/ci/...``); with
``--root`` they are found by their trailing parts. A finding in such a document (the baseline's
``checked_at`` once it is too old) is located in the file under the root, as a path that opens
from the current directory: in the text output, in the GitHub annotation and in the SARIF
region and artifact (which must still validate against the SARIF schema). The same holds for a
relative path written in a report and an evidence root that is not the current directory.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from bench_gate.cli.app import main
from repo import ROOT

OFFICIAL = ROOT / "examples" / "official"
BASELINE = "sota-baseline-comparison.json"
LATE = "2027-03-29T12:00:00Z"  # the bundled baseline (checked 2026-11-25) is then 124 days old


def value_position(path: Path, key: str) -> tuple[int, int]:
    """(line, column) of the value of the first ``"key":`` in a file, counted independently."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        at = line.find(f'"{key}":')
        if at >= 0:
            after = at + len(key) + 3
            return number, after + (len(line) - after - len(line[after:].lstrip())) + 1
    raise AssertionError(f"{key} not in {path}")


def gate(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, cwd: Path, *args: str) -> tuple[int, str]:
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("NO_COLOR", "1")
    code = main(list(args))
    out, err = capsys.readouterr()
    assert err == ""
    return code, out


@pytest.fixture
def evidence(tmp_path: Path) -> Path:
    """A copy of the official example in ``tmp/evidence``; the gate runs from ``tmp/elsewhere``."""
    shutil.copytree(OFFICIAL, tmp_path / "evidence")
    (tmp_path / "elsewhere").mkdir()
    return tmp_path / "evidence"


@pytest.mark.parametrize("relative", [True, False], ids=["relative-root", "absolute-root"])
def test_a_re_rooted_producer_path_is_located_in_the_file_found(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, evidence: Path, relative: bool) -> None:
    root = "../evidence" if relative else str(evidence)
    line, column = value_position(evidence / BASELINE, "checked_at")
    code, out = gate(capsys, monkeypatch, evidence.parent / "elsewhere", f"{root}/longmembench-report-sota.json",
                     "--profile", "official-sota", "--root", root, "--now", LATE)
    assert code == 1
    assert (f"FAIL   sota-baseline-fresh  {root}/{BASELINE}:{line}:{column} /checked_at\n"
            "       baseline checked_at 2026-11-25 is 124 days old (limit 30 days)\n") in out


def test_sarif_and_github_name_the_file_found_and_its_line(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, evidence: Path) -> None:
    line, column = value_position(evidence / BASELINE, "checked_at")
    args = ["../evidence/longmembench-report-sota.json", "--profile", "official-sota", "--root", "../evidence",
            "--now", LATE]
    _, sarif_text = gate(capsys, monkeypatch, evidence.parent / "elsewhere", *args, "--format", "sarif")
    log = json.loads(sarif_text)
    schema = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    assert [e.message for e in jsonschema.Draft4Validator(schema).iter_errors(log)] == []
    run = log["runs"][0]
    (result,) = [r for r in run["results"] if r["ruleId"] == "sota-baseline-fresh"]
    physical = result["locations"][0]["physicalLocation"]
    assert physical["artifactLocation"]["uri"] == f"../evidence/{BASELINE}"
    assert physical["region"] == {"startLine": line, "startColumn": column}
    index = physical["artifactLocation"]["index"]
    assert run["artifacts"][index]["location"]["uri"] == f"../evidence/{BASELINE}"
    assert run["artifacts"][index]["properties"] == {"role": "baseline"}
    assert all("helpUri" not in rule for rule in run["tool"]["driver"]["rules"])

    _, github = gate(capsys, monkeypatch, evidence.parent / "elsewhere", *args, "--format", "github")
    (annotation,) = [ln for ln in github.splitlines() if "title=sota-baseline-fresh" in ln]
    assert annotation.startswith(f"::error file=../evidence/{BASELINE},line={line},col={column},"
                                 "title=sota-baseline-fresh::")


def test_a_relative_path_in_the_report_is_located_under_the_root(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, evidence: Path) -> None:
    report = evidence / "longmembench-report-sota.json"
    producer = "/home/ci/zaxy/reports/benchmarks/longmembench-external/"
    report.write_text(report.read_text(encoding="utf-8").replace(f'"{producer}{BASELINE}"', f'"{BASELINE}"'),
                      encoding="utf-8")
    line, column = value_position(evidence / BASELINE, "checked_at")
    args = ["../evidence/longmembench-report-sota.json", "--profile", "official-sota", "--root", "../evidence",
            "--now", LATE]
    code, out = gate(capsys, monkeypatch, evidence.parent / "elsewhere", *args)
    assert code == 1
    assert f"FAIL   sota-baseline-fresh  ../evidence/{BASELINE}:{line}:{column} /checked_at\n" in out
    _, sarif_text = gate(capsys, monkeypatch, evidence.parent / "elsewhere", *args, "--format", "sarif")
    run = json.loads(sarif_text)["runs"][0]
    (result,) = [r for r in run["results"] if r["ruleId"] == "sota-baseline-fresh"]
    physical = result["locations"][0]["physicalLocation"]
    assert physical["artifactLocation"]["uri"] == f"../evidence/{BASELINE}"
    assert run["artifacts"][physical["artifactLocation"]["index"]]["location"]["uri"] == f"../evidence/{BASELINE}"
