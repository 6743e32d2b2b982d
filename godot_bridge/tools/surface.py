"""What ``tools/list`` shows right now (contract C8, C9, C12, C13).

The visible set = always-on tools + meta tools + tools of the groups shown +
extension tools, minus what read-only mode or the connected Godot version
excludes. Which groups are shown is configuration (GODOT_MCP_TOOL_LIST, ``Surface.listing``):
``all`` shows every group in every list; ``groups`` shows none at start, and a handshake-era
client's ``discover_tools`` loads groups into its own ``ToolList``. A 2026-07-28 client's list is
*fixed*: the revision forbids a list that changes as a side effect of other requests, so what it
calls never loads anything into it. Pure state over data: the MCP layer asks, the editor link
reports version and extension changes (``Surface``, shared).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from godot_bridge.tools import names
from godot_bridge.tools.catalogue import Catalogue, GroupDef, ToolDef

log = logging.getLogger(__name__)

Version = tuple[int, int]


def readonly_allowed(tool: ToolDef) -> bool:
    """Strict read-only rule: readOnlyHint and not destructiveHint (both set = mutating)."""
    return bool(tool.annotations.get("readOnlyHint")) and not tool.annotations.get("destructiveHint")


def shown_in_read_only(tool: ToolDef) -> bool:
    """Listed in read-only mode: a read (the rule above), or a meta tool, whose reach is filtered like a
    direct call."""
    return readonly_allowed(tool) or tool.meta


def version_allows(tool: ToolDef, version: Version | None) -> bool:
    """A version-bounded tool is hidden while the editor's version is unknown or outside its bounds."""
    lo, hi = tool.min_version, tool.max_version
    if lo is None and hi is None:
        return True
    if version is None:
        return False
    return (lo is None or version >= lo) and (hi is None or version <= hi)


def extension_tool(command: dict[str, Any]) -> ToolDef | None:
    """Project one toolkit extension command (``extensions.list`` entry) into a tool definition."""
    method = command.get("method")
    if not isinstance(method, str) or not method:
        return None
    raw_ann = command.get("annotations") if isinstance(command.get("annotations"), dict) else {}
    annotations = {
        k: bool(raw_ann.get(k, False)) for k in ("readOnlyHint", "destructiveHint", "idempotentHint")
    }
    schema = command.get("input_schema")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        schema = {"type": "object", "properties": {}}
    group = command.get("group") if isinstance(command.get("group"), str) and command.get("group") else None
    # An extension command that, like execute.code, serves both modes says so with a channel enum.
    props = schema.get("properties")
    channel = props.get("channel") if isinstance(props, dict) else None
    enum = channel.get("enum") if isinstance(channel, dict) else None
    picks_channel = isinstance(enum, list) and {"editor", "runtime"} <= {e for e in enum if isinstance(e, str)}
    timeout = command.get("timeout_ms")
    try:
        return ToolDef(
            name=method.replace(".", "_").replace("-", "_"),
            method=method,
            channel="editor",
            group=group,
            description=str(command.get("description") or f"Extension command {method}."),
            annotations=annotations,
            godot_min=command.get("min_godot_version") or None,
            godot_max=command.get("max_godot_version") or None,
            timeout_ms=int(timeout) if isinstance(timeout, int | float) and timeout > 0 else None,
            handling=["channel_arg"] if picks_channel else [],
            input_schema=schema,
        )
    except Exception as exc:  # a malformed extension must not take the catalogue down
        log.warning("skipping extension command %r: %s", method, exc)
        return None


@dataclass
class GroupView:
    """A group as discover_tools sees it: catalogue or extension-provided."""

    name: str
    description: str
    keywords: list[str]
    tools: list[ToolDef]
    extension: bool = False


@dataclass
class Surface:
    """What every client's tool list is made from: the catalogue, extensions, read-only mode and the
    connected Godot version. The groups a client loaded live in its own ``ToolList``."""

    catalogue: Catalogue
    read_only: bool = False
    version: Callable[[], Version | None] = lambda: None
    _extensions: list[ToolDef] = field(default_factory=list)
    # Bumped whenever extensions or read-only mode change: every list built before is stale.
    generation: int = 0
    # visible() runs on every call; cached per (loaded groups, version), dropped with the generation.
    _cache: dict[tuple[Any, ...], dict[str, ToolDef]] = field(default_factory=dict)
    # How a tool is offered to clients (consent/: the parameters of a tool that asks first); None: as it is.
    offer: Callable[[ToolDef], ToolDef] | None = None
    # Our server's keys in the clients' files: a name a client prefixed with one is that tool (own_name).
    server_keys: tuple[str, ...] = ()
    # GODOT_MCP_TOOL_LIST: "groups" (start-up tools, groups behind discover_tools) or "all" (every group shown).
    listing: str = "groups"

    @property
    def lists_all(self) -> bool:
        return self.listing == "all"

    # -- extensions -------------------------------------------------------
    def set_extensions(self, commands: Iterable[dict[str, Any]]) -> None:
        """Replace the extension tools; a name colliding with a built-in or earlier extension is skipped."""
        seen: set[str] = set(self.catalogue.tools)
        tools: list[ToolDef] = []
        for command in commands:
            tool = extension_tool(command)
            if tool is None:
                continue
            if tool.name in seen:
                log.warning("extension tool %s collides with an existing tool; keeping the existing one", tool.name)
                continue
            seen.add(tool.name)
            if self.read_only and tool.annotations.get("readOnlyHint") and tool.annotations.get("destructiveHint"):
                log.warning("extension tool %s is marked both read-only and destructive; treating it as mutating",
                            tool.name)
            tools.append(tool)
        self._extensions = tools
        self._stale()

    def set_read_only(self, read_only: bool) -> None:
        """Flip read-only mode (a configuration reload). Loaded groups stay loaded: a group
        hidden by read-only mode shows its tools again when the mode is turned off."""
        self.read_only = read_only
        self._stale()

    def set_listing(self, listing: str) -> None:
        """GODOT_MCP_TOOL_LIST changed (a configuration reload): every list is rebuilt."""
        self.listing = listing
        self._stale()

    def set_offer(self, offer: Callable[[ToolDef], ToolDef] | None) -> None:
        """How tools are offered changed (the confirmation policy): every list is rebuilt."""
        self.offer = offer
        self._stale()

    def _offered(self, tools: Iterable[ToolDef]) -> list[ToolDef]:
        return [self.offer(t) for t in tools] if self.offer is not None else list(tools)

    def _stale(self) -> None:
        self.generation += 1
        self._cache.clear()

    # -- groups -------------------------------------------------------------
    def groups(self) -> list[GroupView]:
        """Catalogue groups in canonical order, then extension groups; each with its visible tools."""
        views: list[GroupView] = []
        for g in self.catalogue.groups.values():
            views.append(self._view(g))
        ext_groups: dict[str, list[ToolDef]] = {}
        for tool in self._extensions:
            if tool.group is not None:
                ext_groups.setdefault(tool.group, []).append(tool)
        for name, tools in ext_groups.items():
            if name in self.catalogue.groups:
                # An extension joining a built-in group rides along with it.
                continue
            words = sorted({w for t in tools for w in t.name.split("_") if len(w) > 2})
            views.append(GroupView(name, f"Extension tools: {', '.join(t.name for t in tools)}.", [name, *words],
                                   self._offered(t for t in tools if self.allowed(t)), extension=True))
        return [v for v in views if v.tools]

    def _view(self, g: GroupDef) -> GroupView:
        tools = [self.catalogue.tools[n] for n in g.tools]
        tools += [t for t in self._extensions if t.group == g.name]
        return GroupView(g.name, g.description, list(g.keywords), self._offered(t for t in tools if self.allowed(t)))

    def group_names(self) -> list[str]:
        return [g.name for g in self.groups()]

    # -- the lists ----------------------------------------------------------
    def allowed(self, tool: ToolDef) -> bool:
        if self.read_only and not shown_in_read_only(tool):
            return False
        return version_allows(tool, self.version())

    def visible(self, loaded: Sequence[str]) -> dict[str, ToolDef]:
        """The tools a client with these groups loaded sees, by name, in list order."""
        key = (tuple(loaded), self.version())
        found = self._cache.get(key)
        if found is None:
            if len(self._cache) >= 64:  # many clients with many different lists: start over
                self._cache.clear()
            found = self._cache[key] = {t.name: t for t in self._compute_visible(set(loaded))}
        return found

    def _in_mode(self, tool: ToolDef) -> ToolDef:
        """A meta tool as read-only mode offers it: it reaches only read-only tools there, so it is one."""
        if not (self.read_only and tool.meta and not readonly_allowed(tool)):
            return tool
        return replace(tool, annotations={**tool.annotations, "readOnlyHint": True, "destructiveHint": False})

    def _compute_visible(self, loaded: set[str]) -> list[ToolDef]:
        out = self._offered(self._in_mode(t) for t in self.catalogue.tools.values()
                            if t.group is None and self.allowed(t))
        out += self._offered(t for t in self._extensions if t.group is None and self.allowed(t))
        for view in self.groups():
            if view.name in loaded:
                out.extend(view.tools)
        return out

    def find(self, name: str) -> ToolDef | None:
        """A catalogue or extension tool by name, whatever hides it."""
        found = self.catalogue.tools.get(name) or next((t for t in self._extensions if t.name == name), None)
        return self.offer(found) if found is not None and self.offer is not None else found

    def own_name(self, name: str) -> str:
        """The tool ``name`` stands for: itself, or the tool a client's prefix for our server names
        (``mcp__godot-mcp-toolkit__x``), as a model may copy it into call_tool (tools/names.py)."""
        return names.own_name(name, lambda bare: self.find(bare) is not None, self.server_keys)

    def unknown_tool_message(self, name: str) -> str:
        """What the model reads for a tool it cannot call: why, and how to find the one it wants."""
        reason = self.hidden_reason(name)
        if reason:
            return f"Unknown tool: {name} ({reason})"
        guess = names.closest(name, sorted(self.catalogue.tools))
        close = f" Did you mean {guess}?" if guess else ""
        return (f"Unknown tool: {name}.{close} Tools beyond the always-on list load in groups: call discover_tools "
                "with no arguments to list the groups, or with {\"request\": \"<topic>\"} (e.g. \"tilemap\") to "
                "load the matching ones.")

    def hidden_reason(self, name: str) -> str | None:
        """Why a known tool is not callable now (for a precise unknown-tool message), else None."""
        tool = self.find(name)
        if tool is None:
            return None
        if self.read_only and not readonly_allowed(tool):
            return f"{name} changes the project and is hidden in read-only mode (GODOT_MCP_READ_ONLY)"
        if not version_allows(tool, self.version()):
            need = ".".join(map(str, tool.min_version)) if tool.min_version else "a different version"
            have = ".".join(map(str, self.version() or ())) or "unknown (no editor connected yet)"
            return f"{name} needs Godot {need}+; connected editor version: {have}"
        return None


class ToolList:
    """One client's tool list: the shared ``Surface`` plus the groups this client loaded.

    Each client (a stdio connection, an HTTP session, the requests outside any session together)
    has its own, so one client's ``discover_tools`` (or reset) changes what that client sees and
    nobody else's. ``on_change`` tells the client its list changed; ``announce_if_changed`` calls
    it only when the visible names really differ from the last ones announced.

    A ``fixed`` list (a client's 2026-07-28 requests) never loads a group: it holds what the
    configuration says and changes only with the surface (extensions, version, settings).
    """

    def __init__(self, surface: Surface, on_change: Callable[[], None] | None = None, *,
                 owner: str | None = None, fixed: bool = False) -> None:
        self.surface = surface
        self.fixed = fixed
        # Who this client is to the jobs it starts (godot_bridge/jobs): unguessable, one per list.
        self.owner = owner or secrets.token_urlsafe(12)
        self.loaded: list[str] = []  # group names, in load order
        self.on_change = on_change
        self._announced = self.names()
        # The client's own name (initialize's clientInfo.name), when the transport saw it.
        self.client: str | None = None
        # Whether this client fetches tools/list again after being told its list changed: None until
        # it is seen (a re-list after an announcement) or missed (none within the wait).
        self.relists: bool | None = None
        self._relisted: asyncio.Event | None = None  # set by the next tools/list after an announcement

    @property
    def catalogue(self) -> Catalogue:
        return self.surface.catalogue

    @property
    def read_only(self) -> bool:
        return self.surface.read_only

    def groups(self) -> list[GroupView]:
        return self.surface.groups()

    def group_names(self) -> list[str]:
        return self.surface.group_names()

    @property
    def loads(self) -> bool:
        """Whether discover_tools (or a call by name) can load a group into this list: only a
        handshake-era list under the ``groups`` setting; otherwise every group is listed or none is."""
        return not self.fixed and not self.surface.lists_all

    def shown(self) -> list[str]:
        """The groups whose tools this list holds."""
        if self.surface.lists_all:
            return self.group_names()
        return [] if self.fixed else self.loaded

    def activate(self, names: Sequence[str]) -> list[str]:
        """Load groups; returns the names newly loaded (none when this list does not load)."""
        if not self.loads:
            return []
        known = set(self.group_names())
        added = [n for n in dict.fromkeys(names) if n in known and n not in self.loaded]
        self.loaded.extend(added)
        return added

    def deactivate(self, names: Sequence[str] | None = None) -> list[str]:
        """Unload the named groups (all when None); returns the names unloaded."""
        removed = [n for n in self.loaded if names is None or n in names]
        self.loaded = [n for n in self.loaded if n not in removed]
        return removed

    def prune(self) -> None:
        """Forget loaded groups that no longer exist (an extension group withdrawn)."""
        known = set(self.group_names())
        self.loaded = [g for g in self.loaded if g in known]

    def visible(self) -> list[ToolDef]:
        return list(self.surface.visible(self.shown()).values())

    def lookup(self, name: str) -> ToolDef | None:
        return self.surface.visible(self.shown()).get(name)

    def names(self) -> list[str]:
        return list(self.surface.visible(self.shown()))

    def announce_if_changed(self, schemas_changed: bool = False) -> bool:
        """Tell the client when its visible list differs from the one last announced (or, with
        ``schemas_changed``, when the same tools now take other parameters)."""
        names = self.names()
        if names == self._announced and not schemas_changed:
            return False
        self._announced = names
        if self.on_change is not None:
            self._relisted = asyncio.Event()
            self.on_change()
        return True

    def listed(self) -> None:
        """The client was just sent its tools/list: a re-list it made after an announcement is seen."""
        if self._relisted is not None and not self._relisted.is_set():
            self._relisted.set()
            self.relists = True

    async def relisted(self, timeout: float) -> bool:
        """Wait (at most ``timeout`` s) until the client has fetched the list last announced to it.

        A client seen not to re-list is not waited for again; one that does is waited for each time,
        so the model's next request already declares what changed."""
        event = self._relisted
        if event is None or self.on_change is None:
            return False
        if event.is_set():
            return True
        if self.relists is False:
            return False
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            self.relists = False
            return False
        return True
