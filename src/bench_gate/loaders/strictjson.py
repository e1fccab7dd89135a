"""Strict JSON and JSON Lines parsing.

bench-gate refuses input that ordinary ``json.loads`` would quietly accept or reinterpret:

* the bytes must be UTF-8 without a byte-order mark; lone surrogate escapes (``"\\ud800"``)
  are rejected because they cannot be written back as UTF-8;
* ``NaN``, ``Infinity`` and ``-Infinity`` are rejected in every spelling, and so is a number
  that overflows to infinity (``1e999``) or a non-zero number closer to zero than
  ``1e-400`` (:data:`MAX_EXPONENT`), or a number literal longer than
  :data:`MAX_NUMBER_CHARS` characters: computing their exact value would take time that grows
  with the square of their length; an exponent too large for exact decimal arithmetic
  (``1e-99999999999999999999``, ``0E+99999999999999999999``) is rejected the same way, even
  when the value is zero;
* a key repeated in the same object is rejected at any depth (which of the two would count?);
* arrays and objects nested deeper than :data:`MAX_DEPTH` levels are an error, not a crash
  (deeper input would exhaust the interpreter's recursion limit in later processing).

Numbers keep what was written. A float literal other than the shortest form of the double it
parses to comes back as a :class:`WrittenFloat`, a ``float`` that remembers its literal: a
decimal value that differs from that double (``499.99999999999999`` parses to ``500.0``), so that
a count written that way is not mistaken for an integer and threshold comparisons use the value
as written; and the same double written with more decimals (``0.9400``, ``1.00``), so that the
places a claim was rounded to are known (:mod:`bench_gate.text.rounding`).
"""

from __future__ import annotations

import json
import re
from itertools import compress
from decimal import Decimal, DecimalException
from collections.abc import Callable
from typing import Any

from bench_gate.models import WrittenFloat

_INF = float("inf")
MAX_EXPONENT = 400
"""A non-zero number whose decimal exponent is below ``-MAX_EXPONENT`` is rejected."""
MAX_DEPTH = 128
"""Arrays and objects nest at most this deep (a report needs fewer than ten levels)."""
MAX_NUMBER_CHARS = 4300
"""The longest number literal accepted (the interpreter's own limit for integers)."""
MAX_JSONL_ROWS = 1_000_000
"""The most rows a JSON Lines document may have."""
MEMO_SIZE = 4096
"""The most distinct number literals remembered within one parse."""
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


class JsonError(ValueError):
    """A document is not strict JSON; ``str()`` is a one-line reason with its position."""


def _too_deep() -> JsonError:
    return JsonError(f"is nested deeper than {MAX_DEPTH} levels")


def _too_long(text: str) -> JsonError | None:
    if len(text) > MAX_NUMBER_CHARS:
        return JsonError(f"number {text[:20]}… is {len(text)} characters long (limit {MAX_NUMBER_CHARS})")
    return None


def _parse_int(text: str) -> int:
    if len(text) > MAX_NUMBER_CHARS:
        raise _too_long(text)  # type: ignore[misc]
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)  # linear in the length: the costly exact checks below come after the cap
    if repr(value) == text:  # written as Python writes it back, as nearly every float is
        return value
    if len(text) > MAX_NUMBER_CHARS:
        raise _too_long(text)  # type: ignore[misc]
    if value == _INF or value == -_INF:
        raise JsonError(f"number {text[:40]} overflows to infinity")
    written = exact_decimal(text)
    # The exact value of 1e-999999999 is a fraction with a billion-digit denominator: computing
    # it would hang the gate. No benchmark quantity is that close to zero.
    if written and written.adjusted() < -MAX_EXPONENT:
        raise JsonError(f"number {text[:40]} is too close to zero (exponent below -{MAX_EXPONENT})")
    # A literal other than the shortest form (0.9400, 1.00, 1e2) is kept as written even when it
    # is the same double: its decimals say how the producer rounded it.
    return WrittenFloat(value, text)


def exact_decimal(text: str) -> Decimal:
    """The exact decimal value of a number literal; a JsonError when decimal cannot hold it.

    Every conversion of a literal to its exact value goes through here, so an exponent beyond
    the decimal module's range is a clean "not a usable number" wherever it is written (report,
    evidence, dataset, a JSON Lines row, a ``--set`` value), never an arithmetic exception.
    """
    try:
        return Decimal(text)
    except (DecimalException, ValueError):
        raise JsonError(f"number {text[:40]} has an exponent out of range") from None


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


class _Literals(dict[str, Any]):
    """Number literals already read in this parse, and what ``read`` (:func:`_parse_float` or
    :func:`_parse_int`) made of them.

    A report writes the same few literals thousands of times (``1.0`` for every hit of every
    case). The decoder's ``parse_float`` and ``parse_int`` are the bound ``__getitem__`` of two
    of these: a literal seen before is answered by one C-level lookup, without a Python call;
    only a new literal reaches ``__missing__``, which parses it exactly as before (a literal that
    is refused raises there, every time, and is never stored). The value only depends on the
    literal, so a shared :class:`WrittenFloat` is the same value either way. :func:`raw_decode`
    empties the memos after every parse, and each keeps at most :data:`MEMO_SIZE` literals: a
    document of distinct numbers (nDCG values, latencies) costs no more memory than before,
    only the Python call.
    """

    __slots__ = ("read",)

    def __init__(self, read: Callable[[str], Any]) -> None:
        super().__init__()
        self.read = read

    def __missing__(self, text: str) -> Any:
        value = self.read(text)
        if len(self) < MEMO_SIZE:
            self[text] = value
        return value


_FLOATS = _Literals(_parse_float)
_INTS = _Literals(_parse_int)
_DECODER = json.JSONDecoder(
    object_pairs_hook=_object,
    parse_float=_FLOATS.__getitem__,
    parse_int=_INTS.__getitem__,
    parse_constant=_parse_constant,
    strict=True,
)


SHARE_STRINGS_FROM = 16 * 1024 * 1024
"""A document of at least this many characters shares its equal strings (see :func:`raw_decode`)."""
_STRINGS: dict[str, str] = {}


def _shared_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """:func:`_object`, whose string values, and the strings of its lists of strings, are
    replaced by the first equal string of the document: the copies are let go at once."""
    obj = _object(pairs)
    share = _STRINGS.setdefault
    for key, value in obj.items():
        if type(value) is str:
            obj[key] = share(value, value)
        elif type(value) is list and value and only_strings(value):
            value[:] = map(share, value, value)
    return obj


_SHARING_DECODER = json.JSONDecoder(
    object_pairs_hook=_shared_object,
    parse_float=_FLOATS.__getitem__,
    parse_int=_INTS.__getitem__,
    parse_constant=_parse_constant,
    strict=True,
)


def raw_decode(text: str, pos: int, share: bool = False) -> tuple[Any, int]:
    """The strict decoder's ``raw_decode``: one value from ``text`` at ``pos``, and where it ends.

    No check after decoding is made here (see :func:`checked`); the decoder's own exceptions
    pass through. The number memo is emptied whatever happens, so it does not outlive the parse.

    With ``share``, equal strings in objects (values, and the items of lists of strings) become
    one object as each object is read: a large report repeats the same session ids in case after
    case, and its parsed value would otherwise hold a copy of each, several times the size of the
    text. The values are the same either way.
    """
    try:
        return (_SHARING_DECODER if share else _DECODER).raw_decode(text, pos)
    finally:
        _FLOATS.clear()
        _INTS.clear()
        _STRINGS.clear()


def decode_text(raw: bytes) -> str:
    """UTF-8 without BOM, or a JsonError naming the byte offset."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raise JsonError("starts with a UTF-8 byte-order mark (BOM); write plain UTF-8")
    if raw[:4] in (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff"):
        raise JsonError("is UTF-32 encoded; write UTF-8")
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise JsonError("is UTF-16 encoded; write UTF-8")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise JsonError(f"is not valid UTF-8 (byte offset {exc.start})") from None
    if "\x00" in text[:4]:
        # JSON text never holds a NUL byte; at the start it means UTF-16/32 without a BOM
        raise JsonError("starts with NUL bytes (UTF-16 or UTF-32 without a byte-order mark?); write UTF-8")
    return text


def _check_depth(value: Any) -> None:
    """The depth limit alone, one level at a time.

    The parsed value holds only exact ``dict`` and ``list`` containers; the containers one level
    down are picked out of each container's values by their types, at C speed, and a list of
    strings (a list of ids, the bulk of a report) is passed over by joining it.
    """
    level = [value]
    depth = 0
    while level:
        if depth >= MAX_DEPTH:
            raise _too_deep()
        deeper: list[Any] = []
        for item in level:
            if type(item) is list:
                if only_strings(item):
                    continue
                subs = item
            else:
                subs = item.values()
            deeper.extend(compress(subs, map(_CONTAINER, map(type, subs))))
        level = deeper
        depth += 1


_CONTAINER = frozenset({dict, list}).__contains__


def only_strings(items: list[Any]) -> bool:
    """Whether a list holds strings only (a list of ids): ``str.join`` refuses anything else at C
    speed, several times faster than looking at the elements one by one. The one test of it, for
    this reader's walks and for the check kinds (:mod:`bench_gate.checks.base` re-exports it)."""
    if len(items) > 4096:  # the joined copy stays small; a long list is looked at element-wise
        return all(isinstance(v, str) for v in items)
    try:
        "".join(items)
    except TypeError:
        return False
    return True


def _check_structure(value: Any, surrogates: bool) -> None:
    """Depth limit, and (when the text has a surrogate escape) no lone surrogate."""
    if not surrogates:
        _check_depth(value)
        return
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if surrogates:
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    raise JsonError("contains a lone UTF-16 surrogate escape (\\ud800-\\udfff)") from None
        elif isinstance(item, (dict, list)):
            if depth >= MAX_DEPTH:
                raise _too_deep()
            subs = list(item.values()) if isinstance(item, dict) else item
            if surrogates and isinstance(item, dict):
                subs = subs + list(item)
            stack.extend((sub, depth + 1) for sub in subs
                         if isinstance(sub, (dict, list)) or (surrogates and isinstance(sub, str)))


def _surrogate_escape(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` writes a surrogate escape (``\\ud800``, lone or paired).

    Every such escape starts at a backslash, and most documents hold a handful: each is found
    at the speed of ``str.find`` and tried on its own. A document of many backslashes is
    searched whole by the pattern after the first few.
    """
    pos = text.find("\\", start, end)
    for _ in range(64):
        if pos < 0:
            return False
        if _SURROGATE_ESCAPE.match(text, pos, end):
            return True
        pos = text.find("\\", pos + 1, end)
    return pos >= 0 and _SURROGATE_ESCAPE.search(text, pos, end) is not None


def checked(value: Any, text: str, start: int = 0, end: int | None = None) -> Any:
    """``value`` decoded from ``text``, after the checks the decoder cannot make itself.

    Nesting depth, and no lone surrogate in any string or key. Every strict reader calls this
    on what the decoder returned: :func:`loads_text`, and the streamed dataset reader entry by
    entry, so a lone ``\\ud800`` is refused in a dataset exactly as in a report.
    """
    surrogates = _surrogate_escape(text, start, len(text) if end is None else end)
    if isinstance(value, (dict, list)):
        _check_structure(value, surrogates)
    elif isinstance(value, str) and surrogates:
        _check_structure(value, True)
    return value


def loads_text(text: str) -> Any:
    """Parse one strict JSON value from text."""
    if not text or text.isspace():  # blank, without the copy strip() would make
        raise JsonError("is empty")
    try:
        value, end = raw_decode(text, _skip_ws(text, 0), share=len(text) >= SHARE_STRINGS_FROM)
    except JsonError:
        raise
    except json.JSONDecodeError as exc:
        # the decoder's "Invalid control character at" already ends in "at"
        what = exc.msg[:-3] if exc.msg.endswith(" at") else exc.msg
        raise JsonError(f"is not valid JSON: {what} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise _too_deep() from None
    except ValueError as exc:  # e.g. an integer literal longer than the interpreter allows
        raise JsonError(f"is not valid JSON: {exc}") from None
    rest = _skip_ws(text, end)
    if rest != len(text):
        line = text.count("\n", 0, rest) + 1
        raise JsonError(f"is not valid JSON: extra data after the value at line {line}")
    return checked(value, text)


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
    A line longer than ``max_line_bytes`` (UTF-8, without its line ending) or more than
    :data:`MAX_JSONL_ROWS` lines is an error.
    """
    text = decode_text(raw)
    if not text or text.isspace():
        raise JsonError("is empty")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) > MAX_JSONL_ROWS:
        raise JsonError(f"has {len(lines)} lines, over the {MAX_JSONL_ROWS}-row limit")
    rows: list[tuple[int, Any]] = []
    for number, line in enumerate(lines, start=1):
        if line.endswith("\r"):
            line = line[:-1]
        # a character is at most 4 UTF-8 bytes: only encode lines that may be over the limit
        if len(line) > max_line_bytes // 4 and len(line.encode("utf-8", "surrogatepass")) > max_line_bytes:
            raise JsonError(f"line {number} is longer than {max_line_bytes} bytes")
        if not line.strip():
            raise JsonError(f"line {number} is blank (every line must hold one JSON value)")
        try:
            rows.append((number, loads_text(line)))
        except JsonError as exc:
            raise JsonError(f"line {number} {exc}") from None
    return rows
