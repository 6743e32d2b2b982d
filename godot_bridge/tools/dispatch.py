"""``tools/call``: look up → validate → guard paths → ask the person if it cannot be undone → route → shape (C3, C5, C9).

Everything that can refuse a call runs before anyone is asked, in this order: the tool is known
(else -32602), the rate limit, its arguments (schema, aliases), the Godot version, the path guard
(``_call``); a background call's room for one more job (``_call``); then, in the consent gate,
whether this call asks at all, and for one that does, that its channel answers and can take a
request that large and that what it needs exists (``ConsentGate._ready``, editor/forwarder.py
``ready``). Only then is the person asked: a yes is never followed by a refusal that was known.

The path guard runs once, on the validated arguments, before anything of the call can leave
the bridge: the consent gate reads what a call acts on (``save.list`` of a user:// folder, a
read target) and a background job runs the rest of the call, both before the forward.

The one path every tool call takes. The catalogue says which channel a tool uses and the
caller's ``ToolList`` says whether it is callable now; a tool served in this process (channel
``bridge``) is an entry of one handler table, discover_tools and call_tool included (the only
two names written here). A tool of a group the caller has not loaded is loaded for it
(and the caller told its list changed) rather than refused: the caller named the
tool, so it wants it, and another client's reset must never break its calls. A list
nothing loads into (a 2026-07-28 client's) runs the call and stays as it is.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from godot_bridge.errors import RequestError, ToolError
from godot_bridge.safety.pathguard import check_paths
from godot_bridge.tools import ceiling, clients, groups, results
from godot_bridge.tools.catalogue import BACKGROUND_ARG, ToolDef
from godot_bridge.tools.channels import EDITOR, RUNTIME, call_channel
from godot_bridge.tools.discover_fit import within_one_answer
from godot_bridge.tools.progress import ProgressFn, WaitReporter
from godot_bridge.tools.results import ToolOutcome
from godot_bridge.tools.surface import Surface, ToolList, readonly_allowed, version_allows
from godot_bridge.tools.validation import validate_arguments

log = logging.getLogger("godot_bridge.calls")

# The always-on tool that calls any other by name: the way to every tool for a client that does not
# fetch tools/list again after discover_tools loaded a group (it cannot call what it never listed).
CALL_TOOL = "call_tool"
# How long discover_tools waits for the client to fetch its new list before answering, so the
# model's next request already declares the loaded tools (a client seen not to re-list is not waited for).
RELIST_WAIT_S = 2.0
# After the client's re-list was answered: a moment for it to take the new list in before the answer.
RELIST_SETTLE_S = 0.05

# The always-on tool that finds groups of tools and, in the handshake era, loads them into the caller's list.
DISCOVER_TOOLS = "discover_tools"

# A bridge-channel tool served in this process (editor_launch, ...), as its owner writes it.
BridgeTool = Callable[[dict[str, Any], ProgressFn | None], Awaitable[ToolOutcome]]
# One that answers about the calling client itself (job_status, job_cancel): it gets the caller's list too.
CallerTool = Callable[[dict[str, Any], ProgressFn | None, ToolList], Awaitable[ToolOutcome]]


@dataclass(frozen=True, slots=True)
class BridgeCall:
    """One validated, guarded call of a tool served in this process, as its handler sees it."""

    args: dict[str, Any]
    tools: ToolList
    progress: ProgressFn | None
    caller: Any


@dataclass(frozen=True, slots=True)
class Handler:
    """An entry of the table of tools served in this process (channel ``bridge``)."""

    run: Callable[[BridgeCall], Awaitable[ToolOutcome]]
    # call_tool: it runs another tool's call, which is rate-counted, guarded, asked, run as a job and
    # capped on its own; so it is handed over as soon as its own arguments are checked.
    delegates: bool = False
# What runs a job-capable call in the background: the rest of the call, given its progress line.
CallWork = Callable[[ProgressFn], Awaitable[ToolOutcome]]
# Refuses (PATH_DENIED) a call whose path arguments leave the project (safety/pathguard.py).
PathCheck = Callable[[ToolDef, dict[str, Any]], None]


class Background(Protocol):
    """Starts a call as a job (``godot_bridge/jobs/runner.py``); answers at once with its id."""

    def refusal(self, tools: ToolList) -> ToolOutcome | None: ...

    def start_background(self, tool: ToolDef, tools: ToolList, work: CallWork) -> ToolOutcome: ...


def apply_aliases(tool: ToolDef, arguments: Any) -> Any:
    """Map accepted alternative spellings (catalogue ``value_aliases``) to the schema's values."""
    if not tool.value_aliases or not isinstance(arguments, dict):
        return arguments
    out = dict(arguments)
    for param, aliases in tool.value_aliases.items():
        value = out.get(param)
        if isinstance(value, str) and value in aliases:
            out[param] = aliases[value]
    return out


def waits_for(tool: ToolDef, args: dict[str, Any]) -> str:
    """What a call of ``tool`` waits for while nothing answers (its progress line's idle message)."""
    try:
        channel: str | None = call_channel(tool, args)
    except ToolError:
        channel = None  # a channel the call names none of: forwarding refuses it
    who = {EDITOR: "the Godot editor to answer", RUNTIME: "the running game to answer",
           "lsp": "Godot's language server to answer"}
    return f"{tool.name}: waiting for {who.get(str(channel), 'it to finish')}"


class UnknownTool(RequestError):
    """Answered as JSON-RPC -32602: the tool is not in the current list."""


class EditorLink(Protocol):
    @property
    def godot_version(self) -> tuple[int, int] | None: ...

    async def forward(self, tool: ToolDef, args: dict[str, Any], progress: ProgressFn | None = None) -> ToolOutcome: ...


class ConsentCheck(Protocol):
    """What every call passes before it runs (godot_bridge/consent/gate.py): the arguments to run with,
    or the result that answers the call instead (it may also raise for the MCP layer to answer)."""

    async def check(self, tool: ToolDef, args: dict[str, Any], caller: Any,
                    progress: ProgressFn | None = None) -> dict[str, Any] | ToolOutcome: ...


class LspHandler(Protocol):
    async def handle(self, tool_name: str, args: dict[str, Any], *, progress: ProgressFn | None = None) -> Any: ...


class RateLimiter:
    """Sliding 60 s window; ``limit`` calls at most."""

    def __init__(self, limit: int | None, window: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.window, self.clock = limit, window, clock
        self._stamps: deque[float] = deque()

    def admit(self) -> bool:
        if not self.limit:
            return True
        now = self.clock()
        while self._stamps and now - self._stamps[0] >= self.window:
            self._stamps.popleft()
        if len(self._stamps) >= self.limit:
            return False
        self._stamps.append(now)
        return True


class ToolDispatch:
    def __init__(
        self,
        surface: Surface,
        editor: EditorLink,
        lsp: LspHandler,
        *,
        rate_limit: int | None = None,
        result_limit_kb: int = ceiling.DEFAULT_RESULT_LIMIT_KB,
        bridge_tools: Mapping[str, BridgeTool] | None = None,
        consent: ConsentCheck | None = None,
        caller_tools: Mapping[str, CallerTool] | None = None,
        paths: PathCheck = check_paths,
    ) -> None:
        self.surface = surface
        # Every tool served in this process, discover_tools and call_tool among them.
        self.handlers: dict[str, Handler] = {
            DISCOVER_TOOLS: Handler(self._discover),
            CALL_TOOL: Handler(self._call_by_name, delegates=True),
        }
        for name, tool in (bridge_tools or {}).items():
            self.serve(name, tool)
        for name, own in (caller_tools or {}).items():
            self.serve_caller(name, own)
        # Set by the app once the job engine exists: ``background: true`` on a job-capable tool.
        self.background: Background | None = None
        self.editor = editor
        self.lsp = lsp
        self.limiter = RateLimiter(rate_limit)
        self.result_limit_kb = result_limit_kb
        self.consent = consent
        # The app's guard knows the project folder (links, uids); the default checks the text only.
        self.paths = paths

    async def call(self, name: str, arguments: Any, *, tools: ToolList,
                   progress: ProgressFn | None = None, caller: Any = None) -> ToolOutcome:
        """One call by the client whose list is ``tools``; ``caller``: how its person can be asked."""
        started = time.perf_counter()
        outcome: ToolOutcome | None = None
        try:
            outcome = await self._call(name, arguments, tools, progress, caller)
            return outcome
        finally:
            # One line per call on stderr; a cancelled or unknown call logs isError=None.
            elapsed = (time.perf_counter() - started) * 1000
            log.info("tool=%s duration=%.1fms isError=%s", name, elapsed, outcome.is_error if outcome else None)

    async def _call(self, name: str, arguments: Any, tools: ToolList, progress: ProgressFn | None,
                    caller: Any, admitted: bool = False) -> ToolOutcome:
        tool = self._find(name, tools)
        if not admitted and not self.limiter.admit():
            return results.failure(ToolError("RATE_LIMITED", f"rate limit of {self.limiter.limit} calls per 60 s reached"))
        try:
            args = validate_arguments(apply_aliases(tool, clients.drop_injected(arguments, tool.input_schema)),
                                      tool.input_schema)
            self._check_version(tool)
            self._check_read_only(tool, args)
            self.paths(tool, args)  # before consent, a job or the forward: nothing leaves unguarded
        except ToolError as err:
            return results.failure(err)
        handler = self.handlers.get(tool.name) if tool.channel == "bridge" else None
        if handler is not None and handler.delegates:
            return await handler.run(BridgeCall(args, tools, progress, caller))
        if tool.job is not None and args.pop(BACKGROUND_ARG, False) and self.background is not None:
            # A job that could not start is refused before anyone is asked; the person is asked on this
            # request, before the job starts: a job runs only what was agreed.
            refused = self.background.refusal(tools)
            if refused is not None:
                return refused
            checked = await self._consent(tool, args, caller, progress)
            if isinstance(checked, ToolOutcome):
                return checked
            return self.background.start_background(
                tool, tools, lambda line: self._execute(tool, checked, tools, line, caller, consented=True))
        return await self._execute(tool, args, tools, progress, caller)

    async def _execute(self, tool: ToolDef, args: dict[str, Any], tools: ToolList,
                       progress: ProgressFn | None, caller: Any, *, consented: bool = False) -> ToolOutcome:
        """A validated call, run (here, or as a job's work) until its result."""
        try:
            if progress is None or tool.meta:
                outcome = await self._consented(tool, args, tools, progress, caller, consented)
            else:
                # The call's one progress line: what happens below reports through it, and it
                # says what the call waits for whenever nothing else has.
                async with WaitReporter(progress, idle=waits_for(tool, args)) as line:
                    outcome = await self._consented(tool, args, tools, line, caller, consented)
        except ToolError as err:
            return results.failure(err)
        return ceiling.check(tool.name, tool.input_schema, outcome, self.result_limit_kb) or outcome

    def _find(self, name: str, tools: ToolList) -> ToolDef:
        """The tool a call of ``name`` runs: in the client's list, or loaded for it; else UnknownTool."""
        tool = tools.lookup(name) or self.load_for(name, tools)
        if tool is None:
            tool = self._version_blocked(name)
            if tool is None:
                raise UnknownTool(self.surface.unknown_tool_message(name))
        return tool

    def serve(self, name: str, tool: BridgeTool) -> None:
        """Serve the bridge tool ``name`` with ``tool`` (it needs only its arguments and progress)."""
        self.handlers[name] = Handler(lambda call: tool(call.args, call.progress))

    def serve_caller(self, name: str, tool: CallerTool) -> None:
        """Serve the bridge tool ``name`` with ``tool``, which answers about the calling client's own list."""
        self.handlers[name] = Handler(lambda call: tool(call.args, call.progress, call.tools))

    async def _call_by_name(self, call: BridgeCall) -> ToolOutcome:
        """call_tool: the named tool's call, as if called by name (it is not counted twice by the rate limit)."""
        try:
            inner, inner_args = self._by_name(call.args, call.tools)
        except ToolError as err:
            return results.failure(err)
        log.info("tool=%s via %s", inner.name, CALL_TOOL)
        return await self._call(inner.name, inner_args, call.tools, call.progress, call.caller, admitted=True)

    async def _discover(self, call: BridgeCall) -> ToolOutcome:
        """discover_tools: the matching groups; in a list that loads (handshake era), loaded and announced."""
        tools = call.tools
        answer, changed = groups.discover(tools, call.args)
        listed = await self._relisted(tools) if changed else None
        group_of = {t.name: t.group for t in tools.visible()}
        return results.success(within_one_answer(groups.explain_activated(answer, listed), group_of))

    def _by_name(self, args: dict[str, Any], tools: ToolList) -> tuple[ToolDef, Any]:
        """call_tool's target and its arguments; a name the model copied with its client's prefix for our
        server (``mcp__godot-mcp-toolkit__node_set_property``) is that tool, any other name is UNKNOWN_TOOL."""
        name, arguments = self.target(CALL_TOOL, args)
        if name == CALL_TOOL:
            raise ToolError("INVALID_PARAMS", "call_tool cannot call call_tool", extra={"param": "name"},
                            hint='Name the tool to run: {"name": "node_set_property", "arguments": {...}}.')
        try:
            return self._find(name, tools), arguments or {}
        except UnknownTool as unknown:
            raise ToolError("UNKNOWN_TOOL", str(unknown), extra={"param": "name"}) from None

    def target(self, name: Any, arguments: Any) -> tuple[Any, Any]:
        """The tool a ``tools/call`` of ``name`` really runs and its arguments (call_tool unwrapped),
        for a transport choosing how to serve it; the call itself validates everything again."""
        if name != CALL_TOOL or not isinstance(arguments, dict) or not isinstance(arguments.get("name"), str):
            return name, arguments
        return self.surface.own_name(arguments["name"]), arguments.get("arguments")

    def job_tool(self, name: str, tools: ToolList, arguments: Any = None) -> ToolDef | None:
        """The job-capable tool a call of ``name`` would run, or None (unknown, or never a job)."""
        name, _ = self.target(name, arguments)
        if not isinstance(name, str):
            return None
        tool = tools.lookup(name) or self.surface.find(name)
        return tool if tool is not None and tool.job is not None and self.surface.allowed(tool) else None

    def load_for(self, name: str, tools: ToolList) -> ToolDef | None:
        """A tool of a group this client has not loaded (or unloaded, or another client's reset
        never touched): load the group into its list, tell it, and serve the call. A list that does
        not load (2026-07-28: no request changes it) serves the call and stays as it is."""
        tool = self.surface.find(name)
        if tool is None or tool.group is None or not self.surface.allowed(tool):
            return None
        if not tools.loads:
            return tool
        if not tools.activate([tool.group]):
            return None
        log.info("tool=%s: loaded group %s for this client's call", name, tool.group)
        tools.announce_if_changed()
        return tools.lookup(name)

    def _version_blocked(self, name: str) -> ToolDef | None:
        """A catalogue tool hidden only because the connected editor is too old or too new.

        Reached when a client calls from a list fetched before the version was known:
        answer UNSUPPORTED (the model learns why) rather than "unknown tool".
        """
        version = self.editor.godot_version
        tool = self.surface.catalogue.tools.get(name)
        if tool is None or version is None or version_allows(tool, version):
            return None
        if self.surface.read_only and not readonly_allowed(tool):
            return None
        return tool

    def _check_version(self, tool: ToolDef) -> None:
        version = self.editor.godot_version
        if version is not None and not version_allows(tool, version):
            bound = f"{'.'.join(map(str, tool.min_version))}+" if tool.min_version else "an older version"
            raise ToolError(
                "UNSUPPORTED",
                f"{tool.name} is not supported on this Godot version (connected: {version[0]}.{version[1]})",
                hint=f"{tool.name} needs Godot {bound}. Use classdb_get_info to look for alternatives.",
            )

    def _check_read_only(self, tool: ToolDef, args: dict[str, Any]) -> None:
        """Read-only mode writes nothing: a read's arguments that would write a file (the catalogue's
        ``writes``) are refused, and the same call without them still answers."""
        writing = tool.writing_args(args) if self.surface.read_only else []
        if writing:
            names = ", ".join(writing)
            raise ToolError("INVALID_PARAMS", f"{tool.name}: {names} would write a file, and read-only mode "
                            "(GODOT_MCP_READ_ONLY) writes nothing", extra={"param": writing[0].split("=")[0]},
                            hint=f"Call {tool.name} again without {names}: it answers the same, without the file.")

    async def _consent(self, tool: ToolDef, args: dict[str, Any], caller: Any,
                       progress: ProgressFn | None) -> dict[str, Any] | ToolOutcome:
        """The arguments to run with once the consent check lets the call through, or its own answer."""
        try:
            return args if self.consent is None else await self.consent.check(tool, args, caller, progress)
        except ToolError as err:
            return results.failure(err)

    async def _consented(self, tool: ToolDef, args: dict[str, Any], tools: ToolList,
                         progress: ProgressFn | None, caller: Any, consented: bool = False) -> ToolOutcome:
        """Route the call once the consent check lets it through (it may answer the call itself)."""
        if not consented:
            checked = await self._consent(tool, args, caller, progress)
            if isinstance(checked, ToolOutcome):
                return checked
            args = checked
        return await self._route(tool, args, tools, progress, caller)

    @staticmethod
    async def _relisted(tools: ToolList) -> bool:
        """Tell the client its list changed and wait (bounded) until it fetched the new one: whether it did."""
        if not tools.announce_if_changed():
            return False
        if not clients.relists(tools.client):
            return False
        if clients.relists_after_answer(tools.client):
            return True  # it fetches the list once answered, before its model's next request
        if await tools.relisted(RELIST_WAIT_S):
            await asyncio.sleep(RELIST_SETTLE_S)
            return True
        log.info("the client did not fetch tools/list within %g s of the change; discover_tools says to use %s",
                 RELIST_WAIT_S, CALL_TOOL)
        return False

    async def _route(self, tool: ToolDef, args: dict[str, Any], tools: ToolList,
                     progress: ProgressFn | None, caller: Any) -> ToolOutcome:
        if tool.channel == "bridge":
            handler = self.handlers.get(tool.name)
            if handler is None:
                raise ToolError("INTERNAL", f"{tool.name} is a bridge tool with no handler in this bridge")
            return await handler.run(BridgeCall(args, tools, progress, caller))
        if tool.channel == "lsp":
            return results.success(await self.lsp.handle(tool.name, args, progress=progress), tool.success_hint)
        return await self.editor.forward(tool, args, progress)
