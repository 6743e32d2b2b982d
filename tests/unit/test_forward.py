"""Routing and shaping rules of forwarding, without a socket."""

from __future__ import annotations

import json

import pytest

from godot_bridge.editor.facts import parse_version
from godot_bridge.editor.forward import CRASH_LINE_CHARS, crash_lines, route, shape, timeout_seconds, toolkit_failure_code
from godot_bridge.errors import ToolError
from godot_bridge.tools.catalogue import load_catalogue
from godot_bridge.tools.surface import extension_tool

TOOLS = load_catalogue().tools


@pytest.mark.parametrize(
    ("name", "given", "expected"),
    [
        ("execute_code", None, "runtime"),  # the catalogue's channel is the default
        ("execute_code", "editor", "editor"),
        ("execute_code", "runtime", "runtime"),
        ("execute_code", "game", "runtime"),
        ("signal_emit", None, "editor"),
        ("signal_emit", "runtime", "runtime"),
        ("signal_emit", "game", "runtime"),
        ("signal_emit", "editor", "editor"),
    ],
)
def test_channel_argument_routes_and_is_stripped(name, given, expected):
    args = {"code": "return 1", "node_path": "/root", "signal_name": "s"}
    if given is not None:
        args["channel"] = given
    channel, params = route(TOOLS[name], args)
    assert channel == expected
    assert "channel" not in params  # the toolkit handlers do not read it
    assert {k: v for k, v in args.items() if k != "channel"} == params
    assert "channel" in args or given is None  # the caller's dict is not mutated


def test_bad_channel_value():
    with pytest.raises(ToolError) as caught:
        route(TOOLS["execute_code"], {"code": "x", "channel": "lsp"})
    assert caught.value.code == "INVALID_PARAMS" and "'lsp'" in caught.value.message


def test_other_tools_keep_a_channel_named_param_and_their_own_channel():
    channel, params = route(TOOLS["scene_create"], {"file_path": "res://a.tscn", "channel": "x"})
    assert channel == "editor" and params["channel"] == "x"
    assert route(TOOLS["runtime_get_node_state"], {"node_path": "/root"})[0] == "runtime"


def test_an_extension_with_a_channel_enum_picks_its_channel_per_call():
    both = {"type": "object", "properties": {"channel": {"type": "string", "enum": ["editor", "runtime"]}}}
    ext = extension_tool({"method": "my_ext.both", "input_schema": both})
    assert ext is not None and ext.handles("channel_arg")
    assert route(ext, {"channel": "game", "x": 1}) == ("runtime", {"x": 1})
    one = {"type": "object", "properties": {"channel": {"type": "string", "enum": ["editor", 5]}}}
    plain = extension_tool({"method": "my_ext.one", "input_schema": one})
    assert plain is not None and not plain.handling
    assert route(plain, {"channel": "runtime"}) == ("editor", {"channel": "runtime"})


def test_lsp_and_bridge_tools_are_not_forwarded():
    for name in ("lsp_hover", "discover_tools"):
        with pytest.raises(ToolError) as caught:
            route(TOOLS[name], {})
        assert caught.value.code == "INTERNAL"


def test_every_forwarded_tool_routes_to_its_catalogue_channel():
    for tool in TOOLS.values():
        if tool.channel in ("editor", "runtime"):
            assert route(tool, {})[0] == tool.channel


def test_timeout_from_catalogue():
    assert timeout_seconds(TOOLS["game_start"]) == 60.0
    assert timeout_seconds(TOOLS["scene_create"]) is None


def test_success_is_verbatim_with_sorted_keys():
    payload = {"success": True, "z": 1, "a": {"y": [{"b": 2, "a": 1}], "x": "é"}}
    out = shape(payload)
    assert not out.is_error
    assert out.content == [{"type": "text", "text": '{"a":{"x":"é","y":[{"a":1,"b":2}]},"success":true,"z":1}'}]
    assert json.loads(out.content[0]["text"]) == payload
    assert list(out.structured) == ["a", "success", "z"]


def test_success_hint_only_when_the_toolkit_gave_none():
    assert shape({"success": True}, "next: game_stop").structured["hint"] == "next: game_stop"
    assert shape({"success": True, "hint": "mine"}, "next").structured["hint"] == "mine"


def test_toolkit_failure_envelope():
    out = shape({"success": False, "error": "no such file", "code": "NOT_FOUND", "hint": "check"})
    assert out.is_error
    assert out.structured == {"success": False, "error": "no such file", "code": "NOT_FOUND", "hint": "check"}
    bare = shape({"success": False, "error": "boom"})
    assert bare.structured == {"success": False, "error": "boom", "code": "INTERNAL"}
    assert toolkit_failure_code({"success": False}) == "INTERNAL"
    assert toolkit_failure_code({"success": True}) is None


def test_screenshots_get_an_image_block():
    inline = shape({"success": True, "image_base64": "iVBOR", "mime_type": "image/png", "width": 2}, image=True)
    assert inline.content[0] == {"type": "image", "data": "iVBOR", "mimeType": "image/png"}
    assert json.loads(inline.content[1]["text"]) == {"mime_type": "image/png", "success": True, "width": 2}
    disk = shape({"success": True, "path": "/u/shot.png", "bytes": 10}, image=True)
    assert [c["type"] for c in disk.content] == ["text"]
    empty = shape({"success": True}, image=True)
    assert empty.is_error and empty.structured["code"] == "EMPTY_CONTENT"
    failed = shape({"success": False, "error": "min", "code": "RUNTIME_WINDOW_MINIMIZED"}, image=True)
    assert failed.is_error and failed.structured["code"] == "RUNTIME_WINDOW_MINIMIZED"


def test_crash_lines_prefers_errors_then_the_tail_and_is_bounded():
    reply = {
        "success": True,
        "lines": [f"line {i}" for i in range(100)] + ["x" * 5000],
        "error_buffer": [{"message": "Invalid call", "source": "res://player.gd", "line": 12}],
    }
    lines = crash_lines(reply)
    assert lines[0] == "Invalid call (res://player.gd:12)"
    assert len(lines) == 8
    assert lines[-1].endswith("...") and len(lines[-1]) == CRASH_LINE_CHARS
    assert lines[1:-1] == [f"line {i}" for i in range(94, 100)]


@pytest.mark.parametrize("reply", [None, "text", {"success": False, "code": "LOG_BUSY"}, {"success": True}, {"lines": []}])
def test_crash_lines_tolerates_anything(reply):
    assert crash_lines(reply) == []


def test_crash_lines_from_a_text_log():
    assert crash_lines({"log": "a\n\nb\n"}) == ["a", "b"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("4.5.1", (4, 5)), ("4.2", (4, 2)), ("4.5-stable", (4, 5)), ("4.4.stable.official", (4, 4)), ("four", None), (None, None)],
)
def test_parse_version(text, expected):
    assert parse_version(text) == expected
