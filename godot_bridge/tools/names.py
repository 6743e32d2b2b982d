"""What a tool name someone wrote stands for: the tool itself, a client's prefixed form of it, or
nothing, with the closest tool to suggest.

A model may copy into ``call_tool`` the name its client showed it (``mcp__godot-mcp-toolkit__x``).
Only the prefixes clients really use (``catalogue/clients.json``), with the key our server has in
the client's file, are taken off: a name is never read as "whatever tool it ends with", which would
make ``../scene_get_tree`` or ``script_read_execute_code`` (that is ``execute_code``) callable.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Sequence

from godot_bridge.tools.clients import tool_name_prefixes


def own_name(name: str, is_tool: Callable[[str], bool], keys: Iterable[str]) -> str:
    """The tool ``name`` stands for: itself, or the tool after one of the clients' prefixes for the
    server keys ``keys``; else ``name`` unchanged (the caller answers it as unknown)."""
    if is_tool(name):
        return name
    for prefix in tool_name_prefixes(keys):
        if name.startswith(prefix) and is_tool(name[len(prefix):]):
            return name[len(prefix):]
    return name


def closest(name: str, known: Sequence[str]) -> str | None:
    """The known name to suggest for ``name``: the same name in another case, else the longest known
    name it ends with (a prefix someone added), else the closest spelling; None when nothing is close."""
    folded = name.lower()
    same = [k for k in known if k.lower() == folded]
    if same:
        return same[0]
    tails = [k for k in known if name.endswith(k)]
    if tails:
        return max(tails, key=len)
    guess = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return guess[0] if guess else None
