"""The six assistant CLIs as one table: what the shared tests, the end-to-end run and ``measure`` need
to know of each (how each is set up and run headless: ``claude_code.py``, ``codex.py``, ...).

What only one CLI does (how it shows our tools to its model, how it cuts a big answer, ...) stays in
its own test module; what differs between CLIs in a way the shared checks take into account is a
field here: how it names a server's tools, whether it re-lists after ``discover_tools`` (else the
loaded tools are reached through ``call_tool``), whether it asks (elicitation, which a headless run
cancels or declines) or gets the bridge's preview, the arguments it adds to every call, and what the
entry's timeout bounds. Whether the entry ``init`` wrote lists every tool (GODOT_MCP_TOOL_LIST=all,
from ``catalogue/clients.json`` ``tool_list``) is read from the entry: then discover_tools loads
nothing, and a group's tool is called by its own name from the first request on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from godot_bridge.config import TOOL_LIST_ENV
from tests.assistants import claude_code, codex, copilot, gemini_cli, opencode, qwen
from tests.assistants import scenarios as sc
from tests.assistants.anthropic import AnthropicAdapter
from tests.assistants.entries import EntryFile
from tests.assistants.footprints import anthropic_deferring_footprint, chat_footprint, claude_footprint
from tests.assistants.footprints import responses_footprint, responses_search_footprint, schema_bytes
from tests.assistants.gemini import GeminiAdapter
from tests.assistants.model_server import Adapter, ModelRequest, ToolCall, Turn
from tests.assistants.sandbox import SERVER_KEY, Editor, Sandbox


def call_tool(loaded: ToolCall) -> ToolCall:
    """``loaded`` through the always-on call_tool, as a client that does not re-list reaches it (as fast
    or slow as ``loaded``)."""
    return ToolCall("call_tool", {"name": loaded.tool, "arguments": dict(loaded.arguments)}, loaded.delay, loaded.when)


@dataclass(frozen=True)
class Cli:
    client: str  # godot-bridge init --client <client>; the test id
    adapter: Callable[[], Adapter]
    run: sc.Runner
    naming: Callable[[str], str]  # a server key -> its tools' declared names' prefix (Codex: the namespace)
    footprint: Callable[[ModelRequest], int]  # our bytes in one of its requests
    relists: bool  # the request after discover_tools declares the loaded tools; else they go through call_tool
    elicits: bool  # an asking tool asks (a headless run cancels or declines); else the bridge's preview
    injected: Mapping[str, Any] = field(default_factory=dict)  # what it adds to every call's arguments
    # The entry's timeout bounds each call; else (opencode: a call's timer restarts on every progress
    # report) it shows only at start-up.
    timeout_cuts_calls: bool = True
    label: str = ""  # the id of a variant of the client (another model); else the client

    def __str__(self) -> str:
        return self.label or self.client

    @property
    def entry(self) -> EntryFile:
        return EntryFile(self.client)

    def lists_all(self, project: Path) -> bool:
        """Its entry in ``project`` lists every tool (GODOT_MCP_TOOL_LIST=all)."""
        return self.entry.env(project).get(TOOL_LIST_ENV) == "all"

    @property
    def prefix(self) -> str:
        """Our tools' declared names: prefix + tool."""
        return self.naming(SERVER_KEY)

    def declared(self, tool: str, key: str = SERVER_KEY) -> str:
        """The name the model calls ``tool`` of the server ``key`` by."""
        return self.naming(key) + tool

    def loaded(self, turn: ToolCall, listed: bool) -> ToolCall:
        """How the model calls ``turn``, a tool of the group discover_tools just found: by its name when
        every tool is ``listed`` or the CLI re-lists, else through call_tool."""
        return turn if listed or self.relists else call_tool(turn)

    def as_model_calls(self, turn: ToolCall) -> ToolCall:
        """``turn`` with the arguments this CLI adds filled in, as a model may."""
        return ToolCall(turn.tool, {**turn.arguments, **self.injected}, turn.delay, turn.when)

    def play(self, sandbox: Sandbox, editor: Editor | None, turns: Sequence[Turn]) -> sc.Session:
        return sc.play(sandbox, editor, self.adapter(), self.run, turns)


# Claude Code and Copilot CLI speak MCP 2026-07-28 (server/discover, subscriptions/listen, no initialize), whose
# tools/list no call changes: under GODOT_MCP_TOOL_LIST=groups what discover_tools finds goes through call_tool.
CLAUDE = Cli("claude", AnthropicAdapter, claude_code.run, claude_code.prefix, claude_footprint,
             relists=False, elicits=True)
GEMINI = Cli("gemini", GeminiAdapter, gemini_cli.run, gemini_cli.prefix, schema_bytes,
             relists=True, elicits=False, injected={"wait_for_previous": True})
CODEX = Cli("codex", codex.adapter, codex.run, codex.prefix,
            lambda r: responses_footprint(r, codex.NAMESPACE).total, relists=False, elicits=True)
COPILOT = Cli("copilot", copilot.adapter, copilot.run, copilot.prefix,
              lambda r: chat_footprint(r, copilot.PREFIX).total, relists=False, elicits=True)
QWEN = Cli("qwen", qwen.adapter, qwen.run_approved, qwen.prefix,
           lambda r: chat_footprint(r, qwen.PREFIX).total, relists=False, elicits=False)
OPENCODE = Cli("opencode", opencode.adapter, opencode.run, opencode.prefix,
               lambda r: chat_footprint(r, opencode.PREFIX).total, relists=False, elicits=False,
               timeout_cuts_calls=False)

CLIS = (CLAUDE, GEMINI, CODEX, COPILOT, QWEN, OPENCODE)
BY_CLIENT = {c.client: c for c in CLIS}

# The same CLIs with a model they defer MCP tools for (tool_search.py): Codex with a model whose catalog entry
# says supports_search_tool, Copilot CLI with an Anthropic provider. The model loads a tool it lacks by
# searching for it (each adapter's ``unlock``). Not in CLIS: the shared tests run the default models.
CODEX_SEARCH = Cli("codex", codex.adapter, codex.run_searching, codex.prefix,
                   lambda r: responses_search_footprint(r, codex.NAMESPACE).total, relists=False, elicits=True,
                   label="codex-search")
COPILOT_SEARCH = Cli("copilot", AnthropicAdapter, copilot.run_searching, copilot.prefix,
                     lambda r: anthropic_deferring_footprint(r, copilot.PREFIX).total, relists=False, elicits=True,
                     label="copilot-search")
SEARCHING = (CODEX_SEARCH, COPILOT_SEARCH)
