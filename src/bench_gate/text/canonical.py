"""Identity as a reader sees it: one form in which ids, names and profile names are compared.

Two strings that print the same are the same to a reader. A case id with a trailing space, a
zero-width space, an unassigned code point, fullwidth letters, other letter case, or a Cyrillic
``е`` in place of a Latin ``e`` is not a new case: it is the same case written twice. A
validator called ``Zаxy`` is the system ``Zaxy``, an approver ``ТВD`` (Cyrillic) is the
placeholder ``TBD``, and a profile file named ``0fficial-sota`` reads as the built-in
``official-sota``. Every comparison of identity in bench-gate goes through this module, so
"the same" means the same everywhere.

**The fold.** A string is folded in these steps, repeated until nothing changes:

1. compatibility decomposition (NFKD: fullwidth ``ｑ１`` is ``q1``, ``ﬁ`` is ``fi``, a no-break
   space is a space) and case folding (``Q1`` is ``q1``, ``ß`` is ``ss``);
2. every code point a reader cannot see removed: the Unicode default-ignorable code points
   (zero-width spaces and joiners, the soft hyphen, bidirectional marks, variation selectors,
   tag characters, the Hangul fillers, reserved ones such as U+2065 and U+FFF0), every format
   character (category Cf), every unassigned (Cn), private-use (Co) or surrogate (Cs) code point,
   control characters other than whitespace, and the Braille blank;
3. each character replaced by its **prototype** in the Unicode confusables table of UTS #39
   (the maintained table shipped by the ``confusable-homoglyphs`` package): ``е`` (Cyrillic)
   is ``e``, ``0`` is ``o``, ``1`` is ``l``, ``m`` is ``rn``. A lowercase letter the table does
   not list reads as its capital does when that capital is listed; letters of ASCII keep their
   own reading. A Latin small capital (the table's prototype of Cyrillic ``т``) is one more case
   of its letter, so ``ᴛ`` and ``т`` read as ``t``, and ``ТВD`` in Cyrillic capitals as ``tbd``;
4. recomposition (NFKC).

Case folding comes before the confusables, so that a string and its capitals always compare
equal; the price is that a capital ``I`` reads as ``i``, not as the ``l`` it resembles.

**The two forms.** :func:`id_key` is the fold with runs of whitespace collapsed to one space and
surrounding whitespace removed: the form in which case ids, question ids, row ids and session
ids are compared. :func:`skeleton` keeps only the letters and digits of the fold: the form in
which names are compared (a validator and the system, an approver and a placeholder word, a
profile name and the built-in ones), so that ``Z.a.x.y`` is ``zaxy`` too. An id that is empty in
its form (only spaces or invisible characters) is no id.

:func:`collisions` finds ids that are distinct as written but equal as a reader sees them, and
:func:`describe` names how two such ids differ, for messages; :func:`shown` writes an id into a
message with everything a reader cannot see escaped. :func:`metric_skeleton` is a looser reading
for metric names only (``recall_at_5`` is ``recall@5``), never a name to compare values by.

ASCII text, by far the most common, takes a fast path through a fixed translation table (the
ASCII rows of the confusables table; a test holds it equal to the package's data), so the table
itself is read only when a non-ASCII character appears. This module imports nothing else of
bench-gate.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Hashable, Iterable
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

T = TypeVar("T", bound=Hashable)

# --- what a reader cannot see -----------------------------------------------------------------

DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
"""Default_Ignorable_Code_Point of Unicode's DerivedCoreProperties.txt (Unicode 15.1), as ranges:
code points that render as nothing, including those not yet assigned (U+2065, U+FFF0..U+FFF8,
the tag block's unassigned rows) that a newer font might still render as nothing."""

_BLANKS = frozenset("\u2800")
"""Not default-ignorable, yet rendered as nothing: the Braille blank."""

_UNSEEN_CATEGORIES = frozenset({"Cf", "Cn", "Co", "Cs"})


@lru_cache(maxsize=8192)
def invisible(ch: str) -> bool:
    """True for a code point a reader cannot see as a character of its own: default-ignorable,
    format, unassigned, private-use, surrogate, a control other than whitespace, or a blank
    (whitespace itself is not invisible: it is collapsed or dropped)."""
    code = ord(ch)
    if ch in _BLANKS or any(lo <= code <= hi for lo, hi in DEFAULT_IGNORABLE):
        return True
    category = unicodedata.category(ch)
    return category in _UNSEEN_CATEGORIES or (category == "Cc" and not ch.isspace())


# --- the confusables table --------------------------------------------------------------------

_PACKAGE = "confusable_homoglyphs"
_RTL_WRAP = "\u200e"  # the package wraps right-to-left characters in left-to-right marks


def _package_folder() -> Path:
    """Where the confusables package keeps its data (found without importing it or
    ``importlib.resources``: importing the package parses its tables, which is all this needs)."""
    import importlib.util

    spec = importlib.util.find_spec(_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"the {_PACKAGE} package is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


def _preferred(ch: str) -> tuple[bool, int]:
    return (not ch.isascii(), ord(ch))


@lru_cache(maxsize=1)
def prototypes() -> dict[str, str]:
    """Each character the confusables table lists as a look-alike, mapped to its prototype.

    The package keeps the table as an undirected graph (each line ``source ; prototype`` of
    ``confusables.txt`` is listed both ways). The direction is recovered from its shape: a
    source is listed once, so it has exactly one neighbour, and a prototype is never a source;
    so a character whose only neighbour is a sequence or a character with other neighbours is a
    source. Two characters confusable only with each other read as one of them (the ASCII one,
    else the lower code point).
    """
    raw = json.loads((_package_folder() / "confusables.json").read_text("utf-8"))
    graph: dict[str, set[str]] = {}
    for a, glyphs in raw.items():
        a = a.replace(_RTL_WRAP, "")
        near = graph.setdefault(a, set())
        near.update(b for g in glyphs if (b := g.get("c", "").replace(_RTL_WRAP, "")) and b != a)
    out: dict[str, str] = {}
    for a, near in graph.items():
        if len(a) == 1 and len(near) == 1:
            (b,) = near
            if len(b) != 1 or len(graph.get(b, ())) > 1 or _preferred(b) < _preferred(a):
                out[a] = b
    return out


@lru_cache(maxsize=1)
def _members() -> dict[str, frozenset[str]]:
    """Each prototype with the characters that read as it (itself included)."""
    found: dict[str, set[str]] = {}
    for source, proto in prototypes().items():
        found.setdefault(proto, {proto}).add(source)
    return {proto: frozenset(chars) for proto, chars in found.items()}


@lru_cache(maxsize=None)
def _small_capital(proto: str) -> str | None:
    """The letter a class reads as when one of its members is a Latin small capital (a small
    capital is one more case of its letter, and case is folded: ᴛ, т and τ read as t)."""
    if proto.isascii():
        return None
    letters = {m.group(1).lower() for c in _members().get(proto, frozenset({proto})) if len(c) == 1
               for m in [_SMALL_CAPITAL.match(unicodedata.name(c, ""))] if m}
    return letters.pop() if len(letters) == 1 else None


@lru_cache(maxsize=None)
def _folded_reading(ch: str) -> str:
    """The reading of one case-folded character (one step)."""
    table = prototypes()
    proto = table.get(ch)
    if proto is None and not ch.isascii() and ch not in _members():
        capital = ch.upper()  # a lowercase letter the table does not list reads as its capital
        if len(capital) == 1 and capital != ch:
            proto = table.get(capital)
    if proto is None:
        proto = ch
    return _small_capital(proto) or _decomposed(proto)


@lru_cache(maxsize=None)
def reading(ch: str) -> str:
    """What one character (as it stands after compatibility decomposition) reads as: steps 2-3
    of the fold, settled. The table applies to the character as written first (a capital reads
    as the capital it resembles), then to its case-folded reading."""
    if invisible(ch):
        return ""
    table = prototypes()
    text = table[ch] if not ch.isascii() and ch in table else ch
    for _ in range(8):
        again = "".join(_folded_reading(c) for c in _decomposed(text) if not invisible(c))
        if again == text:
            break
        text = again
    return text


_SMALL_CAPITAL = re.compile(r"^LATIN LETTER SMALL CAPITAL ([A-Z])$")


def _decomposed(text: str) -> str:
    return unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).casefold())


# The ASCII rows of the fold (what reading() gives every ASCII character; tests hold the two
# equal): upper case to lower case, look-alike digits and letters to their prototypes, control
# characters other than whitespace removed.
_ASCII = {
    **{c: c.lower() for c in map(chr, range(0x41, 0x5B))},
    **{chr(c): None for c in (*range(0x00, 0x09), *range(0x0E, 0x1C), 0x7F)},
    "0": "o", "1": "l", "m": "rn", "M": "rn", "|": "l", "`": "'", '"': "''", "%": "o/o",
}
_ASCII_TABLE = str.maketrans(_ASCII)


def fold(text: str) -> str:
    """The reader's reading of ``text``, spaces and punctuation kept (see the module docstring)."""
    if text.isascii():
        return text.translate(_ASCII_TABLE)
    current = text
    for _ in range(4):
        out = [reading(c) for c in unicodedata.normalize("NFKD", current)]
        folded = unicodedata.normalize("NFKC", "".join(out))
        if folded == current:
            break
        current = folded
    return current


@lru_cache(maxsize=65536)
def id_key(text: str) -> str:
    """The form in which two identifiers that look the same compare equal: the fold, whitespace
    runs collapsed to one space, surrounding whitespace removed."""
    return " ".join(fold(text).split())


@lru_cache(maxsize=16384)
def skeleton(text: str) -> str:
    """The letters and digits of ``text`` as a reader sees them: the fold without spaces,
    punctuation or symbols (``Z.a.x.y`` and ``Zаxy`` are ``zaxy``; ``ТВD`` is ``tbd``)."""
    return "".join(ch for ch in fold(text) if ch.isalnum())


def visible(text: str) -> str:
    """``text`` without whitespace, invisible and combining-only characters: empty when a
    string shows nothing (``"\\u200b"``, ``" \\u00a0"``)."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", text)
                   if not ch.isspace() and not invisible(ch) and unicodedata.category(ch) not in ("Mn", "Me"))


def ascii_lookalike(ch: str) -> str:
    """The ASCII letter or digit a non-ASCII character reads as, its case kept (``а`` → ``a``,
    ``Т`` → ``T``), or the character itself: for reading prose character by character."""
    if ch.isascii():
        return ch
    proto = prototypes().get(ch)
    if proto is None and ch.upper() != ch:
        up = prototypes().get(ch.upper())
        proto = up.lower() if up is not None and len(up) == 1 else None
    return proto if proto is not None and len(proto) == 1 and proto.isascii() and proto.isalnum() else ch


# --- comparing ids --------------------------------------------------------------------------


def collisions(ids: Iterable[tuple[T, str]]) -> list[tuple[T, T, str, str]]:
    """(first location, later location, first id, later id) for each id that repeats.

    An id that repeats exactly is a collision too. Each later id is reported once, against the
    first id with the same key.
    """
    listed = list(ids)
    keys = list(map(id_key, [ident for _, ident in listed]))
    if len(set(keys)) == len(keys):
        return []  # no key twice, as in nearly every list: found at C speed
    first: dict[str, tuple[T, str]] = {}
    out: list[tuple[T, T, str, str]] = []
    for (where, ident), key in zip(listed, keys):
        seen = first.get(key)
        if seen is None:
            first[key] = (where, ident)
        else:
            out.append((seen[0], where, seen[1], ident))
    return out


def describe(a: str, b: str) -> str:
    """How two ids with the same key differ, in words: ``identical``, ``differ only by letter case``..."""
    if a == b:
        return "identical"
    reasons = []
    if any(" ".join(x.split()) != x for x in (a, b)):
        reasons.append("whitespace")
    unseen = [ch for ch in a + b if invisible(ch)]
    if any(unicodedata.category(ch) not in ("Cn", "Co") for ch in unseen):
        reasons.append("invisible characters")
    if any(unicodedata.category(ch) in ("Cn", "Co") for ch in unseen):
        reasons.append("unassigned or private-use code points")
    if any(unicodedata.normalize("NFKC", x) != x for x in (a, b)):
        reasons.append("compatibility forms (fullwidth letters, no-break space...)")
    plain_a, plain_b = _plain(a), _plain(b)
    if plain_a != plain_b and plain_a.casefold() == plain_b.casefold():
        reasons.append("letter case")
    elif plain_a.casefold() != plain_b.casefold():
        reasons.append("look-alike characters (a letter of another script, or a digit shaped like a letter)")
    return "differ only by " + " and ".join(reasons)


def _plain(text: str) -> str:
    """NFKC, nothing invisible, whitespace collapsed: everything but case and look-alikes."""
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


# --- metric names -----------------------------------------------------------------------------

_SEPARATORS = re.compile(r"[\s_\-.:/]+")
_AT_K = re.compile(r"^(?P<name>[a-z][a-z0-9]*?)(?:@|at)?0*(?P<k>[0-9]+)$")


@lru_cache(maxsize=4096)
def metric_skeleton(name: str) -> str:
    """A metric name with case, width, invisible characters, separators and zero padding gone.

    ``Recall@5``, ``recall@05``, ``recall_at_5``, ``RECALL-5`` and ``recall@5 `` all give
    ``recall@5``; ``legacy_recall@5`` gives ``legacyrecall@5``; ``qa_accuracy`` gives
    ``qaaccuracy``. Only for recognising misspellings: never a name to compare values by (no
    confusables here: the digits of ``hit@10`` are digits).
    """
    s = _plain(name).casefold()
    s = _SEPARATORS.sub("", s.replace(" ", ""))
    m = _AT_K.match(s)
    if m:
        return f"{m.group('name')}@{int(m.group('k'))}"
    return s
