"""Refs and JSON Pointers (RFC 6901): how every rule, condition and profile addresses a value.

A **ref** names a value in one of a gate's documents: ``"/overall/recall@5"`` is a pointer into
the report, ``"baseline:/overall/recall@5"`` a pointer into the document with role
``baseline``. :func:`resolve` follows a pointer and returns :data:`MISSING` when any step is
absent, so that the caller decides what absence means (a check fails, a condition is false).
Array indices are canonical decimals only (``/cases/0``, never ``/cases/00`` or ``/cases/+0``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()


_ROLE = re.compile(r"^([a-z][a-z0-9_-]*):(/.*|)$")


def split_ref(ref: str) -> tuple[str, str]:
    """``"baseline:/a/b"`` -> ``("baseline", "/a/b")``; ``"/a/b"`` -> ``("report", "/a/b")``."""
    m = _ROLE.match(ref)
    if m:
        return m.group(1), m.group(2)
    return "report", ref


def valid_pointer(pointer: str) -> bool:
    """True for an RFC 6901 pointer: empty, or '/'-separated tokens with only ~0 and ~1 escapes."""
    if pointer == "":
        return True
    if not pointer.startswith("/"):
        return False
    return re.search(r"~(?![01])", pointer) is None


def tokens(pointer: str) -> list[str]:
    return list(_tokens(pointer))


@lru_cache(maxsize=4096)
def _tokens(pointer: str) -> tuple[str, ...]:
    """The tokens of a pointer, worked out once: the same few pointers are resolved in every case."""
    if pointer == "":
        return ()
    return tuple(t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/"))


def escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def join(pointer: str, *parts: str | int) -> str:
    if len(parts) == 1:  # the usual call (a row's index, a field's name), without a generator
        part = parts[0]
        if type(part) is int:  # digits and a sign: nothing to escape
            return pointer + "/" + str(part)
        if type(part) is str:
            return pointer + "/" + escape(part)
    return pointer + "".join("/" + escape(str(p)) for p in parts)


def resolve(data: Any, pointer: str) -> Any:
    """The value at ``pointer`` or MISSING. Array indices are canonical decimals only."""
    cur = data
    for tok in _tokens(pointer):
        if isinstance(cur, dict):
            if tok not in cur:
                return MISSING
            cur = cur[tok]
        elif isinstance(cur, list):
            if not tok.isdigit() or (tok != "0" and tok.startswith("0")) or not tok.isascii():
                return MISSING
            idx = int(tok)
            if idx >= len(cur):
                return MISSING
            cur = cur[idx]
        else:
            return MISSING
    return cur
