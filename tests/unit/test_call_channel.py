"""One rule says which channel a call goes to; what it waits for, where it is forwarded and what the
person is asked about it all follow that rule, for every tool whose caller picks the channel."""

from __future__ import annotations

import pytest

from godot_bridge.consent.question import argument
from godot_bridge.editor.forward import route
from godot_bridge.errors import ToolError
from godot_bridge.tools.catalogue import load_catalogue
from godot_bridge.tools.channels import call_channel
from godot_bridge.tools.dispatch import waits_for
from godot_bridge.tools.surface import extension_tool

TOOLS = load_catalogue().tools
PICKING = sorted(name for name, tool in TOOLS.items() if tool.handles("channel_arg"))
WAITS = {"editor": "the Godot editor to answer", "runtime": "the running game to answer"}
BOTH = {"type": "object", "properties": {"channel": {"type": "string", "enum": ["editor", "runtime", "game"]}}}


def test_the_catalogue_has_tools_whose_caller_picks_the_channel() -> None:
    assert PICKING == ["execute_code", "signal_emit"]


@pytest.mark.parametrize("name", PICKING)
@pytest.mark.parametrize("given", [None, "editor", "runtime"])
def test_waiting_forwarding_and_asking_agree_on_the_channel(name: str, given: str | None) -> None:
    tool = TOOLS[name]
    args = {} if given is None else {"channel": given}
    channel = call_channel(tool, args)
    assert channel == (given or tool.channel)
    assert route(tool, args)[0] == channel
    assert argument(tool, args, "channel") == channel
    assert waits_for(tool, args) == f"{name}: waiting for {WAITS[channel]}"


def test_an_extension_saying_game_goes_to_the_game_everywhere() -> None:
    ext = extension_tool({"method": "my_ext.both", "input_schema": BOTH})
    assert ext is not None and ext.handles("channel_arg")
    args = {"channel": "game"}
    assert call_channel(ext, args) == route(ext, args)[0] == argument(ext, args, "channel") == "runtime"
    assert waits_for(ext, args) == "my_ext_both: waiting for the running game to answer"


def test_a_channel_naming_none_is_refused_where_the_call_is_sent_and_waited_for_as_nothing() -> None:
    ext = extension_tool({"method": "my_ext.both", "input_schema": BOTH})
    assert ext is not None
    with pytest.raises(ToolError) as caught:
        call_channel(ext, {"channel": "lsp"})
    assert caught.value.code == "INVALID_PARAMS" and "'lsp'" in caught.value.message
    with pytest.raises(ToolError):
        route(ext, {"channel": "lsp"})
    assert waits_for(ext, {"channel": "lsp"}) == "my_ext_both: waiting for it to finish"


def test_a_tool_that_does_not_pick_keeps_its_own_channel_whatever_it_is_given() -> None:
    for name in ("scene_create", "runtime_get_node_state", "lsp_hover", "discover_tools"):
        assert call_channel(TOOLS[name], {"channel": "runtime"}) == TOOLS[name].channel
    assert waits_for(TOOLS["lsp_hover"], {}) == "lsp_hover: waiting for Godot's language server to answer"
    assert waits_for(TOOLS["discover_tools"], {}) == "discover_tools: waiting for it to finish"
