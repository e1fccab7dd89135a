"""The frozen data bench-gate passes around: rules, findings, results and verdicts.

Everything here is immutable and imports nothing else of bench-gate, so every other module
(checks, engine, renderers) can depend on it without cycles.

Vocabulary:

* a **finding** is what a check kind says about one value: ``pass``, ``fail`` or ``skip``,
  with a message and the location (document role + JSON Pointer) it is about;
* a **rule result** is the engine's one-line answer for one rule: the first failing finding
  (or the passing one), stamped with the rule id, severity and the YAML source of the rule;
  further failures of the same rule are kept in ``details``;
* a **verdict** is the ordered list of rule results for one report, with the digests of every
  input, so that the same inputs, profile and ``--now`` always give the same bytes.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from collections.abc import Mapping
from typing import Any, Literal

from bench_gate.records import field, record

Status = Literal["pass", "fail", "skip", "waived"]
Severity = Literal["error", "warning", "info"]
FindingStatus = Literal["pass", "fail", "skip"]

SCHEMA_VERSION = "bench-gate.verdict.v1"
BATCH_SCHEMA_VERSION = "bench-gate.batch.v1"


class _Unset:
    """Marks an ``actual``/``expected`` that was not given (distinct from JSON null)."""

    _instance: "_Unset | None" = None

    def __new__(cls) -> "_Unset":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


UNSET: Any = _Unset()


ClaimStatus = Literal["confirmed", "contradicted", "untestable"]


@record
class ClaimRecord:
    """What a claims scan decided about one claim in a document, for its audit table.

    ``confirmed``: a value of gated evidence equals it at the precision written;
    ``contradicted``: the evidence or the document's own arithmetic gives another value;
    ``untestable``: nothing can confirm it. ``evidence`` names what it rests on or contradicts
    (``entry``, ``profile``, ``pointer``, ``value``), ``reason`` says why it is untestable.
    """

    status: ClaimStatus
    text: str
    evidence: Mapping[str, Any] | None = None
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "text": self.text}
        if self.evidence is not None:
            out["evidence"] = dict(self.evidence)
        if self.reason:
            out["reason"] = self.reason
        return out


@record
class Finding:
    """One statement of a check about one value."""

    status: FindingStatus
    message: str
    document: str = "report"
    pointer: str = ""
    actual: Any = UNSET
    expected: Any = UNSET
    claim: ClaimRecord | None = None


ARTIFACT_FILES = "artifact-files"
"""The role of the synthetic document holding the hashes of the files artifact tables list."""

NOT_EVALUATED = "not-evaluated"
"""The check of the one result of a report in a batch that could not be evaluated (exit 2):
renderers show it as an error of the run, not as a rule that failed."""


@record
class Doc:
    """A loaded document: parsed JSON (``data``), JSON Lines (``rows``) or a run folder."""

    role: str
    path: str
    sha256: str = ""
    size: int = 0
    data: Any = None
    rows: tuple[tuple[int, Any], ...] | None = None
    error: str | None = None
    origin: str = "report"
    extra: Mapping[str, Any] = field(default_factory=dict)
    found: str = ""  # where a path from another machine was found under the evidence root


@record
class Detail:
    """A further failure of the same rule, beyond the one the result line shows."""

    message: str
    document: str
    pointer: str
    actual: Any = UNSET
    expected: Any = UNSET


@record
class RuleResult:
    """The engine's answer for one rule."""

    rule: str
    title: str
    status: Status
    severity: Severity
    message: str
    document: str
    pointer: str
    source: str
    check: str
    actual: Any = UNSET
    expected: Any = UNSET
    why: str = ""
    details: tuple[Detail, ...] = ()
    omitted_details: int = 0
    waiver: dict[str, str] | None = None
    claim: ClaimRecord | None = None
    """For a claim in a document (the claims verb): its status and evidence."""


@record
class InputDigest:
    """A file the verdict depends on."""

    role: str
    path: str
    sha256: str
    bytes: int


@record
class Verdict:
    """All rule results for one report, in plan order."""

    profile_name: str
    profile_digest: str
    evaluated_at: datetime
    inputs: tuple[InputDigest, ...]
    results: tuple[RuleResult, ...]
    fail_on: Severity = "error"
    report_path: str = ""
    tool_version: str = "0.1.0"
    positions: Mapping[tuple[str, str], tuple[int, int]] = field(default_factory=dict, compare=False)
    """(document role, pointer) -> (line, column) in that document's file, for the pointers of
    failures; the text renderers and SARIF show them, the JSON verdict does not carry them."""
    located: Mapping[str, str] = field(default_factory=dict, compare=False)
    """document role -> the path the document was read from, as a user opens it from where the
    gate ran (an evidence file joined to the evidence root, or where a path from another machine
    was found under it); the renderers locate findings in it."""

    @property
    def passed(self) -> bool:
        """False iff a rule at or above the fail-on severity failed."""
        blocking = _BLOCKING[self.fail_on]
        return not any(r.status == "fail" and r.severity in blocking for r in self.results)

    def counts(self) -> dict[str, int]:
        """pass/fail/skip always; waived and warn (warnings that failed) when present."""
        out = {"pass": 0, "fail": 0, "skip": 0}
        for r in self.results:
            out[r.status] = out.get(r.status, 0) + 1
        warn = sum(1 for r in self.results if r.status == "fail" and r.severity != "error")
        if warn:
            out["warn"] = warn
        return out


_BLOCKING: dict[str, frozenset[str]] = {
    "error": frozenset({"error"}),
    "warning": frozenset({"error", "warning"}),
    "info": frozenset({"error", "warning", "info"}),
}


@record
class BatchVerdict:
    """Several reports judged by one compiled profile."""

    verdicts: tuple[Verdict, ...]

    @property
    def passed(self) -> bool:
        return all(v.passed for v in self.verdicts)


@record
class UsageProblem:
    """Why a run could not be evaluated (exit 2)."""

    message: str
    hints: tuple[str, ...] = field(default_factory=tuple)


class WrittenFloat(float):
    """A float whose JSON literal is not the shortest form of its double; ``literal`` is the text.

    Either a decimal no double holds (``499.99999999999999``), or the same double written with
    other decimals (``0.9400``, ``1.00``, ``1e2``): the literal says how the producer rounded it.
    """

    literal: str

    def __new__(cls, value: float, literal: str) -> "WrittenFloat":
        obj = super().__new__(cls, value)
        obj.literal = literal
        return obj


_INF = float("inf")


def exact_number(value: Any) -> Fraction | None:
    """The exact value of a JSON number as written, or None for anything that is not one.

    Booleans are not numbers. Floats are taken at their shortest round-trip decimal, which is
    the literal as written (a :class:`WrittenFloat` keeps its literal exactly).
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, WrittenFloat):
        return Fraction(Decimal(value.literal))
    if isinstance(value, float):
        if value != value or value in (_INF, -_INF):
            return None
        return _float_value(value)
    return None


@lru_cache(maxsize=4096)
def _float_value(value: float) -> Fraction:
    """The exact value of a plain float's shortest literal, remembered: a report repeats its
    metric values in rule after rule (only plain floats come here; a WrittenFloat equal to one
    may be written otherwise, and is read from its literal)."""
    # the decimal module reads the literal faster than Fraction's own parser does
    return Fraction(*Decimal(repr(value)).as_integer_ratio())

