"""The wheel carries the Godot plugin, byte for byte, at the bridge's own version.

Builds the wheel from a copy of this checkout (pip, offline: the build backend comes from the
machine's configured package index), so the repo itself gets no build/ or egg-info litter and
two runs never share a build folder.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from godot_bridge import __version__
from godot_bridge.shipped.toolkit_files import ADDON_REL, files, plugin_version, read_version

REPO = Path(__file__).resolve().parents[2]
ADDON = REPO / ADDON_REL
# What a source tree needs to build the wheel (pyproject's packages, package-dir and readme).
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "godot_bridge", "catalogue", "addons")
IN_WHEEL = "godot_bridge/toolkit/"


def _copy_sources(dest: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in SOURCES:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=ignore)
        else:
            shutil.copy2(src, dest / name)


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[zipfile.ZipFile]:
    root = tmp_path_factory.mktemp("wheel")
    src, out = root / "src", root / "out"
    src.mkdir()
    _copy_sources(src)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(out), str(src)],
        capture_output=True, text=True, timeout=300, check=False, stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, f"pip wheel failed:\n{done.stdout}\n{done.stderr}"
    built = sorted(out.glob("godot_bridge-*.whl"))
    assert len(built) == 1, built
    with zipfile.ZipFile(built[0]) as archive:
        yield archive


def test_plugin_version_is_the_bridge_version() -> None:
    # godot_bridge/__init__.py defines the version (pyproject reads it); plugin.cfg must agree, since
    # doctor and the auth handshake compare the two.
    assert read_version(ADDON) == __version__


def test_plugin_version_parsing() -> None:
    cfg = '[other]\nversion="9"\n\n[plugin]\n\nname="X"\nversion = "1.2.3"\n'
    assert plugin_version(cfg) == "1.2.3"
    assert plugin_version('[plugin]\nname="X"\n') is None


def test_wheel_carries_the_toolkit_byte_for_byte(wheel: zipfile.ZipFile) -> None:
    shipped = {name[len(IN_WHEEL):]: name for name in wheel.namelist() if name.startswith(IN_WHEEL)}
    repo = files(ADDON)
    assert sorted(shipped) == sorted(repo), "the wheel's toolkit has exactly the repo's files"
    different = [rel for rel, path in repo.items() if wheel.read(shipped[rel]) != path.read_bytes()]
    assert different == []
    assert ".gdignore" in {Path(rel).name for rel in shipped}, "dot files come along (examples/.gdignore)"


def test_wheel_version_matches(wheel: zipfile.ZipFile) -> None:
    metadata = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
    version = next(line.split(":", 1)[1].strip() for line in wheel.read(metadata).decode().splitlines()
                   if line.startswith("Version:"))
    assert version == __version__
    assert plugin_version(wheel.read(IN_WHEEL + "plugin.cfg").decode()) == version


@pytest.fixture(scope="session")
def venv(wheel: zipfile.ZipFile, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding the wheel (built once per session), as a user's machine would."""
    venv = tmp_path_factory.mktemp("venv") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--no-deps", "--quiet",
         str(wheel.filename)], capture_output=True, text=True, timeout=300, check=False, stdin=subprocess.DEVNULL)
    assert installed.returncode == 0, installed.stderr
    # The dependencies come from this interpreter's site-packages (an index install takes ~30 s); the
    # fresh venv's own site-packages comes first, so godot_bridge is the wheel's.
    site = next((venv / "lib").glob("python3*/site-packages"))
    deps = next(p for p in map(Path, sys.path) if p.name == "site-packages" and (p / "mcp").is_dir())
    (site / "deps.pth").write_text(str(deps) + "\n", encoding="utf-8")
    return venv


def _machine(tmp_path: Path, venv: Path, extra_bin: Path | None = None) -> tuple[Path, dict[str, str]]:
    """A project and the environment of a fresh machine: the venv's scripts and the system's, no uvx."""
    project = tmp_path / "game"
    project.mkdir()
    (project / "project.godot").write_text('config_version=5\n\n[application]\n\nconfig/name="G"\n', encoding="utf-8")
    data = tmp_path / "xdg"
    data.mkdir()
    path = os.pathsep.join([*([str(extra_bin)] if extra_bin else []), str(venv / "bin"), "/usr/bin", "/bin"])
    if extra_bin is None and shutil.which("uvx", path=path) is not None:
        pytest.skip("this machine has uvx in /usr/bin or /bin; the test needs a PATH without it")
    return project, {"PATH": path, "XDG_DATA_HOME": str(data), "HOME": str(tmp_path)}


def _run(venv: Path, tmp_path: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(venv / "bin" / "godot-bridge"), *args], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120, check=False, stdin=subprocess.DEVNULL)


def test_installed_wheel_sets_a_project_up(venv: Path, tmp_path: Path) -> None:
    """What a fresh machine does: install the wheel, run `godot-bridge init`, and get a project whose
    project.godot enables the plugin, whose .mcp.json runs this installation's bridge (no index holds
    this build, and uvx is not there), and a doctor that started that command and got its answer."""
    project, env = _machine(tmp_path, venv)
    done = _run(venv, tmp_path, env, "init", "--project", str(project))
    assert done.returncode == 0, done.stdout + done.stderr
    probe = subprocess.run([str(venv / "bin" / "python"), "-c", "import godot_bridge; print(godot_bridge.__file__)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=True)
    site = next((venv / "lib").glob("python3*/site-packages"))
    assert Path(probe.stdout.strip()).parent == site / "godot_bridge", "the wheel's code ran, not the checkout's"
    assert 'enabled=PackedStringArray("res://addons/godot_mcp_toolkit/plugin.cfg")' in (
        project / "project.godot").read_text(encoding="utf-8")
    entry = json.loads((project / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"]["godot-mcp-toolkit"]
    assert entry["command"] == str(venv / "bin" / "godot-bridge") and entry["args"] == []
    assert "built from file://" in done.stdout and "which no package index holds" in done.stdout
    copied = files(project / ADDON_REL)
    assert all(copied[rel].read_bytes() == path.read_bytes() for rel, path in files(ADDON).items())
    doctor = _run(venv, tmp_path, env, "doctor", "--json", "--project", str(project))
    by_id = {c["id"]: c for c in json.loads(doctor.stdout)["checks"]}
    for name in ("python", "packages", "project", "mcp_json", "entry_start", "limits"):
        assert by_id[name]["status"] == "ok", by_id[name]
    assert by_id["entry_start"]["detail"].endswith(f"godot-bridge {__version__} answered initialize")
    assert f"godot-bridge {__version__}" in by_id["packages"]["detail"] and "not installed as a package" not in by_id[
        "packages"]["detail"]


def test_doctor_says_when_the_entrys_uvx_fails(venv: Path, tmp_path: Path) -> None:
    """An entry that runs uvx, where uvx cannot get the bridge from its index: doctor starts it and says so."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "uvx"
    fake.write_text("#!/bin/sh\necho 'error: godot-bridge was not found in the package registry' >&2\nexit 2\n",
                    encoding="utf-8")
    fake.chmod(0o755)
    project, env = _machine(tmp_path, venv, extra_bin=bin_dir)
    done = _run(venv, tmp_path, env, "init", "--project", str(project), "--launch", "uvx")
    assert done.returncode == 1, done.stdout + done.stderr
    entry = json.loads((project / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"]["godot-mcp-toolkit"]
    assert entry["command"] == "uvx" and entry["args"] == ["--compile-bytecode", f"godot-bridge@{__version__}"]
    assert "✗ .mcp.json starts" in done.stdout and "exited with status 2 before answering" in done.stdout
    assert "not found in the package registry" in done.stdout
    assert f"godot-bridge init --project {project} --launch installed" in done.stdout, "the fix, runnable as is"
