"""The errors and warnings Godot pushes: parsed, kept, bounded.

The editor's toolkit and the game's runtime server push ``errors.reported``
(``{"source", "entries": [...]}``); the editor pushes ``game_crashed`` when the game
process ended without a normal stop. This module owns what the bridge keeps of them:

* entries keyed by ``(source, id)``; a push of a known key is an *update* (its count
  rose), not a new error, so it changes the stored entry and announces nothing new;
* a known key whose message, file or line differ, or whose ``time_ms`` went back, is a new
  error that reused the id (the editor or game restarted and its ids began again), so it
  replaces the old one;
* at most ``limit`` entries, the least recently reported dropped first (``dropped``
  counts them, so the reader knows the list is not complete);
* a new game session (another game process connected) clears the previous game's
  entries, as Godot's own Errors tab does on each run; the document says how many
  went and when, so the clearing is never silent.

Malformed pushes are ignored entry by entry and logged at debug: Godot is a peer
whose bugs must not take the bridge down. Listeners hear ``(new_entries, changed)``
synchronously; the MCP layer turns that into log notifications and resource updates.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from godot_bridge.errors import PeerError
from godot_bridge.safety import untrusted
from godot_bridge.tools.toolkit_consts import toolkit_int

log = logging.getLogger(__name__)

ERRORS_URI = "godot://errors"
SOURCES = ("game", "editor")
SEVERITIES = ("error", "warning")
DEFAULT_LIMIT = 200
MESSAGE_LIMIT = 4000  # characters; a message longer than this is cut (a runaway print, not a diagnosis)
# Frames kept per entry: the toolkit's error store cuts each stack there before it pushes.
STACK_LIMIT = toolkit_int("logs/error_store.gd", "MAX_STACK_FRAMES")
CRASH_LINES_LIMIT = 40
REPORTED = "errors.reported"
CRASHED = "game_crashed"


@dataclass(frozen=True)
class Frame:
    file: str
    line: int
    function: str

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "function": self.function}


@dataclass(frozen=True)
class ErrorEntry:
    source: str
    id: int | str  # the toolkit's id; crash reports get "crash-N" (the toolkit never sends those)
    severity: str
    message: str
    file: str = ""
    line: int = 0
    function: str = ""
    stack: tuple[Frame, ...] = ()
    count: int = 1
    time_ms: int = 0
    extra: dict[str, Any] = field(default_factory=dict)  # crash reports: last_lines, log_path, exit_code

    @property
    def key(self) -> tuple[str, int | str]:
        return (self.source, self.id)

    def same_error(self, other: ErrorEntry) -> bool:
        """The toolkit's identity of an error: severity, message, file, line."""
        return (self.severity, self.message, self.file, self.line) == (
            other.severity, other.message, other.file, other.line)

    def as_dict(self, *, stack_frames: int | None = None) -> dict[str, Any]:
        """The JSON form; empty location fields are left out, ``stack_frames`` trims the stack."""
        out: dict[str, Any] = {"source": self.source, "id": self.id, "severity": self.severity,
                               "message": self.message, "count": self.count, "time_ms": self.time_ms}
        if self.file:
            out["file"] = self.file
            out["line"] = self.line
        if self.function:
            out["function"] = self.function
        frames = self.stack if stack_frames is None else self.stack[:stack_frames]
        if frames:
            out["stack"] = [f.as_dict() for f in frames]
        out.update(self.extra)
        return out


# -- parsing the agreed wire ---------------------------------------------------------------


class Malformed(PeerError, ValueError):
    """One field of a push is not what the wire promises; the message names it."""


def _whole(value: Any, name: str, minimum: int = 0) -> int:
    # Godot's JSON numbers may arrive as floats; a whole one is an int.
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Malformed(f"{name} must be a whole number, not {type(value).__name__}")
    if isinstance(value, float) and not value.is_integer():
        raise Malformed(f"{name} must be a whole number, not {value!r}")
    if value < minimum:
        raise Malformed(f"{name} must be at least {minimum}, not {value!r}")
    return int(value)


def _text(value: Any, name: str, *, limit: int = MESSAGE_LIMIT) -> str:
    if not isinstance(value, str):
        raise Malformed(f"{name} must be a string, not {type(value).__name__}")
    # The game's own text reaches the model: no fake untrusted-envelope tags (the toolkit strips them too).
    value = untrusted.scrub_tags(value)
    return value if len(value) <= limit else value[:limit] + "…"


def _frames(raw: Any) -> tuple[Frame, ...]:
    if not isinstance(raw, list):
        raise Malformed(f"stack must be a list, not {type(raw).__name__}")
    frames = []
    for item in raw[:STACK_LIMIT]:
        if not isinstance(item, dict):
            raise Malformed("each stack frame must be an object")
        frames.append(Frame(_text(item.get("file", ""), "stack.file"), _whole(item.get("line", 0), "stack.line"),
                            _text(item.get("function", ""), "stack.function")))
    return tuple(frames)


def parse_entry(source: str, raw: Any) -> ErrorEntry:
    """One ``errors.reported`` entry; raises Malformed naming the bad field."""
    if not isinstance(raw, dict):
        raise Malformed(f"an entry must be an object, not {type(raw).__name__}")
    if "id" not in raw or "message" not in raw:
        raise Malformed("an entry needs id and message")
    severity = raw.get("severity")
    if severity not in SEVERITIES:
        raise Malformed(f"severity must be one of {', '.join(SEVERITIES)}, not {severity!r}")
    return ErrorEntry(
        source=source,
        id=_whole(raw["id"], "id"),
        severity=severity,
        message=_text(raw["message"], "message"),
        file=_text(raw.get("file", ""), "file"),
        line=_whole(raw.get("line", 0), "line"),
        function=_text(raw.get("function", ""), "function"),
        stack=_frames(raw.get("stack", [])),
        count=_whole(raw.get("count", 1), "count", 1),
        time_ms=_whole(raw.get("time_ms", 0), "time_ms"),
    )


def parse_reported(params: Any, *, channel: str) -> list[ErrorEntry]:
    """The valid entries of an ``errors.reported`` push; bad entries are skipped (logged at debug).

    ``channel`` is the connection it came on: the game's own server speaks only for the game.
    """
    if not isinstance(params, dict):
        raise Malformed("params must be an object")
    source = params.get("source")
    if source not in SOURCES:
        raise Malformed(f"source must be one of {', '.join(SOURCES)}, not {source!r}")
    if channel == "game" and source != "game":
        raise Malformed(f"the game's channel reported source {source!r}")
    raw_entries = params.get("entries")
    if not isinstance(raw_entries, list):
        raise Malformed("entries must be a list")
    entries = []
    for index, raw in enumerate(raw_entries):
        try:
            entries.append(parse_entry(source, raw))
        except Malformed as exc:
            log.debug("errors.reported entry %d ignored: %s", index, exc)
    return entries


def _telling_line(lines: list[str]) -> str:
    """The line that best says why: Godot prints ``ERROR: ...`` then ``   at: ...``, so the last
    ERROR line beats the last line."""
    stripped = [s.strip() for s in lines if s.strip()]
    errors = [s for s in stripped if "ERROR" in s]
    return (errors or stripped or [""])[-1]


def parse_crash(params: Any, crash_number: int) -> ErrorEntry:
    """A ``game_crashed`` push as an error entry of the game; raises Malformed."""
    if not isinstance(params, dict):
        raise Malformed("params must be an object")
    code = params.get("exit_code")
    exit_code = None if code is None else _whole(code, "exit_code", minimum=-(2**31))
    raw_lines = params.get("last_lines", [])
    if not isinstance(raw_lines, list) or not all(isinstance(s, str) for s in raw_lines):
        raise Malformed("last_lines must be a list of strings")
    lines = [_text(s, "last_lines") for s in raw_lines[-CRASH_LINES_LIMIT:]]
    log_path = _text(params.get("log_path", ""), "log_path")
    said = f"exit code {exit_code}" if exit_code is not None else "exit code unknown"
    last = _telling_line(lines)
    message = f"game crashed ({said})" + (f": {last}" if last else "")
    extra: dict[str, Any] = {"exit_code": exit_code, "last_lines": lines}
    if log_path:
        extra["log_path"] = log_path
    return ErrorEntry(source="game", id=f"crash-{crash_number}", severity="error",
                      message=_text(message, "message"), extra=extra)


# -- the store ---------------------------------------------------------------------------------

Listener = Callable[[list[ErrorEntry]], None]  # told the entries that are new (may be empty: only updates)


@dataclass
class GameSession:
    number: int = 0
    key: Any = None
    started_at: float | None = None  # wall clock, for the reader
    cleared: int = 0  # entries of the previous session dropped when this one began


class ErrorStore:
    def __init__(self, limit: int = DEFAULT_LIMIT) -> None:
        if limit < 1:
            raise ValueError("limit must be at least 1")
        self.limit = limit
        self._entries: OrderedDict[tuple[str, int | str], ErrorEntry] = OrderedDict()
        self._listeners: list[Listener] = []
        self.dropped = 0
        self.session = GameSession()
        self._crashes = 0

    def on_change(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def entries(self) -> list[ErrorEntry]:
        """Oldest first (by last report)."""
        return list(self._entries.values())

    # -- intake ------------------------------------------------------------------

    def push(self, name: str, params: Any, *, channel: str) -> None:
        """One toolkit push; anything but our two notifications is not ours and is left alone."""
        try:
            if name == REPORTED:
                self.add(parse_reported(params, channel=channel))
            elif name == CRASHED and channel == "editor":
                self._crashes += 1
                self.add([parse_crash(params, self._crashes)])
        except Malformed as exc:
            log.debug("%s push from the %s ignored: %s", name, channel, exc)

    def add(self, entries: list[ErrorEntry]) -> list[ErrorEntry]:
        """Store the entries; returns (and announces) those that are new."""
        new: list[ErrorEntry] = []
        changed = False
        for entry in entries:
            known = self._entries.get(entry.key)
            # time_ms is the process's clock: earlier than what we hold means another process
            # (a restart on a pinned port the session key cannot tell apart), so a new error.
            if known is not None and known.same_error(entry) and entry.time_ms >= known.time_ms:
                if entry.count <= known.count:
                    continue  # a re-push that says nothing new
                entry = replace(known, count=entry.count, time_ms=entry.time_ms or known.time_ms)
            else:
                new.append(entry)
            self._entries[entry.key] = entry
            self._entries.move_to_end(entry.key)
            changed = True
        while len(self._entries) > self.limit:
            self._entries.popitem(last=False)
            self.dropped += 1
        if changed:
            self._announce(new)
        return new

    def new_game_session(self, key: Any) -> bool:
        """A game process connected; ``key`` tells processes apart. True when it is a new one.

        The previous game's entries go (its ids would collide with the new process's)."""
        if key == self.session.key:
            return False
        stale = [k for k, e in self._entries.items() if e.source == "game"]
        for k in stale:
            del self._entries[k]
        self.session = GameSession(self.session.number + 1, key, time.time(), len(stale))
        log.info("game session %d began; %d entr%s of the previous game cleared", self.session.number,
                 len(stale), "y" if len(stale) == 1 else "ies")
        self._announce([])
        return True

    def _announce(self, new: list[ErrorEntry]) -> None:
        for listener in self._listeners:
            try:
                listener(new)
            except Exception:  # one bad listener must not cost the others their news
                log.exception("error-store listener failed")

    # -- the resource ------------------------------------------------------------------

    def document(self) -> dict[str, Any]:
        """What ``godot://errors`` reads: entries oldest first, counts, and what is missing."""
        entries = self.entries()
        counts = {s: sum(1 for e in entries if e.severity == s) for s in SEVERITIES}
        session = self.session
        return {
            "entries": [e.as_dict() for e in entries],
            "counts": counts,
            "limit": self.limit,
            "dropped": self.dropped,
            "game_session": {"number": session.number, "started_at": session.started_at,
                             "cleared_from_previous": session.cleared},
        }
