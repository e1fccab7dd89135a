"""Which LongMemEval split an official QA result was produced on."""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Iterable, Mapping
from typing import Literal

from bench_gate.records import field, record
from bench_gate.checks.base import kind, FORBID, Context, Fail, failed, lookup, passed, show
from bench_gate.checks.generic.integrity import ref_label
from bench_gate.models import Finding

SplitKey = Literal["s", "m", "oracle"]


@record
class Split:
    """One LongMemEval split: its name, official file and what it is."""

    name: str
    file: str
    note: str
    short: str  # how a headline names it


SPLITS: Mapping[str, Split] = {
    "s": Split("LongMemEval-S", "longmemeval_s_cleaned.json", "the split leaderboards report", "LongMemEval-S"),
    "m": Split("LongMemEval-M", "longmemeval_m_cleaned.json", "about 500 sessions per question", "LongMemEval-M"),
    "oracle": Split("the LongMemEval oracle split", "longmemeval_oracle.json",
                    "evidence sessions only",
                    "LongMemEval oracle split (evidence sessions only)"),
}

# "longmemeval_s_cleaned.json", "LongMemEval-M.json", "longmemeval_s_question_types.json"
_NAMED = re.compile(r"longmemeval[\W_]*(s|m)(?![a-z0-9])")
# An interpreter the evaluator may be run with: python, python3, python3.11, /usr/bin/python3 ...
INTERPRETER = re.compile(r"python(3(\.\d+)?)?")


def base_name(path: str) -> str:
    """The file name of a path written on any machine."""
    return posixpath.basename(path.replace("\\", "/"))


def split_of_name(path: str) -> str | None:
    """The split a file name names, or None when it names none."""
    name = base_name(path).casefold()
    if "oracle" in name:
        return "oracle"
    found = _NAMED.search(name)
    return found.group(1) if found else None


def reference_file(command: str, script: str = "evaluate_qa.py") -> str | None:
    """The reference file of ``[python3] [path/]evaluate_qa.py MODEL HYPOTHESES REFERENCE``, if it is one."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if words and INTERPRETER.fullmatch(posixpath.basename(words[0])):
        words = words[1:]
    if len(words) != 4 or posixpath.basename(words[0]) != script:
        return None  # the command's shape is official-eval-command's finding
    return words[3]


@record
class Statement:
    """One part of the report naming (or not) a split."""

    source: str  # "official_qa.dataset_path"
    said: str  # the file name or hash it states
    split: str | None


@record
class SplitParams:
    __pydantic_config__ = FORBID
    paths: list[str] = field(default_factory=lambda: ["/official_qa/dataset_path", "/result_provenance/dataset"])
    document: str | None = "dataset"
    command: str | None = "/official_qa/official_eval_command"
    counts: str | None = "/external_suite/dataset_counts"
    accepted: dict[str, list[str]] = field(default_factory=dict)
    script: str = "evaluate_qa.py"
    require: Literal["named", "comparable"] = "named"
    baseline_split: Literal["s", "m"] = "s"


def statements(ctx: Context, p: SplitParams) -> list[Statement]:
    """Everything the report and its files say about the dataset file, in a fixed order."""
    out: list[Statement] = []
    names: set[str] = set()
    for ref in p.paths:
        value, role, ptr = lookup(ctx, ref)
        if isinstance(value, str) and value.strip():
            names.add(base_name(value))
            out.append(Statement(ref_label(role, ptr), base_name(value), split_of_name(value)))
    doc = ctx.documents.get(p.document) if p.document else None
    if doc is not None and doc.error is None:
        if base_name(doc.path) not in names:  # read from another path than the report names (--dataset)
            out.append(Statement(f"the {p.document} file read", base_name(doc.path), split_of_name(doc.path)))
        haystacks, evidence = int(doc.extra.get("haystacks", 0)), int(doc.extra.get("evidence_only", 0))
        if haystacks and 2 * evidence > haystacks:
            out.append(Statement(f"the {p.document} file's content", f"{evidence} of {haystacks} entries hold only "
                                 "their evidence sessions", "oracle"))
        for name, hashes in p.accepted.items():
            if doc.sha256 in hashes:
                out.append(Statement(f"the {p.document} file's SHA-256", f"the official {name}",
                                     split_of_name(name)))
    if p.command:
        command, role, ptr = lookup(ctx, p.command)
        ref = reference_file(command, p.script) if isinstance(command, str) else None
        if ref is not None:
            out.append(Statement(f"the reference file of {ref_label(role, ptr)}", base_name(ref),
                                 split_of_name(ref)))
    if p.counts:
        table, role, ptr = lookup(ctx, p.counts)
        if isinstance(table, dict):
            counted = [k for k, v in table.items() if isinstance(v, int) and not isinstance(v, bool)]
            if len(counted) == 1:
                out.append(Statement(ref_label(role, ptr), f"counts only {counted[0]}", split_of_name(counted[0])))
    return out


def _by_split(found: Iterable[Statement]) -> str:
    groups: dict[str, list[str]] = {}
    for st in found:
        if st.split is not None:
            groups.setdefault(st.split, []).append(f"{st.source} ({st.said})")
    return "; ".join(f"{SPLITS[key].name}: {', '.join(said)}" for key, said in groups.items())


def placed(ctx: Context, p: SplitParams) -> tuple[str | None, list[Statement]]:
    """The one split the statements name (None when none or several do) and the statements."""
    found = statements(ctx, p)
    keys = {st.split for st in found if st.split is not None}
    return (next(iter(keys)) if len(keys) == 1 else None), found


def split_label(ctx: Context, accepted: dict[str, list[str]]) -> str:
    """A short name of the split for a headline: ``LongMemEval-S`` or why there is none."""
    try:
        key, found = placed(ctx, SplitParams(accepted=accepted))
    except Fail:
        return "LongMemEval split unknown"
    if key is not None:
        return SPLITS[key].short
    return "LongMemEval splits disagree" if any(st.split for st in found) else "LongMemEval split not named"


@kind("dataset_split", SplitParams, "the LongMemEval split (S, M, oracle) the report names, consistently; comparable with the baseline")
def dataset_split(ctx: Context, p: SplitParams) -> Iterable[Finding]:
    """Which LongMemEval split an official QA result was produced on.

    LongMemEval ships three files of the same 500 questions (same ids, same question types):

    * ``longmemeval_s_cleaned.json`` (**LongMemEval-S**): each question comes with about 50 chat
      sessions (~115k tokens) to search; the leaderboards' QA accuracies are on this split.
    * ``longmemeval_m_cleaned.json`` (**LongMemEval-M**): about 500 sessions per question.
    * ``longmemeval_oracle.json`` (the **oracle** split): only the evidence sessions, i.e. the
      retrieval problem solved. It is a diagnostic of the reader, and its QA accuracy is far above
      an S accuracy of the same system: it is not comparable with a leaderboard result.

    Question ids and types cannot tell these files apart, so the split is read from everything the
    report says about the dataset. Each of these is a *statement* naming a split:

    * the file names of the dataset paths (``official_qa.dataset_path``,
      ``result_provenance.dataset``, the validator's ``longmemeval.dataset``...) and of the
      dataset file actually read;
    * the dataset file's SHA-256, when it is one of the ``accepted`` hashes (file name -> SHA-256 of
      the official file; bench-gate ships LongMemEval-S's);
    * the reference file of the recorded evaluator command (``evaluate_qa.py MODEL HYP REF``);
    * the dataset file's content, when it carries the chat histories: entries whose haystack holds
      only their answer sessions are oracle entries (the reader gets the evidence sessions only); a
      file where most entries are such is the oracle file, whatever it is called (an S entry has
      about 50 sessions, never only its evidence). An id/type table says nothing;
    * ``external_suite.dataset_counts`` when it counts exactly one file: the LongMemEval worktree
      the evaluator ran in held only that file (the importer counts the files present there, and
      its bootstrap downloads only the oracle file). Counting two or three files says nothing.

    A file name names a split when it contains ``oracle`` (any file name: an oracle name must never
    go unnoticed) or reads ``longmemeval_s`` / ``longmemeval_m`` (``longmemeval-s``,
    ``LongMemEval_M_cleaned.json``... ; case and separators aside). Other names say nothing.

    dataset_split
        Two statements naming different splits fail, listing every statement: one result is
        produced on one file. No statement at all fails: the result cannot be placed (name the
        dataset file as LongMemEval names it, or use the official file). Otherwise the rule names
        the split. With ``require: comparable`` (official-sota) the split must also be the
        baseline's (``baseline_split``, LongMemEval-S by default: the setting leaderboards report);
        an oracle result is never comparable. Params: ``paths`` (refs to dataset paths; absent or
        null ones are skipped), ``document`` (dataset role or null), ``command`` (ref or null),
        ``counts`` (ref or null), ``accepted``, ``require`` (``named`` or ``comparable``),
        ``baseline_split`` (``s`` or ``m``).
    """
    key, found = placed(ctx, p)
    named = [st for st in found if st.split is not None]
    if not named:
        said = ", ".join(f"{st.source} ({show(st.said)})" for st in found) or "nothing"
        raise Fail(f"no part of the report names a LongMemEval split (it says: {said}): the result cannot be "
                   f"placed on {', '.join(s.file for s in SPLITS.values())}; name the dataset file as LongMemEval "
                   "names it", expected="a dataset file naming its split")
    if key is None:
        return [failed(f"the report names more than one LongMemEval split ({_by_split(named)}): one result is "
                       "produced on one dataset file", "", "report", sorted({st.split or "" for st in named}),
                       "one split")]
    split = SPLITS[key]
    where = f"{split.name} ({split.file}: {split.note})"
    by = ", ".join(f"{st.source} ({st.said})" for st in named)
    if p.require == "comparable" and key != p.baseline_split:
        base = SPLITS[p.baseline_split]
        return [failed(f"the result is on {where}: not comparable with the baseline, a {base.name} result "
                       f"({base.file}); named by {by}", "", "report", split.file, base.file)]
    also = ", the baseline's split" if p.require == "comparable" else ""
    if key == "oracle":  # official-full certifies the evidence, and says what it is evidence of
        also = ": a diagnostic of the reader, not comparable with a leaderboard result"
    return [passed(f"the result is on {where}{also}; named by {by}", "", "report", split.file,
                   SPLITS[p.baseline_split].file if p.require == "comparable" else "one split")]
