"""Without --now the gate evaluates as of the current UTC time (the only place a clock is read)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from freezegun import freeze_time

from bench_gate.cli.app import main

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "longmemeval_sibyl_hybrid_rc1_20260610.json"


@freeze_time("2026-11-29 08:15:30.250000", tz_offset=0)
def test_default_now_is_the_current_utc_second(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(EXAMPLE), "-p", "ai-memory", "--format", "json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["evaluated_at"] == "2026-11-29T08:15:30Z"


@freeze_time("2026-06-10 12:00:00", tz_offset=0)
def test_default_now_decides_freshness(capsys: pytest.CaptureFixture[str]) -> None:
    # the fixture was generated at 12:42:33 that day: as of noon it lies in the future
    assert main([str(EXAMPLE), "-p", "ai-memory", "--format", "json"]) == 1
    verdict = json.loads(capsys.readouterr().out)
    failed = [(r["rule"], r["message"]) for r in verdict["results"] if r["status"] == "fail"]
    assert [rule for rule, _ in failed] == ["header-generated-at"]
    assert "in the future" in failed[0][1]
