"""What the bridge knows of the editor that the tool surface depends on.

The Godot version (the registry's first, then the auth ack's), whether the editor runs without a
window, and the extension command list (``extensions.list`` after auth, ``extensions.changed``
pushes, an ``extensions_list`` call). ``on_change`` fires whenever the version or the extensions
change, so the surface can rebuild ``tools/list``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

# The editor side logs under one name, whichever of its modules speaks.
log = logging.getLogger("godot_bridge.editor.bridge")

_VERSION = re.compile(r"^\s*(\d+)\.(\d+)")


def parse_version(text: Any) -> tuple[int, int] | None:
    """'4.5.1', '4.5-stable', '4.5.stable.official' -> (4, 5)."""
    match = _VERSION.match(text) if isinstance(text, str) else None
    return (int(match.group(1)), int(match.group(2))) if match else None


def commands(raw: Any) -> list[dict[str, Any]] | None:
    """The extension commands of a reply or push: the entries that name a method; None when it is no list."""
    if not isinstance(raw, list):
        return None
    return [c for c in raw if isinstance(c, dict) and isinstance(c.get("method"), str)]


class EditorFacts:
    def __init__(self, on_change: Callable[[], None] | None = None) -> None:
        self._on_change = on_change
        self.version: tuple[int, int] | None = None
        self.version_text: str | None = None
        self.headless: bool | None = None
        self._extensions: list[dict[str, Any]] = []

    @property
    def extensions(self) -> list[dict[str, Any]]:
        return [dict(c) for c in self._extensions]

    def _fire_change(self) -> None:
        if self._on_change is None:
            return
        try:
            self._on_change()
        except Exception:
            log.exception("on_change callback failed")

    def set_version(self, text: str, source: str) -> None:
        parsed = parse_version(text)
        if parsed is None:
            log.warning("unparseable Godot version %r from the %s", text, source)
            return
        self.version_text = text
        if parsed != self.version:
            log.info("Godot version %s (from the %s)", text, source)
            self.version = parsed
            self._fire_change()

    def set_extensions(self, listed: list[dict[str, Any]]) -> None:
        if listed != self._extensions:
            self._extensions = listed
            log.info("editor extensions: %d command(s)", len(listed))
            self._fire_change()

    def merge_extensions(self, params: Any) -> None:
        """An ``extensions.changed`` push: its ``removed`` methods go, its ``commands`` are added or replaced."""
        params = params if isinstance(params, dict) else {}
        removed = {m for m in params.get("removed") or [] if isinstance(m, str)}
        merged = [c for c in self._extensions if c["method"] not in removed]
        for cmd in commands(params.get("commands")) or []:
            at = next((i for i, c in enumerate(merged) if c["method"] == cmd["method"]), None)
            if at is None:
                merged.append(cmd)
            else:
                merged[at] = cmd
        self.set_extensions(merged)
