"""GitHub Copilot CLI (``@github/copilot``) run headless (``copilot -p``) against the scripted model.

Offline: ``COPILOT_OFFLINE=true`` with a local BYOK provider, ``COPILOT_PROVIDER_BASE_URL`` = the model
server, speaking chat completions (its default wire API; openai_chat.py). No GitHub sign-in. It reads
the project's MCP servers from ``.mcp.json`` only in a folder the person trusts
(``~/.copilot/config.json`` ``trustedFolders``); ``--allow-all-tools`` is required in prompt mode.
The binary unpacks its JavaScript (~235 MB) into ``COPILOT_PKG_CACHE_HOME`` on first start: that
cache is shared by every run (beside the install), not unpacked into each run's HOME.

Our tools reach the model as ``<server key>-<tool>``.

How it offers MCP tools depends on the provider: over chat completions (the default here) it declares
every tool with its schema; with an Anthropic provider (``SEARCH_ENV``: Claude models) it declares each
with ``defer_loading`` and adds ``tool_search_tool``, a regex search over names, descriptions and
parameters (``pattern``, ``limit``) that it runs itself and answers with ``tool_reference`` blocks, as
Claude Code's ToolSearch does (anthropic.py); over the Responses API it hands the deferred tools to the
provider's own search, which runs at the provider (nothing to measure offline).
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from tests.assistants.anthropic import REGEX_SEARCH_TOOL as SEARCH_TOOL
from tests.assistants.model_server import ModelServer
from tests.assistants.openai_chat import ChatAdapter
from tests.assistants.sandbox import SERVER_KEY, CliRun, Sandbox


def prefix(key: str) -> str:
    """How Copilot names the tools of the server ``key``: prefix + tool."""
    return f"{key}-"


PREFIX = prefix(SERVER_KEY)
MODEL = "gpt-4.1"  # a model id Copilot knows: its tool support and token limits apply
SEARCH_ENV = {"COPILOT_PROVIDER_TYPE": "anthropic", "COPILOT_MODEL": "claude-sonnet-4.5"}


def adapter() -> ChatAdapter:
    return ChatAdapter([PREFIX])


def run(sandbox: Sandbox, server: ModelServer, prompt: str, *, env: Mapping[str, str] | None = None,
        timeout: float = 120) -> CliRun:
    home = sandbox.new_home("copilot")
    config = home / ".copilot"
    config.mkdir()
    (config / "config.json").write_text(json.dumps({"trustedFolders": [str(sandbox.project)]}), encoding="utf-8")
    full_env = {
        **sandbox.env(home),
        "COPILOT_OFFLINE": "true",
        "COPILOT_PROVIDER_BASE_URL": server.url + "/v1",
        "COPILOT_MODEL": MODEL,
        "COPILOT_PKG_CACHE_HOME": str(sandbox.clis / "copilot-pkg"),
        "COPILOT_AUTO_UPDATE": "false",
        "NO_COLOR": "1",
        **(env or {}),
    }
    argv = [str(sandbox.cli("copilot")), "-p", prompt, "--allow-all-tools", "--disable-client-telemetry",
            "--log-dir", str(home / "logs")]
    return sandbox.run(argv, full_env, server, home, timeout=timeout)


def run_searching(sandbox: Sandbox, server: ModelServer, prompt: str, *, env: Mapping[str, str] | None = None,
                  timeout: float = 120) -> CliRun:
    """Copilot with an Anthropic provider: our tools deferred behind its regex ``tool_search_tool``."""
    return run(sandbox, server, prompt, env={**SEARCH_ENV, **(env or {})}, timeout=timeout)
