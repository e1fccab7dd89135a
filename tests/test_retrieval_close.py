"""The retrieval comparison's float pre-filter decides exactly what the Fraction comparison does."""

from __future__ import annotations

import math
import random
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench_gate.checks.recompute.retrieval import _close
from bench_gate.models import exact_number


def exact(claimed: Fraction | float, recomputed: Fraction | float, tol: float) -> bool:
    return abs(Fraction(claimed) - Fraction(recomputed)) <= Fraction(tol)


TOLS = [0.0, 1e-12, 1e-9, 1e-6, 0.0005, 0.5]


@pytest.mark.parametrize(("claimed", "recomputed", "tol", "expected"), [
    (Fraction(1, 2), Fraction(1, 2), 1e-9, True),
    (Fraction("0.9406"), Fraction(9406, 10000), 0.0, True),
    (Fraction(9406, 10000) + Fraction(1e-11), Fraction(9406, 10000), 1e-11, True),
    (Fraction(9406, 10000) + Fraction(1e-11) + Fraction(1, 10**30), Fraction(9406, 10000), 1e-11, False),
    (Fraction("0.94060000001"), Fraction(9406, 10000), 1e-11, False),
    (Fraction(10) ** 400, Fraction(1), 1e-9, False),
    (Fraction(1, 3), 1 / 3, 1e-9, True),
    (Fraction(1, 3), 1 / 3, 0.0, False),
    (exact_number(0.1), 0.1, 0.0, False),
    (exact_number(0.1), Fraction(1, 10), 0.0, True),
], ids=["equal", "tie-at-zero", "at-tolerance", "beyond", "decimal-tolerance-is-binary", "huge", "float-recomputed", "binary-vs-decimal",
        "written-vs-binary", "written-vs-exact"])
def test_close(claimed: Fraction, recomputed: Fraction | float, tol: float, expected: bool) -> None:
    assert _close(claimed, recomputed, tol) is expected
    assert exact(claimed, recomputed, tol) is expected


@pytest.mark.parametrize(("claimed", "recomputed", "tol", "expected"), [
    (0.1, Fraction(1, 10), 0.0, True),
    (0.1, 0.1, 0.0, False),
    (0.3, Fraction(3, 10) + Fraction(1e-20), 1e-20, True),
    (0.3, Fraction(3, 10) + Fraction(1e-20) + Fraction(1, 10**40), 1e-20, False),
], ids=["written-equals-exact", "written-vs-its-binary", "within", "beyond"])
def test_a_plain_float_claim_counts_as_written(claimed: float, recomputed: Fraction | float, tol: float,
                                               expected: bool) -> None:
    assert _close(claimed, recomputed, tol) is expected
    assert exact(exact_number(claimed), recomputed, tol) is expected


def test_near_the_tolerance_many_values() -> None:
    rng = random.Random(7)
    for _ in range(20000):
        tol = rng.choice(TOLS)
        base = Fraction(rng.randrange(0, 10**6), rng.randrange(1, 10**6))
        offset = Fraction(tol) + Fraction(rng.randrange(-3, 4), 10 ** rng.randrange(12, 20))
        claimed = base + offset * rng.choice([-1, 1])
        as_float = float(claimed) if rng.random() < 0.5 else None
        claimed = exact_number(as_float) if as_float is not None else claimed
        recomputed = float(base) if rng.random() < 0.3 else base
        assert _close(claimed, recomputed, tol) is exact(claimed, recomputed, tol)
        if as_float is not None:
            assert _close(as_float, recomputed, tol) is exact(claimed, recomputed, tol)


@settings(max_examples=3000, deadline=None)
@given(st.decimals(allow_nan=False, allow_infinity=False, places=20, min_value=-1000, max_value=1000),
       st.fractions(min_value=-1000, max_value=1000, max_denominator=10**6),
       st.sampled_from(TOLS))
def test_agrees_with_exact_arithmetic(claimed: Decimal, recomputed: Fraction, tol: float) -> None:
    c = Fraction(claimed)
    assert _close(c, recomputed, tol) is exact(c, recomputed, tol)
    r = float(recomputed)
    if math.isfinite(r):
        assert _close(c, r, tol) is exact(c, r, tol)
