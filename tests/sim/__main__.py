"""Run the toolkit simulator as its own process.

    python -m tests.sim --data-home DIR --project PATH [--godot-version 4.4.1] [--instant]
                        [--script FILE.json] [--port N] [--headless] [--no-game]

It writes the registry under DIR (give the bridge XDG_DATA_HOME=DIR on Linux,
APPDATA=DIR on Windows), then prints ONE JSON line on stdout:

    {"port", "token", "token_path", "registry_path", "data_home", "project", "key", "pid"}

and serves until SIGTERM/SIGINT or a {"cmd": "stop"} control line. Control lines
(JSON, one per line on stdin; each answered by one JSON line on stdout):

    {"cmd": "script", "method": M, "steps": [...], "times": 1}
    {"cmd": "push", "message": {...}, "channel": "editor"|"runtime"}   a raw frame to every authed peer
    {"cmd": "notify", "name": N, "params": {...}, "channel": "editor"|"runtime"}   a toolkit event
    {"cmd": "crash_game", "exit_code": 11, "last_lines": [...], "log_path": ""}
    {"cmd": "received"}                      -> {"ok": true, "received": [frames...]}
    {"cmd": "restart", "port": 0, "new_token": false}  -> {"ok": true, "port": N}
    {"cmd": "kill"}                           drop every connection
    {"cmd": "start_game"} / {"cmd": "stop_game"}
    {"cmd": "publish", "fields": {...}}       rewrite the registry entry with overrides
    {"cmd": "stop"}

--script FILE holds {method: [steps...]} (each used once) or {method: {"steps": [...], "times": N|null}}.
End of stdin is not a stop: a parent that gives no stdin still controls the process by signal.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import signal
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from tests.sim.server import ToolkitSim


def _parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m tests.sim", description="godot_mcp_toolkit simulator")
    p.add_argument("--data-home", help="registry root (the bridge's XDG_DATA_HOME); a temp dir if omitted")
    p.add_argument("--project", help="project path published in the registry; <data-home>/project if omitted")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--godot-version", default="4.4.1")
    p.add_argument("--plugin-version", default="0.1.0")
    p.add_argument("--headless", action="store_true")
    p.add_argument("--instant", action="store_true", help="echo success at once, record nothing (benchmarks)")
    p.add_argument("--script", help="JSON file of scripted replies")
    p.add_argument("--no-game", action="store_true", help="no game is played: game.start/stop answer their recorded examples")
    p.add_argument("--token", help="fixed token instead of a random one")
    p.add_argument("--auth-timeout", type=float, default=2.0)
    p.add_argument("--ws-buffer-kb", type=int, help="the editor's WebSocket buffer (KiB) as if set in the project; "
                   "default 1024, as the toolkit's")
    p.add_argument("-v", "--verbose", action="store_true")
    return p.parse_args(argv)


def _emit(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def _load_script(sim: ToolkitSim, path: str) -> None:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    for method, spec in data.items():
        if isinstance(spec, list):
            sim.script(method, *spec, times=1)
        else:
            sim.script(method, *spec["steps"], times=spec.get("times", 1))


def _server(sim: ToolkitSim, cmd: dict[str, Any]) -> ToolkitSim:
    """The editor's server, or the running game's (``"channel": "runtime"``)."""
    channel = cmd.get("channel", "editor")
    if channel == "editor":
        return sim
    if channel != "runtime":
        raise ValueError(f"channel must be 'editor' or 'runtime', not {channel!r}")
    if sim.runtime is None:
        raise RuntimeError("no game is running (send start_game first)")
    return sim.runtime


async def _control(sim: ToolkitSim, line: str, stop: asyncio.Event) -> dict[str, Any]:
    cmd = json.loads(line)
    name = cmd.get("cmd")
    if name == "script":
        sim.script(cmd["method"], *cmd["steps"], times=cmd.get("times", 1))
    elif name == "push":
        await _server(sim, cmd).push(cmd["message"])
    elif name == "notify":
        await _server(sim, cmd).notify(cmd["name"], cmd.get("params"))
    elif name == "crash_game":
        await sim.crash_game(exit_code=cmd.get("exit_code"), last_lines=cmd.get("last_lines"),
                             log_path=cmd.get("log_path", ""))
    elif name == "received":
        return {"ok": True, "received": [r.frame for r in sim.received]}
    elif name == "restart":
        port = await sim.restart(int(cmd.get("port", 0)), new_token=bool(cmd.get("new_token")))
        return {"ok": True, "port": port, "token": sim.token}
    elif name == "kill":
        sim.kill_connections()
    elif name == "start_game":
        runtime = await sim.start_game()
        return {"ok": True, "runtime_port": runtime.port}
    elif name == "stop_game":
        await sim.stop_game()
    elif name == "publish":
        return {"ok": True, "entry": sim.publish(**cmd.get("fields", {}))}
    elif name == "stop":
        stop.set()
    else:
        return {"ok": False, "error": f"unknown cmd {name!r}"}
    return {"ok": True}


async def _main(args: argparse.Namespace) -> int:
    data_home = Path(args.data_home or tempfile.mkdtemp(prefix="godot-sim-"))
    project = args.project or str(data_home / "project")
    sim = ToolkitSim(
        data_home,
        project,
        godot_version=args.godot_version,
        plugin_version=args.plugin_version,
        headless=args.headless,
        token=args.token,
        auth_timeout=args.auth_timeout,
        instant=args.instant,
        game=not args.no_game,
    )
    if args.ws_buffer_kb is not None:
        sim.limits["ws_buffer_kb"] = args.ws_buffer_kb  # a project setting: every connection gets it
    if args.script:
        _load_script(sim, args.script)
    await sim.start(args.port)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # Windows: Ctrl-C still raises KeyboardInterrupt
            pass
    lines: asyncio.Queue[str] = asyncio.Queue()

    def read_stdin() -> None:
        # A daemon thread, so a parent that keeps stdin open never blocks our exit.
        for line in sys.stdin:
            loop.call_soon_threadsafe(lines.put_nowait, line)

    threading.Thread(target=read_stdin, daemon=True, name="sim-stdin").start()
    _emit(
        {
            "port": sim.port,
            "token": sim.token,
            "token_path": str(sim.token_path),
            "registry_path": str(sim.registry.path),
            "data_home": str(data_home),
            "project": project,
            "key": sim.key,
            "pid": os.getpid(),
        }
    )
    stopper = asyncio.create_task(stop.wait())
    try:
        while not stop.is_set():
            getter = asyncio.create_task(lines.get())
            done, _ = await asyncio.wait({getter, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if getter not in done:
                getter.cancel()
                break
            line = getter.result().strip()
            if not line:
                continue
            try:
                _emit(await _control(sim, line, stop))
            except Exception as exc:  # a bad control line must not take the simulator down
                _emit({"ok": False, "error": f"{type(exc).__name__}: {exc}"})
    finally:
        stopper.cancel()
        await sim.stop()
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING, stream=sys.stderr)
    try:
        return asyncio.run(_main(args))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
