"""The schema of profile and policy files, as pydantic models.

These models are the single source of truth for what a profile or policy file may contain;
``bench-gate schema`` prints the JSON Schema generated from them (editors use it for
completion and validation). Every model forbids unknown keys, so a misspelt ``serverity`` is an
error and never silently ignored.

A **policy** file (``policies/<name>.yaml``) is a library of rules about one concern. A
**profile** file (``profiles/<name>.yaml``, or any path) is a gate: it names the policies it
uses, may ``extends:`` other profiles, declares parameters, documents and command-line options,
and may disable rules by id.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

RULE_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
NAME = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
OPTION = re.compile(r"^--[a-z][a-z0-9-]*$")

_STRICT = ConfigDict(extra="forbid", strict=True, frozen=True)


class Condition(BaseModel):
    """When a rule applies. Exactly one form per condition object.

    * ``{param: NAME}``: the parameter is set and truthy (a flag option was given);
    * ``{document: ROLE}``: the document was supplied (from the command line or the report);
    * ``{ref: REF, exists: true}``, ``{ref: REF, equals: V}``, ``{ref: REF, in: [..]}``,
      ``{ref: REF, matches: REGEX}``: a value in a document;
    * ``{any: [..]}``, ``{all: [..]}``, ``{not: {..}}``: combinations.
    """

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, populate_by_name=True)

    param: str | None = None
    document: str | None = None
    ref: str | None = None
    exists: bool | None = None
    equals: Any = None
    in_: list[Any] | None = Field(default=None, alias="in")
    matches: str | None = None
    any: list[Condition] | None = None
    all: list[Condition] | None = None
    not_: Condition | None = Field(default=None, alias="not")

    @model_validator(mode="after")
    def _one_form(self) -> Condition:
        forms = [self.param is not None, self.document is not None, self.ref is not None,
                 self.any is not None, self.all is not None, self.not_ is not None]
        if sum(forms) != 1:
            raise ValueError("a condition has exactly one of: param, document, ref, any, all, not")
        tests = [self.exists is not None, "equals" in self.model_fields_set,
                 self.in_ is not None, self.matches is not None]
        if self.ref is not None and sum(tests) != 1:
            raise ValueError("a ref condition has exactly one of: exists, equals, in, matches")
        if self.ref is None and any(tests):
            raise ValueError("exists/equals/in/matches go with ref")
        if self.matches is not None:
            try:
                re.compile(self.matches)
            except re.error as exc:
                raise ValueError(f"matches is not a valid regular expression: {exc}") from None
        return self


class RuleSpec(BaseModel):
    """One rule: a check kind bound to parameters, with what a reader of its failure needs."""

    model_config = _STRICT

    id: str = Field(description="Unique id across the whole profile (lowercase, digits, . _ -).")
    title: str = Field(min_length=1, description="What the rule asserts, as a sentence.")
    check: str = Field(description="A registered check kind (see `bench-gate explain`).")
    with_: dict[str, Any] = Field(default_factory=dict, alias="with",
                                  description="The check kind's parameters; ${param} is replaced.")
    severity: Literal["error", "warning", "info"] = "error"
    why: str = Field(min_length=1, description="One line a reader of the failure needs.")
    when: Condition | None = None

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if not RULE_ID.match(value):
            raise ValueError(f"rule id {value!r} must match {RULE_ID.pattern}")
        return value


class PolicyFile(BaseModel):
    """A rule library: ``policies/<name>.yaml``."""

    model_config = _STRICT

    description: str = Field(min_length=1)
    rules: list[RuleSpec] = Field(min_length=1)


class ParamSpec(BaseModel):
    """A declared profile parameter (the long form; a bare scalar is the short form)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    default: Any = None
    type: Literal["boolean", "integer", "number", "string", "duration", "list", "map", "number-map"] | None = None
    help: str = ""


class DocumentSpec(BaseModel):
    """An input document a profile's rules read, by role."""

    model_config = _STRICT

    option: str | None = Field(default=None, description="A command-line alias, e.g. --baseline.")
    from_report: str | None = Field(default=None,
                                    description="JSON Pointer to a path written in the report.")
    format: Literal["json", "jsonl", "hash", "dataset", "runfolder"] = "json"
    required: bool = False
    object: bool = Field(default=True, description="The top level must be a JSON object.")
    description: str = ""

    @field_validator("option")
    @classmethod
    def _option(cls, value: str | None) -> str | None:
        if value is not None and not OPTION.match(value):
            raise ValueError(f"option {value!r} must look like --lower-case-name")
        return value


class OptionSpec(BaseModel):
    """A profile command-line option; it sets a parameter."""

    model_config = _STRICT

    param: str
    kind: Literal["flag", "string", "number", "list", "kv", "kv-number", "pem"]
    help: str = ""
    metavar: str | None = None


class ProfileFile(BaseModel):
    """A gate: ``profiles/<name>.yaml`` or a path given to ``--profile``."""

    model_config = _STRICT

    name: str
    description: str = Field(min_length=1)
    extends: str | list[str] | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    documents: dict[str, DocumentSpec] = Field(default_factory=dict)
    options: dict[str, OptionSpec] = Field(default_factory=dict)
    use: list[str] = Field(default_factory=list, description="Policy names (policies/<name>.yaml).")
    rules: list[RuleSpec] = Field(default_factory=list, description="Inline rules.")
    disable: list[str] = Field(default_factory=list, description="Rule ids reported as skip.")
    command: str | None = Field(default=None, min_length=1, description=(
        "The bench-gate command that runs this profile (e.g. `bench-gate ledger MANIFEST`): such a "
        "profile judges what its command gathers and cannot gate a report given with --profile."))

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not NAME.match(value):
            raise ValueError(f"profile name {value!r} must match {NAME.pattern}")
        return value

    @field_validator("options")
    @classmethod
    def _options(cls, value: dict[str, OptionSpec]) -> dict[str, OptionSpec]:
        for name in value:
            if not OPTION.match(name):
                raise ValueError(f"option {name!r} must look like --lower-case-name")
        return value


def json_schemas() -> dict[str, Any]:
    """The JSON Schema of profile and policy files (what ``bench-gate schema`` prints)."""
    return {
        "profile": ProfileFile.model_json_schema(by_alias=True),
        "policy": PolicyFile.model_json_schema(by_alias=True),
    }
