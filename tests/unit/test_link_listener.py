"""EditorLink reports to one listener interface, and EditorBridge is that listener."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from godot_bridge.config import Settings
from godot_bridge.editor.bridge import EditorBridge
from godot_bridge.editor.channel import WsChannel
from godot_bridge.editor.link import EditorLink, LinkListener
from godot_bridge.editor.registry import RegistryEntry
from godot_bridge.editor.timing import Timing
from tests.lsp.registry_util import entry, write_registry


class Recorder:
    def __init__(self) -> None:
        self.entries: list[RegistryEntry | None] = []
        self.pushes: list[dict[str, Any]] = []

    def on_push(self, message: dict[str, Any]) -> None:
        self.pushes.append(message)

    def on_entry(self, entry: RegistryEntry | None) -> None:
        self.entries.append(entry)

    async def after_auth(self, ch: WsChannel, entry: RegistryEntry | None) -> None:
        return None


def test_every_registry_read_reaches_the_listener(tmp_path: Path) -> None:
    project = tmp_path / "game"
    project.mkdir()
    registry = write_registry(tmp_path / "projects.json",
                              entry(project, pid=None, port=6551, started_at=None, lsp_port=None))
    recorder = Recorder()
    link = EditorLink(Settings(project_path=project), Timing(), registry, listener=recorder)
    found = link.lookup()
    assert found is not None and found.port == 6551
    assert recorder.entries == [found]
    registry.unlink()
    assert link.lookup() is None
    assert recorder.entries == [found, None]


def test_the_bridge_is_a_link_listener(tmp_path: Path) -> None:
    bridge = EditorBridge(Settings(project_path=tmp_path), registry_file=tmp_path / "projects.json")
    assert isinstance(bridge, LinkListener)
    assert isinstance(Recorder(), LinkListener)
    assert not isinstance(object(), LinkListener)
