"""A recorded gate command is accepted only when bench-gate would run it as that gate.

The ledger gate reads each recorded ``gate_command`` with the command line's own parser
(:func:`bench_gate.cli.reading.read_command`) and hands the reading to the check kinds. A
command that runs something else under the gate's name, or that bench-gate itself would refuse
or run differently, is no record of a gate run.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench_gate.checks.ledger.recorded import gate_command_problems, history_gate_command_problems, read_runs
from bench_gate.cli.commands import read_command
from golden import case, materialise, run_main

ART = "longmemeval_live_full.json"


def problems(text: str) -> list[str]:
    return gate_command_problems(text, "ai-memory", ART, {text: read_runs(text, read_command)})


NOT_THE_GATE = {
    "environment-prefix": (f"PYTHONPATH=/tmp/evil bench-gate {ART} --profile ai-memory", "sets PYTHONPATH"),
    "path-prefix": (f"PATH=/tmp/evil:$PATH bench-gate {ART} -p ai-memory", "sets PATH"),
    "profile-twice": (f"bench-gate {ART} --profile ai-memory --profile ai-memory",
                      "is not a run bench-gate would make: --profile given more than once"),
    "profile-twice-spelt-otherwise": (f"bench-gate {ART} -p ai-memory --profile=ai-memory",
                                      "--profile given more than once"),
    "local-file": (f"./bench-gate {ART} --profile ai-memory", "a file named by its path"),
    "absolute-file": (f"/tmp/evil/bench-gate {ART} --profile ai-memory", "a file named by its path"),
    "npx": (f"npx bench-gate {ART} --profile ai-memory", "npx fetches and runs a package"),
    "pipx": (f"pipx run bench-gate {ART} --profile ai-memory", "pipx fetches and runs a package"),
    "uvx": (f"uvx bench-gate {ART} --profile ai-memory", "uvx fetches and runs a package"),
    "env": (f"env bench-gate {ART} --profile ai-memory", "env runs the program with a changed environment"),
    "runner-option": (f"uv run --with evil bench-gate {ART} -p ai-memory", "with no option in between"),
    "interpreter-option": (f"python3 -I -m bench_gate {ART} -p ai-memory", "with no interpreter option"),
    "output-over-the-artifact": (f"bench-gate {ART} --profile ai-memory --format json --output {ART}",
                                 "writes its verdict over artifact_path (--output"),
    "output-file-over-the-artifact": (f"bench-gate {ART} -p ai-memory --output-file json=dl/{ART}",
                                      "writes its verdict over artifact_path (--output-file"),
    "export-before": (f"export PYTHONPATH=/tmp/evil && bench-gate {ART} -p ai-memory", "also runs 'export"),
    "install-before": (f"pip install evil && bench-gate {ART} -p ai-memory", "also runs 'pip install evil'"),
    "another-command": ("bench-gate explain ai-memory", "runs `bench-gate explain`, not the gate"),
    "help": (f"bench-gate {ART} -p ai-memory --help", "asks for help or the version"),
    "abbreviated-option": (f"bench-gate {ART} --prof ai-memory", "is not a run bench-gate would make"),
    "unknown-option": (f"bench-gate {ART} -p ai-memory --no-recompute", "is not a run bench-gate would make"),
    "lowered-minimum": (f"bench-gate {ART} -p ai-memory --min-metric recall@5=0.1", "passes --min-metric"),
    "profile-file": (f"bench-gate {ART} -p ./ai-memory.yaml", "is not a built-in profile"),
    "moon-argument-to-moon": (f"moon run bench-gate {ART} -p ai-memory", "passes"),
}


@pytest.mark.parametrize("name", sorted(NOT_THE_GATE))
def test_a_command_that_is_not_the_gate_run_is_refused(name: str) -> None:
    text, why = NOT_THE_GATE[name]
    found = problems(text)
    assert found and any(why in p for p in found), found


# The shell hands bench-gate other words than the record shows: each of these would run the gate
# with --fail-on never (or whatever the variable, the pattern or the braces hold).
EXPANDED = {
    "comment-mid-word": (f"bench-gate {ART} -p ai-memory x#y --fail-on never", "'#' outside quotes"),
    "variable": (f"bench-gate {ART} -p ai-memory $GATE_FLAGS", "'$' outside quotes"),
    "variable-default": (f"bench-gate {ART} -p ai-memory ${{X:---fail-on}} never", "'$' outside quotes"),
    "ansi-c-string": (f"bench-gate {ART} -p ai-memory $'--fail-on' never", "'$' outside quotes"),
    "variable-in-double-quotes": (f'bench-gate {ART} -p ai-memory "$FLAGS"', "'$' inside double quotes"),
    "braces": (f"bench-gate {ART} -p ai-memory {{--fail-on,never}}", "brace expansion"),
    "brace-range": (f"bench-gate {ART} -p ai-memory x{{1..2}}", "brace expansion"),
    "pattern": (f"bench-gate {ART} -p ai-memory *", "'*' outside quotes"),
    "home": (f"bench-gate {ART} -p ai-memory ~/--fail-on", "'~' outside quotes"),
}


@pytest.mark.parametrize("name", sorted(EXPANDED))
def test_a_command_the_shell_would_expand_is_refused(name: str) -> None:
    text, why = EXPANDED[name]
    found = problems(text)
    assert any(why in p for p in found), found


@pytest.mark.parametrize("text", [f"bench-gate {ART} -p ai-memory '$X' '{{a,b}}' 'x#y' '*'",
                                  f"bench-gate {ART} -p ai-memory --set slice_min={{}} --now 2026-07-01T00:00:00Z"])
def test_quoted_or_literal_characters_are_read_as_written(text: str) -> None:
    assert not any("the shell" in p for p in problems(text)), problems(text)


@pytest.mark.parametrize("tail", ["-- --fail-on never", "\u2014fail-on never", "other.json"])
def test_every_report_of_a_gate_run_is_the_artifact(tail: str) -> None:
    """Words bench-gate reads as reports (after --, or an option written with a dash that is not
    two hyphens) are no options: the run gates files that are not there, and cannot pass."""
    tail = tail.encode().decode("unicode_escape")
    found = problems(f"bench-gate {ART} -p ai-memory {tail}")
    assert any("as report" in p and "gates only that file" in p for p in found), found


def test_an_output_file_over_the_artifact_in_other_letter_case_is_refused() -> None:
    found = problems(f"bench-gate {ART} -p ai-memory --output {ART.upper()}")
    assert any("writes its verdict over artifact_path" in p for p in found), found


RUNS = [
    f"bench-gate {ART} --profile ai-memory",
    f"bench-gate {ART} --profile=ai-memory --format json --output verdict.json",
    f"bench-gate /tmp/run/{ART} -p ai-memory --require-qa --now 2026-07-01T00:00:00Z",
    f"uv run bench-gate {ART} -p ai-memory",
    f"python3 -m bench_gate {ART} -p ai-memory",
    f"moon run bench-gate -- /tmp/x/{ART} --profile ai-memory",
    f"moon run sibyl:bench-gate -- {ART} --profile ai-memory --citable",
]


@pytest.mark.parametrize("text", RUNS)
def test_a_gate_run_is_accepted(text: str) -> None:
    assert problems(text) == []


def test_history_commands_are_read_the_same_way() -> None:
    def history(text: str) -> list[str]:
        return history_gate_command_problems(text, "ai-memory", {text: read_runs(text, read_command)})

    assert history("moon run bench-gate") == []
    assert history("bench-gate ledger benchmarks/manifest.json --external-profile product") == []
    assert history("PYTHONPATH=/tmp/evil moon run bench-gate")[0].endswith(
        "so it is not the project's bench-gate that is recorded")
    assert "--profile given more than once" in history("bench-gate a.json -p ai-memory -p ai-memory")[0]
    assert "runs `bench-gate kinds`, which gates nothing" in history("bench-gate kinds")[0]


# --- through `bench-gate ledger` -------------------------------------------------------------


def real_ledger(tmp_path: Path, gate_command: str) -> tuple[int, dict[str, str]]:
    """The real ledger without its two failing entries (it passes), with its live run's
    recorded gate command replaced."""
    work = materialise(case("ledger/real-without-0513"), tmp_path)
    path = work / "benchmarks" / "results" / "ai-memory" / "external" / "longmemeval_sibyl_live_full_26304777971.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["external_artifact"]["gate_command"] = gate_command.replace(ART, data["external_artifact"]["artifact_path"])
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    code, out, err = run_main(["ledger", "benchmarks/results/ai-memory/manifest.json", "--external-profile", "product"],
                              "2026-07-04T00:00:00Z", work, "json")
    assert err == ""
    return code, {r["rule"]: r["message"] for r in json.loads(out)["results"] if r["status"] == "fail"}


def test_the_real_recorded_command_passes(tmp_path: Path) -> None:
    code, failing = real_ledger(tmp_path, f"moon run bench-gate -- /tmp/sibyl/{ART} --profile ai-memory")
    assert (code, failing) == (0, {})


@pytest.mark.parametrize("name", ["environment-prefix", "profile-twice", "local-file", "npx",
                                  "output-over-the-artifact"])
def test_the_ledger_fails_a_recorded_command_that_is_not_the_gate_run(tmp_path: Path, name: str) -> None:
    text, why = NOT_THE_GATE[name]
    code, failing = real_ledger(tmp_path, text)
    assert code == 1
    assert why in failing["external-manifest"], failing


@pytest.mark.parametrize("name", ["comment-mid-word", "variable", "braces"])
def test_the_ledger_fails_a_recorded_command_the_shell_would_expand(tmp_path: Path, name: str) -> None:
    text, why = EXPANDED[name]
    code, failing = real_ledger(tmp_path, text)
    assert code == 1
    assert why in failing["external-manifest"], failing
