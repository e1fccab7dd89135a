"""run.json of each memory-pair arm: its times, and that both arms evaluated the same thing
(pair_run_times, pair_run_identity). Pass and fail rows with the exact message."""

from __future__ import annotations

from typing import Any

import pytest

from bench_gate.checks.pair import runs as R

from pairsetup import Setup, run_kind, set_run

NORMAL = R.RunTimesParams("report")
ORACLE = R.RunTimesParams("oracle")
BOTH = R.RunIdentityParams()


TIMES = [
    ("normal-ok", NORMAL, Setup(), [("pass", "normal arm ran 2026-11-11T09:00:00Z to 2026-11-11T09:40:00Z, not after "
                                             "the gate time")]),
    ("oracle-ok", ORACLE, Setup(), [("pass", "oracle arm ran 2026-11-11T09:41:00Z to 2026-11-11T10:20:00Z, not after "
                                             "the gate time")]),
    ("future", NORMAL, Setup("run-in-future"),
     [("fail", "normal arm run.json startedAt 2099-11-11T09:00:00Z is after the gate time 2026-11-29T12:00:00+00:00: "
               "a run cannot have happened in the future"),
      ("fail", "normal arm run.json endedAt 2099-11-11T09:40:00Z is after the gate time 2026-11-29T12:00:00+00:00: a "
               "run cannot have happened in the future")]),
    ("reversed", NORMAL, Setup("run-ends-before-start"),
     [("fail", "normal arm run.json ends (2026-11-11T08:00:00Z) before it starts (2026-11-11T09:00:00Z)")]),
    ("one-second-after-now", ORACLE, Setup(oracle=lambda f: set_run(f, endedAt="2026-11-29T12:00:01Z")),
     [("fail", "oracle arm run.json endedAt 2026-11-29T12:00:01Z is after the gate time 2026-11-29T12:00:00+00:00: a "
               "run cannot have happened in the future")]),
    ("at-now", ORACLE, Setup(oracle=lambda f: set_run(f, endedAt="2026-11-29T12:00:00Z")),
     [("pass", "oracle arm ran 2026-11-11T09:41:00Z to 2026-11-29T12:00:00Z, not after the gate time")]),
    ("no-offset", NORMAL, Setup(normal=lambda f: set_run(f, startedAt="2026-11-11T09:00:00")),
     [("fail", "normal arm run.json startedAt '2026-11-11T09:00:00' is not an RFC 3339 timestamp with an offset "
               "(2026-11-29T12:00:00Z)")]),
    ("number", NORMAL, Setup(normal=lambda f: set_run(f, startedAt=1762851600)),
     [("fail", "normal arm run.json startedAt is 1762851600, not an RFC 3339 timestamp")]),
    ("completed-without-end", NORMAL, Setup(normal=lambda f: set_run(f, endedAt=None)),
     [("fail", 'normal arm run.json has no endedAt, but its status is "completed"')]),
    ("no-start", ORACLE, Setup(oracle=lambda f: set_run(f, startedAt=None)),
     [("fail", 'oracle arm run.json has no startedAt, but its status is "completed"')]),
]


@pytest.mark.parametrize("params,setup,expected", [r[1:] for r in TIMES], ids=[r[0] for r in TIMES])
def test_pair_run_times(params: Any, setup: Setup, expected: list[tuple[str, str]]) -> None:
    assert run_kind("pair_run_times", params, setup) == expected


SAME = ("both arms evaluated subject model:agent:my-agent on suite suite:longmemeval/subset: two evaluations of one "
        "workload, the oracle after the normal")
OWN_SUITE = ("both arms evaluated subject model:agent:my-agent, the normal on suite suite:longmemeval/subset and the "
             "oracle on its own suite suite:longmemeval/subset-gold-oracle: two evaluations of one workload, the oracle "
             "after the normal")
IDENTITY = [
    ("same", Setup(), [("pass", SAME)]),
    # each prepared arm has its own run and definition: the oracle's suite and judges are its own
    ("oracle-own-suite", Setup(oracle=lambda f: set_run(f, suite={"ref": "suite:longmemeval/subset-gold-oracle",
                                                                   "version": "1"})), [("pass", OWN_SUITE)]),
    ("oracle-own-judges", Setup(oracle=lambda f: set_run(f, judges=[{"model": "other-judge"}])), [("pass", SAME)]),
    ("oracle-without-judges", Setup(oracle=lambda f: set_run(f, judges=None)), [("pass", SAME)]),
    ("oracle-reader-kind", Setup(oracle=lambda f: set_run(f, subject={"ref": "model:agent:my-agent", "kind": "model"})),
     [("pass", SAME)]),
    ("other-subject", Setup("oracle-other-evaluation"),
     [("fail", 'oracle arm run.json subject.ref is "model:agent:other-agent", but the normal arm\'s is '
               '"model:agent:my-agent": the gap would compare two different subjects')]),
    ("oracle-without-subject", Setup(oracle=lambda f: set_run(f, subject=None)),
     [("fail", 'oracle arm run.json subject.ref is missing, but the normal arm\'s is "model:agent:my-agent": the gap '
               "would compare two different subjects")]),
    ("normal-without-subject", Setup(normal=lambda f: set_run(f, subject=None),
                                     oracle=lambda f: set_run(f, subject=None)),
     [("fail", "normal arm run.json has no subject.ref: the pair cannot show what it evaluated")]),
    ("oracle-before-normal-ended", Setup(oracle=lambda f: set_run(f, startedAt="2026-11-11T09:39:59Z")),
     [("fail", "the oracle arm started (2026-11-11T09:39:59Z) before the normal arm ended (2026-11-11T09:40:00Z): "
               "normal execution finishes before the oracle runs")]),
]


@pytest.mark.parametrize("setup,expected", [r[1:] for r in IDENTITY], ids=[r[0] for r in IDENTITY])
def test_pair_run_identity(setup: Setup, expected: list[tuple[str, str]]) -> None:
    assert run_kind("pair_run_identity", BOTH, setup) == expected
