"""Comparing names as a reader sees them, not as their code points differ.

Two strings that look alike must compare alike wherever identity matters: a validator named
``Zаxy`` (with a Cyrillic ``а``), ``Ｚａｘｙ`` (fullwidth) or ``Z.a.x.y`` is the system ``Zaxy``,
and a relation ``ѕelf`` (Cyrillic ``ѕ``), ``sel\\u00adf`` (a soft hyphen) or ``s.e.l.f`` is
``self``. The **skeleton** of a string is what is left of it after:

1. Unicode compatibility normalisation (NFKC: fullwidth and styled letters become plain ones);
2. case folding;
3. replacing each non-ASCII character that the Unicode confusables table (via the
   ``confusable-homoglyphs`` package) lists as a look-alike of an ASCII letter or digit by that
   letter or digit;
4. dropping everything that is not a letter or a digit: spaces, punctuation, symbols, and
   invisible characters (zero-width spaces and joiners, soft hyphens, direction marks).

:func:`visible` is the lighter test used for "is this string empty?": a string made only of
whitespace and invisible characters (``"\\u200b"``) has nothing visible in it.
"""

from __future__ import annotations

import unicodedata

from bench_gate.text.lookalike import ascii_lookalike

_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp", "Mn", "Me"})


def visible(text: str) -> str:
    """``text`` without whitespace, control, format (zero-width) and combining-only characters."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", text)
                   if unicodedata.category(ch) not in _INVISIBLE)


def _ascii_lookalike(ch: str) -> str:
    """The ASCII letter or digit ``ch`` is confusable with (case folded), or ``ch`` itself."""
    return ascii_lookalike(ch).casefold()


def skeleton(text: str) -> str:
    """The letters and digits of ``text`` as a reader sees them (see the module docstring)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    out = []
    for ch in folded:
        if not ch.isascii():
            ch = _ascii_lookalike(ch)
        if ch.isalnum():
            out.append(ch)
    return "".join(out)
