"""The bridge's exception families and its error-code vocabulary (contract C4).

Every failure that should reach the model as an ``isError`` tool result is a
``ToolError``. The toolkit's own codes pass through untouched (the wire is
string-tolerant); the codes below are the ones the bridge itself originates.

Every exception class the bridge defines belongs to exactly one family, one per concern, and
every family derives from ``BridgeError`` (tests/unit/test_exception_families.py holds this). A
class that was also a ``ValueError`` or ``RuntimeError`` keeps that base, so what caught it
still does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Fixed, useful hints for bridge-originated failures. A caller may pass a more
# specific hint; these are the fallback so no bridge error reaches the model bare.
BRIDGE_HINTS: dict[str, str] = {
    "CONNECT_FAILED": "Open the project in Godot 4.2+ with the godot_mcp_toolkit plugin enabled "
    "(Project > Project Settings > Plugins), then retry. Or start it from here: call editor_launch "
    "(discover_tools {\"request\": \"editor_lifecycle\"} loads it; it needs GODOT_BIN or a Godot the "
    "registry knows), or set GODOT_MCP_AUTOLAUNCH=headless in the MCP entry's env so the bridge starts "
    "the editor when a tool needs it.",
    "DISCONNECTED": "The editor connection dropped and did not come back within 10 s. "
    "Check that Godot is still running with the plugin enabled, then retry.",
    "AUTH_FAILED": "The token did not match. Re-enable the plugin or restart the editor so it writes a "
    "fresh token, then retry.",
    "TIMEOUT": "The editor did not answer in time. It may be busy or blocked by a modal dialog; "
    "check the editor, then retry.",
    "CANCELLED": "The call was cancelled before the editor answered.",
    "GAME_NOT_RUNNING": "Start the game with game_start first; runtime tools need a running game.",
    "PATH_DENIED": "Use a project path such as res://folder/file.tscn, or a file's uid:// as Godot writes it; "
    "'..', drive letters and absolute paths are refused.",
    "RATE_LIMITED": "Too many calls in the last 60 s (GODOT_MCP_RATE_LIMIT). Wait, then retry.",
    "LSP_UNAVAILABLE": "Godot's GDScript language server is not reachable. Keep the editor open "
    "(Editor Settings > Network > Language Server) or set GODOT_MCP_LSP_PORT.",
    "LSP_PORT_CONFLICT": "Another open Godot editor owns the language-server port. Close it, or give this "
    "editor its own port (Editor Settings > Network > Language Server) and set GODOT_MCP_LSP_PORT.",
    "UNSUPPORTED": "This tool needs a newer Godot version. Use classdb_get_info to look for alternatives.",
    "INVALID_PARAMS": "Fix the named argument and call again.",
    "EMPTY_CONTENT": "The editor returned neither an image nor a saved path; retry the capture.",
    "IMAGE_UNREADABLE": "The capture's image could not be read as a PNG; retry, or use image_response_mode inline.",
    # Reading a project file for the language server (godot_bridge/lsp/tools.py)
    "NOT_FOUND": "Check the path: it must name a file inside the project, such as res://player.gd.",
    "READ_FAILED": "The file could not be read as UTF-8 text; check that it is a script and readable.",
    "FILE_TOO_LARGE": "The file is too large to send to the language server; split it into smaller scripts.",
    "INTERNAL": "Unexpected failure inside the bridge; see its stderr log.",
    "RPC_ERROR": "The editor rejected the request; the plugin may be older than the bridge. "
    "Update the plugin, then retry.",
    # editor_launch / editor_restart (godot_bridge/editor/lifecycle.py)
    "GODOT_NOT_FOUND": "Set GODOT_BIN to the Godot 4 executable in the env block of .mcp.json.",
    "LAUNCH_FAILED": "Start the editor by hand and check that the project opens with the plugin enabled.",
    "EDITOR_UNRESPONSIVE": "Call editor_restart to save, stop and relaunch the editor.",
    "EDITOR_NOT_RUNNING": "Call editor_launch to start the editor.",
    "SAVE_FAILED": "Save in the editor by hand, or restart with force=true (unsaved changes are lost).",
    "UNKNOWN_TOOL": "Name the tool as tools/list or discover_tools names it (a client's own prefix is fine); "
    "nothing else before the name.",
    # Background jobs: background: true, job_status, job_cancel (godot_bridge/jobs)
    "JOB_NOT_FOUND": "Call job_status without job_id to list your jobs; a finished job is kept for its TTL (1 h).",
    "JOB_FINISHED": "Call job_status with this job_id for its result.",
    "JOB_LIMIT": "Wait for a job to finish (job_status with wait_s) or stop one with job_cancel, then retry.",
    "JOB_FAILED": "Check the editor before running it again: history lists what changed, undo takes it back.",
}


class BridgeError(Exception):
    """The root of every family below: an exception the bridge itself defines."""


class SettingsError(BridgeError):
    """A setting, the command line or ``.mcp.json`` cannot be used; the message says which and why."""


class DefinitionError(BridgeError):
    """A definition the bridge is built from is missing or malformed: the catalogue, a tool's or an
    extension's declaration, the toolkit and its client entry, the MCP SDK internals it relies on."""


class RequestError(BridgeError):
    """What a client asked for cannot be served as asked: an unknown tool, resource or prompt, or
    arguments that do not fit the schema."""


class ProtocolError(BridgeError):
    """An MCP message cannot be handled as sent (too deep, too large, not a request)."""


class ConsentError(BridgeError):
    """Asking the person before what cannot be taken back: the question, the answer, the ticket."""


class JobsError(BridgeError):
    """A call run in the background: an unknown or finished job, a job that failed."""


class PeerError(BridgeError):
    """What the editor or the game sent cannot be kept or read, or the link to them closed."""


class GodotFileError(BridgeError):
    """One of Godot's files, read without an editor, is not what its format says."""


class LanguageServerError(BridgeError):
    """Godot's GDScript language server cannot be reached or did not answer as the protocol says."""


class GuardError(BridgeError):
    """A protection cannot be put in place (a secret's file cannot be made private)."""


class SetupError(BridgeError):
    """``godot-bridge init``, ``doctor`` or ``uninstall`` cannot go on; nothing is left half-written."""


@dataclass
class ToolError(BridgeError):
    """A failure reported to the model as an ``isError`` result.

    Rendered as ``{"success": false, "error": message, "code": code, "hint": hint}``.
    ``hint=None`` takes the fixed hint for the code (BRIDGE_HINTS); ``hint=""`` means none.
    ``extra`` carries additional fields (e.g. crash context) merged into that object.
    """

    code: str
    message: str
    hint: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        super().__init__(f"{self.code}: {self.message}")

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"success": False, "error": self.message, "code": self.code}
        hint = self.hint if self.hint is not None else BRIDGE_HINTS.get(self.code)
        if hint:
            out["hint"] = hint
        out.update(self.extra)
        return out


# One base per concern; tests/unit/test_exception_families.py checks every class against these.
FAMILIES = (ToolError, SettingsError, DefinitionError, RequestError, ProtocolError, ConsentError, JobsError,
            PeerError, GodotFileError, LanguageServerError, GuardError, SetupError)
