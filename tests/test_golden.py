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


def test_golden_corpus_is_not_empty() -> None:
    profiles = {c.path.parent.name for c in ALL}
    assert "ai-memory" in profiles
    assert sum(1 for c in ALL if c.path.parent.name == "ai-memory") >= 16
