"""The running game through its runtime server, end to end: an error the game pushes reaches the
client unasked (a log notification and a godot://errors update), and a screenshot of the engine's
real viewport comes back inline and as a link whose PNG the client reads in full."""

from __future__ import annotations

import base64
import json
import struct

import pytest

from tests.support.bridge_process import BridgeProcess
from tests.engine.e2e.call_list import body
from tests.sim.fixtures import until

pytestmark = pytest.mark.asyncio(loop_scope="session")

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG_SIGNATURE, data[:16]
    width, height = struct.unpack(">II", data[16:24])
    return width, height


async def viewport_size(bridge: BridgeProcess) -> tuple[int, int]:
    answer = body(await bridge.call_tool_confirmed(
        "execute_code", {"code": "scene.get_viewport().get_visible_rect().size", "channel": "runtime"}))
    return int(answer["value"]["x"]), int(answer["value"]["y"])


async def test_a_push_error_in_the_game_reaches_the_client(stdio: BridgeProcess, playing: None) -> None:
    await stdio.request("logging/setLevel", {"level": "warning"})
    await stdio.request("resources/subscribe", {"uri": "godot://errors"})
    start = len(stdio.notifications)
    message = "e2e: the player fell through the floor"
    called = await stdio.call_tool_confirmed(
        "execute_code", {"code": f'scene.get_node("Player").report_problem("{message}")', "channel": "runtime"})
    assert called["isError"] is False, called

    def game_error() -> dict | None:
        for note in stdio.notifications[start:]:
            params = note.get("params", {})
            if note.get("method") == "notifications/message" and params.get("logger") == "godot.game" \
                    and message in json.dumps(params.get("data")):
                return note
        return None

    await until(lambda: game_error() is not None, timeout=15, what="the game's error as a log notification")
    note = game_error()
    assert note is not None, [n.get("method") for n in stdio.notifications[start:]]
    assert note["params"]["level"] == "error"
    updated = await stdio.wait_notification("notifications/resources/updated", start=start, timeout=15)
    assert updated["params"]["uri"] == "godot://errors"
    read = await stdio.request("resources/read", {"uri": "godot://errors"})
    text = read["result"]["contents"][0]["text"]
    assert message in text


async def test_a_screenshot_of_the_real_viewport_inline_and_as_a_link(stdio: BridgeProcess, playing: None) -> None:
    size = await viewport_size(stdio)
    inline = await stdio.call_tool("runtime_screenshot", {})
    images = [block for block in inline["content"] if block["type"] == "image"]
    assert len(images) == 1 and images[0]["mimeType"] == "image/png"
    assert png_size(base64.b64decode(images[0]["data"])) == size

    linked = await stdio.call_tool("runtime_screenshot", {"image_response_mode": "link"})
    links = [block for block in linked["content"] if block["type"] == "resource_link"]
    assert len(links) == 1 and links[0]["mimeType"] == "image/png", linked["content"]
    assert not [block for block in linked["content"] if block["type"] == "image"], "a link costs no image"
    read = await stdio.request("resources/read", {"uri": links[0]["uri"]})
    data = base64.b64decode(read["result"]["contents"][0]["blob"])
    assert len(data) == links[0]["size"]
    assert png_size(data) == size
