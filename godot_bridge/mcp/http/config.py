"""``--http`` settings: bind address, port, token and allowed origins, with their safety rule.

Kept apart from the ASGI server (``server.py``) so the command line can refuse an unsafe bind
before that stack is imported. A non-loopback bind without a bearer token is refused
unless ``--no-auth`` says so explicitly (and then we warn on stderr).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

from godot_bridge.config import ConfigError, parse_port
from godot_bridge.mcp.http.headers import is_loopback_host, parse_allowed_origins
from godot_bridge.mcp.http.sessions import IDLE_S, MAX_SESSIONS

log = logging.getLogger(__name__)

TOKEN_ENV = "GODOT_BRIDGE_HTTP_TOKEN"
ORIGINS_ENV = "MCP_ALLOWED_ORIGINS"

DEFAULT_PORT = 8765
# A tools/call can carry a whole script or image, but an HTTP body is held in memory at once.
MAX_BODY = 64 * 1024 * 1024
# A silent SSE stream gets a comment line this often, so proxies do not drop it as idle.
KEEPALIVE_S = 15.0

@dataclass(frozen=True)
class HttpOptions:
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    token: str | None = None  # bearer token every /mcp request must carry (None: no auth)
    allowed_origins: frozenset[str] = frozenset()
    max_body: int = MAX_BODY
    keepalive_s: float = KEEPALIVE_S
    session_idle_s: float = IDLE_S  # a handshake session with no request and no open stream ends after this
    max_sessions: int = MAX_SESSIONS  # beyond this, the session idle longest is dropped


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
