"""The MCP SDK's ``Client``, started the same way at every ``mcp`` release the bridge's range allows.

mcp 2.1 and later take a stdio command (``StdioServerParameters``) as the server to connect to and
wrap it in ``stdio_client`` themselves; mcp 2.0's ``Client`` takes only a URL, a transport or an
in-process server. Handing it ``stdio_client(params)`` is what the later releases do inside, so the
tests connect the same way at both ends of the range.
"""

from __future__ import annotations

from typing import Any

from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client


def sdk_client(server: Any, **options: Any) -> Client:
    """``Client(server, **options)``; a stdio command is connected through ``stdio_client``."""
    if isinstance(server, StdioServerParameters):
        server = stdio_client(server)
    return Client(server, **options)
