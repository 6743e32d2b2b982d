"""The session store on its own: ids, expiry, the cap, the standing stream's queue (fake clock)."""

from __future__ import annotations

import pytest

from godot_bridge.mcp.http.sessions import BACKLOG, Session, SessionStore
from godot_bridge.mcp.core.peers import Peer
from godot_bridge.tools.catalogue import load_catalogue
from godot_bridge.tools.surface import Surface, ToolList

SURFACE = Surface(load_catalogue())


def peer() -> Peer:
    return Peer(ToolList(SURFACE), standing=True)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def store(**kwargs) -> tuple[SessionStore, Clock, list[Session]]:
    clock, ended = Clock(), []
    return SessionStore(clock=clock, on_end=ended.append, **kwargs), clock, ended


def test_ids_are_random_visible_ascii_and_unguessable():
    sessions, _, _ = store(max_sessions=100)
    ids = {sessions.open(peer()).id for _ in range(50)}
    assert len(ids) == 50
    assert all(len(i) >= 32 and all(0x21 <= ord(c) <= 0x7E for c in i) for i in ids)


def test_an_idle_session_expires_and_its_end_is_reported():
    sessions, clock, ended = store(idle_s=60)
    kept, dropped = sessions.open(peer()), sessions.open(peer())
    clock.now += 59
    assert sessions.get(kept.id) is kept  # a request: used now
    clock.now += 2
    assert sessions.get(dropped.id) is None and ended == [dropped] and dropped.ended
    assert sessions.get(kept.id) is kept


def test_an_open_stream_is_not_idle():
    sessions, clock, _ = store(idle_s=60)
    watching = sessions.open(peer())
    watching.stream_open = True
    clock.now += 3600
    sessions.sweep()
    assert sessions.get(watching.id) is watching


def test_the_cap_drops_the_least_recently_used_without_a_stream_first():
    sessions, clock, ended = store(max_sessions=3)
    a, b, c = (sessions.open(peer()) for _ in range(3))
    a.stream_open = True  # oldest, but listening
    clock.now += 1
    sessions.get(b.id)
    d = sessions.open(peer())
    assert ended == [c] and len(sessions) == 3
    b.stream_open = d.stream_open = True
    sessions.open(peer())
    assert ended == [c, a]  # everyone listens: the least recently used goes


def test_the_queue_keeps_notifications_for_the_next_stream_and_drops_the_oldest():
    session = Session("id", peer(), 0.0)
    for i in range(BACKLOG + 5):
        session.push("notifications/message", {"i": i})
    assert len(session._pending) == BACKLOG and session._pending[0]["params"] == {"i": 5}
    session.end()
    session.push("notifications/tools/list_changed")
    assert not session._pending


async def test_next_message_waits_for_a_push_or_the_timeout():
    session = Session("id", peer(), 0.0)
    assert await session.next_message(0.01) is None
    session.push("notifications/tools/list_changed")
    assert await session.next_message(1) == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
    session.end()
    assert await session.next_message(1) is None


def test_a_store_without_room_is_refused():
    with pytest.raises(ValueError):
        SessionStore(max_sessions=0)
