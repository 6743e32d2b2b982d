"""The machine-wide registry as the toolkit writes it (contract C16, C18, C20), for the simulator.

A Python mirror of addons/godot_mcp_toolkit/registry/: each editor owns
``entries/<hash>.json``, each game ``entries/<hash>.runtime.json``; after every change the
whole ``entries/`` folder is projected into ``projects.json`` under a directory lock. Every
file is replaced the toolkit's way (write ``.tmp``, one rename over the target), so a reader
racing a rewrite meets what it would meet with the real plugin: the old file or the new one. ``merge_by_path`` is the projection rule
(registry_projection.gd), checked against the GDScript side's fixture in
tests/unit/test_toolkit_fixtures.py.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

APP_DIR = "godot-mcp-toolkit"
ENTRIES_DIR = "entries"
PROJECTS_FILE = "projects.json"
LOCK_NAME = "projects.lock"
RUNTIME_SUFFIX = ".runtime.json"
LOCK_STALE_SECONDS = 10.0
LOCK_WAIT_SECONDS = 1.0

# registry_entry.gd FIELDS, in order; runtime fields come only from a game's overlay.
FIELDS = ["_key", "port", "token_path", "pid", "started_at", "godot_version",
          "runtime_port", "runtime_pid", "lsp_host", "lsp_port"]
RUNTIME_FIELDS = ("runtime_port", "runtime_pid")
OPTIONAL = ("godot_path",)  # published only when a non-empty string
NUMERIC = ["port", "pid", "runtime_port", "runtime_pid", "lsp_port"]
NO_EDITOR_PORT = -1


def canonical_key(project: str | os.PathLike[str], platform: str = sys.platform) -> str:
    """The toolkit's project key: '/' separators, no trailing '/', lowercased where the OS folds case."""
    key = str(project).replace("\\", "/")
    while len(key) > 1 and key.endswith("/"):
        key = key[:-1]
    if platform.startswith("win") or platform == "darwin":
        key = key.lower()
    return key


def instance_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:12]


# --- registry_projection.gd ------------------------------------------------------------------------


def _normalise(raw: Any) -> dict[str, Any] | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("_key"), str) or not raw["_key"]:
        return None
    entry = dict(raw)
    for name in NUMERIC:
        value = entry.get(name)
        if isinstance(value, float) and value.is_integer():
            entry[name] = int(value)
    return entry


def is_port(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 65535


def _time(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _newer(a: dict[str, Any], b: dict[str, Any]) -> bool:
    ta, tb = _time(a.get("started_at")), _time(b.get("started_at"))
    return ta > tb if ta != tb else a["_key"] < b["_key"]


def merge_by_path(entries: list[Any], overlays: list[Any]) -> dict[str, Any]:
    """Editor entries and game overlays folded into the ``{"by_path": ...}`` document."""
    by_key: dict[str, dict[str, Any]] = {}
    for raw in entries:
        entry = _normalise(raw)
        if entry is None:
            continue
        shaped = {name: entry.get(name) for name in FIELDS}
        shaped |= {name: entry[name] for name in OPTIONAL if isinstance(entry.get(name), str) and entry[name]}
        shaped["runtime_port"] = shaped["runtime_pid"] = None
        key = shaped["_key"]
        if key not in by_key or _newer(shaped, by_key[key]):
            by_key[key] = shaped
    owner: dict[int, str] = {}
    for key, entry in by_key.items():
        if is_port(entry["port"]) and (entry["port"] not in owner or _newer(entry, by_key[owner[entry["port"]]])):
            owner[entry["port"]] = key
    by_path = {k: e for k, e in sorted(by_key.items()) if not is_port(e["port"]) or owner[e["port"]] == k}
    for raw in overlays:
        overlay = _normalise(raw)
        if overlay is None or not is_port(overlay.get("runtime_port")):
            continue
        key = overlay["_key"]
        if key not in by_path:
            by_path[key] = {name: None for name in FIELDS} | {
                "_key": key, "port": NO_EDITOR_PORT, "token_path": "", "pid": overlay.get("runtime_pid"),
                "started_at": overlay.get("started_at"), "godot_version": overlay.get("godot_version"),
            }
        by_path[key]["runtime_port"] = overlay["runtime_port"]
        by_path[key]["runtime_pid"] = overlay.get("runtime_pid")
    return {"by_path": by_path}


# --- atomic_file.gd and registry_lock.gd ------------------------------------------------------------


def atomic_write(path: Path, text: str) -> None:
    """Write ``<path>.tmp`` and rename it over ``path`` (atomic_file.gd: one rename, no gap)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _write_json(path: Path, data: dict[str, Any]) -> None:
    # JSON.stringify(data, "  ", true): sorted keys, two-space indent; plus a trailing newline.
    atomic_write(path, json.dumps(data, indent=2, sort_keys=True) + "\n")


def _read_json_object(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


class RegistryLock:
    """A directory as a cross-process lock, with the holder's pid in ``owner``; stale after 10 s."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def acquire(self) -> bool:
        deadline = time.monotonic() + LOCK_WAIT_SECONDS
        while True:
            try:
                self.path.mkdir()
            except FileExistsError:
                if self._is_stale():
                    self.release()
                    continue
                if time.monotonic() >= deadline:
                    return False
                time.sleep(0.005)
                continue
            (self.path / "owner").write_text(str(os.getpid()), encoding="utf-8")
            return True

    def release(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            (self.path / "owner").unlink()
        with contextlib.suppress(FileNotFoundError, OSError):
            self.path.rmdir()

    def _is_stale(self) -> bool:
        owner = self.path / "owner"
        try:
            stamp = (owner if owner.exists() else self.path).stat().st_mtime
        except FileNotFoundError:
            return False
        return time.time() - stamp > LOCK_STALE_SECONDS


# --- registry_client.gd -----------------------------------------------------------------------------


class SimRegistry:
    """The registry folder under ``<data_home>/godot-mcp-toolkit``, written as the toolkit writes it."""

    def __init__(self, data_home: Path) -> None:
        self.dir = Path(data_home) / APP_DIR
        self.path = self.dir / PROJECTS_FILE
        self.entries = self.dir / ENTRIES_DIR
        self.lock = RegistryLock(self.dir / LOCK_NAME)

    def entry_file(self, key: str) -> Path:
        return self.entries / f"{instance_hash(key)}.json"

    def overlay_file(self, key: str) -> Path:
        return self.entries / f"{instance_hash(key)}{RUNTIME_SUFFIX}"

    def read(self) -> dict[str, dict[str, Any]]:
        """``by_path`` of projects.json as a reader (the bridge) sees it."""
        by_path = _read_json_object(self.path).get("by_path")
        return by_path if isinstance(by_path, dict) else {}

    def write_entry(self, key: str, entry: dict[str, Any]) -> dict[str, Any]:
        """An editor (re)publishes itself: its entry file, then the projection."""
        _write_json(self.entry_file(key), entry)
        self.rebuild()
        return self.read().get(key, {})

    def write_overlay(self, key: str, overlay: dict[str, Any]) -> None:
        """A game announces its runtime server: its overlay file, then the projection."""
        _write_json(self.overlay_file(key), overlay)
        self.rebuild()

    def remove_overlay(self, key: str) -> None:
        self.overlay_file(key).unlink(missing_ok=True)
        self.rebuild()

    def remove_entry(self, key: str) -> None:
        self.entry_file(key).unlink(missing_ok=True)
        self.rebuild()

    def update(self, key: str, **fields: Any) -> dict[str, Any]:
        """Write (or amend) the entry of ``key`` with these fields, as an editor publishing itself would."""
        entry = _read_json_object(self.entry_file(key)) or {"_key": key}
        entry.update(fields)
        entry.setdefault("_key", key)
        return self.write_entry(key, entry)

    def remove(self, key: str) -> None:
        """The entry of ``key`` and any game overlay gone, as when that editor unregisters."""
        self.overlay_file(key).unlink(missing_ok=True)
        self.remove_entry(key)

    def rebuild(self) -> bool:
        """Project every entry file into projects.json; False when the lock stayed busy (as the toolkit)."""
        self.entries.mkdir(parents=True, exist_ok=True)
        if not self.lock.acquire():
            return False
        try:
            entries, overlays = [], []
            for path in sorted(self.entries.iterdir()):
                if path.name.endswith(RUNTIME_SUFFIX):
                    overlays.append(_read_json_object(path))
                elif path.suffix == ".json":
                    entries.append(_read_json_object(path))
            _write_json(self.path, merge_by_path(entries, overlays))
        finally:
            self.lock.release()
        return True

    def write_raw(self, text: str) -> None:
        """Not the toolkit: another writer (or a corrupting one) replaces projects.json directly."""
        self.dir.mkdir(parents=True, exist_ok=True)
        atomic_write(self.path, text)
