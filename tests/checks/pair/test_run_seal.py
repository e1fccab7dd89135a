"""One run folder's seal (``aef_seal``): pass and fail rows, exact messages."""

from __future__ import annotations

from typing import Any

from bench_gate.checks.base import kinds_of
from bench_gate.checks.pair.run_seal import SealParams
from pairsetup import OHASH, Row, Setup, check, fill, run_kind

# --- aef_seal ----------------------------------------------------------------------------

AEF_ROWS: list[Row] = [
    ("intact", SealParams(), Setup(), [("pass", "seal intact (unsigned): runHash {nhash} over 4 "
                                        "sealed files")]),
    ("unsealed-allowed", SealParams(), Setup(mode="unsealed"),
     [("pass", "the run is unsealed (no seal.json; sealing not required): run hash {nhash} over 4 files")]),
    ("unsealed-required", SealParams(require_sealed=True), Setup(mode="unsealed"),
     [("fail", "the run is unsealed (no seal.json), but sealed evidence is required")]),
    ("seal-runhash-edited", SealParams(arm="oracle"),
     Setup(oracle=lambda f: f.__setitem__("seal.json", f["seal.json"].replace(OHASH.encode(), b"1" * 64))),
     [("fail", "seal invalid: seal runHash 111111111111… is not the recomputed run hash {oh12}…")]),
]


@check(AEF_ROWS)
def test_aef_seal(kind_params: Any, setup: Setup, expected: list[tuple[str, str]]) -> None:
    assert run_kind("aef_seal", kind_params, setup) == fill(expected)


def test_every_kind_is_documented_and_registered() -> None:
    from bench_gate.checks import registry
    from bench_gate.checks.pair import run_seal

    names = {k.name for k in kinds_of(run_seal.__name__)}
    assert names <= set(registry())
    for found in kinds_of(run_seal.__name__):
        assert len((found.run.__doc__ or "").strip()) > 40, found.name
