"""Running one check kind in a test: by its registered name, on documents built in place.

::

    from kindtest import context, doc, first, run

    run("fields", {"fields": [{"path": "/name"}]}, {"name": "x"})     # every finding over a report
    first("fresh", params, report, baseline={...})                    # (status, message) of the first
    run("pair_seal", params, context(report_doc, oracle=oracle_doc))  # a Context built beforehand

* The kind is looked up in :func:`bench_gate.checks.registry` by name (a kind's function is
  accepted too and must be the registered one), so a test runs exactly what a profile runs.
* Parameters given as a dict go through the strict validation a profile's ``with:`` goes
  through, so every row is a configuration a profile could write; a parameter object must be of
  the kind's own class.
* The report is data (wrapped as the document ``report`` read from ``r.json``) or a
  :class:`~bench_gate.models.Doc`; every other document is given by role the same way, or the
  whole :class:`~bench_gate.checks.base.Context` is given instead of the report.
* A :class:`~bench_gate.checks.base.Fail` raised by the kind is its failing finding, as in the
  engine; any other exception fails the test (the engine would report an internal error).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from bench_gate.checks.base import CheckKind, Context, Fail
from bench_gate.models import Doc, Finding

NOW = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)
"""The instant a context is built at unless a test says otherwise."""

ABSENT: Any = type("Absent", (), {"__repr__": lambda self: "ABSENT"})()
"""No report document at all (``None`` is a report whose data is null)."""


@functools.cache
def kinds() -> dict[str, CheckKind]:
    from bench_gate.checks import registry

    return registry()


def kind(name: str | Callable[..., Any]) -> CheckKind:
    """The registered kind of this name (or of this function)."""
    if isinstance(name, str):
        return kinds()[name]
    (found,) = [k for k in kinds().values() if k.run is name]
    return found


def params(name: str | Callable[..., Any], raw: Mapping[str, Any] | Any) -> Any:
    """A kind's parameters: a dict validated as a profile's ``with:``; an object as it is."""
    from bench_gate.profile.kindparams import validate_params

    k = kind(name)
    if isinstance(raw, Mapping):
        return validate_params(k.params, dict(raw))
    assert type(raw) is k.params, f"{k.name} takes {k.params.__name__}, not {type(raw).__name__}"
    return raw


def doc(role: str, data: Any = None, **fields: Any) -> Doc:
    """A loaded document; ``path`` defaults to ``r.json`` for the report, ``ROLE.json`` else."""
    fields.setdefault("path", "r.json" if role == "report" else f"{role}.json")
    return Doc(role, data=data, **fields)


def context(report: Any = ABSENT, *, now: datetime = NOW, declared: frozenset[str] = frozenset(),
            **others: Any) -> Context:
    """A context holding the report (data or a Doc; none without one) and other documents by
    role (data or Docs)."""
    documents: dict[str, Doc] = {}
    for role, value in (("report", report), *others.items()):
        if value is not ABSENT:
            documents[role] = value if isinstance(value, Doc) else doc(role, value)
    return Context(now=now, documents=documents, declared=declared)


def run(name: str | Callable[..., Any], raw: Mapping[str, Any] | Any, report: Any = ABSENT, *,
        now: datetime = NOW, **others: Any) -> list[Finding]:
    """Every finding of one kind, over ``report`` (or a whole Context) and other documents."""
    k = kind(name)
    bound = params(k.name, raw)
    if isinstance(report, Context):
        assert not others, "give the documents in the Context"
        ctx = report
    else:
        ctx = context(report, now=now, **others)
    try:
        return list(k.run(ctx, bound))
    except Fail as exc:
        return [exc.finding]


def first(name: str | Callable[..., Any], raw: Mapping[str, Any] | Any, report: Any = ABSENT, *,
          now: datetime = NOW, **others: Any) -> tuple[str, str]:
    """(status, message) of the kind's first finding; a kind must always say something."""
    found = run(name, raw, report, now=now, **others)
    assert found, "a check must always say something"
    return found[0].status, found[0].message
