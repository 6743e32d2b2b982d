"""Our entry in the project file a CLI reads: read, and copied under other keys as a person edits it.

``godot-bridge init --client <client>`` writes the entry; the toolkit's ``mcp_entry.json`` says for
each client where (``file``), in which format (JSON, or TOML for Codex), under which table
(``servers``) and which of its keys are time limits (``timeouts``: ``call_ms`` / ``call_s``, the longest
tool call). ``EntryFile`` reads that definition, so these tests and ``init`` cannot disagree about it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomlkit

from tests.assistants.sandbox import ROOT, SERVER_KEY

DEFINITION = ROOT / "addons/godot_mcp_toolkit/ui/mcp_entry.json"
UNITS_PER_SECOND = {"call_ms": 1000, "call_s": 1}

Change = Callable[[dict[str, Any]], None]


@dataclass(frozen=True)
class Copy:
    """A copy of our entry under another ``key``, changed by ``change``: one more server in a CLI run,
    whose start costs seconds, to show how the CLI reads a field of the entry."""

    key: str
    change: Change


def _clients() -> dict[str, Any]:
    return dict(json.loads(DEFINITION.read_text(encoding="utf-8"))["clients"])


@dataclass(frozen=True)
class EntryFile:
    """Where and how ``client``'s entry is written."""

    client: str

    @property
    def spec(self) -> dict[str, Any]:
        return dict(_clients()[self.client])

    def path(self, project: Path) -> Path:
        return project / str(self.spec["file"])

    def _load(self, text: str) -> Any:
        return tomlkit.parse(text) if self.spec["format"] == "toml" else json.loads(text)

    def _dump(self, document: Any) -> str:
        return tomlkit.dumps(document) if self.spec["format"] == "toml" else json.dumps(document, indent=2)

    def read(self, project: Path) -> dict[str, Any]:
        """Our entry (a copy), as the CLI reads it."""
        document = self._load(self.path(project).read_text(encoding="utf-8"))
        return json.loads(json.dumps(document[self.spec["servers"]][SERVER_KEY]))

    def env(self, project: Path) -> dict[str, str]:
        """Our entry's env (opencode's ``environment``)."""
        return dict(self.read(project).get(str(self.spec.get("env_key", "env")), {}))

    def call_timeout(self, project: Path) -> float:
        """The entry's limit on one tool call, in seconds."""
        key, unit = self._call_timeout_key()
        return float(self.read(project)[key]) / UNITS_PER_SECOND[unit]

    def call_timeout_change(self, seconds: float) -> Change:
        """A change that sets the entry's limit on one tool call to ``seconds`` (in the unit the file uses)."""
        key, unit = self._call_timeout_key()
        value = seconds * UNITS_PER_SECOND[unit]

        def change(entry: dict[str, Any]) -> None:
            entry[key] = int(value) if value == int(value) else value

        return change

    def _call_timeout_key(self) -> tuple[str, str]:
        return next((k, v) for k, v in self.spec["timeouts"].items() if v in UNITS_PER_SECOND)

    @contextmanager
    def with_copies(self, project: Path, copies: Sequence[Copy]) -> Iterator[None]:
        """Beside our entry, a copy of it under each copy's key, changed: more servers in one run. The
        file is written back byte for byte afterwards (cheaper than another ``init``)."""
        path = self.path(project)
        before = path.read_bytes()
        try:
            document = self._load(before.decode("utf-8"))
            servers = document[self.spec["servers"]]
            for copy in copies:
                entry = json.loads(json.dumps(servers[SERVER_KEY]))
                copy.change(entry)
                servers[copy.key] = entry
            path.write_text(self._dump(document), encoding="utf-8")
            yield
        finally:
            path.write_bytes(before)
