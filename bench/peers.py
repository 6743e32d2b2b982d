"""The other Godot MCP servers, as the context-cost benchmark starts them: without an editor.

Installed, pinned, by ``bench/install_peers.sh`` under ``bench/.peers/``. Each is started over
stdio with an empty temporary project as its working directory and no editor to find, sent
``initialize`` and ``tools/list``, and measured as ours is: the compact JSON of its ``tools``
array (``bench.run.compact_bytes``), the figure every client pays before it sends anything.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from godot_bridge.tools.answer_budget import text_size

ROOT = Path(__file__).resolve().parent.parent
PEERS_DIR = ROOT / "bench" / ".peers"
INSTALL = "bench/install_peers.sh"
HANDSHAKE = {"protocolVersion": "2025-06-18", "capabilities": {},
             "clientInfo": {"name": "godot-bridge-bench", "version": "1"}}


@dataclass(frozen=True)
class Peer:
    name: str  # as its registry knows it
    registry: str  # "npm" or "pypi"
    version: str
    folder: str  # under bench/.peers/
    entry: str  # npm: the script under node_modules; pypi: the command in the venv's bin/

    def argv(self) -> list[str]:
        base = PEERS_DIR / self.folder
        if self.registry == "npm":
            return [str(base / "node_modules" / "node" / "bin" / "node"),
                    str(base / "node_modules" / self.name / self.entry)]
        return [str(base / "bin" / self.entry)]

    def installed(self) -> bool:
        return all(Path(part).exists() for part in self.argv())


REFERENCE = Peer("@npgamedev/godot-mcp-server", "npm", "1.0.2", "npm-_npgamedev_godot-mcp-server", "dist/index.js")
PEERS = (
    Peer("@satelliteoflove/godot-mcp", "npm", "4.1.11", "npm-_satelliteoflove_godot-mcp", "dist/cli.js"),
    Peer("gopeak", "npm", "2.3.8", "npm-gopeak", "build/cli.js"),
    Peer("godot-editor-mcp", "pypi", "2026.10.20.1", "pypi-godot-editor-mcp", "godot-editor-mcp"),
    Peer("godot-ai", "pypi", "4.3.1", "pypi-godot-ai", "godot-ai"),
)


async def _exchange(argv: list[str], cwd: Path, env: dict[str, str], timeout: float) -> list[dict[str, Any]]:
    proc = await asyncio.create_subprocess_exec(*argv, cwd=str(cwd), env=env, stdin=asyncio.subprocess.PIPE,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
                                                limit=64 * 1024 * 1024)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for message in ({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HANDSHAKE},
                        {"jsonrpc": "2.0", "method": "notifications/initialized"},
                        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}):
            proc.stdin.write(json.dumps(message).encode() + b"\n")
        await proc.stdin.drain()

        async def answer() -> list[dict[str, Any]]:
            while line := await proc.stdout.readline():  # type: ignore[union-attr]
                try:
                    message = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a server that prints a banner on stdout: not our business here
                if isinstance(message, dict) and message.get("id") == 2:
                    return list(message["result"]["tools"])
            raise RuntimeError("it closed stdout before answering tools/list")

        return await asyncio.wait_for(answer(), timeout)
    finally:
        if proc.returncode is None:
            proc.stdin.close()
            try:
                await asyncio.wait_for(proc.wait(), 5)
            except TimeoutError:
                proc.kill()
                await proc.wait()


async def measure(peer: Peer, timeout: float = 60.0) -> dict[str, Any]:
    """``{"tools": N, "bytes": B}`` of ``peer``'s tools/list, or ``{"error": why}``."""
    if not peer.installed():
        return {"error": f"not installed: run {INSTALL}"}
    folder = Path(tempfile.mkdtemp(prefix="bench-peer-"))
    try:
        (folder / "project.godot").write_text("config_version=5\n", encoding="utf-8")
        home = folder / "home"
        home.mkdir()
        env = {"PATH": os.environ.get("PATH", ""), "HOME": str(home), "LANG": "C.UTF-8",
               "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config")}
        tools = await _exchange(peer.argv(), folder, env, timeout)
        return {"tools": len(tools), "bytes": text_size(tools)}
    except (OSError, RuntimeError, TimeoutError, KeyError) as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def measure_all() -> dict[str, dict[str, Any]]:
    out = {}
    for peer in PEERS:
        out[f"{peer.name}@{peer.version}"] = await measure(peer)
    return out


if __name__ == "__main__":
    print(json.dumps(asyncio.run(measure_all()), indent=2))
