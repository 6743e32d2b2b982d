"""Run GDScript in a real Godot engine: a native ``godot`` binary when one is on PATH, else the
Godot 4.6 web export template in headless Chromium (tests/godot/web, set up by its setup.sh).

Both get the same throwaway project (addons/, catalogue/, tests/godot and tests/fixtures linked in) and behave
like ``godot --path P --script S -- ARGS``: printed lines on stdout/stderr, ``quit(N)`` as the exit
status. When neither engine is usable, ``EngineUnavailable`` says why, so callers skip with it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
WEB = REPO / "tests" / "godot" / "web"
TEMPLATE_FILES = ("index.js", "index.wasm")
BROWSERS = ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome")
PROJECT_GODOT = 'config_version=5\n\n[application]\nconfig/name="godot-mcp-toolkit tests"\n'


class EngineUnavailable(Exception):
    """No engine to run GDScript in; the message says what is missing."""


@dataclass(frozen=True)
class Run:
    returncode: int
    stdout: str
    stderr: str
    engine: str


@dataclass(frozen=True)
class Engine:
    """One way to start Godot: ``kind`` is "native" or "web"."""

    kind: str
    command: tuple[str, ...]

    def run(self, project: Path, script: str, user_args: Sequence[str] = (), timeout: float = 120.0) -> Run:
        if self.kind == "native":
            cmd = [*self.command, "--headless", "--path", str(project), "--script", script, "--", *user_args]
        else:
            cmd = [*self.command, str(project), script, "--timeout", str(timeout), "--quiet", "--", "--", *user_args]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 60, check=False,
                              stdin=subprocess.DEVNULL)
        return Run(done.returncode, done.stdout, done.stderr, self.kind)


def web_template_dir() -> Path:
    override = os.environ.get("GODOT_WEB_TEMPLATE")
    return Path(override) if override else Path(tempfile.gettempdir()) / "godot-web" / "template"


def find_engine() -> Engine:
    """A native godot ($GODOT or ``godot`` on PATH) first, else the web engine if set up."""
    native = shutil.which(os.environ.get("GODOT", "godot"))
    if native:
        return Engine("native", (native,))
    template = web_template_dir()
    missing = [name for name in TEMPLATE_FILES if not (template / name).is_file()]
    browser = os.environ.get("GODOT_WEB_CHROMIUM") or next((b for b in BROWSERS if shutil.which(b)), None)
    if missing or browser is None:
        what = []
        if browser is None:
            what.append("no chromium on PATH")
        if missing:
            what.append(f"no Godot web template in {template}")
        raise EngineUnavailable(
            "no godot binary on PATH and the web engine is not set up (" + ", ".join(what)
            + "); run `bash tests/godot/web/setup.sh` (scripts/test.sh does)")
    return Engine("web", (sys.executable, str(WEB / "run_gd.py")))


@contextmanager
def scratch_project() -> Iterator[Path]:
    """The throwaway project the GDScript tests run in; removed afterwards."""
    project = Path(tempfile.mkdtemp(prefix="gd-tests-"))
    try:
        (project / "tests").mkdir()
        (project / "addons").symlink_to(REPO / "addons")
        (project / "tests" / "godot").symlink_to(REPO / "tests" / "godot")
        (project / "tests" / "fixtures").symlink_to(REPO / "tests" / "fixtures")
        # The tool catalogue, for the sweep that sends each tool's parameters wrongly typed.
        (project / "catalogue").symlink_to(REPO / "catalogue")
        (project / "project.godot").write_text(PROJECT_GODOT, encoding="utf-8")
        yield project
    finally:
        shutil.rmtree(project, ignore_errors=True)


def prepare(engine: Engine, project: Path) -> None:
    """A native engine needs one editor pass to build the class cache (`extends MCPToolkitExtension`);
    the web runner generates that cache itself."""
    if engine.kind == "native":
        subprocess.run([*engine.command, "--headless", "--path", str(project), "--editor", "--quit"],
                       capture_output=True, timeout=300, check=False, stdin=subprocess.DEVNULL)


# --- what the scripts print ------------------------------------------------------------------------

@dataclass
class FileResult:
    """One tests/godot file as runner.gd reported it."""

    name: str
    status: str = "missing"  # ran | skipped | loadfail | missing (the run ended before it)
    reason: str = ""
    passed: list[str] = field(default_factory=list)
    failed: dict[str, list[str]] = field(default_factory=dict)  # method -> failure messages


_METHOD = re.compile(r"^(PASS|FAIL) (test_\w+\.gd)::(\w+)$")
_FAILURE = re.compile(r"^FAIL (test_\w+\.gd)::(\w+): ?(.*)$")


def parse_runner(run: Run) -> dict[str, FileResult]:
    results: dict[str, FileResult] = {}
    for line in run.stdout.splitlines():
        if line.startswith("FILE "):
            name = line[5:].strip()
            results[name] = FileResult(name, "ran")
        elif line.startswith("SKIP "):
            name, _, reason = line[5:].partition(": ")
            results.setdefault(name, FileResult(name)).status = "skipped"
            results[name].reason = reason.strip()
        elif line.startswith("LOADFAIL "):
            name = line[9:].strip()
            results.setdefault(name, FileResult(name)).status = "loadfail"
        elif match := _METHOD.match(line):
            result = results.setdefault(match.group(2), FileResult(match.group(2), "ran"))
            if match.group(1) == "PASS":
                result.passed.append(match.group(3))
            else:
                result.failed.setdefault(match.group(3), [])
    current: list[str] | None = None
    for line in run.stderr.splitlines():
        if match := _FAILURE.match(line):
            result = results.setdefault(match.group(1), FileResult(match.group(1), "ran"))
            current = result.failed.setdefault(match.group(2), [])
            current.append(match.group(3))
        elif current is not None and line.startswith("      "):
            current[-1] += "\n" + line.strip()
        else:
            current = None
    return results


def load_errors(run: Run) -> list[str]:
    """The engine's script errors (parse errors when a file does not compile)."""
    return [line.strip() for line in run.stderr.splitlines() if "SCRIPT ERROR" in line or "Parse Error" in line]


if __name__ == "__main__":
    # A developer's shortcut: run some GDScript test files (all without arguments) in the engine
    # the suite uses, printing the runner's output: python -m tests.support.gd_engine test_x.gd ...
    import sys

    found = find_engine()
    with scratch_project() as scratch:
        prepare(found, scratch)
        done = found.run(scratch, "res://tests/godot/runner.gd", sys.argv[1:], timeout=180.0)
    print(done.stdout)
    print(done.stderr, file=sys.stderr)
    sys.exit(done.returncode)
