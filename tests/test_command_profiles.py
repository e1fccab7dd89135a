"""Profiles that only their own command can run say so: exit 2 naming the command."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench_gate.cli.app import main
from bench_gate.profile import load_profile
from bench_gate.profile.sources import builtin_names

ROOT = Path(__file__).resolve().parents[1]
REPORT = str(ROOT / "examples" / "longmemeval_sibyl_hybrid_rc1_20260610.json")


@pytest.mark.parametrize(("profile", "command"), [
    ("ledger", "bench-gate ledger MANIFEST"),
    ("claims", "bench-gate claims PATH... --ledger MANIFEST | --evidence FILE"),
])
def test_command_profile_with_profile_option_is_a_usage_error(capsys: pytest.CaptureFixture[str], profile: str,
                                                               command: str) -> None:
    code = main([REPORT, "--profile", profile, "--now", "2026-11-29T12:00:00Z"])
    captured = capsys.readouterr()
    assert (code, captured.out) == (2, "")
    assert captured.err == (f"bench-gate: error: profile {profile} cannot gate a report given with --profile; "
                            f"it is run by its own command: {command}\n")


def test_only_ledger_and_claims_are_command_profiles() -> None:
    assert {n: load_profile(n).command for n in builtin_names() if load_profile(n).command} == {
        "ledger": "bench-gate ledger MANIFEST", "claims": "bench-gate claims PATH... --ledger MANIFEST | --evidence FILE"}


def test_a_profile_extending_a_command_profile_inherits_its_command(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("name: mine\ndescription: our ledger\nextends: ledger\n", encoding="utf-8")
    assert load_profile(str(path)).command == "bench-gate ledger MANIFEST"
