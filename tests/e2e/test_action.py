"""The GitHub Action (action.yml) and the pre-commit hook (.pre-commit-hooks.yaml), run locally.

The Action's ``run`` steps are executed the way a runner executes them (``bash --noprofile
--norc -eo pipefail SCRIPT``, inputs through the step's ``env``, ``GITHUB_OUTPUT`` and
``GITHUB_STEP_SUMMARY`` files), after its install step has installed bench-gate from this
checkout into a fresh virtual environment. Only the ``actions/setup-python`` step is not run: the
fresh environment stands in for it. It is made from the interpreter running the tests and sees
that interpreter's installed packages, so the install step's ``pip install`` builds and installs
bench-gate from the checkout but downloads none of its dependencies again.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from repo import ROOT

EXAMPLE = ROOT / "examples" / "longmemeval_sibyl_hybrid_rc1_20260610.json"
NOW = "2026-06-20T00:00:00Z"
ACTION: dict[str, Any] = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
HOOKS: list[dict[str, Any]] = yaml.safe_load(
    (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
)
_EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def _step(name: str) -> dict[str, Any]:
    return next(s for s in ACTION["runs"]["steps"] if s.get("name") == name)


# --- the files themselves --------------------------------------------------------------------


def test_action_declares_the_documented_interface() -> None:
    assert ACTION["runs"]["using"] == "composite"
    assert list(ACTION["inputs"]) == [
        "reports",
        "profile",
        "args",
        "sarif-output",
        "python-version",
    ]
    assert [k for k, v in ACTION["inputs"].items() if v.get("required")] == ["reports", "profile"]
    assert ACTION["inputs"]["python-version"]["default"] == "3.11"
    assert list(ACTION["outputs"]) == ["exit-code", "sarif-file"]
    assert [s["name"] for s in ACTION["runs"]["steps"]] == [
        "Set up Python",
        "Install bench-gate",
        "Run bench-gate",
    ]


def test_action_never_pastes_inputs_into_scripts() -> None:
    # An expression inside `run` would be pasted into the script text before bash sees it:
    # a report name like `$(curl ...)` would then run. Inputs must arrive through `env`.
    for step in ACTION["runs"]["steps"]:
        if "run" in step:
            assert _EXPR.findall(step["run"]) == [], step["name"]
            assert step["shell"] == "bash"
        for value in step.get("env", {}).values():
            assert all(e.startswith("inputs.") for e in _EXPR.findall(str(value)))


def test_pre_commit_hook_definition() -> None:
    assert HOOKS == [
        {
            "id": "bench-gate",
            "name": "bench-gate",
            "description": "Gate benchmark report JSON files against a bench-gate profile "
            "(pass --profile in args).",
            "entry": "bench-gate",
            "language": "python",
            "files": r"(^|/)(reports?/.+|[^/]*report[^/]*)\.json$",
            "types": ["json"],
            "pass_filenames": True,
            "require_serial": True,
            "minimum_pre_commit_version": "2.9.0",
        }
    ]


@pytest.mark.parametrize(
    ("path", "matched"),
    [
        pytest.param("reports/run-1.json", True, id="under-reports"),
        pytest.param("bench/report/latest.json", True, id="under-report"),
        pytest.param("results/longmem_report_v2.json", True, id="report-in-name"),
        pytest.param("report.json", True, id="top-level"),
        pytest.param("package.json", False, id="other-json"),
        pytest.param("reports/notes.md", False, id="not-json"),
        pytest.param("src/reportage/config.yaml", False, id="yaml"),
    ],
)
def test_pre_commit_hook_files_pattern(path: str, matched: bool) -> None:
    assert bool(re.search(HOOKS[0]["files"], path)) is matched


# --- running them ----------------------------------------------------------------------------


@pytest.fixture(scope="session")
def venv_bin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh environment where the Action's install step installed bench-gate: made once per
    test run, also when the run is split over worker processes (the first one makes it, under a
    lock, the others use it)."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the run's folder, above each worker's own
    venv = shared / "action-venv"
    with _locked(shared / "action-venv.lock"):
        if not (venv / "installed").exists():
            _install(venv)
            (venv / "installed").write_text("", encoding="utf-8")
    return venv / ("Scripts" if os.name == "nt" else "bin")


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    try:
        import fcntl
    except ImportError:  # no POSIX locks: each worker makes its own environment
        yield
        return
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _install(venv: Path) -> None:
    if venv.exists():
        shutil.rmtree(venv)  # a worker that failed half-way
    made = subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)],
                          capture_output=True, text=True, check=False)
    assert made.returncode == 0, made.stderr
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    # the packages of the running interpreter (pip and bench-gate's dependencies), after the
    # fresh environment's own: what the install step installs there comes first
    purelib = subprocess.run([str(bin_dir / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    outer = [p for p in sys.path if p.endswith("-packages") and Path(p).is_dir()]
    (Path(purelib) / "outer-packages.pth").write_text("\n".join(outer) + "\n", encoding="utf-8")
    work = venv.parent / "action-install"
    work.mkdir(exist_ok=True)
    done = _run_script(_step("Install bench-gate"), {}, bin_dir, ROOT, work)
    assert done.returncode == 0, done.stderr
    assert (bin_dir / "bench-gate").exists()
    # what runs is the checkout's code, installed into the fresh environment by the step
    installed = Path(purelib) / "bench_gate"
    source = ROOT / "src" / "bench_gate"
    assert {p.relative_to(installed).as_posix(): p.read_bytes() for p in installed.rglob("*.py")} == \
        {p.relative_to(source).as_posix(): p.read_bytes() for p in source.rglob("*.py")}


def _env(bin_dir: Path, tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "BENCH_GATE_"))}
    env.pop("CI", None)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(bin_dir.parent)
    env["GITHUB_ACTION_PATH"] = str(ROOT)
    env["RUNNER_TEMP"] = str(tmp)
    env["NO_COLOR"] = "1"
    return env


def _run_script(
    step: dict[str, Any], inputs: dict[str, str], bin_dir: Path, cwd: Path, tmp: Path,
    extra_env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    values = {k: str(v.get("default", "")) for k, v in ACTION["inputs"].items()} | inputs
    env = _env(bin_dir, tmp) | (extra_env or {})
    for key, value in step.get("env", {}).items():
        env[key] = _EXPR.sub(lambda m: values[m.group(1).removeprefix("inputs.")], str(value))
    script = tmp / "step.sh"
    script.write_text(step["run"], encoding="utf-8")
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False,
    )


@dataclass
class ActionRun:
    rc: int
    stdout: str
    stderr: str
    summary: str
    outputs: dict[str, str]


@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[Path]:
    """A checkout with a passing report and a report whose claimed recall@5 is inflated."""
    ws = tmp_path / "ws"
    (ws / "reports").mkdir(parents=True)
    shutil.copyfile(EXAMPLE, ws / "reports" / "good.json")
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["overall"]["recall@5"] = 0.99
    (ws / "reports" / "bad.json").write_text(json.dumps(data), encoding="utf-8")
    yield ws


def run_action(
    bin_dir: Path, ws: Path, env: dict[str, str] | None = None, **inputs: str
) -> ActionRun:
    tmp = ws.parent / "runner"
    tmp.mkdir(exist_ok=True)
    summary, outputs = tmp / "summary.md", tmp / "output.txt"
    summary.write_text("", encoding="utf-8")
    outputs.write_text("", encoding="utf-8")
    done = _run_script(
        _step("Run bench-gate"),
        {k.replace("_", "-"): v for k, v in inputs.items()},
        bin_dir, ws, tmp,
        {"GITHUB_STEP_SUMMARY": str(summary), "GITHUB_OUTPUT": str(outputs)} | (env or {}),
    )
    pairs = [line.split("=", 1) for line in outputs.read_text(encoding="utf-8").splitlines()]
    return ActionRun(
        done.returncode, done.stdout, done.stderr, summary.read_text(encoding="utf-8"),
        dict((k, v) for k, v in pairs),
    )


def cli(bin_dir: Path, ws: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(bin_dir / "bench-gate"), *args], cwd=ws, env=_env(bin_dir, ws.parent),
        capture_output=True, text=True, timeout=300, check=False,
    )


def test_action_passing_report_writes_summary_and_sarif(venv_bin: Path, workspace: Path) -> None:
    run = run_action(
        venv_bin, workspace, reports="reports/good.json", profile="ai-memory",
        args=f"--now {NOW}", sarif_output="out/bench-gate.sarif",
    )
    assert (run.rc, run.outputs) == (0, {"exit-code": "0", "sarif-file": "out/bench-gate.sarif"})
    # Exactly what the command line gives for the same arguments, format by format.
    same = ("reports/good.json", "--profile", "ai-memory", "--now", NOW, "--format")
    assert run.stdout == cli(venv_bin, workspace, *same, "github").stdout
    assert run.summary == cli(venv_bin, workspace, *same, "markdown").stdout
    sarif = (workspace / "out" / "bench-gate.sarif").read_text(encoding="utf-8")
    assert sarif == cli(venv_bin, workspace, *same, "sarif").stdout
    assert run.summary.startswith("## ✅ bench-gate PASS\n")
    assert run.stdout.splitlines()[-1].startswith(
        "bench-gate PASS: profile ai-memory, report reports/good.json: 0 failed, 23 passed"
    )


def test_action_failing_report_fails_the_step(venv_bin: Path, workspace: Path) -> None:
    run = run_action(
        venv_bin, workspace, reports="reports/bad.json", profile="ai-memory", args=f"--now {NOW}"
    )
    assert (run.rc, run.outputs) == (1, {"exit-code": "1", "sarif-file": ""})
    annotations = [line for line in run.stdout.splitlines() if line.startswith("::")]
    assert annotations and all(
        line.startswith("::error file=reports/bad.json,") for line in annotations
    )
    assert any(",title=metrics-recompute::" in line for line in annotations)
    # the failing value's line and column in the report, for the annotation to sit on
    assert re.search(r"^::error file=reports/bad\.json,line=\d+,col=\d+,title=metrics-recompute::",
                     "\n".join(annotations), re.M)
    assert run.summary.startswith("## ❌ bench-gate FAIL\n")
    assert "| `metrics-recompute` | **fail (error)** |" in run.summary


def test_action_expands_globs_and_judges_every_report(venv_bin: Path, workspace: Path) -> None:
    run = run_action(
        venv_bin, workspace, reports="reports/*.json\n", profile="ai-memory", args=f"--now {NOW}"
    )
    assert run.rc == 1
    headings = [line for line in run.summary.splitlines() if line.startswith("#")]
    assert headings == [
        "## ❌ bench-gate FAIL: 1 of 2 reports failed",
        "### ❌ FAIL: `reports/bad.json`",
        "### ✅ PASS: `reports/good.json`",
    ]


def test_action_cuts_an_oversized_summary_at_a_line(venv_bin: Path, workspace: Path) -> None:
    inputs = {"reports": "reports/bad.json", "profile": "ai-memory", "args": f"--now {NOW}"}
    full = run_action(venv_bin, workspace, **inputs).summary
    cut = run_action(venv_bin, workspace, {"BENCH_GATE_SUMMARY_LIMIT": "2000"}, **inputs)
    assert cut.rc == 1
    kept, note = cut.summary.rsplit("\n\n", 1)
    assert note == (
        "**Summary cut at 2000 bytes: the annotations in the step log list every failing rule.**\n"
    )
    assert len(kept.encode("utf-8")) <= 2000 and full.startswith(kept + "\n")
    assert kept.startswith("## ❌ bench-gate FAIL\n")


@pytest.mark.parametrize(
    ("inputs", "stdout", "stderr_has"),
    [
        pytest.param(
            {"reports": "reports/good.json", "profile": "no-such-profile"},
            "",
            "no-such-profile",
            id="unknown-profile",
        ),
        pytest.param(
            {"reports": "reports/missing-*.json", "profile": "ai-memory"},
            "",
            "reports/missing-*.json",
            id="glob-matching-nothing-is-not-judged-as-nothing",
        ),
        pytest.param(
            {"reports": " \n ", "profile": "ai-memory"},
            "::error title=bench-gate::the 'reports' input names no file\n",
            "",
            id="no-reports",
        ),
        pytest.param(
            {"reports": "reports/good.json", "profile": "ai-memory", "args": "--now '2026"},
            "::error title=bench-gate::the 'args' input cannot be split into words "
            "(unbalanced quote?)\n",
            "",
            id="unbalanced-quote-in-args",
        ),
    ],
)
def test_action_cannot_evaluate_exits_2(
    venv_bin: Path, workspace: Path, inputs: dict[str, str], stdout: str, stderr_has: str
) -> None:
    run = run_action(venv_bin, workspace, **inputs)
    assert (run.rc, run.outputs["exit-code"]) == (2, "2")
    assert run.stdout == stdout
    assert stderr_has in run.stderr
    if not stdout:  # the gate itself ran and said why on stderr; the summary points there
        assert run.summary == (
            "## bench-gate could not evaluate (exit 2)\n\nSee the step log for the reason.\n"
        )


def test_action_args_are_words_not_shell_code(venv_bin: Path, workspace: Path) -> None:
    run = run_action(
        venv_bin, workspace, reports="reports/good.json", profile="ai-memory",
        args=f'--now "{NOW}" `touch pwned2` --set "x=$(touch pwned)"',
    )
    assert not (workspace / "pwned").exists() and not (workspace / "pwned2").exists()
    # The words reached bench-gate as text: the backquoted ones as report names, the $(...) as
    # the value of --set x, whose unknown name stops the run.
    assert run.rc == 2
    assert run.stderr.startswith("bench-gate: error: --set x: profile ai-memory declares no parameter 'x'")


def test_pre_commit_hook_runs_like_pre_commit(venv_bin: Path, workspace: Path) -> None:
    hook = HOOKS[0]
    files = ["reports/bad.json", "reports/good.json"]
    argv = [*shlex.split(hook["entry"]), "--profile", "ai-memory", "--now", NOW, *files]
    done = cli(venv_bin, workspace, *argv[1:])
    assert done.returncode == 1
    assert done.stdout.splitlines()[-2:] == [
        "bench-gate: 2 reports, 1 failed, 1 passed",
        "  FAIL  reports/bad.json: metrics-recompute, metrics-consistent",
    ]
    without_profile = cli(venv_bin, workspace, *files)
    assert without_profile.returncode == 2
    assert "--profile is required" in without_profile.stderr
