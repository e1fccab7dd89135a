"""Golden cases: end-to-end runs of the real command line, each evaluated once.

A case is a folder ``golden/<profile>/<case>/``. Its spec is one of

* ``case.yaml`` (the report gate): ``description`` (what the case is for), ``args`` (the command
  line after ``bench-gate``, relative to the case folder), ``now`` (RFC 3339, passed as
  ``--now``), ``exit`` (the expected exit code), and optionally ``base`` + ``patch`` to build
  ``report.json`` from a bundled real report (``base`` is relative to the repository root;
  ``patch`` is a list of JSON Patch operations: add, replace, remove, copy; an op with
  ``each: /list`` is applied to every item of that list, its paths relative to the item;
  ``replace`` is a list of ``{from, to}`` text edits applied once each to the written JSON, for
  what a patch cannot express: a duplicate key, NaN, a literal like ``499.99999999999999``);
* ``ledger-case.yaml`` (``bench-gate ledger``): the same keys but ``base``/``patch``, plus
  ``repo`` (a folder of the project copied whole as the work folder, e.g. the real ledger
  ``examples/sibyl-repo``), ``artifacts`` (files to build in the work folder, each
  ``{base, patch}``) and ``patches`` (JSON patches applied to files of the work folder); the
  cases are written by ``tests/make_ledger_cases.py``;
* ``claims-case.yaml`` (``bench-gate claims``): the same keys, plus ``ledger`` (the golden
  ledger case built into the work folder as ``ledger/``) and/or ``repo`` (a bundled folder
  copied as the work folder first) with ``manifest`` + ``manifest_patch`` to edit a ledger in it.

Any spec may list ``pin: [RULE, ...]``: rules whose results the case pins even where they equal
the reference case's (see below).

**One evaluation per case.** The runner builds the work folder without copying what it does not
need: a case whose folder holds nothing but its spec and pinned files runs in an empty temporary
folder holding only the built ``report.json``; a case with evidence files (or links to them)
and the ledger and claims cases run in a copy, since a link must read as the file it stands
for. The command line runs once, in-process, with ``--format json`` on stdout and
``--output-file`` for the text, SARIF, JUnit, GitHub and Markdown renderings of that one
verdict. Every rendering is checked against the verdict (SARIF against the official 2.1.0
schema, one JUnit testcase per result, one GitHub command per failure, one Markdown row per
result) and the JSON against the contract schemas.

**What is pinned.** Each profile folder has a **reference case** (:data:`REFERENCE`: a case that
passes; the ledger and claims folders have one per bundled folder their cases are built on, since
a case on the real repository is best compared with the real repository). A reference case pins
the whole verdict, ``expected.json``, and the whole text output, ``expected.txt``, byte for byte.
Every other case pins what it is about, so that a new rule rewrites the reference cases' files
rather than every case:

* ``expected.json`` holds ``passed``, the ``counts`` other than ``pass`` and ``skip`` (failures,
  failed warnings, waivers), under ``fields`` the top-level fields that differ from the
  reference's (``inputs``, ``evaluated_at``...; the profile's digest covers the bound parameters
  and is pinned by the reference case only), and under ``results`` the results of every rule
  whose results differ from the reference's (status, message, pointer, actual, expected,
  details; the rule's title, source, check and why only where they differ from the reference's),
  plus the rules named under ``pin``. ``absent`` lists the reference's rules the case has no
  result for. The case's verdict must be exactly the reference's with these differences: a rule
  whose result starts to differ, a new rule or a missing one fails the case.
* ``expected.txt`` holds the text output, which shows what the JSON cannot (the failures'
  ``file:line:column``, the layout of each failure), with the summary line's passed and skipped
  counts written ``*``; the real counts must agree with the verdict's.

A case whose exit is 2 pins the one-line error in ``expected.txt``. A case that still holds a
whole verdict in ``expected.json`` (one written before this scheme) is compared in full until
``--update-golden`` rewrites it; a batch verdict (several reports) is always pinned whole.

``pytest tests/e2e/test_golden.py --update-golden`` (with or without ``-n``) rewrites the pinned files from the
current output; read every changed file before committing. The pins of a case are computed
against the reference case's current verdict, evaluated in the same process, so one run
converts and updates every case whatever the order the tests run in.
"""

from __future__ import annotations

import copy
import functools
import io
import json
import os
import re
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "golden"
SCHEMAS = ROOT / "tests" / "data"
VERDICT = json.loads((SCHEMAS / "verdict.schema.json").read_text())
BATCH = json.loads((SCHEMAS / "batch.schema.json").read_text())
SPECS = ("case.yaml", "ledger-case.yaml", "claims-case.yaml")
PINNED = ("expected.json", "expected.txt")

# The reference cases of each profile folder: cases that pass with the profile's defaults. A case
# is compared with the first one built on the same bundled folder (``repo``), else the first.
REFERENCE = {
    "aef-seal": ("example-run-intact",),
    "ai-memory": ("fixture-passes",),
    "claims": ("backed", "practice-methodology", "sota-report-backed"),
    "deep-recall": ("s50-passes",),
    "ledger": ("honest", "real-without-0513"),
    "longmemeval-qa": ("passes",),
    "locomo-qa": ("passes-with-summary",),
    "longmemeval-retrieval": ("passes-with-dataset",),
    "memory-pair": ("honest-sealed",),
    "official-full": ("honest-full-passes",),
    "official-sota": ("honest-sota-passes",),
}

# Renderings written beside the JSON verdict in the same run: format -> file name.
RENDERINGS = {"text": "verdict.txt", "sarif": "verdict.sarif", "junit": "verdict.xml",
              "github": "verdict.github", "markdown": "verdict.md"}
# libyaml's safe loader where it is built in (the specs are read at every collection)
_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# Rule metadata the engine stamps from the profile: pinned only where it differs from the reference.
METADATA = ("source", "title", "check", "why")


@dataclass(frozen=True)
class Case:
    path: Path
    spec_file: str
    description: str
    args: list[str]
    now: str
    exit: int
    base: str | None
    patch: list[dict[str, Any]]
    replace: list[dict[str, str]]
    spec: dict[str, Any]

    @property
    def id(self) -> str:
        return f"{self.path.parent.name}/{self.path.name}"

    @property
    def profile(self) -> str:
        """The profile folder (``golden/<profile>``)."""
        return self.path.parent.name

    @property
    def verb(self) -> str:
        return {"case.yaml": "report", "ledger-case.yaml": "ledger", "claims-case.yaml": "claims"}[self.spec_file]

    @property
    def pin(self) -> list[str]:
        return [str(r) for r in self.spec.get("pin") or []]

    @property
    def is_reference(self) -> bool:
        return self.path.name in REFERENCE.get(self.profile, ())

    @property
    def reference(self) -> str | None:
        """The reference case this case is compared with (None: the case pins its whole verdict)."""
        names = REFERENCE.get(self.profile)
        if not names or self.is_reference:
            return None
        for name in names:
            if load_case(self.path.parent / name).spec.get("repo") == self.spec.get("repo"):
                return name
        return names[0]


def load_case(folder: Path) -> Case:
    for name in SPECS:
        spec_path = folder / name
        if spec_path.is_file():
            data = yaml.load(spec_path.read_text(encoding="utf-8"), Loader=_LOADER)
            return Case(folder, name, data["description"], [str(a) for a in data["args"]], str(data["now"]),
                        int(data["exit"]), data.get("base"), data.get("patch") or [], data.get("replace") or [],
                        data)
    raise FileNotFoundError(f"{folder}: no case spec ({', '.join(SPECS)})")


@functools.cache
def _all_cases() -> tuple[Case, ...]:
    folders = sorted({p.parent for name in SPECS for p in GOLDEN.glob(f"*/*/{name}")})
    return tuple(load_case(f) for f in folders)


def cases(verb: str | None = None) -> list[Case]:
    """Every golden case (of one verb: ``report``, ``ledger``, ``claims``), sorted by folder."""
    return [c for c in _all_cases() if verb is None or c.verb == verb]


def case(case_id: str) -> Case:
    return next(c for c in _all_cases() if c.id == case_id)


# --- JSON Patch (the subset the cases use) ---------------------------------------------------


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


def apply_patch(doc: Any, ops: list[dict[str, Any]], in_place: bool = False) -> Any:
    """``doc`` with the operations applied (a copy, unless ``in_place``)."""
    out = doc if in_place else copy.deepcopy(doc)
    for op in ops:
        if "each" in op:
            items = _get(out, op["each"])
            sub = {k: v for k, v in op.items() if k != "each"}
            for item in items:
                _apply_one(item, sub)
        else:
            _apply_one(out, op)
    return out


@functools.cache
def _base_text(base: str) -> str:
    return (ROOT / base).read_text(encoding="utf-8")


def _patched(base: str, ops: list[dict[str, Any]], indent: int) -> str:
    # each case gets its own parse of the base, which the patch then edits in place
    return json.dumps(apply_patch(json.loads(_base_text(base)), ops, in_place=True), indent=indent) + "\n"


# --- the work folder ---------------------------------------------------------------------------


def _report_text(case: Case) -> str:
    assert case.base is not None
    text = _patched(case.base, case.patch, 1)
    for edit in case.replace:
        if edit["from"] not in text:
            raise ValueError(f"{case.id}: replace: {edit['from']!r} not found")
        text = text.replace(edit["from"], edit["to"], 1)
    return text


def materialise(case: Case, into: Path) -> Path:
    """A copy of the case folder in ``into`` with its report (or ledger) built: the folder to run
    in, for a test that writes into it."""
    if case.verb == "ledger":
        return _ledger_work(case.path, into / case.path.name)
    if case.verb == "claims":
        return _claims_work(case, into / case.path.name)
    work = into / case.path.name
    shutil.copytree(case.path, work)
    if case.base is not None:
        (work / "report.json").write_text(_report_text(case), encoding="utf-8")
    return work


def workdir(case: Case, into: Path) -> Path:
    """The folder to run a case in, read-only: a case whose folder holds only its spec and
    pinned files runs in ``into`` with only its built report; any other is materialised."""
    if case.verb == "report" and case.base is not None and \
            {p.name for p in case.path.iterdir()} <= {case.spec_file, *PINNED}:
        work = into / case.path.name
        work.mkdir(parents=True)
        (work / "report.json").write_text(_report_text(case), encoding="utf-8")
        return work
    return materialise(case, into)


def _ledger_work(folder: Path, work: Path) -> Path:
    spec = yaml.load((folder / "ledger-case.yaml").read_text(encoding="utf-8"), Loader=_LOADER)
    if spec.get("repo"):
        # A whole repository (the real ledger in its layout), then the case's own files over it.
        shutil.copytree(ROOT / spec["repo"], work)
        shutil.copytree(folder, work, dirs_exist_ok=True,
                        ignore=lambda _d, names: [n for n in names if n in ("ledger-case.yaml", *PINNED)])
    else:
        shutil.copytree(folder, work)
    for path, ops in (spec.get("patches") or {}).items():
        target = work / path
        doc = json.loads(target.read_text(encoding="utf-8"))
        target.write_text(json.dumps(apply_patch(doc, ops), indent=2) + "\n", encoding="utf-8")
    for path, build in (spec.get("artifacts") or {}).items():
        (work / path).write_text(_patched(build["base"], build.get("patch") or [], 1), encoding="utf-8")
    return work


def _claims_work(case: Case, work: Path) -> Path:
    spec = case.spec
    if "repo" in spec:
        shutil.copytree(ROOT / spec["repo"], work)
    shutil.copytree(case.path, work, dirs_exist_ok=True)
    if "manifest" in spec:
        manifest = work / spec["manifest"]
        data = apply_patch(json.loads(manifest.read_text(encoding="utf-8")), spec.get("manifest_patch") or [])
        manifest.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    if "ledger" in spec:
        _ledger_work(GOLDEN / "ledger" / spec["ledger"], work / "ledger")
        # The ledger lies in ledger/ below the folder the command runs in, which is therefore the
        # repository root: its history folder is named from there, as in a real repository.
        manifest = work / "ledger" / "manifest.json"
        data = json.loads(manifest.read_text(encoding="utf-8"))
        if isinstance(data.get("history"), dict):
            data["history"]["directory"] = f"ledger/{data['history']['directory']}"
            manifest.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return work


# --- running ---------------------------------------------------------------------------------


def run_main(args: list[str], now: str, workdir: Path, fmt: str, *extra: str) -> tuple[int, str, str]:
    """The command line run in-process in ``workdir``: (exit code, stdout, stderr)."""
    from bench_gate.cli.app import main

    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(workdir)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main([*args, "--now", now, "--format", fmt, "--no-color", *extra])
    finally:
        os.chdir(cwd)
    return code, out.getvalue(), err.getvalue()


@dataclass(frozen=True)
class Outcome:
    """One run of a case: exit code, the JSON verdict on stdout, stderr, and every other
    rendering of the same verdict (empty when the run could not be evaluated)."""

    code: int
    json: str
    stderr: str
    renderings: dict[str, str]


def evaluate(case: Case, tmp: Path) -> Outcome:
    """Run the case once: JSON on stdout, every other format through ``--output-file``."""
    work = workdir(case, tmp / "work")
    out = tmp / "renderings"
    out.mkdir()
    files = {fmt: out / name for fmt, name in RENDERINGS.items()}
    code, stdout, stderr = run_main(case.args, case.now, work, "json",
                                    *[f"--output-file={fmt}={path}" for fmt, path in files.items()])
    renderings = {fmt: path.read_text(encoding="utf-8") for fmt, path in files.items() if path.exists()}
    return Outcome(code, stdout, stderr, renderings)


# --- the contract schemas and the renderings ----------------------------------------------------


@functools.cache
def _validator(batch: bool) -> Any:
    import jsonschema

    if not batch:
        return jsonschema.Draft202012Validator(VERDICT)
    schema = dict(BATCH)
    schema["properties"] = dict(BATCH["properties"])
    schema["properties"]["verdicts"] = {"type": "array", "minItems": 2, "items": VERDICT}
    return jsonschema.Draft202012Validator(schema)


def validate_verdict(doc: dict[str, Any]) -> None:
    """A verdict (or a batch of them) is valid under the contract schemas."""
    _validator(doc.get("schema_version") == "bench-gate.batch.v1").validate(doc)


@functools.cache
def _sarif_validator() -> Any:
    import jsonschema

    return jsonschema.Draft4Validator(json.loads((SCHEMAS / "sarif-schema-2.1.0.json").read_text(encoding="utf-8")))


def units(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The verdicts of a verdict document (one, or each of a batch)."""
    return doc["verdicts"] if "verdicts" in doc else [doc]


def check_renderings(doc: dict[str, Any], renderings: dict[str, str]) -> None:
    """Each CI format says what the JSON verdict says: SARIF is valid and has one result per
    failing or waived rule, JUnit one testcase per result and the failures counted, GitHub one
    command per failing or waived rule, Markdown one row of its results tables per result."""
    results = [r for v in units(doc) for r in v["results"]]
    failing = [r for r in results if r["status"] in ("fail", "waived")]

    log = json.loads(renderings["sarif"])
    assert [f"{e.absolute_path}: {e.message}" for e in _sarif_validator().iter_errors(log)] == []
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == [r["rule"] for r in failing]

    junit = ET.fromstring(renderings["junit"].encode("utf-8"))
    assert [c.get("name") for c in junit.iter("testcase")] == [r["rule"] for r in results]
    assert int(junit.get("failures", "-1")) == sum(r["status"] == "fail" for r in results)

    lines = renderings["github"].splitlines()
    assert len([line for line in lines if line.startswith("::")]) == len(failing)
    assert all(line.startswith(("::", "bench-gate ")) for line in lines)

    assert len(_result_rows(renderings["markdown"])) == len(results)


def _result_rows(markdown: str) -> list[str]:
    """The rows of the Markdown tables of results (headed ``| rule |``; a claims verdict opens
    with an audit table of its claims besides)."""
    rows, inside = [], False
    for line in markdown.splitlines():
        if line.startswith("| rule |"):
            inside = True
        elif not line.startswith("|"):
            inside = False
        elif inside and line.startswith("| `"):
            rows.append(line)
    return rows


# --- pins: the reference case whole, every other case by its differences -------------------------

def _groups(results: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Results by rule, in order; a rule with several results (one per claim, one per file) is
    one group."""
    out: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        out.setdefault(r["rule"], []).append(r)
    return out


def _metadata(results: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each rule's engine-stamped metadata, by rule id (the first result of the rule)."""
    out: dict[str, dict[str, Any]] = {}
    for r in results:
        out.setdefault(r["rule"], {f: r[f] for f in METADATA if f in r})
    return out


def _strip(result: dict[str, Any], meta: dict[str, Any] | None) -> dict[str, Any]:
    """A result as pinned: without the metadata the reference gives it."""
    return {k: v for k, v in result.items() if not (k in METADATA and meta is not None and meta.get(k) == v)}


def _is_partial(pinned: dict[str, Any]) -> bool:
    return "reference" in pinned


def compact(doc: dict[str, Any], reference: dict[str, Any], pin: list[str], reference_id: str) -> dict[str, Any]:
    """The pins of a verdict against the reference case's verdict (see the module docstring)."""
    ours, theirs = _groups(doc["results"]), _groups(reference["results"])
    meta = _metadata(reference["results"])
    pinned = [
        _strip(r, meta.get(r["rule"]))
        for rule, group in ours.items() if theirs.get(rule) != group or rule in pin
        for r in group
    ]
    out: dict[str, Any] = {"reference": reference_id, "passed": doc["passed"],
                           "counts": {k: v for k, v in doc["counts"].items() if k not in ("pass", "skip")}}
    fields = {k: v for k, v in _top(doc).items() if k not in ("counts", "passed") and _top(reference).get(k) != v}
    if fields:
        out["fields"] = fields
    out["results"] = pinned
    absent = [rule for rule in theirs if rule not in ours]
    if absent:
        out["absent"] = absent
    return out


def _top(doc: dict[str, Any]) -> dict[str, Any]:
    """A verdict's fields but its results, without the profile's digest (it covers the bound
    parameters, so it changes with every edit of the profile: the reference case pins it)."""
    out = {k: v for k, v in doc.items() if k != "results"}
    if isinstance(out.get("profile"), dict):
        out["profile"] = {k: v for k, v in out["profile"].items() if k != "digest"}
    return out


def expand(pinned: dict[str, Any], reference: dict[str, Any]) -> dict[str, Any]:
    """The whole verdict a case's pins stand for: the reference's, with the pinned differences.

    Results come in the reference's order of rules, then the case's own rules; ``counts`` are
    tallied from the results; the profile's digest is not pinned."""
    if not _is_partial(pinned):
        return pinned
    theirs = _groups(reference["results"])
    meta = _metadata(reference["results"])
    ours: dict[str, list[dict[str, Any]]] = {}
    for r in pinned["results"]:
        ours.setdefault(r["rule"], []).append({**meta.get(r["rule"], {}), **r})
    gone = set(pinned.get("absent", []))
    results: list[dict[str, Any]] = []
    for rule, group in theirs.items():
        if rule not in gone:
            results.extend(ours.pop(rule, group))
    for group in ours.values():
        results.extend(group)
    top = {k: v for k, v in _top(reference).items() if k != "counts"}
    top.update(pinned.get("fields", {}))
    top["passed"] = pinned["passed"]
    return {**top, "counts": tally(results), "results": results}


def tally(results: list[dict[str, Any]]) -> dict[str, int]:
    """The counts a verdict's results add up to: every status, and the warnings that failed."""
    out = {"pass": 0, "fail": 0, "skip": 0}
    for r in results:
        out[r["status"]] = out.get(r["status"], 0) + 1
    warn = sum(1 for r in results if r["status"] == "fail" and r["severity"] != "error")
    if warn:
        out["warn"] = warn
    return out


def assert_matches(doc: dict[str, Any], pinned: dict[str, Any], reference: dict[str, Any]) -> None:
    """The verdict is the one the pins stand for: every result, every field, the counts."""
    want = expand(pinned, reference)
    assert doc["counts"] == tally(doc["results"]), "the counts do not add up to the results"
    assert {k: v for k, v in pinned["counts"].items()} == \
        {k: v for k, v in doc["counts"].items() if k not in ("pass", "skip")}
    assert _top(doc) == {k: v for k, v in want.items() if k != "results"}
    assert _groups(doc["results"]) == _groups(want["results"])
    # the rules the case shares with the reference come in the reference's order
    shared = [k for k in _groups(reference["results"]) if k in _groups(doc["results"])]
    assert [k for k in _groups(doc["results"]) if k in set(shared)] == shared


# --- the text output -------------------------------------------------------------------------------

_SUMMARY = re.compile(r"^bench-gate: (?:PASS|FAIL)  .*?  profile \S+: (?P<counts>[^;\n]*)", re.M)
_COUNTS = re.compile(r"^(?P<fail>\d+) failed(?: \([^)]*\))?(?:, (?P<waived>\d+) waived)?, (?P<pass>\d+) passed"
                     r"(?:, (?P<skip>\d+) skipped)?$")


def mask_counts(text: str) -> str:
    """The text output with each summary line's passed and skipped counts written ``*``."""
    def masked(m: re.Match[str]) -> str:
        counts = re.sub(r"\b\d+ (passed|skipped)\b", r"* \1", m.group("counts"))
        return m.group(0)[: m.start("counts") - m.start(0)] + counts
    return _SUMMARY.sub(masked, text)


def summary_counts(text: str) -> list[dict[str, int]]:
    """The counts each summary line of a text output states (absent parts are 0)."""
    out = []
    for m in _SUMMARY.finditer(text):
        c = _COUNTS.match(m.group("counts"))
        assert c is not None, m.group(0)
        out.append({k: int(v or 0) for k, v in c.groupdict().items()})
    return out


# --- comparing a run with its pinned files -----------------------------------------------------------


def _read_json(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


@functools.cache
def _pinned_reference(profile: str, name: str) -> dict[str, Any]:
    return _read_json(GOLDEN / profile / name / "expected.json")


_current: dict[str, dict[str, Any]] = {}


def _current_reference(profile: str, name: str, tmp: Path) -> dict[str, Any]:
    """The reference case's verdict as the code gives it now (for ``--update-golden``)."""
    if f"{profile}/{name}" not in _current:
        outcome = evaluate(load_case(GOLDEN / profile / name), tmp / "reference")
        _current[f"{profile}/{name}"] = json.loads(outcome.json)
    return _current[f"{profile}/{name}"]


def expected_verdict(case: Case) -> dict[str, Any] | None:
    """The whole verdict a case pins (None for an exit-2 case): for reading in other tests."""
    path = case.path / "expected.json"
    if not path.exists():
        return None
    pinned = _read_json(path)
    if not _is_partial(pinned):
        return pinned
    return expand(pinned, _pinned_reference(case.profile, pinned["reference"]))


def check_case(case: Case, tmp: Path, update: bool,
               extra: Callable[[dict[str, Any], Outcome, Path], None] | None = None) -> dict[str, Any] | None:
    """Evaluate the case once and compare it with its pinned files (rewriting them with
    ``update``). Returns the JSON verdict (None for exit 2)."""
    outcome = evaluate(case, tmp)
    assert "Traceback" not in outcome.stderr
    expected_json, expected_txt = case.path / "expected.json", case.path / "expected.txt"
    if outcome.code == 2:
        if update:
            expected_txt.write_text(outcome.stderr, encoding="utf-8")
            expected_json.unlink(missing_ok=True)
        assert outcome.code == case.exit, outcome.stderr
        assert outcome.stderr == expected_txt.read_text(encoding="utf-8")
        return None
    doc = json.loads(outcome.json)
    validate_verdict(doc)
    check_renderings(doc, outcome.renderings)
    text = outcome.renderings["text"]
    if "verdicts" not in doc:
        assert summary_counts(text) == [{k: doc["counts"].get(k, 0) for k in ("fail", "waived", "pass", "skip")}]
    name = None if "verdicts" in doc else case.reference
    reference = None
    if name is not None:
        reference = _current_reference(case.profile, name, tmp) if update else _pinned_reference(case.profile, name)
    if update:
        if reference is None:
            expected_json.write_text(outcome.json, encoding="utf-8")
            expected_txt.write_text(text, encoding="utf-8")
        else:
            pins = compact(doc, reference, case.pin, name)
            expected_json.write_text(json.dumps(pins, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
            expected_txt.write_text(mask_counts(text), encoding="utf-8")
    assert outcome.code == case.exit, text[-3000:]
    assert doc["passed"] is (case.exit == 0)
    pinned = _read_json(expected_json)
    if _is_partial(pinned):
        assert reference is not None, f"{case.id}: a reference or batch case pins its whole verdict"
        assert pinned["reference"] == name
        assert_matches(doc, pinned, reference)
        assert mask_counts(text) == expected_txt.read_text(encoding="utf-8")
    else:
        assert outcome.json == expected_json.read_text(encoding="utf-8")
        assert text == expected_txt.read_text(encoding="utf-8")
    if extra is not None:
        extra(doc, outcome, case.path)
    return doc


@contextmanager
def chdir(path: Path) -> Iterator[None]:
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)
