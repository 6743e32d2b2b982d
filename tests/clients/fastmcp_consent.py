"""Tool calls through FastMCP's client (see README.md); FastMCP asks through the SDK underneath."""

from __future__ import annotations

import asyncio
import json
import os
import sys

from fastmcp import Client
from fastmcp.client.elicitation import ElicitResult
from fastmcp.client.transports import StdioTransport, StreamableHttpTransport

async def run(spec: dict) -> dict:
    asked: list[str] = []

    async def on_elicit(message, response_type, params, context):  # noqa: ANN001 - FastMCP's handler signature
        asked.append(message)
        await asyncio.sleep(spec.get("reads_s", 0))  # the person reads the question
        if spec["answer"] == "accept":
            return ElicitResult(action="accept", content={"allow": True})
        return ElicitResult(action=spec["answer"])

    if spec["server"] == "stdio":
        transport = StdioTransport(command=os.environ["BRIDGE_PYTHON"], args=["-m", "godot_bridge"],
                                   env=dict(os.environ), cwd=os.environ["BRIDGE_ROOT"])
    else:
        transport = StreamableHttpTransport(spec["server"])
    handler = {"elicitation_handler": on_elicit} if spec["answer"] is not None else {}
    mode = "2026-07-28" if spec["era"] == "modern" else "legacy"
    async with Client(transport, mode=mode, **handler) as client:
        result = await client.call_tool(spec["tool"], spec["arguments"], raise_on_error=False)
        return {"asked": len(asked), "protocol": client.protocol_version, "result": json.loads(result.content[0].text)}


async def main() -> None:
    for spec in json.loads(sys.argv[1]):
        print(json.dumps(await run(spec)), flush=True)


asyncio.run(main())
