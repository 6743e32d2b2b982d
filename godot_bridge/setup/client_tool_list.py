"""Which tool list (GODOT_MCP_TOOL_LIST) ``init`` writes into each MCP client's entry.

The choice per client is data (``catalogue/clients.json`` ``tool_list``, with what was checked of
each client): ``all`` for a client whose model searches its MCP tools, ``groups`` for one that puts
every listed tool in every request. An entry several clients read (``.mcp.json``) holds one value:
``groups`` as soon as one client of the run that reads it gets ``groups``, since ``all`` would cost
that client every tool in each request, while ``groups`` costs a searching client one
discover_tools call to reach the rest.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from dataclasses import dataclass

from godot_bridge.config import TOOL_LIST_ENV, TOOL_LISTS
from godot_bridge.errors import SetupError
from godot_bridge.shipped.mcp_entry import ClientSpec
from godot_bridge.tools.catalogue import catalogue_dir

ALL, GROUPS = "all", "groups"


@dataclass(frozen=True)
class Choice:
    client: str  # the client's key (init --client)
    value: str  # "all" or "groups"
    checked: str  # what the client does that makes it the right one


class ChoiceError(SetupError, ValueError):
    """catalogue/clients.json's tool_list is missing or malformed (a broken install)."""


@functools.lru_cache(maxsize=1)
def choices() -> dict[str, Choice]:
    path = catalogue_dir() / "clients.json"
    try:
        table = json.loads(path.read_text(encoding="utf-8"))["tool_list"]
        out = {str(k): Choice(str(k), str(v["list"]), str(v["checked"])) for k, v in table.items()
               if not k.startswith("_")}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ChoiceError(f"{path}: tool_list cannot be used ({exc}); reinstall godot-bridge") from None
    bad = sorted(c.client for c in out.values() if c.value not in TOOL_LISTS)
    if bad:
        raise ChoiceError(f"{path}: tool_list of {', '.join(bad)} is not one of {', '.join(TOOL_LISTS)}")
    return out


def of(client: ClientSpec) -> str:
    """The list ``client``'s own entry gets (``groups`` for a client the table does not name: never the costly one)."""
    found = choices().get(client.name)
    return found.value if found is not None else GROUPS


def for_entry(readers: Iterable[ClientSpec]) -> str:
    """The one value an entry read by ``readers`` holds."""
    return GROUPS if any(of(c) == GROUPS for c in readers) else ALL


def why(value: str, readers: list[ClientSpec], others: list[ClientSpec]) -> str:
    """What init says of writing ``value`` into an entry ``readers`` (this run's clients) read, and
    ``others`` (clients of other runs) read too."""
    if value == ALL:
        said = f"{TOOL_LIST_ENV}=all: every tool in tools/list, for {_names(readers)}, whose model searches its tools"
        costly = [c for c in others if of(c) == GROUPS]
        if costly:
            said += (f"; {_names(costly)} would carry every tool in each request: if you use it here, add "
                     f"--client {' '.join(c.name for c in costly)} (the entry then keeps groups)")
        return said
    heavy = [c for c in readers if of(c) == GROUPS]
    said = (f"{TOOL_LIST_ENV}=groups: the start-up tools, the rest behind discover_tools, as {_names(heavy)} "
            "puts every listed tool in each request")
    searching = [c for c in readers if of(c) == ALL]
    if searching:
        said += f" ({_names(searching)} reach the rest through discover_tools)"
    return said


def _names(clients: list[ClientSpec]) -> str:
    labels = [c.label for c in clients]
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]
