"""Every golden case: the exact verdict JSON, the exact text, the exit code, the contract schema."""

from __future__ import annotations

from pathlib import Path

import pytest

from golden import Case, cases, check_pinned, materialise, run_main

ALL = cases()


@pytest.mark.parametrize("case", ALL, ids=[c.id for c in ALL])
def test_golden(case: Case, tmp_path: Path, update_golden: bool) -> None:
    work = materialise(case, tmp_path)
    check_pinned(case.path, case.exit, lambda fmt: run_main(case.args, case.now, work, fmt), update_golden)


def test_golden_corpus_covers_every_profile_both_ways() -> None:
    """Every built-in profile that gates a report has golden cases that pass and cases that fail,
    each described, each on real data or a patch of it; ai-memory has at least 16."""
    from bench_gate.profile import load_profile
    from bench_gate.profile.sources import builtin_names

    by_profile: dict[str, set[int]] = {}
    for c in ALL:
        assert c.description.strip(), c.id
        assert c.exit in (0, 1, 2), c.id
        assert "--profile" in c.args or "-p" in c.args, c.id
        by_profile.setdefault(c.path.parent.name, set()).add(c.exit)
    gated = {n for n in builtin_names() if load_profile(n).command is None}
    assert {n: by_profile.get(n, set()) >= {0, 1} for n in gated} == {n: True for n in gated}
    assert sum(1 for c in ALL if c.path.parent.name == "ai-memory") >= 16
