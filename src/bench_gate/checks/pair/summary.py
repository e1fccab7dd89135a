"""An arm's summary recomputed from itself and from its result rows (profile ``memory-pair``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from bench_gate import records
from bench_gate.checks.base import kind, FORBID, Context, Fail, failed, jsonable, passed, show, show_fraction
from bench_gate.checks.pair.arm_folder import RECORD, Arm, arm, raw_value, record
from bench_gate.loaders import strictjson
from bench_gate.models import Finding, exact_number
from bench_gate.text import rounding

NOT_MEASURED = ("not_measured", "skipped", "error", "pending")
VERDICT_KINDS = ("rate", "verdict")
RECOMPUTED_AGGREGATES = ("median", "min", "max")
MAX_LINE_BYTES = 16 * 1024 * 1024  # the JSON Lines row limit every loader applies


@records.record
class SummaryParams:
    __pydantic_config__ = FORBID
    arm: str = "report"
    accuracy_metric: str = "accuracy"


@records.record(frozen=False)
class Tally:
    big_n: int = 0
    n: int = 0
    values: list[Fraction] | None = None

    def add(self, value: Fraction | None) -> None:
        self.big_n += 1
        if value is not None:
            self.n += 1
            (self.values if self.values is not None else self._start()).append(value)

    def _start(self) -> list[Fraction]:
        self.values = []
        return self.values

    @property
    def total(self) -> Fraction:
        return sum(self.values or [], Fraction(0))


def _json(a: Arm, name: str) -> Any:
    raw = a.files.get(name)
    if raw is None:
        raise Fail(f"{a.label} has no {name}, so its summary cannot be recomputed", "", a.role, None, name)
    try:
        return strictjson.loads(raw)
    except strictjson.JsonError as exc:
        raise Fail(f"{a.label} {name} {exc}", "", a.role) from None


def _rows(a: Arm) -> list[tuple[int, Any]]:
    raw = a.files.get("results.ndjson")
    if raw is None:
        raise Fail(f"{a.label} has no results.ndjson, so its summary cannot be recomputed", "", a.role, None,
                   "results.ndjson")
    if not raw.strip():
        return []  # a run aborted before its first result
    try:
        rows = strictjson.loads_lines(raw, MAX_LINE_BYTES)
    except strictjson.JsonError as exc:
        raise Fail(f"{a.label} results.ndjson {exc}", "", a.role) from None
    for number, row in rows:
        if not isinstance(row, dict):
            raise Fail(f"{a.label} results.ndjson line {number} is not a JSON object", "", a.role)
    return rows


def _kinds(a: Arm) -> dict[str, str]:
    metrics = _json(a, "metrics.json")
    items = metrics.get("metrics") if isinstance(metrics, dict) else None
    if not isinstance(items, list):
        raise Fail(f"{a.label} metrics.json has no metrics array", "", a.role)
    out: dict[str, str] = {}
    for item in items:
        if isinstance(item, dict) and isinstance(item.get("id"), str) and isinstance(item.get("kind"), str):
            out[item["id"]] = item["kind"]
    return out


def _measure(row: Mapping[str, Any], metric: str, kind: str) -> tuple[bool, Fraction | None]:
    """(counted in N, the measured value or None) for one result line."""
    state = row.get("state")
    if state == "not_applicable":
        return False, None
    if state in NOT_MEASURED or not isinstance(state, str):
        return True, None
    if kind in VERDICT_KINDS:
        return True, (None if state == "scored" else Fraction(int(state == "passed")))
    scores = row.get("scores")
    found = [s for s in scores if isinstance(s, dict) and s.get("metric") == metric] if isinstance(scores, list) else []
    if len(found) != 1:  # none, or the metric scored twice: not measured
        return True, None
    return True, exact_number(found[0].get("value"))


def recompute(a: Arm) -> tuple[list[Finding], dict[tuple[str, str], tuple[Tally, Any, str]]]:
    """Failures of the summary against itself and its rows; the recomputed tally of every entry."""
    summary = a.summary
    lanes = summary.get("lanes") if isinstance(summary, dict) else None
    if not isinstance(lanes, list):
        raise Fail(f"{a.label} summary.json has no lanes array", "/lanes", a.role)
    kinds = _kinds(a)
    rows = _rows(a)
    single = lanes[0].get("lane") if len(lanes) == 1 and isinstance(lanes[0], dict) else None
    out: list[Finding] = []
    entries: dict[tuple[str, str], tuple[Tally, Any, str]] = {}
    for i, lane in enumerate(lanes):
        name = lane.get("lane") if isinstance(lane, dict) else None
        metrics = lane.get("metrics") if isinstance(lane, dict) else None
        if not isinstance(name, str) or not isinstance(metrics, list):
            raise Fail(f"{a.label} summary.json lanes[{i}] has no string lane and metrics array", f"/lanes/{i}",
                       a.role)
        for j, entry in enumerate(metrics):
            where = f"/lanes/{i}/metrics/{j}"
            if not isinstance(entry, dict) or not isinstance(entry.get("metric"), str):
                out.append(failed(f"{a.label} lane {name!r} entry {j} has no metric name", where, a.role))
                continue
            metric = entry["metric"]
            path = entry.get("path", metric)
            label = f"{a.label} lane {name!r} metric {metric!r}"
            kind = kinds.get(metric)
            if kind is None:
                out.append(failed(f"{label} is not declared in metrics.json, so its values cannot be read",
                                  where, a.role, metric, "a declared metric"))
                continue
            tally = Tally()
            for _, row in rows:
                if row.get("path") != path or "trial" in row:
                    continue
                if row.get("lane", single) != name:
                    continue
                counted, value = _measure(row, metric, kind)
                if counted:
                    tally.add(value)
            entries[(name, metric)] = (tally, entry, where)
            out += _check_entry(label, entry, where, a.role, tally, kind)
    return out, entries


def _close(claimed: Fraction, recomputed: Fraction, raw: Any = None) -> bool:
    """Within 1e-9 of the recomputed value (relative above 1), or stating it by the rounding rule."""
    if abs(claimed - recomputed) <= Fraction(1, 10**9) * max(Fraction(1), abs(recomputed)):
        return True
    judgement = rounding.judge(raw, recomputed, boundaries=rounding.POINT_BOUNDARIES) if raw is not None else None
    return judgement is not None and judgement.ok


def _count(entry: Mapping[str, Any], key: str) -> int | None | str:
    """An integer count, None when absent, or the problem."""
    if key not in entry:
        return None
    value = entry[key]
    number = exact_number(value)
    if number is None or number.denominator != 1 or number < 0:
        return f"{key} {show(value)} is not a count"
    return int(number)


def _check_entry(label: str, entry: Mapping[str, Any], where: str, role: str, tally: Tally, kind: str) -> list[Finding]:
    out: list[Finding] = []
    counts = {k: _count(entry, k) for k in ("N", "n", "notMeasured")}
    bad = [v for v in counts.values() if isinstance(v, str)]
    if bad:
        return [failed(f"{label}: {bad[0]}", where, role)]
    big_n, n, nm = counts["N"], counts["n"], counts["notMeasured"]
    if n is None or big_n is None:
        return [failed(f"{label} has no N and n counts, so it cannot be checked against its results", where, role)]
    sum_raw, value_raw = entry.get("sum"), entry.get("value")
    written_sum, written_value = exact_number(sum_raw), exact_number(value_raw)
    # the entry against itself
    if nm is not None and nm != big_n - n:
        out.append(failed(f"{label}: notMeasured {nm} is not N {big_n} - n {n}", f"{where}/notMeasured", role, nm,
                          big_n - n))
    aggregate = entry.get("aggregate")
    method = aggregate.get("method") if isinstance(aggregate, dict) else None
    if aggregate is None and written_sum is not None and n and written_value is not None:
        own = written_sum if kind == "count" else written_sum / n
        if not _close(written_value, own, value_raw):
            out.append(failed(f"{label}: value {show(value_raw)} is not sum {show(sum_raw)} / n {n} = "
                              f"{show_fraction(own, 6)}", f"{where}/value", role, jsonable(value_raw), jsonable(own)))
    # the entry against the rows
    if (big_n, n) != (tally.big_n, tally.n):
        out.append(failed(f"{label}: the summary says N {big_n}, n {n}, but results.ndjson has {tally.big_n} lines at "
                          f"path {entry.get('path', entry['metric'])!r} of which {tally.n} are measured",
                          where, role, {"N": big_n, "n": n}, {"N": tally.big_n, "n": tally.n}))
        return out
    total = tally.total
    if "sum" in entry and (written_sum is None or not _close(written_sum, total, sum_raw)):
        out.append(failed(f"{label}: sum {show(sum_raw)} is not the sum of its {n} measured results, "
                          f"{show_fraction(total, 6)}", f"{where}/sum", role, jsonable(sum_raw), jsonable(total)))
    if n == 0:
        if value_raw is not None:
            out.append(failed(f"{label}: value {show(value_raw)} but no result is measured (the value is null)",
                              f"{where}/value", role, jsonable(value_raw), None))
        return out
    if method is not None and method not in RECOMPUTED_AGGREGATES:
        return out  # the producer's own figure: never read by a gate, its counts and sum are checked above
    values = sorted(tally.values or [])
    if method == "min":
        want = values[0]
    elif method == "max":
        want = values[-1]
    elif method == "median":
        mid = len(values) // 2
        want = values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2
    else:
        want = total if kind == "count" else total / n
    if written_value is None or not _close(written_value, want, value_raw):
        rows_text = (f"{int(total)} of {n} measured results passed" if kind in VERDICT_KINDS
                     else f"{n} measured results")
        out.append(failed(f"{label}: value {show(value_raw)}, but results.ndjson gives {show_fraction(want, 6)} "
                          f"({rows_text})", f"{where}/value", role, jsonable(value_raw), jsonable(want)))
    return out


def percent_stated(raw: Any, exact: Fraction) -> rounding.Judgement | None:
    """How a written percentage states ``exact`` (a percentage): the rule of :mod:`bench_gate.text.rounding`
    (exact, its double, or rounded to the decimals written, at least 1; never 0 or 100 by rounding)."""
    return rounding.judge(raw, exact, min_places=rounding.MIN_PLACES_PERCENT, boundaries=rounding.PERCENT_BOUNDARIES)


def metric_entries(entries: Mapping[tuple[str, str], Any], name: str) -> tuple[list[tuple[str, str]], str]:
    """The summary entries (lane, metric) that report ``name``: by their name, or else by the last
    segment of their path-like name (``longmemeval/accuracy`` for ``accuracy``); and how they matched."""
    exact = [key for key in entries if key[1] == name]
    if exact:
        return exact, "name"
    return [key for key in entries if key[1].rsplit("/", 1)[-1] == name], "last path segment"


@kind("pair_summary", SummaryParams, "An arm's summary agrees with itself and its result rows; accuracyPercent with the summary")
def pair_summary(ctx: Context, p: SummaryParams) -> Iterable[Finding]:
    """An arm's summary recomputed from itself and from its result rows (profile ``memory-pair``).

    A memory-pair claim is read from the arms' summaries: the normal arm's gate verdicts and the
    pair record's ``accuracyPercent``. A summary that does not follow from the run's own
    ``results.ndjson`` is not evidence, however well sealed: the seal only proves the files are the
    ones the producer wrote.

    pair_summary
        For one arm (a run folder), every entry of ``summary.json`` (lane, metric, path) is
        recomputed as AEF 1.0 defines the summary (§3.6, SUM-3 to SUM-5):

        * the entry's result lines are the lines of ``results.ndjson`` at its ``path`` in its lane
          (a line without ``lane`` belongs to the only lane of a one-lane summary); trial lines
          (with ``trial``) are not counted, their rollup line is;
        * a ``not_applicable`` line is left out; ``not_measured``, ``skipped``, ``error`` and
          ``pending`` lines are not measured; for a metric of kind ``rate`` or ``verdict``
          (``metrics.json``) every other line is measured with 1 when ``passed`` and 0 otherwise,
          except a ``scored`` line (not measured); for any other kind a line is measured when it
          has exactly one score for the metric, with that score's value;
        * ``N`` = lines not left out, ``n`` = measured lines, ``notMeasured`` = N - n, ``sum`` =
          the exact sum of the measured values, ``value`` = ``sum`` for kind ``count``, else
          ``sum`` / ``n``, and null when ``n`` is 0; an ``aggregate`` entry with method
          ``median``, ``min`` or ``max`` has that value, any other method's value is the
          producer's and is not recomputed (its counts and sum are).

        The entry must agree with itself (``value`` is ``sum``/``n``, ``notMeasured`` is
        ``N`` - ``n``) and with the rows: counts exactly, ``sum`` and ``value`` within
        1e-9 × max(1, |recomputed|) or rounded to the decimals they are written with (at least 3).
        A metric that ``metrics.json`` does not declare fails.

        Then the pair record: a non-null ``accuracyPercent`` is 100 × the value of the summary's
        ``accuracy_metric`` entry, and ``scoredQuestions`` is that entry's ``n``. AEF metric names
        are paths (``longmemeval/accuracy``): the entry is the one named ``accuracy_metric``, or
        else the one whose name's last path segment is it; none, or several, fails naming them.
        The percentage states the value by the rule of ``bench-gate kinds aggregate`` (exact, its
        double, or rounded to the decimals written, at least 1; 0 and 100 are never reached by
        rounding). Params: ``arm`` (role), ``accuracy_metric`` (``accuracy``).
    """
    a = arm(ctx, p.arm, p.arm if p.arm != "report" else "normal")
    out, entries = recompute(a)
    rec = record(a)
    acc_raw = rec.get("accuracyPercent")
    tied = ""
    if acc_raw is not None:
        keys, how = metric_entries(entries, p.accuracy_metric)
        where = f"{RECORD}/accuracyPercent"
        if len(keys) != 1:
            if keys:
                listed = ", ".join(f"{metric!r} in lane {lane!r}" for lane, metric in keys)
                why = f"{len(keys)} summary entries match by {how}: {listed}"
            else:
                names = sorted({metric for _, metric in entries})
                why = (f"no summary entry is named {p.accuracy_metric!r} or ends in '/{p.accuracy_metric}' (the "
                       f"summary reports {', '.join(repr(n) for n in names) or 'no metric'})")
            out.append(failed(f"{a.label} pair record accuracyPercent {show(raw_value(acc_raw))} cannot be tied to the "
                              f"summary: {why}; exactly one must (parameter accuracy_metric)", where, a.role,
                              jsonable(raw_value(acc_raw)), f"one {p.accuracy_metric} entry"))
        else:
            lane, metric = keys[0]
            tally, entry, _ = entries[keys[0]]
            named = f"{metric!r}" + (f" (matched by its {how})" if how != "name" else "")
            if tally.n and exact_number(acc_raw) is not None:
                exact = tally.total * 100 / tally.n
                judgement = percent_stated(acc_raw, exact)
                ratio = f"{show_fraction(tally.total)}/{tally.n}"
                if judgement is None or not judgement.ok:
                    text = judgement.sentence(f"100 × {ratio}", "") if judgement is not None else ""
                    out.append(failed(f"{a.label} pair record accuracyPercent {show(raw_value(acc_raw))} is not 100 × "
                                      f"the summary's {named} in lane {lane!r}: {text}", where, a.role,
                                      jsonable(raw_value(acc_raw)), jsonable(exact)))
                else:
                    tied = f"; accuracyPercent {show(raw_value(acc_raw))} = 100 × {ratio} of {named}{judgement.note()}"
            elif tally.n == 0:
                out.append(failed(f"{a.label} pair record accuracyPercent {show(raw_value(acc_raw))} but lane {lane!r} "
                                  f"measured no {metric!r} result", where, a.role, jsonable(raw_value(acc_raw)), None))
            scored = rec.get("scoredQuestions")
            if scored is not None and exact_number(scored) != tally.n:
                out.append(failed(f"{a.label} pair record scoredQuestions {show(raw_value(scored))} is not the "
                                  f"{tally.n} measured {metric!r} results of lane {lane!r}",
                                  f"{RECORD}/scoredQuestions", a.role, jsonable(raw_value(scored)), tally.n))
    if out:
        return out
    return [passed(f"{a.label}: {len(entries)} summary entr{'y' if len(entries) == 1 else 'ies'} recomputed from "
                   f"results.ndjson{tied}", "/lanes", a.role)]
