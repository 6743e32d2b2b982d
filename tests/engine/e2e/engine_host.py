"""Start the real toolkit in a real Godot engine (tests/godot/e2e/host) behind the relay, for the
end-to-end tests.

``EngineHost`` builds a throwaway project (tests/godot/e2e/project, the toolkit's addons copied in
as a user installs them, the example extension in ``res://mcp_extensions/``, and the files of real
public projects from tests/fixtures/projects under ``res://outside/<project>/``, their ``res://``
paths moved with them; their uids are theirs), starts the relay and
the engine (the Godot 4.6 web engine in headless Chromium, or a native ``godot``), and writes what
the toolkit publishes where the plugin would write it: the token file and the registry entry (and
the game's overlay while a game runs) under its own data home, never the machine's. ``stop()``
ends the engine and the relay and removes the folders.
"""

from __future__ import annotations

import base64
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from godot_bridge.safety import private_files
from tests.support.bridge_process import bridge_env
from tests.engine.e2e import fixture_projects
from tests.engine.e2e.fixture_projects import FixtureProject
from tests.engine.e2e.relay import Relay
from tests.support.gd_engine import REPO, WEB, Engine, find_engine, prepare
from tests.sim.registry import SimRegistry, canonical_key

HOST_DIR = REPO / "tests" / "godot" / "e2e" / "host"
PROJECT_DIR = REPO / "tests" / "godot" / "e2e" / "project"
EXTENSION = REPO / "addons" / "godot_mcp_toolkit" / "examples" / "mcp_extensions" / "word_tools_extension.gd"
OUTSIDE = REPO / "tests" / "fixtures" / "projects"
OUTSIDE_ROOT = "res://outside"
_TEXT_FILES = (".tscn", ".tres", ".gd")
HOST_SCRIPT = "res://e2e_host/host.gd"
EDITED_SCENE = "res://scenes/main.tscn"
GAME_SCENE = "res://scenes/game.tscn"
TOKEN_SUFFIX = "addons/godot_mcp_toolkit/"
START_TIMEOUT = 90.0
RUN_TIMEOUT = 3600  # the engine's own limit; the fixture stops it long before


def outside_path(project: str, path: str) -> str:
    """Where a real project's ``res://`` path lives in the host project."""
    return f"{OUTSIDE_ROOT}/{project}/{path[len('res://'):]}"


def copy_outside(into: Path) -> None:
    """Each real project of tests/fixtures/projects into ``into/<project>/``, every ``"res://`` of its
    text files moved along (uids are left as they are: each file keeps its own). Projects with stand-ins
    for their assets are installed by ``fixture_projects`` instead: a second copy of a project would
    declare each of its ``class_name``s twice, which fails the game's compile check."""
    installed = {project.source for project in fixture_projects.fixture_projects()}
    for source in sorted(p for p in OUTSIDE.iterdir() if p.is_dir() and p not in installed):
        # Not their project.godot: the host project has its own (and one project.godot per project).
        for file in sorted(f for f in source.rglob("*") if f.is_file() and f.name != "project.godot"):
            target = into / source.name / file.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            if file.suffix in _TEXT_FILES:
                text = file.read_text(encoding="utf-8")
                target.write_text(text.replace('"res://', f'"{outside_path(source.name, "res://")}'), encoding="utf-8")
            else:
                shutil.copy(file, target)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Published:
    """What the toolkit published, as the test wrote it on this machine."""

    registered: threading.Event = field(default_factory=threading.Event)
    runtime: threading.Event = field(default_factory=threading.Event)
    token: str = ""
    godot_version: str = ""
    runtime_port: int | None = None
    events: list[dict[str, Any]] = field(default_factory=list)


class EngineHost:
    """The engine host and its relay; ``start()`` returns once the toolkit is published."""

    def __init__(self, engine: Engine | None = None) -> None:
        self.engine = engine or find_engine()
        self.root = Path(tempfile.mkdtemp(prefix="e2e-host-")).resolve()
        self.project = self.root / "project"
        self.data_home = self.root / "data"
        self.editor_port = free_port()
        self.runtime_port = free_port()
        self.key = canonical_key(str(self.project))
        self.registry = SimRegistry(self.data_home)
        self.published = Published()
        self.relay = Relay(self._on_event)
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = self.root / "engine.log"
        self._log = None
        self.fixtures: list[FixtureProject] = []

    # -- lifecycle ------------------------------------------------------------------------------

    def start(self) -> EngineHost:
        try:
            self._build_project()
            prepare(self.engine, self.project)  # a native engine's class cache (the extension's base class)
            self.relay.start()
            self._log = open(self.log_path, "wb")  # noqa: SIM115 (closed in stop)
            self.proc = subprocess.Popen(self._command(), stdin=subprocess.DEVNULL, stdout=self._log,
                                         stderr=subprocess.STDOUT, cwd=str(REPO))
            deadline = time.monotonic() + START_TIMEOUT
            while not self.published.registered.wait(0.2):
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the engine host did not publish the toolkit:\n{self.log_tail()}")
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            try:
                self.relay.request("quit").result(5)
            except Exception:
                pass
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                # run_gd.py ends its browser's process group on SIGINT; SIGKILL would orphan it.
                self.proc.send_signal(signal.SIGINT)
                try:
                    self.proc.wait(15)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait(5)
        self.relay.stop()
        if self._log is not None:
            self._log.close()
            self._log = None
        shutil.rmtree(self.root, ignore_errors=True)

    def log_tail(self, size: int = 6000) -> str:
        try:
            return self.log_path.read_bytes()[-size:].decode(errors="replace")
        except OSError:
            return ""

    def _command(self) -> list[str]:
        user_args = [f"--relay={self.relay.url}", f"--editor-port={self.editor_port}",
                     f"--runtime-port={self.runtime_port}", f"--scene={EDITED_SCENE}"]
        if self.engine.kind == "native":
            return [*self.engine.command, "--headless", "--path", str(self.project), "--script", HOST_SCRIPT,
                    "--", *user_args]
        # --autoloads: the fixture projects' scripts name their autoloads (native --script loads them).
        return [sys.executable, str(WEB / "run_gd.py"), str(self.project), HOST_SCRIPT, "--timeout",
                str(RUN_TIMEOUT), "--quiet", "--autoloads", "--", "--", *user_args]

    def _build_project(self) -> None:
        shutil.copytree(PROJECT_DIR, self.project)
        shutil.copytree(REPO / "addons", self.project / "addons",
                        ignore=shutil.ignore_patterns("examples", "__pycache__"))
        (self.project / "e2e_host").symlink_to(HOST_DIR)
        (self.project / "mcp_extensions").mkdir()
        shutil.copy(EXTENSION, self.project / "mcp_extensions" / EXTENSION.name)
        copy_outside(self.project / OUTSIDE_ROOT[len("res://"):])
        self.fixtures = fixture_projects.install(self.project)
        self.data_home.mkdir()

    # -- what the toolkit publishes (called on the relay's thread) -------------------------------

    def token_file(self, reported: str) -> Path:
        """Where the plugin's token file lands on this machine: the same instance folder under a
        user data dir of our own (the bridge checks the shape, never the hash)."""
        suffix = reported[reported.index(TOKEN_SUFFIX):]
        return self.data_home / "godot" / "app_userdata" / "godot-bridge e2e" / suffix

    def _on_event(self, event: dict[str, Any]) -> None:
        self.published.events.append(event)
        kind = event.get("event")
        assert self.proc is not None
        if kind == "register":
            token_path = self.token_file(str(event["token_path"]))
            # As the plugin writes it (security/auth.gd): 0700 folder, 0600 file from the first byte.
            token_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            with private_files.open_private(token_path) as file:
                file.write(str(event["token"]).encode("utf-8"))
            self.published.token = str(event["token"])
            self.published.godot_version = str(event["godot_version"])
            self.registry.write_entry(self.key, {
                "_key": self.key, "port": int(event["port"]), "token_path": str(token_path),
                "pid": self.proc.pid, "started_at": time.time(), "godot_version": event["godot_version"],
                "runtime_port": None, "runtime_pid": None, "lsp_host": event["lsp_host"],
                "lsp_port": event["lsp_port"],
            })
            self.published.registered.set()
        elif kind == "update_lsp_endpoint":
            self.registry.update(self.key, lsp_host=event["lsp_host"], lsp_port=event["lsp_port"])
        elif kind == "set_runtime":
            self.published.runtime_port = int(event["port"])
            self.registry.write_overlay(self.key, {
                "_key": self.key, "runtime_port": int(event["port"]), "runtime_pid": self.proc.pid,
                "started_at": time.time(), "godot_version": self.published.godot_version,
            })
            self.published.runtime.set()
        elif kind == "clear_runtime":
            self.published.runtime_port = None
            self.published.runtime.clear()
            self.registry.remove_overlay(self.key)
        elif kind == "unregister":
            self.registry.remove_entry(self.key)

    # -- test hooks: what the editor's user does, and the engine's disk --------------------------

    async def undo(self) -> bool:
        return bool((await self.relay.ask("undo"))["ok"])

    async def redo(self) -> bool:
        return bool((await self.relay.ask("redo"))["ok"])

    async def user_edit(self, node: str, prop: str, value: Any) -> bool:
        """The user sets a property in the editor: an action of their own on the scene's history."""
        return bool((await self.relay.ask("user_edit", node=node, property=prop, value=value))["ok"])

    async def press_play(self, scene: str = GAME_SCENE) -> int:
        """The user presses Play in the editor; the engine's error code (0 = OK)."""
        return int((await self.relay.ask("play", path=scene))["error"])

    async def press_stop(self) -> None:
        await self.relay.ask("stop")

    async def read_file(self, res_path: str) -> bytes | None:
        """A file of the engine's project as bytes; None when there is no file there."""
        reply = await self.relay.ask("read_file", path=res_path)
        return base64.b64decode(reply["base64"]) if reply.get("kind") == "file" else None

    async def path_kind(self, res_path: str) -> str | None:
        """"file", "dir", or None when nothing is at that path in the engine's project."""
        kind = (await self.relay.ask("read_file", path=res_path)).get("kind")
        return str(kind) if kind else None

    async def write_file(self, res_path: str, data: bytes) -> None:
        """Put a file into the engine's project (folders made as needed)."""
        assert (await self.relay.ask("write_file", path=res_path, base64=base64.b64encode(data).decode()))["ok"]

    async def remove_file(self, res_path: str) -> None:
        await self.relay.ask("remove_file", path=res_path)

    async def load_settings(self, res_path: str, section: str) -> None:
        """Every key of ``section`` of the project.godot at ``res_path`` into the engine's settings
        (in memory, as that project's editor holds them); ``restore_settings`` puts the old ones back."""
        assert (await self.relay.ask("load_settings", path=res_path, section=section))["ok"], res_path

    async def restore_settings(self) -> None:
        await self.relay.ask("restore_settings")

    async def process_plan(self, polls: int, exit_code: int = 0, report: str = "") -> None:
        """What the next test process the toolkit starts does (frames it runs, -1 = until killed)."""
        await self.relay.ask("process_plan", plan={"polls": polls, "exit_code": exit_code, "report": report})

    async def processes(self) -> tuple[int, list[int]]:
        """(test processes started so far, the pids killed), as the engine's process table saw them."""
        reply = await self.relay.ask("processes")
        return int(reply["started"]), [int(pid) for pid in reply["killed"]]

    def bridge_env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        """The bridge's environment: this project and data home, nothing of the developer's."""
        return bridge_env(self.data_home, self.project, extra)
