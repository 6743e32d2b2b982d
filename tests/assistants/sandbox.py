"""The common base of the assistant tests: the installed CLIs, a simulated editor for a throwaway
project, and a sandbox to run one CLI in.

* ``install()``: ``scripts/assistants.sh`` (pinned CLIs and Node 22 into .cache/assistants), or
  ``InstallFailed`` with the reason, so the tests skip saying why.
* ``Editor``: the toolkit simulator (``python -m tests.sim``) as a process, serving one project and
  publishing it in a data home; ``control`` sends it a control line (script a reply, start a game).
* ``Sandbox``: that project and data home, and for each CLI run a fresh HOME (and XDG config, cache and
  state folders) under the test's temp folder, so nothing of the developer's home is read or written.
  The CLI's environment is built from nothing: PATH (the pinned Node first), HOME, the XDG folders,
  ``XDG_DATA_HOME`` = the editor's data home (where a user's bridge finds its editor), LANG, plus what
  the CLI module adds. ``init`` runs ``godot-bridge init`` of the bridge under test (the one beside this
  Python: scripts/test.sh installs the checkout into .venv), which writes the entry the CLI reads.
  ``run`` starts the CLI in its own process group and ends the group afterwards (the bridge it started
  included).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.assistants.model_server import SERVER_KEY, ModelRequest, ModelServer

ROOT = Path(__file__).resolve().parents[2]
INSTALL_SCRIPT = ROOT / "scripts" / "assistants.sh"
PROJECT_GODOT = 'config_version=5\n\n[application]\n\nconfig/name="Demo"\n'


class InstallFailed(RuntimeError):
    pass


def install() -> Path:
    """The folder holding node_modules/.bin/<cli>; InstallFailed with the script's last words."""
    try:
        done = subprocess.run(["bash", str(INSTALL_SCRIPT)], cwd=ROOT, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise InstallFailed(f"scripts/assistants.sh did not finish: {exc}") from None
    if done.returncode != 0:
        tail = " | ".join(done.stderr.strip().splitlines()[-3:])
        raise InstallFailed(f"scripts/assistants.sh failed ({done.returncode}): {tail}")
    return Path(done.stdout.strip().splitlines()[-1])


def install_or_skip() -> Path:
    """``install()``, or the test is skipped saying why."""
    try:
        return install()
    except InstallFailed as exc:
        pytest.skip(f"the assistant CLIs are not installed: {exc}")


def bridge_command() -> Path:
    """The godot-bridge of the Python running the tests: the installed bridge under test."""
    return Path(sys.executable).parent / "godot-bridge"


class Editor:
    """The simulator process for ``project``, publishing under ``data_home``."""

    def __init__(self, data_home: Path, project: Path, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.sim", "--data-home", str(data_home), "--project", str(project), *args],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        if not line:
            self.stop()
            raise RuntimeError("the simulator did not start (no JSON line on its stdout)")
        self.info: dict[str, Any] = json.loads(line)

    def control(self, cmd: Mapping[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def script(self, method: str, *steps: Mapping[str, Any], times: int | None = 1) -> None:
        """The next ``times`` calls of ``method`` get these steps (``{"sleep": s}``, ``{"result": ...}``, ...)."""
        answer = self.control({"cmd": "script", "method": method, "steps": list(steps), "times": times})
        assert answer.get("ok"), answer

    def received(self) -> list[dict[str, Any]]:
        """Every frame the editor received so far (the calls that reached it)."""
        return list(self.control({"cmd": "received"}).get("received", []))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream:
                stream.close()


@dataclass
class CliRun:
    """One CLI run: exit code (None: it was killed after the timeout), its output, and the model's view."""

    argv: list[str]
    exit_code: int | None
    stdout: str
    stderr: str
    seconds: float
    server: ModelServer
    home: Path
    started: float  # time.monotonic() at the start

    @property
    def requests(self) -> list[ModelRequest]:
        return self.server.main_requests()

    def describe(self) -> str:
        """What to print when an assertion fails: the ends of its output and what the model was sent."""
        at = self.server.times
        served = "\n".join(f"  +{at[s.request_index] - self.started:.1f}s {s}" for s in self.server.served)
        return (f"{' '.join(self.argv[:2])} exit {self.exit_code} in {self.seconds:.1f}s\n"
                f"stdout: {self.stdout[-1500:]}\nstderr: {self.stderr[-1500:]}\nserved:\n{served}\n"
                f"adapter errors: {self.server.errors}")


@dataclass
class Sandbox:
    """Runs live in ``root``; ``project`` and ``data_home`` are a fresh project (``create``) or an existing
    one's, such as the engine host's (tests/engine/e2e)."""

    root: Path
    clis: Path  # the install folder (node_modules/.bin/<cli>)
    project: Path
    data_home: Path
    _runs: itertools.count = field(init=False, default_factory=lambda: itertools.count(1))

    @classmethod
    def create(cls, root: Path, clis: Path, data_home: Path | None = None) -> Sandbox:
        """A throwaway project (``root/game``, its project.godot) and data home (``root/data``, unless
        given: what ``init`` may write into an entry, such as Codex's XDG_DATA_HOME, then points there)."""
        project, data_home = root / "game", data_home or root / "data"
        project.mkdir(parents=True, exist_ok=True)
        data_home.mkdir(exist_ok=True)
        (project / "project.godot").write_text(PROJECT_GODOT, encoding="utf-8")
        return cls(root, clis, project, data_home)

    def cli(self, name: str) -> Path:
        return self.clis / "node_modules" / ".bin" / name

    def env(self, home: Path) -> dict[str, str]:
        """A CLI's environment from nothing: HOME, XDG folders and TMPDIR inside ``home`` (Copilot CLI saves
        a too-large answer to the temp folder; it goes with the sandbox), and ``NODE_COMPILE_CACHE`` beside
        the install, shared by every run: Node keeps a CLI bundle's compiled code there, so a start after
        the first skips the compile (seconds a run for the biggest bundles)."""
        folders = {k: home / sub for k, sub in (("XDG_CONFIG_HOME", ".config"), ("XDG_CACHE_HOME", ".cache"),
                                                 ("XDG_STATE_HOME", ".local/state"), ("TMPDIR", "tmp"))}
        for folder in folders.values():
            folder.mkdir(parents=True, exist_ok=True)
        path = [self.clis / "node_modules" / ".bin", self.clis / "node_modules" / "node" / "bin", "/usr/local/bin",
                "/usr/bin", "/bin"]
        return {"PATH": os.pathsep.join(map(str, path)), "HOME": str(home), "LANG": "C.UTF-8", "TERM": "dumb",
                "XDG_DATA_HOME": str(self.data_home), "NODE_COMPILE_CACHE": str(self.clis / "node-compile-cache"),
                **{k: str(v) for k, v in folders.items()}}

    def new_home(self, label: str) -> Path:
        home = self.root / "runs" / f"{next(self._runs):02d}-{label}" / "home"
        home.mkdir(parents=True)
        return home

    def init(self, client: str, *args: str) -> subprocess.CompletedProcess[str]:
        """``godot-bridge init --project <project> --client <client> *args``, asserted to succeed."""
        home = self.new_home(f"init-{client}")
        done = subprocess.run([str(bridge_command()), "init", "--project", str(self.project), "--client", client,
                               *args], env=self.env(home), capture_output=True, text=True, timeout=120,
                              stdin=subprocess.DEVNULL)
        assert done.returncode == 0, f"godot-bridge init failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
        return done

    def run(self, argv: Sequence[str], env: Mapping[str, str], server: ModelServer, home: Path,
            timeout: float = 120, cwd: Path | None = None) -> CliRun:
        started = time.monotonic()
        proc = subprocess.Popen(list(argv), cwd=cwd or self.project, env=dict(env), stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            out, err = proc.communicate(timeout=timeout)
            code: int | None = proc.returncode
        except subprocess.TimeoutExpired:
            _end_group(proc.pid)
            out, err = proc.communicate()
            code = None
        _end_group(proc.pid)  # the MCP servers it started, should any outlive it
        return CliRun(list(argv), code, out, err, time.monotonic() - started, server, home, started)


def _end_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)
