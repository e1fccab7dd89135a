"""The two arms of a memory pair belong together as two separate runs: both sealed alike
(``pair_seal``, rule 2 of the memory-pair profile), the oracle linked to the normal arm
(``pair_link``, rule 3), the normal arm gated and the oracle diagnostic-only (``pair_roles``,
rule 4), and never one combined run (``pair_separate``, rule 9).
"""

from __future__ import annotations

from collections.abc import Iterable

from bench_gate import records
from bench_gate.records import field
from bench_gate.aef import seal as sealmod
from bench_gate.checks.base import kind, FORBID, MISSING, Context, failed, jsonable, passed, show
from bench_gate.checks.pair.arm_folder import (
    ORACLE_FIELDS, PairParams, arm, count_field, field_value, gate_lines, optional_arm, raw_value, record,
    record_ptr, run_header, seal_findings, seal_of, signature_of, short_digest, trusted_keys,
)
from bench_gate.models import Finding


@records.record
class PairSealParams:
    __pydantic_config__ = FORBID
    normal: str = "report"
    oracle: str = "oracle"
    require_sealed: bool = False
    trusted_keys: list[str] = field(default_factory=list)


@kind("pair_seal", PairSealParams, "Both arms are sealed intact, or both explicitly unsealed")
def pair_seal(ctx: Context, p: PairSealParams) -> Iterable[Finding]:
    """Rule 2. Both arms intact, or both explicitly unsealed; a mixed pair or an invalid arm fails
    with the seal problems listed. ``require_sealed`` fails unsealed pairs; ``trusted_keys``
    requires a valid signature on each arm. With no oracle arm the normal arm is checked alone.
    Params: ``normal``, ``oracle``, ``require_sealed`` (false), ``trusted_keys`` ([]).
    """
    normal = arm(ctx, p.normal, "normal")
    oracle = optional_arm(ctx, p.oracle, "oracle")
    arms = [normal] + ([oracle] if oracle is not None else [])
    reports = {a.name: seal_of(a) for a in arms}
    invalid = [f for a in arms for f in seal_findings(a, reports[a.name])]
    if invalid:
        return invalid
    keys = trusted_keys(p.trusted_keys)
    outcomes = {name: r.outcome for name, r in reports.items()}
    if oracle is not None and outcomes["normal"] != outcomes["oracle"]:
        sealed, unsealed = ("normal", "oracle") if outcomes["normal"] == "intact" else ("oracle", "normal")
        return [failed(f"the {sealed} arm is sealed (intact) but the {unsealed} arm is unsealed: both arms are "
                       "sealed, or both explicitly unsealed", "", p.normal if unsealed == "normal" else p.oracle,
                       outcomes, "both intact or both unsealed")]
    if outcomes["normal"] == "unsealed":
        which = "both arms are" if oracle is not None else "the normal arm is"
        if p.require_sealed or keys:
            why = "a signature by a trusted key is required" if keys else "sealed evidence is required"
            return [failed(f"{which} unsealed (no seal.json), but {why}", "", p.normal, outcomes, "intact")]
        alone = "" if oracle is not None else "; no oracle arm"
        return [passed(f"{which} explicitly unsealed (no seal.json); sealing not required{alone}", "", p.normal,
                       outcomes, "both intact or both unsealed")]
    signed: dict[str, str] = {}
    bad: list[Finding] = []
    for a in arms:
        signed[a.name], finding = signature_of(a, keys)
        if finding is not None:
            bad.append(finding)
    if bad:
        return bad
    hashes = {name: r.run_hash for name, r in reports.items()}
    parts = [f"{name} runHash {hashes[name]}{signed[name]}" for name in hashes]
    if oracle is None:
        return [passed(f"the normal arm seal is intact: {parts[0]}; no oracle arm", "", p.normal, hashes)]
    return [passed(f"both arms sealed intact: {'; '.join(parts)}", "", p.normal, hashes)]


@kind("pair_link", PairParams, "The oracle links to the normal run hash, pair id, source digest and roster size")
def pair_link(ctx: Context, p: PairParams) -> Iterable[Finding]:
    """Rule 3. The oracle's ``normalRunHash`` is the normal arm's recomputed run hash (null when
    both are explicitly unsealed); ``pairId``, ``sourceInputsDigest`` and ``plannedQuestions``
    are equal in both; the normal record carries no ``normalRunHash`` or
    ``oracleGapPercentagePoints`` (absent or null). Params: ``normal``, ``oracle``.
    """
    normal = arm(ctx, p.normal, "normal")
    oracle = arm(ctx, p.oracle, "oracle")
    nrec, orec = record(normal), record(oracle)
    findings: list[Finding] = []
    report = seal_of(normal)
    expected = report.run_hash if sealmod.SEAL_FILE in normal.files else None
    link = field_value(oracle, orec, "normalRunHash")
    if link != expected:
        if expected is None:
            msg = (f"oracle normalRunHash is {sealmod.short(str(link))} but the normal arm is unsealed: with explicitly "
                   "unsealed evidence the link is null")
        elif link is None:
            msg = f"oracle normalRunHash is null but the normal arm is sealed with run hash {expected}"
        else:
            msg = (f"oracle normalRunHash {sealmod.short(str(link))} is not the normal arm's run hash "
                   f"{sealmod.short(expected)}: the oracle points at another normal run")
        findings.append(failed(msg, record_ptr("normalRunHash"), oracle.role, jsonable(link), expected))
    for name, what in (("pairId", "the arms belong to different executions"),
                       ("sourceInputsDigest", "the arms ran different source workloads"),
                       ("plannedQuestions", "the arms do not share one selected roster")):
        nv, ov = field_value(normal, nrec, name), field_value(oracle, orec, name)
        if name == "plannedQuestions":
            nv = count_field(normal, nrec, name)
            ov = count_field(oracle, orec, name)
        if nv != ov or type(nv) is not type(ov):
            shown = (short_digest(nv), short_digest(ov)) if name == "sourceInputsDigest" else (show(nv), show(ov))
            findings.append(failed(f"{name} differs: normal {shown[0]}, oracle {shown[1]}: {what}",
                                   record_ptr(name), oracle.role, jsonable(ov), jsonable(nv)))
    for name in ORACLE_FIELDS:
        if nrec.get(name) is not None:
            findings.append(failed(
                f"the normal pair record carries {name} {show(raw_value(nrec[name]), 20)}: only the oracle links back "
                "to the normal (absent or null in the normal)", record_ptr(name), normal.role,
                jsonable(raw_value(nrec[name])), None))
    if findings:
        return findings
    hash_text = "null (both explicitly unsealed)" if link is None else str(link)
    return [passed(f"the oracle links to the normal arm: normalRunHash {hash_text}, pairId {nrec['pairId']!r}, "
                   f"sourceInputsDigest {short_digest(nrec['sourceInputsDigest'])}, "
                   f"{nrec['plannedQuestions']} planned questions in both", record_ptr("normalRunHash"), oracle.role,
                   jsonable(link), expected)]


@kind("pair_roles", PairParams, "The normal arm is gated and the oracle is diagnostic-only")
def pair_roles(ctx: Context, p: PairParams) -> Iterable[Finding]:
    """Rule 4. Normal ``diagnosticOnly`` is false; oracle ``diagnosticOnly`` is true."""
    normal = arm(ctx, p.normal, "normal")
    oracle = arm(ctx, p.oracle, "oracle")
    findings: list[Finding] = []
    for a, want, why in ((normal, False, "the normal arm carries the gate and is never diagnostic-only"),
                         (oracle, True, "the oracle is a diagnostic and is marked diagnosticOnly true")):
        rec = record(a)
        value = rec.get("diagnosticOnly", MISSING)
        if value is not want:
            findings.append(failed(f"{a.label} diagnosticOnly is {show(value)}, expected {str(want).lower()}: {why}",
                                   record_ptr("diagnosticOnly"), a.role, jsonable(value), want))
    if findings:
        return findings
    return [passed("normal diagnosticOnly false (it carries the gate); oracle diagnosticOnly true (diagnostic)",
                   record_ptr("diagnosticOnly"), oracle.role, True, True)]


@kind("pair_separate", PairParams, "The two arms are separate runs and the oracle has no gate: never combined")
def pair_separate(ctx: Context, p: PairParams) -> Iterable[Finding]:
    """Rule 9. The arms are two separate runs (different ``runId`` and run hash) and the oracle
    carries no gate decision: the two results are never one combined run or score.
    Params: ``normal``, ``oracle``.
    """
    normal = arm(ctx, p.normal, "normal")
    oracle = arm(ctx, p.oracle, "oracle")
    nid, oid = run_header(normal).get("runId"), run_header(oracle).get("runId")
    findings: list[Finding] = []
    if nid == oid:
        findings.append(failed(f"both arms have runId {show(nid)}: the two arms are two separate runs, never one "
                               "combined run", "", oracle.role, jsonable(oid), "a runId other than the normal's"))
    nhash, ohash = seal_of(normal).run_hash, seal_of(oracle).run_hash
    if nhash == ohash:
        findings.append(failed(f"both arms are the same files (run hash {nhash}): the oracle must be its own run",
                               "", oracle.role, ohash, "a run other than the normal"))
    gates = gate_lines(oracle)
    if gates:
        findings.append(failed(f"the oracle arm carries {len(gates)} gate decision(s) in gates.ndjson: the oracle is "
                               "a diagnostic and has no gate", "", oracle.role, len(gates), 0))
    if findings:
        return findings
    return [passed(f"the arms are separate runs (normal {nid}, oracle {oid}) and the oracle has no gate; their "
                   "scores are reported side by side, never combined", "", oracle.role)]
