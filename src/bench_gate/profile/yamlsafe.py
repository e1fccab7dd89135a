"""Safe, unambiguous YAML for profiles and policies, with the line of every value.

Profiles decide what passes, so their YAML must mean exactly one thing:

* only plain data: mappings, sequences, strings, integers, floats, booleans and null; any
  explicit tag (``!!python/object``, ``!custom``) is an error, and so are anchors and aliases
  (``&a`` / ``*a``): they make a file mean more than it shows and can blow up in size;
* a key repeated in one mapping is an error (YAML itself says it is, PyYAML keeps the last);
* YAML 1.1 surprises are errors, not silent reinterpretations: ``yes``/``no``/``on``/``off``
  as booleans, ``010`` or ``0o10`` as octal, ``0x1F`` as hex, ``1:30`` as sexagesimal,
  ``1_000`` with underscores, ``.inf`` and ``.nan``. Write ``true``/``false``, plain decimal
  numbers, or quote the value to make it a string;
* a number with an exponent and no dot (``1e-9``, as ``bench-gate explain`` prints a tolerance)
  is the number it says, as in YAML 1.2 (YAML 1.1 alone would read the text ``"1e-9"``);
* a number must mean exactly what it says: a float that overflows (``1.0e+999``), or whose
  literal the float cannot hold (``0.70000000000000001`` would be ``0.7``, ``1.0e-999``
  would be ``0.0``), and an integer longer than 4300 digits are errors;
* a control character, or a lone surrogate escape (``"\\ud800"``), is an error;
* dates are not converted: ``2026-06-01`` stays the string it was written as.

:func:`load` returns the data and a :class:`Lines` map from a path inside the document
(``("rules", 3, "with", "min")``) to its line number, for error messages that point at the
exact spot.
"""

from __future__ import annotations

import re
from decimal import Decimal, DecimalException
from typing import TYPE_CHECKING, Any

from bench_gate.records import field, record

if TYPE_CHECKING:
    from yaml.nodes import Node, ScalarNode

Path = tuple[str | int, ...]

_STANDARD_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
    "tag:yaml.org,2002:timestamp",
}
MAX_INT_DIGITS = 4300
MAX_DEPTH = 64
"""Profiles, policies and waivers are shallow; anything deeper is refused with its line."""
_INF = float("inf")
# Patterns as text, compiled by ``re`` on first use: a gate whose profile is precompiled reads
# no YAML and need not compile them.
_NUMBER_LIKE = r"^[-+]?(0o[0-7]+|0x[0-9a-fA-F]+)$"
_EXPONENT = r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)[eE][-+]?[0-9]+$"
_PLAIN_INT = r"^[-+]?(0|[1-9][0-9]*)$"
_PLAIN_FLOAT = r"^[-+]?([0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)([eE][-+]?[0-9]+)?$"


class YamlError(Exception):
    """A YAML problem with its line and the path inside the document."""

    def __init__(self, message: str, line: int | None, path: Path = ()) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.path = path


@record(frozen=False)
class Lines:
    """Line numbers (1-based) of every node, by its path inside the document."""

    by_path: dict[Path, int] = field(default_factory=dict)
    columns: dict[Path, int] = field(default_factory=dict)
    """Columns (1-based) of the nodes read from text (a precompiled profile keeps lines only)."""
    keys: dict[Path, tuple[int, int]] = field(default_factory=dict)
    """(line, column) of each mapping key as written, by the path of its value."""

    def line(self, path: Path) -> int:
        """The line of the deepest known node on ``path``."""
        for cut in range(len(path), -1, -1):
            found = self.by_path.get(tuple(path[:cut]))
            if found is not None:
                return found
        return 1

    def position(self, path: Path) -> tuple[int, int]:
        """(line, column) of the key that holds ``path``, else of the deepest known node on it
        (column 1 when not recorded)."""
        for cut in range(len(path), -1, -1):
            part = tuple(path[:cut])
            if part in self.keys:
                return self.keys[part]
            found = self.by_path.get(part)
            if found is not None:
                return found, self.columns.get(part, 1)
        return 1, 1


def format_path(path: Path) -> str:
    out = ""
    for part in path:
        if isinstance(part, str) and not part.isprintable():
            part = repr(part)  # a key with a line break or a control character stays on one line
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def load(text: str) -> tuple[Any, Lines]:
    """Parse one YAML document into plain data and its line map."""
    import yaml  # only profiles compiled from source and waiver files need the YAML parser

    try:
        _check_depth(text, yaml)
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else None
        raise YamlError(f"YAML syntax error: {exc.problem or exc.context}", line) from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        raise YamlError(f"character U+{exc.character:04X} is not allowed in YAML (a control or "
                        "special character)", line) from None
    except yaml.YAMLError as exc:
        raise YamlError("YAML error: " + " ".join(str(exc).split()), None) from None
    if node is None:
        raise YamlError("the file is empty", 1)
    lines = Lines()
    try:
        data = _build(node, (), lines, set())
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if getattr(event, "anchor", None):
                # an anchor only serves an alias, and aliases are refused: an unused anchor is a
                # sign the file is not what it looks like
                raise YamlError(f"anchors (&{event.anchor}) are not allowed in profiles",
                                event.start_mark.line + 1)
        return data, lines
    except YamlError as exc:
        if exc.message.startswith("aliases"):
            # a composed alias is the anchored node itself: point at the first alias instead
            exc.line = next((e.start_mark.line + 1 for e in yaml.parse(text, Loader=yaml.SafeLoader)
                             if isinstance(e, yaml.AliasEvent)), exc.line)
        raise


def _check_depth(text: str, yaml: Any) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` before composing: the composer recurses
    once per level, and a deep enough file would exhaust the interpreter's stack."""
    depth = 0
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise YamlError(f"nesting is deeper than {MAX_DEPTH} levels", event.start_mark.line + 1)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def _build(node: Node, path: Path, lines: Lines, seen: set[int]) -> Any:
    line = node.start_mark.line + 1
    lines.by_path[path] = line
    lines.columns[path] = node.start_mark.column + 1
    if id(node) in seen:
        raise YamlError("aliases (*name) are not allowed in profiles", line, path)
    seen.add(id(node))
    if node.tag not in _STANDARD_TAGS:
        raise YamlError(f"tag {node.tag!r} is not allowed (plain data only)", line, path)
    if node.id == "mapping":
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise YamlError("merge keys (<<) are not allowed", key_node.start_mark.line + 1, path)
            key = _build(key_node, path, lines, seen)
            if not isinstance(key, str):
                raise YamlError(f"mapping keys must be strings, got {key!r}", key_node.start_mark.line + 1, path)
            if key in out:
                raise YamlError(f"duplicate key {key!r}", key_node.start_mark.line + 1, path + (key,))
            out[key] = _build(value_node, path + (key,), lines, seen)
            lines.keys[path + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
        lines.by_path[path] = line
        return out
    if node.id == "sequence":
        return [_build(item, path + (i,), lines, seen) for i, item in enumerate(node.value)]
    assert node.id == "scalar"
    return _scalar(node, path, line)


def _scalar(node: ScalarNode, path: Path, line: int) -> Any:
    text = node.value
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # "\ud800" in a double-quoted scalar: no output format could print it back
        raise YamlError("contains a lone UTF-16 surrogate escape (\\ud800-\\udfff)", line, path) from None
    if node.style in ("'", '"', "|", ">"):
        return text
    tag = node.tag
    if tag == "tag:yaml.org,2002:bool":
        if text not in ("true", "false", "True", "False", "TRUE", "FALSE"):
            raise YamlError(f"{text!r} is a YAML 1.1 boolean; write true or false, or quote it", line, path)
        return text.lower() == "true"
    if tag == "tag:yaml.org,2002:int":
        if not re.match(_PLAIN_INT, text):
            raise YamlError(f"{text!r} is not a plain decimal integer (octal, hex, sexagesimal "
                            "and underscores are not allowed); quote it for a string", line, path)
        if len(text.lstrip("+-")) > MAX_INT_DIGITS:
            raise YamlError(f"integer {text[:20]}… has more than {MAX_INT_DIGITS} digits", line, path)
        return int(text)
    if tag == "tag:yaml.org,2002:float":
        if not re.match(_PLAIN_FLOAT, text):
            raise YamlError(f"{text!r} is not a plain decimal number (.inf, .nan and "
                            "sexagesimal are not allowed); quote it for a string", line, path)
        return _float(text, line, path)
    if tag == "tag:yaml.org,2002:null":
        return None
    # YAML 1.1 leaves a number with an exponent but no dot (1e-9, as `bench-gate explain` prints a
    # tolerance) a string, YAML 1.2 reads it as the number it is: read it as the number.
    if re.match(_EXPONENT, text):
        return _float(text, line, path)
    # 0o10 and 0x1F are numbers only in YAML 1.2: a threshold written so would silently become text.
    if re.match(_NUMBER_LIKE, text):
        raise YamlError(f"{text!r} reads as a number in YAML 1.2 but as a string in YAML 1.1; write a plain "
                        "decimal (8, 31), or quote it for a string", line, path)
    return text


def _float(text: str, line: int, path: tuple[Any, ...]) -> float:
    """A float literal that means exactly what it says, or a YamlError."""
    value = float(text)
    if value in (_INF, -_INF):
        raise YamlError(f"{text[:40]!r} overflows to infinity", line, path)
    # A threshold is compared exactly as the float holds it: a literal the float cannot
    # hold (0.70000000000000001 is 0.7, 1.0e-999 is 0.0) would move the threshold silently.
    try:
        written = Decimal(text)
    except DecimalException:  # an exponent beyond exact decimal arithmetic (1.0e-99999999999999999999)
        raise YamlError(f"{text[:40]!r} has an exponent out of range", line, path) from None
    if Decimal(repr(value)) != written:
        raise YamlError(f"{text[:40]!r} cannot be held exactly (it would be {value!r}); write "
                        f"{value!r}, or quote it for a string", line, path)
    return value
