"""Claude Code (``@anthropic-ai/claude-code``) run headless against the scripted model.

Offline: ``ANTHROPIC_BASE_URL`` is the model server, with a dummy API key and non-essential traffic
off. It reads the project's ``.mcp.json`` (what ``godot-bridge init --client claude`` writes) and starts a
project server only once the person approved it: ``~/.claude.json`` ``projects.<dir>`` with
``enabledMcpjsonServers`` and the trust dialog accepted, as after saying yes to both questions.
``--dangerously-skip-permissions`` is refused as root, so ``--allowedTools mcp__<server> ...`` allows
the project's servers' tools (ToolSearch needs no allowance). ``-p`` cancels every elicitation.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from tests.assistants.model_server import ModelServer
from tests.assistants.sandbox import SERVER_KEY, CliRun, Sandbox


def prefix(key: str) -> str:
    """How Claude Code names the tools of the server ``key``: prefix + tool."""
    return f"mcp__{key}__"


PREFIX = prefix(SERVER_KEY)


def servers(sandbox: Sandbox) -> list[str]:
    """The keys of the project's .mcp.json servers (ours, and any copy of it a test added)."""
    return list(json.loads((sandbox.project / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"])


def approve(sandbox: Sandbox, home_json: dict[str, object] | None = None) -> dict[str, object]:
    """The ~/.claude.json of a person who finished onboarding and approved the project's servers."""
    project = {"enabledMcpjsonServers": servers(sandbox), "hasTrustDialogAccepted": True,
               "hasCompletedProjectOnboarding": True}
    return {"hasCompletedOnboarding": True, "projects": {str(sandbox.project): project}, **(home_json or {})}


def run(sandbox: Sandbox, server: ModelServer, prompt: str, *, env: Mapping[str, str] | None = None,
        timeout: float = 120, settings: Mapping[str, object] | None = None) -> CliRun:
    """One ``claude -p`` run; ``settings``: the person's ``~/.claude/settings.json`` (hooks, ...)."""
    home = sandbox.new_home("claude")
    (home / ".claude.json").write_text(json.dumps(approve(sandbox)), encoding="utf-8")
    if settings is not None:
        (home / ".claude").mkdir(exist_ok=True)
        (home / ".claude" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    full_env = {
        **sandbox.env(home),
        "ANTHROPIC_BASE_URL": server.url,
        "ANTHROPIC_API_KEY": "sk-ant-test-key",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
        **(env or {}),
    }
    allowed = [prefix(key).rstrip("_") for key in servers(sandbox)]
    argv = [str(sandbox.cli("claude")), "-p", prompt, "--allowedTools", *allowed, "--output-format", "json"]
    return sandbox.run(argv, full_env, server, home, timeout=timeout)
