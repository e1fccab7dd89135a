"""The example claims profile is the one the golden cases run, and it compiles."""

from __future__ import annotations

from pathlib import Path

from bench_gate.profile import load_profile
from bench_gate.profile.binding import bind

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "docs-claims.yaml"


def test_golden_copies_are_the_example() -> None:
    copies = sorted(ROOT.glob("golden/claims/*/docs-claims.yaml"))
    assert copies, "no golden case runs the example profile"
    for copy in copies:
        assert copy.read_bytes() == EXAMPLE.read_bytes(), copy


def test_example_extends_claims_with_boundary_phrases() -> None:
    plan = bind(load_profile(str(EXAMPLE)))
    ids = [r.id for r in plan.rules]
    assert ids[-1] == "doc-boundary-phrases"
    assert set(bind(load_profile("claims")).rules[i].id for i in range(len(ids) - 1)) <= set(ids)
