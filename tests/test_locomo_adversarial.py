"""Tampered and overclaiming inputs of the ``locomo-qa`` profile, one class per test, each with the
honest input beside it that must still pass.

The classes: a claim right to ``claim_places`` but wrong in the further decimals it writes; a
baseline that is our J to the places it gives (a tie); a judge or answer model that is a
placeholder as a reader reads it (fullwidth, a zero-width space, a look-alike letter, nothing
visible); category names that a reader reads as one given to two categories; category ids and
ranges too long to be numbers; zip member names with digits that are not ASCII; the pinned
question list changed on the command line; a summary carrying a number no rule recomputes.
Inputs are small and made up (LoCoMo itself is not part of the repository); the profile-level
cases run the synthetic example of ``examples/locomo-qa/``.
"""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bench_gate.checks import registry
from bench_gate.checks.base import Context, Fail
from bench_gate.checks.recompute.questions import parse_groups
from bench_gate.checks.recompute.rows import matches
from bench_gate.loaders.dataset import scan_archive
from bench_gate.models import Doc, Finding
from bench_gate.profile.kindparams import validate_params

NOW = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)
KINDS = registry()
ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "locomo-qa"


def run(kind: str, params: dict[str, Any], report: Any, **docs: Any) -> list[Finding]:
    bound = validate_params(KINDS[kind].params, params)
    documents = {"report": Doc("report", "eval.json", data=report)}
    documents.update({role: Doc(role, f"{role}.json", data=value) for role, value in docs.items()})
    try:
        return list(KINDS[kind].run(Context(now=NOW, documents=documents), bound))
    except Fail as exc:
        return [exc.finding]


def one(kind: str, params: dict[str, Any], report: Any, **docs: Any) -> tuple[str, str]:
    found = run(kind, params, report, **docs)
    failing = [f for f in found if f.status == "fail"]
    pick = failing[0] if failing else found[0]
    return pick.status, pick.message


def row(q: str, category: Any, llm: int) -> dict[str, Any]:
    return {"question": q, "answer": "a", "response": "r", "category": category, "bleu_score": 0.5,
            "f1_score": 0.5, "llm_score": llm}


# --- zip member names whose digits are not ASCII ---------------------------------------------------------

def test_archive_members_named_with_other_digits_sort_as_text() -> None:
    members = {"data/26.json": {"qa": []}, "data/\u00b25.json": {"qa": [], "sample_id": "superscript"},
               "data/\u0662\u0666.json": {"qa": [], "sample_id": "arabic-indic"}, "data/100.json": {"qa": []}}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, entry in members.items():
            archive.writestr(name, json.dumps(entry))
    buffer.seek(0)
    assert scan_archive(buffer).names == ["26.json", "100.json", "superscript", "arabic-indic"]
