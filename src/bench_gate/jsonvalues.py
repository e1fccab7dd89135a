"""JSON values as the gate compares and shows them.

Every layer that speaks of a value from a document uses these: the check kinds in their
findings, the engine when it decides a ``when`` condition, the gates when they name a bad
path. :func:`same` is JSON equality (numbers exactly as written, a boolean never a number);
:func:`type_name`, :func:`show`, :func:`show_fraction` and :func:`described` word a value in a
message; :func:`jsonable` is its form in the verdict's ``actual`` and ``expected``.
"""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from typing import Any

from bench_gate.models import WrittenFloat, exact_number
from bench_gate.text.pointer import MISSING


def type_name(value: Any) -> str:
    if value is MISSING:
        return "missing"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def show(value: Any, limit: int = 80) -> str:
    """A short JSON rendering of a value for messages."""
    if value is MISSING:
        return "missing"
    if isinstance(value, dict) and limit <= 80:
        return f"{{object with {len(value)} key{'s' if len(value) != 1 else ''}}}"
    if isinstance(value, list) and limit <= 80 and len(show_list(value)) > limit:
        return f"[array of {len(value)}]"
    if isinstance(value, WrittenFloat):
        text = value.literal
    elif isinstance(value, Fraction):
        text = show_fraction(value)
    elif isinstance(value, float):
        text = repr(value)
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, sort_keys=True)
        except (TypeError, ValueError):
            text = repr(value)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


def show_list(value: list[Any]) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def show_fraction(value: Fraction, places: int = 4) -> str:
    """An exact short decimal when there is one (at most 6 places), else rounded to ``places``.

    A value beyond the float range (a 400-digit metric) is shown in scientific notation.
    """
    try:
        for p in range(0, 7):
            scaled = value * 10**p
            if scaled.denominator == 1:
                text = f"{value.numerator / value.denominator:.{p}f}" if p else str(int(value))
                return text
        return f"{float(value):.{places}f}"
    except (OverflowError, ValueError):
        return f"{Decimal(value.numerator) / Decimal(value.denominator):.6e}"


def jsonable(value: Any) -> Any:
    """A JSON-ready copy of a value for ``actual``/``expected`` in the verdict."""
    if value is MISSING:
        return None
    if isinstance(value, Fraction):
        if value.denominator == 1 and value.numerator.bit_length() < 13000:
            return int(value)  # up to ~3900 digits: well within what JSON output can print
        try:
            return float(value)
        except OverflowError:
            return show_fraction(value)
    if isinstance(value, WrittenFloat):
        # a literal a double holds exactly (1.00, 0.5000) stays a JSON number; any other keeps its text
        return float(value) if Decimal(value.literal) == Decimal(float(value)) else value.literal
    return value


def same(a: Any, b: Any) -> bool:
    """JSON equality: booleans only equal booleans, numbers compare exactly as written."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    na, nb = exact_number(a), exact_number(b)
    if na is not None or nb is not None:
        return na is not None and nb is not None and na == nb
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def described(value: Any) -> str:
    """``type value`` for a wrong-typed value (``string "384"``), or just ``null``."""
    if value is None or value is MISSING:
        return type_name(value)
    return f"{type_name(value)} {show(value)}"
