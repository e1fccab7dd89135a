"""The message lists of docs/official-sota.md are what the gate says for each variant.

docs/official-sota.md lists what one rule answers for several baselines that the repository
does not ship (a baseline of each accuracy kind, a tie, a percent, timestamps around the limit,
URLs of each refused form). Each list is a ``text`` block after a known sentence; this module
rebuilds every line by running the gate on a copy of ``examples/official`` whose baseline is
changed as the page says, and compares. ``--update-docs`` rewrites the blocks.
"""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import docs_examples as dx
from bench_gate.cli.app import main

PAGE = dx.ROOT / "docs" / "official-sota.md"
BASELINE = "sota-baseline-comparison.json"


@dataclass(frozen=True)
class Variant:
    """The baseline's fields changed, the gate's instant and the rule whose answer is listed."""

    fields: dict[str, Any]
    now: str
    rule: str


@dataclass(frozen=True)
class Catalogue:
    anchor: str  # the sentence the block follows
    variants: list[Variant]
    line: Callable[[dict[str, Any]], str]  # a result -> its line in the list


def _status_and_message(result: dict[str, Any]) -> str:
    return f"{result['status']}: {result['message']}"


def _message(result: dict[str, Any]) -> str:
    return str(result["message"])


NOW = "2026-11-29T12:00:00Z"
OVERALL, TASK = "official_longmemeval_overall_accuracy", "official_longmemeval_task_averaged_accuracy"
URLS = ["https://leaderboard.example.com/longmemeval", "http://127.1/board", "http://2130706433/",
        "https://reviewer@github.com/x", "https://xn--exmple-cua.org/", "https://[::ffff:192.168.0.1]/",
        "https://leaderboard.internal/x", "ftp://github.com/x", "https://github.com:0/x"]
TIMESTAMPED = {"checked_at": "2026-11-25T12:00:00Z"}
CATALOGUES = [
    Catalogue("against baselines of each kind", [
        Variant({"metric": OVERALL, "accuracy": 0.6}, NOW, "sota-beats-baseline"),
        Variant({"metric": TASK, "accuracy": 0.6}, NOW, "sota-beats-baseline"),
        Variant({"metric": OVERALL, "accuracy": 0.608}, NOW, "sota-beats-baseline"),
        Variant({"metric": "recall@5", "accuracy": 0.6}, NOW, "sota-beats-baseline"),
        Variant({"metric": TASK, "accuracy": 60.8}, NOW, "sota-beats-baseline"),
    ], _status_and_message),
    Catalogue("With `checked_at` `2026-11-25T12:00:00Z` instead, and `expires_at` `2026-12-20`", [
        Variant(TIMESTAMPED, "2026-12-25T12:00:00Z", "sota-baseline-fresh"),
        Variant(TIMESTAMPED, "2026-12-25T12:00:01Z", "sota-baseline-fresh"),
        Variant({**TIMESTAMPED, "expires_at": "2026-12-20"}, "2026-12-20T23:59:59Z", "sota-baseline-not-expired"),
        Variant({**TIMESTAMPED, "expires_at": "2026-12-20"}, "2026-12-25T12:00:00Z", "sota-baseline-not-expired"),
        Variant({"checked_at": "2026-11-25T12:00:00"}, "2026-12-25T12:00:00Z", "sota-baseline-fresh"),
    ], _status_and_message),
    Catalogue("Messages (the baseline's `evidence_url` set to each value)",
              [Variant({"evidence_url": url}, NOW, "sota-baseline-evidence-url") for url in URLS], _message),
]


def block_after(text: str, anchor: str) -> tuple[int, int]:
    """(start, end) line indexes of the content of the first fenced block after ``anchor``."""
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if anchor in line)
    start = next(i for i in range(at, len(lines)) if lines[i].startswith("```")) + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("```"))
    return start, end


@pytest.fixture(scope="module")
def evidence(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("official") / "official"
    shutil.copytree(dx.ROOT / "examples" / "official", folder)
    return folder


def answer(evidence: Path, variant: Variant) -> dict[str, Any]:
    """The variant's result of its rule, from the JSON verdict of a real gate run."""
    original = json.loads((dx.ROOT / "examples" / "official" / BASELINE).read_text(encoding="utf-8"))
    (evidence / BASELINE).write_text(json.dumps({**original, **variant.fields}, indent=2), encoding="utf-8")
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        main([str(evidence / "longmembench-report-sota.json"), "--profile", "official-sota", "--root", str(evidence),
              "--now", variant.now, "--format", "json"])
    (result,) = [r for r in json.loads(out.getvalue())["results"] if r["rule"] == variant.rule]
    return result


@pytest.mark.parametrize("catalogue", CATALOGUES, ids=["beats-baseline", "freshness", "public-url"])
def test_a_message_list_is_what_the_gate_says(evidence: Path, catalogue: Catalogue, update_docs: bool) -> None:
    text = PAGE.read_text(encoding="utf-8")
    start, end = block_after(text, catalogue.anchor)
    lines = text.split("\n")
    printed = [catalogue.line(answer(evidence, v)) for v in catalogue.variants]
    if update_docs and lines[start:end] != printed:
        PAGE.write_text("\n".join([*lines[:start], *printed, *lines[end:]]), encoding="utf-8")
        pytest.skip("docs/official-sota.md rewritten from the current output: review the diff")
    assert lines[start:end] == printed

