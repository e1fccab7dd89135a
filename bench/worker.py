"""One in-process measurement, run in a fresh interpreter by ``bench/run.py``.

``python bench/worker.py FIGURE JSON-ARGS`` prints one JSON object. The bench-gate under test is
whatever ``bench_gate`` the interpreter imports (``run.py`` sets ``PYTHONPATH`` to compare two
source trees), so only APIs both trees have are used: ``policy.load_profile``, ``policy.bind``,
``runner.judge``, ``cli.main``, ``confined.locate`` and ``confined.hash_file``.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import io
import json
import os
import resource
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


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


def _plan(profile: str) -> Any:
    from bench_gate.profile import load_profile
    from bench_gate.profile.binding import bind

    return bind(load_profile(profile))


def _judge(plan: Any, path: str) -> Any:
    from bench_gate.gates.report_gate import judge

    return judge(plan, path, {}, Path("."), NOW, "bench")


def evaluate(report: str, runs: int, profile: str = "ai-memory") -> dict[str, Any]:
    """Alternate json.loads of the report bytes and a full gate of the report (plan compiled once)."""
    plan = _plan(profile)
    loads, gates = [], []
    status = ""
    for _ in range(runs):
        gc.collect()
        t = time.perf_counter()
        raw = Path(report).read_bytes()
        json.loads(raw)
        loads.append(time.perf_counter() - t)
        del raw
        gc.collect()
        t = time.perf_counter()
        verdict = _judge(plan, report)
        gates.append(time.perf_counter() - t)
        status = f"{'pass' if verdict.passed else 'fail'} {verdict.counts()}"
        del verdict
    return {"loads": loads, "gates": gates, "verdict": status}


def memory(report: str, profile: str = "ai-memory") -> dict[str, Any]:
    """Peak RSS growth of one gate of the report, beyond the interpreter with the plan compiled."""
    plan = _plan(profile)
    _judge(plan, "examples/longmemeval_sibyl_hybrid_rc1_20260610.json")  # warm every code path
    gc.collect()
    before = _rss_kib()
    verdict = _judge(plan, report)
    after = _rss_kib()
    return {"growth_bytes": max(0, after - before) * 1024, "size": os.path.getsize(report),
            "passed": verdict.passed}


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
        assert digest == expected
    return {"ref": ref, "ours": ours}


def hash_memory(path: str) -> dict[str, Any]:
    from bench_gate.loaders import confined

    loc = confined.locate(path, Path("."), confine=False)
    before = _rss_kib()
    confined.hash_file(loc)
    return {"growth_bytes": max(0, _rss_kib() - before) * 1024}


def batch(reports: list[str], runs: int, profile: str = "ai-memory") -> dict[str, Any]:
    """Alternate one CLI call over all reports and the same reports judged one by one in-process."""
    from bench_gate.cli.app import main

    plan = _plan(profile)
    batches, singles = [], []
    # the default (text) format: what a pipeline step prints
    args = [*reports, "--profile", profile, "--quiet", "--no-color", "--now", "2026-11-29T12:00:00Z"]
    for _ in range(runs):
        gc.collect()
        t = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = main(args)
        batches.append(time.perf_counter() - t)
        assert code in (0, 1), code
        gc.collect()
        t = time.perf_counter()
        for report in reports:
            _judge(plan, report)
        singles.append(time.perf_counter() - t)
    return {"batches": batches, "singles": singles}


def main() -> None:
    figure, args = sys.argv[1], json.loads(sys.argv[2])
    out = {"evaluate": evaluate, "memory": memory, "hashing": hashing, "hash_memory": hash_memory,
           "batch": batch}[figure](**args)
    if "loads" in out:
        out["median_loads"] = statistics.median(out["loads"])
    sys.stdout.write(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
