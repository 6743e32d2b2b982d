"""``discover_tools``: find on-demand tool groups by name or keyword and load them (C12).

Scoring is a pure function over group data; ``discover`` applies a request to the
calling client's ``ToolList`` and returns the answer payload plus whether that list
changed (the caller announces the change once per call).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from godot_bridge.errors import ToolError
from godot_bridge.tools.catalogue import ToolDef
from godot_bridge.tools.surface import GroupView, ToolList

PER_QUERY_CAP = 3
PER_CALL_CAP = 5
LOADED_WARNING_THRESHOLD = 5


def score(query: str, group: GroupView) -> int:
    """Keyword and tool-name relevance of ``group`` for one lower-cased query."""
    total = 0
    for kw in group.keywords:
        kw = kw.lower()
        if kw == query:
            total += 3
        elif kw in query:
            total += 2
        elif len(query) >= 3 and query in kw:
            total += 1
    total += sum(1 for t in group.tools if query in t.name.replace("_", " "))
    return total


def is_exact(query: str, group: GroupView) -> bool:
    return any(kw.lower() == query for kw in group.keywords)


@dataclass
class Match:
    group: GroupView
    query: str
    score: int


def rank(query: str, groups: Sequence[GroupView]) -> tuple[list[Match], int]:
    """Groups kept for one query (top hit, exact hits, >= half the top; at most 3) and how many more matched."""
    scored = [Match(g, query, s) for g in groups if (s := score(query, g)) > 0]
    if not scored:
        return [], 0
    scored.sort(key=lambda m: -m.score)  # stable: canonical order breaks ties
    top = scored[0].score
    kept = [m for i, m in enumerate(scored) if i == 0 or is_exact(query, m.group) or 2 * m.score >= top]
    return kept[:PER_QUERY_CAP], len(kept) - min(len(kept), PER_QUERY_CAP)


def parse_names(value: Any, field: str) -> list[str]:
    """A string, a list of strings, or a string holding a JSON list."""
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                value = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ToolError(
                    "INVALID_PARAMS", f"{field}: looks like a JSON list but does not parse ({exc.msg})"
                ) from None
        else:
            return [text] if text else []
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [v.strip() for v in value if v.strip()]
    raise ToolError("INVALID_PARAMS", f"{field}: expected a group name, a keyword, or a list of them")


def tool_summary(tool: ToolDef, with_schema: bool) -> Any:
    if not with_schema:
        return tool.name
    return {
        "name": tool.name,
        "description": tool.description,
        "inputSchema": tool.input_schema,
        "annotations": tool.annotations,
    }


def compact_tool(tool: ToolDef) -> dict[str, Any]:
    """What a model needs to call a tool: name, description, input schema (no annotations)."""
    return {"name": tool.name, "description": tool.description, "inputSchema": tool.input_schema}


def _entry(view: GroupView, status: str, with_schema: bool, **extra: Any) -> dict[str, Any]:
    return {
        "name": view.name,
        "status": status,
        "tools": [tool_summary(t, with_schema) for t in view.tools],
        **extra,
    }


def discover(tools: ToolList, args: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """Apply one discover_tools call. Returns (answer payload, whether the visible tool list changed)."""
    if not tools.loads:
        return _find_only(tools, args), False
    before = [t.name for t in tools.visible()]
    with_schema = bool(args.get("include_schemas", False))
    activate = args.get("activate", True) is not False
    answer: dict[str, Any] = {}

    reset = args.get("reset")
    if reset is True:
        answer["unloaded"] = tools.deactivate(None)
    elif reset not in (None, False):
        names = parse_names(reset, "reset")
        unknown = [n for n in names if n not in tools.group_names()]
        if unknown:
            raise ToolError("INVALID_PARAMS", f"reset: unknown group(s) {', '.join(unknown)}",
                            hint=f"Groups: {', '.join(tools.group_names())}")
        answer["unloaded"] = tools.deactivate(names)

    views = tools.groups()
    request = args.get("request")
    if request is None or request == "" or request == []:
        if "unloaded" not in answer:
            answer["groups"] = [
                {"name": v.name, "description": v.description,
                 "status": "already_loaded" if v.name in tools.loaded else "available",
                 "tools": [tool_summary(t, with_schema) for t in v.tools]}
                for v in views
            ]
    else:
        answer.update(_match_and_load(tools, views, parse_names(request, "request"), activate, with_schema))

    answer["loaded"] = list(tools.loaded)
    if len(tools.loaded) > LOADED_WARNING_THRESHOLD:
        answer["warning"] = (f"{len(tools.loaded)} groups are loaded; every loaded tool costs context on each turn. "
                             "Unload what you no longer need with reset.")
    after = tools.visible()
    changed = [t.name for t in after] != before
    shown_before = set(before)
    activated = [t for t in after if t.name not in shown_before]
    if activated:
        # Until the client is known to have fetched its new list (explain_activated), the answer
        # carries what a model needs to call the new tools without it.
        answer["activated_tools"] = [compact_tool(t) for t in activated]
    return answer, changed


# What the model is told about the tools a call loaded: by its client's own list, or through call_tool.
CALL_DIRECTLY = ("Loaded. Call them by name the way you call discover_tools (with the same prefix, if your tools "
                 "have one).")
CALL_THROUGH = ("Loaded, but your client has not fetched its new tool list, so call these through call_tool: "
                '{"name": "<tool>", "arguments": {...}} with the schemas shown.')


def one_line(description: str) -> str:
    """A description's first sentence: what a model needs to pick a tool it will see in its list."""
    head, dot, _ = description.partition(". ")
    return head + "." if dot else description


def explain_activated(answer: dict[str, Any], listed: bool | None) -> dict[str, Any]:
    """Say how to call the tools ``answer`` loaded: ``listed`` -- the client fetched its new list, so
    names and a line each are enough (its list holds the schemas); otherwise the schemas, through call_tool."""
    activated = answer.get("activated_tools")
    if not activated:
        return answer
    if listed:
        answer["activated_tools"] = [{"name": t["name"], "description": one_line(t["description"])}
                                     for t in activated]
        answer["how_to_call"] = CALL_DIRECTLY
    else:
        answer["how_to_call"] = CALL_THROUGH
    return answer


def _match_and_load(
    tools: ToolList, views: list[GroupView], queries: list[str], activate: bool, with_schema: bool
) -> dict[str, Any]:
    out = _match(views, queries)
    entries = []
    for view in out.pop("picked"):
        if view.name in tools.loaded:
            entries.append(_entry(view, "already_loaded", with_schema))
        elif activate:
            tools.activate([view.name])
            entries.append(_entry(view, "activated", with_schema))
        else:
            entries.append(_entry(view, "available", with_schema, description=view.description))
    return {"groups": entries, **out}


# -- a list nothing loads into ------------------------------------------------------------------
# Under GODOT_MCP_TOOL_LIST=all every tool is listed already; a 2026-07-28 client's list never
# changes with what it calls. discover_tools there finds tools by topic and loads nothing.
ALL_LISTED = ("Every tool is already in your list; this finds them by topic. request: keywords or group names; "
              "none lists the groups.")
FIXED_LIST = ("Find more tools by topic: answers their schemas, to call through call_tool. request: group names or "
              "keywords; none lists every group.")
CALL_LISTED = "These are in your tool list: call them by name."
CALL_FIXED = ('Your tool list does not change: call these through call_tool {"name": "<tool>", "arguments": {...}} '
              "(or by name) with the schemas shown.")


def _find_only(tools: ToolList, args: dict[str, Any]) -> dict[str, Any]:
    """discover_tools for a list that does not load: the matching groups' tools, and how to call them."""
    views = tools.groups()
    reset = args.get("reset")
    if reset not in (None, False, True):
        unknown = [n for n in parse_names(reset, "reset") if n not in tools.group_names()]
        if unknown:
            raise ToolError("INVALID_PARAMS", f"reset: unknown group(s) {', '.join(unknown)}",
                            hint=f"Groups: {', '.join(tools.group_names())}")
    request = args.get("request")
    listed = tools.surface.lists_all
    if request is None or request == "" or request == []:
        return {"groups": [{"name": v.name, "description": v.description,
                            "tools": [tool_summary(t, bool(args.get("include_schemas"))) for t in v.tools]}
                           for v in views]}
    # Schemas by default where the list lacks the tools (call_tool needs them); names where it holds them.
    report_only = args.get("activate", True) is False
    with_schema = bool(args.get("include_schemas", not listed and not report_only))
    answer = _match(views, parse_names(request, "request"))
    answer["groups"] = [{"name": v.name, **({"description": v.description} if report_only else {}),
                         "tools": [compact_tool(t) if with_schema else t.name for t in v.tools]}
                        for v in answer.pop("picked")]
    if answer["groups"]:
        answer["how_to_call"] = CALL_LISTED if listed else CALL_FIXED
    return answer


def _match(views: list[GroupView], queries: list[str]) -> dict[str, Any]:
    """The groups ``queries`` pick (``picked``), with what more matched and what matched nothing."""
    by_name = {v.name: v for v in views}
    picked: dict[str, GroupView] = {}
    exact: list[str] = []
    more = 0
    unmatched: list[str] = []
    for raw in queries:
        if raw in by_name:  # an exact group name is never capped
            picked.setdefault(raw, by_name[raw])
            exact.append(raw)
            continue
        matches, extra = rank(raw.lower(), views)
        more += extra
        if not matches:
            unmatched.append(raw)
        for m in matches:
            picked.setdefault(m.group.name, m.group)
    keyword_picks = [n for n in picked if n not in exact]
    if len(keyword_picks) > PER_CALL_CAP:
        more += len(keyword_picks) - PER_CALL_CAP
        drop = set(keyword_picks[PER_CALL_CAP:])
        picked = {n: v for n, v in picked.items() if n not in drop}
    out: dict[str, Any] = {"picked": list(picked.values())}
    if more:
        out["more_matches"] = more
        out["hint"] = f"{more} more group(s) matched; use a more specific keyword or an exact group name."
    if unmatched:
        out["unmatched"] = unmatched
        out.setdefault("hint", f"No group matched {', '.join(repr(u) for u in unmatched)}. "
                               f"Groups: {', '.join(by_name)}")
    return out


def description(base: str, tools: ToolList) -> str:
    """discover_tools' own description: the base text plus every group, loaded or available (for a
    list that does not load: what it does there instead)."""
    if tools.surface.lists_all:
        return ALL_LISTED
    if tools.fixed:
        return f"{FIXED_LIST} Available: {', '.join(tools.group_names())}."
    loaded = set(tools.loaded)
    names = tools.group_names()
    parts = [base.rstrip()]
    on = [n for n in names if n in loaded]
    off = [n for n in names if n not in loaded]
    if on:
        parts.append("Loaded: " + ", ".join(on) + ".")
    if off:
        parts.append("Available: " + ", ".join(off) + ".")
    return " ".join(parts)
