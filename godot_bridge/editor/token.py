"""Find and read the toolkit's auth token (contract C2, C10, C18).

The token is re-read on every connect, so a token the editor rewrote after a
plugin restart is always the one sent. Two sources, in order:

* ``GODOT_MCP_TOKEN_PATH`` (operator override): an absolute path to an existing
  regular file; no shape check beyond that.
* the registry entry's ``token_path``: the editor publishes it as a globalized
  absolute path ending in ``addons/godot_mcp_toolkit/project_instance_<12 hex>/mcp_token``.
  It is checked lexically (absolute, no ``..``, that suffix) before anything is
  opened, so a tampered registry cannot point the bridge at an arbitrary file.

Whoever reads the token can run code in the editor, so a file group or other users may read
or write (where the platform has Unix permissions) is made private when it is the user's own,
said once on stderr (``make_private``), and refused when it cannot be.

Every failure is an ``AUTH_FAILED`` with its own message and hint, so the user
can tell which of the rules tripped.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path, PurePath

from godot_bridge.editor.registry import RegistryEntry
from godot_bridge.errors import ToolError
from godot_bridge.safety import private_files

log = logging.getLogger(__name__)
_told: set[Path] = set()  # token files this process already said it made private (say it once)

ENV_OVERRIDE = "GODOT_MCP_TOKEN_PATH"
_SUFFIX = re.compile(r"(?:^|/)addons/godot_mcp_toolkit/project_instance_[0-9a-f]{12}/mcp_token$")
_SHAPE = "addons/godot_mcp_toolkit/project_instance_<12 hex>/mcp_token"

_HINT_OVERRIDE = f"Point {ENV_OVERRIDE} at the editor's mcp_token file (an absolute path), or unset it."
_HINT_REGISTRY = (
    "Restart the Godot editor with the godot_mcp_toolkit plugin enabled so it republishes its registry entry, "
    "or set GODOT_MCP_TOKEN_PATH to the token file."
)


@dataclass(frozen=True)
class TokenSource:
    path: Path
    origin: str  # "GODOT_MCP_TOKEN_PATH" or "registry"

    def describe(self) -> str:
        return f"{self.path} (from {self.origin})"


def _fail(message: str, hint: str) -> ToolError:
    return ToolError("AUTH_FAILED", message, hint=hint)


def _has_dotdot(raw: str) -> bool:
    return ".." in re.split(r"[\\/]", raw)


def locate(override: Path | None, entry: RegistryEntry | None, *, project: str, registry_file: Path) -> TokenSource:
    """Which file to read the token from; raises AUTH_FAILED naming the broken rule."""
    if override is not None:
        raw = str(override)
        if not override.is_absolute():
            raise _fail(f"{ENV_OVERRIDE}={raw} is not an absolute path", _HINT_OVERRIDE)
        if not override.exists():
            raise _fail(f"{ENV_OVERRIDE}={raw} does not exist", _HINT_OVERRIDE)
        if not override.is_file():
            raise _fail(f"{ENV_OVERRIDE}={raw} is not a regular file", _HINT_OVERRIDE)
        return TokenSource(override, ENV_OVERRIDE)

    if entry is None:
        raise _fail(
            f"no registry entry for project {project} in {registry_file}, so there is no token_path to read",
            "Open this project in the Godot editor with the godot_mcp_toolkit plugin enabled, "
            "or set GODOT_MCP_PROJECT_PATH to the project the editor has open.",
        )
    raw = entry.token_path
    if not raw:
        raise _fail(
            f"the registry entry for {project} publishes no token_path (a runtime-only or old-toolkit entry)",
            _HINT_REGISTRY,
        )
    if not PurePath(raw).is_absolute():
        raise _fail(f"the registry token_path {raw!r} is not an absolute path", _HINT_REGISTRY)
    if _has_dotdot(raw):
        raise _fail(f"the registry token_path {raw!r} contains a '..' segment", _HINT_REGISTRY)
    if not _SUFFIX.search(raw.replace("\\", "/")):
        raise _fail(f"the registry token_path {raw!r} does not end in {_SHAPE}", _HINT_REGISTRY)
    path = Path(raw)
    if not path.exists():
        raise _fail(f"the registry token_path {raw} does not exist", _HINT_REGISTRY)
    if not path.is_file():
        raise _fail(f"the registry token_path {raw} is not a regular file", _HINT_REGISTRY)
    return TokenSource(path, "registry")


def make_private(source: TokenSource) -> str | None:
    """Make a too-open token file of the user's own private, as the plugin writes it: the file 0600
    and, for the plugin's own instance folder, the folder 0700. A toolkit that writes it with the
    process umask (0644 in a 0755 folder, a fresh file on every editor start) then still connects.

    Returns what was too open (None: it was private); AUTH_FAILED with the fix when it cannot be
    made private (another account's file, a failed chmod).
    """
    try:
        was = private_files.make_private(source.path, folder=source.origin == "registry")
    except private_files.CannotMakePrivate as exc:
        raise _fail(
            f"the token file {source.describe()} is readable or writable by other local accounts, who could "
            f"then run code in your editor, and the bridge cannot make it private: {exc}",
            f"Make it private: {private_files.fix_command(source.path)} as its owner (the plugin creates it "
            "0600; if it keeps coming back readable, upgrade the plugin with `godot-bridge init` and restart "
            "the editor).",
        ) from None
    except OSError:
        return None  # reading it says what is wrong
    if was is not None and source.path not in _told:
        _told.add(source.path)
        log.warning("the token file %s was %s; made it private (file 0600%s). The plugin that wrote it does "
                    "not create it private: upgrade it with `godot-bridge init` and restart the editor",
                    source.path, was, ", folder 0700" if source.origin == "registry" else "")
    return was


def read(source: TokenSource) -> str:
    """The token text (surrounding whitespace dropped: an operator's file may end in a newline)."""
    hint = _HINT_OVERRIDE if source.origin == ENV_OVERRIDE else _HINT_REGISTRY
    make_private(source)
    try:
        data = source.path.read_bytes()
    except OSError as exc:
        raise _fail(f"cannot read the token file {source.describe()}: {exc.strerror or exc}", hint) from exc
    try:
        token = data.decode("utf-8").strip()
    except UnicodeDecodeError as exc:
        raise _fail(f"the token file {source.describe()} is not text", hint) from exc
    if not token:
        raise _fail(f"the token file {source.describe()} is empty", hint)
    return token


def load(override: Path | None, entry: RegistryEntry | None, *, project: str, registry_file: Path) -> tuple[str, TokenSource]:
    source = locate(override, entry, project=project, registry_file=registry_file)
    return read(source), source
