"""Handshake-era sessions over Streamable HTTP (the 2025-06-18 / 2025-11-25 transport).

``initialize`` opens one: its answer carries ``Mcp-Session-Id`` (random and unguessable) and the
client sends it back on every later request. A session is one MCP client, a ``Peer``: its own
tool list, log level and subscriptions, and a standing stream (``GET /mcp``) for what it is told
without asking: tool-list changes from any cause, log messages at or above its level, updates of
what it subscribed to. Messages that arrive while no stream is open wait (at most ``BACKLOG``,
oldest dropped first) for the next one.

``DELETE /mcp`` ends a session; so do ``idle_s`` seconds with neither a request nor an open
stream; beyond ``max_sessions`` the session idle longest is dropped to make room. An ended or
unknown id is answered 404, on which clients initialize again. 2026-07-28 has no sessions.

Pure bookkeeping: no HTTP here (``server.py`` wires it), and time comes from an injectable clock.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from godot_bridge.mcp.core.peers import Peer

log = logging.getLogger(__name__)

SESSION_HEADER = "mcp-session-id"
IDLE_S = 30 * 60.0
MAX_SESSIONS = 32
BACKLOG = 256  # notifications kept for a session whose stream is not open
# -32001: what the TypeScript SDK's servers answer for an unknown session (JSON-RPC's server range).
SESSION_NOT_FOUND = -32001
SESSION_ENDED = -32000  # JSON-RPC's "connection closed": what a request to the client gets when its session ends


@dataclass(eq=False)
class Session:
    id: str
    peer: Peer
    last_used: float
    # The handshake the client made: every later request of the session is served in its version.
    version: str | None = None
    client_params: dict[str, Any] | None = None
    stream_open: bool = False
    ended: bool = False
    _pending: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=BACKLOG))
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    # Requests we sent the client (elicitation/create on a request's stream), by id, awaiting its answer.
    _asked: dict[str, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    _next_ask: int = 0

    def expect_answer(self) -> tuple[str, asyncio.Future[dict[str, Any]]]:
        """A fresh id for a request to the client, and the future its posted response resolves."""
        self._next_ask += 1
        rid = f"godot-bridge-{self._next_ask}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._asked[rid] = future
        return rid, future

    def forget_answer(self, rid: str) -> None:
        self._asked.pop(rid, None)

    def answered(self, message: Mapping[str, Any]) -> bool:
        """A response the client posted: settles the request it answers; False when none waits for it."""
        future = self._asked.pop(str(message.get("id")), None)
        if future is None or future.done():
            return False
        future.set_result(dict(message))
        return True

    def push(self, method: str, params: Mapping[str, Any] | None = None) -> None:
        """Queue a notification for the standing stream (never blocks)."""
        if self.ended:
            return
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = dict(params)
        self._pending.append(message)
        self._wake.set()

    async def notify(self, method: str, params: Mapping[str, Any] | None) -> None:
        """``push`` as the ``Notify`` a ``Peer`` sends through."""
        self.push(method, params)

    async def next_message(self, timeout: float) -> dict[str, Any] | None:
        """The next queued notification; None when ``timeout`` passed first or the session ended."""
        if not self._pending and not self.ended:
            self._wake.clear()
            try:
                await asyncio.wait_for(self._wake.wait(), timeout)
            except TimeoutError:
                return None
        if self.ended or not self._pending:
            return None
        return self._pending.popleft()

    def end(self) -> None:
        self.ended = True
        self._pending.clear()
        self._wake.set()
        for future in self._asked.values():  # a question still open gets no answer: the session is gone
            if not future.done():
                future.set_result({"error": {"code": SESSION_ENDED, "message": "the session ended"}})
        self._asked.clear()


class SessionStore:
    """The live sessions, least recently used first."""

    def __init__(self, *, idle_s: float = IDLE_S, max_sessions: int = MAX_SESSIONS,
                 on_end: Callable[[Session], None] = lambda session: None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if max_sessions < 1:
            raise ValueError("max_sessions must be at least 1")
        self.idle_s, self.max_sessions = idle_s, max_sessions
        self._on_end, self._clock = on_end, clock
        self._sessions: OrderedDict[str, Session] = OrderedDict()

    def __len__(self) -> int:
        return len(self._sessions)

    def open(self, peer: Peer) -> Session:
        """A new session for ``peer``, making room first if the store is full."""
        self.sweep()
        while len(self._sessions) >= self.max_sessions:
            self.end(self._oldest_idle().id, reason="the session limit was reached")
        session = Session(secrets.token_urlsafe(24), peer, self._clock())
        self._sessions[session.id] = session
        log.info("HTTP session %s… opened (%d in all)", session.id[:6], len(self._sessions))
        return session

    def get(self, session_id: str) -> Session | None:
        """The live session with this id (marked used now); None when unknown, ended or expired."""
        self.sweep()
        session = self._sessions.get(session_id)
        if session is not None:
            self.touch(session)
        return session

    def touch(self, session: Session) -> None:
        session.last_used = self._clock()
        self._sessions.move_to_end(session.id)

    def end(self, session_id: str, reason: str = "the client ended it") -> bool:
        session = self._sessions.pop(session_id, None)
        if session is None:
            return False
        session.end()
        self._on_end(session)
        log.info("HTTP session %s… ended: %s (%d left)", session_id[:6], reason, len(self._sessions))
        return True

    def sweep(self) -> None:
        """End every session idle (no request, no open stream) for ``idle_s`` or more."""
        now = self._clock()
        for session in list(self._sessions.values()):
            if not session.stream_open and now - session.last_used >= self.idle_s:
                self.end(session.id, reason="it was idle too long")

    def _oldest_idle(self) -> Session:
        # Least recently used first; one with an open stream only when every session has one.
        return next((s for s in self._sessions.values() if not s.stream_open), next(iter(self._sessions.values())))

    def close(self) -> None:
        for session_id in list(self._sessions):
            self.end(session_id, reason="the server is stopping")
