"""What several recomputations read from the same cases, worked out once per evaluation.

The retrieval, question-type and isolation kinds all walk a report's cases: each needs every
case's id and its lists of session ids. :func:`case_ids` and :func:`id_lists` derive those once
per evaluation (:meth:`~bench_gate.checks.base.Context.derived`) and share them; a kind that
needs something else still reads the case itself.
"""

from __future__ import annotations

from typing import Any

from bench_gate.checks.base import Context, only_strings
from bench_gate.text.canonical import id_key


def case_ids(ctx: Context, items: list[Any], id_fields: list[str]) -> list[str | None]:
    """Each case's id: the first of ``id_fields`` whose value is a string with a visible id (an
    id of only spaces or invisible characters is none); None for a case without one, or that
    is not an object."""

    return ctx.derived(("case ids", id(items), tuple(id_fields)), lambda: ids_of(items, id_fields))


def ids_of(items: list[Any], id_fields: list[str]) -> list[str | None]:
    """:func:`case_ids` worked out afresh, for rows that are no list of the document (JSON Lines
    rows, an object's members): a derived value is keyed by the identity of the list it was
    derived from, so a list made for one call must not be one."""
    out: list[str | None] = []
    for case in items:
        ident = None
        if isinstance(case, dict):
            for name in id_fields:
                value = case.get(name)
                if isinstance(value, str) and id_key(value):
                    ident = value
                    break
        out.append(ident)
    return out


def id_lists(ctx: Context, items: list[Any], field: str) -> list[list[str] | None]:
    """Each case's ``field`` when it is a list of strings only; None when it is anything else
    (absent, not a list, a list holding another type) or the case is not an object."""

    def compute() -> list[list[str] | None]:
        out: list[list[str] | None] = []
        for case in items:
            value = case.get(field) if isinstance(case, dict) else None
            if isinstance(value, list) and only_strings(value):
                out.append(value)
            else:
                out.append(None)
        return out

    return ctx.derived(("id lists", id(items), field), compute)
