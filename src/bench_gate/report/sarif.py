"""``--format sarif``: SARIF 2.1.0 for code-scanning views (GitHub code scanning, Azure DevOps).

One ``run`` for the whole call (one profile, any number of reports):

* ``tool.driver``: ``name`` ``bench-gate``, ``version``, and one ``rules`` entry per rule that was
  evaluated, in plan order: ``id`` (the rule id), ``name`` and ``shortDescription`` (the title),
  ``fullDescription`` (the rule's ``why``), ``defaultConfiguration.level`` from the severity, and
  ``properties`` ``check`` (check kind), ``severity`` and ``source`` (``file:line`` of the rule),
  ``help`` (title, why, check kind, source, the ``bench-gate explain`` and ``bench-gate kinds``
  commands and the kind's section of ``docs/profiles.md``; no ``helpUri``, which must be an
  absolute URL, and the rule's documentation ships with the tool);
* ``artifacts``: every input (report and evidence documents) with its length and ``sha-256``;
* ``results``: one per failing rule, per report, in report then plan order. ``level`` is
  ``error``/``warning``/``note`` for severity ``error``/``warning``/``info``. A waived failure is
  a result too, with a ``suppressions`` entry of kind ``external`` whose ``justification`` is the
  waiver's reason (approver and expiry in its ``properties``), so code scanning shows it as
  dismissed rather than hiding it;
* each result's location: ``physicalLocation.artifactLocation.uri`` is the file of the
  document the result is about (the report's path for role ``report``, else the input with that
  role; the report's path when that document has no file), with a ``region``
  (``startLine``/``startColumn``) where the value was found in its file (or the claim in a text
  file); the JSON Pointer is in the message, in
  a ``logicalLocations`` entry (``fullyQualifiedName`` ``document:pointer``) and in the
  location's ``properties.pointer``. Further failures of the same rule are ``relatedLocations``;
* ``partialFingerprints.benchGateLocation/v1`` hashes report, rule, document and pointer, so an
  alert keeps its identity from one run to the next;
* ``run.properties.verdicts``: per report, the profile and its digest, the evaluation instant,
  whether it passed and the counts.

The output is deterministic: the same verdicts give the same bytes.

Example (abridged)::

    {"version": "2.1.0", "runs": [{
      "tool": {"driver": {"name": "bench-gate", "rules": [
        {"id": "recall-floor", "name": "Recall@5 meets the floor", ...}]}},
      "results": [{
        "ruleId": "recall-floor", "level": "error",
        "message": {"text": "recall@5 0.81 is below the floor 0.85"},
        "locations": [{
          "physicalLocation": {"artifactLocation": {"uri": "report.json", "index": 0}},
          "logicalLocations": [{"name": "/overall/recall@5",
                                "fullyQualifiedName": "report:/overall/recall@5"}],
          "properties": {"document": "report", "pointer": "/overall/recall@5"}}]}]}]}
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any
from urllib.parse import quote

from bench_gate.models import RuleResult, Verdict
from bench_gate.report._common import (
    json_text,
    PLAIN,
    RenderOptions,
    anchor_path,
    document_path,
    has_value,
    jsonable,
    location,
    printable,
    report_path,
    position,
    timestamp,
    waiver_reason,
    waiver_terms,
    where,
)

SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
LEVELS = {"error": "error", "warning": "warning", "info": "note"}
_WINDOWS_DRIVE = re.compile(r"^[A-Za-z]:[\\/]")


def render(verdicts: Sequence[Verdict], options: RenderOptions = PLAIN) -> str:
    """The verdicts as one SARIF 2.1.0 log with a single run (JSON, two-space indent)."""
    rules: list[dict[str, Any]] = []
    rule_index: dict[str, int] = {}
    for verdict in verdicts:
        for result in verdict.results:
            if result.rule not in rule_index:
                rule_index[result.rule] = len(rules)
                rules.append(_rule(result, verdict.profile_name))

    artifacts: list[dict[str, Any]] = []
    artifact_index: dict[str, int] = {}
    for verdict in verdicts:
        for item in verdict.inputs:
            # the file as it opens from here (found under the evidence root), like the locations
            uri = path_to_uri(document_path(verdict, item.role) or item.path)
            if uri in artifact_index:
                continue
            artifact_index[uri] = len(artifacts)
            artifact: dict[str, Any] = {"location": {"uri": uri}, "length": item.bytes}
            if item.role == "report":
                artifact["roles"] = ["analysisTarget"]
            if item.sha256:
                artifact["hashes"] = {"sha-256": item.sha256}
            artifact["properties"] = {"role": printable(item.role)}
            artifacts.append(artifact)

    results = [
        _result(verdict, result, rule_index[result.rule], artifact_index)
        for verdict in verdicts
        for result in verdict.results
        if result.status in ("fail", "waived")
    ]

    driver: dict[str, Any] = {"name": "bench-gate"}
    if verdicts:
        driver["version"] = verdicts[0].tool_version
    driver["rules"] = rules
    run: dict[str, Any] = {"tool": {"driver": driver}}
    if artifacts:
        run["artifacts"] = artifacts
    run["results"] = results
    run["properties"] = {"verdicts": [_summary(v) for v in verdicts]}
    log = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
    return json_text(log, indent=2) + "\n"


def path_to_uri(path: str) -> str:
    """A file path as a URI reference: relative paths stay relative, absolute ones get file://."""
    path = printable(path)
    if _WINDOWS_DRIVE.match(path):
        return PureWindowsPath(path).as_uri()
    if path.startswith("/"):
        return PurePosixPath(path).as_uri()
    return quote(path, safe="/")


def _rule(result: RuleResult, profile: str) -> dict[str, Any]:
    rule: dict[str, Any] = {
        "id": printable(result.rule),
        "name": printable(result.title or result.rule),
        "shortDescription": {"text": printable(result.title or result.rule)},
    }
    if result.why:
        rule["fullDescription"] = {"text": printable(result.why)}
    explain, kinds = f"bench-gate explain {profile}", f"bench-gate kinds {result.check}"
    # No helpUri: it must be an absolute URL and the documentation ships with the tool, so the
    # help says which command prints it and where it is in the tool's own docs/.
    rule["help"] = {
        "text": printable(f"{result.title or result.rule}. {result.why} Check kind {result.check}, "
                          f"defined at {result.source}; `{explain}` prints the rule with its parameters, "
                          f"`{kinds}` the check kind's documentation (docs/profiles.md#{result.check} "
                          "in bench-gate's source)."),
        "markdown": "\n\n".join(printable(part) for part in (
            f"**{result.title or result.rule}**", result.why,
            f"Check kind `{result.check}`, defined at `{result.source}`; `{explain}` prints the rule with its "
            f"parameters, `{kinds}` the check kind's documentation (`docs/profiles.md#{result.check}` in "
            "bench-gate's source).")),
    }

    rule["defaultConfiguration"] = {"level": LEVELS.get(result.severity, "error")}
    rule["properties"] = {
        "check": printable(result.check),
        "severity": result.severity,
        "source": printable(result.source),
    }
    return rule


def _location(
    verdict: Verdict, document: str, pointer: str, artifact_index: dict[str, int]
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    path = anchor_path(verdict, document)
    if path:
        uri = path_to_uri(path)
        artifact_location: dict[str, Any] = {"uri": uri}
        if uri in artifact_index:
            artifact_location["index"] = artifact_index[uri]
        out["physicalLocation"] = {"artifactLocation": artifact_location}
        place = position(verdict, document, pointer)
        if place is not None:  # the value's line and column in its file
            out["physicalLocation"]["region"] = {"startLine": place[0], "startColumn": place[1]}
    out["logicalLocations"] = [
        {"name": printable(pointer), "fullyQualifiedName": printable(where(document, pointer))}
    ]
    out["properties"] = {"document": printable(document), "pointer": printable(pointer)}
    return out


def _result(
    verdict: Verdict, result: RuleResult, index: int, artifact_index: dict[str, int]
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "ruleId": printable(result.rule),
        "ruleIndex": index,
        "level": LEVELS.get(result.severity, "error"),
        "message": {"text": printable(f"{result.message} ({location(result)})")},
        "locations": [_location(verdict, result.document, result.pointer, artifact_index)],
    }
    related = []
    for n, detail in enumerate(result.details, start=1):
        loc = _location(verdict, detail.document, detail.pointer, artifact_index)
        related.append({"id": n, **loc, "message": {"text": printable(detail.message)}})
    if related:
        out["relatedLocations"] = related
    if result.status == "waived":
        suppression: dict[str, Any] = {
            "kind": "external",
            "status": "accepted",
            "justification": waiver_reason(result.waiver),
        }
        terms = {label.replace(" ", "_"): value for label, value in waiver_terms(result.waiver)}
        if terms:
            suppression["properties"] = terms
        out["suppressions"] = [suppression]
    key = "\x1f".join(
        [report_path(verdict) or "", result.rule, result.document, result.pointer]
    )
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
    out["partialFingerprints"] = {"benchGateLocation/v1": digest}
    props: dict[str, Any] = {
        "severity": result.severity,
        "check": printable(result.check),
        "source": printable(result.source),
        "location": printable(location(result)),
    }
    report = report_path(verdict)
    if report:
        props["report"] = printable(report)
    if has_value(result.actual):
        props["actual"] = jsonable(result.actual)
    if has_value(result.expected):
        props["expected"] = jsonable(result.expected)
    if result.why:
        props["why"] = printable(result.why)
    if result.omitted_details:
        props["omittedDetails"] = result.omitted_details
    out["properties"] = props
    return out


def _summary(verdict: Verdict) -> dict[str, Any]:
    out: dict[str, Any] = {}
    report = report_path(verdict)
    if report:
        out["report"] = printable(report)
    out["profile"] = printable(verdict.profile_name)
    out["profileDigest"] = verdict.profile_digest
    out["evaluatedAt"] = timestamp(verdict.evaluated_at)
    out["failOn"] = verdict.fail_on
    out["passed"] = verdict.passed
    out["counts"] = verdict.counts()
    return out
