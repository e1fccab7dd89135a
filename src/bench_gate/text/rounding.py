"""When a claimed number states a recomputed value: the one rule every check kind applies.

Producers write numbers the way their language prints them: Python's shortest form
(``0.9428571428571428`` for 66/70), C's ``%.17g`` (``0.94285714285714284``), a decimal
library's 20 places (``0.94285714285714285714``), a summary rounded to 4 places (``0.9406``),
a percentage to 1 (``96.2``), and often with the trailing zeros dropped (``0.94`` for
``0.9400``). A claim is honest when it is

* **exact**: the recomputed value as written (``0.72`` for 18/25);
* **the double**: it reads back as the double nearest to the exact value, or as one a producer
  computing in binary floating point gets (``correct / scored * 100``: within 2 units in the
  last place of the claim's double);
* **rounded**: the exact value rounded to the decimals the claim is written with, either way of
  rounding a tie (half-even or half-up), provided the claim has at least ``min_places``
  decimals (default 3 for a fraction, 1 for a percentage), or rounded to the ``places`` a
  profile declares its producer rounds to (``places: 4`` accepts ``0.94`` for a value that
  rounds to 0.9400);
* **within the tolerance** a profile declares explicitly (``tolerance``).

A claim of a boundary value (0 or 1 for a fraction, 0 or 100 for a percentage) is never reached
by rounding or by a nearby double: 0.99996 is not "1.0000" and 469/470 is not "100%". Thresholds
and minimums are decided on the recomputed value, never on a rounded claim.

Every message says which rule decided: ``claimed 0.9617 (4 places); the exact value 452/470
rounds to 0.9617 at 4 places``.

This module is a leaf: it reads a JSON number as written (an int, a float, or a float that
keeps its literal in a ``literal`` attribute, see :class:`bench_gate.models.WrittenFloat`).
"""

from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any, Literal

from bench_gate.records import record

How = Literal["exact", "double", "rounded", "tolerance", ""]

FRACTION_BOUNDARIES = (Fraction(0), Fraction(1))
PERCENT_BOUNDARIES = (Fraction(0), Fraction(100))
POINT_BOUNDARIES = (Fraction(0),)
MIN_PLACES_FRACTION = 3
MIN_PLACES_PERCENT = 1
DOUBLE_ULPS = 2
"""How many units in the last place a producer's double may be from the exact value: one
division and one multiplication (``correct / scored * 100``) stay within 1.5."""


@record
class Written:
    """A JSON number as written: its text, its exact value and its decimal places."""

    text: str
    value: Fraction
    places: int

    def described(self, unit: str = "") -> str:
        """``0.9617 (4 places)``; an integer has no places to show."""
        if self.places == 0:
            return f"{self.text}{unit}"
        return f"{self.text}{unit} ({self.places} place{'s' if self.places != 1 else ''})"


def written(raw: Any) -> Written | None:
    """The number as written, or None for anything that is not a finite JSON number."""
    if isinstance(raw, bool) or not isinstance(raw, (int, float)):
        return None
    if isinstance(raw, int):
        return Written(str(raw), Fraction(raw), 0)
    if raw != raw or raw in (math.inf, -math.inf):
        return None
    text = getattr(raw, "literal", None)
    text = text if isinstance(text, str) else repr(raw)
    try:
        exact = Decimal(text)
    except InvalidOperation:  # pragma: no cover - the strict parser only makes valid literals
        return None
    exponent = exact.as_tuple().exponent
    places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
    return Written(text, Fraction(exact), places)


def places_of(raw: Any) -> int:
    """Decimal places of a JSON number as written (``0.9400`` has 4, ``9.4e-1`` has 2)."""
    found = written(raw)
    return found.places if found is not None else 0


def rounds_to(claim: Fraction, exact: Fraction, places: int, slack: Fraction = Fraction(0)) -> bool:
    """``claim`` is ``exact`` rounded to ``places`` decimals, by either rounding of a tie.

    ``slack`` widens the half unit for a recomputed value that is itself a float (nDCG).
    """
    scale = 10**places
    if (claim * scale).denominator != 1:
        return False
    return abs(claim - exact) * scale <= Fraction(1, 2) + slack * scale


def rounded(exact: Fraction, places: int) -> Fraction:
    """``exact`` rounded half-even to ``places`` decimals (for messages)."""
    scale = 10**places
    return Fraction(round(exact * scale), scale)


def decimal_text(value: Fraction, places: int) -> str:
    """``value`` written with exactly ``places`` decimals (``0.9400``)."""
    scale = 10**places
    units = round(value * scale)
    sign = "-" if units < 0 else ""
    whole, part = divmod(abs(units), scale)
    return f"{sign}{whole}" + (f".{part:0{places}d}" if places else "")


def shown(value: Fraction, places: int = 6) -> str:
    """An exact short decimal when there is one (up to 12 places), else ``places`` decimals and …
    (scientific notation for a value too small or too large for that)."""
    for p in range(0, 13):
        if (value * 10**p).denominator == 1 and abs(value) < 10**15:
            return decimal_text(value, p)
    if abs(value) >= 10**15 or abs(value) < Fraction(1, 10**places):
        return f"{Decimal(value.numerator) / Decimal(value.denominator):.{places}e}"
    return decimal_text(value, places) + "…"


def _double(text: str) -> float | None:
    try:
        value = float(text)
    except (OverflowError, ValueError):
        return None
    return value if value - value == 0.0 else None


def _nearest(exact: Fraction) -> float | None:
    try:
        return float(exact)
    except OverflowError:
        return None


def _near_double(claim: Written, exact: Fraction) -> bool:
    """The claim reads back as a double within DOUBLE_ULPS of the exact value (the nearest
    double is within half of one)."""
    double = _double(claim.text)
    if double is None:
        return False
    try:
        nearest = float(exact)
    except OverflowError:
        return False
    if double == nearest:
        return True
    return abs(Fraction(double) - exact) <= DOUBLE_ULPS * Fraction(math.ulp(double))


@record
class Judgement:
    """How a claim compares with the exact value: ``ok`` and the rule that decided (``how``)."""

    ok: bool
    how: How
    claim: Written
    exact: Fraction
    at: int | None  # the places the claim was compared at, for a rounded claim (or the nearest miss)
    declared: bool  # ``at`` is the places the profile declares, not the claim's own
    boundary: bool
    min_places: int
    tolerance: Fraction

    def sentence(self, what: str = "the exact value", unit: str = "") -> str:
        """One clause naming the rule: ``claimed 0.9617 (4 places); the exact value 452/470
        rounds to 0.9617 at 4 places``. ``what`` names the value and how it came about (``the
        exact value 452/470``, ``the recomputed sum of /usd (50 rows)``); ``unit`` follows each
        number (``%``)."""
        claim = self.claim.described(unit)
        value = f"{shown(self.exact)}{unit}"
        if self.how == "exact":
            return f"claimed {claim}; {what} is {value}"
        if self.how == "double":
            return f"claimed {claim}; {what} is {value}, and the claim is its value as a double"
        if self.how == "tolerance":
            return f"claimed {claim}; {what} is {value}, within the tolerance {_tol(self.tolerance)}"
        if self.at is not None:
            text = f"claimed {claim}; {what} {self._rounds(unit)}"
        else:
            text = f"claimed {claim}; {what} is {value}"
        why = self._refusal(unit)
        if why:
            text += f": {why}"
        elif self.at is None and self.tolerance:
            text += f" (tolerance {_tol(self.tolerance)})"
        return text

    def _rounds(self, unit: str) -> str:
        assert self.at is not None
        at = self.at
        to = f"{decimal_text(rounded(self.exact, at), at)}{unit}"
        where = f"at the {at} places the profile declares" if self.declared else f"at {at} place{'s' if at != 1 else ''}"
        return f"rounds to {to} {where}"

    def why(self, unit: str = "") -> str:
        """Why a claim that is not exact fails, in the rule's words, or "" when the numbers say it
        all (a claim that is simply another number)."""
        if self.ok:
            return ""
        refusal = self._refusal(unit)
        if refusal:
            return refusal
        if self.at is None or rounded(self.exact, self.at) == self.exact:
            return ""  # the exact value has no more decimals than the claim: the numbers say it all
        if not self.declared and abs(self.claim.value - self.exact) * 10 ** (self.at - 1) >= 1:
            return ""  # not a near miss: another number altogether, the rounding explains nothing
        return f"the exact value {self._rounds(unit)}"

    def _refusal(self, unit: str) -> str:
        """Why the rule refuses a claim that rounding would otherwise reach, or ""."""
        if self.ok:
            return ""
        close = rounds_to(self.claim.value, self.exact, self.claim.places) or _near_double(self.claim, self.exact)
        if self.boundary and close:
            return f"a claim of {self.claim.text}{unit} must be exact (rounding never reaches a boundary)"
        if self.at is None and self.claim.places < self.min_places and close:
            return (f"a rounded claim needs at least {self.min_places} place{'s' if self.min_places != 1 else ''} "
                    "(min_places), or the places its producer rounds to (places)")
        return ""

    def how_text(self) -> str:
        """How a passing claim states the value: ``rounded to 4 places``, ``within the tolerance
        1e-09``, or "" when it is the value (exact, or its double)."""
        if self.how == "rounded" and self.at is not None:
            return f"rounded to the {self.at} places declared" if self.declared else \
                f"rounded to {self.at} place{'s' if self.at != 1 else ''}"
        if self.how == "tolerance":
            return f"within the tolerance {_tol(self.tolerance)}"
        return ""

    def note(self) -> str:
        """A short parenthesis for a passing claim: `` (rounded to 4 places)``, or nothing when exact."""
        text = self.how_text()
        return f" ({text})" if text else ""


def _tol(value: Fraction) -> str:
    return f"{float(value):g}"


def judge(raw: Any, exact: Fraction | float, *, min_places: int = MIN_PLACES_FRACTION, places: int | None = None,
          tolerance: Fraction | float = 0, boundaries: tuple[Fraction, ...] = FRACTION_BOUNDARIES,
          computed: Fraction | None = None) -> Judgement | None:
    """Whether the claimed JSON number ``raw`` states ``exact`` (see the module documentation).

    ``exact`` may be a float when the recomputation itself is one (nDCG involves logarithms):
    rounding is then judged within ``tolerance`` of it. ``computed`` is the value a producer
    computing in doubles from the written inputs gets (a difference of two written doubles),
    accepted as a double too. None when ``raw`` is not a number.
    """
    claim = written(raw)
    if claim is None:
        return None
    approximate = isinstance(exact, float)
    value = Fraction(exact)
    tol = Fraction(tolerance)
    boundary = claim.value in boundaries
    base = dict(claim=claim, exact=value, boundary=boundary, min_places=min_places, tolerance=tol)
    if claim.value == value:
        return Judgement(True, "exact", at=None, declared=False, **base)  # type: ignore[arg-type]
    if not boundary and _double(claim.text) == _nearest(value):
        return Judgement(True, "double", at=None, declared=False, **base)  # type: ignore[arg-type]
    if approximate and tol and abs(claim.value - value) <= tol:
        # a float recomputation (nDCG) is compared within its tolerance first: it is no exact value to round
        return Judgement(True, "tolerance", at=None, declared=False, **base)  # type: ignore[arg-type]
    slack = tol if approximate else Fraction(0)
    candidates: list[tuple[int, bool]] = []
    if claim.places >= min_places:
        candidates.append((claim.places, False))
    if places is not None and (places, False) not in candidates:
        candidates.append((places, True))
    for at, declared in candidates:
        if rounds_to(claim.value, value, at, slack):
            if boundary:
                return Judgement(False, "", at=at, declared=declared, **base)  # type: ignore[arg-type]
            return Judgement(True, "rounded", at=at, declared=declared, **base)  # type: ignore[arg-type]
    if not boundary and (_near_double(claim, value) or (computed is not None and _near_double(claim, computed))):
        return Judgement(True, "double", at=None, declared=False, **base)  # type: ignore[arg-type]
    if tol and abs(claim.value - value) <= tol:
        return Judgement(True, "tolerance", at=None, declared=False, **base)  # type: ignore[arg-type]
    at, declared = candidates[0] if candidates else (None, False)
    return Judgement(False, "", at=at, declared=declared, **base)  # type: ignore[arg-type]


def boundaries_for(unit: str) -> tuple[Fraction, ...]:
    """The boundary values of a unit: ``fraction`` 0 and 1, ``percent`` 0 and 100, else 0."""
    return {"fraction": FRACTION_BOUNDARIES, "percent": PERCENT_BOUNDARIES}.get(unit, POINT_BOUNDARIES)


def min_places_for(unit: str) -> int:
    """The default ``min_places`` of a unit: 3 for a fraction, 1 for a percentage or points."""
    return MIN_PLACES_FRACTION if unit == "fraction" else MIN_PLACES_PERCENT
