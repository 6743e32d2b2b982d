"""Where is this project's GDScript language server? (contracts C16, C19)

Three tiers, first match wins:

1. pinned: ``--lsp-port``/``--lsp-host`` or ``GODOT_MCP_LSP_PORT``/``HOST``
   (already folded into ``Settings``); trusted as given.
2. registry: this project's entry publishes ``lsp_host``/``lsp_port``. Godot binds
   the port first-come, so when several editors claim the same port only the one
   that started earliest really owns it. We connect only if no *live* rival
   started at or before us; a tie refuses both sides rather than risk reading
   another project's answers.
3. default 127.0.0.1:6005, but only when no live editor (of another project)
   claims 6005 - otherwise that editor would answer for the wrong project.

"Live" means the entry's pid exists *and* its editor WebSocket port accepts a TCP
connection: pids get reused, and the registry keeps stale entries (no PID-GC).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from godot_bridge.config import Settings
from godot_bridge.editor.registry import RegistryEntry, is_pid_alive, project_key, read_registry, tcp_accepts
from godot_bridge.tools.toolkit_consts import toolkit_int

DEFAULT_HOST = "127.0.0.1"
# Godot's default language server port, as the toolkit publishes it when the editor setting is unset.
DEFAULT_PORT = toolkit_int("paths/lsp_publisher.gd", "DEFAULT_PORT")
_LOOPBACK = {"", "127.0.0.1", "localhost", "::1", "0.0.0.0", "::"}

PortProbe = Callable[[str, int, float], Awaitable[bool]]


@dataclass(frozen=True)
class Resolution:
    """Outcome of endpoint resolution. ``refusal`` None = go ahead and connect."""

    host: str
    port: int
    source: str  # "pinned" | "registry" | "default"
    refusal: str | None = None  # "conflict" | "unavailable"
    detail: str = ""


def _same_host(a: str | None, b: str | None) -> bool:
    # Loopback spellings and wildcard binds all collide on one port of this machine.
    a_norm, b_norm = (a or "").lower(), (b or "").lower()
    return a_norm == b_norm or a_norm in _LOOPBACK or b_norm in _LOOPBACK


def _start_key(entry: RegistryEntry) -> float:
    # An entry that does not say when it started cannot prove it came first.
    return entry.started_at if entry.started_at is not None else math.inf


async def _live(entry: RegistryEntry, probe: PortProbe, timeout: float) -> bool:
    if not is_pid_alive(entry.pid) or entry.port is None:
        return False
    return await probe(DEFAULT_HOST, entry.port, timeout)


async def _live_claimants(
    entries: list[RegistryEntry], host: str, port: int, probe: PortProbe, timeout: float
) -> list[RegistryEntry]:
    claimants = [e for e in entries if e.lsp_port == port and _same_host(e.lsp_host, host)]
    alive = await asyncio.gather(*(_live(e, probe, timeout) for e in claimants))
    return [e for e, ok in zip(claimants, alive) if ok]


def _describe(entry: RegistryEntry) -> str:
    return f"{entry.key} (pid {entry.pid})"


async def resolve_endpoint(
    settings: Settings,
    *,
    registry_file: Path | None = None,
    probe: PortProbe = tcp_accepts,
    probe_timeout: float = 0.5,
) -> Resolution:
    if settings.lsp_port is not None:
        return Resolution(settings.lsp_host or DEFAULT_HOST, settings.lsp_port, "pinned")

    entries = read_registry(registry_file)
    my_key = project_key(settings.project_path)
    mine = entries.get(my_key)
    others = [e for k, e in entries.items() if k != my_key]

    if mine is not None and mine.lsp_port is not None:
        host = settings.lsp_host or mine.lsp_host or DEFAULT_HOST
        port = mine.lsp_port
        rivals = await _live_claimants(others, host, port, probe, probe_timeout)
        earlier = [e for e in rivals if _start_key(e) <= _start_key(mine)]
        if earlier:
            owner = min(earlier, key=_start_key)
            return Resolution(
                host,
                port,
                "registry",
                "conflict",
                f"port {port} is also claimed by the editor of {_describe(owner)}, which started first "
                "and so owns it",
            )
        return Resolution(host, port, "registry")

    host = settings.lsp_host or DEFAULT_HOST
    claimants = await _live_claimants(others, host, DEFAULT_PORT, probe, probe_timeout)
    if claimants:
        names = ", ".join(_describe(e) for e in claimants)
        why = "has no registry entry" if mine is None else "published no language-server port"
        return Resolution(
            host,
            DEFAULT_PORT,
            "default",
            "unavailable",
            f"this project's editor {why}, and port {DEFAULT_PORT} belongs to the editor of {names}",
        )
    return Resolution(host, DEFAULT_PORT, "default")
