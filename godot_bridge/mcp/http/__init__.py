"""MCP over Streamable HTTP: the ASGI endpoint, its header and status rules, handshake-era
sessions and the ``--http`` settings."""
