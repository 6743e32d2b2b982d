"""How the client behind one request can be asked, as the MCP layer found it for that request.

Decided per request, from what the client declared, never from what the bridge would like:

* ``asker``: something that asks now and waits for the answer: ``elicitation/create`` sent to a
  handshake-era client that declared form elicitation (stdio, an HTTP session's stream), or an MCP
  task whose client declared it: the task waits for the person (``input_required``, ``JobAsker``);
* ``inline``: a 2026-07-28 request whose client declared elicitation: the call answers
  ``input_required`` with the question, and the client's retry carries the answer
  (``input_responses``) and the state we sealed (``request_state``, already unsealed);
* neither: the client cannot ask; the call answers with a preview and a confirmation token.

``owner`` is whose tokens and states these are: the client's ``Peer`` (the stdio connection, an
HTTP session, or every request outside a session together).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

import anyio

from godot_bridge.consent.question import ANSWER_TIMEOUT_S, Answer, Question, UnusableAnswer, parse_answer
from godot_bridge.errors import ConsentError
from godot_bridge.jobs import asking


class Asker(Protocol):
    async def ask(self, question: Question) -> Answer:
        """The person's answer; CANCEL when none came within the time a question waits;
        ``UnusableAnswer`` when what came back is no answer."""
        ...


class Way(Enum):
    """How a call that asks reaches the person, strongest first (consent/gate.py chooses it)."""

    EDITOR = "in the Godot editor"  # its own dialog: only a person at the editor answers it
    CLIENT = "through the MCP client"  # an asker the request brought
    INLINE = "through the MCP client (2026-07-28 input_required)"
    TOKEN = "with a confirmation token"  # a client that cannot ask: the preview and its token


@dataclass(frozen=True)
class Caller:
    owner: object
    asker: Asker | None = None
    inline: bool = False
    request_state: str | None = None
    input_responses: Any = None  # as the client sent them: the gate reads what it can use


class JobAsker:
    """Asks from inside an MCP task: the task is ``input_required`` with the question until the
    client answers it (2025-11-25 ``tasks/result``, 2026-07-28 ``tasks/get`` + ``tasks/update``);
    no answer in time is a cancel, as for a question asked on the request."""

    def __init__(self, timeout_s: float = ANSWER_TIMEOUT_S) -> None:
        self.timeout_s = timeout_s

    async def ask(self, question: Question) -> Answer:
        with anyio.move_on_after(self.timeout_s):
            result = await asking.ask({"method": "elicitation/create", "params": question.form()})
            if isinstance(result, UnusableAnswer):  # the client's front end could not read what came back
                raise result
            return Answer.CANCEL if result is None else parse_answer(result)
        return Answer.CANCEL


# A caller nobody can ask and nothing is known of (a call made outside any MCP request).
NOBODY = Caller(owner=None)

# The key of the one input request an ``input_required`` answer carries.
INPUT_KEY = "confirm"


class InputRequired(ConsentError):
    """Answer the request with a 2026-07-28 ``input_required`` result instead of a tool result."""

    def __init__(self, question: Question, request_state: str) -> None:
        super().__init__("input required")
        self.question = question
        self.request_state = request_state

    def result(self) -> dict[str, Any]:
        return {
            "resultType": "input_required",
            "inputRequests": {INPUT_KEY: {"method": "elicitation/create", "params": self.question.form()}},
            "requestState": self.request_state,
        }


class InvalidAnswer(ConsentError):
    """A retry whose answer cannot be used (replayed, expired, another client's): the request is
    refused (JSON-RPC -32602) and nothing runs; the message says what to do."""


def can_elicit_form(capabilities: Any) -> bool:
    """Whether declared client capabilities include form-mode elicitation.

    ``elicitation: {}`` is form mode (the only mode before 2025-11-25); ``{"url": {}}`` alone is
    URL mode only, which cannot show a question.
    """
    if isinstance(capabilities, Mapping):
        elicitation = capabilities.get("elicitation")
    else:
        elicitation = getattr(capabilities, "elicitation", None)
        if elicitation is not None and not isinstance(elicitation, Mapping):
            elicitation = elicitation.model_dump(exclude_none=True, by_alias=True) \
                if hasattr(elicitation, "model_dump") else {}
    if not isinstance(elicitation, Mapping):
        return False
    modes = {key for key in ("form", "url") if elicitation.get(key) is not None}
    return not modes or "form" in modes
