"""Composition root: settings → catalogue → surface → editor link, LSP, dispatch.

Everything that lives for the whole process is built here, in one place, in a
fixed order, and closed in reverse. The MCP layer only sees ``BridgeApp``.
"""

from __future__ import annotations

import logging
import weakref
from typing import Any

from godot_bridge.config import ALLOW_UNASKED_ENV, Settings
from godot_bridge.consent.caller import Caller
from godot_bridge.consent.editor_dialog import EditorAsker
from godot_bridge.consent.gate import ConsentGate
from godot_bridge.consent.policy import Policy, resolve, unknown_names
from godot_bridge.consent.targets import Targets
from godot_bridge.godot_files import uids
from godot_bridge.content.completions import CompletionService
from godot_bridge.editor.screenshot_store import ImageStore
from godot_bridge.content.prompts import PromptService
from godot_bridge.editor.pushed_errors import ErrorStore
from godot_bridge.content.resources import ResourceService
from godot_bridge.jobs.background import JobTools
from godot_bridge.jobs.engine import JobStore
from godot_bridge.jobs.runner import JobRunner
from godot_bridge.live_config import LiveConfig, hold_weakenings
from godot_bridge.safety.pathguard import CallGuard
from godot_bridge.shipped.mcp_entry import EntryError, definition
from godot_bridge.shipped.toolkit_files import ToolkitMissing
from godot_bridge.tools import groups
from godot_bridge.tools.catalogue import Catalogue, ToolDef, load_catalogue
from godot_bridge.tools.dispatch import DISCOVER_TOOLS, ProgressFn, RateLimiter, ToolDispatch
from godot_bridge.tools.results import ToolOutcome
from godot_bridge.tools.surface import Surface, ToolList

log = logging.getLogger(__name__)

INSTRUCTIONS = (
    "Drives a live Godot 4 editor (and the game it runs) through the godot_mcp_toolkit plugin. "
    # True under either tool list (GODOT_MCP_TOOL_LIST) and in either era: discover_tools finds the tools of
    # a topic (loading them where the list grows, their schemas for call_tool where it cannot).
    "Tools cover scenes, nodes, scripts, playtests, runtime inspection and more; discover_tools finds "
    "those for a topic (e.g. 'tilemap', 'animation'). "
    "Paths are res:// (project) or user:// (save data). Tagged values such as "
    '{"type":"Vector2","x":1,"y":2} set typed properties.'
)


def warn_contradictory_annotations(catalogue: Catalogue) -> None:
    for tool in catalogue.tools.values():
        if tool.annotations.get("readOnlyHint") and tool.annotations.get("destructiveHint"):
            log.warning("%s is marked both read-only and destructive; treating it as mutating", tool.name)


def server_keys(entry_key: str | None) -> tuple[str, ...]:
    """The keys our server may have in a client's file: the one init writes, and the one the file we
    were started from has (a person may rename it)."""
    try:
        written = definition().server_key
    except (EntryError, ToolkitMissing):  # a broken install: the key the file has is all there is
        written = None
    return tuple(dict.fromkeys(k for k in (written, entry_key) if k))


class BridgeApp:
    def __init__(self, settings: Settings, catalogue: Catalogue | None = None) -> None:
        from godot_bridge.editor.autolaunch import AutoLaunch
        from godot_bridge.editor.bridge import EditorBridge
        from godot_bridge.editor.lifecycle import EditorLifecycle
        from godot_bridge.lsp.tools import LspService

        self.settings = settings
        self.catalogue = catalogue or load_catalogue()
        if settings.read_only:
            warn_contradictory_annotations(self.catalogue)
        # Screenshots taken as links: kept by the editor bridge, read back through the resources.
        self.images = ImageStore()
        # What the editor and the game push; the MCP layer listens to it (godot://errors, log notifications).
        self.errors = ErrorStore()
        self.editor = EditorBridge(
            settings, on_change=self._editor_changed, on_connect=self._editor_connected, catalogue=self.catalogue,
            images=self.images, errors=self.errors,
        )
        self.surface = Surface(self.catalogue, read_only=settings.read_only, version=lambda: self.editor.godot_version,
                               listing=settings.tool_list)
        self.lsp = LspService(settings, status_sink=self.editor.send_lsp_status)
        self.lifecycle = EditorLifecycle(self.editor)
        # GODOT_MCP_AUTOLAUNCH follows the live settings (a .mcp.json edit turns it on or off).
        self.editor.autolaunch = AutoLaunch(lambda: self.settings.autolaunch, self.lifecycle.launch)
        # Every client's tool list (C12): a change of the shared surface is checked against each.
        self._lists: weakref.WeakSet[ToolList] = weakref.WeakSet()
        # The MCP tools array of each list, and of each tool, for the surface generation they were built in.
        self._wire: weakref.WeakKeyDictionary[ToolList, tuple[Any, list[dict[str, Any]]]] = weakref.WeakKeyDictionary()
        self._tool_wire: dict[str, dict[str, Any]] = {}
        self._tool_wire_generation = -1
        # Asking the person before what cannot be taken back: the policy applies to what every client
        # is offered (dry_run, confirmation_token) and to every call.
        self.policy, overridden = resolve(settings)
        for line in overridden:
            log.warning("%s", line)
        unknown = unknown_names(settings.allow_unasked, self.catalogue.tools)
        if unknown:
            log.warning("%s names no tool of the catalogue: %s (names are case-sensitive, commas between them; an "
                        "extension's tool is known once the editor connects)", ALLOW_UNASKED_ENV, ", ".join(unknown))
        self.consent = ConsentGate(
            lambda: self.policy, Targets(lambda: self.settings.project_path, self._editor_call),
            EditorAsker(self._editor_call), is_extension=lambda tool: tool.name not in self.catalogue.tools,
            ready=lambda tool, args: self.editor.ready(tool, args),
        )
        self.surface.set_offer(self.consent.offered)
        # Long calls in the background (godot_bridge/jobs): every client's jobs, kept until their TTL.
        self.jobs = JobStore()
        self.job_tools = JobTools(self.jobs)
        self.dispatch = ToolDispatch(
            self.surface,
            self.editor,
            self.lsp,
            rate_limit=settings.rate_limit,
            bridge_tools=self.lifecycle.handlers(),
            caller_tools=self.job_tools.handlers(),
            result_limit_kb=settings.result_limit_kb,
            consent=self.consent,
            paths=CallGuard(lambda: self.settings.project_path, uids.resolve),
        )
        self.job_runner = JobRunner(self.jobs, self.dispatch)
        self.dispatch.background = self.job_runner
        self.resources = ResourceService(
            settings.project_path, self.editor, read_only=lambda: self.surface.read_only,
            script_limit_kb=lambda: self.settings.script_read_limit_kb, images=self.images, errors=self.errors,
            jobs=self.job_tools.resource,
        )
        self.prompts = PromptService()
        self.completions = CompletionService(settings.project_path, self.editor, self.prompts)
        timing = self.editor.timing
        self.live_config = LiveConfig(settings, self.apply_settings, debounce_ms=timing.watch_debounce_ms,
                                      poll_interval=timing.watch_poll, force_polling=timing.force_polling)
        self.surface.server_keys = server_keys(self.live_config.server_key)

    async def _editor_connected(self) -> None:
        # A reconnect is a moment the user may have changed .mcp.json while we could not watch.
        self.live_config.reload()
        # The dock shows the language server's state; a (re)started editor has forgotten it.
        await self.lsp.refresh_status(force=True)

    def prepare(self) -> None:
        """What the first tools/list needs before the editor is dialled: the Godot version the registry knows."""
        self.editor.read_registry()

    async def start(self) -> None:
        await self.editor.start()
        self.live_config.start()

    async def aclose(self) -> None:
        await self.jobs.aclose()
        await self.live_config.aclose()
        await self.lsp.aclose()
        await self.editor.aclose()

    async def _editor_call(self, method: str, params: dict[str, Any], **options: Any) -> Any:
        """A toolkit method the consent gate sends itself: a read of what a call acts on, the editor's dialog."""
        return await self.editor.call(method, params, **options)

    def apply_settings(self, settings: Settings) -> None:
        """A configuration reload: new limits and pins, and read-only mode may turn on (one announcement).
        What would protect less waits for the next start (live_config.hold_weakenings): the file it
        comes from (.mcp.json) is one the assistant's own tools can write."""
        settings, held = hold_weakenings(self.settings, settings)
        for line in held:
            log.warning("%s: %s", self.live_config.path, line)
        old, self.settings = self.settings, settings
        self.editor.update_settings(settings)
        if settings.rate_limit != old.rate_limit:
            self.dispatch.limiter = RateLimiter(settings.rate_limit)
        policy, overridden = resolve(settings)
        if policy != self.policy:
            for line in overridden:
                log.warning("%s", line)
        self._apply_policy(policy)
        if settings.read_only != old.read_only:
            if settings.read_only:
                warn_contradictory_annotations(self.catalogue)
            log.info("read-only mode %s", "on" if settings.read_only else "off")
            self.surface.set_read_only(settings.read_only)
            self._surface_changed()
        if settings.tool_list != old.tool_list:
            # Not a protection: it applies at once either way, announced like any change of the list.
            log.info("tool list: %s", settings.tool_list)
            self.surface.set_listing(settings.tool_list)
            self._surface_changed()

    def _apply_policy(self, policy: Policy) -> None:
        """The confirmation policy of reloaded settings (never weaker than the running one: apply_settings)."""
        if policy == self.policy:
            return
        log.info("confirmation policy: %s%s", policy.mode, " (asked in the editor)" if policy.in_editor else "")
        self.policy = policy
        self.surface.set_offer(self.consent.offered)
        self._surface_changed(schemas_changed=True)

    # -- tool lists -----------------------------------------------------------
    def tool_list(self, owner: str | None = None, *, fixed: bool = False) -> ToolList:
        """A new client's own tool list (as configured: every tool, or the start-up tools until it
        loads groups); ``owner`` names the client to its jobs (default: a new random one); ``fixed``:
        the list of its 2026-07-28 requests, which nothing it calls changes.

        Kept here only weakly: the client holds it, and its listener is the client's way to be told."""
        tools = ToolList(self.surface, owner=owner, fixed=fixed)
        self._lists.add(tools)
        return tools

    def _surface_changed(self, schemas_changed: bool = False) -> None:
        """Read-only mode, the Godot version or the extensions moved: tell each client whose list differs
        (every client, when the tools' parameters changed: the confirmation policy)."""
        for tools in list(self._lists):
            tools.prune()
            tools.announce_if_changed(schemas_changed)

    def _editor_changed(self) -> None:
        self.surface.set_extensions(self.editor.extension_commands)
        self._surface_changed()

    def tools(self, tools: ToolList) -> list[dict[str, Any]]:
        """The MCP ``tools`` array of one client's list, built once per change of it."""
        key = (tuple(tools.shown()), self.surface.generation, self.editor.godot_version)
        cached = self._wire.get(tools)
        if cached is None or cached[0] != key:
            if self._tool_wire_generation != self.surface.generation:
                self._tool_wire, self._tool_wire_generation = {}, self.surface.generation
            cached = (key, [self._tool_json(t, tools) for t in tools.visible()])
            self._wire[tools] = cached
        return cached[1]

    def _tool_json(self, tool: ToolDef, tools: ToolList) -> dict[str, Any]:
        if tool.name == DISCOVER_TOOLS:
            # discover_tools lists the groups, loaded (by this client) or not, in its description.
            return self._wire_entry(tool, groups.description(tool.description, tools))
        entry = self._tool_wire.get(tool.name)
        if entry is None:
            entry = self._tool_wire[tool.name] = self._wire_entry(tool, tool.description)
        return entry

    @staticmethod
    def _wire_entry(tool: ToolDef, description: str) -> dict[str, Any]:
        entry = {"name": tool.name, "description": description, "inputSchema": tool.input_schema,
                 "annotations": dict(tool.annotations)}
        if tool.job is not None:
            # 2025-11-25 clients may call it as an MCP task (2026-07-28 drops the field: tasks there
            # are the server's choice, mcp/core/tasks.py).
            entry["execution"] = {"taskSupport": "optional"}
        return entry

    def may_ask(self, name: Any) -> bool:
        """Whether a call of the tool ``name`` may ask the person first (under the policy now). For a
        call through call_tool, ``name`` is the tool it names (mcp/core/calls.py reads that once)."""
        tool = self.surface.find(name) if isinstance(name, str) else None
        return tool is not None and self.consent.may_ask(tool)

    async def call_tool(self, name: str, arguments: Any, tools: ToolList,
                        progress: ProgressFn | None = None, caller: Caller | None = None) -> ToolOutcome:
        """A call by the client whose list is ``tools``; ``caller``: how its person can be asked."""
        return await self.dispatch.call(name, arguments, tools=tools, progress=progress, caller=caller)
