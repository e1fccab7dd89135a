"""The committed JSON Schemas of profile and policy files match what ``bench-gate schema`` prints."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from bench_gate.cli.app import main
from repo import ROOT



@pytest.mark.parametrize("which", ["profile", "policy"])
def test_committed_schema_is_current(which: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", which]) == 0
    printed = capsys.readouterr().out
    committed = (ROOT / "schemas" / f"{which}.schema.json").read_text(encoding="utf-8")
    assert printed == committed, f"run: bench-gate schema {which} > schemas/{which}.schema.json"


@pytest.mark.parametrize("path", sorted((ROOT / "profiles").glob("*.yaml")), ids=lambda p: p.name)
def test_builtin_profiles_validate_against_the_schema(path: Path) -> None:
    schema = json.loads((ROOT / "schemas" / "profile.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(yaml.safe_load(path.read_text()))


@pytest.mark.parametrize("path", sorted((ROOT / "policies").glob("*.yaml")), ids=lambda p: p.name)
def test_builtin_policies_validate_against_the_schema(path: Path) -> None:
    schema = json.loads((ROOT / "schemas" / "policy.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(yaml.safe_load(path.read_text()))
