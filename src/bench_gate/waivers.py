"""Waivers: a reviewed, expiring exception for one failing rule.

``--waivers FILE`` names a YAML file::

    waivers:
      - rule: slice-thresholds                   # required: the rule id
        pointer: /per_type/single-session-preference/ndcg@5   # optional: only this location
        document: report                         # optional: only this document role
        report: "reports/*.json"                 # optional: only reports matching this glob
        reason: Preference questions are re-labelled upstream; tracked in EVAL-142.
        approved_by: eval-leads
        expires: 2026-12-31                      # a date (valid through that UTC day) or RFC 3339

A failing result that a waiver matches is reported with status ``waived`` and the waiver
attached; it no longer fails the gate. The waiver mechanism can never be used to talk the gate
into PASS silently:

* every field but ``pointer``, ``document`` and ``report`` is required and non-empty: an entry
  without a reason, an approver or an expiry fails the gate with its own result
  (``waiver-N``), and so does an unknown key (with the closest valid key: ``rulle`` -> did you
  mean ``rule``?) and a placeholder reason or approver (``.``, ``-``, ``TBD``, ``n/a``, ``todo``,
  ``unknown``, a single character): an unreviewed waiver must not look reviewed;
* a waiver for a rule id the evaluated profile does not have fails the gate with its own
  result, naming the closest rule id of the profile: a mistyped id would otherwise waive
  nothing and read as a stale waiver;
* an expired waiver waives nothing and fails the gate with its own result; expiry is checked
  on every evaluation, against ``--now``;
* a waiver that matched no failing result of a report it applies to fails the gate: stale
  waivers are removed, not left to hide the next regression;
* a waiver of a rule whose findings are places in text files (the claims of ``bench-gate
  claims``, pointer ``/line/L/column/C``) must name both ``document`` and ``pointer``: a waiver of
  the whole rule would waive every number of every file, including numbers written after it was
  approved; one without them waives nothing and fails the gate with its own result;
* a waiver that runs longer than the profile allows (parameter ``max_waiver``, an ISO 8601
  duration with calendar semantics, ``P1Y`` when the profile does not set it) from the
  evaluation instant waives nothing and fails the gate: ``expires: 9998-12-31`` is a permanent
  exemption, not a reviewed exception.

Every waiver problem names the waiver's place, ``waivers.yaml:7`` (the line of the offending key
when there is one), in its message, and the text, GitHub and SARIF outputs point at that line
and column.

Waiver files are YAML with the same strictness as profiles (an anchor, a duplicate key or a
YAML 1.1 boolean is a usage error), and stricter in one respect: any explicit tag, even a
standard one such as ``!!str``, is a usage error too.

A waivers file that cannot be read or is not YAML is a usage error (exit 2).
"""

from __future__ import annotations

import fnmatch
import hashlib
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from bench_gate.records import field, record, replace
from bench_gate.profile import yamlsafe
from bench_gate.models import Detail, InputDigest, RuleResult, Verdict
from bench_gate.text.suggest import did_you_mean

_KEYS = {"rule", "pointer", "document", "report", "reason", "approved_by", "expires"}
_REQUIRED = ("rule", "reason", "approved_by", "expires")
MAX_WAIVER_BYTES = 1024 * 1024
MAX_WAIVER = "P1Y"
"""The longest a waiver may run from the evaluation instant, unless the profile sets ``max_waiver``."""


class WaiverFileError(Exception):
    """The waivers file cannot be used at all (exit 2)."""


@record
class Waiver:
    index: int
    source: str
    rule: str
    reason: str
    approved_by: str
    expires_text: str
    expires: datetime | None
    pointer: str | None = None
    document: str | None = None
    report: str | None = None
    problem: str | None = None
    problem_key: str | None = None
    """The key a problem is about (its line is the problem's place), None for the whole entry."""

    def applies_to(self, report_path: str) -> bool:
        return self.report is None or fnmatch.fnmatch(report_path, self.report)

    def matches(self, r: RuleResult) -> bool:
        return (r.rule == self.rule and (self.pointer is None or r.pointer == self.pointer)
                and (self.document is None or r.document == self.document))


def parse_expiry(text: str) -> datetime | None:
    """The first instant at which the waiver no longer applies, or None if unparsable."""
    from bench_gate.text.isotime import TimeError, parse_instant, parse_when, utc

    try:
        when = parse_when(text)
        if when.day is not None:  # valid through the end of that UTC day
            return datetime.combine(when.day, datetime.min.time(), utc()) + timedelta(days=1)
        return parse_instant(text)
    except (TimeError, OverflowError):
        return None


@record
class WaiverFile:
    path: str
    sha256: str
    size: int
    entries: list[Waiver]
    lines: yamlsafe.Lines = field(default_factory=yamlsafe.Lines)

    def place(self, w: Waiver) -> tuple[str, tuple[int, int]]:
        """(JSON Pointer, (line, column)) of a waiver, or of the key its problem is about."""
        path: tuple[str | int, ...] = ("waivers", w.index) + ((w.problem_key,) if w.problem_key else ())
        return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in path), \
            self.lines.position(path)

    def where(self, w: Waiver) -> str:
        """``waivers.yaml:7``: the file and line of a waiver, or of the key its problem is about."""
        return f"{self.path}:{self.place(w)[1][0]}"


def load(path: str) -> WaiverFile:
    """Read a waivers file; entries with problems are kept (they fail the gate when applied)."""
    p = Path(path)
    try:
        if not p.is_file():
            raise WaiverFileError(f"--waivers {path}: no such file")
        if p.stat().st_size > MAX_WAIVER_BYTES:
            raise WaiverFileError(f"--waivers {path}: over {MAX_WAIVER_BYTES} bytes")
        raw = p.read_bytes()
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise WaiverFileError(f"--waivers {path}: not UTF-8 text") from None
    except OSError as exc:
        raise WaiverFileError(f"--waivers {path}: cannot be read ({exc.strerror})") from None
    try:
        data, lines = yamlsafe.load(text)
        _no_explicit_tags(text)
    except yamlsafe.YamlError as exc:
        where = f":{exc.line}" if exc.line else ""
        raise WaiverFileError(f"--waivers {path}{where}: {exc.message}") from None
    if not isinstance(data, dict) or set(data) != {"waivers"} or not isinstance(data["waivers"], list):
        raise WaiverFileError(f"--waivers {path}: expected a mapping with one key, 'waivers', holding a list")
    out = []
    for i, entry in enumerate(data["waivers"]):
        source = f"{path}:{lines.line(('waivers', i))}"
        out.append(_entry(i, entry, source))
    return WaiverFile(path, hashlib.sha256(raw).hexdigest(), len(raw), out, lines)


def _no_explicit_tags(text: str) -> None:
    """A YamlError at the first explicit tag: even a standard one (``!!str``) changes what a value shows."""
    import yaml

    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        tag = getattr(event, "tag", None)
        if tag:
            raise yamlsafe.YamlError(f"explicit tags ({tag.replace('tag:yaml.org,2002:', '!!')}) are not allowed "
                                     "in a waivers file; write the plain value, quoted for a string",
                                     event.start_mark.line + 1)


PLACEHOLDERS = frozenset({"na", "tbd", "tba", "todo", "fixme", "unknown", "none", "null", "nil", "xx", "xxx",
                          "placeholder", "reason", "approver", "someone", "nobody", "test", "asdf"})
"""Reasons and approvers that say nothing, compared by their letters and digits (``N/A`` is ``na``)."""


def placeholder(value: str) -> bool:
    """True for a reason or approver that reviews nothing: no two letters or digits, or a
    placeholder word (``.``, ``-``, ``TBD``, ``n/a``, ``todo``)."""
    from bench_gate.text.canonical import skeleton

    letters = skeleton(value)
    return len(letters) < 2 or letters in {skeleton(word) for word in PLACEHOLDERS}


def _entry(i: int, entry: Any, source: str) -> Waiver:
    if not isinstance(entry, dict):
        return Waiver(i, source, "", "", "", "", None, problem="is not a mapping")
    text = {k: v for k, v in entry.items()}
    problem: tuple[str, str | None] | None = None
    unknown = sorted(set(text) - _KEYS)
    if unknown:
        problem = f"has unknown key {unknown[0]!r}{did_you_mean(unknown[0], sorted(_KEYS))}", unknown[0]
    for key in _REQUIRED:
        value = text.get(key)
        if problem is None and (not isinstance(value, str) or not value.strip()):
            problem = (f"has no {key}", None) if value in (None, "") else \
                (f"has a {key} that is not a non-empty string", key)
    for key in ("reason", "approved_by"):
        if problem is None and placeholder(text[key]):
            what = "why the failure is acceptable" if key == "reason" else "who reviewed it"
            problem = f"has {key} {text[key]!r}, a placeholder (a waiver says {what})", key
    for key in ("pointer", "document", "report"):
        if problem is None and key in text and (not isinstance(text[key], str) or not text[key]):
            problem = f"has a {key} that is not a non-empty string", key
    expires_text = text.get("expires") if isinstance(text.get("expires"), str) else ""
    expires = parse_expiry(expires_text) if expires_text else None
    if problem is None and expires is None:
        problem = (f"has expires {expires_text!r}, which is not a date (YYYY-MM-DD) or an RFC 3339 "
                   "timestamp", "expires")
    return Waiver(i, source, str(text.get("rule") or ""), str(text.get("reason") or ""),
                  str(text.get("approved_by") or ""), expires_text, expires,
                  text.get("pointer"), text.get("document"), text.get("report"),
                  problem[0] if problem else None, problem[1] if problem else None)


def _own(w: Waiver, file: WaiverFile, message: str) -> RuleResult:
    return RuleResult(rule=f"waiver-{w.index + 1}", title="A waiver is valid, current and used", status="fail",
                      severity="error", message=message, document="waivers", pointer=file.place(w)[0],
                      source=w.source, check="waiver",
                      why="A waiver is a reviewed, expiring exception; an invalid, expired or stale one must not "
                          "silently change the verdict.")


def _waive(r: RuleResult, w: Waiver) -> RuleResult | None:
    """The result with the waiver applied, or None if the waiver covers none of its failures.

    A waiver scoped to one location waives only that location: when the rule also failed
    elsewhere, the result stays failing with the remaining locations.
    """
    info = {"reason": w.reason, "approved_by": w.approved_by, "expires": w.expires_text, "source": w.source}
    everything = [(r.message, r.document, r.pointer, r.actual, r.expected)] + \
        [(d.message, d.document, d.pointer, d.actual, d.expected) for d in r.details]

    def covered(document: str, pointer: str) -> bool:
        return (w.pointer is None or pointer == w.pointer) and (w.document is None or document == w.document)

    remaining = [f for f in everything if not covered(f[1], f[2])]
    if len(remaining) == len(everything):
        return None
    if not remaining and not r.omitted_details:
        return replace(r, status="waived", waiver=info)
    if not remaining:  # failures beyond the recorded details cannot be shown to be covered
        return replace(r, message=f"{r.message} (waiver {w.index + 1} covers the listed locations, but "
                                  f"{r.omitted_details} more failures were not listed)")
    first, rest = remaining[0], remaining[1:]
    waived_n = len(everything) - len(remaining)
    message = first[0].split(" (and ")[0]
    if rest or r.omitted_details:
        message += f" (and {len(rest) + r.omitted_details} more)"
    message += f"; {waived_n} location{'s' if waived_n != 1 else ''} waived by waiver {w.index + 1}"
    return replace(r, message=message, document=first[1], pointer=first[2], actual=first[3], expected=first[4],
                   details=tuple(Detail(*f) for f in rest))


def _unlocated(w: Waiver, name: str, results: list[RuleResult]) -> str | None:
    """Why a waiver of a rule whose findings are places in text files waives nothing (None: it may
    waive). Such a rule (every claim of ``bench-gate claims``) fails once per number or phrase in
    every file: a waiver without the file and the ``/line/L/column/C`` of the one claim it waives
    would waive every claim of the rule, including those written after it was approved."""
    located = [r for r in results if r.rule == w.rule and r.status == "fail" and r.pointer.startswith("/line/")]
    if not located or (w.pointer is not None and w.document is not None):
        return None
    first = located[0]
    missing = " and ".join(k for k, v in (("document", w.document), ("pointer", w.pointer)) if v is None)
    return (f"{name} for rule {w.rule} names no {missing}: a waiver of a claim in a document must name "
            f"the file (document) and the claim's place (pointer /line/L/column/C), e.g. document: {first.document}, "
            f"pointer: {first.pointer}; a waiver of the whole rule would waive every claim it finds, including "
            "those written later; it waives nothing")


def apply(verdict: Verdict, file: WaiverFile, max_waiver: str = MAX_WAIVER) -> Verdict:
    """The verdict with matching failures waived and every waiver problem added as a failure.

    ``max_waiver``: the longest a waiver may run after the evaluation instant, an ISO 8601
    duration (``P1Y``, ``P90D``) added on the calendar.
    """
    from bench_gate.text.isotime import parse_duration

    waivers = file.entries
    now = verdict.evaluated_at
    longest = parse_duration(max_waiver)
    try:
        limit: datetime | None = longest.after(now)
    except (OverflowError, ValueError):  # a limit beyond year 9999 limits nothing
        limit = None
    results = list(verdict.results)
    rule_ids = list(dict.fromkeys(r.rule for r in results))
    extra: list[RuleResult] = []
    for w in waivers:
        name = f"waiver {w.index + 1} at {file.where(w)}"
        if w.problem is not None:
            extra.append(_own(w, file, f"{name} waives nothing: it {w.problem}"))
            continue
        if w.rule not in rule_ids:
            # a mistyped or removed rule id: say so, rather than "matched no failing result"
            extra.append(_own(w, file, f"waiver {w.index + 1} for rule {w.rule!r} at {file.where(w)} waives "
                                       f"nothing: profile {verdict.profile_name} has no such rule (`bench-gate "
                                       f"explain {verdict.profile_name}` lists them){did_you_mean(w.rule, rule_ids)}"))
            continue
        if not w.applies_to(verdict.report_path):
            continue
        assert w.expires is not None
        if now >= w.expires:
            extra.append(_own(w, file, f"{name} for rule {w.rule} expired at {w.expires_text} "
                                       f"(now {now.strftime('%Y-%m-%dT%H:%M:%SZ')}); it waives nothing"))
            continue
        if limit is not None and w.expires > limit:
            extra.append(_own(w, file, f"{name} for rule {w.rule} expires {w.expires_text}, more than "
                                       f"{longest.describe()} ({longest.text}) after {now.strftime('%Y-%m-%d')} "
                                       "(the longest this profile allows, max_waiver); a waiver is a short, "
                                       "reviewed exception; it waives nothing"))
            continue
        unlocated = _unlocated(w, name, results)
        if unlocated is not None:
            extra.append(_own(w, file, unlocated))
            continue
        used = False
        for i, r in enumerate(results):
            if r.status == "fail" and r.rule == w.rule:
                waived = _waive(r, w)
                if waived is not None:
                    results[i] = waived
                    used = True
        if not used:
            where = f" at {w.document or '*'}:{w.pointer}" if w.pointer else ""
            extra.append(_own(w, file, f"{name} for rule {w.rule}{where} matched no failing result; remove it"))
    inputs = verdict.inputs + (InputDigest("waivers", file.path, file.sha256, file.size),)
    positions = dict(verdict.positions)
    for w in waivers:
        pointer, position = file.place(w)
        positions[("waivers", pointer)] = position
    return replace(verdict, results=tuple(results + extra), inputs=inputs, positions=positions,
                   located={**verdict.located, "waivers": file.path})
