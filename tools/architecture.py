"""Import-linter contracts for the shape of the package, beside its import layers.

``lint-imports`` (configured in ``.importlinter``) loads these from the repository root:

* ``unique_names``: no module name appears twice anywhere in the package, so a name such as
  ``commands`` or ``ledger`` always means one file (a package counts by its folder name);
* ``top_level``: at most ``limit`` modules sit directly in the package, so new code goes into
  the family it belongs to.
"""

from __future__ import annotations

import importlib.util
from collections import defaultdict

from grimp import ImportGraph
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck


def _modules(graph: ImportGraph, package: str) -> list[str]:
    return sorted(m for m in graph.modules if m == package or m.startswith(package + "."))


def _is_package(module: str) -> bool:
    spec = importlib.util.find_spec(module)
    return spec is not None and spec.submodule_search_locations is not None


class UniqueModuleNames(Contract):
    """Every module and subpackage of ``package`` has a last name of its own."""

    type_name = "unique_names"
    package = fields.StringField()

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        by_name: dict[str, list[str]] = defaultdict(list)
        for module in _modules(graph, str(self.package)):
            if module == str(self.package):
                continue
            by_name[module.rsplit(".", 1)[-1]].append(module)
        twins = {name: found for name, found in by_name.items()
                 if len(found) > 1 and name not in ("__init__", "__main__")}
        return ContractCheck(kept=not twins, metadata={"twins": twins})

    def render_broken_contract(self, check: ContractCheck) -> None:
        from importlinter.application import output

        for name, found in sorted(check.metadata["twins"].items()):
            output.print_error(f"{name}: {', '.join(found)}")


class TopLevelModules(Contract):
    """At most ``limit`` plain modules directly in ``package`` (subpackages do not count)."""

    type_name = "top_level"
    package = fields.StringField()
    limit = fields.IntegerField()

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        package = str(self.package)
        top = [m for m in _modules(graph, package)
               if m.count(".") == package.count(".") + 1 and not _is_package(m)]
        return ContractCheck(kept=len(top) <= int(self.limit), metadata={"top": top})

    def render_broken_contract(self, check: ContractCheck) -> None:
        from importlinter.application import output

        top = check.metadata["top"]
        output.print_error(f"{len(top)} modules at the top (limit {self.limit}): {', '.join(top)}")
