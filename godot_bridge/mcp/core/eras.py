"""The two MCP protocol eras, and the rules that differ between them, in one place.

* **Handshake era** (2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05): a connection starts with
  ``initialize``; the server may send requests to the client (``elicitation/create``); tasks are
  the core protocol's (``params.task``, ``tasks/result``, ``tasks/list``).
* **2026-07-28**: every request carries its own ``_meta`` envelope (version, capabilities, client)
  and is served on its own; ``initialize`` is gone; the server sends no requests (a question for
  the person travels in the answer, ``input_required``); ``server/discover`` and
  ``subscriptions/listen`` exist only here; tasks are an extension (``tasks/update``; no
  ``tasks/result`` nor ``tasks/list``).

The era is decided per request (``is_modern``), not per connection: the stdio lean path, the SDK
path (``era_router.py``) and the HTTP transport all read these rules here. The constants mirror
the SDK's (``mcp_types.version``); ``tests/unit/test_lean.py`` checks that they still agree. No SDK
import: the lean path uses this module before the SDK is loaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from godot_bridge.mcp.core.protocol import CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY, TASKS_EXTENSION

MODERN_VERSION = "2026-07-28"
MODERN_VERSIONS = frozenset({MODERN_VERSION})
# Newest first: a client whose newest is 2024-11-05 must get 2024-11-05 back, or it gives up.
HANDSHAKE_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
LATEST_HANDSHAKE = HANDSHAKE_VERSIONS[0]
# Every version this server speaks, newest first (HTTP's server card and version-header refusals).
ALL_VERSIONS: tuple[str, ...] = (*sorted(MODERN_VERSIONS, reverse=True), *HANDSHAKE_VERSIONS)

# Methods that exist only in the 2026-07-28 era: a handshake request for one is told it needs the envelope.
MODERN_ONLY_METHODS = frozenset({"server/discover", "subscriptions/listen"})
# Methods 2026-07-28 removed and this server does not keep: a request naming that era gets -32601
# for them (404 over HTTP), the SDK's answer to a method it does not know. The revision lets a
# server keep ``ping``, and real clients (the SDK's in 2026-07-28 and auto mode, FastMCP's) send
# it, so ``ping`` is answered in both eras.
REMOVED_IN_MODERN = frozenset({"initialize"})
# The tasks extension's methods 2026-07-28 does not have (``tasks/get`` carries the result and the
# state there), and the one only it has.
TASKS_REMOVED_IN_MODERN = frozenset({"tasks/result", "tasks/list"})
TASKS_MODERN_ONLY = frozenset({"tasks/update"})


def is_modern(method: str, params: Mapping[str, Any] | None) -> bool:
    """A request is 2026-07-28 when its ``_meta`` names a protocol version.

    ``initialize`` too: one that names 2026-07-28 asks for a method that era removed (-32601);
    a handshake ``initialize`` carries no such key.
    """
    if not isinstance(params, Mapping):
        return False
    meta = params.get("_meta")
    return isinstance(meta, Mapping) and PROTOCOL_VERSION_META_KEY in meta


def is_modern_version(version: str | None) -> bool:
    """Whether a negotiated (or enveloped) protocol version is of the 2026-07-28 era."""
    return version in MODERN_VERSIONS


def needs_envelope(method: str) -> str | None:
    """The -32601 message for a handshake request of a method only 2026-07-28 has (what tells a
    probing client "this is a handshake request; initialize instead"); None for any other."""
    if method in MODERN_ONLY_METHODS:
        return f"Method not found: {method} needs a 2026-07-28 _meta envelope"
    return None


def sends_server_requests(modern: bool) -> bool:
    """Whether the server may send a request to the client while serving one of this era.
    2026-07-28 never does: a question for the person travels in the answer (``input_required``)."""
    return not modern


def declares_tasks_extension(params: Mapping[str, Any] | None) -> bool:
    """Whether a 2026-07-28 request's per-request capabilities declare the MCP tasks extension."""
    meta = params.get("_meta") if isinstance(params, Mapping) else None
    capabilities = meta.get(CLIENT_CAPABILITIES_META_KEY) if isinstance(meta, Mapping) else None
    extensions = capabilities.get("extensions") if isinstance(capabilities, Mapping) else None
    return isinstance(extensions, Mapping) and isinstance(extensions.get(TASKS_EXTENSION), Mapping)


def asks_for_task(params: Mapping[str, Any], modern: bool) -> bool:
    """Whether a ``tools/call`` may become a task: ``params.task`` (2025-11-25), the extension (2026-07-28)."""
    if modern:
        return declares_tasks_extension(params)
    task = params.get("task")
    return task is not None and isinstance(task, Mapping)  # None first: an ABC check is slow
