"""bench-gate performance figures, each a ratio measured side by side in the same run.

Run from the repository root::

    pip install -e .                   # bench-gate and its runtime dependencies (typer among them)
    python bench/run.py                # this tree; writes bench/RESULTS.md
    python bench/run.py --before REV   # also measure the tree at git revision REV, side by side

Every figure is the median of at least five alternating runs (the reference and bench-gate take
turns, so a noisy neighbour slows both). Synthetic inputs are generated, seeded, in a temporary
directory that is deleted afterwards; nothing large is written into the repository.

Figures and targets:

cold start
    ``bench-gate FIXTURE --profile ai-memory`` as a whole process, over the practice's own
    standard-library gate judging the same file with typer imported as well
    (``python -c "import typer; <run eval_gate.py FIXTURE --profile ai-memory>"``): <= 1.
    The practice's gate is ``tools/bench/eval_gate.py`` of github.com/hyperb1iss/sibyl (commit
    0279d9e7880c84c7987252fb63667600da32163c); it is not part of this repository. Put a copy at
    ``bench/practice/eval_gate.py`` (the figure is skipped, with this note, when it is absent).
evaluation
    a full gate of the fixture in a warm process (read, strict parse, hash, every rule including
    the metric recomputation), over ``json.loads`` of the same bytes: <= 3.
large evidence
    the same for a generated 50,000-case report: <= 4, with peak memory growth <= 4 x its file
    size; the 5,000-case figure shows the growth is linear.
hashing
    ``confined.hash_file`` of a 512 MiB file, throughput over ``hashlib.file_digest``: >= 0.85,
    peak memory growth <= 64 MiB.
batch
    one call gating 200 generated 50-case reports (default text output), over 200 single
    in-process gates with the profile compiled once: <= 1.1. Small reports make the fixed cost
    of the call (compiling the profile, rendering) count.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "examples" / "longmemeval_sibyl_hybrid_rc1_20260610.json"
PRACTICE = ROOT / "bench" / "practice" / "eval_gate.py"
PRACTICE_SOURCE = ("tools/bench/eval_gate.py of https://github.com/hyperb1iss/sibyl "
                   "(commit 0279d9e7880c84c7987252fb63667600da32163c)")
REFERENCE = ("import runpy, sys, typer; sys.argv = ['eval_gate.py', sys.argv[1], '--profile', 'ai-memory']; "
             f"runpy.run_path({str(PRACTICE)!r}, run_name='__main__')")
SEED = 20261129
MIB = 1024 * 1024
FIGURES = ("cold", "evaluation", "large", "hashing", "batch")


def median(values: list[float]) -> float:
    return statistics.median(values)


# --- synthetic inputs ---------------------------------------------------------------------


def large_report(cases: int, path: Path, seed: int = SEED) -> Path:
    """The fixture with its 500 cases repeated (ids made unique) to ``cases`` cases, shuffled.

    Every case keeps its own metrics, so every aggregate the report claims is still exactly the
    mean over its cases: the gate does all its work, including the recomputation, and passes.
    """
    base = json.loads(FIXTURE.read_bytes())
    original = base["case_results"]
    if cases % len(original):
        raise ValueError(f"cases must be a multiple of {len(original)}")
    out = []
    for copy in range(cases // len(original)):
        for case in original:
            clone = dict(case)
            if copy:
                clone["question_id"] = f"{case['question_id']}-r{copy}"
            out.append(clone)
    random.Random(seed).shuffle(out)
    base["case_results"] = out
    base["total_questions"] = cases
    base["dataset"] = {**base["dataset"], "total_entries": cases, "evaluated_entries": cases}
    path.write_text(json.dumps(base, indent=1), encoding="utf-8")
    return path


def small_report(cases: int, path: Path, seed: int) -> Path:
    """The fixture cut down to ``cases`` randomly chosen cases, every aggregate recomputed."""
    base = json.loads(FIXTURE.read_bytes())
    chosen = random.Random(seed).sample(base["case_results"], cases)
    metrics = list(base["overall"])

    def means(rows: list[dict[str, Any]]) -> dict[str, float]:
        return {m: sum(r[m] for r in rows) / len(rows) for m in metrics}

    base["case_results"] = chosen
    base["overall"] = means(chosen)
    types = sorted({c["question_type"] for c in chosen})
    base["per_type"] = {t: means([c for c in chosen if c["question_type"] == t]) for t in types}
    base["total_questions"] = cases
    base["dataset"] = {**base["dataset"], "total_entries": cases, "evaluated_entries": cases}
    path.write_text(json.dumps(base, indent=1), encoding="utf-8")
    return path


def big_file(path: Path, size: int, seed: int = SEED) -> Path:
    block = random.Random(seed).randbytes(MIB)
    with open(path, "wb") as handle:
        for _ in range(size // MIB):
            handle.write(block)
    return path


# --- running ------------------------------------------------------------------------------


class Tree:
    """A bench-gate source tree to measure: this checkout, or a git revision exported to a temp dir."""

    def __init__(self, label: str, src: Path | None) -> None:
        self.label, self.src = label, src

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        if self.src is not None:
            env["PYTHONPATH"] = str(self.src) + os.pathsep + env.get("PYTHONPATH", "")
        return env

    def gate_command(self) -> list[str]:
        return [sys.executable, "-c", "from bench_gate.cli.app import entry; entry()"]

    def worker(self, figure: str, **args: Any) -> dict[str, Any]:
        proc = subprocess.run([sys.executable, str(ROOT / "bench" / "worker.py"), figure, json.dumps(args)],
                              capture_output=True, text=True, cwd=ROOT, env=self.env())
        if proc.returncode != 0:
            raise RuntimeError(f"{self.label} {figure}: {proc.stderr.strip()[-2000:]}")
        return json.loads(proc.stdout)


def current_revision() -> str:
    """The checked-out commit, with "+ changes" when the working tree differs from it."""
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "this tree"
    return head + (" + changes" if dirty else "")


def export(rev: str, into: Path) -> Path:
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into / "src"


def timed(cmd: list[str], env: dict[str, str]) -> float:
    t = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - t
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.decode()[-1000:]}")
    return elapsed


def cold_start(trees: list[Tree], runs: int) -> dict[str, Any]:
    ref_cmd = [sys.executable, "-c", REFERENCE, str(FIXTURE)]
    bare_cmd = [sys.executable, "-c", "pass"]
    args = [str(FIXTURE.relative_to(ROOT)), "--profile", "ai-memory"]
    times: dict[str, list[float]] = {"reference": [], "bare": [], **{t.label: [] for t in trees}}
    for tree in trees:  # one warm-up each: byte-compiled caches, page cache
        timed(tree.gate_command() + args, tree.env())
    timed(ref_cmd, dict(os.environ))
    for _ in range(runs):
        times["reference"].append(timed(ref_cmd, dict(os.environ)))
        times["bare"].append(timed(bare_cmd, dict(os.environ)))
        for tree in trees:
            times[tree.label].append(timed(tree.gate_command() + args, tree.env()))
    return {k: median(v) for k, v in times.items()}


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
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    return (f"{os.cpu_count()} CPUs ({cpu}), Python {platform.python_version()} "
            f"({platform.python_implementation()}), {platform.system()} {platform.release()}; "
            f"load average at the start: {load}")


class Figures:
    def __init__(self, labels: list[str]) -> None:
        self.labels = labels
        self.rows: list[dict[str, Any]] = []

    def add(self, name: str, target: str, ok: Any, values: dict[str, float], detail: dict[str, str],
            fmt: str = "{:.3f}") -> None:
        row = {"name": name, "target": target, "values": values, "detail": detail, "ok": ok, "fmt": fmt}
        self.rows.append(row)
        shown = "  ".join(f"{label}: {fmt.format(values[label])} ({detail.get(label, '')})"
                          for label in self.labels if label in values)
        print(f"{name:<28} target {target:<10} {shown}", flush=True)


def verdict(value: float, target: str) -> str:
    if target == "info":
        return "(for the linearity figure)"
    op, bound = target.split(" ", 1)
    limit = float(bound)
    met = value <= limit if op == "<=" else value >= limit
    if met:
        return "met"
    return f"missed by {abs(value - limit) / limit:.0%}"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--before", metavar="REV", help="also measure the tree at this git revision")
    p.add_argument("--runs", type=int, default=5, help="alternating runs per figure (at least 5)")
    p.add_argument("--hash-mib", type=int, default=512, help="size of the hashed file (MiB)")
    p.add_argument("--batch", type=int, default=200, help="reports in the batch figure")
    p.add_argument("--only", choices=FIGURES, action="append", help="run only this figure (repeatable); "
                   "implies --no-write")
    p.add_argument("--no-write", action="store_true", help="print only; do not write bench/RESULTS.md")
    ns = p.parse_args()
    runs = max(5, ns.runs)
    wanted = set(ns.only or FIGURES)
    if ns.only:
        ns.no_write = True
    if "cold" in wanted and not PRACTICE.is_file():
        sys.stderr.write(f"cold start skipped: put the practice's gate ({PRACTICE_SOURCE}) at {PRACTICE}\n")
        wanted.discard("cold")
    elif "cold" in wanted:
        try:
            subprocess.run([sys.executable, "-c", REFERENCE, str(FIXTURE)], check=True, capture_output=True)
        except subprocess.CalledProcessError as exc:
            sys.stderr.write(f"the practice's gate does not pass the fixture: {exc.stdout[-500:]!r}\n")
            return 2
    started = time.time()
    tmp = Path(tempfile.mkdtemp(prefix="bench-gate-"))
    try:
        trees = [Tree(f"now ({current_revision()})", None)]
        if ns.before:
            trees.insert(0, Tree(f"before ({ns.before})", export(ns.before, tmp / "before")))
        labels = [t.label for t in trees]
        figs = Figures(labels)
        print(f"machine: {machine()}\nruns per figure: {runs} (medians of alternating runs)\n", flush=True)

        if "cold" in wanted:
            cold = cold_start(trees, 2 * runs + 1)  # cheap, and the noisiest figure
            figs.add("whole process / practice gate + typer", "<= 1", None,
                     {t.label: cold[t.label] / cold["reference"] for t in trees},
                     {t.label: f"{cold[t.label] * 1000:.0f} ms vs {cold['reference'] * 1000:.0f} ms; "
                               f"bare python {cold['bare'] * 1000:.0f} ms" for t in trees})

        if "evaluation" in wanted:
            ev = {t.label: t.worker("evaluate", report=str(FIXTURE), runs=runs) for t in trees}
            figs.add("evaluation / json.loads", "<= 3", None,
                     {k: median(v["gates"]) / median(v["loads"]) for k, v in ev.items()},
                     {k: f"{median(v['gates']) * 1000:.1f} ms vs {median(v['loads']) * 1000:.1f} ms"
                      for k, v in ev.items()})

        per_case: dict[str, dict[int, float]] = {t.label: {} for t in trees}
        for cases in (5000, 50000) if "large" in wanted else ():
            report = large_report(cases, tmp / f"report-{cases}.json")
            size = report.stat().st_size
            res = {t.label: t.worker("evaluate", report=str(report), runs=runs) for t in trees}
            mem = {t.label: t.worker("memory", report=str(report)) for t in trees}
            for k, v in res.items():
                per_case[k][cases] = median(v["gates"]) / cases
            target = "<= 4" if cases == 50000 else "info"  # 5k shows that the cost is linear
            figs.add(f"large {cases} cases / loads", target, None,
                     {k: median(v["gates"]) / median(v["loads"]) for k, v in res.items()},
                     {k: f"{median(v['gates']):.2f} s vs {median(v['loads']):.2f} s, {size / MIB:.0f} MiB, "
                         f"{v['verdict'].split()[0]}" for k, v in res.items()})
            figs.add(f"large {cases} memory / size", target, None,
                     {k: v["growth_bytes"] / size for k, v in mem.items()},
                     {k: f"peak growth {v['growth_bytes'] / MIB:.0f} MiB for {size / MIB:.0f} MiB"
                      for k, v in mem.items()})
            report.unlink()
        if "large" in wanted:
            figs.add("large 50k/5k per-case cost", "<= 1.25", None,
                     {k: v[50000] / v[5000] for k, v in per_case.items()},
                     {k: f"{v[5000] * 1e6:.0f} us vs {v[50000] * 1e6:.0f} us per case"
                      for k, v in per_case.items()})

        if "hashing" in wanted:
            hashing_figures(trees, tmp, runs, ns.hash_mib, figs)
        if "batch" in wanted:
            batch_figure(trees, tmp, runs, ns.batch, figs)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    elapsed = time.time() - started
    print(f"\n{elapsed:.0f} s in all")
    if not ns.no_write:
        write_results(figs, runs, elapsed, ns)
    return 0


def hashing_figures(trees: list[Tree], tmp: Path, runs: int, mib: int, figs: Figures) -> None:
    big = big_file(tmp / "evidence.bin", mib * MIB)
    hs = {t.label: t.worker("hashing", path=str(big), runs=runs) for t in trees}
    hm = {t.label: t.worker("hash_memory", path=str(big)) for t in trees}
    figs.add("hashing throughput", ">= 0.85", None,
             {k: median(v["ref"]) / median(v["ours"]) for k, v in hs.items()},
             {k: f"{mib / median(v['ours']):.0f} MiB/s vs {mib / median(v['ref']):.0f} MiB/s"
              for k, v in hs.items()})
    figs.add("hashing memory (MiB)", "<= 64", None,
             {k: v["growth_bytes"] / MIB for k, v in hm.items()},
             {k: f"{mib} MiB file" for k in hm}, fmt="{:.1f}")
    big.unlink()


def batch_figure(trees: list[Tree], tmp: Path, runs: int, count: int, figs: Figures) -> None:
    folder = tmp / "batch"
    folder.mkdir()
    reports = [str(small_report(50, folder / f"report-{i:03d}.json", SEED + i)) for i in range(count)]
    bt = {t.label: t.worker("batch", reports=reports, runs=runs) for t in trees}
    figs.add(f"batch {count} / singles", "<= 1.1", None,
             {k: median(v["batches"]) / median(v["singles"]) for k, v in bt.items()},
             {k: f"{median(v['batches']):.2f} s vs {median(v['singles']):.2f} s" for k, v in bt.items()})


def write_results(figs: Figures, runs: int, elapsed: float, ns: argparse.Namespace) -> None:
    now = figs.labels[-1]
    lines = [
        "# bench-gate performance figures",
        "",
        "Written by `python bench/run.py" + (f" --before {ns.before}" if ns.before else "") + "`; "
        "every figure is a ratio of medians of "
        f"{runs} alternating runs measured side by side in the same run ({elapsed:.0f} s in all).",
        "",
        f"Machine: {machine()}.",
        "",
        "| figure | target | " + " | ".join(figs.labels) + " | status |",
        "| --- | --- | " + " | ".join("---" for _ in figs.labels) + " | --- |",
    ]
    for row in figs.rows:
        cells = []
        for label in figs.labels:
            value = row["values"].get(label)
            cells.append("" if value is None else f"{row['fmt'].format(value)} ({row['detail'].get(label, '')})")
        status = verdict(row["values"][now], row["target"])
        lines.append(f"| {row['name']} | {row['target']} | " + " | ".join(cells) + f" | {status} |")
    lines.append("")
    notes = ROOT / "bench" / "NOTES.md"
    if notes.is_file():
        lines.append(notes.read_text(encoding="utf-8").rstrip() + "\n")
    (ROOT / "bench" / "RESULTS.md").write_text("\n".join(lines), encoding="utf-8")
    print("wrote bench/RESULTS.md")


if __name__ == "__main__":
    raise SystemExit(main())
