"""Writes examples/longmemeval-{retrieval,qa}/ and golden/longmemeval-{retrieval,qa}/*/.

``examples/longmemeval-qa`` holds a real official evaluator output (yoheinakajima/
activegraph-longmemeval, a 50-question smoke run judged by gpt-4o), the project's scores file,
and the question types of the 500 LongMemEval-S questions.

``examples/longmemeval-retrieval`` holds a retrieval log in the shape the official
``src/retrieval/run_retrieval.py`` writes, built from the real rankings of a 500-question
LongMemEval-S run (the sibyl rc1 artifact's ``ranked_session_ids``, repeated ids dropped at
their later positions): per row ``question_id``, ``question_type``, ``question``,
``question_date``, ``answer_session_ids`` and ``retrieval_results`` with ``query``,
``ranked_items`` (``corpus_id`` only; the official log also holds each session's text and
timestamp) and ``metrics``: ``session`` recall_any/recall_all/ndcg_any at k = 1, 3, 5, 10, 30,
50, ``turn`` empty, computed here by a line-for-line port of the official ``eval_utils.py``.
``summary.json`` is what the script prints: the session and turn averages over the rows
whose id has no ``_abs``. ``longmemeval_s_answer_sessions.json`` stands in for the 265 MB
``longmemeval_s_cleaned.json`` as ``--dataset``: per question its id, type and
``answer_session_ids``, and a haystack of the ranked sessions in which each answer session has
one ``has_answer`` turn (text left out).

Run ``python tests/make_longmemeval_cases.py SHARED_FIXTURES_DIR`` to rebuild the examples, or
without argument for the golden cases only, then
``pytest tests/e2e/test_golden.py -k longmemeval --update-golden`` and read every changed file.
"""

from __future__ import annotations

import json
from fractions import Fraction
import math
import shutil
import sys
from pathlib import Path
from typing import Any

from make_field_cases import write_case

ROOT = Path(__file__).resolve().parents[1]
RET = ROOT / "examples" / "longmemeval-retrieval"
QA = ROOT / "examples" / "longmemeval-qa"
LOG = "longmemeval_s_retrievallog_session_sibyl-hybrid.jsonl"
EVAL = "hypotheses.jsonl.eval-results-gpt-4o"
KS = (1, 3, 5, 10, 30, 50)


# --- a port of the official src/retrieval/eval_utils.py (session granularity) ---------------


def _dcg(relevances: list[int], k: int) -> float:
    rel = [float(r) for r in relevances[:k]]
    if rel:
        return rel[0] + sum(r / math.log2(i) for r, i in zip(rel[1:], range(2, len(rel) + 1)))
    return 0.0


def _ndcg(rankings: list[int], correct: list[str], corpus: list[str], k: int) -> float:
    relevances = [1 if doc in correct else 0 for doc in corpus]
    ranked = [relevances[i] for i in rankings[:k]]
    ideal = _dcg(sorted(relevances, reverse=True), k)
    return 0.0 if ideal == 0 else _dcg(ranked, k) / ideal


def official_metrics(corpus: list[str]) -> dict[str, float]:
    """The metrics the official script writes for a ranking that is the corpus in this order."""
    correct = list({doc for doc in corpus if "answer" in doc})
    rankings = list(range(len(corpus)))
    out: dict[str, float] = {}
    for k in KS:
        recalled = {corpus[i] for i in rankings[:k]}
        out[f"recall_any@{k}"] = float(any(d in recalled for d in correct))
        out[f"recall_all@{k}"] = float(all(d in recalled for d in correct))
        out[f"ndcg_any@{k}"] = _ndcg(rankings, correct, corpus, k)
    return out


def build_examples(shared: Path) -> None:
    artifact = json.loads((shared / "sibyl" / "longmemeval_sibyl_hybrid_rc1_20260610.json").read_text())
    RET.mkdir(parents=True, exist_ok=True)
    lines = []
    for case in artifact["case_results"]:
        corpus = list(dict.fromkeys(case["ranked_session_ids"]))
        row = {"question_id": case["question_id"], "question_type": case["question_type"],
               "question": case["question"], "question_date": case["question_date"],
               "answer_session_ids": case["answer_session_ids"],
               "retrieval_results": {"query": case["question"],
                                     "ranked_items": [{"corpus_id": c} for c in corpus],
                                     "metrics": {"session": official_metrics(corpus), "turn": {}}}}
        lines.append(json.dumps(row))
    (RET / LOG).write_text("\n".join(lines) + "\n", encoding="utf-8")
    rows = [json.loads(line) for line in lines]
    kept = [r for r in rows if "_abs" not in r["question_id"]]
    names = list(rows[0]["retrieval_results"]["metrics"]["session"])
    summary = {"session": {n: sum(r["retrieval_results"]["metrics"]["session"][n] for r in kept) / len(kept)
                           for n in names}, "turn": {}}
    (RET / "summary.json").write_text(json.dumps(summary) + "\n", encoding="utf-8")
    QA.mkdir(parents=True, exist_ok=True)
    run = next((shared / "field" / "yoheinakajima+activegraph-longmemeval" / "runs").iterdir())
    for name in (EVAL, "scores.json"):
        shutil.copyfile(run / name, QA / name)
    shutil.copyfile(shared / "longmemeval" / "question_types.json", QA / "longmemeval_s_question_types.json")


def edit_line(path: Path, line: int, change: Any) -> str:
    """The file's text with one JSON Lines row changed by ``change(row)`` and written back."""
    lines = path.read_text(encoding="utf-8").split("\n")
    row = json.loads(lines[line - 1])
    change(row)
    lines[line - 1] = json.dumps(row)
    return "\n".join(lines)


def edited(path: Path, old: str, new: str) -> str:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (path, old)
    return text.replace(old, new)


def _rename_question(row: dict[str, Any]) -> None:
    row["question_id"] = "custom_" + row["question_id"]


def _swap_first_two(row: dict[str, Any]) -> None:
    items = row["retrieval_results"]["ranked_items"]
    items[0], items[1] = items[1], items[0]


def _rename_answer(row: dict[str, Any]) -> None:
    """As the official script writes a question whose only answer session has no answer turn."""
    for item in row["retrieval_results"]["ranked_items"]:
        item["corpus_id"] = item["corpus_id"].replace("answer", "noans")
    row["retrieval_results"]["metrics"]["session"] = official_metrics(
        [i["corpus_id"] for i in row["retrieval_results"]["ranked_items"]])


def _first_answer_row(path: Path) -> int:
    """The first row whose top-ranked session is its only answer session (1-based line)."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        row = json.loads(line)
        first = row["retrieval_results"]["ranked_items"][0]["corpus_id"]
        if row["answer_session_ids"] == [first] and "_abs" not in row["question_id"]:
            return number
    raise AssertionError("no such row")


DATASET = "longmemeval_s_answer_sessions.json"


def write_dataset() -> None:
    """The dataset entries the retrieval log was scored against, without their chat text."""
    out = []
    for line in (RET / LOG).read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        ids = sorted(item["corpus_id"] for item in row["retrieval_results"]["ranked_items"])
        answers = set(row["answer_session_ids"])
        out.append({"question_id": row["question_id"], "question_type": row["question_type"],
                    "answer_session_ids": row["answer_session_ids"], "haystack_session_ids": ids,
                    "haystack_sessions": [[{"role": "user", "content": "", **({"has_answer": True} if i in answers
                                                                                else {})}] for i in ids]})
    (RET / DATASET).write_text(json.dumps(out, separators=(",", ":")), encoding="utf-8")


def _mark_abstention(row: dict[str, Any]) -> None:
    row["question_id"] += "_abs"


def _stray_answer(row: dict[str, Any]) -> None:
    """A ranked session that is not an answer session of the row is given an answer_ id."""
    items = row["retrieval_results"]["ranked_items"]
    other = next(i for i in items if i["corpus_id"] not in row["answer_session_ids"])
    other["corpus_id"] = "answer_" + other["corpus_id"]


def _zero_width_copy(path: Path, line: int, source: int) -> str:
    """Row ``line`` replaced by a copy of row ``source`` whose id ends in a zero-width space."""
    lines = path.read_text(encoding="utf-8").split("\n")
    row = json.loads(lines[source - 1])
    row["question_id"] += "\u200b"
    lines[line - 1] = json.dumps(row)
    return "\n".join(lines)


def _failing_row(path: Path) -> int:
    """The first answerable row whose recall_all@5 is 0 (1-based line)."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        row = json.loads(line)
        if row["retrieval_results"]["metrics"]["session"]["recall_all@5"] == 0 and "_abs" not in row["question_id"]:
            return number
    raise AssertionError("no such row")


def cases() -> dict[str, dict[str, Any]]:
    log = RET / LOG
    first = _first_answer_row(log)
    ret_args = ["retrievallog.jsonl", "--profile", "longmemeval-retrieval", "--summary", "summary.json"]
    qa_args = ["eval-results.jsonl", "--profile", "longmemeval-qa", "--scores", "scores.json",
               "--dataset", "question_types.json"]
    qa_links = {"eval-results.jsonl": "longmemeval-qa/" + EVAL, "scores.json": "longmemeval-qa/scores.json",
                "question_types.json": "longmemeval-qa/longmemeval_s_question_types.json"}
    ret_links = {"retrievallog.jsonl": "longmemeval-retrieval/" + LOG, "summary.json": "longmemeval-retrieval/summary.json"}
    data_args = [*ret_args, "--dataset", "dataset.json"]
    data_links = {**ret_links, "dataset.json": "longmemeval-retrieval/" + DATASET}
    failing = _failing_row(log)
    return {
        "longmemeval-retrieval/passes-with-dataset": dict(
            description="The real log and summary with the dataset: the 500 rows are the dataset's questions, each "
                        "row's answer sessions are the dataset's and none is renamed noans, so the averages are "
                        "verified and no warning remains.",
            exit=0, files=data_links, args=data_args),
        "longmemeval-retrieval/noans-renamed-against-dataset": dict(
            description=f"Row {first}'s answer session is renamed noans_ (metrics rewritten as the official script "
                        "would); the dataset gives that session an answer turn, so the renaming is the log's own.",
            exit=1, files={**data_links, "retrievallog.jsonl": (edit_line(log, first, _rename_answer),)},
            args=data_args),
        "longmemeval-retrieval/abstention-suffix-against-dataset": dict(
            description=f"Row {failing} (recall_all@5 0) has _abs appended to its id, which would leave it out of the "
                        "averages; the dataset has no such question.",
            exit=1, files={**data_links, "retrievallog.jsonl": (edit_line(log, failing, _mark_abstention),)},
            args=data_args),
        "longmemeval-retrieval/turn-claimed": dict(
            description="The summary's turn object claims recall_all@5 and recall_any@5 of 1.0 next to the real "
                        "session averages; a session-granularity log gives no turn metrics, so nothing recomputes "
                        "them.",
            exit=1, files={**ret_links, "summary.json": (edited(RET / "summary.json", '"turn": {}',
                                                                '"turn": {"recall_all@5": 1.0, "recall_any@5": 1.0}'),)},
            args=ret_args),
        "longmemeval-retrieval/stray-answer-id": dict(
            description=f"Row {first} ranks a session renamed answer_... that is not one of its answer sessions; the "
                        "official script would count it as correct, so the row's metrics and gold list disagree.",
            exit=1, files={**ret_links, "retrievallog.jsonl": (edit_line(log, first, _stray_answer),)},
            args=ret_args),
        "longmemeval-retrieval/zero-width-duplicate": dict(
            description=f"Row {failing} (recall_all@5 0) is replaced by a copy of row {first} whose id ends in a "
                        "zero-width space: the two ids look the same and are one question counted twice.",
            exit=1, files={**ret_links, "retrievallog.jsonl": (_zero_width_copy(log, failing, first),)},
            args=ret_args),
        "longmemeval-retrieval/without-dataset": dict(
            description="500 rows of real LongMemEval-S rankings in the official retrieval log shape: every row's "
                        "18 session metrics recompute from its ranked items and answer sessions, and the summary's "
                        "averages over the 470 non-abstention rows recompute; without --dataset the answer "
                        "sessions, noans renamings and _abs ids are the log's own, so the gate fails.",
            exit=1, files=ret_links, args=ret_args),
        "longmemeval-retrieval/claim-on-the-command-line": dict(
            description="No summary file: the claimed average comes from --claim (0.8851 is recall_all@5 over the 470 "
                        "rows, rounded to 4 places as print_retrieval_metrics.py prints it); a second claim names no "
                        "metric of the log and fails.",
            exit=1, files={"retrievallog.jsonl": ret_links["retrievallog.jsonl"]},
            args=["retrievallog.jsonl", "--profile", "longmemeval-retrieval", "--claim", "recall_all@5=0.8851",
                  "--claim", "recall@5=0.97"]),
        "longmemeval-retrieval/nothing-claimed": dict(
            description="The log alone: every row recomputes, but no average is claimed (no --summary, no --claim), "
                        "which the gate says instead of passing quietly.",
            exit=1, files={"retrievallog.jsonl": ret_links["retrievallog.jsonl"]},
            args=["retrievallog.jsonl", "--profile", "longmemeval-retrieval"]),
        "longmemeval-retrieval/ranking-reordered": dict(
            description=f"Row {first}'s two top-ranked sessions are swapped, so its answer session is ranked second; "
                        "its recall_any@1 (1.0) and ndcg_any@1 no longer follow from its ranking.",
            exit=1, files={"retrievallog.jsonl": (edit_line(log, first, _swap_first_two),),
                           "summary.json": ret_links["summary.json"]}, args=ret_args),
        "longmemeval-retrieval/noans-renamed": dict(
            description=f"Row {first}'s answer session is renamed noans_ in the ranking and its metrics written as the "
                        "official script writes them for an answer session without an answer turn: 0 for the "
                        "any-metrics, 1 for recall_all. The row passes; the summary's averages, which counted that "
                        "row as a hit, no longer do.",
            exit=1, files={"retrievallog.jsonl": (edit_line(log, first, _rename_answer),),
                           "summary.json": ret_links["summary.json"]}, args=ret_args),
        "longmemeval-retrieval/abstention-averaged-in": dict(
            description="The summary's recall_all@5 is the mean over all 500 rows, abstention questions included; "
                        "the official average leaves the 30 _abs rows out.",
            exit=1, files={"retrievallog.jsonl": ret_links["retrievallog.jsonl"], "summary.json": None},
            args=ret_args),
        "longmemeval-qa/passes": dict(
            description="The real official evaluator output of a 50-question run and its scores file: overall 36/50, "
                        "abstention 4/4 and, with the dataset's question types, every per-type accuracy and the "
                        "task-averaged 0.7334 recompute.",
            exit=0, files=qa_links, args=qa_args),
        "longmemeval-qa/official-types-without-dataset": dict(
            description="No dataset: the 50 question ids are LongMemEval-S ids, so their official types (shipped "
                        "with bench-gate) give the task-averaged 0.7334 and every per-type accuracy, which recompute.",
            exit=0, files={k: v for k, v in qa_links.items() if k != "question_types.json"},
            args=qa_args[:5]),
        "longmemeval-qa/inflated-without-dataset": dict(
            description="No dataset, and a scores file claiming task-averaged 0.99 and every type at 1.0: the "
                        "official types of the 50 LongMemEval-S ids give 0.7334, so both claims fail (they used to "
                        "pass with a warning).",
            exit=1, files={"eval-results.jsonl": qa_links["eval-results.jsonl"], "scores.json": (_qa_inflated(),)},
            args=qa_args[:5]),
        "longmemeval-qa/dataset-relabelled": dict(
            description="--dataset relabels every wrongly answered temporal-reasoning, multi-session and preference "
                        "question knowledge-update, and the scores file is recomputed with those types (task-averaged "
                        "0.8889, truly 0.7334): the official types of those 13 LongMemEval-S ids are public.",
            exit=1, files={**qa_links, "question_types.json": (_qa_relabelled()[0],),
                           "scores.json": (_qa_relabelled()[1],)}, args=qa_args),
        "longmemeval-qa/unofficial-id-without-dataset": dict(
            description="One row's question id is not a LongMemEval-S id and no dataset types it: its type, and so "
                        "the task-averaged and per-type accuracies, cannot be verified - a failure, not a warning.",
            exit=1, files={"eval-results.jsonl": (edit_line(QA / EVAL, 1, _rename_question),),
                           "scores.json": qa_links["scores.json"]}, args=qa_args[:5]),
        "longmemeval-qa/label-flipped": dict(
            description="One label of the evaluator output flipped from true to false: the scores file's overall, "
                        "task-averaged and single-session-user accuracies no longer follow.",
            exit=1, files={**qa_links, "eval-results.jsonl": (edited(
                QA / EVAL, '{"question_id": "c5e8278d", "hypothesis": "According to the conversation history, your '
                'last name before you changed it was Johnson.", "autoeval_label": {"model": "gpt-4o-2024-08-06", '
                '"label": true}}', '{"question_id": "c5e8278d", "hypothesis": "According to the conversation '
                'history, your last name before you changed it was Johnson.", "autoeval_label": {"model": '
                '"gpt-4o-2024-08-06", "label": false}}'),)}, args=qa_args),
        "longmemeval-qa/count-edited": dict(
            description="The scores file claims 6 single-session-assistant questions; the evaluator output has 5.",
            exit=1, files={**qa_links, "scores.json": (edited(
                QA / "scores.json", '"accuracy": 1.0,\n      "n": 5', '"accuracy": 1.0,\n      "n": 6'),)},
            args=qa_args),
    }


def _qa_scores(types: dict[str, str]) -> dict[str, Any]:
    """The scores file print_qa_metrics.py's numbers make for the example's log with ``types``."""
    log = [json.loads(line) for line in (QA / EVAL).read_text(encoding="utf-8").splitlines()]
    labels = {r["question_id"]: r["autoeval_label"]["label"] for r in log}
    per: dict[str, list[bool]] = {}
    for qid, label in labels.items():
        per.setdefault(types[qid], []).append(label)
    task = sum(Fraction(sum(v), len(v)) for v in per.values()) / len(per)
    abstention = [label for qid, label in labels.items() if "_abs" in qid]
    return {"per_type": {t: {"accuracy": round(sum(v) / len(v), 4), "n": len(v)} for t, v in per.items()},
            "task_averaged_accuracy": round(float(task), 4),
            "overall_accuracy": round(sum(labels.values()) / len(labels), 4),
            "abstention_accuracy": round(sum(abstention) / len(abstention), 4), "abstention_n": len(abstention)}


def _qa_relabelled() -> tuple[str, str]:
    """The example's question types with every wrongly answered temporal-reasoning, multi-session and
    preference question typed knowledge-update, and the scores those types give (0.7334 -> 0.8889)."""
    log = [json.loads(line) for line in (QA / EVAL).read_text(encoding="utf-8").splitlines()]
    wrong = {r["question_id"] for r in log if r["autoeval_label"]["label"] is False}
    table = json.loads((QA / "longmemeval_s_question_types.json").read_text(encoding="utf-8"))
    moved = ("temporal-reasoning", "multi-session", "single-session-preference")
    for entry in table:
        if entry["question_id"] in wrong and entry["question_type"] in moved:
            entry["question_type"] = "knowledge-update"
    types = {e["question_id"]: e["question_type"] for e in table}
    return json.dumps(table, indent=1) + "\n", json.dumps(_qa_scores(types), indent=2) + "\n"


def _qa_inflated() -> str:
    scores = json.loads((QA / "scores.json").read_text(encoding="utf-8"))
    scores["task_averaged_accuracy"] = 0.99
    for claim in scores["per_type"].values():
        claim["accuracy"] = 1.0
    return json.dumps(scores, indent=2) + "\n"


def _abstention_averaged_summary() -> str:
    rows = [json.loads(line) for line in (RET / LOG).read_text(encoding="utf-8").splitlines()]
    summary = json.loads((RET / "summary.json").read_text(encoding="utf-8"))
    summary["session"]["recall_all@5"] = sum(r["retrieval_results"]["metrics"]["session"]["recall_all@5"]
                                             for r in rows) / len(rows)
    return json.dumps(summary) + "\n"


def write_cases() -> None:
    write_dataset()
    for profile in ("longmemeval-retrieval", "longmemeval-qa"):
        folder = ROOT / "golden" / profile
        wanted = {name.split("/")[1] for name in cases() if name.startswith(profile + "/")}
        for stale in folder.iterdir() if folder.exists() else []:
            if stale.name not in wanted:
                shutil.rmtree(stale)
    for name, spec in cases().items():
        files = {t: ((_abstention_averaged_summary(),) if s is None else s) for t, s in spec["files"].items()}
        write_case(ROOT / "golden" / name, spec["description"], spec["exit"], files, spec["args"])


if __name__ == "__main__":
    if len(sys.argv) > 1:
        build_examples(Path(sys.argv[1]))
    write_cases()
