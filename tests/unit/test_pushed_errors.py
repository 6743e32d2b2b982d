"""The store of pushed Godot errors: parsing the agreed wire, updates, bounds, game sessions."""

from __future__ import annotations

from typing import Any

import pytest

from godot_bridge.editor.pushed_errors import (
    ErrorEntry,
    ErrorStore,
    Malformed,
    parse_crash,
    parse_entry,
    parse_reported,
)
from godot_bridge.mcp.core.error_feed import LOGS_PER_BATCH, at_least, log_events


def raw(id: int, message: str = "boom", **fields: Any) -> dict[str, Any]:
    base = {"id": id, "severity": "error", "message": message, "file": "res://a.gd", "line": 3,
            "function": "f", "stack": [], "count": 1, "time_ms": 10}
    return {**base, **fields}


def push(store: ErrorStore, source: str, *entries: dict[str, Any], channel: str | None = None) -> None:
    store.push("errors.reported", {"source": source, "entries": list(entries)}, channel=channel or source)


class Recorder:
    def __init__(self, store: ErrorStore) -> None:
        self.calls: list[list[ErrorEntry]] = []
        store.on_change(self.calls.append)


def test_entry_parsed_with_whole_floats_and_defaults():
    entry = parse_entry("game", {"id": 4.0, "severity": "warning", "message": "m"})
    assert (entry.id, entry.file, entry.line, entry.count, entry.stack) == (4, "", 0, 1, ())
    assert entry.as_dict() == {"source": "game", "id": 4, "severity": "warning", "message": "m", "count": 1,
                               "time_ms": 0}


@pytest.mark.parametrize(("bad", "named"), [
    ({"id": 1, "severity": "fatal", "message": "m"}, "severity"),
    ({"id": True, "severity": "error", "message": "m"}, "id"),
    ({"id": 1.5, "severity": "error", "message": "m"}, "id"),
    ({"id": 1, "severity": "error", "message": 3}, "message"),
    ({"id": 1, "severity": "error", "message": "m", "line": -1}, "line"),
    ({"id": 1, "severity": "error", "message": "m", "count": 0}, "count"),
    ({"id": 1, "severity": "error", "message": "m", "stack": {}}, "stack"),
    ({"id": 1, "severity": "error", "message": "m", "stack": [{"line": "x"}]}, "stack.line"),
    ({"severity": "error", "message": "m"}, "id"),
    ("an entry", "object"),
])
def test_malformed_entry_names_the_field(bad: Any, named: str):
    with pytest.raises(Malformed, match=named):
        parse_entry("editor", bad)


def test_bad_entries_are_skipped_and_bad_params_refused():
    good = parse_reported({"source": "editor", "entries": [raw(1), {"id": "x"}, raw(2)]}, channel="editor")
    assert [e.id for e in good] == [1, 2]
    for params in ("text", {"source": "x", "entries": []}, {"source": "game", "entries": {}}):
        with pytest.raises(Malformed):
            parse_reported(params, channel="editor")
    with pytest.raises(Malformed, match="game's channel"):
        parse_reported({"source": "editor", "entries": []}, channel="game")


def test_envelope_tags_are_scrubbed_from_pushed_text():
    entry = parse_entry("game", raw(1, "a</untrusted-1234abcd>b", function="<untrusted kind=x>f"))
    assert (entry.message, entry.function) == ("ab", "f")
    crash = parse_crash({"last_lines": ["<untrusted>ERROR: x"] * 100}, 1)
    assert crash.extra["last_lines"] == ["ERROR: x"] * 40


def test_long_message_and_stack_are_bounded():
    entry = parse_entry("game", raw(1, "x" * 10_000, stack=[{"file": "a", "line": 1, "function": "f"}] * 100))
    assert len(entry.message) == 4001 and entry.message.endswith("…")
    assert len(entry.stack) == 32 and len(entry.as_dict(stack_frames=5)["stack"]) == 5


def test_repeat_updates_the_count_and_is_not_new():
    store = ErrorStore()
    heard = Recorder(store)
    push(store, "editor", raw(1))
    push(store, "editor", raw(1, count=5, time_ms=99))
    push(store, "editor", raw(1, count=5, time_ms=99))  # says nothing new: no announcement
    assert [len(c) for c in heard.calls] == [1, 0]
    (only,) = store.entries()
    assert (only.count, only.time_ms) == (5, 99)


def test_reused_id_with_another_error_is_a_new_error():
    store = ErrorStore()
    heard = Recorder(store)
    push(store, "game", raw(1, "first"))
    push(store, "game", raw(1, "second"))  # the game restarted and its ids began again
    assert [[e.message for e in c] for c in heard.calls] == [["first"], ["second"]]
    assert [e.message for e in store.entries()] == ["second"]


def test_same_error_from_a_restarted_process_is_new():
    store = ErrorStore()
    heard = Recorder(store)
    push(store, "editor", raw(1, count=4, time_ms=5000))
    push(store, "editor", raw(1, count=1, time_ms=300))  # its clock went back: another process
    assert [len(c) for c in heard.calls] == [1, 1]
    assert [(e.count, e.time_ms) for e in store.entries()] == [(1, 300)]


def test_sources_are_keyed_apart():
    store = ErrorStore()
    push(store, "game", raw(1))
    push(store, "editor", raw(1))
    assert [e.key for e in store.entries()] == [("game", 1), ("editor", 1)]


def test_bound_drops_least_recently_reported_and_counts_it():
    store = ErrorStore(limit=3)
    push(store, "game", raw(1, "a"), raw(2, "b"), raw(3, "c"))
    push(store, "game", raw(1, "a", count=2))  # reported again: now the most recent
    push(store, "game", raw(4, "d"))
    assert [e.id for e in store.entries()] == [3, 1, 4]
    assert store.document()["dropped"] == 1


def test_new_game_session_clears_game_entries_and_says_so():
    store = ErrorStore()
    heard = Recorder(store)
    assert store.new_game_session((6570, 100))
    push(store, "game", raw(1), raw(2))
    push(store, "editor", raw(1))
    assert not store.new_game_session((6570, 100))  # the same process reconnecting
    assert store.new_game_session((6571, 101))
    doc = store.document()
    assert [(e["source"], e["id"]) for e in doc["entries"]] == [("editor", 1)]
    assert doc["game_session"]["number"] == 2 and doc["game_session"]["cleared_from_previous"] == 2
    assert heard.calls[-1] == []  # announced as a change


def test_crash_becomes_a_game_error():
    store = ErrorStore()
    store.push("game_crashed", {"exit_code": None, "last_lines": ["a", "SCRIPT ERROR: x", "  at: y", ""],
                                "log_path": ""}, channel="editor")
    store.push("game_crashed", {"exit_code": 1, "last_lines": []}, channel="game")  # only the editor reports crashes
    (crash,) = store.entries()
    assert crash.key == ("game", "crash-1") and crash.severity == "error"
    assert crash.message == "game crashed (exit code unknown): SCRIPT ERROR: x"
    assert "log_path" not in crash.as_dict() and crash.as_dict()["exit_code"] is None


@pytest.mark.parametrize("params", ["x", {"exit_code": "11"}, {"last_lines": "boom"}, {"last_lines": [1]}])
def test_malformed_crash_is_refused(params: Any):
    with pytest.raises(Malformed):
        parse_crash(params, 1)


def test_malformed_push_is_ignored_and_unknown_ones_left_alone():
    store = ErrorStore()
    heard = Recorder(store)
    store.push("errors.reported", None, channel="editor")
    store.push("something.else", {"source": "editor", "entries": [raw(1)]}, channel="editor")
    assert store.entries() == [] and heard.calls == []


def test_document_counts_by_severity():
    store = ErrorStore()
    push(store, "editor", raw(1), raw(2, "w", severity="warning"), raw(3, "w2", severity="warning"))
    assert store.document()["counts"] == {"error": 1, "warning": 2}


def test_log_events_sum_up_a_large_batch():
    entries = [parse_entry("game", raw(i, f"m{i}", severity="warning")) for i in range(LOGS_PER_BATCH + 3)]
    events = log_events(entries)
    assert len(events) == LOGS_PER_BATCH + 1
    assert events[0].logger == "godot.game" and events[0].level == "warning"
    assert events[-1].data["more"] == 3 and events[-1].level == "warning"


def test_levels_are_ordered():
    assert at_least("error", "warning") and not at_least("warning", "error") and at_least("warning", "debug")
