"""One path for a ``tools/call``, whichever transport and serving path received it.

A call is read once into a ``ToolCall`` (``CallPath.read``): what it names and the tool it really
runs (``call_tool``'s inner name, unwrapped here and nowhere else in the MCP layer), its era, its
progress token, whether it asks to become a task, the client name its envelope carries. Its route
is decided by one function (``CallPath.route``):

* ``TASK``: a job-capable tool the request asks to run as an MCP task (``tasks.py``);
* ``MAY_ASK``: the tool may ask the person first, so the call needs a channel for questions
  (an ``elicitation/create`` request, an ``input_required`` answer, or a preview and a token:
  ``elicitation.py``), which the SDK path has;
* ``AT_ONCE``: served now, nothing to ask.

The lean stdio path serves only ``AT_ONCE`` calls and leaves the others to the SDK path, whose
``tools/call`` middleware (``sdk_server.py``) starts ``TASK`` calls. Both run a call through
``CallPath.run``: the client's name, the app's call, the refusals mapped to JSON-RPC, the result
shaped by ``protocol.call_result``; each transport only supplies how progress and questions
travel and writes the answer.

No SDK import: the lean path uses this module before the SDK is loaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from godot_bridge.consent.caller import Caller, InputRequired, InvalidAnswer
from godot_bridge.errors import ProtocolError
from godot_bridge.mcp.core.peers import Peer
from godot_bridge.mcp.core.eras import asks_for_task
from godot_bridge.mcp.core.protocol import INVALID_PARAMS, call_result, client_name
from godot_bridge.tools.catalogue import ToolDef
from godot_bridge.tools.dispatch import UnknownTool
from godot_bridge.tools.progress import ProgressFn
from godot_bridge.tools.surface import ToolList

if TYPE_CHECKING:
    from collections.abc import Callable

    from godot_bridge.app import BridgeApp


class Route(Enum):
    AT_ONCE = "at once"
    MAY_ASK = "may ask"
    TASK = "task"


@dataclass(slots=True)
class ToolCall:
    """One ``tools/call`` as read from its params, once (not frozen: that costs every call's path
    a slower constructor; nothing changes it after ``CallPath.read``)."""

    name: Any  # as sent: a tool, or call_tool
    arguments: Any
    target: Any  # the tool it runs: call_tool's inner name (as our server's own), else ``name``
    target_arguments: Any
    modern: bool
    progress_token: Any
    wants_task: bool  # params.task (2025-11-25), or the tasks extension declared (2026-07-28)
    params: Mapping[str, Any]  # as sent (a task's requested ttl)

    @property
    def client(self) -> str | None:
        """The clientInfo name the request carries (2026-07-28's envelope); read only when a list
        does not know its client yet, which is once per client."""
        return client_name(self.params)


class CallRefused(ProtocolError):
    """The call is answered with a JSON-RPC error (an unknown tool, an answer that cannot be used)."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def progress_params(token: Any, done: float, total: float | None, message: str | None) -> dict[str, Any]:
    """The params of ``notifications/progress`` for one report on ``token``."""
    body: dict[str, Any] = {"progressToken": token, "progress": done}
    if total is not None:
        body["total"] = total
    if message is not None:
        body["message"] = message
    return body


class CallPath:
    """Reads, routes and runs ``tools/call`` for the app, for every transport."""

    def __init__(self, app: BridgeApp) -> None:
        self.app = app
        # Bound once: every call's path looks them up.
        self._target, self._may_ask = app.dispatch.target, app.may_ask

    def read(self, params: Mapping[str, Any], modern: bool) -> ToolCall:
        """The call ``params`` make (any values: the SDK path reads them before validating them)."""
        name, arguments = params.get("name"), params.get("arguments")
        target, target_arguments = self._target(name, arguments)
        meta = params.get("_meta")
        # `is not None` first: an isinstance check against an ABC is slow, and most calls have no _meta.
        token = meta.get("progressToken") if meta is not None and isinstance(meta, Mapping) else None
        return ToolCall(name, arguments, target, target_arguments, modern, token, asks_for_task(params, modern), params)

    def task_tool(self, call: ToolCall, tools: ToolList) -> ToolDef | None:
        """The job-capable tool a call asking for a task runs as one; None: it is served as a plain call."""
        if not call.wants_task or not isinstance(call.target, str):
            return None
        return self.app.dispatch.job_tool(call.target, tools)

    def route(self, call: ToolCall, tools: ToolList) -> Route:
        """How ``call``, by the client whose list of its era is ``tools``, is served."""
        if call.wants_task and self.task_tool(call, tools) is not None:
            return Route.TASK
        if self._may_ask(call.target):
            return Route.MAY_ASK
        return Route.AT_ONCE

    async def run(self, call: ToolCall, peer: Peer, progress: ProgressFn | None, caller: Caller | None = None,
                  splice: Callable[[bytes], Any] | None = None) -> dict[str, Any]:
        """The ``tools/call`` result of ``call`` by ``peer`` (``splice``: see ``protocol.call_result``);
        raises ``CallRefused`` for a call answered with a JSON-RPC error."""
        tools = peer.tools_for(call.modern)
        if tools.client is None and peer.standing:  # a 2026-07-28 client says who it is on each request
            tools.client = call.client
        try:
            outcome = await self.app.call_tool(call.name, call.arguments, tools, progress, caller)
        except (UnknownTool, InvalidAnswer) as exc:
            raise CallRefused(INVALID_PARAMS, str(exc)) from None
        except InputRequired as asked:  # a 2026-07-28 client is asked through the answer itself
            return asked.result()
        return call_result(outcome, call.modern, splice)
