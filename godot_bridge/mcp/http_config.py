"""``--http`` settings: bind address, port, token and allowed origins, with their safety rule.

Kept apart from http.py so the command line can refuse an unsafe bind before the
ASGI stack is imported. A non-loopback bind without a bearer token is refused
unless ``--no-auth`` says so explicitly (and then we warn on stderr).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from godot_bridge.config import ConfigError, parse_port
from godot_bridge.mcp.http import DEFAULT_PORT, HttpOptions
from godot_bridge.mcp.http_headers import is_loopback_host, parse_allowed_origins

log = logging.getLogger(__name__)

TOKEN_ENV = "GODOT_BRIDGE_HTTP_TOKEN"
ORIGINS_ENV = "MCP_ALLOWED_ORIGINS"


def http_options(values: Mapping[str, str], no_auth: bool, env: Mapping[str, str]) -> HttpOptions:
    """Flags (``--host``, ``--port``) and the environment as ``HttpOptions``; ConfigError names the problem."""
    host = values.get("--host", "127.0.0.1").strip()
    if not host:
        raise ConfigError("--host needs a non-empty address")
    port = parse_port(values["--port"], "--port") if "--port" in values else DEFAULT_PORT
    token = env.get(TOKEN_ENV, "").strip() or None
    if no_auth:
        token = None
        if not is_loopback_host(host):
            log.warning("--no-auth on %s: anyone who can reach this address can drive your editor", host)
    elif token is None and not is_loopback_host(host):
        raise ConfigError(f"--host {host} is reachable from other machines: set {TOKEN_ENV} "
                          "(clients send 'Authorization: Bearer <token>') or pass --no-auth explicitly")
    return HttpOptions(host=host, port=port, token=token, allowed_origins=parse_allowed_origins(env.get(ORIGINS_ENV)))
