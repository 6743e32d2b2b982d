"""Qwen Code (``@qwen-code/qwen-code``) run headless (``qwen -p``) against the scripted model.

Offline: auth type ``openai`` (``~/.qwen/settings.json`` ``security.auth.selectedType``) with
``OPENAI_BASE_URL`` = the model server, speaking chat completions (openai_chat.py). It reads the
project's ``.mcp.json`` but connects a server there only once the person approved it
(``qwen mcp approve <name>``, the step its prompt asks for): the approval, in
``~/.qwen/mcpApprovals.json``, is bound to a hash of the entry, so an edited entry is pending again.
``approve`` runs that command (``--all``: ours and any copy of it a test added) and ``run`` copies
the approval into the run's HOME.
``--yolo`` lets the tools run without asking (headless, nobody could answer).

Qwen Code declares no MCP tool: they are deferred, listed by name in a system reminder as
``mcp__<server key>__<tool>``, and called through its ``tool_call`` function.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from tests.assistants.model_server import ModelServer, ToolDeclaration
from tests.assistants.openai_chat import ChatAdapter
from tests.assistants.sandbox import SERVER_KEY, CliRun, Sandbox


def prefix(key: str) -> str:
    """How Qwen Code names the tools of the server ``key`` in its reminder: prefix + tool."""
    return f"mcp__{key}__"


PREFIX = prefix(SERVER_KEY)
SETTINGS = {"security": {"auth": {"selectedType": "openai"}}}
APPROVALS = Path(".qwen") / "mcpApprovals.json"


def adapter() -> ChatAdapter:
    return ChatAdapter([PREFIX], deferred=True)


def _home(sandbox: Sandbox, label: str) -> Path:
    home = sandbox.new_home(label)
    (home / ".qwen").mkdir()
    (home / ".qwen" / "settings.json").write_text(json.dumps(SETTINGS), encoding="utf-8")
    return home


def approve(sandbox: Sandbox) -> Path:
    """``qwen mcp approve --all`` in the project, as the person approves the servers it asks about; the
    approvals file it wrote."""
    home = _home(sandbox, "qwen-approve")
    done = subprocess.run([str(sandbox.cli("qwen")), "mcp", "approve", "--all"], cwd=sandbox.project,
                          env=sandbox.env(home), capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)
    approvals = home / APPROVALS
    assert done.returncode == 0 and approvals.is_file(), f"qwen mcp approve failed:\n{done.stdout}\n{done.stderr}"
    return approvals


def run(sandbox: Sandbox, server: ModelServer, prompt: str, *, approvals: Path | None,
        env: Mapping[str, str] | None = None, timeout: float = 120) -> CliRun:
    """One headless run; ``approvals``: the file ``approve`` returned (None: the server is not approved)."""
    home = _home(sandbox, "qwen")
    if approvals is not None:
        shutil.copy(approvals, home / APPROVALS)
    full_env = {
        **sandbox.env(home),
        "OPENAI_API_KEY": "sk-test",
        "OPENAI_BASE_URL": server.url + "/v1",
        "OPENAI_MODEL": "qwen3-coder-plus",
        "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1",
        **(env or {}),
    }
    argv = [str(sandbox.cli("qwen")), "-p", prompt, "--yolo"]
    return sandbox.run(argv, full_env, server, home, timeout=timeout)


def ours(tools: Sequence[ToolDeclaration]) -> list[ToolDeclaration]:
    return [t for t in tools if t.namespace == PREFIX]


def run_approved(sandbox: Sandbox, server: ModelServer, prompt: str) -> CliRun:
    """The person approves the entry as it is now (``qwen mcp approve``), then one headless run."""
    return run(sandbox, server, prompt, approvals=approve(sandbox))
