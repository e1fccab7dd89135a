"""The registry of check kinds: one explicit list, no plugin discovery.

Each family module exports ``KINDS``, a tuple of :class:`~bench_gate.checks.base.CheckKind`.
A profile names a kind by its ``name``; an unknown name is a profile error at compile time.
Adding a kind means adding it to its family's ``KINDS`` (and a family module to the list below).
"""

from __future__ import annotations

from bench_gate.checks import claims, generic, ledger, official, pair, retrieval, timing, urls
from bench_gate.checks.base import CheckKind

_FAMILIES = (generic, retrieval, pair, official, timing, urls, ledger, claims)


def registry() -> dict[str, CheckKind]:
    """Every registered kind by name; a name registered twice is a programming error."""
    out: dict[str, CheckKind] = {}
    for family in _FAMILIES:
        for kind in family.KINDS:
            if kind.name in out:
                raise RuntimeError(f"check kind {kind.name!r} is registered twice")
            out[kind.name] = kind
    return out
