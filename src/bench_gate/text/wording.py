"""Words for messages: counts with their noun, short lists.

Every message that counts something says it the same way: ``1 case``, ``2 cases``, and a long
list is cut after a few items with how many more there are.
"""

from __future__ import annotations


def plural(n: int, word: str) -> str:
    """``1 case``, ``0 cases``, ``2 cases``, ``2 categories`` (a regular plural, with its count)."""
    return f"{n} {word}" if n == 1 else f"{n} {plural_of(word)}"


def plural_of(word: str) -> str:
    """A regular plural: the word plus ``s``, a consonant and ``y`` as ``ies`` (``category``, ``entry``)."""
    if len(word) > 1 and word.endswith("y") and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def listing(items: list[str], limit: int = 3) -> str:
    """The first ``limit`` items joined by commas, then ``and N more``."""
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")
