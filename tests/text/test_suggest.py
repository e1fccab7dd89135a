"""Did you mean: which valid name is offered for a mistyped one, and when none is."""

from __future__ import annotations

import pytest

from bench_gate.text.suggest import closest, did_you_mean

PROFILES = ["aef-seal", "ai-memory", "claims", "ledger", "longmemeval-qa", "longmemeval-retrieval",
            "memory-pair", "official-full", "official-sota"]


@pytest.mark.parametrize(("word", "candidates", "expected"), [
    ("ai-memroy", PROFILES, "; did you mean 'ai-memory'?"),
    ("AI-Memory", PROFILES, "; did you mean 'ai-memory'?"),
    ("rulle", ["rule", "reason", "approved_by", "expires", "pointer", "document", "report"], "; did you mean 'rule'?"),
    ("max_baseline_age_dys", ["max_baseline_age", "baseline_metrics"], "; did you mean 'max_baseline_age'?"),
    ("minimum", ["table", "min", "max", "extra_min", "extra_max"], "; did you mean 'min'?"),
    ("scope", ["rule", "reason", "approved_by", "expires", "pointer", "document", "report"], ""),
    ("zz", PROFILES, ""),
    ("ai-memory", ["ai-memory"], ""),
    ("x", [], ""),
], ids=["transposed", "case", "doubled-letter", "prefers-the-closest", "longer-spelling", "nothing-close",
        "short-and-far", "never-itself", "no-candidates"])
def test_did_you_mean(word: str, candidates: list[str], expected: str) -> None:
    assert did_you_mean(word, candidates) == expected


def test_several_candidates_closest_first() -> None:
    assert sorted(closest("official", PROFILES, n=2)) == ["official-full", "official-sota"]
    assert did_you_mean("official-sot", PROFILES, n=2) == "; did you mean 'official-sota' or 'official-full'?"
