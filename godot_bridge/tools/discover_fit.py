"""discover_tools' answer held to one answer's size (tools/answer_budget.py).

Loading many groups in one call, or listing every group with ``include_schemas``, carries tool
schemas far past it (all 38 groups: about 60 KB; with ``include_schemas`` twice that; even their
names and one line each are 20 KB). What does not fit is left out a whole group at a time, from
the last group back: its tools listed by name only (in ``groups``), and the answer names those
groups; discover_tools asked for one of them with ``include_schemas`` gives its tools' schemas,
and the largest group's fit one answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from godot_bridge.tools.answer_budget import budget_bytes, text_size

# Kept free for what a result adds around the payload and for the hint below.
RESERVE = 400
HINT = "The groups in schemas_omitted are loaded, their tools listed by name only (one answer's size): ask " \
       "discover_tools for one of them with include_schemas true for its tools' schemas."


@dataclass(frozen=True)
class _Slot:
    """One tool entry beyond its name: where it sits, its group, and what it shrinks to (None:
    dropped, as a loaded tool is when its group's entry lists its name)."""

    items: list[Any]
    index: int
    group: str
    short: Any

    def saving(self) -> int:
        if self.short is None:
            return text_size(self.items[self.index]) + 1
        return text_size(self.items[self.index]) - text_size(self.short)


def within_one_answer(answer: dict[str, Any], group_of: Mapping[str, str | None]) -> dict[str, Any]:
    """``answer`` as it is when it fits one answer, else without the schemas of its last groups.

    ``group_of``: tool name -> its group, for the loaded tools the answer lists (``activated_tools``).
    """
    excess = text_size(answer) - (budget_bytes() - RESERVE)
    if excess <= 0:
        return answer
    slots = _slots(answer, group_of)
    order = list(dict.fromkeys(slot.group for slot in slots))
    omitted: list[str] = []
    for group in reversed(order):
        if excess <= 0:
            break
        for slot in (s for s in slots if s.group == group):
            excess -= slot.saving()
            slot.items[slot.index] = slot.short
        omitted.append(group)
    if omitted:
        answer["schemas_omitted"] = sorted(omitted, key=order.index)
        answer["hint"] = HINT
    if "activated_tools" in answer:
        answer["activated_tools"] = [tool for tool in answer["activated_tools"] if tool is not None]
    return answer


def _slots(answer: dict[str, Any], group_of: Mapping[str, str | None]) -> list[_Slot]:
    slots: list[_Slot] = []
    for group in answer.get("groups", []):
        tools = group.get("tools", [])
        for index, tool in enumerate(tools):
            if isinstance(tool, dict) and "inputSchema" in tool:
                slots.append(_Slot(tools, index, group["name"], tool["name"]))
    listed = {group["name"] for group in answer.get("groups", [])}
    activated = answer.get("activated_tools", [])
    for index, tool in enumerate(activated):
        group = group_of.get(tool["name"]) or ""
        if group in listed:
            slots.append(_Slot(activated, index, group, None))
    return slots
