"""Golden ledger cases: ``bench-gate ledger`` end to end, with the whole verdict pinned.

A case is a folder ``golden/ledger/<case>/`` holding ``ledger-case.yaml`` (``description``,
``args`` after ``bench-gate``, ``now``, ``exit``; ``repo``: a folder of the project copied whole
as the work folder, e.g. the real ledger ``examples/sibyl-repo``; ``artifacts``: files to build
in the work folder, each ``{base, patch}`` like the report gate's golden cases; ``patches``: JSON
patches applied to files of the work folder), the ledger ``manifest.json`` and its small
evidence unless ``repo`` provides them, and ``expected.json`` / ``expected.txt``. The cases
are written by ``tests/make_ledger_cases.py``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from golden import ROOT, apply_patch, check_pinned, run_main

GOLDEN = ROOT / "golden" / "ledger"
CASES = sorted(p.parent for p in GOLDEN.glob("*/ledger-case.yaml"))


PINNED = ("ledger-case.yaml", "expected.json", "expected.txt")


def materialise(folder: Path, into: Path) -> tuple[Path, dict[str, Any]]:
    spec = yaml.safe_load((folder / "ledger-case.yaml").read_text(encoding="utf-8"))
    work = into / folder.name
    if spec.get("repo"):
        # A whole repository (the real ledger in its layout), then the case's own files over it.
        shutil.copytree(ROOT / spec["repo"], work)
        shutil.copytree(folder, work, dirs_exist_ok=True, ignore=lambda _d, names: [n for n in names if n in PINNED])
    else:
        shutil.copytree(folder, work)
    for path, ops in (spec.get("patches") or {}).items():
        target = work / path
        doc = json.loads(target.read_text(encoding="utf-8"))
        target.write_text(json.dumps(apply_patch(doc, ops), indent=2) + "\n", encoding="utf-8")
    for path, build in (spec.get("artifacts") or {}).items():
        base = json.loads((ROOT / build["base"]).read_text(encoding="utf-8"))
        (work / path).write_text(json.dumps(apply_patch(base, build.get("patch") or []), indent=1) + "\n",
                                 encoding="utf-8")
    return work, spec


def run(spec: dict[str, Any], work: Path, fmt: str) -> tuple[int, str, str]:
    return run_main(spec["args"], spec["now"], work, fmt)


@pytest.mark.parametrize("folder", CASES, ids=[c.name for c in CASES])
def test_ledger_golden(folder: Path, tmp_path: Path, update_golden: bool) -> None:
    work, spec = materialise(folder, tmp_path)
    check_pinned(folder, spec["exit"], lambda fmt: run(spec, work, fmt), update_golden)


def test_every_failure_case_fails_for_a_ledger_rule() -> None:
    """Each failing case is about the ledger, not an accident of the artifacts."""
    for folder in CASES:
        spec = yaml.safe_load((folder / "ledger-case.yaml").read_text(encoding="utf-8"))
        if spec["exit"] != 1:
            continue
        doc = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
        ledger_fails = [r for r in doc["results"] if r["status"] == "fail" and "/" not in r["rule"]]
        assert ledger_fails, folder.name
