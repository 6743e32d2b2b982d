"""Codex CLI (``@openai/codex``) run headless (``codex exec``) against the scripted model.

Offline: ``$CODEX_HOME/config.toml`` (CODEX_HOME must exist) names a ``model_provider`` whose
``base_url`` is the model server and ``wire_api = "responses"`` (openai_responses.py), with no
retries, and trusts the project, so Codex reads the project's ``.codex/config.toml`` — the file
``godot-bridge init --client codex`` writes. ``codex exec`` never asks for approval and declines
every elicitation at once. Codex starts an MCP server with only a whitelisted environment (HOME,
PATH, LANG, ...) plus the entry's ``env``: what the bridge needs must be in the entry.

``run_searching`` runs it with a model whose catalog entry (``codex_model_catalog.json``, given with
``model_catalog_json``) says ``supports_search_tool``, as OpenAI's current models' do: then Codex declares
no MCP tool and the model finds them with ``tool_search`` (openai_responses.py).

Its MCP tools are one namespace per server, ``mcp__<key with '-' as '_'>``; it does not re-list
after ``notifications/tools/list_changed`` and refuses a call of a tool it did not list.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import partial
from pathlib import Path

from tests.assistants.model_server import ModelServer
from tests.assistants.openai_responses import ResponsesAdapter
from tests.assistants.sandbox import SERVER_KEY, CliRun, Sandbox


def prefix(key: str) -> str:
    """Codex's namespace for the tools of the server ``key`` (they keep their bare names in it)."""
    return "mcp__" + key.replace("-", "_")


NAMESPACE = prefix(SERVER_KEY)
MODEL = "gpt-5"
# A model Codex searches MCP tools for: its entry in the catalog beside this file (provenance: README.md).
SEARCH_CATALOG = Path(__file__).with_name("codex_model_catalog.json")
SEARCH_MODEL = "gpt-fake"


def adapter() -> ResponsesAdapter:
    return ResponsesAdapter()


def _toml(value: str) -> str:
    return json.dumps(value)  # a TOML basic string is a JSON string for the text we write


def home_config(sandbox: Sandbox, server: ModelServer, search: bool = False) -> str:
    """``$CODEX_HOME/config.toml``: the scripted model as the provider, the project trusted; ``search``: the
    model is one whose catalog entry says it searches tools."""
    model = [f"model = {_toml(SEARCH_MODEL)}", f"model_catalog_json = {_toml(str(SEARCH_CATALOG))}"] if search \
        else [f"model = {_toml(MODEL)}"]
    return "\n".join([
        *model,
        'model_provider = "scripted"',
        "[model_providers.scripted]",
        'name = "scripted"',
        f"base_url = {_toml(server.url + '/v1')}",
        'wire_api = "responses"',
        "request_max_retries = 0",
        "stream_max_retries = 0",
        f"[projects.{_toml(str(sandbox.project))}]",
        'trust_level = "trusted"',
        "",
    ])


def run(sandbox: Sandbox, server: ModelServer, prompt: str, *, env: Mapping[str, str] | None = None,
        timeout: float = 120, search: bool = False) -> CliRun:
    home = sandbox.new_home("codex")
    codex_home = home / ".codex"
    codex_home.mkdir()
    (codex_home / "config.toml").write_text(home_config(sandbox, server, search), encoding="utf-8")
    full_env = {**sandbox.env(home), "CODEX_HOME": str(codex_home),
                "OPENAI_API_KEY": "sk-test", **(env or {})}
    argv = [str(sandbox.cli("codex")), "exec", "--skip-git-repo-check", "--json", prompt]
    return sandbox.run(argv, full_env, server, home, timeout=timeout)


run_searching = partial(run, search=True)
