"""Generic check kinds."""

from bench_gate.checks.base import CheckKind

KINDS: tuple[CheckKind, ...] = ()
