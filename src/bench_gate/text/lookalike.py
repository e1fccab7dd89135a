"""Look-alike characters: the ASCII letter or digit a non-ASCII character is confusable with.

The Unicode confusables table (via the ``confusable-homoglyphs`` package, loaded on first use)
lists, for instance, the Cyrillic ``а`` and the Greek ``Α`` as look-alikes of ``a`` and ``A``.
Names compared as a reader sees them (:mod:`bench_gate.text.skeleton`) and claim text read by
the docs scan (:mod:`bench_gate.checks.claims.lexer`) both use it.
"""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=4096)
def ascii_lookalike(ch: str) -> str:
    """The ASCII letter or digit ``ch`` is confusable with (its case kept), or ``ch`` itself."""
    if ch.isascii():
        return ch
    from confusable_homoglyphs import confusables  # loaded on first use: most runs never need it

    for glyph in confusables.confusables_data.get(ch, ()):
        c = glyph.get("c", "")
        if len(c) == 1 and c.isascii() and c.isalnum():
            return c
    return ch
