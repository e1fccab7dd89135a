"""The two arms as one pair (``pair_seal``, ``pair_link``, ``pair_roles``, ``pair_separate``): one table
per kind, pass and fail rows, exact messages."""

from __future__ import annotations

from typing import Any

from bench_gate.checks.base import kinds_of
from bench_gate.checks.pair.arm_folder import PairParams
from bench_gate.checks.pair.pairing import PairSealParams
from pairsetup import BASE, NHASH, Row, Setup, check, doc, field_edit, fill, run_kind, set_field, set_run

# --- rule 2: pair_seal ------------------------------------------------------------------

SEAL = PairSealParams()
SEAL_ROWS: list[Row] = [
    ("both-intact", SEAL, Setup(),
     [("pass", "both arms sealed intact: normal runHash {nhash} (unsigned); oracle runHash {ohash} (unsigned)")]),
    ("both-unsealed", SEAL, Setup(mode="unsealed"),
     [("pass", "both arms are explicitly unsealed (no seal.json); sealing not required")]),
    ("both-unsealed-but-required", PairSealParams(require_sealed=True), Setup(mode="unsealed"),
     [("fail", "both arms are unsealed (no seal.json), but sealed evidence is required")]),
    ("mixed", SEAL, Setup("mixed-seal"),
     [("fail", "the normal arm is sealed (intact) but the oracle arm is unsealed: both arms are sealed, or both "
       "explicitly unsealed")]),
    ("mixed-other-way", SEAL, Setup(normal=lambda f: f.pop("seal.json")),
     [("fail", "the oracle arm is sealed (intact) but the normal arm is unsealed: both arms are sealed, or both "
       "explicitly unsealed")]),
    ("tampered", SEAL, Setup("tampered-normal"),
     [("fail", "normal arm seal is invalid: results.ndjson changed after sealing: sha256 {tampered}… (sealed "
       "{sealed}…)")]),
    ("normal-alone-intact", SEAL, Setup(drop_oracle=True),
     [("pass", "the normal arm seal is intact: normal runHash {nhash} (unsigned); no oracle arm")]),
    ("normal-alone-unsealed", SEAL, Setup(mode="unsealed", drop_oracle=True),
     [("pass", "the normal arm is explicitly unsealed (no seal.json); sealing not required; no oracle arm")]),
    ("open-run-unsealed", SEAL, Setup(mode="unsealed", oracle=lambda f: set_run(f, status="running")),
     [("fail", "oracle arm seal is invalid: run.json status is 'running': the run is still open (only a closed run "
       "is evidence)")]),
    ("oracle-file-added", SEAL, Setup(oracle=lambda f: f.__setitem__("notes.txt", b"x")),
     [("fail", "oracle arm seal is invalid: notes.txt is in the run folder but not in the seal")]),
]


@check(SEAL_ROWS)
def test_pair_seal(kind_params: Any, setup: Setup, expected: list[tuple[str, str]]) -> None:
    assert run_kind("pair_seal", kind_params, setup) == fill(expected)


# --- rule 3: pair_link -------------------------------------------------------------------

LINK = PairParams()
LINK_ROWS: list[Row] = [
    ("sealed", LINK, Setup(),
     [("pass", "the oracle links to the normal arm: normalRunHash {nhash}, pairId '{pair}', sourceInputsDigest "
       "sha256:12f1ca1b5046…, 40 planned questions in both")]),
    ("unsealed", LINK, Setup(mode="unsealed"),
     [("pass", "the oracle links to the normal arm: normalRunHash null (both explicitly unsealed), pairId "
       "'{pair}', sourceInputsDigest sha256:12f1ca1b5046…, 40 planned questions in both")]),
    ("other-normal-hash", LINK, Setup("other-normal-hash"),
     [("fail", "oracle normalRunHash 2d217b62e511… is not the normal arm's run hash {nh12}…: the oracle points at "
       "another normal run")]),
    ("null-link-to-sealed-normal", LINK, Setup(oracle=field_edit("normalRunHash", "null")),
     [("fail", "oracle normalRunHash is null but the normal arm is sealed with run hash {nhash}")]),
    ("link-to-unsealed-normal", LINK, Setup(mode="unsealed", oracle=field_edit("normalRunHash", f'"{NHASH}"')),
     [("fail", "oracle normalRunHash is {nh12}… but the normal arm is unsealed: with explicitly unsealed evidence "
       "the link is null")]),
    ("pair-id-mismatch", LINK, Setup("pair-id-mismatch"),
     [("fail", 'pairId differs: normal "{pair}", oracle "{pair}-b": the arms belong to different executions')]),
    ("source-digest-mismatch", LINK, Setup("source-digest-mismatch"),
     [("fail", "sourceInputsDigest differs: normal sha256:12f1ca1b5046…, oracle sha256:f4adad555d48…: the arms "
       "ran different source workloads")]),
    ("roster-mismatch", LINK, Setup("roster-mismatch"),
     [("fail", "plannedQuestions differs: normal 40, oracle 39: the arms do not share one selected roster")]),
    ("normal-carries-link", LINK, Setup(mode="unsealed", normal=field_edit("oracleGapPercentagePoints", "32.5")),
     [("fail", "the normal pair record carries oracleGapPercentagePoints 32.5: only the oracle links back to the "
       "normal (absent or null in the normal)")]),
    ("normal-null-link-fields-are-fine", LINK, Setup(mode="unsealed", normal=lambda f: (
        set_field(f, "normalRunHash", "null"), set_field(f, "oracleGapPercentagePoints", "null"))),
     [("pass", "the oracle links to the normal arm: normalRunHash null (both explicitly unsealed), pairId "
       "'{pair}', sourceInputsDigest sha256:12f1ca1b5046…, 40 planned questions in both")]),
    ("tampered-normal-breaks-the-link", LINK, Setup("tampered-normal"),
     [("fail", "oracle normalRunHash {nh12}… is not the normal arm's run hash {tampered_hash}…: the oracle points "
       "at another normal run")]),
]


@check(LINK_ROWS)
def test_pair_link(kind_params: Any, setup: Setup, expected: list[tuple[str, str]]) -> None:
    assert run_kind("pair_link", kind_params, setup) == fill(expected)


# --- rule 4: pair_roles ------------------------------------------------------------------

ROLES_ROWS: list[Row] = [
    ("ok", LINK, Setup(), [("pass", "normal diagnosticOnly false (it carries the gate); oracle diagnosticOnly true "
                                    "(diagnostic)")]),
    ("oracle-without-diagnostic-only", LINK, Setup("oracle-not-diagnostic"),
     [("fail", "oracle arm diagnosticOnly is missing, expected true: the oracle is a diagnostic and is marked "
       "diagnosticOnly true")]),
    ("oracle-diagnostic-false", LINK, Setup(oracle=field_edit("diagnosticOnly", "false")),
     [("fail", "oracle arm diagnosticOnly is false, expected true: the oracle is a diagnostic and is marked "
       "diagnosticOnly true")]),
    ("normal-diagnostic", LINK, Setup(normal=field_edit("diagnosticOnly", "true")),
     [("fail", "normal arm diagnosticOnly is true, expected false: the normal arm carries the gate and is never "
       "diagnostic-only")]),
    ("diagnostic-only-as-1", LINK, Setup(oracle=field_edit("diagnosticOnly", "1")),
     [("fail", "oracle arm diagnosticOnly is 1, expected true: the oracle is a diagnostic and is marked "
       "diagnosticOnly true")]),
]


@check(ROLES_ROWS)
def test_pair_roles(kind_params: Any, setup: Setup, expected: list[tuple[str, str]]) -> None:
    assert run_kind("pair_roles", kind_params, setup) == fill(expected)


# --- rule 9: pair_separate ---------------------------------------------------------------

SEPARATE_ROWS: list[Row] = [
    ("separate", LINK, Setup(),
     [("pass", "the arms are separate runs (normal {nrun}, oracle {orun}) and the oracle has no gate; their scores "
       "are reported side by side, never combined")]),
    ("oracle-gated", LINK, Setup("oracle-gated"),
     [("fail", "the oracle arm carries 1 gate decision(s) in gates.ndjson: the oracle is a diagnostic and has no "
       "gate")]),
    ("same-run-twice", LINK, Setup(extra_docs={"oracle": doc("oracle", dict(BASE.normal or {}))}),
     [("fail", 'both arms have runId "{nrun}": the two arms are two separate runs, never one combined run'),
      ("fail", "both arms are the same files (run hash {nhash}): the oracle must be its own run")]),
]


@check(SEPARATE_ROWS)
def test_pair_separate(kind_params: Any, setup: Setup, expected: list[tuple[str, str]]) -> None:
    assert run_kind("pair_separate", kind_params, setup) == fill(expected)


def test_every_kind_is_documented_and_registered() -> None:
    from bench_gate.checks import registry
    from bench_gate.checks.pair import pairing

    names = {k.name for k in kinds_of(pairing.__name__)}
    assert names <= set(registry())
    for found in kinds_of(pairing.__name__):
        assert len((found.run.__doc__ or "").strip()) > 40, found.name
