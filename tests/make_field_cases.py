"""Writes golden/deep-recall/*/ from the real deep-recall files in examples/deep-recall/.

Every case links what it does not change (relative symlinks, copied as files when the case
runs), including the example profile itself, so the golden cases always judge
``examples/deep-recall/deep-recall.yaml``. A tampered case changes one thing with a text edit
that must match exactly once, so the rest of the real file stays byte for byte as published.

Run: ``python tests/make_field_cases.py``, then
``pytest tests/e2e/test_golden.py -k deep-recall --update-golden`` and read every changed expected file.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "deep-recall"
GOLDEN = ROOT / "golden" / "deep-recall"
NOW = "2026-11-29T12:00:00Z"
S50 = "s-50-contrib-prompt"
S470 = "s-470-contrib-prompt"
ARGS = ["summary.json", "--profile", "deep-recall.yaml", "--rows", "rows.ndjson"]


def edited(rel: str, old: str, new: str, line: int | None = None) -> str:
    """The text of an example file with ``old`` replaced by ``new`` exactly once (in one line)."""
    text = (EXAMPLE / rel).read_text(encoding="utf-8")
    if line is None:
        assert text.count(old) == 1, (rel, old)
        return text.replace(old, new)
    lines = text.split("\n")
    assert lines[line - 1].count(old) == 1, (rel, line, old)
    lines[line - 1] = lines[line - 1].replace(old, new)
    return "\n".join(lines)


DATASET = "../longmemeval-retrieval/longmemeval_s_answer_sessions.json"
DATA_ARGS = [*ARGS, "--dataset", "dataset.json"]


def gold_trimmed() -> dict[str, tuple[str]]:
    """Row 11 (aae3761f) drops the evidence file it ranked 7th from its gold list and claims search all@5;
    the summary's search all@5 counts (overall and multi-session) are raised to match."""
    rows = edited(f"{S50}/rows.ndjson", '"gold": ["answer_526354c8_1.md", "answer_526354c8_2.md", '
                  '"answer_526354c8_3.md"]', '"gold": ["answer_526354c8_1.md", "answer_526354c8_2.md"]', line=11)
    lines = rows.split("\n")
    lines[10] = lines[10].replace('"search_score": {"any@1": true, "any@5": true, "all@5": false',
                                  '"search_score": {"any@1": true, "any@5": true, "all@5": true', 1)
    summary = edited(f"{S50}/summary.json", '"all@5": 43', '"all@5": 44')
    old = '"multi-session": {\n   "n": 13,\n   "search any@1": 12,\n   "recall any@1": 13,\n   "search all@5": 10'
    assert summary.count(old) == 1
    summary = summary.replace(old, old[:-2] + "11")
    return {"summary.json": (summary,), "rows.ndjson": ("\n".join(lines),)}


def type_relabelled() -> dict[str, tuple[str]]:
    """Row 28 (1d4e3b97, single-session-preference, its search any@1 false) relabelled single-session-user, and
    the summary's by_type counts of both types moved to match: every count adds up, and the preference slice
    reads 2 of 2 on search any@1."""
    rows = edited(f"{S50}/rows.ndjson", '"type": "single-session-preference"', '"type": "single-session-user"',
                  line=28)
    summary = (EXAMPLE / S50 / "summary.json").read_text(encoding="utf-8")
    for old, new in ((' "single-session-preference": {\n   "n": 3,\n   "search any@1": 2,\n   "recall any@1": 3,\n'
                      '   "search all@5": 3,\n   "recall all@5": 3\n',
                      ' "single-session-preference": {\n   "n": 2,\n   "search any@1": 2,\n   "recall any@1": 2,\n'
                      '   "search all@5": 2,\n   "recall all@5": 2\n'),
                     (' "single-session-user": {\n   "n": 7,\n   "search any@1": 6,\n   "recall any@1": 7,\n'
                      '   "search all@5": 7,\n   "recall all@5": 7\n',
                      ' "single-session-user": {\n   "n": 8,\n   "search any@1": 6,\n   "recall any@1": 8,\n'
                      '   "search all@5": 8,\n   "recall all@5": 8\n')):
        assert summary.count(old) == 1, old
        summary = summary.replace(old, new)
    return {"summary.json": (summary,), "rows.ndjson": (rows,)}


# name -> (description, exit, {file in the case: example file to link, or edited text}, args)
CASES: dict[str, tuple[str, int, dict[str, str | tuple[str]], list[str]]] = {
    "s50-passes": (
        "The real 50-question run: every row flag recomputes from search/recall and gold, every count of "
        "summary.json from the rows, overall and by type, and the README's 50/50 claim from the rows.",
        0, {"summary.json": f"{S50}/summary.json", "rows.ndjson": f"{S50}/rows.ndjson"}, ARGS),
    "s470-subset-fails": (
        "The real 470-question summary, whose rows are not published: the per-type counts add up and the README's "
        "99.6% and 97.4% recompute as 468/470 and 458/470, but the README claims them on 498 of 500 questions (the "
        "summary has 468 of 470: a subset presented as the full set), and without rows nothing is recomputed, so "
        "the summary cannot be cited.",
        1, {"summary.json": f"{S470}/summary.json"}, ["summary.json", "--profile", "deep-recall.yaml"]),
    "s50-passes-with-dataset": (
        "The real 50-question run with the dataset: every row's gold files are its question's evidence sessions "
        "(as .md files), and the per-type counts hold with the dataset's question types.",
        0, {"summary.json": f"{S50}/summary.json", "rows.ndjson": f"{S50}/rows.ndjson", "dataset.json": DATASET},
        DATA_ARGS),
    "gold-trimmed-against-dataset": (
        "Row 11 (aae3761f) drops from its own gold list the evidence file it ranked 7th, so its search all@5 "
        "becomes true, and the summary's counts are raised to match: every count recomputes from the rows, but "
        "the dataset gives the question three evidence sessions.",
        1, {**gold_trimmed(), "dataset.json": DATASET}, DATA_ARGS),
    "flag-flipped": (
        "Row 3 (08e075c7) claims search any@1 true, but its first gold file is ranked second; the summary's count "
        "(40) no longer matches the flags either.",
        1, {"summary.json": f"{S50}/summary.json",
            "rows.ndjson": (edited(f"{S50}/rows.ndjson", '"search_score": {"any@1": false', '"search_score": {"any@1": true',
                                   line=3),)}, ARGS),
    "count-edited": (
        "summary.json claims 10 temporal-reasoning questions with all evidence in the search top 5; the rows give 9.",
        1, {"summary.json": (edited(f"{S50}/summary.json", '"search all@5": 9,', '"search all@5": 10,'),),
            "rows.ndjson": f"{S50}/rows.ndjson"}, ARGS),
    "ranking-reordered": (
        "Row 3 (08e075c7)'s search list is reordered so that a gold file comes first; its any@1 flag (false) no "
        "longer follows from it.",
        1, {"summary.json": f"{S50}/summary.json",
            "rows.ndjson": (edited(f"{S50}/rows.ndjson", '"search": ["25b3e36c_1.md", "answer_cdbe2250_1.md", ',
                                   '"search": ["answer_cdbe2250_1.md", "25b3e36c_1.md", ', line=3),)}, ARGS),
    "type-relabelled": (
        "Row 28 (1d4e3b97), a single-session-preference question whose search any@1 is false, is relabelled "
        "single-session-user and the summary's per-type counts are moved to match: every count recomputes from the "
        "rows, but LongMemEval-S gives 1d4e3b97 the type single-session-preference (no dataset needed: the official "
        "types ship with bench-gate).",
        1, type_relabelled(), ARGS),
    "different-subset": (
        "The 470-question summary judged against the 50-question rows: a summary over a different subset; every "
        "count and every group differs.",
        1, {"summary.json": f"{S470}/summary.json", "rows.ndjson": f"{S50}/rows.ndjson"}, ARGS),
}


def write_case(folder: Path, description: str, exit_code: int, files: dict[str, Any], args: list[str]) -> None:
    """One case folder: ``files`` maps a file of the case to an examples/ path to link (relative to
    examples/) or a one-element tuple holding the text to write."""
    if folder.exists():
        for entry in folder.iterdir():
            if entry.name not in ("expected.json", "expected.txt"):
                entry.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    up = os.path.join("..", "..", "..", "examples")
    for target, source in files.items():
        if isinstance(source, tuple):
            (folder / target).write_text(source[0], encoding="utf-8")
        else:
            os.symlink(os.path.join(up, source), folder / target)
    spec = {"description": description, "args": args, "now": NOW, "exit": exit_code}
    (folder / "case.yaml").write_text(yaml.safe_dump(spec, sort_keys=False, width=100), encoding="utf-8")


def main() -> None:
    for stale in GOLDEN.iterdir() if GOLDEN.exists() else []:
        if stale.name not in CASES:
            shutil.rmtree(stale)
    for name, (description, exit_code, files, args) in CASES.items():
        linked = {t: (s if isinstance(s, tuple) else f"deep-recall/{s}") for t, s in files.items()}
        write_case(GOLDEN / name, description, exit_code, {"deep-recall.yaml": "deep-recall/deep-recall.yaml",
                                                            **linked}, args)


if __name__ == "__main__":
    main()
