"""Did you mean: the closest valid name to a mistyped one, for error messages.

Every "unknown name" error of bench-gate (a profile, a policy, a rule id, a parameter, a
check kind's parameter, a YAML key of a profile or a waiver) ends with the closest valid names
when one is close enough::

    unknown profile 'ai-memroy'; did you mean 'ai-memory'?
    waiver 2 has unknown key 'rulle'; did you mean 'rule'?

Names are compared without regard to case (``AI-Memory`` is close to ``ai-memory``), by the
similarity ratio of :func:`difflib.get_close_matches` (at least :data:`CUTOFF`), or else as a
longer or shorter spelling of a valid name (``minimum`` for ``min``). A name that is not close
to any valid one gets no suggestion rather than a far-fetched one.
"""

from __future__ import annotations

from collections.abc import Iterable

CUTOFF = 0.7
"""The least similarity (0..1) a valid name needs to be suggested: ``max_baseline_age_dys`` is
0.89 like ``max_baseline_age``, but only 0.61 like ``baseline_metrics``."""


def closest(word: str, candidates: Iterable[str], n: int = 1) -> list[str]:
    """Up to ``n`` valid names close to ``word``, the closest first (never ``word`` itself)."""
    import difflib  # only an error message needs it

    by_folded: dict[str, str] = {}
    for c in candidates:
        if c != word:
            by_folded.setdefault(c.casefold(), c)
    folded = word.casefold()
    found = difflib.get_close_matches(folded, list(by_folded), n=n, cutoff=CUTOFF)
    if not found and len(folded) >= 3:
        found = sorted((f for f in by_folded if len(f) >= 3 and (f.startswith(folded) or folded.startswith(f))),
                       key=lambda f: (abs(len(f) - len(folded)), f))[:n]
    return [by_folded[f] for f in found]


def did_you_mean(word: str, candidates: Iterable[str], n: int = 1) -> str:
    """``"; did you mean 'x'?"`` (or ``'x' or 'y'``) to append to a message, or ``""``."""
    found = closest(word, candidates, n)
    if not found:
        return ""
    return "; did you mean " + " or ".join(repr(f) for f in found) + "?"
