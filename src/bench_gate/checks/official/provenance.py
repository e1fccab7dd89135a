"""Who evaluated and who validated an official LongMemEval result: the baseline's evaluator
model is ours (``same_evaluator``), the recorded command runs the official evaluator with the
declared model and files (``official_eval_command``), and the validator is independent of the
system it validated (``independent_validator``).
"""

from __future__ import annotations

import posixpath
import re
import shlex
from urllib.parse import urlsplit
from collections.abc import Iterable
from typing import Any, Literal

from bench_gate.records import field, record
from bench_gate.checks.base import (
    described,
    kind,
    FORBID, MISSING, Context, Fail, failed, jsonable, lookup,
    need, passed, show, skipped,
)
from bench_gate.checks.generic.integrity import normalize_model, ref_label
from bench_gate.checks.official.evaluator_log import model_name
from bench_gate.checks.official.split import INTERPRETER
from bench_gate.models import Finding

DEFAULT_PLACEHOLDERS = ["", "not_disclosed", "not disclosed", "undisclosed", "unknown", "n/a",
                        "na", "none", "null", "tbd", "-", "?"]
DEFAULT_INDEPENDENT_RELATIONS = ["independent-third-party", "third-party", "independent",
                                 "independent-reviewer", "independent-auditor", "external-auditor"]


# --- same_evaluator ----------------------------------------------------------------------


@record
class SameEvaluatorParams:
    __pydantic_config__ = FORBID
    ours: str = "/official_qa/evaluator_model"
    theirs: str = "baseline:/evaluator_model"
    model_ids: dict[str, str] = field(default_factory=dict)
    placeholders: list[str] = field(default_factory=lambda: list(DEFAULT_PLACEHOLDERS))
    require: Literal["match", "disclosed"] = "match"


@kind("same_evaluator", SameEvaluatorParams, "two evaluator models are the same (or disclosed)")
def same_evaluator(ctx: Context, p: SameEvaluatorParams) -> Iterable[Finding]:
    """``ours`` and ``theirs`` name the same evaluator model (compared through ``model_ids``).
    ``require: match`` fails on a different model and skips a placeholder (``not_disclosed``,
    ``unknown``, blank...) or an absent value; ``require: disclosed`` fails on a placeholder
    (use it at severity warning: the comparison is then not like for like).
    """
    theirs, trole, tptr = lookup(ctx, p.theirs)
    tlabel = ref_label(trole, tptr)
    if theirs is MISSING or theirs is None:
        msg = f"{tlabel} is not given: the baseline's evaluator is unknown, so the comparison is not like for like"
        if p.require == "disclosed":  # leaving the field out is no better than writing "not_disclosed"
            return [failed(msg, tptr, trole, None, "a disclosed evaluator model")]
        return [skipped(f"{tlabel} is not given; nothing to compare", tptr, trole)]
    if not isinstance(theirs, str):
        raise Fail(f"{tlabel} must be a model name, got {described(theirs)}", tptr, trole,
                   jsonable(theirs), "a model name")
    placeholder = theirs.strip().lower() in {x.strip().lower() for x in p.placeholders}
    if placeholder:
        msg = (f"{tlabel} {show(theirs)} is a placeholder: the baseline's evaluator is unknown, so the "
               "comparison is not like for like")
        if p.require == "disclosed":
            return [failed(msg, tptr, trole, theirs, "a disclosed evaluator model")]
        return [skipped(msg, tptr, trole)]
    if p.require == "disclosed":
        return [passed(f"{tlabel} {show(theirs)} is disclosed", tptr, trole, theirs, "a disclosed evaluator model")]
    ours, orole, optr = need(ctx, p.ours)
    if not isinstance(ours, str) or not ours.strip():
        raise Fail(f"{ref_label(orole, optr)} must be a model name, got {described(ours)}",
                   optr, orole, jsonable(ours), "a model name")
    if normalize_model(ours, p.model_ids) != normalize_model(theirs, p.model_ids):
        return [failed(f"{tlabel} {model_name(theirs, p.model_ids)} is not our evaluator "
                       f"{model_name(ours, p.model_ids)}: the accuracies are not comparable", tptr, trole,
                       theirs, ours)]
    return [passed(f"{tlabel} {model_name(theirs, p.model_ids)} is our evaluator "
                   f"{model_name(ours, p.model_ids)}", tptr, trole, theirs, ours)]


# --- official_eval_command ---------------------------------------------------------------

# Characters a shell would act on: a command holding one is more than the evaluator command.
_SHELL = re.compile(r"[;&|<>`$(){}\n\r*?\[\]#]")
OFFICIAL_DATASETS = ("longmemeval_s_cleaned.json", "longmemeval_m_cleaned.json", "longmemeval_oracle.json",
                     "longmemeval_s.json", "longmemeval_m.json")


@record
class CommandParams:
    __pydantic_config__ = FORBID
    command: str = "/official_qa/official_eval_command"
    evaluator: str = "/official_qa/evaluator_model"
    hypotheses: str = "/official_qa/hypothesis_path"
    dataset: str | None = "/official_qa/dataset_path"
    script: str = "evaluate_qa.py"
    reference_files: list[str] = field(default_factory=lambda: list(OFFICIAL_DATASETS))
    model_ids: dict[str, str] = field(default_factory=dict)


def _string(ctx: Context, ref: str) -> tuple[str, str, str]:
    value, role, ptr = need(ctx, ref)
    if not isinstance(value, str) or not value.strip():
        raise Fail(f"{ref_label(role, ptr)} must be a non-empty string, got {described(value)}",
                   ptr, role, jsonable(value), "a non-empty string")
    return value, role, ptr


@kind("official_eval_command", CommandParams, "the command runs the official evaluator with the declared model and hypotheses")
def official_eval_command(ctx: Context, p: CommandParams) -> Iterable[Finding]:
    """The command is exactly ``[python] <path/>evaluate_qa.py MODEL HYPOTHESES REFERENCE``.

    Anything else is refused before any part is compared: a first word that is neither the
    interpreter nor the script (``echo evaluate_qa.py ...``, ``env X=1 python3 ...``), a
    shell character anywhere (``; rm -rf /``, ``&&``, ``$(...)``, a redirection), or more or
    fewer than three arguments.
    """
    command, role, ptr = _string(ctx, p.command)
    label = ref_label(role, ptr)
    model, _, _ = _string(ctx, p.evaluator)
    hyp, _, _ = _string(ctx, p.hypotheses)
    usage = f"[python3] {p.script} <evaluator model> <hypotheses file> <reference file>"
    bad = _SHELL.search(command)
    if bad:
        raise Fail(f"{label} holds the shell character {bad.group()!r}: it is more than the official evaluator "
                   f"command ({show(command, 120)})", ptr, role, command, usage)
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise Fail(f"{label} cannot be split into words ({exc})", ptr, role, command, usage) from None
    if words and INTERPRETER.fullmatch(posixpath.basename(words[0])):
        words = words[1:]
    if not words or posixpath.basename(words[0]) != p.script:
        raise Fail(f"{label} does not run {p.script}: {show(command, 120)}", ptr, role, command, usage)
    args = words[1:]
    if len(args) != 3:
        raise Fail(f"{label} passes {len(args)} arguments to {p.script}, expected exactly 3 ({usage})", ptr, role,
                   command, usage)
    out: list[Finding] = []
    if normalize_model(args[0], p.model_ids) != normalize_model(model, p.model_ids):
        out.append(failed(f"{label} evaluates with {show(args[0])}, but the declared evaluator is {show(model)}",
                          ptr, role, args[0], model))
    want = posixpath.basename(hyp)
    if posixpath.basename(args[1]) != want:
        out.append(failed(f"{label} evaluates {show(args[1])}, not the hypotheses file {show(want)}",
                          ptr, role, args[1], want))
    refs = list(p.reference_files)
    if p.dataset is not None:
        dataset, _, _ = lookup(ctx, p.dataset)
        if isinstance(dataset, str) and dataset.strip():
            refs.append(posixpath.basename(dataset.replace("\\", "/")))
    if posixpath.basename(args[2]) not in refs:
        out.append(failed(f"{label} scores against {show(args[2])}, which is neither the dataset file nor an "
                          f"official LongMemEval file ({', '.join(sorted(set(refs)))})", ptr, role, args[2], refs))
    if out:
        return out
    return [passed(f"{label} runs {p.script} with evaluator {args[0]} on {posixpath.basename(args[1])} "
                   f"against {posixpath.basename(args[2])}", ptr, role, command, usage)]


# --- independent_validator ---------------------------------------------------------------


@record
class IndependentParams:
    __pydantic_config__ = FORBID
    relation: str = "/result_provenance/validator/relation"
    name: str = "/result_provenance/validator/name"
    system: str = "/result_provenance/validated_system/name"
    independent: list[str] = field(default_factory=lambda: list(DEFAULT_INDEPENDENT_RELATIONS))
    run_id: str | None = "/result_provenance/validator/run_id"
    evidence_url: str | None = "/result_provenance/validator/evidence_url"
    examples: list[str] = field(default_factory=list)
    role_words: list[str] = field(default_factory=list)


def only_roles(key: str, words: frozenset[str]) -> bool:
    """The skeleton ``key`` is a run of role words and nothing else (``thirdpartyvalidator``)."""
    if not key or not words:
        return False
    ends = [True] + [False] * len(key)  # ends[i]: key[:i] splits into role words
    for i in range(1, len(key) + 1):
        ends[i] = any(ends[i - len(w)] and key[i - len(w):i] == w for w in words if len(w) <= i)
    return ends[-1]


def _host(text: str) -> str:
    """The lower-case host of an http(s) URL ('' for anything else)."""
    try:
        parsed = urlsplit(text.strip())
        return (parsed.hostname or "").rstrip(".") if parsed.scheme.lower() in ("http", "https") else ""
    except ValueError:
        return ""


def _template_values(ctx: Context, p: IndependentParams, skeleton: Any) -> list[Finding]:
    """The documented example values and role-only names: placeholders, never an identity."""
    examples = {skeleton(e) for e in p.examples if skeleton(e)}
    hosts = {_host(e) for e in p.examples} - {""}
    out: list[Finding] = []
    for what, ref in (("name", p.name), ("run id", p.run_id), ("evidence URL", p.evidence_url)):
        if ref is None:
            continue
        value, role, ptr = lookup(ctx, ref)
        if isinstance(value, str) and skeleton(value) in examples:
            out.append(failed(f"{ref_label(role, ptr)} {show(value)} is the example value of the validator "
                              f"record's documentation (longmembench-validator-evidence), a placeholder: not a "
                              f"validator's {what}", ptr, role, value, "the validator's own " + what))
        elif what == "evidence URL" and isinstance(value, str) and _host(value) in hosts:
            # another path or a query on the example's host is still the example's site
            out.append(failed(f"{ref_label(role, ptr)} {show(value)} is on {_host(value)}, the host of the "
                              "validator record's documentation example (longmembench-validator-evidence): not a "
                              "validator's own evidence", ptr, role, value, "the validator's own evidence URL"))
    name, nrole, nptr = lookup(ctx, p.name)
    if isinstance(name, str) and skeleton(name) not in examples and \
            only_roles(skeleton(name), frozenset(skeleton(w) for w in p.role_words if skeleton(w))):
        out.append(failed(f"{ref_label(nrole, nptr)} {show(name)} names a role, not a person or an organisation: "
                          "who validated the run is unknown", nptr, nrole, name, "a validator's own name"))
    return out


@kind("independent_validator", IndependentParams, "the validator is not the system itself or its authors")
def independent_validator(ctx: Context, p: IndependentParams) -> Iterable[Finding]:
    """Relation on an allow-list, names compared as a reader sees them (see :mod:`.skeleton`)."""
    from bench_gate.text.canonical import skeleton

    relation, rrole, rptr = _string(ctx, p.relation)
    name, nrole, nptr = _string(ctx, p.name)
    system, srole, sptr = _string(ctx, p.system)
    rlabel = ref_label(rrole, rptr)
    allowed = {skeleton(r): r for r in p.independent if skeleton(r)}
    sys_key = skeleton(system)
    if not sys_key:
        raise Fail(f"{ref_label(srole, sptr)} {show(system)} has no letters or digits: the system cannot be "
                   "told apart from its validator", sptr, srole, system, "a system name")
    rel_key = skeleton(relation)
    if rel_key not in allowed:
        # an allow-list, not a deny-list: "employees", "owners", "sel\u00adf" are not independent
        return [failed(f"{rlabel} {show(relation)} is not an independent relation (accepted: "
                       f"{', '.join(p.independent)})", rptr, rrole, relation, p.independent)]
    name_key = skeleton(name)
    if not name_key:
        return [failed(f"{ref_label(nrole, nptr)} {show(name)} has no letters or digits: it names no validator",
                       nptr, nrole, name, "a validator name")]
    if sys_key in name_key or name_key in sys_key:
        # "Zaxy", "Zаxy" (Cyrillic a), "ＺａｘｙLabs": a validator named after the system is not independent
        return [failed(f"{ref_label(nrole, nptr)} {show(name)} reads as the validated system's name "
                       f"{show(system)} (compared as {name_key!r} and {sys_key!r})", nptr, nrole, name,
                       f"not {system}")]
    template = _template_values(ctx, p, skeleton)
    if template:
        return template
    return [passed(f"validator {show(name)} is {show(relation)} ({allowed[rel_key]}) to {show(system)}", rptr,
                   rrole, relation, p.independent)]
