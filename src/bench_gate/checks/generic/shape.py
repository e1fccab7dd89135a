"""Report shape: check kind ``json_schema``, a document validated against a JSON Schema."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from bench_gate.records import record, replace
from bench_gate.checks.base import kind, FORBID, MISSING, Context, Fail, failed, lookup, passed, tokens
from bench_gate.models import Finding

SHIPPED = ("retrieval-report", "longmembench-report", "ledger-v2", "aef-summary")
"""The schemas shipped in ``bench_gate/schemas/<name>.schema.json``."""

_MAX_TEXT = 160


@record
class JsonSchemaParams:
    __pydantic_config__ = FORBID
    schema: str | dict[str, Any]
    at: str = ""
    label: str | None = None
    schema_name: str | None = None
    """Set when the profile is compiled: the shipped name or path the schema was read from."""

    def with_files(self, read: Callable[[str], Any]) -> JsonSchemaParams:
        """The parameters with a named schema read (``read`` is the profile compiler's reader)."""
        if isinstance(self.schema, dict):
            return self
        return replace(self, schema=read(self.schema), schema_name=self.schema)


def _escape(token: Any) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def _short(text: str) -> str:
    return text if len(text) <= _MAX_TEXT else text[:_MAX_TEXT - 1] + "…"


def _label(role: str, pointer: str, label: str | None) -> str:
    if label:
        return label
    where = ".".join(tokens(pointer))
    if role == "report":
        return where or "the report"
    return f"{role} {where}" if where else f"the {role} document"


def _refuse(uri: str) -> Any:
    from referencing.exceptions import NoSuchResource

    # The default registry would fetch http(s) references; a check opens no connection.
    raise NoSuchResource(ref=uri)


def _references(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("$ref", "$dynamicRef") and isinstance(value, str):
                yield value
            else:
                yield from _references(value)
    elif isinstance(node, list):
        for item in node:
            yield from _references(item)


def offline_validator(schema: dict[str, Any]) -> Any:
    """A Draft 2020-12 validator whose references resolve only inside ``schema``."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    resource = Resource.from_contents(schema, default_specification=DRAFT202012)
    registry: Any = Registry(retrieve=_refuse).with_resource(resource.id() or "", resource).crawl()
    return Draft202012Validator(schema, registry=registry)


def schema_problem(schema: Any) -> str | None:
    """Why ``schema`` cannot be used (not a valid Draft 2020-12 schema, or a reference that
    leaves it), or None."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError
    from referencing.exceptions import Unresolvable

    if not isinstance(schema, dict):
        return "is not a JSON object"
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        return f"is not a valid JSON Schema: {_short(exc.message)}"
    try:
        resolver = offline_validator(schema)._resolver
        for ref in _references(schema):
            try:
                resolver.lookup(ref)
            except Unresolvable:
                return (f"refers to {_short(ref)!r}, which is not inside the schema (references to "
                        "URLs or other files are not followed: a verdict must not depend on them)")
    except Exception as exc:  # noqa: BLE001 - any failure to index the schema is a reason, not a crash
        return f"cannot be indexed for its references ({type(exc).__name__}: {_short(str(exc))})"
    return None


@kind("json_schema", JsonSchemaParams, "a document or value is valid under a JSON Schema (Draft 2020-12); every violation listed")
def json_schema(ctx: Context, p: JsonSchemaParams) -> Iterable[Finding]:
    """Report shape: check kind ``json_schema``, a document validated against a JSON Schema.

    A new report format needs a profile, not code: start from a JSON Schema of its shape.
    The schemas of the formats bench-gate gates are shipped with it (``bench-gate kinds
    json_schema`` lists them): ``retrieval-report`` (the LongMemEval retrieval artifact of the
    ai-memory practice), ``longmembench-report`` (the official QA report as its importer writes
    it), ``ledger-v2`` (the claim ledger) and ``aef-summary`` (an AEF evidence run's summary).

    json_schema
        The document, or the value at a pointer in it, is valid under a JSON Schema (Draft
        2020-12). Every violation is listed with the JSON pointer of the offending value, in
        document order: the rule's message is the first, the others are its details.

        Params: ``schema`` (required): the name of a shipped schema (``ledger-v2``), a path to a
        ``.json`` file relative to the profile or policy file that declares the rule (it must stay
        in that file's folder), or the schema itself written inline as a mapping; ``at`` (ref,
        default ``""``: the whole report; ``"baseline:"`` is the whole baseline document,
        ``"/qa"`` one value); ``label`` (how messages name the value).

        The schema is read and checked to be a valid Draft 2020-12 schema when the profile is
        compiled; a missing, unreadable or invalid schema is a profile error. Every ``$ref`` and
        ``$dynamicRef`` must resolve inside the schema itself (``#/$defs/...``, or a resource the
        schema declares with ``$id``): a reference to a URL or another file is a profile error,
        because a gate whose verdict depends on what a server answers is not reproducible. The
        check itself reads no file and opens no connection. A missing value at ``at`` fails.

        .. code-block:: yaml

           - id: ledger-shape
             check: json_schema
             with: {schema: ledger-v2}
           - id: receipt-shape
             check: json_schema
             with: {schema: schemas/receipt.schema.json, at: "receipt:"}
    """
    from referencing.exceptions import Unresolvable

    if not isinstance(p.schema, dict):
        raise Fail(f"schema {p.schema!r} was not read when the profile was compiled")
    value, role, pointer = lookup(ctx, p.at)
    name = _label(role, pointer, p.label)
    what = f"schema {p.schema_name}" if p.schema_name else "the inline schema"
    if value is MISSING:
        raise Fail(f"{name} is missing", pointer, role, None, f"a value valid under {what}")
    problem = schema_problem(p.schema)
    if problem:
        # Compiling refuses such a schema; a plan built by hand must not reach the network either.
        raise Fail(f"{what} {problem}", pointer, role)
    try:
        errors = sorted(offline_validator(p.schema).iter_errors(value),
                        key=lambda e: [json.dumps(t) for t in e.absolute_path])
    except Unresolvable as exc:
        raise Fail(f"{what} refers to {_short(str(exc.ref))!r}, which is not inside the schema (references "
                   "to URLs or other files are not followed: a verdict must not depend on them)",
                   pointer, role) from None
    if not errors:
        return [passed(f"{name} is valid under {what} (JSON Schema 2020-12)", pointer, role)]
    out = []
    for e in errors:
        at = pointer + "".join("/" + _escape(t) for t in e.absolute_path)
        where = ".".join(str(t) for t in e.absolute_path) or "(top level)"
        expected = _short(f"{e.validator}: {json.dumps(e.validator_value, default=str)}")
        out.append(failed(f"{name} is not valid under {what}: {where}: {_short(e.message)}", at, role, None,
                          expected))
    return out
