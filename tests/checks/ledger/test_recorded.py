"""Recorded commands of a ledger: a gate command must be a gate run of the declared profile on
the archived artifact that fails when the gate fails; a verification command must download the
run and hash the artifact. Pass and fail rows with the exact message."""

from __future__ import annotations

import pytest

from bench_gate.checks.ledger.recorded import (
    READER_MISSING,
    gate_command_problems,
    history_gate_command_problems,
    names_path,
    read_runs,
    verification_command_problems,
)
from bench_gate.cli.commands import read_command
from bench_gate.checks.ledger.external import check_gate_receipt

ART = "longmemeval_live_full.json"
REAL_GATE = ("moon run bench-gate -- /tmp/sibyl-eval-26304777971/longmemeval-live-full-36032a25b2893f2fbcbc074bd0c212"
             "fb829dd975/longmemeval_live_full.json --profile ai-memory")
REAL_VERIFY = ("gh run download 26304777971 --repo hyperb1iss/sibyl --dir /tmp/sibyl-eval-26304777971 && sha256sum "
               "/tmp/sibyl-eval-26304777971/x/longmemeval_live_full.json && wc -c /tmp/x/longmemeval_live_full.json")

GATES = [
    ("real", REAL_GATE, []),
    ("plain", f"bench-gate {ART} --profile ai-memory", []),
    ("short-option-and-module", f"python -m bench_gate -p ai-memory ./{ART} --format json", []),
    ("practice-script", f"uv run tools/bench/eval_gate.py dl/{ART} --profile=ai-memory",
     [f"gate_command 'uv run tools/bench/eval_gate.py dl/{ART} --profile=ai-memory' does not run bench-gate: it is "
      "not a record of a gate run"]),
    ("or-true", f"bench-gate {ART} --profile ai-memory || true",
     [f"gate_command 'bench-gate {ART} --profile ai-memory || true' uses '||': it runs another command when it "
      "fails, so the chain succeeds whatever it reports"]),
    ("semicolon", f"bench-gate {ART} -p ai-memory; exit 0",
     [f"gate_command 'bench-gate {ART} -p ai-memory; exit 0' uses ';': it runs the next command whatever this one "
      "reports"]),
    ("pipe", f"bench-gate {ART} -p ai-memory | tee log",
     [f"gate_command 'bench-gate {ART} -p ai-memory | tee log' uses '|': it pipes its output on, so the exit "
      "status is the last command's, not the gate's"]),
    ("negated", f"! bench-gate {ART} -p ai-memory",
     [f"gate_command '! bench-gate {ART} -p ai-memory' negates a command's exit status with '!'"]),
    ("two-lines", f"bench-gate {ART} -p ai-memory\ntrue",
     [f"gate_command 'bench-gate {ART} -p ai-memory\\ntrue' spans several lines (each line is a command of its "
      "own, whose failure does not stop the rest)"]),
    ("substitution", "bench-gate $(ls) -p ai-memory",
     ["gate_command 'bench-gate $(ls) -p ai-memory' uses command substitution, which cannot be checked without "
      "running it"]),
    ("echo", "echo ok", ["gate_command 'echo ok' does not run bench-gate: it is not a record of a gate run"]),
    ("gate-as-an-argument", f"true bench-gate {ART} --profile ai-memory",
     [f"gate_command 'true bench-gate {ART} --profile ai-memory' does not run bench-gate: it is not a record of a "
      "gate run"]),
    ("gate-in-a-shell-string", f"sh -c 'bench-gate {ART} -p ai-memory || true'",
     [f"gate_command \"sh -c 'bench-gate {ART} -p ai-memory || true'\" does not run bench-gate: it is not a record "
      "of a gate run"]),
    ("through-runners", f"uv run python3 -m bench_gate {ART} -p ai-memory", []),
    ("through-env", f"env CI=1 uv run python3 -m bench_gate {ART} -p ai-memory",
     [f"gate_command 'env CI=1 uv run python3 -m bench_gate {ART} -p ai-memory' runs 'env CI=1 uv': env runs the "
      "program with a changed environment, not the project's bench-gate"]),
    ("other-artifact", "bench-gate other.json --profile ai-memory",
     [f"gate_command 'bench-gate other.json --profile ai-memory' does not gate artifact_path '{ART}'"]),
    ("suffix-is-not-the-file", f"bench-gate old_{ART} --profile ai-memory",
     [f"gate_command 'bench-gate old_{ART} --profile ai-memory' does not gate artifact_path '{ART}'"]),
    ("other-profile", f"bench-gate {ART} --profile longmemeval-retrieval",
     [f"gate_command 'bench-gate {ART} --profile longmemeval-retrieval' runs profile 'longmemeval-retrieval', not "
      "the declared gate_profile 'ai-memory'"]),
    ("weakened", f"bench-gate {ART} -p ai-memory --set slice_min={{}} --waivers w.yaml",
     [f"gate_command 'bench-gate {ART} -p ai-memory --set slice_min={{}} --waivers w.yaml' passes --set, --waivers, "
      "which can change what the gate checks"]),
    ("unreadable", f"bench-gate '{ART} -p ai-memory",
     [f"gate_command \"bench-gate '{ART} -p ai-memory\" cannot be read as a shell command (No closing quotation)"]),
    ("empty", "", ["gate_command is '', not a command"]),
]


@pytest.mark.parametrize("text,expected", [r[1:] for r in GATES], ids=[r[0] for r in GATES])
def test_gate_command(text: str, expected: list[str]) -> None:
    assert gate_command_problems(text, "ai-memory", ART, read(text)) == expected


def read(text: object) -> dict[str, object]:
    """What ``bench-gate ledger`` hands the check kinds: each recorded command as the command line reads it."""
    return {text: read_runs(text, read_command)} if isinstance(text, str) and text.strip() else {}


def test_an_unread_command_proves_nothing() -> None:
    assert gate_command_problems(f"bench-gate {ART} -p ai-memory", "ai-memory", ART) == [
        f"gate_command 'bench-gate {ART} -p ai-memory' {READER_MISSING}"]


VERIFICATIONS = [
    ("real", REAL_VERIFY, []),
    ("shasum", f"gh run download 26304777971 -R hyperb1iss/sibyl && shasum -a 256 {ART}", []),
    ("openssl", f"gh run download 26304777971 --repo=hyperb1iss/sibyl && openssl dgst -sha256 d/{ART}", []),
    ("true", "true",
     [f"verification_command 'true' does not compute the SHA-256 of artifact_path '{ART}' (sha256sum, shasum -a 256 "
      "or openssl dgst -sha256)",
      "verification_command 'true' does not download run 26304777971 of hyperb1iss/sibyl (gh run download "
      "26304777971 --repo hyperb1iss/sibyl)"]),
    ("sha1", f"gh run download 26304777971 --repo hyperb1iss/sibyl && shasum {ART}",
     [f"verification_command 'gh run download 26304777971 --repo hyperb1iss/sibyl && shasum {ART}' does not compute "
      f"the SHA-256 of artifact_path '{ART}' (sha256sum, shasum -a 256 or openssl dgst -sha256)"]),
    ("other-run", f"gh run download 1 --repo hyperb1iss/sibyl && sha256sum {ART}",
     [f"verification_command 'gh run download 1 --repo hyperb1iss/sibyl && sha256sum {ART}' does not download run "
      "26304777971 of hyperb1iss/sibyl (gh run download 26304777971 --repo hyperb1iss/sibyl)"]),
    ("or-true", f"gh run download 26304777971 --repo hyperb1iss/sibyl && sha256sum {ART} || true",
     [f"verification_command 'gh run download 26304777971 --repo hyperb1iss/sibyl && sha256sum {ART} || true' uses "
      "'||': it runs another command when it fails, so the chain succeeds whatever it reports"]),
]


@pytest.mark.parametrize("text,expected", [r[1:] for r in VERIFICATIONS], ids=[r[0] for r in VERIFICATIONS])
def test_verification_command(text: str, expected: list[str]) -> None:
    assert verification_command_problems(text, ART, "github-actions", "26304777971", "hyperb1iss/sibyl") == expected


HISTORY = [
    ("real", "moon run bench-gate", []),
    ("ledger-run", "bench-gate ledger manifest.json", []),
    ("ledger-run-other-profile", "bench-gate ledger manifest.json --profile ai-memory",
     ["gate_command 'bench-gate ledger manifest.json --profile ai-memory' gates the ledger with profile 'ai-memory', "
      "not the built-in ledger profile that gates each artifact with its own"]),
    ("or-true", "moon run bench-gate || true",
     ["gate_command 'moon run bench-gate || true' uses '||': it runs another command when it fails, so the chain "
      "succeeds whatever it reports"]),
    ("not-a-gate", "make bench",
     ["gate_command 'make bench' does not run bench-gate: it is not a record of a gate run"]),
    ("other-profile", "bench-gate a.json -p longmemeval-retrieval",
     ["gate_command 'bench-gate a.json -p longmemeval-retrieval' runs profile 'longmemeval-retrieval', not the "
      "summary's profile 'ai-memory'"]),
]


@pytest.mark.parametrize("text,expected", [r[1:] for r in HISTORY], ids=[r[0] for r in HISTORY])
def test_history_gate_command(text: str, expected: list[str]) -> None:
    assert history_gate_command_problems(text, "ai-memory", read(text)) == expected


@pytest.mark.parametrize("token,path,names", [
    ("a.json", "a.json", True), ("./a.json", "a.json", True), ("/tmp/x/a.json", "a.json", True),
    ("xa.json", "a.json", False), ("/tmp/x/a.json", "x/a.json", True), ("b/a.json", "c/a.json", False)])
def test_names_path(token: str, path: str, names: bool) -> None:
    assert names_path(token, path) is names


LIMITS = [["recall@5", ">=", 0.75], ["ndcg@5", ">=", 0.70]]
OVERALL = {"recall@5": 0.9696333333333333, "ndcg@5": 0.9462810537817574}
RECEIPTS = [
    ("profile-thresholds", "Gate passed; recall@5 0.9696 >= 0.7500; ndcg@5 0.9463 >= 0.7000", []),
    ("stricter", "Gate passed; recall@5 0.9696 >= 0.9000; ndcg@5 0.9463 > 0.7000", []),
    ("lowered", "Gate passed; recall@5 0.9696 >= 0.1; ndcg@5 0.9463 >= 0.7000",
     ["gate_receipt checks recall@5 >= 0.1, weaker than ai-memory's >= 0.75: the receipt is not of a gate run of "
      "ai-memory"]),
    ("left-out", "Gate passed; recall@5 0.9696 >= 0.7500",
     ["gate_receipt does not record ai-memory's threshold ndcg@5 >= 0.7: the receipt is not of a gate run of "
      "ai-memory"]),
    ("wrong-direction", "Gate passed; recall@5 0.9696 <= 1.0; ndcg@5 0.9463 >= 0.7000",
     ["gate_receipt checks recall@5 <= 1, weaker than ai-memory's >= 0.75: the receipt is not of a gate run of "
      "ai-memory"]),
]


@pytest.mark.parametrize("text,expected", [r[1:] for r in RECEIPTS], ids=[r[0] for r in RECEIPTS])
def test_gate_receipt_thresholds_are_the_profiles(text: str, expected: list[str]) -> None:
    assert check_gate_receipt(text, OVERALL, LIMITS, "ai-memory") == expected
