"""How the client of one SDK-served ``tools/call`` can be asked (consent/caller.py), from what it declared.

* 2026-07-28: capabilities come with the request (``_meta``); with form elicitation the call may
  answer ``input_required``, and a retry brings ``inputResponses`` and the ``requestState`` the
  boundary (``sealed_state.py``) has already unsealed. The server sends no requests in this era.
* Handshake era: the capabilities of the client's ``initialize``; with form elicitation and a
  channel that can carry a server request (stdio; an HTTP session's request answered as a
  stream), the question is an ``elicitation/create`` sent now, and the call waits for it.

A request for which neither holds gets a preview and a token (consent/gate.py).
"""

from __future__ import annotations

import logging
from typing import Any

import anyio
from mcp.shared.exceptions import MCPError, NoBackChannelError

from godot_bridge.consent.caller import Caller, can_elicit_form
from godot_bridge.consent.question import ANSWER_TIMEOUT_S, Answer, Question, parse_answer
from godot_bridge.mcp.peers import Peer
from godot_bridge.mcp.protocol import MODERN_VERSIONS

log = logging.getLogger(__name__)


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
        except (MCPError, NoBackChannelError) as exc:
            log.info("%s: the client could not ask the person (%s): cancelled", question.tool, exc)
            return Answer.CANCEL
        return parse_answer(result.model_dump(mode="json", by_alias=True, exclude_none=True))


def _dumped(responses: Any) -> dict[str, Any] | None:
    if not isinstance(responses, dict):
        return None
    return {key: value.model_dump(mode="json", by_alias=True, exclude_none=True) if hasattr(value, "model_dump")
            else value for key, value in responses.items()}


def caller(ctx: Any, params: Any, peer: Peer) -> Caller:
    """The caller of the ``tools/call`` ``ctx`` serves, for the consent gate."""
    declared = can_elicit_form(ctx.session.client_capabilities)
    if ctx.protocol_version in MODERN_VERSIONS:
        return Caller(peer, inline=declared, request_state=getattr(params, "request_state", None),
                      input_responses=_dumped(getattr(params, "input_responses", None)))
    if declared and ctx.session.can_send_request:
        return Caller(peer, asker=SessionAsker(ctx))
    return Caller(peer)
