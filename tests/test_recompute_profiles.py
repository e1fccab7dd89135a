"""The deep-recall walkthrough and the two LongMemEval profiles, run as a user runs them.

The commands and output lines quoted in docs/profiles.md's walkthrough are what the tool prints;
the golden cases judge the example profile itself; a JSON Lines report that is not JSON Lines
objects cannot be evaluated (exit 2).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from bench_gate.cli.app import main

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "profiles.md"


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args: list[str]) -> tuple[int, str, str]:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("NO_COLOR", "1")
    code = main([*args, "--now", "2026-11-29T12:00:00Z"])
    out, err = capsys.readouterr()
    return code, out, err


def walkthrough_runs() -> list[tuple[list[str], list[str]]]:
    """(command, the output lines quoted after it) for each ``$ bench-gate`` in the walkthrough."""
    section = GUIDE.read_text(encoding="utf-8").split("## Gate a format bench-gate has never seen", 1)[1]
    section = section.split("\n## ", 1)[0]
    runs: list[tuple[list[str], list[str]]] = []
    for block in section.split("```")[1::2]:
        current: list[str] | None = None  # output lines belong to a command of the same block
        for line in block.splitlines():
            if line.startswith("$ bench-gate "):
                current = []
                runs.append((shlex.split(line[len("$ bench-gate "):]), current))
            elif current is not None and line.strip() and line.strip() != "...":
                current.append(line)
    return runs


RUNS = walkthrough_runs()


def test_the_walkthrough_shows_two_runs() -> None:
    assert [len(r[1]) > 0 for r in RUNS] == [True, True]


@pytest.mark.parametrize("args,quoted,exit_code", [(*RUNS[0], 0), (*RUNS[1], 1)], ids=["s-50", "s-470"])
def test_walkthrough_output_is_what_the_tool_prints(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch, args: list[str],
                                                    quoted: list[str], exit_code: int) -> None:
    """The 50-question run passes; the 470-question summary, a subset without rows, fails."""
    code, out, err = run(capsys, monkeypatch, args)
    assert (code, err) == (exit_code, "")
    printed = out.splitlines()
    missing = [line for line in quoted if line not in printed]
    assert missing == []


def test_quoted_failures_are_the_golden_cases() -> None:
    section = GUIDE.read_text(encoding="utf-8").split("A tampered copy fails", 1)[1].split("```")[1]
    golden = "".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "golden" / "deep-recall").glob("*/expected.txt")))
    lines = [line for line in section.splitlines() if line.strip()]
    assert len(lines) == 6
    assert [line for line in lines if line not in golden.splitlines()] == []


def test_golden_cases_judge_the_example_profile_itself() -> None:
    for case in (ROOT / "golden" / "deep-recall").iterdir():
        profile = case / "deep-recall.yaml"
        assert profile.is_symlink() and profile.resolve() == (ROOT / "examples" / "deep-recall" / "deep-recall.yaml")


@pytest.mark.parametrize("text,reason", [
    ('{"question_id": "a"}\n[1]\n', "line 2 is not a JSON object"),
    ('{"question_id": "a", "x": NaN}\n', "line 1 NaN is not a JSON number"),
    ("{\n}\n", "line 1 is not valid JSON"),
])
def test_a_jsonl_report_that_is_not_jsonl_objects_cannot_be_evaluated(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, text: str,
        reason: str) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, monkeypatch, [str(log), "--profile", "longmemeval-retrieval", "--claim",
                                               "recall_all@5=0.5"])
    assert code == 2 and out == ""
    assert re.search(re.escape(reason), err), err


def test_a_json_report_given_to_a_jsonl_profile_says_what_the_profile_reads(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(capsys, monkeypatch, ["examples/longmemeval-qa/scores.json", "--profile", "longmemeval-qa",
                                               "--scores", "examples/longmemeval-qa/scores.json"])
    assert (code, out) == (2, "")
    assert err == ("bench-gate: error: report examples/longmemeval-qa/scores.json: line 1 is not valid JSON: Expecting "
                   "property name enclosed in double quotes at line 1 column 2 (this profile judges a JSON Lines "
                   "file: one JSON object per line)\n")
