"""Where things are: the repository root and the tests' data folder, for tests at any depth."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
EXAMPLE = ROOT / "examples" / "longmemeval_sibyl_hybrid_rc1_20260610.json"
"""The bundled real artifact: a 500-case LongMemEval-S retrieval run."""
