"""Strict JSON and JSON Lines parsing.

bench-gate refuses input that ordinary ``json.loads`` would quietly accept or reinterpret:

* the bytes must be UTF-8 without a byte-order mark; lone surrogate escapes (``"\\ud800"``)
  are rejected because they cannot be written back as UTF-8;
* ``NaN``, ``Infinity`` and ``-Infinity`` are rejected in every spelling, and so is a number
  that overflows to infinity (``1e999``) or a non-zero number closer to zero than
  ``1e-400`` (:data:`MAX_EXPONENT`), or a number literal longer than
  :data:`MAX_NUMBER_CHARS` characters: computing their exact value would take time that grows
  with the square of their length;
* a key repeated in the same object is rejected at any depth (which of the two would count?);
* nesting deeper than the interpreter can parse is an error, not a crash.

Numbers keep what was written. A float literal whose decimal value differs from the binary
float it parses to (``499.99999999999999`` parses to ``500.0``) comes back as a
:class:`WrittenFloat`, a ``float`` that remembers its literal, so that a count written that way
is not mistaken for an integer and threshold comparisons use the value as written.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any

from bench_gate.models import WrittenFloat

_INF = float("inf")
MAX_EXPONENT = 400
"""A non-zero number whose decimal exponent is below ``-MAX_EXPONENT`` is rejected."""
MAX_NUMBER_CHARS = 4300
"""The longest number literal accepted (the interpreter's own limit for integers)."""
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


class JsonError(ValueError):
    """A document is not strict JSON; ``str()`` is a one-line reason with its position."""


def _too_long(text: str) -> JsonError | None:
    if len(text) > MAX_NUMBER_CHARS:
        return JsonError(f"number {text[:20]}… is {len(text)} characters long (limit {MAX_NUMBER_CHARS})")
    return None


def _parse_int(text: str) -> int:
    problem = _too_long(text)
    if problem:
        raise problem
    return int(text)


def _parse_float(text: str) -> float:
    problem = _too_long(text)
    if problem:
        raise problem
    value = float(text)
    if value == _INF or value == -_INF:
        raise JsonError(f"number {text[:40]} overflows to infinity")
    if repr(value) == text:
        return value
    written = Decimal(text)
    # The exact value of 1e-999999999 is a fraction with a billion-digit denominator: computing
    # it would hang the gate. No benchmark quantity is that close to zero.
    if written and written.adjusted() < -MAX_EXPONENT:
        raise JsonError(f"number {text[:40]} is too close to zero (exponent below -{MAX_EXPONENT})")
    if written == Decimal(value):
        return value
    return WrittenFloat(value, text)


def _parse_constant(name: str) -> Any:
    raise JsonError(f"{name} is not a JSON number (NaN and Infinity are rejected)")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise JsonError(f"duplicate key {json.dumps(key)[:80]} in one object")
            seen.add(key)
    return obj


_DECODER = json.JSONDecoder(
    object_pairs_hook=_object,
    parse_float=_parse_float,
    parse_int=_parse_int,
    parse_constant=_parse_constant,
    strict=True,
)


def decode_text(raw: bytes) -> str:
    """UTF-8 without BOM, or a JsonError naming the byte offset."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raise JsonError("starts with a UTF-8 byte-order mark (BOM); write plain UTF-8")
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise JsonError("is UTF-16 encoded; write UTF-8")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise JsonError(f"is not valid UTF-8 (byte offset {exc.start})") from None


def _check_strings(value: Any) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise JsonError("contains a lone UTF-16 surrogate escape (\\ud800-\\udfff)") from None
        elif isinstance(item, dict):
            for key, sub in item.items():
                stack.append(key)
                stack.append(sub)
        elif isinstance(item, list):
            stack.extend(item)


def loads_text(text: str) -> Any:
    """Parse one strict JSON value from text."""
    if not text.strip():
        raise JsonError("is empty")
    try:
        value, end = _DECODER.raw_decode(text, _skip_ws(text, 0))
    except JsonError:
        raise
    except json.JSONDecodeError as exc:
        raise JsonError(f"is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise JsonError("is nested too deeply to parse") from None
    except ValueError as exc:  # e.g. an integer literal longer than the interpreter allows
        raise JsonError(f"is not valid JSON: {exc}") from None
    rest = _skip_ws(text, end)
    if rest != len(text):
        line = text.count("\n", 0, rest) + 1
        raise JsonError(f"is not valid JSON: extra data after the value at line {line}")
    if _SURROGATE_ESCAPE.search(text):
        _check_strings(value)
    return value


def _skip_ws(text: str, pos: int) -> int:
    n = len(text)
    while pos < n and text[pos] in " \t\n\r":
        pos += 1
    return pos


def loads(raw: bytes) -> Any:
    """Parse strict JSON from bytes."""
    return loads_text(decode_text(raw))


def loads_lines(raw: bytes, max_line_bytes: int) -> list[tuple[int, Any]]:
    """Parse JSON Lines: one strict JSON value per non-final line, returned with line numbers.

    A blank line inside the file is an error (a row went missing); one final newline is fine.
    """
    text = decode_text(raw)
    if not text.strip():
        raise JsonError("is empty")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    rows: list[tuple[int, Any]] = []
    for number, line in enumerate(lines, start=1):
        if line.endswith("\r"):
            line = line[:-1]
        if len(line) > max_line_bytes:
            raise JsonError(f"line {number} is longer than {max_line_bytes} bytes")
        if not line.strip():
            raise JsonError(f"line {number} is blank (every line must hold one JSON value)")
        try:
            rows.append((number, loads_text(line)))
        except JsonError as exc:
            raise JsonError(f"line {number} {exc}") from None
    return rows
