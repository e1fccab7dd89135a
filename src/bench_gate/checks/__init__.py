"""The registry of check kinds: one explicit list, no plugin discovery.

Each family module exports ``KINDS``, a tuple of :class:`~bench_gate.checks.base.CheckKind`.
A profile names a kind by its ``name``; an unknown name is a profile error at compile time.
Adding a kind means adding it to its family's ``KINDS`` (and a family module to the list below).

Families are imported when the registry is first asked for, not when this package is: a gate
whose compiled profile needs two families imports two (see :func:`family_kinds`).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from bench_gate.checks.base import CheckKind

_FAMILIES = ("generic.basic", "generic.integrity", "generic.shape", "generic.timing", "generic.urls",
             "recompute.retrieval", "recompute.question_set", "recompute.isolation", "recompute.metrics_claimed",
             "recompute.aggregate", "recompute.ranking",
             "pair.arms", "pair.summary", "pair.runs",
             "official.qa", "official.evidence", "official.split", "official.lme_types",
             "ledger.entries", "claims.matching", "claims.readable")


def families() -> list[ModuleType]:
    """Every family module, imported."""
    return [importlib.import_module(f"bench_gate.checks.{name}") for name in _FAMILIES]


def registry() -> dict[str, CheckKind]:
    """Every registered kind by name; a name registered twice is a programming error."""
    out: dict[str, CheckKind] = {}
    for family in families():
        for kind in family.KINDS:
            if kind.name in out:
                raise RuntimeError(f"check kind {kind.name!r} is registered twice")
            out[kind.name] = kind
    return out


def family_kinds(module: str) -> dict[str, CheckKind]:
    """The kinds of one registered family module (``bench_gate.checks.NAME``) by name.

    An unregistered module gives an empty mapping, so a stale reference finds nothing.
    """
    prefix = "bench_gate.checks."
    if not module.startswith(prefix) or module[len(prefix):] not in _FAMILIES:
        return {}
    return {kind.name: kind for kind in importlib.import_module(module).KINDS}
