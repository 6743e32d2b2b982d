"""The one check every tool call passes before it runs: does it ask, and did the person agree.

``check`` returns the arguments to run with (the consent parameters taken out), or the tool
result that answers the call instead (``outcomes``: a preview, a dry run, a decline, an answer
nobody gave or that cannot be used, a refused token); for a 2026-07-28 client that can be asked
it raises ``InputRequired`` (the MCP layer answers ``input_required``), and ``InvalidAnswer`` for
a retry whose requestState cannot be used (replayed, expired, another client's).

How it asks is chosen per request, strongest first: the editor's own dialog when the person set
GODOT_MCP_CONFIRM_IN_EDITOR; else an asker the request brought (a handshake-era client that
declared form elicitation); else ``input_required`` (2026-07-28 with elicitation); else the
preview and a single-use token. A dry run says which of these the same call would take. An
answer counts only for the exact call it was asked about: same tool, same arguments, the target
unchanged since (else it asks again). Nothing runs on a decline, a cancel, no answer, an answer
faster than a person reads the question, an answer that cannot be read, or a token or state
that is not good.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from godot_bridge.config import ALLOW_UNASKED_ENV
from godot_bridge.consent import outcomes
from godot_bridge.consent.caller import INPUT_KEY, NOBODY, Asker, Caller, InputRequired, InvalidAnswer, Way
from godot_bridge.consent.policy import ALWAYS_BECAUSE, DRY_RUN, TOKEN, Policy, changes_something, offered
from godot_bridge.consent.question import (
    ANSWER_TIMEOUT_S,
    Answer,
    Question,
    UnusableAnswer,
    build,
    described,
    parse_answer,
)
from godot_bridge.consent.targets import State, Targets
from godot_bridge.consent.tickets import TTL_S, Refused, Tickets, digest
from godot_bridge.errors import ToolError
from godot_bridge.tools import results
from godot_bridge.tools.catalogue import ToolDef
from godot_bridge.tools.progress import ProgressFn, WaitReporter
from godot_bridge.tools.results import ToolOutcome

log = logging.getLogger("godot_bridge.consent")

# A synchronous question whose target keeps changing under it is asked at most this often.
ROUNDS = 3
# No person reads a question and answers it faster: an answer sooner came from the client itself,
# whatever it says (outcomes.unattended). The editor's dialog is exempt: only a person answers it.
UNATTENDED_S = 1.5
# What a call checks before anyone is asked: the channel it goes to answers and can take a request
# that large (editor/forwarder.py ``ready``).
Ready = Callable[[ToolDef, dict[str, Any]], Awaitable[None]]
CHANGED = "what it acts on changed since the person was asked"


class ConsentGate:
    def __init__(self, policy: Callable[[], Policy], targets: Targets, editor: Asker, *,
                 is_extension: Callable[[ToolDef], bool] = lambda tool: False, ttl: float = TTL_S,
                 ready: Ready | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self._policy = policy
        self.targets = targets
        self._editor = editor
        self._is_extension = is_extension
        self._ready_check = ready
        # How long an answer took is read from this clock (the tickets' too): tests give it a person's pace.
        self.clock = clock
        self.tokens = Tickets("confirmation_token", prefix="ct_", ttl=ttl, clock=lambda: self.clock())
        self.states = Tickets("requestState", prefix="rs_", ttl=ttl, clock=lambda: self.clock())
        self._offers: dict[str, tuple[ToolDef, Policy, ToolDef]] = {}  # name -> (tool, policy, as offered)

    @property
    def policy(self) -> Policy:
        return self._policy()

    # -- what the client sees -------------------------------------------------------------------

    def may_ask(self, tool: ToolDef) -> bool:
        return self.policy.may_ask(tool, extension=self._is_extension(tool))

    def offered(self, tool: ToolDef) -> ToolDef:
        """``tool`` with ``dry_run`` and ``confirmation_token`` when it may ask (the surface's view of it)."""
        if not self.may_ask(tool):
            return tool
        policy = self.policy
        kept = self._offers.get(tool.name)
        if kept is None or kept[0] is not tool or kept[1] != policy:
            kept = self._offers[tool.name] = (tool, policy, offered(tool))
        return kept[2]

    # -- one call -------------------------------------------------------------------------------

    async def check(self, tool: ToolDef, args: dict[str, Any], caller: Caller | None,
                    progress: ProgressFn | None = None) -> dict[str, Any] | ToolOutcome:
        if not self.may_ask(tool):
            return args  # its arguments are all its own (an extension may have a dry_run of its own)
        args = dict(args)
        dry_run = args.pop(DRY_RUN, False) is True
        token = args.pop(TOKEN, None)
        caller = caller or NOBODY
        try:
            asks, because = await self._asks(tool, args)
            if asks:
                # Everything that would refuse the call is checked before anyone is asked (and before a
                # dry run answers): a person who agrees to a call that then cannot run was asked for nothing.
                await self._ready(tool, args)
            unasked = asks and self.policy.allows_unasked(tool)
            if not dry_run and (unasked or not asks):
                if unasked:
                    log.info("%s: runs without asking (%s)", tool.name, ALLOW_UNASKED_ENV)
                return args
            state = await self.targets.state(tool, args)
        except ToolError as err:
            return results.failure(err)
        question = build(tool, args, because, state.facts)
        way = self.way(caller) if asks and not unasked else None
        if dry_run:
            return outcomes.dry_run(question, way, unasked)
        binding = (tool.name, digest(args))
        if way is Way.EDITOR:
            return await self._ask_now(self._editor, tool, args, question, state, progress, way)
        if way is Way.CLIENT:
            assert caller.asker is not None
            return await self._ask_now(caller.asker, tool, args, question, state, progress, way)
        if way is Way.INLINE:
            return await self._inline(tool, args, question, state, binding, caller)
        return await self._token(tool, args, question, state, binding, caller, token)

    def way(self, caller: Caller) -> Way:
        """How a call that asks reaches the person: the strongest way this request allows."""
        if self.policy.in_editor:
            return Way.EDITOR
        if caller.asker is not None:
            return Way.CLIENT
        return Way.INLINE if caller.inline else Way.TOKEN

    async def _ready(self, tool: ToolDef, args: Mapping[str, Any]) -> None:
        """Raise what would stop the call anyway: its channel does not answer or cannot take a request
        that large, its target is missing."""
        if self._ready_check is not None:
            await self._ready_check(tool, dict(args))
        await self.targets.check_needs(tool, args)

    async def _asks(self, tool: ToolDef, args: Mapping[str, Any]) -> tuple[bool, str]:
        """(whether this call asks, why). Called only for a tool that may ask."""
        if tool.asks is None:  # an extension marked destructive, or any change under ``always``
            return True, self.policy.because(tool, extension=self._is_extension(tool))
        if await self._conditions_hold(tool, args):
            return True, tool.asks.because
        if self.policy.mode == "always" and changes_something(tool):
            return True, ALWAYS_BECAUSE
        return False, ""

    async def _conditions_hold(self, tool: ToolDef, args: Mapping[str, Any]) -> bool:
        assert tool.asks is not None
        for when in tool.asks.when:
            try:
                if not await self.targets.holds(tool, args, when):
                    return False
            except ToolError as err:
                if err.code == "PATH_DENIED":
                    raise
                # Could not look (no editor to list user://): ask rather than let it through.
                log.info("%s: could not check %s (%s); asking", tool.name, when.param, err.message)
        return True

    # -- asking now (the editor, a handshake-era client) ----------------------------------------

    async def _ask_now(self, asker: Asker, tool: ToolDef, args: dict[str, Any], question: Question,
                       state: State, progress: ProgressFn | None, way: Way) -> dict[str, Any] | ToolOutcome:
        async with WaitReporter(progress) as waits:
            for _ in range(ROUNDS):
                waits.waiting(f"{tool.name}: waiting for the person to answer {way.value} "
                              f"(at most {ANSWER_TIMEOUT_S:g} s)")
                asked_at = self.clock()
                try:
                    answer = await asker.ask(question)
                except ToolError as err:
                    return results.failure(err)
                except UnusableAnswer as unusable:
                    return outcomes.unusable(question, unusable.why)
                waits.done()
                # Only a person answers the editor's dialog; a client may answer by itself, at once.
                took = None if way is Way.EDITOR else self.clock() - asked_at
                refusal = self._refusal(question, answer, tool, took)
                if refusal is not None:
                    return refusal
                now = await self.targets.state(tool, args)
                if now.value == state.value:
                    log.info("%s: the person allowed it (%s)", tool.name, way.value)
                    return args
                question, state = question.asked_again(CHANGED, now.facts), now
        return results.failure(ToolError("TARGET_CHANGED", f"{tool.name}: what it acts on kept changing while the "
                                         "person was asked; nothing was done", hint="Wait until nothing else "
                                         "changes it, then call again."))

    @staticmethod
    def _refusal(question: Question, answer: Answer, tool: ToolDef, after_s: float | None) -> ToolOutcome | None:
        """What the call answers instead of running, or None for a person's yes. ``after_s``: how long the
        answer took, where a client could have given it by itself (None: only a person can answer)."""
        if after_s is not None and after_s < UNATTENDED_S:
            log.info("%s: the client answered %s after %.2f s: nobody was asked", tool.name, answer.value, after_s)
            return outcomes.unattended(question, answer, tool, after_s)
        return None if answer is Answer.ACCEPT else outcomes.declined(question, answer)

    # -- 2026-07-28: input_required and the retry -----------------------------------------------

    async def _inline(self, tool: ToolDef, args: dict[str, Any], question: Question, state: State,
                      binding: tuple[str, str], caller: Caller) -> dict[str, Any] | ToolOutcome:
        if caller.request_state is None:
            # Responses without our state are no answer: an approval sent up front never skips the question.
            raise InputRequired(question, self.states.issue(*binding, state.value, caller.owner, question))
        try:
            ticket = self.states.take(caller.request_state, caller.owner)
        except Refused as why:
            raise InvalidAnswer(f"{why}; nothing was done. Call {tool.name} again without requestState "
                                "and inputResponses to be asked again.") from None
        if not ticket.same_call(*binding):
            again = question.asked_again("the arguments differ from the call the person was asked about",
                                         question.facts)
            raise InputRequired(again, self.states.issue(*binding, state.value, caller.owner, again))
        responses = caller.input_responses if caller.input_responses is not None else {}
        if not isinstance(responses, Mapping):
            return outcomes.unusable(question, f"inputResponses is {described(responses)}, not an object")
        if INPUT_KEY not in responses:  # the answer is missing: ask again (not an error, as the protocol advises)
            raise InputRequired(question, self.states.issue(*binding, state.value, caller.owner, question))
        try:
            answer = parse_answer(responses[INPUT_KEY])
        except UnusableAnswer as unusable:
            return outcomes.unusable(question, unusable.why)
        refusal = self._refusal(question, answer, tool, self.states.age(ticket))
        if refusal is not None:
            return refusal
        if ticket.state != state.value:
            again = question.asked_again(CHANGED, state.facts)
            raise InputRequired(again, self.states.issue(*binding, state.value, caller.owner, again))
        log.info("%s: the person allowed it (2026-07-28 input_required)", tool.name)
        return args

    # -- clients that cannot ask: preview and token ---------------------------------------------

    async def _token(self, tool: ToolDef, args: dict[str, Any], question: Question, state: State,
                     binding: tuple[str, str], caller: Caller, token: Any) -> dict[str, Any] | ToolOutcome:
        if token is None:
            return self._preview(tool, question, self.tokens.issue(*binding, state.value, caller.owner, question))
        try:
            ticket = self.tokens.take(token, caller.owner)
        except Refused as why:
            return results.failure(ToolError("CONFIRMATION_REFUSED", f"{why}; nothing was done",
                                             hint=f"Call {tool.name} again without confirmation_token: it answers "
                                             "with what it would do and a new token to show the person."))
        if not ticket.same_call(*binding):
            again = question.asked_again("the arguments differ from the call the token was given for", question.facts)
            return self._preview(tool, again, self.tokens.issue(*binding, state.value, caller.owner, again))
        if ticket.state != state.value:
            again = question.asked_again(CHANGED, state.facts)
            return self._preview(tool, again, self.tokens.issue(*binding, state.value, caller.owner, again))
        log.info("%s: confirmed with a token", tool.name)
        return args

    def _preview(self, tool: ToolDef, question: Question, token: str) -> ToolOutcome:
        return outcomes.confirmation_required(tool, question, token, self.tokens.ttl)
