"""Configuration follows ``<project>/.mcp.json`` while the bridge runs (contract C11).

(For a project below the repository the client opened, the ``.mcp.json`` there: config_file.)

The MCP client started us with the ``env`` of our entry in that file; when the user (or the
plugin's dock) edits the file, the client does not restart us. So we read the file at start,
on every change on disk and on every editor reconnect, take the ``GODOT_MCP_*`` keys of our
entry (found as ``doctor`` and the dock find it: shipped/mcp_entry.our_key) and rebuild the settings: launch environment, minus every key the file had
supplied, plus the keys it has now. A key removed from the file is therefore dropped, and one
the file never named (set by the shell) stays. Flags still win over the environment.

A file that cannot be used (bad JSON, no entry, a bad value) changes nothing: the last good
configuration stays and stderr says why, once per distinct problem.

The assistant can write that file with its own tools, so a change that protects less (read-only
off, less asking, more tools allowed unasked, the editor's dialog off) is held until the client
starts the bridge again, and stderr says so; one that protects more applies at once
(``hold_weakenings``, applied by the app to every reload).
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from godot_bridge.config import ALLOW_UNASKED_ENV, ConfigError, Settings
from godot_bridge.consent.policy import MODE_STRENGTH
from godot_bridge.editor.watch import RegistryWatcher
from godot_bridge.errors import SettingsError
from godot_bridge.shipped.mcp_entry import definition, our_key

log = logging.getLogger(__name__)

FILE_NAME = ".mcp.json"
ENV_PREFIX = "GODOT_MCP_"
# Never taken from the file: the project folder is who we are, not a setting to flip.
FIXED_KEYS = frozenset({"GODOT_MCP_PROJECT_PATH"})


def config_file(settings: Settings, cwd: Path | None = None) -> Path:
    """The ``.mcp.json`` the client started us from: the project's, else (a project below the
    repository the client opened) the one in the folder we were given or started in."""
    search = settings.project_search
    candidates = [settings.project_path, *([search.folder] if search else []), cwd or Path(os.getcwd())]
    for folder in candidates:
        if (folder / FILE_NAME).is_file():
            return folder / FILE_NAME
    return settings.project_path / FILE_NAME


class ConfigFileError(SettingsError, ValueError):
    """``.mcp.json`` cannot be used; the message says why."""


def _entry(servers: dict[str, Any]) -> tuple[str, Any]:
    """Our entry, found as doctor and the dock find it (the shared entry definition's key and hints)."""
    key = our_key(servers)
    if key is None:
        spec = definition()
        hints = " or ".join(repr(hint) for hint in spec.key_hints)
        raise ConfigFileError(f"mcpServers has no {spec.server_key!r} entry (nor one whose name contains {hints})")
    return key, servers[key]


def _as_text(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, str | int | float):
        return str(value)
    raise ConfigFileError(f"env.{key} must be a string, number or boolean, not {type(value).__name__}")


def our_env(text: str) -> dict[str, str]:
    """The ``GODOT_MCP_*`` env of our entry in ``.mcp.json`` text; raises ConfigFileError."""
    return _our_entry(text)[1]


def _our_entry(text: str) -> tuple[str, dict[str, str]]:
    """Our entry's key and its ``GODOT_MCP_*`` env in ``.mcp.json`` text; raises ConfigFileError."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigFileError(f"not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    if not isinstance(servers, dict):
        raise ConfigFileError("it has no 'mcpServers' object")
    key, entry = _entry(servers)
    if not isinstance(entry, dict):
        raise ConfigFileError(f"mcpServers[{key!r}] is not an object")
    env = entry.get("env", {})
    if not isinstance(env, dict):
        raise ConfigFileError(f"mcpServers[{key!r}].env is not an object")
    return key, {k: _as_text(k, v) for k, v in env.items() if k.startswith(ENV_PREFIX) and k not in FIXED_KEYS}


class LiveConfig:
    def __init__(
        self,
        settings: Settings,
        apply: Callable[[Settings], None],
        *,
        debounce_ms: int = 300,
        poll_interval: float = 1.0,
        force_polling: bool = False,
    ) -> None:
        self.path = config_file(settings)
        self.settings = settings
        self._apply = apply
        self._launch_env = dict(settings.env)
        self._from_file: dict[str, str] | None = None  # the file's keys as last read well
        self._last_problem: str | None = None
        self._watcher = RegistryWatcher(self.path, self.reload, debounce_ms=debounce_ms,
                                        poll_interval=poll_interval, force_polling=force_polling, label=FILE_NAME)
        # The file at launch is what the client started us with: its keys are the file's to drop.
        # Our entry's key there is the name the client gives our server (call_tool takes its prefixes).
        key: str | None
        try:
            key, launch_file = _our_entry(self.path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ConfigFileError):
            key, launch_file = None, {}
        self.server_key = key
        self._launch_supplied = frozenset(launch_file)

    @property
    def watching(self) -> Any:
        return self._watcher.watching

    def start(self) -> None:
        self._watcher.start()

    async def aclose(self) -> None:
        await self._watcher.aclose()

    def _problem(self, why: str) -> None:
        if why != self._last_problem:
            log.warning("%s: %s; keeping the current configuration", self.path, why)
        self._last_problem = why

    def reload(self) -> bool:
        """Re-read the file and apply it when it changed our keys. True when settings changed."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return False  # no file (e.g. a VS Code user): the launch environment is the configuration
        except (OSError, UnicodeDecodeError) as exc:
            self._problem(f"cannot be read ({exc})")
            return False
        try:
            wanted = our_env(text)
            settings = self.settings.with_env(self._env(wanted))
        except (ConfigFileError, ConfigError) as exc:
            self._problem(str(exc))
            return False
        self._last_problem = None
        if wanted == self._from_file:
            return False
        self._from_file = wanted
        changed = effective(settings) != effective(self.settings)
        self.settings = settings
        if not changed:
            return False
        log.info("%s changed: applying %s", self.path, ", ".join(f"{k}={v}" for k, v in sorted(wanted.items())) or
                 "no GODOT_MCP_* keys")
        self._apply(settings)
        return True

    def _env(self, wanted: Mapping[str, str]) -> dict[str, str]:
        env = {k: v for k, v in self._launch_env.items() if k not in self._launch_supplied}
        env.update(wanted)
        return env


def effective(settings: Settings) -> tuple[Any, ...]:
    """The settings' values, without the raw environment they came from."""
    return tuple(getattr(settings, f.name) for f in fields(settings) if f.name not in ("env", "cli"))


# -- what a reload may change at once --------------------------------------------------------------


def _on_off(value: bool) -> str:
    return "on" if value else "off"


def _names(value: frozenset[str]) -> str:
    return ",".join(sorted(value)) or "none"


@dataclass(frozen=True)
class Protection:
    """A setting that limits what the assistant may do: ``keep(running, wanted)`` is the value to run
    with now (the wanted one when it protects at least as much, else as much of it as does)."""

    field: str
    env: str
    keep: Callable[[Any, Any], Any]
    shown: Callable[[Any], str]
    what: str  # what a weaker value does, in words


PROTECTIONS = (
    Protection("read_only", "GODOT_MCP_READ_ONLY", lambda now, new: now or new, _on_off,
               "turns read-only mode off"),
    Protection("confirm", "GODOT_MCP_CONFIRM", lambda now, new: max(now, new, key=MODE_STRENGTH.index), str,
               "asks the person less"),
    Protection("confirm_in_editor", "GODOT_MCP_CONFIRM_IN_EDITOR", lambda now, new: now or new, _on_off,
               "stops asking in the editor's dialog"),
    Protection("allow_unasked", ALLOW_UNASKED_ENV, lambda now, new: now & new, _names,
               "lets more tools run without asking"),
)


def hold_weakenings(running: Settings, wanted: Settings) -> tuple[Settings, list[str]]:
    """``wanted`` as it may apply now over ``running``, and a line for each weakening held back."""
    held: dict[str, Any] = {}
    said: list[str] = []
    for guard in PROTECTIONS:
        now, new = getattr(running, guard.field), getattr(wanted, guard.field)
        kept = guard.keep(now, new)
        if kept != new:
            held[guard.field] = kept
            said.append(f"{guard.env}={guard.shown(new)} {guard.what} (running: {guard.shown(now)}); it applies only "
                        "when your MCP client starts the bridge again")
    return (replace(wanted, **held) if held else wanted), said
