"""When each arm of a memory pair ran, and that both arms evaluated the same thing.

The pair record links the two arms by identifiers (``pairId``, ``sourceInputsDigest``,
``plannedQuestions``, the oracle's ``normalRunHash``); ``run.json`` says what ran and when.
These kinds read ``run.json`` of each arm (format ``runfolder``, see :mod:`bench_gate.checks.pair.arm_folder`):
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from bench_gate.records import record
from bench_gate.checks.base import kind, FORBID, MISSING, Context, failed, jsonable, passed, show
from bench_gate.checks.pair.arm_folder import Arm, arm, run_header
from bench_gate.text.isotime import TimeError, parse_instant
from bench_gate.models import Finding

ENDED = ("completed", "aborted")


def _when(a: Arm, header: dict[str, Any], key: str, now: datetime) -> tuple[datetime | None, Finding | None]:
    """A run time (None when absent) or the failure that says why it cannot be used."""
    value = header.get(key, MISSING)
    if value is MISSING or value is None:
        return None, None
    if not isinstance(value, str):
        return None, failed(f"{a.label} run.json {key} is {show(value)}, not an RFC 3339 timestamp", "", a.role,
                            jsonable(value), "RFC 3339 with an offset")
    try:
        when = parse_instant(value)
    except TimeError as exc:
        return None, failed(f"{a.label} run.json {key} {exc}", "", a.role, value, "RFC 3339 with an offset")
    if when > now:
        return when, failed(f"{a.label} run.json {key} {value} is after the gate time {now.isoformat()}: a run "
                            "cannot have happened in the future", "", a.role, value, f"<= {now.isoformat()}")
    return when, None


@record
class RunTimesParams:
    __pydantic_config__ = FORBID
    arm: str = "report"


@kind("pair_run_times", RunTimesParams, "an arm's run.json times are RFC 3339, not in the future, and it ends after it starts")
def pair_run_times(ctx: Context, p: RunTimesParams) -> Iterable[Finding]:
    """One arm's ``startedAt`` and ``endedAt`` are RFC 3339 timestamps with an offset, neither is
    after the gate time (``--now``), and ``endedAt`` is not before ``startedAt``. A run that
    is ``completed`` or ``aborted`` has both. Params: ``arm`` (document role).

    .. code-block:: yaml

       - id: normal-run-times
         check: pair_run_times
         with: {arm: report}
    """
    a = arm(ctx, p.arm, "normal" if p.arm == "report" else p.arm)
    header = run_header(a)
    out: list[Finding] = []
    times: dict[str, datetime] = {}
    for key in ("startedAt", "endedAt"):
        when, problem = _when(a, header, key, ctx.now)
        if problem is not None:
            out.append(problem)
        elif when is not None:
            times[key] = when
        elif header.get("status") in ENDED or key == "startedAt":
            out.append(failed(f"{a.label} run.json has no {key}, but its status is {show(header.get('status'))}",
                              "", a.role, None, "an RFC 3339 timestamp"))
    if len(times) == 2 and times["endedAt"] < times["startedAt"]:
        out.append(failed(f"{a.label} run.json ends ({header['endedAt']}) before it starts ({header['startedAt']})",
                          "", a.role, header["endedAt"], f">= {header['startedAt']}"))
    if out:
        return out
    span = f"{header['startedAt']} to {header['endedAt']}" if len(times) == 2 else f"from {header['startedAt']}"
    return [passed(f"{a.label} ran {span}, not after the gate time", "", a.role)]


@record
class RunIdentityParams:
    __pydantic_config__ = FORBID
    normal: str = "report"
    oracle: str = "oracle"


def _part(header: dict[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = header
    for key in path:
        value = value.get(key, MISSING) if isinstance(value, dict) else MISSING
    return value


SUBJECT = ("subject", "ref")


def _suite(header: dict[str, Any]) -> str:
    ref = _part(header, ("suite", "ref"))
    return ref if isinstance(ref, str) and ref else "no suite.ref"


@kind("pair_run_identity", RunIdentityParams, "both arms evaluated the same subject, the oracle after the normal; each arm is its own evaluation")
def pair_run_identity(ctx: Context, p: RunIdentityParams) -> Iterable[Finding]:
    """The two arms are two evaluations of one subject: the same ``subject.ref`` in both
    ``run.json``, and the oracle ran after the normal arm (``startedAt`` of the oracle not
    before ``endedAt`` of the normal: the practice finishes normal execution before the oracle
    history is projected). Otherwise the printed gap "oracle minus normal" compares two
    different agents.

    Each prepared arm produces its own AEF run and definition: the oracle's ``suite`` (a
    gold-only projection of the workload, ``suite:longmemeval/s-subset-gold-oracle`` beside the
    normal ``suite:longmemeval/s-subset``) and its judges are its own, and are not compared.
    What ties the arms together is what the paired-oracle format names: the pair id, the source
    inputs digest, the planned roster and the normal seal hash the oracle points to
    (``pair_link``), and the subject checked here. Sharing a source workload does not make the
    two evaluations equivalent: the oracle's score and the gap are diagnostics. Params:
    ``normal``, ``oracle`` (document roles).
    """
    normal, oracle = arm(ctx, p.normal, "normal"), arm(ctx, p.oracle, "oracle")
    mine, theirs = run_header(normal), run_header(oracle)
    out: list[Finding] = []
    a, b = _part(mine, SUBJECT), _part(theirs, SUBJECT)
    if a is MISSING or a is None or a == "":
        out.append(failed("normal arm run.json has no subject.ref: the pair cannot show what it evaluated", "",
                          normal.role, None, "present"))
    elif a != b:
        out.append(failed(f"oracle arm run.json subject.ref is {show(b, 80)}, but the normal arm's is {show(a, 80)}: "
                          "the gap would compare two different subjects", "", oracle.role,
                          None if b is MISSING else jsonable(b), jsonable(a)))
    ended, started = mine.get("endedAt"), theirs.get("startedAt")
    try:
        if isinstance(ended, str) and isinstance(started, str) and parse_instant(started) < parse_instant(ended):
            out.append(failed(f"the oracle arm started ({started}) before the normal arm ended ({ended}): normal "
                              "execution finishes before the oracle runs", "", oracle.role, started, f">= {ended}"))
    except TimeError:
        pass  # pair_run_times reports an unreadable time
    if out:
        return out
    suites = (f" on suite {_suite(mine)}" if _suite(mine) == _suite(theirs) else
              f", the normal on suite {_suite(mine)} and the oracle on its own suite {_suite(theirs)}")
    return [passed(f"both arms evaluated subject {a}{suites}: two evaluations of one workload, the oracle after the "
                   "normal", "", oracle.role)]
