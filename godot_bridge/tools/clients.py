"""What particular MCP clients do that the protocol does not say, and how a call survives it.

The facts are data (``catalogue/clients.json``), each with the client that does it:

* ``injected_arguments``: arguments a client adds to every call on its own (Gemini CLI adds
  ``wait_for_previous`` to each tool's schema and passes the model's value on). They are
  dropped before validation, unless the tool itself declares a parameter of that name; any
  other unknown argument is still refused with the closest-name hint.
* ``never_relist``: clients (by ``clientInfo.name``) whose model does not get the new list in the turn
  that loaded it (no re-list, or one the running turn ignores), so ``discover_tools`` does not wait.
* ``relist_after_answer``: clients that fetch the new list only once the call that changed it was
  answered, still before the model's next request: ``discover_tools`` does not wait for them either,
  and says to call the loaded tools directly.
* ``tool_name_prefixes``: how each client names a server's tools for its model (``mcp__<key>__``,
  ...). A model may copy such a name into ``call_tool``; only these prefixes, with our own server
  key, are taken off it (``tools/names.py``).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from godot_bridge.tools.catalogue import catalogue_dir


@dataclass(frozen=True)
class ClientFacts:
    injected_arguments: dict[str, str]  # argument -> the client that adds it, and how
    never_relist: dict[str, str]  # clientInfo.name -> the client, and why
    relist_after_answer: dict[str, str]  # clientInfo.name -> the client, and when it re-lists
    tool_name_prefixes: dict[str, str]  # a prefix with {key} / {key_} -> the clients that use it


@functools.lru_cache(maxsize=1)
def facts() -> ClientFacts:
    raw = json.loads((catalogue_dir() / "clients.json").read_text(encoding="utf-8"))
    prefixes = {k: v for k, v in raw["tool_name_prefixes"].items() if not k.startswith("_")}
    return ClientFacts(dict(raw["injected_arguments"]), dict(raw["never_relist"]), dict(raw["relist_after_answer"]),
                       prefixes)


_NOT_NAME_CHAR = re.compile(r"[^A-Za-z0-9_]")


def tool_name_prefixes(keys: Iterable[str]) -> tuple[str, ...]:
    """Every prefix a client puts before our tools' names, for each server key ``keys`` (longest first)."""
    found = {template.replace("{key}", key).replace("{key_}", _NOT_NAME_CHAR.sub("_", key))
             for template in facts().tool_name_prefixes for key in keys if key}
    return tuple(sorted(found, key=lambda prefix: (-len(prefix), prefix)))


def drop_injected(arguments: Any, schema: dict[str, Any]) -> Any:
    """``arguments`` without what a client injects that this tool's schema does not declare."""
    if not isinstance(arguments, dict):
        return arguments
    declared = schema.get("properties")
    declared = declared if isinstance(declared, dict) else {}
    injected = facts().injected_arguments
    if not any(key in injected and key not in declared for key in arguments):
        return arguments
    return {k: v for k, v in arguments.items() if k not in injected or k in declared}


def _named(client: str | None, table: dict[str, str]) -> bool:
    """``client`` is in ``table``: by its name, or a name ending in ``*`` it starts with."""
    if client is None:
        return False
    return any(client == name or (name.endswith("*") and client.startswith(name[:-1])) for name in table)


def relists(client: str | None) -> bool:
    """False for a client known never to fetch tools/list again after a change; True otherwise."""
    return not _named(client, facts().never_relist)


def relists_after_answer(client: str | None) -> bool:
    """A client known to fetch the new list once the call is answered (not while it waits)."""
    return _named(client, facts().relist_after_answer)
