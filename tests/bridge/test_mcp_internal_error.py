"""An unexpected handler failure is -32603 with no internals on the wire, in both eras."""

from __future__ import annotations

import json
import os

import anyio
from mcp.server.lowlevel import NotificationOptions, Server

from godot_bridge.mcp.core.era_router import EraRouter
from godot_bridge.mcp.core.peers import Peer
from godot_bridge.mcp.stdio.sdk_dispatch import serve_stdio
from godot_bridge.tools.catalogue import load_catalogue
from godot_bridge.tools.surface import Surface, ToolList
from tests.support.bridge_process import MODERN_META


async def _serve_lines(lines: list[dict]) -> list[dict]:
    async def list_tools(ctx, params):
        raise RuntimeError("secret internal detail /home/user/token")

    server = Server("t", version="0", on_list_tools=list_tools)
    init = server.create_initialization_options(NotificationOptions(tools_changed=True))
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    with os.fdopen(in_w, "wb") as w:
        w.write(b"".join(json.dumps(line).encode() + b"\n" for line in lines))
    stdin, stdout = os.fdopen(in_r, "rb"), os.fdopen(out_w, "wb", buffering=0)

    def handlers(dispatcher):
        router = EraRouter(server, dispatcher, init, Peer(ToolList(Surface(load_catalogue())), standing=True))
        return router.on_request, router.on_notify

    with anyio.fail_after(10):
        await serve_stdio(handlers, stdin=stdin, stdout=stdout)
    stdout.close()
    stdin.close()
    with os.fdopen(out_r, "rb") as r:
        return [json.loads(line) for line in r.read().splitlines()]


async def test_handler_crash_is_internal_error_without_details():
    out = await _serve_lines([
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": MODERN_META}},
    ])
    by_id = {m["id"]: m for m in out}
    for rid in (1, 2):
        err = by_id[rid]["error"]
        assert err["code"] == -32603
        assert "secret" not in json.dumps(err) and "Traceback" not in json.dumps(err)
