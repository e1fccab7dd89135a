"""Writes examples/locomo-qa/ and golden/locomo-qa/*/: synthetic LoCoMo inputs built from its facts.

LoCoMo's data and the published results are not part of this repository; the files here are made
up, with LoCoMo's shape and its facts (see the ``locomo-qa`` profile's ``question_counts``):

``locomo10-synthetic.json``
    ten conversations (``conv-26`` ... ``conv-50``) shaped as ``locomo10.json``, each with as many
    questions of each category as LoCoMo has there (1,986 in all), with invented texts and
    answers; like LoCoMo, conversation 7 asks some questions twice and conversation 1 asks one
    text in category 4 and again in category 5; category-5 questions carry ``adversarial_answer``
    and no ``answer``; some answers are numbers (``2022``);
``eval_results.json``
    what mem0's ``evaluation/evals.py`` writes for a run on it: an object keyed by conversation
    index, the rows of categories 1-4 in the dataset's order, ``category`` and ``answer`` as
    strings, made-up responses and scores (``llm_score`` 0/1, ``f1_score`` and ``bleu_score`` in
    [0, 1]);
``summary.json``
    the means ``generate_scores.py`` prints (rounded to 4 places), overall and per category, as
    JSON, with the categories, judge and answer model;
``baseline-paper.json`` / ``baseline-other-judge.json``
    a baseline J quoted from a paper, under the same judge and under another;
``locomo-qa-synthetic.yaml``
    a profile that extends ``locomo-qa`` with the synthetic dataset's question-list digest pinned
    in place of LoCoMo's (a list parameter, which ``--set`` cannot change): the cases that pass
    run it, and the verdict names it, not ``locomo-qa``.

Run ``python tests/make_locomo_cases.py``, then
``pytest tests/e2e/test_golden.py -k locomo --update-golden`` and read every changed expected file.
``tests/profiles/test_locomo.py`` checks that the committed examples are what this script writes.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "locomo-qa"
GOLDEN = ROOT / "golden" / "locomo-qa"
NOW = "2026-11-29T12:00:00Z"

COUNTS = {  # LoCoMo's questions per conversation (index in locomo10.json) and category
    "0": {"1": 32, "2": 37, "3": 13, "4": 70, "5": 47},
    "1": {"1": 11, "2": 26, "3": 0, "4": 44, "5": 24},
    "2": {"1": 31, "2": 27, "3": 8, "4": 86, "5": 41},
    "3": {"1": 37, "2": 40, "3": 11, "4": 111, "5": 61},
    "4": {"1": 31, "2": 26, "3": 14, "4": 107, "5": 64},
    "5": {"1": 30, "2": 24, "3": 7, "4": 62, "5": 35},
    "6": {"1": 20, "2": 34, "3": 13, "4": 83, "5": 40},
    "7": {"1": 21, "2": 42, "3": 10, "4": 118, "5": 48},
    "8": {"1": 37, "2": 33, "3": 13, "4": 73, "5": 40},
    "9": {"1": 32, "2": 32, "3": 7, "4": 87, "5": 46},
}
SAMPLES = ["conv-26", "conv-30", "conv-41", "conv-42", "conv-43", "conv-44", "conv-47", "conv-48", "conv-49", "conv-50"]
SHARE = {1: 62, 2: 80, 3: 50, 4: 73}  # percent of answers the made-up judge labels correct, by category
F1 = [0.0, 0.25, 0.4, 0.5, 0.6666666666666666, 0.8, 1.0]
BLEU = [0, 0.1353352832366127, 0.3333333333333333, 0.5, 0.7165313105737893, 1.0]
TOPICS = ["the pottery class", "the camping trip", "the new job", "the charity race", "the adoption meeting",
          "the road trip", "the book club", "the art show", "the yoga retreat", "the concert"]


def _draw(*key: Any) -> int:
    """A deterministic number for a question: the same files on every run."""
    return int(hashlib.sha256(repr(key).encode()).hexdigest()[:8], 16)


def _question(conv: int, i: int, category: int) -> dict[str, Any]:
    topic = TOPICS[_draw(conv, i, "t") % len(TOPICS)]
    question = {1: f"What did A and B both do at {topic}? ({conv}.{i})",
                2: f"When did A go to {topic}? ({conv}.{i})",
                3: f"Would B enjoy {topic} again? ({conv}.{i})",
                4: f"What did A say about {topic}? ({conv}.{i})",
                5: f"What did B say about A's {topic}? ({conv}.{i})"}[category]
    entry: dict[str, Any] = {"question": question, "evidence": [f"D{1 + i % 19}:{1 + i % 7}"], "category": category}
    if category == 5:
        entry["adversarial_answer"] = f"the {topic.split()[-1]}"
    elif category == 2 and i % 9 == 0:
        entry["answer"] = 2022
    else:
        entry["answer"] = topic
    return entry


def dataset() -> list[dict[str, Any]]:
    """Ten conversations with LoCoMo's counts per category, questions in a fixed mixed order."""
    out = []
    for conv, sample in enumerate(SAMPLES):
        categories = [int(c) for c, n in COUNTS[str(conv)].items() for _ in range(n)]
        order = [c for _, c in sorted(enumerate(categories), key=lambda ic: _draw(conv, ic[0]))]
        qa = [_question(conv, i, c) for i, c in enumerate(order)]
        if conv == 7:  # like conv-48: some questions asked twice, with the same category and answer
            fours = [i for i, q in enumerate(qa) if q["category"] == 4]
            for a, b in zip(fours[:3], fours[-3:]):
                qa[b] = {**qa[a], "evidence": qa[b]["evidence"]}
        if conv == 1:  # like conv-30: one text asked in category 4 and again in category 5
            four = next(i for i, q in enumerate(qa) if q["category"] == 4)
            five = next(i for i, q in enumerate(qa) if q["category"] == 5)
            qa[five] = {**qa[five], "question": qa[four]["question"]}
        out.append({"qa": qa, "conversation": {"speaker_a": "A", "speaker_b": "B"}, "sample_id": sample})
    return out


def results(data: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """evals.py's output: category 5 skipped, category and answer as strings, rows in the dataset's order."""
    out: dict[str, list[dict[str, Any]]] = {}
    for conv, entry in enumerate(data):
        rows = []
        for i, q in enumerate(entry["qa"]):
            if q["category"] == 5:
                continue
            d = _draw(conv, i, "s")
            rows.append({"question": q["question"], "answer": str(q["answer"]),
                         "response": f"response {conv}.{i}", "category": str(q["category"]),
                         "bleu_score": BLEU[d % len(BLEU)], "f1_score": F1[(d >> 4) % len(F1)],
                         "llm_score": 1 if (d >> 8) % 100 < SHARE[q["category"]] else 0})
        out[str(conv)] = rows
    return out


def rounded(value: Fraction, places: int = 4) -> float:
    """The exact value rounded half-even to ``places``, as a JSON number."""
    with localcontext() as ctx:
        ctx.prec = 60
        exact = Decimal(value.numerator) / Decimal(value.denominator)
    return float(exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN))


def means(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    return {"j": rounded(Fraction(sum(r["llm_score"] for r in rows), n)),
            "f1": rounded(sum((Fraction(r["f1_score"]) for r in rows), Fraction(0)) / n),
            "bleu1": rounded(sum((Fraction(r["bleu_score"]) for r in rows), Fraction(0)) / n), "n": n}


def summary(res: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    rows = [r for conv in res.values() for r in conv]
    by: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by.setdefault(r["category"], []).append(r)
    return {"categories": [1, 2, 3, 4], "judge_model": "gpt-4o-mini", "answer_model": "gpt-4o-mini",
            "overall": means(rows), "by_category": {c: means(by[c]) for c in sorted(by)}}


def baseline(judge: str) -> dict[str, Any]:
    return {"system": "Mem0", "source": "paper",
            "reference": "Mem0 paper (arXiv:2504.19413), LLM-as-a-Judge J over categories 1-4",
            "judge_model": judge, "answer_model": "gpt-4o-mini", "categories": [1, 2, 3, 4], "j": 0.6688}


def _rows_json(res: dict[str, list[dict[str, Any]]]) -> str:
    """One row per line: readable, and small enough to commit."""
    parts = []
    for key, rows in res.items():
        lines = ",\n".join("  " + json.dumps(r, ensure_ascii=False) for r in rows)
        parts.append(f" {json.dumps(key)}: [\n{lines}\n ]")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _dataset_json(data: list[dict[str, Any]]) -> str:
    entries = []
    for entry in data:
        qa = ",\n".join("   " + json.dumps(q, ensure_ascii=False) for q in entry["qa"])
        entries.append(f' {{"qa": [\n{qa}\n  ],\n  "conversation": {json.dumps(entry["conversation"])},\n'
                       f'  "sample_id": {json.dumps(entry["sample_id"])}}}')
    return "[\n" + ",\n".join(entries) + "\n]\n"


def example_files() -> dict[str, str]:
    """The example files by name, as this script writes them."""
    data = dataset()
    res = results(data)
    return {
        "locomo10-synthetic.json": _dataset_json(data),
        "eval_results.json": _rows_json(res),
        "summary.json": json.dumps(summary(res), indent=1) + "\n",
        "baseline-paper.json": json.dumps(baseline("gpt-4o-mini"), indent=1) + "\n",
        "baseline-other-judge.json": json.dumps(baseline("gpt-4o"), indent=1) + "\n",
        PROFILE: synthetic_profile(question_list_sha(data)),
    }


PROFILE = "locomo-qa-synthetic.yaml"


def synthetic_profile(sha: str) -> str:
    """The profile the passing cases run: locomo-qa with the synthetic question list pinned."""
    return (f"# locomo-qa with the question list of locomo10-synthetic.json pinned in place of LoCoMo's: the\n"
            f"# example dataset is made up, with LoCoMo's counts (written by tests/make_locomo_cases.py).\n"
            f"name: locomo-qa-synthetic\n"
            f"extends: locomo-qa\n"
            f"description: locomo-qa on the synthetic example dataset (not LoCoMo), its question list pinned\n"
            f"params:\n"
            f"  questions_sha256: {{default: [{sha}]}}\n")


# --- golden cases ------------------------------------------------------------------------------

BASE = "examples/locomo-qa/eval_results.json"
DATA = ["--dataset", "locomo10-synthetic.json"]
WITH_SUMMARY = ["--profile", "locomo-qa", "--summary", "summary.json", *DATA]
SYNTHETIC = ["--profile", PROFILE, "--summary", "summary.json", *DATA]
MODELS = ["--judge-model", "gpt-4o-mini", "--answer-model", "gpt-4o-mini"]


def _row(res: dict[str, list[dict[str, Any]]], conv: str, category: str, llm: int | None = None,
         skip: int = 0) -> int:
    """The index of a row of a conversation with this category (and judge label)."""
    found = [i for i, r in enumerate(res[conv]) if r["category"] == category and (llm is None or r["llm_score"] == llm)]
    return found[skip]


GOLDEN_CASES = ("passes-with-summary", "passes-with-claims", "category-named-another-way", "row-duplicated",
                "baseline-from-paper", "baseline-other-judge")
"""The cases pinned whole under golden/locomo-qa/; ``tests/profiles/test_locomo.py`` runs the others (each with
the rules that must fail, ``fails``, and words of the message, ``says``), so that the suite stays fast."""


def cases() -> dict[str, dict[str, Any]]:
    """The golden cases; those with the synthetic dataset run ``locomo-qa-synthetic.yaml``, whose pinned
    question list is the synthetic one (the synthetic dataset is not LoCoMo)."""
    data = dataset()
    res = results(data)
    summ = summary(res)
    by = {c: [r for conv in res.values() for r in conv if r["category"] == c] for c in "1234"}
    j = {c: Fraction(sum(r["llm_score"] for r in rows), len(rows)) for c, rows in by.items()}
    wrong = _row(res, "3", "2", llm=0)
    right = _row(res, "3", "1", llm=1)
    raised = json.loads(json.dumps(summ))
    raised["overall"]["j"] = round(raised["overall"]["j"] + 0.001, 4)
    dup_a, dup_b = _row(res, "4", "4", llm=1), _row(res, "4", "4", llm=0)
    return {
        "passes-with-summary": dict(
            description="The synthetic run with its summary and dataset: the 1,540 rows are LoCoMo's questions of "
                        "categories 1-4 (the pinned counts; each row the dataset's question, category and answer), "
                        "J, F1 and BLEU-1 recompute overall and per category, judge and answer model are stated. "
                        "The dataset is not LoCoMo, so the profile is locomo-qa-synthetic.yaml, which pins the "
                        "synthetic question list in place of LoCoMo's.",
            exit=0, report="eval_results.json", args=[*SYNTHETIC]),
        "dataset-not-locomo": dict(
            description="The same run with the synthetic dataset and the pinned question-list digest: the dataset "
                        "has LoCoMo's counts, but not its questions, so the question set is not LoCoMo's.",
            fails=["locomo-question-set"], says="is not the pinned one (17ad1a56cf4c…)",
            exit=1, report="eval_results.json", args=WITH_SUMMARY),
        "passes-with-claims": dict(
            description="No summary: J overall and for category 4 (by id and as single-hop, the LoCoMo paper's name "
                        "of category 4) claimed on the command line, rounded to 4 places, with the categories, "
                        "judge and answer model as options.",
            exit=0, report="eval_results.json",
            args=["--profile", PROFILE, *DATA,
                  "--categories", "1-4", *MODELS,
                  "--claim", f"j={rounded(Fraction(sum(r['llm_score'] for rows in by.values() for r in rows), 1540))}",
                  "--claim", f"j/4={rounded(j['4'])}", "--claim", f"j/single-hop={rounded(j['4'])}",
                  "--claim", "n=1540"]),
        "category-named-another-way": dict(
            description="Category 1's J claimed as single-hop (the naming of the Mem0 paper's tables): under the "
                        "LoCoMo paper's names single-hop is category 4; the failure gives both readings.",
            exit=1, report="eval_results.json",
            args=["--profile", PROFILE, *DATA,
                  "--categories", "1,2,3,4", *MODELS, "--claim", f"j/single-hop={rounded(j['1'])}"]),
        "all-categories-claimed": dict(
            description="The categories 1-4 run claimed as all of LoCoMo (categories 1-5, 1,986 questions): no "
                        "row of category 5.",
            fails=["locomo-question-set"], says="conversation 0 (conv-26), category 5: 0 rows, the benchmark has 47",
            exit=1, report="eval_results.json",
            args=["--profile", PROFILE, *DATA,
                  "--categories", "1-5", *MODELS, "--claim", f"j={summ['overall']['j']}"]),
        "llm-score-flipped": dict(
            description=f"Row /3/{wrong} (category 2) has its judge label flipped from 0 to 1; the summary is "
                        "unchanged, so J overall and for category 2 no longer recompute.",
            fails=["locomo-summary-j"], says="recomputed mean of /llm_score is 0.717532 (1105/1540 items)",
            exit=1, base=BASE, patch=[{"op": "replace", "path": f"/3/{wrong}/llm_score", "value": 1}],
            args=["report.json", *SYNTHETIC]),
        "row-dropped": dict(
            description=f"Row /3/{wrong}, a wrong answer of category 2, is left out.",
            fails=["locomo-question-set", "locomo-summary-j", "locomo-summary-f1", "locomo-summary-bleu1", "locomo-summary-n"], says="category 2: 39 rows, the benchmark has 40",
            exit=1, base=BASE, patch=[{"op": "remove", "path": f"/3/{wrong}"}],
            args=["report.json", *SYNTHETIC]),
        "row-duplicated": dict(
            description=f"Row /4/{dup_a} (a correct answer) is repeated in place of row /4/{dup_b} (a wrong one, "
                        "same conversation and category): the counts hold, the dataset shows one question twice "
                        "and one missing.",
            exit=1, base=BASE, patch=[{"op": "copy", "from": f"/4/{dup_a}", "path": f"/4/{dup_b}"}],
            args=["report.json", *SYNTHETIC]),
        "category-relabelled": dict(
            description=f"Row /3/{right} (category 1, correct) is relabelled category 3.",
            fails=["locomo-question-set", "locomo-summary-j", "locomo-summary-f1", "locomo-summary-bleu1", "locomo-summary-n"], says="the dataset has it as category 1",
            exit=1, base=BASE, patch=[{"op": "replace", "path": f"/3/{right}/category", "value": "3"}],
            args=["report.json", *SYNTHETIC]),
        "row-from-another-conversation": dict(
            description=f"Row /3/{right} is moved to conversation 5.",
            fails=["locomo-question-set"], says="it is a question of conversation 3 (conv-42) (category 1)",
            exit=1, base=BASE, patch=[{"op": "copy", "from": f"/3/{right}", "path": "/5/-"},
                                      {"op": "remove", "path": f"/3/{right}"}],
            args=["report.json", *SYNTHETIC]),
        "summary-overall-raised": dict(
            description="The summary's overall J is raised by 0.001.",
            fails=["locomo-summary-j"], says="summary:/overall/j claims 0.7179, recomputed mean of /llm_score is 0.716883",
            exit=1, report="eval_results.json", summary=raised,
            args=[*SYNTHETIC]),
        "without-dataset": dict(
            description="The summary without the dataset: the counts per conversation and category hold and every "
                        "mean recomputes, but the questions and categories are the result's own, which fails.",
            fails=["locomo-dataset-given"], says="no dataset given (--dataset locomo10.json or locomo10.zip)",
            exit=1, report="eval_results.json", args=["--profile", "locomo-qa", "--summary", "summary.json"]),
        "nothing-stated": dict(
            description="A claim with no categories, judge or answer model stated.",
            fails=["locomo-question-set", "locomo-judge-model", "locomo-answer-model"], says="the category ids the result covers are not stated",
            exit=1, report="eval_results.json",
            args=["--profile", PROFILE, *DATA,
                  "--claim", f"j={summ['overall']['j']}"]),
        "baseline-from-paper": dict(
            description="Beats a baseline J quoted from a paper under the same judge, answer model and categories: "
                        "the verdict marks the baseline as quoted, not re-run.",
            exit=0, report="eval_results.json", baseline="baseline-paper.json",
            args=[*SYNTHETIC, "--baseline", "baseline.json"]),
        "baseline-other-judge": dict(
            description="The same baseline judged by gpt-4o: not comparable with a J judged by gpt-4o-mini, "
                        "so it is not beaten, whatever the margin.",
            exit=1, report="eval_results.json", baseline="baseline-other-judge.json",
            args=[*SYNTHETIC, "--baseline", "baseline.json"]),
    }


def question_list_sha(data: list[dict[str, Any]]) -> str:
    """The digest the question_set kind computes (see bench_gate.checks.recompute.questions)."""
    canon = [[[str(q["category"]), q["question"], q.get("answer")] for q in e["qa"]] for e in data]
    return hashlib.sha256(json.dumps(canon, ensure_ascii=False, separators=(",", ":")).encode()).hexdigest()


def write_case(name: str, spec: dict[str, Any]) -> None:
    folder = GOLDEN / name
    if folder.exists():
        for entry in folder.iterdir():
            if entry.name not in ("expected.json", "expected.txt"):
                entry.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    up = os.path.join("..", "..", "..", "examples", "locomo-qa")
    links = {"locomo10-synthetic.json": "locomo10-synthetic.json", PROFILE: PROFILE}
    if "report" in spec:
        links[spec["report"]] = "eval_results.json"
    if "baseline" in spec:
        links["baseline.json"] = spec["baseline"]
    if "summary" in spec:
        (folder / "summary.json").write_text(json.dumps(spec["summary"], indent=1) + "\n", encoding="utf-8")
    else:
        links["summary.json"] = "summary.json"
    for target, source in links.items():
        os.symlink(os.path.join(up, source), folder / target)
    args = spec["args"] if "base" in spec else [spec["report"], *spec["args"]]
    case: dict[str, Any] = {"description": spec["description"], "args": args, "now": NOW, "exit": spec["exit"]}
    if "base" in spec:
        case["base"], case["patch"] = spec["base"], spec["patch"]
    (folder / "case.yaml").write_text(yaml.safe_dump(case, sort_keys=False, width=100), encoding="utf-8")


def main() -> None:
    EXAMPLE.mkdir(parents=True, exist_ok=True)
    for name, text in example_files().items():
        (EXAMPLE / name).write_text(text, encoding="utf-8")
    specs = {name: spec for name, spec in cases().items() if name in GOLDEN_CASES}
    for stale in GOLDEN.iterdir() if GOLDEN.exists() else []:
        if stale.name not in specs:
            shutil.rmtree(stale)
    for name, spec in specs.items():
        write_case(name, spec)


if __name__ == "__main__":
    main()
