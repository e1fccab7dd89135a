"""The deep-recall walkthrough and the two LongMemEval profiles, run as a user runs them.

The golden cases judge the example profile itself (the walkthrough's commands and quoted output
are run by tests/docs/test_docs_examples.py); a JSON Lines report that is not JSON Lines objects
cannot be evaluated (exit 2).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bench_gate.cli.app import main
from repo import ROOT

GUIDE = ROOT / "docs" / "profiles.md"


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args: list[str]) -> tuple[int, str, str]:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("NO_COLOR", "1")
    code = main([*args, "--now", "2026-11-29T12:00:00Z"])
    out, err = capsys.readouterr()
    return code, out, err


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
                   "file: one JSON object per line); it looks like a LongMemEval QA scores file; give it as --scores "
                   "to --profile longmemeval-qa, with the evaluator's log as the report (docs/longmemeval-qa.md)\n")


def test_a_row_id_with_a_look_alike_letter_is_the_same_row(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A copy of a row whose id swaps a Latin c for the Cyrillic с reads as the same id: it fails as a repeat."""
    lines = (ROOT / "examples" / "longmemeval-qa" / "hypotheses.jsonl.eval-results-gpt-4o").read_text(
        encoding="utf-8").splitlines()
    first = next(line for line in lines if '"question_id": "c' in line)
    copy = first.replace('"question_id": "c', '"question_id": "\u0441', 1)
    log = tmp_path / "eval-results.jsonl"
    log.write_text("\n".join([*lines, copy]) + "\n", encoding="utf-8")
    code, out, err = run(capsys, monkeypatch, [str(log), "--profile", "longmemeval-qa", "--scores",
                                               "examples/longmemeval-qa/scores.json"])
    assert code == 1, out + err
    assert "differ only by look-alike characters (a letter of another script, or a digit shaped like a letter)" in out
