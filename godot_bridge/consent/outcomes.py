"""What a call that asks answers when it does not run: a dry run, a preview with its token, a no,
an answer that came from nobody, an answer that cannot be used.

Each is a normal tool result (never a protocol error) with ``"done": false``. ``status`` says what
came back (``declined``, ``cancelled``, ``accepted``, ``unusable_answer``, ``confirmation_required``);
``"asked": "nobody"`` marks an answer no person gave: one faster than a person reads the question,
which only a client answering by itself gives (``claude -p`` cancels every question, ``codex exec``
declines it, an auto-answering hook accepts it). Such an answer never runs the call, whatever it
says; the person who wants a tool to run in runs with nobody to ask names it in the server's env.
"""

from __future__ import annotations

from typing import Any

from godot_bridge.config import ALLOW_UNASKED_ENV
from godot_bridge.consent.caller import Way
from godot_bridge.consent.question import Answer, Question
from godot_bridge.tools import results
from godot_bridge.tools.catalogue import ToolDef
from godot_bridge.tools.results import ToolOutcome

DECLINED_HINT = ("Nothing was done. Do not try to reach the same result another way; ask the person what "
                 "they want instead.")
# What a call without dry_run does next, by the way it asks (None: it runs without a question).
_NEXT = {
    Way.EDITOR: "the person is asked first, in the Godot editor's own dialog",
    Way.CLIENT: "the person is asked first, through your MCP client",
    Way.INLINE: "the person is asked first, through your MCP client",
    Way.TOKEN: "it answers with the question to show the person and a single-use confirmation_token "
               "(your MCP client cannot ask)",
}
_STATUS = {Answer.ACCEPT: "accepted", Answer.DECLINE: "declined", Answer.CANCEL: "cancelled"}


def dry_run(question: Question, way: Way | None, unasked: bool) -> ToolOutcome:
    """The preview of a call, saying what the same call without ``dry_run`` does (``way``: how it
    asks; ``unasked``: GODOT_MCP_ALLOW_UNASKED lets it run without a question)."""
    if way is not None:
        then = f" Without dry_run {_NEXT[way]}."
    elif unasked:
        then = f" Without dry_run it runs without a question ({ALLOW_UNASKED_ENV} names it)."
    else:
        then = ""
    return results.success({"dry_run": True, "done": False, "would_ask": way is not None, **question.preview(),
                            "message": "Nothing was done (dry run)." + then})


def confirmation_required(tool: ToolDef, question: Question, token: str, ttl: float) -> ToolOutcome:
    return results.success({
        "done": False, "status": "confirmation_required", **question.preview(),
        "question": question.message(), "confirmation_token": token, "expires_in_s": int(ttl),
        "message": "Nothing was done: this cannot be undone and your MCP client cannot ask the person "
                   "(it declared no elicitation). Show the person the question below word for word, and only "
                   f"if they agree, call {tool.name} again with the same arguments plus confirmation_token "
                   f"(it works once, for {ttl:g} s, while the target stays as it is). In a run with nobody to "
                   f"ask, the person can allow it in the server's env: {ALLOW_UNASKED_ENV}={tool.name}.",
    })


def declined(question: Question, answer: Answer) -> ToolOutcome:
    """The person said no, or gave no answer: nothing happened."""
    said = "declined" if answer is Answer.DECLINE else "did not answer (cancelled, or no answer in time)"
    return results.success({"done": False, "status": _STATUS[answer], **question.preview(),
                            "message": f"The person {said}: nothing was done.", "hint": DECLINED_HINT})


def unattended(question: Question, answer: Answer, tool: ToolDef, after_s: float) -> ToolOutcome:
    """An answer faster than a person reads the question: the client's own, with nobody there. The
    answer says how the person can let this tool run in such runs, instead of suggesting they
    refused, and an accept runs nothing: no person agreed."""
    status = _STATUS[answer]
    again = " If a person did answer, they answered before they could read it: calling again asks again." \
        if answer is Answer.ACCEPT else ""
    return results.success({
        "done": False, "status": status, "asked": "nobody", **question.preview(),
        "message": f"Nothing was done: your client {status} the question {after_s:.2f} s after it was asked, "
                   "faster than a person reads it, so no person answered it (a run with nobody to ask, such as "
                   f"claude -p or codex exec, or a client that answers by itself).{again}",
        "hint": f"Tell the person: to let {tool.name} run in such runs without a question, add "
                f"{ALLOW_UNASKED_ENV}={tool.name} to the env of this server's entry (godot-bridge init --env "
                f"{ALLOW_UNASKED_ENV}={tool.name}). Do not change that file yourself.",
    })


def unusable(question: Question, why: str) -> ToolOutcome:
    """The client's answer could not be read as a yes or a no: nothing happened, at once."""
    body: dict[str, Any] = {
        "done": False, "status": "unusable_answer", **question.preview(),
        "message": f"Nothing was done: your MCP client's answer to the question could not be used ({why}).",
        "hint": "Tell the person their client did not give a usable answer; calling again asks again.",
    }
    return results.success(body)
