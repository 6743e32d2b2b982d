"""Which tools ask the person first, under the policy the person set.

``GODOT_MCP_CONFIRM``: ``irreversible`` (default) asks before what neither undo nor a checkpoint
can take back (the catalogue's ``asks``, and extension tools marked destructive, whose undo the
bridge cannot see); ``always`` before every call that changes anything; ``never`` not at all (CI,
scripts). ``GODOT_MCP_CONFIRM_IN_EDITOR=1`` asks in the Godot editor instead of the client.
``GODOT_MCP_ALLOW_UNASKED`` names tools that run without a question (runs with nobody to ask).

When these disagree, the one that asks more wins (``resolve``): a stricter choice the person
wrote is never beaten by a looser one, and what it overrode is said at start and by ``doctor``.

A tool that may ask offers two more parameters: ``dry_run`` (the preview, without the question)
and ``confirmation_token`` (for clients that cannot ask: the token a preview of that exact call
gave). ``offered`` adds them to what the client sees; the gate takes them out again before the
call goes on, so the toolkit never sees them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from godot_bridge.config import ALLOW_UNASKED_ENV, CONFIRM_POLICIES, Settings
from godot_bridge.tools.catalogue import AskWhen, ToolDef
from godot_bridge.tools.names import closest
from godot_bridge.tools.toolkit_consts import toolkit_int

DRY_RUN = "dry_run"
TOKEN = "confirmation_token"
CONSENT_PARAMS: dict[str, dict[str, Any]] = {
    # Short: every asking tool carries both; the preview itself explains the token.
    DRY_RUN: {"type": "boolean", "description": "true: only preview"},
    TOKEN: {"type": "string", "description": "From this exact call's preview"},
}
# The toolkit keeps at most this many bytes of a delete for undo: its figure, read from it.
UNDO_BUDGET_BYTES = toolkit_int("commands/filesystem/file_removal.gd", "UNDO_BYTES_LIMIT")
# What the question of an extension tool or (under ``always``) of an undoable tool says.
EXTENSION_BECAUSE = ("It is a project extension's command marked destructive: the bridge cannot see "
                     "whether undo covers what it does.")
ALWAYS_BECAUSE = "GODOT_MCP_CONFIRM=always: the person asked to be asked before every change."


def changes_something(tool: ToolDef) -> bool:
    """Not a plain read (the read-only rule of contract C9)."""
    return not tool.read_only_safe and not tool.meta


# GODOT_MCP_CONFIRM's values from the one that asks least to the one that asks most.
MODE_STRENGTH = ("never", "irreversible", "always")
assert set(MODE_STRENGTH) == set(CONFIRM_POLICIES)
# The order the settings are applied in, strictest first (README "Asking before", doctor).
PRECEDENCE = (
    "GODOT_MCP_CONFIRM_IN_EDITOR=1: a person answers in the editor; GODOT_MCP_CONFIRM=never and "
    f"{ALLOW_UNASKED_ENV} do not apply",
    f"GODOT_MCP_CONFIRM=always: every change asks; {ALLOW_UNASKED_ENV} does not apply",
    f"{ALLOW_UNASKED_ENV}: the named tools run without a question",
    "GODOT_MCP_CONFIRM=irreversible (default) or never",
)


@dataclass(frozen=True)
class Policy:
    mode: str = CONFIRM_POLICIES[0]
    in_editor: bool = False
    # GODOT_MCP_ALLOW_UNASKED: tools the person lets run without a question (runs with nobody to ask).
    unasked: frozenset[str] = frozenset()

    @classmethod
    def of(cls, settings: Settings) -> Policy:
        """The policy in force under ``settings`` (the strictest of what they say: ``resolve``)."""
        return resolve(settings)[0]

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



def resolve(settings: Settings) -> tuple[Policy, list[str]]:
    """The policy ``settings`` put in force, and what of them a stricter setting overrode (in words).

    The editor's dialog means a person is at the editor to answer: ``never`` and the unasked list
    do not apply under it. ``always`` asks before every change: the unasked list does not apply."""
    mode, unasked = settings.confirm, settings.allow_unasked
    overridden: list[str] = []
    if settings.confirm_in_editor and mode == "never":
        overridden.append("GODOT_MCP_CONFIRM=never does not apply: GODOT_MCP_CONFIRM_IN_EDITOR=1 says a person "
                          "answers in the editor, so what cannot be undone asks there (irreversible)")
        mode = "irreversible"
    stricter = "GODOT_MCP_CONFIRM_IN_EDITOR=1" if settings.confirm_in_editor else \
        "GODOT_MCP_CONFIRM=always" if mode == "always" else None
    if unasked and stricter is not None:
        overridden.append(f"{ALLOW_UNASKED_ENV}={','.join(sorted(unasked))} does not apply: {stricter} is stricter, "
                          "so those tools ask too")
        unasked = frozenset()
    return Policy(mode, settings.confirm_in_editor, unasked), overridden


def unknown_names(names: Iterable[str], known: Iterable[str]) -> list[str]:
    """Each of ``names`` that names no tool of ``known``, with the closest tool when there is one
    (names are case-sensitive: ``Execute_Code`` is unknown, and ``execute_code`` is suggested)."""
    tools = sorted(set(known))
    out = []
    for name in sorted(set(names) - set(tools)):
        guess = closest(name, tools)
        out.append(f"{name} (did you mean {guess}?)" if guess else name)
    return out


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
    if when.outside_project is not None:
        return f"`{when.outside_project}` is a file outside the project"
    return f"what `{when.over_undo_budget}` names is over the {UNDO_BUDGET_BYTES // (1 << 20)} MiB undo keeps"
