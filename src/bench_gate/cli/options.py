"""Command-line building blocks shared by every verb (the report gate, ``ledger``, ``claims``,
``explain``): the usage error, strict option parsing, ``--now``, ``--format``/``--output-file``,
and writing output. Exit codes: 0 passed, 1 failed, 2 could not be evaluated.
"""

from __future__ import annotations

import os
import re
import sys
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

EXIT_PASS, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
_KEY = r"^[A-Za-z0-9_.@/-]+$"  # compiled by re when first used, as _CONTROLS


class Usage(Exception):
    """A usage error: one line, exit 2. ``hint`` adds a pointer to --help (argument mistakes)."""

    def __init__(self, message: str, hint: bool = False) -> None:
        super().__init__(message)
        self.hint = hint


def parse_now(text: str) -> datetime:
    """``--now``: RFC 3339 with an explicit offset, converted to UTC."""
    from bench_gate.text.isotime import TimeError, parse_instant

    try:
        return parse_instant(text)
    except TimeError as exc:
        raise Usage(f"--now: {exc}") from None


def split_kv(text: str, option: str) -> tuple[str, str]:
    """``KEY=VALUE`` with a non-empty key."""
    key, sep, value = text.partition("=")
    if not sep or not key or not re.match(_KEY, key):
        raise Usage(f"{option} {text!r}: expected KEY=VALUE")
    return key, value


def parse_number(text: str, option: str) -> int | float:
    """A plain decimal number (exact as written; no NaN, no infinity, no hex)."""
    if len(text) > 100 or not re.match(r"^[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$", text):
        raise Usage(f"{option}{text}: expected a decimal number")
    value = float(text) if "." in text else int(text)
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        raise Usage(f"{option}{text}: number out of range")
    # thresholds compare exactly: 0.97170000000000001 must not silently become 0.9717
    if isinstance(value, float) and Decimal(repr(value)) != Decimal(text):
        raise Usage(f"{option}{text}: cannot be held exactly (it would be {value!r}); write {value!r}")
    return value


def set_values(items: list[str], profile: Any) -> dict[str, Any]:
    from bench_gate.loaders import strictjson
    from bench_gate.profile.params import type_problem

    out: dict[str, Any] = {}
    for item in items:
        name, value = split_kv(item, "--set")
        param = profile.params.get(name)
        if param is None:
            from bench_gate.text.suggest import did_you_mean

            known = ", ".join(sorted(profile.params)) or "none"
            raise Usage(f"--set {name}: profile {profile.name} declares no parameter {name!r}"
                        f"{did_you_mean(name, profile.params)} (declared: {known})")
        if param.type in ("list", "map", "number-map"):
            setters = [o for o, spec in profile.options.items() if spec.spec.param == name]
            how = (f"use {setters[0]}" if setters else
                   f"write a profile that extends {profile.name} and sets its default")
            raise Usage(f"--set {name}: a {param.type} parameter cannot be set with --set; {how}")
        try:
            parsed = strictjson.loads_text(value)
        except strictjson.JsonError:
            if param.type not in ("string", "duration"):
                raise Usage(f"--set {name}={value!r}: not a JSON {param.type}") from None
            parsed = value
        problem = type_problem(parsed, param.type)
        if problem:
            raise Usage(f"--set {name}: {problem}")
        if name in out:
            raise Usage(f"--set {name} given more than once")
        out[name] = parsed
    return out




def parse_output_options(fmt: str | None, output_files: list[str],
                         now: str | None) -> tuple[str, list[tuple[str, str]], datetime]:
    """``--format``, ``--output-file FMT=PATH`` (repeatable) and ``--now``: (format, extra outputs, now)."""
    from bench_gate.report import available, installed

    fmt = fmt or "text"
    if not installed(fmt):
        raise Usage(f"--format {fmt!r}: choose one of {', '.join(available())}")
    extra = []
    for item in output_files:
        ofmt, sep, out = item.partition("=")
        if not sep or not ofmt:
            raise Usage(f"--output-file {item!r}: expected FORMAT=PATH, e.g. junit=out/junit.xml")
        if not installed(ofmt):
            raise Usage(f"--output-file {ofmt}=...: unknown format (choose one of {', '.join(available())})")
        if not out:
            raise Usage(f"--output-file {item!r}: empty path")
        extra.append((ofmt, out))
    moment = parse_now(now) if now is not None else datetime.now(UTC).replace(microsecond=0)
    return fmt, extra, moment


_CONTROLS = "[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]"


def error_line(message: str) -> None:
    """``bench-gate: error: MESSAGE`` on one line of stderr. Control characters (a line break in
    a file name) are written as escapes: a name must not start a line of its own, where a CI
    log would read it as a command (``::error::``) or it would redraw the terminal."""
    safe = re.sub(_CONTROLS, lambda m: m.group().encode("unicode_escape").decode("ascii"), message)
    sys.stderr.write(f"bench-gate: error: {safe}\n")


def use_colour(choice: str, to_file: bool) -> bool:
    """Whether to colour text output: ``--color always|auto|never``.

    ``auto`` colours a terminal, never a file; ``FORCE_COLOR`` (set and not empty) forces colour,
    e.g. in a CI log that renders it, and ``NO_COLOR`` (set) or ``TERM=dumb`` turns it off.
    """
    if choice != "auto":
        return choice == "always"
    if to_file:
        return False
    if os.environ.get("FORCE_COLOR", "").lower() not in ("", "0", "false"):
        return True
    if "NO_COLOR" in os.environ or os.environ.get("TERM") == "dumb":
        return False
    try:
        return sys.stdout.isatty()
    except (ValueError, AttributeError):  # a closed or replaced stdout
        return False


def write_output(path: str | None, text: str) -> None:
    """Write the rendered verdict to ``path`` (stdout for None or ``-``); failure is exit 2."""
    if path is None or path == "-":
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise Usage(f"cannot write the verdict to standard output: {exc.strerror or exc}") from None
        return
    try:
        # the verdict is ready: a missing folder for it (out/junit.xml) is created, not an error
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise Usage(f"cannot write {path}: {exc.strerror or exc}") from None
