"""Which channel a tool call goes to: the one place that decides it (contract C3, C8).

A catalogue tool names its channel (``editor``, ``runtime``, ``lsp``, ``bridge``). One whose
``handling`` says ``channel_arg`` (``execute_code``, ``signal_emit``, an extension command with a
channel enum) lets the caller pick per call with ``channel: editor|runtime`` (``game`` is accepted
for ``runtime``); without one it goes to the tool's own channel. What a call waits for
(tools/dispatch.py), where it is forwarded (editor/forward.py) and what the person is asked about it
(consent/question.py) all read ``call_channel``, so the three can never disagree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from godot_bridge.errors import ToolError

EDITOR = "editor"
RUNTIME = "runtime"
CHANNEL_ALIASES = {"editor": EDITOR, "runtime": RUNTIME, "game": RUNTIME}
# The argument a channel_arg tool takes; the toolkit handlers do not read it.
CHANNEL_ARG = "channel"


class Routed(Protocol):
    """The part of ``catalogue.ToolDef`` that says where its calls go."""

    name: str
    channel: str
    handling: Sequence[str]


def takes_channel_arg(tool: Routed) -> bool:
    """The caller picks the channel per call (contract: execute.code / signal.emit exist in both modes)."""
    return "channel_arg" in tool.handling


def call_channel(tool: Routed, args: Mapping[str, Any]) -> str:
    """The channel a call of ``tool`` with ``args`` goes to; INVALID_PARAMS for a ``channel`` naming none."""
    if not takes_channel_arg(tool):
        return tool.channel
    raw = args.get(CHANNEL_ARG)
    if raw is None or raw == "":
        return tool.channel
    channel = CHANNEL_ALIASES.get(raw) if isinstance(raw, str) else None
    if channel is None:
        raise ToolError(
            "INVALID_PARAMS",
            f"channel={raw!r} is not one of 'editor', 'runtime' (or 'game')",
            hint="Use channel='editor' for the edited scene or channel='runtime' for the running game.",
        )
    return channel
