"""Every golden case, evaluated once: the exit code, the verdict against its pins (the reference
case of each profile whole, every other case by its own rules), every CI format rendered from the
same verdict, and the contract schemas. How cases are built and what they pin: ``golden.py``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from golden import GOLDEN, REFERENCE, ROOT, Case, Outcome, cases, check_case, expected_verdict
from ledger_cache import gate_artifacts_once

ALL = cases()


def claims_locations(doc: dict[str, Any], outcome: Outcome, folder: Path) -> None:
    """A claims verdict's SARIF locations of scanned lines point into the scanned files."""
    log = json.loads(outcome.renderings["sarif"])
    scanned = {r["document"] for r in doc["results"] if r["pointer"].startswith("/line/")}
    for result in log["runs"][0]["results"]:
        loc = result["locations"][0]
        if loc["properties"]["pointer"].startswith("/line/"):
            assert loc["physicalLocation"]["artifactLocation"]["uri"] in scanned


@pytest.mark.parametrize("case", ALL, ids=[c.id for c in ALL])
def test_golden(case: Case, tmp_path: Path, update_golden: bool) -> None:
    with gate_artifacts_once():
        check_case(case, tmp_path, update_golden, claims_locations if case.verb == "claims" else None)


def test_golden_corpus_covers_every_profile_both_ways() -> None:
    """Every built-in profile that gates a report has golden cases that pass and cases that fail,
    each described, each on real data or a patch of it; ai-memory has at least 16."""
    from bench_gate.profile import load_profile
    from bench_gate.profile.sources import builtin_names

    by_profile: dict[str, set[int]] = {}
    for c in cases("report"):
        assert c.description.strip(), c.id
        assert c.exit in (0, 1, 2), c.id
        assert "--profile" in c.args or "-p" in c.args, c.id
        by_profile.setdefault(c.profile, set()).add(c.exit)
    gated = {n for n in builtin_names() if load_profile(n).command is None}
    assert {n: by_profile.get(n, set()) >= {0, 1} for n in gated} == {n: True for n in gated}
    assert sum(1 for c in ALL if c.profile == "ai-memory") >= 16


def test_every_profile_folder_names_a_passing_reference_case() -> None:
    """A new profile folder needs a reference case in ``golden.REFERENCE`` (a case that passes
    with the profile's defaults); without one its cases would pin their whole verdicts."""
    folders = sorted(p.name for p in GOLDEN.iterdir() if p.is_dir())
    assert sorted(REFERENCE) == folders
    for profile, names in REFERENCE.items():
        for name in names:
            ref = next(c for c in ALL if c.profile == profile and c.path.name == name)
            assert ref.exit == 0, ref.id


def test_cases_pin_only_their_own_rules() -> None:
    """Outside the reference cases no case pins a whole verdict (``--update-golden`` converts one
    written in full), and no case pins a result the reference gives the same way."""
    for c in ALL:
        path = c.path / "expected.json"
        if c.is_reference or not path.exists():
            continue
        pinned = json.loads(path.read_text(encoding="utf-8"))
        assert "reference" in pinned, f"{c.id}: a whole verdict; run pytest tests/e2e/test_golden.py --update-golden"


def test_every_failing_ledger_case_fails_for_a_ledger_rule() -> None:
    """Each failing ledger case is about the ledger, not an accident of the artifacts."""
    for c in cases("ledger"):
        if c.exit != 1:
            continue
        doc = expected_verdict(c)
        assert doc is not None
        assert [r for r in doc["results"] if r["status"] == "fail" and "/" not in r["rule"]], c.id


CLAIMS = cases("claims")


@pytest.mark.parametrize("case", CLAIMS, ids=[c.id for c in CLAIMS])
def test_claim_locations_point_at_the_text(case: Case) -> None:
    """Every file:line:column in a message is where the quoted number or phrase really is."""
    doc = expected_verdict(case)
    if doc is None:
        return
    for r in doc["results"]:
        m = re.fullmatch(r"/line/(\d+)/column/(\d+)", r["pointer"])
        if not m:
            continue
        line, col = int(m.group(1)), int(m.group(2))
        assert r["message"].startswith(f"{r['document']}:{line}:{col}: ")
        source = case.path / r["document"]
        if not source.exists():  # a file of the bundled folder the case is built on
            source = ROOT / case.spec["repo"] / r["document"]
        text = source.read_text(encoding="utf-8").split("\n")[line - 1]
        assert text[col - 1:].lower().startswith(str(r["actual"]).lower()), (r["message"], text)


def test_spec_keys_are_known() -> None:
    """A misspelt key in a case spec would be ignored silently; every key is one the runner reads."""
    known = {"description", "args", "now", "exit", "base", "patch", "replace", "pin", "repo", "artifacts",
             "patches", "ledger", "manifest", "manifest_patch"}
    for c in ALL:
        spec = yaml.safe_load((c.path / c.spec_file).read_text(encoding="utf-8"))
        assert set(spec) <= known, (c.id, set(spec) - known)


def test_remembered_artifact_gates_give_the_verdict_of_fresh_ones(tmp_path: Path) -> None:
    """``ledger_cache`` changes how often an artifact is gated, never what a ledger or claims
    verdict says: a case run afresh, then twice with the gates remembered (the second time from
    memory), prints the same JSON verdict each time."""
    from golden import evaluate

    for case_id in ("ledger/qa-required", "claims/backed"):
        c = next(x for x in ALL if x.id == case_id)
        fresh = evaluate(c, tmp_path / f"{c.path.name}-fresh")
        with gate_artifacts_once():
            first = evaluate(c, tmp_path / f"{c.path.name}-first")
            again = evaluate(c, tmp_path / f"{c.path.name}-again")
        assert fresh.code == first.code == again.code == c.exit
        assert fresh.json == first.json == again.json != ""
