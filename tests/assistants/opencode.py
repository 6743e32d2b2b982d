"""opencode (``opencode-ai``) run headless (``opencode run``) against the scripted model.

Offline: the person's own config (``$XDG_CONFIG_HOME/opencode/opencode.json``) defines a provider
through the bundled ``@ai-sdk/openai-compatible`` package whose ``baseURL`` is the model server
(chat completions, openai_chat.py) and makes it the model; ``npm_config_offline=true`` and
``OPENCODE_DISABLE_MODELS_FETCH=1`` keep it from the package registry and models.dev. Its MCP servers
come only from the ``"mcp"`` object of ``opencode.json[c]`` (``{"type": "local", "command": [...],
"environment": {...}}``), the project's file being what ``godot-bridge init --client opencode`` writes.
It asks the model for a session title first (a request without tools: auxiliary).

Our tools reach the model as ``<server key>_<tool>``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tests.assistants.model_server import ModelServer
from tests.assistants.openai_chat import ChatAdapter
from tests.assistants.sandbox import SERVER_KEY, CliRun, Sandbox


def prefix(key: str) -> str:
    """How opencode names the tools of the server ``key``: prefix + tool."""
    return f"{key}_"


PREFIX = prefix(SERVER_KEY)
MODEL = "scripted/m"


def adapter() -> ChatAdapter:
    return ChatAdapter([PREFIX])


def user_config(server: ModelServer) -> dict[str, Any]:
    provider = {"npm": "@ai-sdk/openai-compatible", "name": "Scripted",
                "options": {"baseURL": server.url + "/v1", "apiKey": "sk-test"},
                "models": {"m": {"name": "m", "tool_call": True}}}
    return {"$schema": "https://opencode.ai/config.json", "provider": {"scripted": provider}, "model": MODEL,
            "autoupdate": False, "share": "disabled"}


def run(sandbox: Sandbox, server: ModelServer, prompt: str, *, env: Mapping[str, str] | None = None,
        timeout: float = 120) -> CliRun:
    home = sandbox.new_home("opencode")
    base = sandbox.env(home)
    config_dir = home / ".config" / "opencode"
    config_dir.mkdir(parents=True)
    (config_dir / "opencode.json").write_text(json.dumps(user_config(server)), encoding="utf-8")
    full_env = {**base, "npm_config_offline": "true", "OPENCODE_DISABLE_MODELS_FETCH": "1",
                "OPENCODE_DISABLE_AUTOUPDATE": "1", "NO_COLOR": "1", **(env or {})}
    argv = [str(sandbox.cli("opencode")), "run", "--print-logs", prompt]
    return sandbox.run(argv, full_env, server, home, timeout=timeout)
