"""What the person reads and answers: one question about one tool call.

The same question is shown whichever way it travels: as an ``elicitation/create`` form (a
handshake-era request, or a 2026-07-28 ``input_required`` result), in the Godot editor's dialog,
or as the preview a client that cannot ask gets with its token. The form asks for one boolean
(``allow``) and nothing else: never a secret, never free text.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from godot_bridge.errors import ConsentError
from godot_bridge.tools.catalogue import ToolDef
from godot_bridge.tools.channels import CHANNEL_ARG, call_channel, takes_channel_arg

# The form's one field; an accepted form counts as "yes" only when it is true.
FIELD = "allow"
# How long a question waits for an answer (elicitation, the editor's dialog) before it counts as
# cancelled: a person away from the keyboard must not hold the call forever.
ANSWER_TIMEOUT_S = 120.0
# A shown argument is cut here in the question (the person is told how much was left out).
SHOWN_LIMIT = 4000


class Answer(Enum):
    ACCEPT = "accept"
    DECLINE = "decline"
    CANCEL = "cancel"


@dataclass(frozen=True)
class Question:
    """One call, as the person is asked about it."""

    tool: str
    does: str  # "Delete res://big.bin"
    because: str  # why neither undo nor a checkpoint can take it back
    facts: list[str] = field(default_factory=list)  # what the target is now ("res://big.bin: 40.2 MiB")
    shown: list[tuple[str, str]] = field(default_factory=list)  # (argument, its text) shown in full
    again: str | None = None  # why this is asked a second time

    def asked_again(self, why: str, facts: list[str]) -> Question:
        return replace(self, again=why, facts=facts)

    def message(self) -> str:
        """The text the person reads: what will happen, on what, why it asks, the choice."""
        lines = []
        if self.again:
            lines += [f"Asked again: {self.again}.", ""]
        lines.append(f"The AI assistant wants to: {self.does} ({self.tool}).")
        lines += [f"  {fact}" for fact in self.facts]
        for name, text in self.shown:
            lines += ["", f"{name}:", text]
        lines += ["", f"This cannot be undone: {self.because}", "", "Allow it?"]
        return "\n".join(lines)

    def requested_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {FIELD: {"type": "boolean", "title": "Allow this change",
                                   "description": "Check to let it run; leave unchecked or decline to stop it.",
                                   "default": False}},
            "required": [FIELD],
        }

    def form(self) -> dict[str, Any]:
        """``elicitation/create`` params (form mode)."""
        return {"mode": "form", "message": self.message(), "requestedSchema": self.requested_schema()}

    def preview(self) -> dict[str, Any]:
        """The question as a tool result shows it (a preview, a dry run, a decline)."""
        out: dict[str, Any] = {"tool": self.tool, "would": self.does, "why_it_asks": self.because}
        if self.facts:
            out["target"] = self.facts
        if self.again:
            out["asked_again_because"] = self.again
        return out


class UnusableAnswer(ConsentError):
    """An answer that is none of accept, decline or cancel as the form asked for them (a bare string,
    an object without an ``action``, ``"ACCEPT"``, an error instead of a result): nothing runs, and
    the call answers at once saying why (never a wait, never a protocol error)."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


_KINDS: tuple[tuple[type, str], ...] = ((bool, "a boolean"), (int, "a number"), (float, "a number"),
                                         (str, "a string"), (list, "an array"), (Mapping, "an object"))


def described(value: Any) -> str:
    """A value a client sent, as an answer names it: a short string quoted, anything else by its JSON type."""
    if isinstance(value, str) and len(value) <= 20:
        return f'"{value}"'
    return "null" if value is None else next((name for kind, name in _KINDS if isinstance(value, kind)), "a value")


def parse_answer(result: Any) -> Answer:
    """An ``ElicitResult`` as the client sent it: yes only for ``accept`` with ``allow: true``; an
    accepted form whose box was left unticked is a no. ``UnusableAnswer`` for anything else."""
    if not isinstance(result, Mapping):
        raise UnusableAnswer(f"the answer is {described(result)}, not an object with an action")
    action = result.get("action")
    if action not in {answer.value for answer in Answer}:
        raise UnusableAnswer(f'its action is {described(action)}, not "accept", "decline" or "cancel"')
    content = result.get("content")
    if content is not None and not isinstance(content, Mapping):
        raise UnusableAnswer(f"its content is {described(content)}, not an object")
    allowed = content.get(FIELD) if content is not None else None
    if allowed is not None and not isinstance(allowed, bool):
        raise UnusableAnswer(f'its "{FIELD}" is {described(allowed)}, not true or false')
    if action == Answer.ACCEPT.value:
        return Answer.ACCEPT if allowed is True else Answer.DECLINE
    return Answer(action)


class _Values(dict[str, str]):
    """``{name}`` placeholders: a missing argument reads as the catalogue's words for it."""

    def __init__(self, values: Mapping[str, str], absent: Mapping[str, str]) -> None:
        super().__init__(values)
        self._absent = absent

    def __missing__(self, key: str) -> str:
        return self._absent.get(key, "(not given)")


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    import json

    return json.dumps(value, ensure_ascii=False)


def _shown(value: Any) -> str:
    text = _text(value)
    if len(text) <= SHOWN_LIMIT:
        return text
    hidden = len(text) - SHOWN_LIMIT
    return text[:SHOWN_LIMIT] + f"\n[... {hidden} more characters not shown: read it all before allowing]"


def argument(tool: ToolDef, args: Mapping[str, Any], name: str) -> Any:
    """An argument as the call will use it: given, else its schema default (for a channel_arg
    tool's ``channel``, the channel the call goes to: tools/channels.py)."""
    if name == CHANNEL_ARG and takes_channel_arg(tool):
        return call_channel(tool, args)
    if name in args:
        return args[name]
    spec = tool.input_schema.get("properties", {}).get(name)
    if isinstance(spec, Mapping) and "default" in spec:
        return spec["default"]
    return None


def build(tool: ToolDef, args: Mapping[str, Any], because: str, facts: list[str]) -> Question:
    """The question about this call; a tool without catalogue words (an extension, or any change under
    GODOT_MCP_CONFIRM=always) is described by its name and arguments."""
    asks = tool.asks
    if asks is None:
        does = f"call {tool.name} with {_text(dict(args)) if args else 'no arguments'}"
        return Question(tool.name, does, because, facts)
    values = {name: _text(value) for name in tool.input_schema.get("properties", {})
              if (value := argument(tool, args, name)) is not None}
    does = string.Formatter().vformat(asks.does, (), _Values(values, asks.absent))
    shown = [(name, _shown(args[name])) for name in asks.show if name in args]
    return Question(tool.name, does, because, facts, shown)
