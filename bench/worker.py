"""One in-process measurement, run in a fresh interpreter by ``bench/run.py``.

``python bench/worker.py FIGURE JSON-ARGS`` prints one JSON object. The bench-gate under test is
whatever ``bench_gate`` the interpreter imports (``run.py`` sets ``PYTHONPATH`` to the source
tree it measures). The gate is reached through entry points that survive a reorganisation of
the package: the report gate's ``judge`` wherever it lives (tried in order below), and, failing
that, the command line's ``bench_gate.cli.app.main`` in-process. Every answer names the entry
point it used.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import importlib
import io
import json
import os
import resource
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
NOW_TEXT = "2026-11-29T12:00:00Z"
FIXTURE = "examples/longmemeval_sibyl_hybrid_rc1_20260610.json"
# where the report gate's judge(plan, path, cli_docs, root, now, version) has lived, newest first
JUDGE_MODULES = ("bench_gate.gates.report_gate",)

Gate = Callable[[str], tuple[bool, str]]


def _rss_kib() -> int:
    """Peak resident memory of this process so far, KiB.

    VmHWM is the high-water mark of this program's own address space. ``ru_maxrss`` is the
    fallback: on Linux it starts at the parent's size at fork, which hides small growth.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _judge_function() -> Any:
    for name in JUDGE_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(module, "judge"):
            return module.judge
    return None


def gate(profile: str = "ai-memory") -> tuple[Gate, str]:
    """A function that gates one report in this process, and the entry point it calls.

    With ``judge`` the profile is compiled and bound once, outside the timed call: the figure is
    the evaluation of a report (read, strict parse, hash, every rule), not the set-up. Through
    ``cli.app.main`` each call also loads the profile and renders the text output.
    """
    judge = _judge_function()
    if judge is not None:
        try:
            from bench_gate.profile import load_profile
            from bench_gate.profile.binding import bind

            plan = bind(load_profile(profile))
        except (ImportError, AttributeError):
            judge = None
    if judge is not None:
        def run_judge(path: str) -> tuple[bool, str]:
            verdict = judge(plan, path, {}, Path("."), NOW, "bench")
            return bool(verdict.passed), f"{'pass' if verdict.passed else 'fail'} {verdict.counts()}"

        return run_judge, f"{judge.__module__}.judge"

    from bench_gate.cli.app import main

    def run_main(path: str) -> tuple[bool, str]:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main([path, "--profile", profile, "--quiet", "--no-color", "--now", NOW_TEXT])
        if code not in (0, 1):
            raise RuntimeError(f"bench-gate {path} exited {code}: {err.getvalue()[-500:]}")
        return code == 0, "pass" if code == 0 else "fail"

    return run_main, "bench_gate.cli.app.main"


def _practice(path: str) -> Any:
    sys.path.insert(0, str(Path(path).parent))
    return importlib.import_module(Path(path).stem)


def evaluate(report: str, runs: int, practice: str | None = None) -> dict[str, Any]:
    """Alternate ``json.loads`` of the report's bytes (reading included) and a full gate of it.

    With ``practice`` (the path of the practice's gate) its own report path is timed as well in
    the same rounds: ``load_report`` and ``evaluate_report(..., profile="ai-memory")``.
    """
    run, entry = gate()
    run(FIXTURE)  # warm every code path once, outside the timing
    ref = _practice(practice) if practice else None
    loads: list[float] = []
    gates: list[float] = []
    practices: list[float] = []
    status = ""
    for _ in range(runs):
        gc.collect()
        t = time.perf_counter()
        json.loads(Path(report).read_bytes())
        loads.append(time.perf_counter() - t)
        gc.collect()
        t = time.perf_counter()
        _, status = run(report)
        gates.append(time.perf_counter() - t)
        if ref is not None:
            gc.collect()
            t = time.perf_counter()
            ref.evaluate_report(ref.load_report(Path(report)), profile="ai-memory")
            practices.append(time.perf_counter() - t)
    return {"loads": loads, "gates": gates, "practice": practices, "verdict": status, "entry": entry}


def memory(report: str) -> dict[str, Any]:
    """Peak RSS growth of one gate of the report, beyond the interpreter with the gate warmed up."""
    run, entry = gate()
    run(FIXTURE)
    gc.collect()
    before = _rss_kib()
    passed, _ = run(report)
    after = _rss_kib()
    return {"growth_bytes": max(0, after - before) * 1024, "size": os.path.getsize(report),
            "passed": passed, "entry": entry}


def hashing(path: str, runs: int) -> dict[str, Any]:
    """Alternate hashlib.file_digest and confined.hash_file on one file."""
    from bench_gate.loaders import confined

    loc = confined.locate(path, Path("."), confine=False)
    ref, ours = [], []
    for _ in range(runs):
        t = time.perf_counter()
        with open(path, "rb") as handle:
            expected = hashlib.file_digest(handle, "sha256").hexdigest()
        ref.append(time.perf_counter() - t)
        t = time.perf_counter()
        digest, _ = confined.hash_file(loc)
        ours.append(time.perf_counter() - t)
        if digest != expected:
            raise RuntimeError(f"hash_file gave {digest}, hashlib {expected}")
    return {"ref": ref, "ours": ours}


def hash_memory(path: str) -> dict[str, Any]:
    from bench_gate.loaders import confined

    loc = confined.locate(path, Path("."), confine=False)
    before = _rss_kib()
    confined.hash_file(loc)
    return {"growth_bytes": max(0, _rss_kib() - before) * 1024}


def batch(reports: list[str], runs: int, profile: str = "ai-memory") -> dict[str, Any]:
    """Alternate one CLI call over all reports and the same reports gated one by one in-process."""
    from bench_gate.cli.app import main

    run, entry = gate(profile)
    batches, singles = [], []
    # the default (text) format: what a pipeline step prints
    args = [*reports, "--profile", profile, "--quiet", "--no-color", "--now", NOW_TEXT]
    for _ in range(runs):
        gc.collect()
        t = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = main(args)
        batches.append(time.perf_counter() - t)
        if code not in (0, 1):
            raise RuntimeError(f"bench-gate over {len(reports)} reports exited {code}")
        gc.collect()
        t = time.perf_counter()
        for report in reports:
            run(report)
        singles.append(time.perf_counter() - t)
    return {"batches": batches, "singles": singles, "entry": entry}


def claims_page(size: int, shape: str, seed: int = 0) -> str:
    """A page of about ``size`` characters of LongMemEval numbers, one line, a table, or one
    sentence of metric pairs each followed by its two numbers; every number different (the scan
    keeps what it read of a sentence it saw before)."""
    def number(i: int) -> str:
        n = (i * 7919 + seed * 104729) % 1_000_000
        return f"{n // 10000}.{n % 10000:04d}%"

    if shape == "line":
        return "LongMemEval recall@5 " + " ".join(number(i) for i in range(size // 10)) + "\n"
    if shape == "pairs":  # one sentence of metrics, each pair followed by its numbers
        return "LongMemEval " + "".join(f"recall@5 and hit@5 are {number(2 * i)} and {number(2 * i + 1)}, "
                                        for i in range(size // 48)) + "\n"
    return "| Type | R@5 |\n|---|---|\n" + "".join(f"| multi-session | {number(i)} |\n" for i in range(size // 30))


def claims(sizes: list[int], runs: int) -> dict[str, Any]:
    """Seconds to read a page and find its claims, per page size and shape (median of ``runs``)."""
    from bench_gate.checks.claims.commonmark import read
    from bench_gate.checks.claims.lexer import (
        DEFAULT_BENCHMARKS, DEFAULT_METRICS, DEFAULT_SLICE_ALIASES, DEFAULT_SLICES, Patterns, claims_in,
        slice_patterns,
    )

    patterns = Patterns(DEFAULT_METRICS, DEFAULT_BENCHMARKS,
                        slice_patterns(DEFAULT_SLICES, tuple(sorted(DEFAULT_SLICE_ALIASES.items()))), r"\s*(?:pp\b)")

    out: dict[str, Any] = {}
    for shape in ("line", "table", "pairs"):
        claims_in(read("warm.md", claims_page(2_000, shape, seed=99)), patterns)  # compile patterns
        for size in sizes:
            times = []
            for run in range(runs):
                text = claims_page(size, shape, seed=run)
                t = time.perf_counter()
                found = claims_in(read("page.md", text), patterns)
                times.append(time.perf_counter() - t)
            out[f"{shape}:{size}"] = {"seconds": sorted(times)[len(times) // 2], "claims": len(found),
                                     "chars": len(text)}
    return out


def main() -> None:
    figure, args = sys.argv[1], json.loads(sys.argv[2])
    out = {"evaluate": evaluate, "memory": memory, "hashing": hashing, "hash_memory": hash_memory,
           "batch": batch, "claims": claims}[figure](**args)
    sys.stdout.write(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
