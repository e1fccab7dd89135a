"""bench-gate performance figures, each measured side by side in one run; writes bench/RESULTS.md.

Run from the repository root, with an interpreter that has bench-gate's runtime dependencies
(typer among them) installed::

    python bench/run.py                # every figure but the test suite's; writes bench/RESULTS.md
    python bench/run.py --suite        # the test suite's wall time as well (several minutes)
    python bench/run.py --before REV   # also measure the tree at git revision REV, side by side
    python bench/run.py --only whole   # one figure (repeatable); prints, writes nothing

The bench-gate measured is this checkout's ``src/`` (``PYTHONPATH`` is set to it, so an
installed copy elsewhere is not what is timed), run through the interpreter's ``bench-gate``
console script, or ``python -m bench_gate`` when there is none. Before anything is timed the
tree is byte-compiled, as an installed package is: without ``__pycache__`` every run would
compile every module again (``PYTHONDONTWRITEBYTECODE`` would keep it so).

The reference
    The practice's own gate is ``tools/bench/eval_gate.py`` of github.com/hyperb1iss/sibyl at
    commit 0279d9e7880c84c7987252fb63667600da32163c. It is not part of this repository (its
    licence has not been checked): put an unchanged copy at ``bench/practice/eval_gate.py``
    (ignored by git); without it the figures that need it are skipped with a note. The practice
    runs it as a module, ``python -m tools.bench.eval_gate`` (its ``moon.yml`` task), so Python
    loads its cached bytecode. That is what is timed: ``python -m eval_gate FIXTURE --profile
    ai-memory``, with ``bench/practice`` on the path and the file byte-compiled first. "Gate +
    typer" is the same run with ``import typer`` first (``python -c "import typer, runpy ...;
    runpy.run_module('eval_gate', run_name='__main__', alter_sys=True)"``, cached bytecode too):
    what a typer command line of the same work would pay at least. Running the file as a script
    (``python eval_gate.py ...``) compiles its source on every run; that is shown for reference
    only.

Method
    Whole-process figures: every round runs each command once, in a shuffled order (seeded), after
    one warm-up round; a figure is the median over rounds of the ratio within a round, so a noisy
    neighbour slows both sides of a ratio alike. Wall time, CPU time and peak RSS of each process
    come from ``os.wait4``. In-process figures run in a fresh interpreter (``bench/worker.py``),
    warmed up once, alternating the two sides; again the median of the paired ratios. Synthetic
    inputs are generated, seeded, in a temporary directory deleted afterwards.
"""

from __future__ import annotations

import argparse
import compileall
import hashlib
import json
import os
import platform
import py_compile
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FIXTURE_REL = "examples/longmemeval_sibyl_hybrid_rc1_20260610.json"
FIXTURE = ROOT / FIXTURE_REL
PRACTICE_DIR = ROOT / "bench" / "practice"
PRACTICE = PRACTICE_DIR / "eval_gate.py"
PRACTICE_COMMIT = "0279d9e7880c84c7987252fb63667600da32163c"
PRACTICE_SHA256 = "f67a0d6eb9e00a3b0a38b80348f19691911b7a08111642f2818ad0f6e3a5fb49"  # the file at that commit
PRACTICE_SOURCE = f"tools/bench/eval_gate.py of github.com/hyperb1iss/sibyl at commit {PRACTICE_COMMIT}"
WITH_TYPER = ("import typer, runpy, sys; sys.argv = ['eval_gate', *sys.argv[1:]]; "
              "runpy.run_module('eval_gate', run_name='__main__', alter_sys=True)")
SEED = 20261129
MIB = 1024 * 1024
SUITE_GOAL_S = 180
FIGURES = ("whole", "evaluation", "large", "hashing", "batch", "claims", "suite")


def median(values: list[float]) -> float:
    return statistics.median(values)


def paired(numerators: list[float], denominators: list[float]) -> float:
    """The median of the ratios run by run (both sides of a ratio ran in the same round)."""
    return median([a / b for a, b in zip(numerators, denominators, strict=True)])


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


# --- synthetic inputs ---------------------------------------------------------------------


def large_report(cases: int, path: Path, seed: int = SEED) -> Path:
    """The fixture with its 500 cases repeated (ids made unique) to ``cases`` cases, shuffled.

    Every case keeps its own metrics, so every aggregate the report claims is still exactly the
    mean over its cases: the gate does all its work, including the recomputation, and passes.
    The copies are no longer LongMemEval-S's questions, so every id is suffixed and the dataset
    block names a dataset of their own (the gate binds official ids and the official hash to the
    official 500 questions).
    """
    base = json.loads(FIXTURE.read_bytes())
    original = base["case_results"]
    if cases % len(original):
        raise ValueError(f"cases must be a multiple of {len(original)}")
    out = []
    for copy in range(cases // len(original)):
        for case in original:
            clone = dict(case)
            clone["question_id"] = f"{case['question_id']}-r{copy}"
            out.append(clone)
    random.Random(seed).shuffle(out)
    base["case_results"] = out
    base["total_questions"] = cases
    base["dataset"] = {**base["dataset"], **_synthetic_dataset(f"repeated-{cases}"),
                       "total_entries": cases, "evaluated_entries": cases}
    path.write_text(json.dumps(base, indent=1), encoding="utf-8")
    return path


def _synthetic_dataset(name: str) -> dict[str, Any]:
    """A dataset block naming a made-up dataset: no official name, path or hash."""
    return {"name": f"bench-{name}", "path": f"bench/{name}.json",
            "corpus_hash": "sha256:" + hashlib.sha256(name.encode()).hexdigest()}


def small_report(cases: int, path: Path, seed: int) -> Path:
    """The fixture cut down to ``cases`` randomly chosen cases, every aggregate recomputed; its
    dataset block declares the subset (``selected_case_indices``), as an honest partial run does."""
    base = json.loads(FIXTURE.read_bytes())
    picked = sorted(random.Random(seed).sample(range(len(base["case_results"])), cases))
    chosen = [base["case_results"][i] for i in picked]
    metrics = list(base["overall"])

    def means(rows: list[dict[str, Any]]) -> dict[str, float]:
        return {m: sum(r[m] for r in rows) / len(rows) for m in metrics}

    base["case_results"] = chosen
    base["overall"] = means(chosen)
    types = sorted({c["question_type"] for c in chosen})
    base["per_type"] = {t: means([c for c in chosen if c["question_type"] == t]) for t in types}
    base["total_questions"] = cases
    base["dataset"] = {**base["dataset"], "evaluated_entries": cases, "selected_case_indices": picked}
    path.write_text(json.dumps(base, indent=1), encoding="utf-8")
    return path


def big_file(path: Path, size: int, seed: int = SEED) -> Path:
    block = random.Random(seed).randbytes(MIB)
    with open(path, "wb") as handle:
        for _ in range(size // MIB):
            handle.write(block)
    return path


# --- trees and processes ------------------------------------------------------------------


class Tree:
    """A bench-gate source tree to measure: this checkout, or a git revision exported to a temp dir."""

    def __init__(self, label: str, src: Path) -> None:
        self.label, self.src = label, src

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(self.src), str(PRACTICE_DIR)])
        return env

    def prepare(self) -> None:
        """Byte-compile the tree, as installing it would, and check that it is what gets imported."""
        compileall.compile_dir(str(self.src), quiet=1)
        proc = subprocess.run([sys.executable, "-c", "import bench_gate; print(bench_gate.__file__)"],
                              capture_output=True, text=True, cwd=ROOT, env=self.env())
        imported = Path(proc.stdout.strip() or "?").resolve()
        if proc.returncode != 0 or not imported.is_relative_to(self.src.resolve()):
            raise RuntimeError(f"{self.label}: bench_gate is imported from {imported}, not from {self.src}: "
                               f"{proc.stderr.strip()[-500:]}")

    def worker(self, figure: str, **args: Any) -> dict[str, Any]:
        proc = subprocess.run([sys.executable, str(ROOT / "bench" / "worker.py"), figure, json.dumps(args)],
                              capture_output=True, text=True, cwd=ROOT, env=self.env())
        if proc.returncode != 0:
            raise RuntimeError(f"{self.label} {figure}: {proc.stderr.strip()[-2000:]}")
        return json.loads(proc.stdout)


def gate_command() -> list[str]:
    """The ``bench-gate`` console script beside this interpreter, or ``python -m bench_gate``."""
    script = Path(sys.executable).parent / "bench-gate"
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [sys.executable, "-m", "bench_gate"]


@dataclass
class Run:
    wall: float
    cpu: float
    peak_kib: int
    code: int


# Starts each command and reaps it with os.wait4. A small process of its own (no site, no
# subprocess module): a child's peak RSS as the kernel reports it is at least its parent's RSS
# when it was spawned, so spawning from this script (some 25 MiB) would hide the reference's peak.
LAUNCHER = r"""
import json, os, sys, time
out = []
for cmd, env in json.load(sys.stdin):
    t = time.perf_counter()
    pid = os.posix_spawn(cmd[0], cmd, env, file_actions=[
        (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
        (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)])
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - t
    out.append([wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, os.waitstatus_to_exitcode(status)])
json.dump(out, sys.stdout)
"""


def run_processes(jobs: list[tuple[list[str], dict[str, str]]]) -> list[Run]:
    """Run the commands one after another: wall time, user + system CPU time, peak RSS, exit code."""
    proc = subprocess.run([sys.executable, "-S", "-c", LAUNCHER], input=json.dumps(jobs), cwd=ROOT,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"the process launcher failed: {proc.stderr.strip()[-1000:]}")
    return [Run(*values) for values in json.loads(proc.stdout)]


def check_once(name: str, cmd: list[str], env: dict[str, str], codes: tuple[int, ...]) -> str:
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    if proc.returncode not in codes:
        raise RuntimeError(f"{name} ({' '.join(cmd)}) exited {proc.returncode}: "
                           f"{(proc.stdout + proc.stderr).strip()[-800:]}")
    return (proc.stdout.strip().splitlines() or [""])[-1]


def current_revision() -> str:
    """The checked-out commit, with "+ changes" when the working tree differs from it."""
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        # what is measured: the package (changes to bench/ itself do not count)
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no",
                                "--", "src", "pyproject.toml"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "this tree"
    return head + (" + changes" if dirty else "")


def export(rev: str, into: Path) -> Path:
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into / "src"


# --- figures ------------------------------------------------------------------------------


@dataclass
class Row:
    name: str
    goal: str  # "<= 1", ">= 0.85", "info"
    values: dict[str, float | None]  # tree label -> figure (None: not measured)
    detail: dict[str, str]
    fmt: str = "{:.2f}"
    note: str = ""  # why it was not measured


@dataclass
class Figures:
    labels: list[str]
    rows: list[Row] = field(default_factory=list)

    def add(self, row: Row) -> None:
        self.rows.append(row)
        shown = "  ".join(f"{label}: {cell(row, label)}" for label in self.labels)
        print(f"{row.name:<46} goal {row.goal:<8} {shown}", flush=True)

    def missing(self, name: str, goal: str, note: str) -> None:
        self.add(Row(name, goal, {}, {}, note=note))


def cell(row: Row, label: str) -> str:
    value = row.values.get(label)
    if value is None:
        return row.note or "not measured"
    detail = row.detail.get(label, "")
    return row.fmt.format(value) + (f" ({detail})" if detail else "")


def status(row: Row, label: str) -> str:
    value = row.values.get(label)
    if row.goal == "info":
        return "information"
    if value is None:
        return "not measured"
    op, bound = row.goal.split(" ", 1)
    limit = float(bound.split()[0])
    met = value <= limit if op == "<=" else value >= limit
    return "**met**" if met else f"**not met** ({value:.3g} {'>' if op == '<=' else '<'} {bound})"


def whole_process(trees: list[Tree], rounds: int, figs: Figures) -> None:
    """bench-gate on the fixture as a whole process, beside the practice's gate run as users run it."""
    gate_args = [FIXTURE_REL, "--profile", "ai-memory"]
    ref_args = [str(FIXTURE), "--profile", "ai-memory"]
    env = trees[-1].env()
    commands: dict[str, tuple[list[str], dict[str, str]]] = {"bare": ([sys.executable, "-c", "pass"], env)}
    have_practice = PRACTICE.is_file()
    if have_practice:
        commands["gate"] = ([sys.executable, "-m", "eval_gate", *ref_args], env)
        commands["gate+typer"] = ([sys.executable, "-c", WITH_TYPER, *ref_args], env)
        commands["script"] = ([sys.executable, str(PRACTICE), *ref_args], env)
        for key in ("gate", "gate+typer"):
            check_once(f"the practice's gate ({key})", *commands[key], codes=(0,))
    for tree in trees:
        commands[tree.label] = (gate_command() + gate_args, tree.env())
        check_once(f"bench-gate ({tree.label})", *commands[tree.label], codes=(0, 1))
    schedule: list[str] = []
    order = list(commands)
    shuffle = random.Random(SEED)
    for _ in range(rounds + 1):
        shuffle.shuffle(order)
        schedule += order
    results = run_processes([commands[key] for key in schedule])
    runs: dict[str, list[Run]] = {key: [] for key in commands}
    for index, (key, result) in enumerate(zip(schedule, results, strict=True)):
        if index >= len(commands):  # the first round warms the page cache and is not counted
            runs[key].append(result)
    bare = median([r.wall for r in runs["bare"]])

    def wall(key: str) -> list[float]:
        return [r.wall for r in runs[key]]

    def cpu(key: str) -> list[float]:
        return [r.cpu for r in runs[key]]

    def peak(key: str) -> float:
        return median([r.peak_kib for r in runs[key]]) / 1024

    for key in runs:
        codes = {r.code for r in runs[key]}
        allowed = {0, 1} if key in figs.labels else {0}  # the reference passes the fixture
        if codes - allowed:
            raise RuntimeError(f"{key} exited {sorted(codes)} in a timed run")
    if not have_practice:
        note = f"skipped: no {PRACTICE.relative_to(ROOT)} ({PRACTICE_SOURCE})"
        figs.missing("whole process / practice gate + typer", "<= 1", note)
        figs.missing("whole process / practice gate (stretch)", "<= 1", note)
    else:
        for key, name in (("gate+typer", "whole process / practice gate + typer"),
                          ("gate", "whole process / practice gate (stretch)")):
            figs.add(Row(name, "<= 1", {t.label: paired(wall(t.label), wall(key)) for t in trees},
                         {t.label: f"{ms(median(wall(t.label)))} vs {ms(median(wall(key)))}; CPU time "
                                   f"{paired(cpu(t.label), cpu(key)):.2f}: {ms(median(cpu(t.label)))} vs "
                                   f"{ms(median(cpu(key)))}; bare python {ms(bare)}"
                          for t in trees}))
        figs.add(Row("practice gate as a script (source compiled each run) / as a module", "info",
                     {t.label: paired(wall("script"), wall("gate")) for t in trees},
                     {t.label: f"{ms(median(wall('script')))} vs {ms(median(wall('gate')))}" for t in trees}))
        figs.add(Row("whole-process peak RSS / practice gate", "info",
                     {t.label: peak(t.label) / peak("gate") for t in trees},
                     {t.label: f"{peak(t.label):.1f} MiB vs {peak('gate'):.1f} MiB; with typer "
                               f"{peak('gate+typer'):.1f} MiB; bare python {peak('bare'):.1f} MiB"
                      for t in trees}))
    for tree in trees:
        figs.add(Row(f"whole process, bench-gate ({tree.label})", "info",
                     {tree.label: median(wall(tree.label)) * 1000},
                     {tree.label: f"bare python {ms(bare)}; entry: {' '.join(Path(c).name for c in gate_command())}"},
                     fmt="{:.0f} ms"))


def evaluation(trees: list[Tree], runs: int, figs: Figures) -> None:
    ev = {t.label: t.worker("evaluate", report=str(FIXTURE), runs=runs) for t in trees}
    figs.add(Row("evaluation / json.loads (in-process, warm)", "<= 3",
                 {k: paired(v["gates"], v["loads"]) for k, v in ev.items()},
                 {k: f"{median(v['gates']) * 1000:.1f} ms vs {median(v['loads']) * 1000:.1f} ms; "
                     f"{v['verdict'].split()[0]}; via {v['entry']}" for k, v in ev.items()}))


def large(trees: list[Tree], runs: int, tmp: Path, figs: Figures) -> None:
    per_case: dict[str, dict[int, float]] = {t.label: {} for t in trees}
    practice = str(PRACTICE) if PRACTICE.is_file() else None
    for cases in (5000, 50000):
        report = large_report(cases, tmp / f"report-{cases}.json")
        size = report.stat().st_size
        res = {t.label: t.worker("evaluate", report=str(report), runs=runs,
                                 practice=practice if t is trees[-1] else None) for t in trees}
        mem = {t.label: t.worker("memory", report=str(report)) for t in trees}
        for k, v in res.items():
            per_case[k][cases] = median(v["gates"]) / cases
        figs.add(Row(f"{cases} cases / json.load", "<= 3" if cases == 50000 else "info",
                     {k: paired(v["gates"], v["loads"]) for k, v in res.items()},
                     {k: f"{median(v['gates']):.2f} s vs {median(v['loads']):.2f} s, {size / MIB:.0f} MiB, "
                         f"{v['verdict'].split()[0]}" for k, v in res.items()}))
        now = res[trees[-1].label]
        if now["practice"]:
            figs.add(Row(f"{cases} cases, practice's evaluate_report / json.load", "info",
                         {trees[-1].label: paired(now["practice"], now["loads"])},
                         {trees[-1].label: f"{median(now['practice']):.2f} s vs {median(now['loads']):.2f} s"}))
        figs.add(Row(f"{cases} cases, peak memory growth / file size", "<= 4" if cases == 50000 else "info",
                     {k: v["growth_bytes"] / size for k, v in mem.items()},
                     {k: f"{v['growth_bytes'] / MIB:.0f} MiB for {size / MIB:.0f} MiB" for k, v in mem.items()}))
        report.unlink()
    figs.add(Row("per-case cost, 50000 / 5000 cases (linearity)", "<= 1.25",
                 {k: v[50000] / v[5000] for k, v in per_case.items()},
                 {k: f"{v[50000] * 1e6:.0f} us vs {v[5000] * 1e6:.0f} us per case" for k, v in per_case.items()}))


def hashing(trees: list[Tree], runs: int, tmp: Path, mib: int, figs: Figures) -> None:
    big = big_file(tmp / "evidence.bin", mib * MIB)
    hs = {t.label: t.worker("hashing", path=str(big), runs=runs) for t in trees}
    hm = {t.label: t.worker("hash_memory", path=str(big)) for t in trees}
    big.unlink()
    figs.add(Row("hashing throughput / hashlib.file_digest", ">= 0.85",
                 {k: paired(v["ref"], v["ours"]) for k, v in hs.items()},
                 {k: f"{mib / median(v['ours']):.0f} MiB/s vs {mib / median(v['ref']):.0f} MiB/s"
                  for k, v in hs.items()}))
    figs.add(Row("hashing peak memory growth (MiB)", "<= 64",
                 {k: v["growth_bytes"] / MIB for k, v in hm.items()},
                 {k: f"{mib} MiB file" for k in hm}, fmt="{:.1f}"))


def batch(trees: list[Tree], runs: int, tmp: Path, count: int, figs: Figures) -> None:
    folder = tmp / "batch"
    folder.mkdir()
    reports = [str(small_report(50, folder / f"report-{i:03d}.json", SEED + i)) for i in range(count)]
    bt = {t.label: t.worker("batch", reports=reports, runs=runs) for t in trees}
    figs.add(Row(f"batch of {count} reports / {count} single gates", "<= 1.1",
                 {k: paired(v["batches"], v["singles"]) for k, v in bt.items()},
                 {k: f"{median(v['batches']):.2f} s vs {median(v['singles']):.2f} s" for k, v in bt.items()}))


def claims(trees: list[Tree], runs: int, figs: Figures) -> None:
    """The claims scan on pages of 20 KB and 200 KB of numbers: seconds, and the cost per character
    of the large page over the small one (a scan linear in the page stays near 1)."""
    small, big = 20_000, 200_000
    got = {t.label: t.worker("claims", sizes=[small, big], runs=runs) for t in trees}
    for shape in ("line", "table", "pairs"):
        figs.add(Row(f"claims scan, 200 KB {shape} / 20 KB {shape}, per character (linearity)", "<= 1.5",
                     {k: (v[f"{shape}:{big}"]["seconds"] / v[f"{shape}:{big}"]["chars"])
                         / (v[f"{shape}:{small}"]["seconds"] / v[f"{shape}:{small}"]["chars"]) for k, v in got.items()},
                     {k: f"{v[f'{shape}:{big}']['seconds']:.1f} s for {v[f'{shape}:{big}']['claims']} claims in 200 KB"
                      for k, v in got.items()}))


def suite(trees: list[Tree], figs: Figures) -> None:
    """``python -m pytest -q`` of this checkout as a subprocess, wall time (one run: it takes minutes)."""
    tree = trees[-1]
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q"], cwd=ROOT,
                          env=tree.env(), capture_output=True, text=True)
    elapsed = time.perf_counter() - t
    summary = next((line.strip("= ") for line in reversed(proc.stdout.splitlines())
                    if re.search(r"\b(passed|failed|error)", line)), f"exit {proc.returncode}")
    if proc.returncode != 0:
        figs.missing("test suite wall time (python -m pytest -q), s", f"<= {SUITE_GOAL_S}",
                     f"the suite did not pass (exit {proc.returncode}: {summary}) after {elapsed:.0f} s")
        return
    figs.add(Row("test suite wall time (python -m pytest -q), s", f"<= {SUITE_GOAL_S}", {tree.label: elapsed},
                 {tree.label: summary}, fmt="{:.0f}"))


# --- report -------------------------------------------------------------------------------


def machine() -> str:
    cpu = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{os.cpu_count()} CPUs ({cpu}), Python {platform.python_version()} "
            f"({platform.python_implementation()}), {platform.system()} {platform.release()}")


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"


def practice_note() -> str:
    if not PRACTICE.is_file():
        return (f"The practice's gate was not measured: {PRACTICE.relative_to(ROOT)} is absent. Put "
                f"{PRACTICE_SOURCE} there (it is ignored by git) and run again.")
    digest = hashlib.sha256(PRACTICE.read_bytes()).hexdigest()
    if digest == PRACTICE_SHA256:
        return f"The practice's gate measured is {PRACTICE_SOURCE}, unchanged (sha256 {digest[:16]}...)."
    return (f"The practice's gate measured is a local file that differs from {PRACTICE_SOURCE} "
            f"(sha256 {digest[:16]}... instead of {PRACTICE_SHA256[:16]}...); its figures are not the reference's.")


def write_results(figs: Figures, args: argparse.Namespace, elapsed: float, loads: tuple[str, str]) -> None:
    now = figs.labels[-1]
    command = "python bench/run.py" + (f" --before {args.before}" if args.before else "") + \
        (" --suite" if args.suite else "")
    goals = [r for r in figs.rows if r.goal != "info"]
    met = [r for r in goals if status(r, now).startswith("**met")]
    missed = [r for r in goals if status(r, now).startswith("**not met")]
    unmeasured = [r for r in goals if status(r, now) == "not measured"]
    lines = [
        "# bench-gate performance figures",
        "",
        f"Written by `{command}` ({elapsed:.0f} s), {time.strftime('%Y-%m-%d')}, on {now}. Every "
        "figure below was measured in that one run; none is carried over from an earlier one.",
        "",
        f"Machine: {machine()}. Load average {loads[0]} at the start, {loads[1]} at the end (the "
        "machine is shared: absolute times move with its load, ratios much less).",
        "",
        f"Runs: {args.rounds} rounds of whole processes, {args.eval_runs} paired runs of the evaluation, "
        f"{args.runs} of the other in-process figures, {args.large_runs} for the large reports; each figure "
        "is the median of the paired ratios.",
        "",
        practice_note(),
        "",
        "## Goals today",
        "",
        f"Met ({len(met)}):",
        "",
        *([f"* {r.name}: {r.fmt.format(r.values[now])} (goal {r.goal})" for r in met] or ["* none"]),
        "",
        f"Not met ({len(missed)}):",
        "",
        *([f"* {r.name}: {r.fmt.format(r.values[now])} (goal {r.goal})" for r in missed] or ["* none"]),
    ]
    if unmeasured:
        lines += ["", f"Not measured in this run ({len(unmeasured)}):", "",
                  *[f"* {r.name} (goal {r.goal}): {r.note or 'not run'}" for r in unmeasured]]
    lines += [
        "",
        "## Figures",
        "",
        "| figure | goal | " + " | ".join(figs.labels) + " | status |",
        "| --- | --- | " + " | ".join("---" for _ in figs.labels) + " | --- |",
    ]
    for row in figs.rows:
        # a row measured for some trees only leaves the others' cells empty
        cells = " | ".join(cell(row, label) if label in row.values or not row.values else ""
                           for label in figs.labels)
        lines.append(f"| {row.name} | {row.goal} | {cells} | {status(row, now)} |")
    lines += ["", "## How the figures are measured", "", METHOD.strip(), ""]
    (ROOT / "bench" / "RESULTS.md").write_text("\n".join(lines), encoding="utf-8")
    print("wrote bench/RESULTS.md")


METHOD = f"""
* **Whole process**: `bench-gate {FIXTURE_REL} --profile ai-memory` (500 cases; the console
  script beside the interpreter, or `python -m bench_gate`), with this checkout's `src/` on
  `PYTHONPATH` and byte-compiled first, as an installed package is. The reference is the
  practice's gate run as the practice runs it, as a module from its cached bytecode: `python -m
  eval_gate FIXTURE --profile ai-memory` (the practice's task runs `python -m
  tools.bench.eval_gate`); "+ typer" is the same with `import typer` first, the least a typer
  command line doing the same work pays. The goal is bench-gate <= 1.0 x the gate + typer; the
  stretch is <= 1.0 x the gate alone. The same file run as a script (`python eval_gate.py`,
  source compiled on every run) is shown for comparison only. Every round runs every command once
  in a shuffled order after a warm-up round; the figure is the median of the per-round ratios of
  wall times; CPU times and peak RSS come from `os.wait4` (the commands are started by a small
  launcher process, about 10 MiB, because a child's reported peak is at least its parent's size).
* **Evaluation / json.loads**: in a fresh interpreter, warmed up once: a full gate of the
  fixture (read, strict parse, hash, every rule including the metric recomputation; the
  profile compiled once, outside the timing) against `json.loads` of the same file's bytes,
  reading included, alternating.
* **5000 / 50000 cases**: the fixture's cases repeated (ids made unique) and shuffled, every
  claimed aggregate still exact, so the gate does all its work and passes; the same pairing
  (`json.load` here is, as above, `json.loads` of the bytes with the reading).
  Linearity is the per-case cost at 50000 over that at 5000. Peak memory growth is the rise of
  the process's resident high-water mark (VmHWM) during one gate, over the file's size. The
  practice's own `evaluate_report` on the same file is shown for comparison. The case ids are
  unique but the session ids repeat, as they do across a benchmark's questions: the 50000-case
  file (74 MiB) is over the 16 Mi characters from which the reader shares equal strings, and its
  memory figure depends on that; the 5000-case file is under it.
* **Hashing**: `confined.hash_file` of a 512 MiB file against `hashlib.file_digest`.
* **Batch**: one call gating 200 generated 50-case reports (text output) against 200 in-process
  gates with the profile compiled once.
* **Test suite**: `python -m pytest -q` of this checkout as one subprocess, wall time, only with
  `--suite` (it takes minutes); the goal is at most {SUITE_GOAL_S} s on this 2-CPU machine.
"""


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--before", metavar="REV", help="also measure the tree at this git revision")
    p.add_argument("--rounds", type=int, default=15, help="whole-process rounds (at least 5)")
    p.add_argument("--runs", type=int, default=9, help="paired in-process runs (at least 5)")
    p.add_argument("--eval-runs", type=int, default=31,
                   help="paired runs of the evaluation figure (at least 5): a run takes milliseconds, and "
                        "the figure sits near its goal, where a few runs on a shared machine decide nothing")
    p.add_argument("--large-runs", type=int, default=5, help="paired runs on the large reports (at least 3)")
    p.add_argument("--hash-mib", type=int, default=512, help="size of the hashed file (MiB)")
    p.add_argument("--batch", type=int, default=200, help="reports in the batch figure")
    p.add_argument("--suite", action="store_true", help="also time the whole test suite (several minutes)")
    p.add_argument("--only", choices=FIGURES, action="append",
                   help="run only this figure (repeatable); implies --no-write")
    p.add_argument("--no-write", action="store_true", help="print only; do not write bench/RESULTS.md")
    ns = p.parse_args()
    ns.rounds, ns.runs, ns.large_runs = max(5, ns.rounds), max(5, ns.runs), max(3, ns.large_runs)
    ns.eval_runs = max(5, ns.eval_runs)
    wanted = set(ns.only or FIGURES)
    if ns.only:
        ns.no_write = True
    if not ns.suite and not (ns.only and "suite" in ns.only):
        wanted.discard("suite")
    if not PRACTICE.is_file():
        sys.stderr.write(f"the practice's gate is absent; its figures are skipped: put {PRACTICE_SOURCE} "
                         f"at {PRACTICE}\n")
    elif hashlib.sha256(PRACTICE.read_bytes()).hexdigest() != PRACTICE_SHA256:
        sys.stderr.write(f"warning: {PRACTICE} is not the file of {PRACTICE_SOURCE}\n")
    if PRACTICE.is_file():
        py_compile.compile(str(PRACTICE), doraise=True)  # its cached bytecode, as `python -m` leaves it
    started = time.time()
    load_start = load()
    tmp = Path(tempfile.mkdtemp(prefix="bench-gate-"))
    try:
        trees = [Tree(current_revision(), ROOT / "src")]
        if ns.before:
            trees.insert(0, Tree(f"before ({ns.before})", export(ns.before, tmp / "before")))
        for tree in trees:
            tree.prepare()
        figs = Figures([t.label for t in trees])
        print(f"machine: {machine()}; load {load_start}\n", flush=True)
        steps: list[tuple[str, list[tuple[str, str]], Callable[[], None]]] = [
            ("whole", [("whole process / practice gate + typer", "<= 1"),
                       ("whole process / practice gate (stretch)", "<= 1")],
             lambda: whole_process(trees, ns.rounds, figs)),
            ("evaluation", [("evaluation / json.loads (in-process, warm)", "<= 3")],
             lambda: evaluation(trees, ns.eval_runs, figs)),
            ("large", [("50000 cases / json.load", "<= 3")], lambda: large(trees, ns.large_runs, tmp, figs)),
            ("hashing", [("hashing throughput / hashlib.file_digest", ">= 0.85")],
             lambda: hashing(trees, ns.runs, tmp, ns.hash_mib, figs)),
            ("batch", [(f"batch of {ns.batch} reports / {ns.batch} single gates", "<= 1.1")],
             lambda: batch(trees, min(ns.runs, 5), tmp, ns.batch, figs)),
            ("claims", [("claims scan, 200 KB line / 20 KB line, per character (linearity)", "<= 1.5"),
                        ("claims scan, 200 KB table / 20 KB table, per character (linearity)", "<= 1.5"),
                        ("claims scan, 200 KB pairs / 20 KB pairs, per character (linearity)", "<= 1.5")],
             lambda: claims(trees, 3, figs)),
            ("suite", [("test suite wall time (python -m pytest -q), s", f"<= {SUITE_GOAL_S}")],
             lambda: suite(trees, figs)),
        ]
        for name, goals, step in steps:
            if name not in wanted:
                if name == "suite" and not ns.only:
                    figs.missing(goals[0][0], goals[0][1], "not run: it takes minutes; `--suite` runs it")
                continue
            try:
                step()
            except (RuntimeError, OSError, subprocess.SubprocessError, ValueError, KeyError) as exc:
                sys.stderr.write(f"{name}: could not be measured: {exc}\n")
                for goal_name, goal in goals:
                    figs.missing(goal_name, goal, f"could not be measured: {str(exc).splitlines()[0][:200]}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    elapsed = time.time() - started
    print(f"\n{elapsed:.0f} s in all")
    if not ns.no_write:
        write_results(figs, ns, elapsed, (load_start, load()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
