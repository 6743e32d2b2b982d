"""The question asked in the Godot editor itself (``GODOT_MCP_CONFIRM_IN_EDITOR=1``).

The toolkit's ``editor.confirm`` opens a dialog in the editor the person works in and answers
when they choose (``accept``/``decline``/``cancel``), when its time runs out (``cancel``), or
when the bridge withdraws the question (its ``_cancel``: the call was cancelled, the dialog
closes). Only a person at the editor can answer it, so its answer is the person's however soon it
comes: a quick "Don't allow" is their no, never a run with nobody to ask. A headless editor has
nobody to ask: it says so (``HEADLESS_UNSUPPORTED``) and the call is refused; the bridge never
falls back to a weaker way of asking.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from godot_bridge.consent.question import ANSWER_TIMEOUT_S, Answer, Question, UnusableAnswer, described
from godot_bridge.errors import ToolError

CONFIRM_METHOD = "editor.confirm"
TITLE = "The AI assistant asks before a change that cannot be undone"
# The bridge waits a little longer than the dialog, so the dialog's own "cancel" arrives first.
SLACK_S = 10.0

Call = Callable[..., Awaitable[Any]]  # EditorBridge.call(method, params, timeout=...)


class EditorAsker:
    def __init__(self, call: Call, timeout_s: float = ANSWER_TIMEOUT_S) -> None:
        self._call = call
        self.timeout_s = timeout_s

    async def ask(self, question: Question) -> Answer:
        params = {"title": TITLE, "message": question.message(), "timeout_ms": int(self.timeout_s * 1000)}
        reply = await self._call(CONFIRM_METHOD, params, timeout=self.timeout_s + SLACK_S)
        if not isinstance(reply, Mapping) or reply.get("success") is False:
            reply = reply if isinstance(reply, Mapping) else {}
            raise ToolError(str(reply.get("code") or "HEADLESS_UNSUPPORTED"),
                            "The Godot editor could not ask the person: "
                            f"{reply.get('error') or 'it gave no answer'}; nothing was done",
                            hint="GODOT_MCP_CONFIRM_IN_EDITOR=1 needs an editor with a window, where the person "
                            "is. Run the editor with a window, or unset GODOT_MCP_CONFIRM_IN_EDITOR to be asked "
                            "through your MCP client.")
        try:
            return Answer(reply.get("answer"))
        except ValueError:
            raise UnusableAnswer(f"the editor answered {described(reply.get('answer'))}") from None
