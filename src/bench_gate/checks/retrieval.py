"""Retrieval metric recomputation."""

from bench_gate.checks.base import CheckKind

KINDS: tuple[CheckKind, ...] = ()
