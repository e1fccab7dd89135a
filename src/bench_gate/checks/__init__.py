"""The registry of check kinds: one explicit list of family modules, no plugin discovery.

A kind is a function in a family module, registered by the :func:`~bench_gate.checks.base.kind`
decorator with its name and parameter class; its docstring is its documentation. A profile names
a kind by its name; an unknown name is a profile error at compile time. Adding a kind means
decorating its function in a module listed in :data:`FAMILIES` (and adding a new module there).

Families are imported when the registry is first asked for, not when this package is: a gate
whose compiled profile needs two family modules imports two (see :func:`family_kinds`).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from bench_gate.checks.base import CheckKind, kinds_of

FAMILIES = (
    "generic.fields", "generic.values", "generic.thresholds", "generic.counts", "generic.declared",
    "generic.integrity", "generic.shape", "generic.timing", "generic.urls",
    "recompute.retrieval", "recompute.question_set", "recompute.isolation", "recompute.metrics_claimed",
    "recompute.aggregate", "recompute.ranking", "recompute.questions", "recompute.beats",
    "pair.run_seal", "pair.arm_record", "pair.pairing", "pair.outcome", "pair.summary", "pair.runs",
    "official.evaluator_log", "official.accuracy", "official.provenance", "official.evidence", "official.split",
    "official.lme_types",
    "ledger.entries", "ledger.external", "ledger.contracts", "ledger.header", "ledger.regression",
    "ledger.history",
    "claims.matching", "claims.readable", "claims.citable", "claims.arithmetic",
)
"""Every module that defines kinds, under ``bench_gate.checks``."""

_PREFIX = "bench_gate.checks."


def families() -> list[ModuleType]:
    """Every family module, imported."""
    return [importlib.import_module(_PREFIX + name) for name in FAMILIES]


def registry() -> dict[str, CheckKind]:
    """Every registered kind by name; a name registered twice is a programming error."""
    out: dict[str, CheckKind] = {}
    for family in families():
        for found in kinds_of(family.__name__):
            if found.name in out:
                raise RuntimeError(f"check kind {found.name!r} is registered twice")
            out[found.name] = found
    return out


def family_kinds(module: str) -> dict[str, CheckKind]:
    """The kinds of one registered family module (``bench_gate.checks.FAMILY.MODULE``) by name.

    An unregistered module gives an empty mapping, so a stale reference finds nothing.
    """
    if not module.startswith(_PREFIX) or module[len(_PREFIX):] not in FAMILIES:
        return {}
    importlib.import_module(module)
    return {found.name: found for found in kinds_of(module)}
