"""The ``aef_seal`` kind: one AEF run folder's seal is intact (or explicitly unsealed), optionally
signed by a trusted key. The seal itself is verified by :mod:`bench_gate.aef.seal`.
"""

from __future__ import annotations

from collections.abc import Iterable

from bench_gate.records import field, record
from bench_gate.checks.base import kind, FORBID, Context, failed, passed
from bench_gate.checks.pair.arm_folder import Arm, arm, seal_findings, seal_of, signature_of, trusted_keys
from bench_gate.models import Finding


@record
class _Run(Arm):
    @property
    def label(self) -> str:
        return self.name


@record
class SealParams:
    __pydantic_config__ = FORBID
    arm: str = "report"
    require_sealed: bool = False
    trusted_keys: list[str] = field(default_factory=list)


@kind("aef_seal", SealParams, "An AEF run folder's seal is intact (or explicitly unsealed), optionally signed by a trusted key")
def aef_seal(ctx: Context, p: SealParams) -> Iterable[Finding]:
    """One run folder's seal: ``intact``, ``unsealed`` or ``invalid`` with every problem
    (``digest``, ``missing``, ``not-sealed``, ``run-hash``, ``run-id``, ``run-open``, ``path``,
    ``seal-invalid``...; see :mod:`bench_gate.aef.seal`). Params: ``arm`` (role, default
    ``report``), ``require_sealed`` (default false: unsealed passes as "unsealed"),
    ``trusted_keys`` (PEM public keys; when given, ``attestation.dsse.json`` must carry a valid
    signature by one of them).

    .. code-block:: yaml

       - id: run-seal
         check: aef_seal
         with: {arm: report, require_sealed: true}
    """
    found = arm(ctx, p.arm, p.arm)
    # Arm.label is "<name> arm"; a single run is simply "the run" (or "the <role> run").
    a = _Run(found.role, "the run" if p.arm == "report" else f"the {p.arm} run", found.doc, found.files,
             found.problems)
    report = seal_of(a)
    if report.outcome == "invalid":
        return seal_findings(a, report, "seal invalid")
    if report.outcome == "unsealed":
        if p.require_sealed or p.trusted_keys:
            return [failed(f"{a.label} is unsealed (no seal.json), but sealed evidence is required",
                           "", a.role, "unsealed", "intact")]
        return [passed(f"{a.label} is unsealed (no seal.json; sealing not required): run hash "
                       f"{report.run_hash} over {report.sealed_files} files", "", a.role, "unsealed", "intact or unsealed")]
    signed, bad = signature_of(a, trusted_keys(p.trusted_keys))
    if bad is not None:
        return [bad]
    return [passed(f"seal intact{signed}: runHash {report.run_hash} over {report.sealed_files} sealed files",
                   "", a.role, report.run_hash, report.run_hash)]
