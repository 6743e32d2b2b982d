"""Which tools ask the person first, under the policy the person set.

``GODOT_MCP_CONFIRM``: ``irreversible`` (default) asks before what neither undo nor a checkpoint
can take back (the catalogue's ``asks``, and extension tools marked destructive, whose undo the
bridge cannot see); ``always`` before every call that changes anything; ``never`` not at all (CI,
scripts). ``GODOT_MCP_CONFIRM_IN_EDITOR=1`` asks in the Godot editor instead of the client.

A tool that may ask offers two more parameters: ``dry_run`` (the preview, without the question)
and ``confirmation_token`` (for clients that cannot ask: the token a preview of that exact call
gave). ``offered`` adds them to what the client sees; the gate takes them out again before the
call goes on, so the toolkit never sees them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from godot_bridge.config import CONFIRM_POLICIES, Settings
from godot_bridge.tools.catalogue import AskWhen, ToolDef

DRY_RUN = "dry_run"
TOKEN = "confirmation_token"
CONSENT_PARAMS: dict[str, dict[str, Any]] = {
    # Short: every asking tool carries both; the preview itself explains the token.
    DRY_RUN: {"type": "boolean", "description": "true: only preview the call"},
    TOKEN: {"type": "string", "description": "From this exact call's preview"},
}
# The toolkit keeps at most this many bytes of a delete for undo (FileRemoval.UNDO_BYTES_LIMIT in
# addons/godot_mcp_toolkit/commands/filesystem/file_removal.gd; a test holds the two equal).
UNDO_BUDGET_BYTES = 32 * 1024 * 1024
# What the question of an extension tool or (under ``always``) of an undoable tool says.
EXTENSION_BECAUSE = ("It is a project extension's command marked destructive: the bridge cannot see "
                     "whether undo covers what it does.")
ALWAYS_BECAUSE = "GODOT_MCP_CONFIRM=always: the person asked to be asked before every change."


def changes_something(tool: ToolDef) -> bool:
    """Not a plain read (the read-only rule of contract C9)."""
    return not tool.read_only_safe and not tool.meta


@dataclass(frozen=True)
class Policy:
    mode: str = CONFIRM_POLICIES[0]
    in_editor: bool = False
    # GODOT_MCP_ALLOW_UNASKED: tools the person lets run without a question (runs with nobody to ask).
    unasked: frozenset[str] = frozenset()

    @classmethod
    def of(cls, settings: Settings) -> Policy:
        return cls(settings.confirm, settings.confirm_in_editor, settings.allow_unasked)

    def allows_unasked(self, tool: ToolDef) -> bool:
        return tool.name in self.unasked

    def may_ask(self, tool: ToolDef, *, extension: bool = False) -> bool:
        """Whether some call of ``tool`` asks (before looking at its arguments)."""
        if self.mode == "never":
            return False
        if tool.asks is not None:
            return True
        if self.mode == "always":
            return changes_something(tool)
        return extension and bool(tool.annotations.get("destructiveHint")) and changes_something(tool)

    def because(self, tool: ToolDef, *, extension: bool = False) -> str:
        if tool.asks is not None:
            return tool.asks.because
        return EXTENSION_BECAUSE if extension and self.mode != "always" else ALWAYS_BECAUSE

    def weakened_by(self, new: Policy) -> bool:
        """``new`` asks less than this policy (never -> ... is stronger; dropping the editor dialog is weaker)."""
        rank = {"never": 0, "irreversible": 1, "always": 2}
        return rank[new.mode] < rank[self.mode] or (self.in_editor and not new.in_editor) or \
            not new.unasked <= self.unasked


def offered(tool: ToolDef) -> ToolDef:
    """``tool`` as a client that may be asked sees it: with ``dry_run`` and ``confirmation_token``."""
    schema = tool.input_schema
    properties = schema.get("properties", {})
    if all(name in properties for name in CONSENT_PARAMS):
        return tool
    return replace(tool, input_schema={**schema, "properties": {**properties, **CONSENT_PARAMS}})


def when_text(tool: ToolDef) -> str:
    """When ``tool`` asks, in words ("every call"; "`if_exists` is `replace` and `file_path` exists")."""
    conditions = tool.asks.when if tool.asks is not None else []
    return " and ".join(_condition_text(when) for when in conditions) or "every call"


def _condition_text(when: AskWhen) -> str:
    if when.arg is not None:
        return f"`{when.arg}` is `{when.equals}`"
    if when.exists is not None:
        return f"`{when.exists}` names a file that exists"
    return f"what `{when.over_undo_budget}` names is over the {UNDO_BUDGET_BYTES // (1 << 20)} MiB undo keeps"
