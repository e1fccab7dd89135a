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
from bench_gate.report._common import PLAIN, RenderOptions

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


def render(name: str, verdicts: Sequence[Verdict], options: RenderOptions = PLAIN) -> str:
    """The verdicts in format ``name``."""
    return renderer(name)(verdicts, options)
