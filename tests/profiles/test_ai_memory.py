"""``--citable`` accepts only a live API run mode: an allow-list, not a list of bad words.

The report is the golden case ``ai-memory/citable-live-passes`` (the real hybrid run made into a
complete, isolated live run of all 500 questions) with only ``runtime.runtime_mode`` changed,
run through the real command line; the verdict's ``citable-live-run`` result is compared.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from golden import GOLDEN, cases, materialise, run_main

CASE = next(c for c in cases() if c.path == GOLDEN / "ai-memory" / "citable-live-passes")


def live_run(mode: str, tmp_path: Path) -> dict[str, object]:
    work = materialise(CASE, tmp_path)
    report = json.loads((work / "report.json").read_text(encoding="utf-8"))
    report["runtime"]["runtime_mode"] = mode
    (work / "report.json").write_text(json.dumps(report), encoding="utf-8")
    code, out, _ = run_main(CASE.args, CASE.now, work, "json")
    verdict = json.loads(out)
    result = next(r for r in verdict["results"] if r["rule"] == "citable-live-run")
    assert code == (0 if result["status"] == "pass" else 1)
    return result


@pytest.mark.parametrize("mode", ["live-api-ephemeral", "live-api", "live-api-persistent-2"])
def test_live_api_modes_are_citable(mode: str, tmp_path: Path) -> None:
    assert live_run(mode, tmp_path)["status"] == "pass"


@pytest.mark.parametrize("mode", [
    "live-Replay", "live-api-REPLAY", "live-fixture", "live-mock", "live-cached-rankings",
    "live-api-replay", "live-api-offline", "live-api-fixture", "live-api-recorded", "live-api-simulated",
    "live-api-dry-run", "Live-api-ephemeral", "live", "live-ephemeral", "live-api-", "live-api ephemeral",
    "replay-live-api", "live-api-ephemeral\n",
])
def test_other_modes_are_not_citable(mode: str, tmp_path: Path) -> None:
    result = live_run(mode, tmp_path)
    assert result["status"] == "fail"
    assert result["message"] == (
        f"/runtime/runtime_mode is {json.dumps(mode)}, expected a live API run mode (live-api or "
        "live-api-<word>, lower case, e.g. live-api-ephemeral; not a replay, offline, fixture, mock or cached run)")
