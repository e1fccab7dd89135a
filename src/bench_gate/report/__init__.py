"""Renderers: a verdict (or several) to text, JSON and CI formats.

Each format is a module with one signature, ``render(verdicts, options) -> str`` (the options
are :class:`RenderOptions`; only the text format reads them), named in :data:`RENDERERS` and
imported only when used. Renderers are pure and import only the models.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Sequence
from typing import Any

from bench_gate.models import Verdict
from bench_gate.report._common import PLAIN, RenderOptions, no_command_lines

__all__ = ["PLAIN", "RENDERERS", "RenderOptions", "available", "installed", "render", "renderer"]

RENDERERS: dict[str, str] = {
    "text": "bench_gate.report.textfmt",
    "json": "bench_gate.report.jsonfmt",
    "junit": "bench_gate.report.junit",
    "sarif": "bench_gate.report.sarif",
    "github": "bench_gate.report.github",
    "markdown": "bench_gate.report.markdown",
}


def available() -> list[str]:
    """Formats whose module is installed."""
    return [name for name in RENDERERS if installed(name)]


def installed(name: str) -> bool:
    """Whether format ``name`` is known and its module installed."""
    return name in RENDERERS and importlib.util.find_spec(RENDERERS[name]) is not None


def renderer(name: str) -> Callable[[Sequence[Verdict], RenderOptions], str]:
    module: Any = importlib.import_module(RENDERERS[name])
    return module.render  # type: ignore[no-any-return]


# How each format writes a ':' that would start a line with '::' (a CI workflow command).
_COLON_ESCAPES = {"text": "\\x3a", "junit": "&#58;", "markdown": "\\:", "json": "\\u003a", "sarif": "\\u003a"}


def render(name: str, verdicts: Sequence[Verdict], options: RenderOptions = PLAIN) -> str:
    """The verdicts in format ``name``.

    Every renderer escapes text that comes from a report (:func:`~bench_gate.report._common.printable`);
    on top of that, no line of any format but ``github`` may begin with ``::``, which a CI log
    would run as a workflow command."""
    output = renderer(name)(verdicts, options)
    return output if name == "github" else no_command_lines(output, _COLON_ESCAPES.get(name, "\\x3a"))
