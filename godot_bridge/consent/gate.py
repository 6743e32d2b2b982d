"""The one check every tool call passes before it runs: does it ask, and did the person agree.

``check`` returns the arguments to run with (the consent parameters taken out), or the tool
result that answers the call instead (a preview, a dry run, a decline, a refused token); for a
2026-07-28 client that can be asked it raises ``InputRequired`` (the MCP layer answers
``input_required``), and ``InvalidAnswer`` for a retry whose answer cannot be used.

How it asks is chosen per request, strongest first: the editor's own dialog when the person set
GODOT_MCP_CONFIRM_IN_EDITOR; else an asker the request brought (a handshake-era client that
declared form elicitation); else ``input_required`` (2026-07-28 with elicitation); else the
preview and a single-use token. An answer counts only for the exact call it was asked about:
same tool, same arguments, the target unchanged since (else it asks again). Nothing runs on a
decline, a cancel, no answer, or a token or state that is not good.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from godot_bridge.consent.caller import INPUT_KEY, NOBODY, Asker, Caller, InputRequired, InvalidAnswer
from godot_bridge.config import ALLOW_UNASKED_ENV
from godot_bridge.consent.policy import ALWAYS_BECAUSE, DRY_RUN, TOKEN, Policy, changes_something, offered
from godot_bridge.consent.question import ANSWER_TIMEOUT_S, Answer, Question, build, parse_answer
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
# No person reads a question and answers it faster: an answer sooner came from the client itself.
UNATTENDED_S = 1.5
# What a call checks before anyone is asked: the channel it goes to answers (editor/bridge.py).
Reachable = Callable[[ToolDef, dict[str, Any]], Awaitable[None]]
CHANGED = "what it acts on changed since the person was asked"
DECLINED_HINT = ("Nothing was done. Do not try to reach the same result another way; ask the person what "
                 "they want instead.")


class ConsentGate:
    def __init__(self, policy: Callable[[], Policy], targets: Targets, editor: Asker, *,
                 is_extension: Callable[[ToolDef], bool] = lambda tool: False, ttl: float = TTL_S,
                 reachable: Reachable | None = None) -> None:
        self._policy = policy
        self.targets = targets
        self._editor = editor
        self._is_extension = is_extension
        self._reachable = reachable
        self.tokens = Tickets("confirmation_token", prefix="ct_", ttl=ttl)
        self.states = Tickets("requestState", prefix="rs_", ttl=ttl)
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
        try:
            asks, because = await self._asks(tool, args)
            if not asks and not dry_run:
                return args
            if asks:
                # What can be known without an effect is checked before anyone is asked: a person who
                # agrees to a call that then cannot run was asked for nothing.
                await self._ready(tool, args)
            if asks and not dry_run and self.policy.allows_unasked(tool):
                log.info("%s: runs without asking (%s)", tool.name, ALLOW_UNASKED_ENV)
                return args
            state = await self.targets.state(tool, args)
        except ToolError as err:
            return results.failure(err)
        question = build(tool, args, because, state.facts)
        if dry_run:
            return results.success({"dry_run": True, "done": False, "would_ask": asks, **question.preview(),
                                    "message": "Nothing was done (dry run)."
                                    + (" Without dry_run the person is asked first." if asks else "")})
        caller = caller or NOBODY
        binding = (tool.name, digest(args))
        if self.policy.in_editor:
            return await self._ask_now(self._editor, tool, args, question, state, progress, "in the Godot editor")
        if caller.asker is not None:
            return await self._ask_now(caller.asker, tool, args, question, state, progress, "through the MCP client")
        if caller.inline:
            return await self._inline(tool, args, question, state, binding, caller)
        return await self._token(tool, args, question, state, binding, caller, token)

    async def _ready(self, tool: ToolDef, args: Mapping[str, Any]) -> None:
        """Raise what would stop the call anyway: its channel does not answer, its target is missing."""
        if self._reachable is not None:
            await self._reachable(tool, dict(args))
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
                       state: State, progress: ProgressFn | None, where: str) -> dict[str, Any] | ToolOutcome:
        async with WaitReporter(progress) as waits:
            for _ in range(ROUNDS):
                waits.waiting(f"{tool.name}: waiting for the person to answer {where} (at most {ANSWER_TIMEOUT_S:g} s)")
                asked_at = time.monotonic()
                try:
                    answer = await asker.ask(question)
                except ToolError as err:
                    return results.failure(err)
                waits.done()
                if answer is not Answer.ACCEPT:
                    return declined(question, answer, tool, time.monotonic() - asked_at)
                now = await self.targets.state(tool, args)
                if now.value == state.value:
                    log.info("%s: the person allowed it (%s)", tool.name, where)
                    return args
                question, state = question.asked_again(CHANGED, now.facts), now
        return results.failure(ToolError("TARGET_CHANGED", f"{tool.name}: what it acts on kept changing while the "
                                         "person was asked; nothing was done", hint="Wait until nothing else "
                                         "changes it, then call again."))

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
        response = (caller.input_responses or {}).get(INPUT_KEY)
        if response is None:  # the answer is missing: ask again (not an error, as the protocol advises)
            raise InputRequired(question, self.states.issue(*binding, state.value, caller.owner, question))
        answer = parse_answer(response)
        if answer is not Answer.ACCEPT:
            return declined(question, answer, tool, self.states.age(ticket))
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
        ttl = self.tokens.ttl
        return results.success({
            "done": False, "status": "confirmation_required", **question.preview(),
            "question": question.message(), "confirmation_token": token, "expires_in_s": int(ttl),
            "message": "Nothing was done: this cannot be undone and your MCP client cannot ask the person "
                       "(it declared no elicitation). Show the person the question below word for word, and only "
                       f"if they agree, call {tool.name} again with the same arguments plus confirmation_token "
                       f"(it works once, for {ttl:g} s, while the target stays as it is). In a run with nobody to "
                       f"ask, the person can allow it in the server's env: {ALLOW_UNASKED_ENV}={tool.name}.",
        })


def declined(question: Question, answer: Answer, tool: ToolDef, after_s: float | None = None) -> ToolOutcome:
    """The person said no, or gave no answer: a normal result that says so; nothing happened.

    An answer faster than a person reads a question came from the client itself, with nobody
    there (``claude -p`` cancels every question, ``codex exec`` declines it): the answer says how
    the person can let this tool run in such runs, instead of suggesting they refused."""
    status = "declined" if answer is Answer.DECLINE else "cancelled"
    if after_s is not None and after_s < UNATTENDED_S:
        return results.success({
            "done": False, "status": status, "asked": "nobody", **question.preview(),
            "message": f"Nothing was done: your client {status} the question at once, without a person (a run with "
                       "nobody to ask, such as claude -p or codex exec).",
            "hint": f"Tell the person: to let {tool.name} run in such runs without a question, add "
                    f"{ALLOW_UNASKED_ENV}={tool.name} to the env of this server's entry (godot-bridge init --env "
                    f"{ALLOW_UNASKED_ENV}={tool.name}). Do not change that file yourself.",
        })
    said = "declined" if answer is Answer.DECLINE else "did not answer (cancelled, or no answer in time)"
    return results.success({"done": False, "status": status,
                            **question.preview(), "message": f"The person {said}: nothing was done.",
                            "hint": DECLINED_HINT})


