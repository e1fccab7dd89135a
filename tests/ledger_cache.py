"""Gating each citable artifact once per test session.

``bench-gate ledger`` and ``bench-gate claims`` gate every citable artifact of a ledger with its
built-in profile; the golden ledger and claims cases hold the same few artifacts again and again
(the real 500-case fixture, a re-run of it). Within :func:`gate_artifacts_once` the artifact
gate of :mod:`bench_gate.gates.ledger_gate` remembers its answer for the same inputs: the entry's
profile and flags (:data:`GATE_FIELDS`, all it reads of the entry), the artifact's bytes (by
digest), the paths it is shown and read under, the instant, the version, the entry's role and the
declared external profiles. Only profiles that read nothing but
the artifact itself are remembered (no document taken from a path inside the report, no
artifact tables): for those the answer is a function of exactly these inputs. The production code
is not changed; outside the context manager every artifact is gated afresh.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

_ANSWERS: dict[tuple[Any, ...], tuple[Any, Any]] = {}
GATE_FIELDS = ("gate_profile", "accounting_required", "qa_required")
"""The fields of a ledger entry that choose how its artifact is gated (its profile and flags)."""


@functools.cache
def _reads_only_the_artifact(ref: str) -> bool:
    from bench_gate.profile import load_profile
    from bench_gate.profile.binding import bind
    from bench_gate.profile.sources import builtin_names

    if ref not in builtin_names():
        return False
    profile = load_profile(ref)
    if any(d.spec.from_report is not None for d in profile.documents.values()):
        return False
    return not bind(profile, {}).values.get("artifact_tables")


@contextmanager
def gate_artifacts_once() -> Iterator[None]:
    from bench_gate.gates import ledger_gate

    real = ledger_gate._gate_artifact

    def remembered(entry: dict[str, Any], doc: Any, shown: str, folder: Path, now: datetime, version: str,
                   role: str, external: frozenset[str]) -> tuple[dict[str, Any], Any]:
        ref = entry.get("gate_profile")
        if not isinstance(ref, str) or not _reads_only_the_artifact(ref) or doc.extra or not doc.sha256:
            return real(entry, doc, shown, folder, now, version, role, external)
        key = (json.dumps([entry.get(k) for k in GATE_FIELDS], default=repr), doc.sha256, doc.path, doc.found,
               doc.origin, shown, str(folder), now.isoformat(), version, role, tuple(sorted(external)))
        if key not in _ANSWERS:
            _ANSWERS[key] = real(entry, doc, shown, folder, now, version, role, external)
        info, verdict = _ANSWERS[key]
        return copy.deepcopy(info), verdict  # the caller adds to the summary it is given

    ledger_gate._gate_artifact = remembered
    try:
        yield
    finally:
        ledger_gate._gate_artifact = real
