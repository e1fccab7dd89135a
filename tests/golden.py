"""Golden cases: end-to-end runs of the real command line, with the whole verdict pinned.

A case is a folder ``golden/<profile>/<case>/`` holding:

* ``case.yaml``: ``description`` (what the case is for), ``args`` (the command line after
  ``bench-gate``, relative to the case folder), ``now`` (RFC 3339, passed as ``--now``),
  ``exit`` (the expected exit code), and optionally ``base`` + ``patch`` to build
  ``report.json`` from a bundled real report (``base`` is relative to the repository root;
  ``patch`` is a list of JSON Patch operations: add, replace, remove, copy; an op with
  ``each: /list`` is applied to every item of that list, its paths relative to the item;
  ``replace`` is a list of ``{from, to}`` text edits applied once each to the written JSON, for
  what a patch cannot express: a duplicate key, NaN, a literal like ``499.99999999999999``);
* any input files the case needs as they are (reports, evidence, profiles);
* ``expected.json`` (the verdict, ``--format json``) and ``expected.txt`` (the text output).

``golden/ledger`` and ``golden/claims`` use their own case files (``ledger-case.yaml``,
``claims-case.yaml``, built by their own runners) and share :func:`run_main` and
:func:`check_pinned` with this one.

The runner copies the folder to a temporary directory, builds ``report.json`` when a patch is
given, runs the command line there in-process, and compares both outputs byte for byte.
"""

from __future__ import annotations

import copy
import io
import json
import os
import shutil
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "golden"
SCHEMAS = ROOT / "tests" / "data"
VERDICT = json.loads((SCHEMAS / "verdict.schema.json").read_text())
BATCH = json.loads((SCHEMAS / "batch.schema.json").read_text())


@dataclass(frozen=True)
class Case:
    path: Path
    description: str
    args: list[str]
    now: str
    exit: int
    base: str | None
    patch: list[dict[str, Any]]
    replace: list[dict[str, str]]

    @property
    def id(self) -> str:
        return f"{self.path.parent.name}/{self.path.name}"


def cases() -> list[Case]:
    found = []
    for spec in sorted(GOLDEN.glob("*/*/case.yaml")):
        data = yaml.safe_load(spec.read_text(encoding="utf-8"))
        found.append(Case(spec.parent, data["description"], [str(a) for a in data["args"]], data["now"],
                          int(data["exit"]), data.get("base"), data.get("patch") or [],
                          data.get("replace") or []))
    return found


def _tokens(pointer: str) -> list[str]:
    if pointer == "":
        return []
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


def _parent(doc: Any, pointer: str) -> tuple[Any, str]:
    toks = _tokens(pointer)
    cur = doc
    for t in toks[:-1]:
        cur = cur[int(t)] if isinstance(cur, list) else cur[t]
    return cur, toks[-1]


def _get(doc: Any, pointer: str) -> Any:
    cur = doc
    for t in _tokens(pointer):
        cur = cur[int(t)] if isinstance(cur, list) else cur[t]
    return cur


def _apply_one(doc: Any, op: dict[str, Any]) -> None:
    kind = op["op"]
    if kind == "copy":
        value = copy.deepcopy(_get(doc, op["from"]))
    elif kind in ("add", "replace"):
        value = copy.deepcopy(op["value"])
    parent, key = _parent(doc, op["path"])
    if kind == "remove":
        if isinstance(parent, list):
            parent.pop(int(key))
        else:
            del parent[key]
        return
    if isinstance(parent, list):
        if key == "-":
            parent.append(value)
        elif kind == "add":
            parent.insert(int(key), value)
        else:
            parent[int(key)] = value
    else:
        if kind == "replace" and key not in parent:
            raise KeyError(f"replace: {op['path']} does not exist")
        parent[key] = value


def apply_patch(doc: Any, ops: list[dict[str, Any]]) -> Any:
    out = copy.deepcopy(doc)
    for op in ops:
        if "each" in op:
            items = _get(out, op["each"])
            sub = {k: v for k, v in op.items() if k != "each"}
            for item in items:
                _apply_one(item, sub)
        else:
            _apply_one(out, op)
    return out


def materialise(case: Case, into: Path) -> Path:
    """Copy the case folder into ``into`` and build its report; the folder to run in."""
    work = into / case.path.name
    shutil.copytree(case.path, work)
    if case.base is not None:
        base = json.loads((ROOT / case.base).read_text(encoding="utf-8"))
        report = apply_patch(base, case.patch)
        text = json.dumps(report, indent=1) + "\n"
        for edit in case.replace:
            if edit["from"] not in text:
                raise ValueError(f"{case.id}: replace: {edit['from']!r} not found")
            text = text.replace(edit["from"], edit["to"], 1)
        (work / "report.json").write_text(text, encoding="utf-8")
    return work


# --- running a case and comparing it with its pinned files (shared by every golden runner) -----


def run_main(args: list[str], now: str, workdir: Path, fmt: str) -> tuple[int, str, str]:
    """The command line run in-process in ``workdir``: (exit code, stdout, stderr)."""
    from bench_gate.cli.app import main

    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(workdir)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main([*args, "--now", now, "--format", fmt, "--no-color"])
    finally:
        os.chdir(cwd)
    return code, out.getvalue(), err.getvalue()


def validate_verdict(doc: dict[str, Any]) -> None:
    """A verdict (or a batch of them) is valid under the contract schemas."""
    import jsonschema

    if doc.get("schema_version") == "bench-gate.batch.v1":
        batch = dict(BATCH)
        batch["properties"] = dict(BATCH["properties"])
        batch["properties"]["verdicts"] = {"type": "array", "minItems": 2, "items": VERDICT}
        jsonschema.Draft202012Validator(batch).validate(doc)
    else:
        jsonschema.Draft202012Validator(VERDICT).validate(doc)


def check_pinned(folder: Path, expected_exit: int, run: Callable[[str], tuple[int, str, str]],
                 update: bool) -> dict[str, Any] | None:
    """Compare a case's output with ``expected.json`` / ``expected.txt`` (rewriting them with
    ``update``). Exit 2 pins the one-line error instead; returns the JSON verdict otherwise."""
    code, stdout, stderr = run("json")
    assert "Traceback" not in stderr
    expected_json, expected_txt = folder / "expected.json", folder / "expected.txt"
    if code == 2:
        if update:
            expected_txt.write_text(stderr, encoding="utf-8")
        assert code == expected_exit, stderr
        assert stderr == expected_txt.read_text(encoding="utf-8")
        return None
    doc = json.loads(stdout)
    validate_verdict(doc)
    _, text, _ = run("text")
    if update:
        expected_json.write_text(stdout, encoding="utf-8")
        expected_txt.write_text(text, encoding="utf-8")
    assert code == expected_exit, text[-3000:]
    assert doc["passed"] is (expected_exit == 0)
    assert stdout == expected_json.read_text(encoding="utf-8")
    assert text == expected_txt.read_text(encoding="utf-8")
    return doc
