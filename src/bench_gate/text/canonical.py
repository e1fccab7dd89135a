"""Canonical forms: identifiers compared as a reader sees them, and metric names as written.

Two strings that print the same are the same to a reader. A case id with a trailing space, a
no-break space, a zero-width space, a soft hyphen, fullwidth letters or other letter case is
not a new case: it is the same case written twice. :func:`id_key` maps an identifier to the
form in which such ids compare equal:

1. Unicode NFKC (fullwidth ``ｑ１`` is ``q1``, a no-break space is a space, ``ﬁ`` is ``fi``);
2. invisible characters removed: every format character (Unicode category Cf: zero-width
   space and joiners, soft hyphen, word joiner, byte-order mark, bidirectional marks),
   variation selectors, and the Hangul and Braille blanks that render as nothing;
3. case folded (``Q1`` is ``q1``; ``ß`` is ``ss``), then NFKC again;
4. runs of whitespace collapsed to one space, and surrounding whitespace removed.

:func:`collisions` finds ids that are distinct as written but equal in that form, and
:func:`describe` names how two such ids differ, for messages. Any check kind that requires
unique ids (case ids, question ids, entry names) uses these, so that uniqueness means the same
everywhere.

:func:`metric_skeleton` does the same for metric names, more loosely: ``Recall@5``,
``recall@05``, ``"recall@5 "``, ``recall_at_5`` and ``recall-5`` all have the skeleton of
``recall@5``. A gate uses it to say that such a key is a misspelling of a metric it knows,
never a new metric.

This module imports nothing else of bench-gate.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Hashable, Iterable
from typing import TypeVar

T = TypeVar("T", bound=Hashable)

# Not category Cf, yet rendered as nothing: Hangul fillers, the Braille blank, the Khmer
# inherent vowels, the Mongolian free variation selectors and combining grapheme joiner.
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180b\u180c\u180d\u180f\u034f")


def invisible(ch: str) -> bool:
    """True for a character that renders as nothing (whitespace is not invisible: it is collapsed)."""
    if ch in _BLANKS:
        return True
    code = ord(ch)
    if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:  # variation selectors
        return True
    return unicodedata.category(ch) == "Cf"


def id_key(text: str) -> str:
    """The form in which two identifiers that look the same compare equal."""
    if text.isascii():
        # NFKC leaves ASCII as it is, no ASCII character is invisible, and ASCII case folding
        # is lower case: the same key, without the per-character work
        return " ".join(text.lower().split())
    s = unicodedata.normalize("NFKC", text)
    s = "".join(ch for ch in s if not invisible(ch))
    s = unicodedata.normalize("NFKC", s.casefold())
    return " ".join(s.split())


def collisions(ids: Iterable[tuple[T, str]]) -> list[tuple[T, T, str, str]]:
    """(first location, later location, first id, later id) for each id that repeats.

    An id that repeats exactly is a collision too. Each later id is reported once, against the
    first id with the same key.
    """
    first: dict[str, tuple[T, str]] = {}
    out: list[tuple[T, T, str, str]] = []
    for where, ident in ids:
        key = id_key(ident)
        seen = first.get(key)
        if seen is None:
            first[key] = (where, ident)
        else:
            out.append((seen[0], where, seen[1], ident))
    return out


def describe(a: str, b: str) -> str:
    """How two colliding ids differ, in words: ``identical``, ``differ only by letter case``..."""
    if a == b:
        return "identical"
    reasons = []
    if any(" ".join(x.split()) != x for x in (a, b)):
        reasons.append("whitespace")
    if any(invisible(ch) for ch in a + b):
        reasons.append("invisible characters")
    if any(unicodedata.normalize("NFKC", x) != x for x in (a, b)):
        reasons.append("compatibility forms (fullwidth letters, no-break space...)")
    if _plain(a) != _plain(b):
        reasons.append("letter case")
    return "differ only by " + " and ".join(reasons)


def _plain(text: str) -> str:
    """NFKC, no invisible characters, whitespace collapsed: everything but case folding."""
    s = "".join(ch for ch in unicodedata.normalize("NFKC", text) if not invisible(ch))
    return " ".join(s.split())


def shown(text: str) -> str:
    """An id for a message: quoted, with every invisible or space-like character escaped."""
    out = []
    for ch in text:
        if ch == " " or (ch.isprintable() and not invisible(ch) and not ch.isspace()):
            out.append(ch)
        else:
            out.append(f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}")
    return "'" + "".join(out) + "'"


_SEPARATORS = re.compile(r"[\s_\-.:/]+")
_AT_K = re.compile(r"^(?P<name>[a-z][a-z0-9]*?)(?:@|at)?0*(?P<k>[0-9]+)$")


def metric_skeleton(name: str) -> str:
    """A metric name with case, width, invisible characters, separators and zero padding gone.

    ``Recall@5``, ``recall@05``, ``recall_at_5``, ``RECALL-5`` and ``recall@5 `` all give
    ``recall@5``; ``legacy_recall@5`` gives ``legacyrecall@5``; ``qa_accuracy`` gives
    ``qaaccuracy``. Only for recognising misspellings: never a name to compare values by.
    """
    s = id_key(name)
    s = _SEPARATORS.sub("", s.replace(" ", ""))
    m = _AT_K.match(s)
    if m:
        return f"{m.group('name')}@{int(m.group('k'))}"
    return s
