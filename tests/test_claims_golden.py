"""Golden claims cases: ``bench-gate claims`` end to end, with the whole verdict pinned.

A case is a folder ``golden/claims/<case>/`` holding ``claims-case.yaml`` (``description``,
``args`` after ``bench-gate``, ``now``, ``exit``, and ``ledger``: the golden ledger case that is
built into the work folder as ``ledger/``, and/or ``repo``: a bundled folder copied as the work
folder first, with ``manifest`` + ``manifest_patch`` (JSON Patch operations) to edit a ledger in
it), the documents to scan, and ``expected.json`` / ``expected.txt``. The SARIF output of every case is validated against the SARIF 2.1.0 schema
and its locations must point into the scanned files.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from golden import ROOT, apply_patch, check_pinned
from test_ledger_golden import materialise, run

GOLDEN = ROOT / "golden" / "claims"
SARIF = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
CASES = sorted(p.parent for p in GOLDEN.glob("*/claims-case.yaml"))


def build(folder: Path, into: Path) -> tuple[Path, dict[str, Any]]:
    spec = yaml.safe_load((folder / "claims-case.yaml").read_text(encoding="utf-8"))
    work = into / folder.name
    if "repo" in spec:
        shutil.copytree(ROOT / spec["repo"], work)
    shutil.copytree(folder, work, dirs_exist_ok=True)
    if "manifest" in spec:
        manifest = work / spec["manifest"]
        data = apply_patch(json.loads(manifest.read_text(encoding="utf-8")), spec.get("manifest_patch") or [])
        manifest.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    if "ledger" in spec:
        ledger_work, _ = materialise(ROOT / "golden" / "ledger" / spec["ledger"], into / "_ledger")
        shutil.copytree(ledger_work, work / "ledger")
        # The ledger lies in ledger/ below the folder the command runs in, which is therefore the
        # repository root: its history folder is named from there, as in a real repository.
        manifest = work / "ledger" / "manifest.json"
        data = json.loads(manifest.read_text(encoding="utf-8"))
        if isinstance(data.get("history"), dict):
            data["history"]["directory"] = f"ledger/{data['history']['directory']}"
            manifest.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return work, spec


@pytest.mark.parametrize("folder", CASES, ids=[c.name for c in CASES])
def test_claims_golden(folder: Path, tmp_path: Path, update_golden: bool) -> None:
    work, spec = build(folder, tmp_path)
    doc = check_pinned(folder, spec["exit"], lambda fmt: run(spec, work, fmt), update_golden)
    if doc is None:
        return

    _, sarif, _ = run(spec, work, "sarif")
    log = json.loads(sarif)
    jsonschema.Draft7Validator(SARIF).validate(log)
    scanned = {r["document"] for r in doc["results"] if r["pointer"].startswith("/line/")}
    for result in log["runs"][0]["results"]:
        loc = result["locations"][0]
        uri = loc["physicalLocation"]["artifactLocation"]["uri"]
        if loc["properties"]["pointer"].startswith("/line/"):
            assert uri in scanned


@pytest.mark.parametrize("folder", CASES, ids=[c.name for c in CASES])
def test_claim_locations_point_at_the_text(folder: Path) -> None:
    """Every file:line:column in a message is where the quoted number or phrase really is."""
    expected = folder / "expected.json"
    if not expected.exists():
        return
    doc = json.loads(expected.read_text(encoding="utf-8"))
    for r in doc["results"]:
        m = re.fullmatch(r"/line/(\d+)/column/(\d+)", r["pointer"])
        if not m:
            continue
        line, col = int(m.group(1)), int(m.group(2))
        assert r["message"].startswith(f"{r['document']}:{line}:{col}: ")
        source = folder / r["document"]
        if not source.exists():  # a file of the bundled folder the case is built on
            spec = yaml.safe_load((folder / "claims-case.yaml").read_text(encoding="utf-8"))
            source = ROOT / spec["repo"] / r["document"]
        text = source.read_text(encoding="utf-8").split("\n")[line - 1]
        assert text[col - 1:].lower().startswith(str(r["actual"]).lower()), (r["message"], text)
