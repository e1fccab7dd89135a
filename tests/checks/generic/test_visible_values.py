"""Values that look present but name nothing: invisible strings, punctuation placeholders, argv
items that are empty or not strings. The ``fields`` kind refuses each class wherever a profile
asks for a non-empty value or refuses placeholders, and the real ai-memory example shows it end
to end."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from bench_gate.checks.generic.fields import FieldSpec, check_field
from bench_gate.cli.app import main

from kindtest import context
from repo import ROOT

EXAMPLE = ROOT / "examples" / "longmemeval_sibyl_hybrid_rc1_20260610.json"
PLACEHOLDERS = ["not-applicable", "n/a", "na", "disabled", "none", "unknown", "placeholder", "todo", "tbd"]
CTX = context(now=datetime(2026, 11, 29, tzinfo=UTC))
INVISIBLE = ["", " ", "\u200b", "\u00a0", "\u2060", "\ufeff", "\u200e", "\t", "\u3000", "\u00ad"]


def outcome(value: Any, **spec: Any) -> str | None:
    found = check_field(CTX, {"v": value}, FieldSpec(path="/v", **spec), "report", "")
    return None if found is None else found.message


@pytest.mark.parametrize(("value", "message"), [
    ("-", '/v is the placeholder "-"'),
    ("???", '/v is the placeholder "???"'),
    ("N/A", '/v is the placeholder "N/A"'),
    ("n.a.", '/v is the placeholder "n.a."'),
    ("\uff2e\uff2f\uff2e\uff25", '/v is the placeholder "\uff2e\uff2f\uff2e\uff25"'),
    ("To\u200bDo", '/v is the placeholder "To\u200bDo"'),
    ("gpt-4o-2024-08-06", None),
    ("o1", None),
], ids=["dash", "question-marks", "upper-slash", "dotted", "fullwidth-none", "zero-width-todo", "model", "short"])
def test_placeholders_as_a_reader_sees_them(value: str, message: str | None) -> None:
    assert outcome(value, type="string", not_one_of=PLACEHOLDERS) == message


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(INVISIBLE), min_size=1, max_size=6).map("".join))
def test_invisible_strings_are_empty(text: str) -> None:
    assert outcome(text, type="string") == "/v is empty"


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("-?!.*_/ ~#") + INVISIBLE[1:]), min_size=1, max_size=8))
def test_strings_without_letters_or_digits_are_placeholders(text: str) -> None:
    assert outcome(text, type="string", not_one_of=PLACEHOLDERS, non_empty=False) is not None


@pytest.mark.parametrize(("value", "message"), [
    ([""], "/v/0 is empty"),
    (["python", "\u200b"], "/v/1 is empty"),
    ([1], "/v/0 must be a string, got integer 1"),
    (["python", None], "/v/1 must be a string, got null"),
    ([], "/v is empty"),
    (["python", "bench.py"], None),
    ("python bench.py", None),
], ids=["empty-item", "invisible-item", "integer", "null", "empty-list", "argv", "string"])
def test_argv_items(value: Any, message: str | None) -> None:
    assert outcome(value, type="string-or-array") == message


@pytest.fixture
def report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "r.json"
    shutil.copyfile(EXAMPLE, path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    return path


def gate(capsys: pytest.CaptureFixture[str], path: Path, edit: dict[str, Any]) -> dict[str, dict[str, Any]]:
    data = json.loads(path.read_text())
    data.update(edit)
    path.write_text(json.dumps(data))
    code = main([path.name, "--profile", "ai-memory", "--now", "2026-11-29T12:00:00Z", "--format", "json"])
    out, err = capsys.readouterr()
    assert (code, err) == (1, "")
    return {r["rule"]: r for r in json.loads(out)["results"]}


@pytest.mark.parametrize(("edit", "message"), [
    ({"schema_version": "\u200b"}, "/schema_version is empty"),
    ({"command": [""]}, "/command/0 is empty"),
    ({"command": [1]}, "/command/0 must be a string, got integer 1"),
], ids=["invisible-schema-version", "empty-argv", "integer-argv"])
def test_real_report_with_invisible_provenance_fails(report: Path, capsys: pytest.CaptureFixture[str],
                                                     edit: dict[str, Any], message: str) -> None:
    results = gate(capsys, report, edit)
    failing = [r for r in results.values() if r["status"] == "fail"]
    assert [r["rule"] for r in failing] == ["header-identity"]
    assert failing[0]["message"].startswith(message)


def test_real_report_qa_judge_placeholder_fails(report: Path, capsys: pytest.CaptureFixture[str]) -> None:
    qa = {"schema_version": "x", "mode": "fixture", "enabled": True, "reader_provider": "openai",
          "reader_model": "gpt-4o", "reader_prompt_id": "p1", "judge_provider": "openai", "judge_model": "???",
          "judge_prompt_id": "j1", "rubric_id": "r1", "claim_boundary": "fixture"}
    results = gate(capsys, report, {"qa": qa})
    assert '/qa/judge_model is the placeholder "???"' in json.dumps(results["qa-block"]) or \
        any('/qa/judge_model is the placeholder "???"' in d["message"] for d in results["qa-block"].get("details", []))
