"""A stand-in for the Godot executable, for editor_launch / editor_restart tests.

``write_fake_godot(dir)`` writes an executable script; run as ``<script> [--headless] --editor --path P``
it starts the toolkit simulator (tests/sim) for project P under ``$XDG_DATA_HOME``, publishes
``godot_path`` (its own path) like the real toolkit, and serves until SIGTERM. With ``--headless``
its auth ack says ``headless: true``, as a toolkit in an editor without a window does. Every start is
appended as one JSON line (argv, pid) to ``$FAKE_GODOT_LOG`` so a test can check the command
line and stop every process it caused.

Behaviour switches (environment):
  FAKE_GODOT_MODE=exit       print a line and exit with code 3 (Godot failing to start)
  FAKE_GODOT_MODE=no_plugin  run without ever publishing (a project without the plugin)
  FAKE_GODOT_FROZEN_ONCE=F   if file F exists: delete it and run frozen (accepts, never acks auth)
  FAKE_GODOT_IGNORE_TERM=1   ignore SIGTERM (a hung editor that needs SIGKILL)
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import stat
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def write_fake_godot(directory: Path) -> Path:
    script = directory / "godot"
    script.write_text(
        f"#!{sys.executable}\n"
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from tests.support.fake_godot import main\n"
        "raise SystemExit(main(sys.argv))\n",
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return script


def _record(argv: list[str]) -> None:
    log = os.environ.get("FAKE_GODOT_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as f:
            f.write(json.dumps({"argv": argv, "pid": os.getpid()}) + "\n")


def _project(argv: list[str]) -> str:
    if "--editor" not in argv or "--path" not in argv:
        raise SystemExit(f"fake godot: expected --editor --path DIR, got {argv[1:]}")
    return argv[argv.index("--path") + 1]


async def _serve(argv: list[str]) -> int:
    from tests.sim.server import ToolkitSim

    project = _project(argv)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    if os.environ.get("FAKE_GODOT_IGNORE_TERM") == "1":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    else:
        loop.add_signal_handler(signal.SIGTERM, stop.set)
    if os.environ.get("FAKE_GODOT_MODE") == "no_plugin":
        await stop.wait()
        return 0
    frozen_marker = os.environ.get("FAKE_GODOT_FROZEN_ONCE", "")
    frozen = bool(frozen_marker) and Path(frozen_marker).exists()
    if frozen:
        Path(frozen_marker).unlink()
    sim = ToolkitSim(os.environ["XDG_DATA_HOME"], project, headless="--headless" in argv)
    sim.frozen = frozen
    await sim.start(publish=False)
    sim.publish(godot_path=str(Path(argv[0]).resolve()))
    print(f"fake godot: editor for {project} on port {sim.port}{' (frozen)' if frozen else ''}", flush=True)
    try:
        await stop.wait()
    finally:
        await sim.stop()
    return 0


def main(argv: list[str]) -> int:
    _record(argv)
    if os.environ.get("FAKE_GODOT_MODE") == "exit":
        print("fake godot: cannot open the project", flush=True)
        return 3
    return asyncio.run(_serve(argv))
