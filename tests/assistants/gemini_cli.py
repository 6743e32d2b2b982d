"""Gemini CLI (``@google/gemini-cli``) run headless against the scripted model.

Offline: ``GOOGLE_GEMINI_BASE_URL`` is the model server, with an API key and
``security.auth.selectedType = "gemini-api-key"`` in ``~/.gemini/settings.json`` (usage statistics and
update checks off). It reads the project's ``.gemini/settings.json`` (what ``godot-bridge init --client
gemini`` writes) only in a trusted folder: ``~/.gemini/trustedFolders.json`` trusts the project, as
after the person said yes. ``--approval-mode yolo`` runs tools without asking, as a headless run must.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from tests.assistants.model_server import ModelServer
from tests.assistants.sandbox import SERVER_KEY, CliRun, Sandbox


def prefix(key: str) -> str:
    """How Gemini CLI names the tools of the server ``key``: prefix + tool."""
    return f"mcp_{key}_"


PREFIX = prefix(SERVER_KEY)
USER_SETTINGS = {
    "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": True}},
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
}


def prepare(home: Path, project: Path) -> None:
    folder = home / ".gemini"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "settings.json").write_text(json.dumps(USER_SETTINGS), encoding="utf-8")
    (folder / "trustedFolders.json").write_text(json.dumps({str(project): "TRUST_FOLDER"}), encoding="utf-8")


def run(sandbox: Sandbox, server: ModelServer, prompt: str, *, env: Mapping[str, str] | None = None,
        timeout: float = 120) -> CliRun:
    home = sandbox.new_home("gemini")
    prepare(home, sandbox.project)
    full_env = {
        **sandbox.env(home),
        "GOOGLE_GEMINI_BASE_URL": server.url,
        "GEMINI_API_KEY": "test-gemini-key",
        # It restarts itself to raise Node's heap limit: ~1.5 s a run, and nothing these tests look at.
        "GEMINI_CLI_NO_RELAUNCH": "true",
        **(env or {}),
    }
    argv = [str(sandbox.cli("gemini")), "-p", prompt, "--approval-mode", "yolo", "--output-format", "json"]
    return sandbox.run(argv, full_env, server, home, timeout=timeout)
