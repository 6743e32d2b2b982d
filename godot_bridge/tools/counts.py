"""How many tools, groups and operations the catalogue holds, each counted once, here.

``godot-bridge --tools-count``, docs/tools.md (scripts/gen_tools_doc.py), the counts written in the
README and docs/ (scripts/gen_counts_doc.py) and ``--help``'s GODOT_MCP_READ_ONLY line all read
them, so a count cannot say one thing in one place and another elsewhere.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from godot_bridge.tools.catalogue import Catalogue
from godot_bridge.tools.surface import shown_in_read_only


@dataclass(frozen=True)
class Counts:
    tools: int  # every tool the bridge can serve: always-on, meta and on-demand
    always_on: int  # in tools/list from the start: the eager tools and the meta tools
    eager: int  # always-on catalogue tools, the meta tools not among them
    meta: int  # discover_tools and its kind: always on, about the tool list itself
    on_demand: int  # in the groups discover_tools loads
    groups: int
    operations: int  # distinct operations of the built-in tools (an action enum counts each value)
    read_only_at_start: int  # what GODOT_MCP_READ_ONLY leaves in tools/list at first
    read_only_in_all: int  # ... and with every group loaded

    @property
    def total(self) -> int:
        """``--tools-count``'s Total, in the reference's sense: eager + on-demand (the meta tools apart)."""
        return self.eager + self.on_demand

    def by_name(self) -> dict[str, int]:
        """Every count by the name docs refer to it by (``<!-- count: NAME -->``)."""
        return {**asdict(self), "total": self.total}


def count(catalogue: Catalogue) -> Counts:
    tools = list(catalogue.tools.values())
    readable = [t for t in tools if shown_in_read_only(t)]
    return Counts(
        tools=len(tools),
        always_on=sum(1 for t in tools if t.always_on),
        eager=len(catalogue.eager_tools()),
        meta=len(catalogue.meta_tools()),
        on_demand=len(catalogue.on_demand_tools()),
        groups=len(catalogue.groups),
        operations=catalogue.operations_count(),
        read_only_at_start=sum(1 for t in readable if t.always_on),
        read_only_in_all=len(readable),
    )
