"""How the client of one SDK-served ``tools/call`` can be asked (consent/caller.py), from what it declared.

* 2026-07-28: capabilities come with the request (``_meta``); with form elicitation the call may
  answer ``input_required``, and a retry brings ``inputResponses`` and the ``requestState`` the
  boundary (``sealed_state.py``) has already unsealed. The server sends no requests in this era.
* Handshake era: the capabilities of the client's ``initialize``; with form elicitation and a
  channel that can carry a server request (stdio; an HTTP session's request answered as a
  stream), the question is an ``elicitation/create`` sent now, and the call waits for it.

A request for which neither holds gets a preview and a token (consent/gate.py).

Whatever comes back is read by the consent gate (``question.parse_answer``), never refused on the
way: an answer the SDK's models would reject (``{}``, ``"action": "ACCEPT"``, a bare string, an
error instead of a result) is an ``UnusableAnswer``, which the call answers at once, saying so.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import replace
from typing import Any

import anyio
from mcp.shared.exceptions import MCPError, NoBackChannelError
from pydantic import ValidationError

from godot_bridge.consent.caller import Caller, can_elicit_form
from godot_bridge.consent.question import ANSWER_TIMEOUT_S, Answer, Question, UnusableAnswer, parse_answer
from godot_bridge.mcp.core.message_check import UNREADABLE
from godot_bridge.mcp.core.peers import Peer
from godot_bridge.mcp.core.eras import is_modern_version, sends_server_requests

log = logging.getLogger(__name__)

RESPONSES = "inputResponses"
# The inputResponses of the 2026-07-28 tools/call being served, as the client sent them (``keep_answers``).
_SENT: ContextVar[Any] = ContextVar("godot_bridge_input_responses", default=None)


def unusable(exc: MCPError | ValidationError) -> UnusableAnswer:
    """What an answer the SDK could not take says: the error the client answered with, or what its
    result lacks (the first problem the SDK's model found)."""
    if isinstance(exc, MCPError):
        if exc.error.data == UNREADABLE:  # the transport read the answer and found it malformed
            return UnusableAnswer(exc.error.message)
        return UnusableAnswer(f"the client answered with an error: {exc.error.message}")
    first = exc.errors()[0] if exc.error_count() else {"loc": (), "msg": "not an answer"}
    where = ".".join(str(part) for part in first["loc"])
    return UnusableAnswer(f"{where + ': ' if where else ''}{first['msg']}")


class SessionAsker:
    """``elicitation/create`` (form mode) on the request's own channel; no answer in time is a cancel."""

    def __init__(self, ctx: Any, timeout_s: float = ANSWER_TIMEOUT_S) -> None:
        self._ctx = ctx
        self.timeout_s = timeout_s

    async def ask(self, question: Question) -> Answer:
        try:
            with anyio.fail_after(self.timeout_s):
                result = await self._ctx.session.elicit_form(question.message(), question.requested_schema(),
                                                             related_request_id=self._ctx.request_id)
        except TimeoutError:
            log.info("%s: no answer within %g s: cancelled", question.tool, self.timeout_s)
            return Answer.CANCEL
        except NoBackChannelError as exc:
            log.info("%s: the client could not ask the person (%s): cancelled", question.tool, exc)
            return Answer.CANCEL
        except (MCPError, ValidationError) as exc:
            raise unusable(exc) from None
        return parse_answer(result.model_dump(mode="json", by_alias=True, exclude_none=True))


async def keep_answers(ctx: Any, call_next: Any) -> Any:
    """Server middleware: a 2026-07-28 ``tools/call``'s ``inputResponses``, taken out before the SDK
    validates the request. The SDK reads each answer as one of the results a client may give and
    refuses the whole call (-32602) for one it cannot; the consent gate reads them as sent instead."""
    params = ctx.params
    if ctx.method != "tools/call" or not isinstance(params, Mapping) or RESPONSES not in params:
        return await call_next(ctx)
    kept = _SENT.set(params[RESPONSES])
    try:
        return await call_next(replace(ctx, params={k: v for k, v in params.items() if k != RESPONSES}))
    finally:
        _SENT.reset(kept)


def caller(ctx: Any, params: Any, peer: Peer) -> Caller:
    """The caller of the ``tools/call`` ``ctx`` serves, for the consent gate."""
    declared = can_elicit_form(ctx.session.client_capabilities)
    modern = is_modern_version(ctx.protocol_version)
    if not sends_server_requests(modern):  # 2026-07-28: the question travels in the answer
        return Caller(peer, inline=declared, request_state=getattr(params, "request_state", None),
                      input_responses=_SENT.get())
    if declared and ctx.session.can_send_request:
        return Caller(peer, asker=SessionAsker(ctx))
    return Caller(peer)
