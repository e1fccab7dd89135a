"""Runs a compiled plan over loaded documents and produces one result per rule (or, for a
gate whose every finding is a result of its own, one result per finding).

The engine, not the check, stamps the rule id, title, severity, ``why`` and the YAML source onto
each result, so check kinds stay small. It also owns the fail-closed guarantees that no check
can forget:

* a check that raises :class:`~bench_gate.checks.base.Fail` fails with that message;
* a check that raises anything else fails with "internal error in check kind ..." (never a
  crash, never a pass);
* a check that returns no finding at all fails ("the check reached no decision");
* a rule whose ``when`` condition is false is ``skip`` with the condition in the message, and a
  rule disabled by a profile is ``skip`` with "disabled by profile NAME";
* every declared document gets its own result (``document-ROLE``): read, with size and
  SHA-256, or why not; a required document that is absent fails.

``evaluate(..., each_finding=True)`` keeps every finding of a rule as a result of its own
instead of one line per rule (the claims verb: each number in a document is one result, with
its own place, so that a waiver names one number). Everything above holds the same way.

The engine reads no file and no clock and prints nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from bench_gate.checks.base import Context, Fail, lookup
from bench_gate.jsonvalues import same, show
from bench_gate.text.pointer import MISSING
from bench_gate.models import UNSET, Detail, Doc, Finding, InputDigest, RuleResult, Verdict
from bench_gate.profile.plan import BoundRule, Condition, Plan

MAX_DETAILS = 20


def evaluate(plan: Plan, documents: Mapping[str, Doc], now: datetime, report_path: str = "",
             tool_version: str = "0.1.0", each_finding: bool = False) -> Verdict:
    """All results of the plan for one report, in plan order (document results first);
    ``each_finding``: every finding of a rule is a result of its own."""
    ctx = Context(now=now, documents=documents, declared=frozenset(plan.profile.documents))
    results: list[RuleResult] = [_document_result(plan, role, documents.get(role))
                                 for role in plan.profile.documents]
    for rule in plan.rules:
        if each_finding:
            results.extend(run_rule_each(plan, rule, ctx))
        else:
            results.append(run_rule(plan, rule, ctx))
    # a file found under the evidence root by its trailing components is listed where it was read
    inputs = tuple(InputDigest(d.role, d.found or d.path, d.sha256, d.size)
                   for d in _ordered(documents) if d.error is None and d.sha256)
    return Verdict(plan.name, plan.digest, now, inputs, tuple(results), report_path=report_path,
                   tool_version=tool_version)


def _ordered(documents: Mapping[str, Doc]) -> list[Doc]:
    report = [documents["report"]] if "report" in documents else []
    return report + [documents[k] for k in sorted(documents) if k != "report"]


def _document_result(plan: Plan, role: str, doc: Doc | None) -> RuleResult:
    declared = plan.profile.documents[role]
    spec = declared.spec
    how = f"{spec.option} PATH" if spec.option else f"--doc {role}=PATH"
    base = dict(rule=f"document-{role}", title=f"The {role} document is readable",
                severity="error", source=declared.source, check="document", document=role, pointer="",
                why=spec.description or f"Rules read the {role} document.")
    if doc is None:
        if spec.required:
            where = f" or set report:{spec.from_report}" if spec.from_report else ""
            return RuleResult(status="fail", message=f"required document '{role}' was not supplied "
                              f"(give {how}{where})", **base)
        return RuleResult(status="skip", message=f"optional document '{role}' was not supplied", **base)
    if doc.error is not None:
        return RuleResult(status="fail", message=f"{doc.path}: {doc.error}", actual=doc.path, **base)
    where = {"cli": "command line", "folder": "evidence folder"}.get(doc.origin, f"report:{spec.from_report}")
    found = f", found under the evidence root as {doc.found}" if doc.found else ""
    return RuleResult(status="pass", message=f"read {doc.path} from the {where}{found} "
                      f"({doc.size} bytes, sha256 {doc.sha256[:16]}…)", actual=doc.path, **base)


def run_rule(plan: Plan, rule: BoundRule, ctx: Context) -> RuleResult:
    """One rule's result; never raises."""
    findings = rule_findings(plan, rule, ctx)
    if isinstance(findings, Finding):
        return _result(rule, findings)
    return _aggregate(rule, findings)


def run_rule_each(plan: Plan, rule: BoundRule, ctx: Context) -> list[RuleResult]:
    """One result per finding of a rule (at least one); never raises."""
    findings = rule_findings(plan, rule, ctx)
    if isinstance(findings, Finding):
        return [_result(rule, findings)]
    if not findings:
        return [_aggregate(rule, findings)]
    return [_result(rule, f) for f in findings]


def rule_findings(plan: Plan, rule: BoundRule, ctx: Context) -> list[Finding] | Finding:
    """What a rule's check says, or the one finding that stands for the whole rule: disabled,
    not applicable (``when``), or a condition that cannot be decided. Never raises: a check
    that raises is a failing finding."""
    if rule.disabled_by is not None:
        return Finding("skip", f"disabled by profile {rule.disabled_by}")
    if rule.when is not None:
        try:
            applies, reason = condition(rule.when, ctx, plan)
        except Fail as exc:
            return exc.finding
        except Exception as exc:  # noqa: BLE001 - a condition that cannot be decided fails
            return Finding("fail", f"internal error deciding when: {exc.__class__.__name__}: {exc}")
        if not applies:
            return Finding("skip", f"not applicable: {reason}")
    kind = plan.kinds[rule.check]
    try:
        findings = list(kind.run(ctx, rule.params))
    except Fail as exc:
        findings = [exc.finding]
    except RecursionError:
        findings = [Finding("fail", f"internal error in check kind {rule.check}: input nested too deeply")]
    except Exception as exc:  # noqa: BLE001 - any crash inside a check is a failing rule
        findings = [Finding("fail", f"internal error in check kind {rule.check}: "
                                    f"{exc.__class__.__name__}: {str(exc)[:200]}")]
    return findings


def _aggregate(rule: BoundRule, findings: list[Finding]) -> RuleResult:
    failures = [f for f in findings if f.status == "fail"]
    if failures:
        # The result line shows the most serious failure: a claimed value the evidence
        # contradicts before a value that is missing (check order otherwise).
        lead = min(range(len(failures)), key=lambda i: (not _contradicted(failures[i]), i))
        first = failures[lead]
        rest = failures[:lead] + failures[lead + 1:]
        details = tuple(Detail(f.message, f.document, f.pointer, f.actual, f.expected)
                        for f in rest[:MAX_DETAILS])
        omitted = max(0, len(rest) - MAX_DETAILS)
        message = first.message
        if rest:
            message += f" (and {len(rest)} more)"
        return _result(rule, Finding("fail", message, first.document, first.pointer, first.actual,
                                     first.expected), details, omitted)
    passes = [f for f in findings if f.status == "pass"]
    if passes:
        return _result(rule, passes[0])
    skips = [f for f in findings if f.status == "skip"]
    if skips:
        return _result(rule, skips[0])
    return _result(rule, Finding("fail", "the check reached no decision (it produced no finding)"))


def _contradicted(f: Finding) -> bool:
    """A claimed value that the check found wrong against an expected one (both given, not null)."""
    return all(v is not UNSET and v is not None for v in (f.actual, f.expected))


def _result(rule: BoundRule, f: Finding, details: tuple[Detail, ...] = (), omitted: int = 0) -> RuleResult:
    # every field in order (rule, title, status, severity, message, document, pointer, source,
    # check, actual, expected, why, details, omitted_details, waiver, claim): a record made
    # positionally is made in one step
    return RuleResult(rule.id, rule.title, f.status, rule.severity, f.message,  # type: ignore[arg-type]
                      f.document, f.pointer, rule.source, rule.check, f.actual, f.expected, rule.why,
                      details, omitted, None, f.claim)


# --- conditions -------------------------------------------------------------------------


def condition(cond: Condition, ctx: Context, plan: Plan) -> tuple[bool, str]:
    """(applies, why it does not) for a ``when`` condition."""
    ok, text = _decide(cond, ctx, plan)
    return ok, ("" if ok else text)


def _decide(cond: Condition, ctx: Context, plan: Plan) -> tuple[bool, str]:
    """(holds, what was found): the text explains the outcome either way, so that a ``not``
    can say what held (``report:/zaxy_diagnostic is null``) instead of "the opposite holds"."""
    if cond.param is not None:
        value = plan.values.get(cond.param)
        truthy = value not in (None, False, "", [], {}) and value is not UNSET
        return truthy, f"{_option_for(plan, cond.param)} {'given' if truthy else 'not given'}"
    if cond.document is not None:
        doc = ctx.documents.get(cond.document)
        return doc is not None, f"document '{cond.document}' {'supplied' if doc is not None else 'not supplied'}"
    if cond.any is not None:
        reasons = []
        for sub in cond.any:
            ok, why = _decide(sub, ctx, plan)
            if ok:
                return True, why
            reasons.append(why)
        return False, " and ".join(reasons)
    if cond.all is not None:
        held = []
        for sub in cond.all:
            ok, why = _decide(sub, ctx, plan)
            if not ok:
                return False, why
            held.append(why)
        return True, " and ".join(held)
    if cond.not_ is not None:
        ok, why = _decide(cond.not_, ctx, plan)
        return (not ok), why
    assert cond.ref is not None
    value, role, pointer = lookup(ctx, cond.ref)
    where = f"{role}:{pointer}"
    if cond.exists is not None:
        present = value is not MISSING
        return present == cond.exists, f"{where} is {'present' if present else 'absent'}"
    if cond.in_ is not None:
        ok = any(_same(value, v) for v in cond.in_)
        return ok, f"{where} is {show(value)}, {'one' if ok else 'not one'} of {show(cond.in_)}"
    if cond.matches is not None:
        ok = isinstance(value, str) and re.search(cond.matches, value) is not None
        return ok, f"{where} is {show(value)}, which {'matches' if ok else 'does not match'} {cond.matches}"
    ok = _same(value, cond.equals)
    return ok, f"{where} is {show(value)}" if ok else f"{where} is {show(value)}, not {show(cond.equals)}"


def _same(a: Any, b: Any) -> bool:
    """JSON equality (true is not 1, 1 is 1.0, also inside lists and objects); missing equals nothing."""
    if a is MISSING:
        return False
    return same(a, b)


def _option_for(plan: Plan, param: str) -> str:
    for name, opt in plan.profile.options.items():
        if opt.spec.param == param:
            return name
    return f"parameter {param}"
