"""Every golden case: the exact verdict JSON, the exact text, the exit code, the contract schema."""

from __future__ import annotations

import io
import json
import os
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import jsonschema
import pytest

from bench_gate.cli import main
from golden import Case, cases, materialise

SCHEMAS = Path(__file__).parent / "data"
VERDICT = json.loads((SCHEMAS / "verdict.schema.json").read_text())
BATCH = json.loads((SCHEMAS / "batch.schema.json").read_text())
ALL = cases()


def run(case: Case, workdir: Path, fmt: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(workdir)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main([*case.args, "--now", case.now, "--format", fmt, "--no-color"])
    finally:
        os.chdir(cwd)
    return code, out.getvalue(), err.getvalue()


def validate_verdict(doc: dict) -> None:
    if doc.get("schema_version") == "bench-gate.batch.v1":
        registry_schema = dict(BATCH)
        registry_schema["properties"] = dict(BATCH["properties"])
        registry_schema["properties"]["verdicts"] = {"type": "array", "minItems": 2, "items": VERDICT}
        jsonschema.Draft202012Validator(registry_schema).validate(doc)
    else:
        jsonschema.Draft202012Validator(VERDICT).validate(doc)


@pytest.mark.parametrize("case", ALL, ids=[c.id for c in ALL])
def test_golden(case: Case, tmp_path: Path, update_golden: bool) -> None:
    work = materialise(case, tmp_path)
    code, stdout, stderr = run(case, work, "json")
    assert "Traceback" not in stderr
    expected_json = case.path / "expected.json"
    expected_txt = case.path / "expected.txt"
    if code == 2:
        # could not be evaluated: the pinned output is the one-line error
        text = stderr
        if update_golden:
            expected_txt.write_text(text, encoding="utf-8")
        assert code == case.exit, stderr
        assert text == expected_txt.read_text(encoding="utf-8")
        return
    doc = json.loads(stdout)
    validate_verdict(doc)
    _, text, _ = run(case, work, "text")
    if update_golden:
        expected_json.write_text(stdout, encoding="utf-8")
        expected_txt.write_text(text, encoding="utf-8")
    assert code == case.exit, stdout[-2000:]
    assert stdout == expected_json.read_text(encoding="utf-8")
    assert text == expected_txt.read_text(encoding="utf-8")
    assert doc["passed"] is (case.exit == 0)


def test_golden_corpus_is_not_empty() -> None:
    profiles = {c.path.parent.name for c in ALL}
    assert "ai-memory" in profiles
    assert sum(1 for c in ALL if c.path.parent.name == "ai-memory") >= 16
