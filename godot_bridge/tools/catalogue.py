"""The tool catalogue: load and validate ``catalogue/`` into tool and group definitions (C8, C12).

The catalogue is data, not code. ``catalogue/groups.json`` lists the on-demand groups in their
canonical order; ``catalogue/tools/<domain>.json`` hold the tool definitions; ``catalogue/hints.json``
maps tool names to the short next-step hint a successful result carries. A tool's group is
recorded once, on the tool; each group's member list is derived here, in load order (tool files
sorted by name, tools in file order).

Loading runs on every bridge start, before the first ``tools/list`` can be answered, so it only
parses JSON and checks the facts the rest of the bridge relies on (names unique, groups known,
schemas are object schemas whose ``required``/path/operation params exist). It deliberately does
not meta-validate the JSON Schemas: that costs tens of milliseconds for nothing the tests do not
already pin.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

from dataclasses import dataclass, field, replace

from godot_bridge.config import TOOL_NAME_CHARS
from godot_bridge.errors import DefinitionError
from godot_bridge.tools.shapes import ShapeError, build, check_fields

Channel = Literal["editor", "runtime", "lsp", "bridge"]

# What the bridge does for a tool beyond forwarding it, by name in the tool's "handling" list:
#   channel_arg       its "channel" argument (editor|runtime) picks the channel per call, and is not sent
#   image_result      the reply is a screenshot: an image block plus the metadata, or with
#                     image_response_mode link a resource_link to the kept image (editor/screenshots.py)
#   game_log          reads the game's log: the game while one runs, else the editor's copy;
#                     the bridge also calls its method to explain runtime failures (crash context)
#   starts_game       after success, wait (bounded) for the game's runtime channel and report it
#   lists_extensions  the reply's "commands" replace the editor's extension tools
Handling = Literal["channel_arg", "image_result", "game_log", "starts_game", "lists_extensions"]
# Handling that names the one tool playing that part.
_UNIQUE_HANDLING: tuple[Handling, ...] = ("game_log", "starts_game")

# The MCP tool-annotation hints; anything else in "annotations" is a typo.
ANNOTATION_KEYS = frozenset({"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"})

# Names legal in MCP (extension tools are ToolDefs too, so this is not the snake_case house style,
# which the catalogue tests pin). Methods are toolkit JSON-RPC method names.
_TOOL_NAME = TOOL_NAME_CHARS
_METHOD = re.compile(r"^[^\s]+$")
# "4.5"; an extension may say "4.5.1", whose patch part does not matter for gating.
_VERSION = re.compile(r"^(\d+)\.(\d+)(?:\.\d+)?$")


class CatalogueError(DefinitionError):
    """The catalogue on disk is malformed; the message names the file, the tool and the field."""


@functools.cache  # a handful of distinct strings, read on every call's version check
def _parse_version(value: str | None) -> tuple[int, int] | None:
    if value is None:
        return None
    match = _VERSION.match(value)
    if match is None:  # unreachable after validation; kept so the type is honest
        raise ValueError(f"bad version {value!r}")
    return int(match.group(1)), int(match.group(2))


@dataclass(frozen=True)
class AskWhen:
    """One condition of a tool's question (``Asks.when``): exactly one of its kinds is set.

    ``arg`` + ``equals``: the argument has this value (absent: its schema default, and for the
    ``channel`` of a channel_arg tool the tool's own channel). ``exists``: the path in this
    argument names a file that exists now. ``over_undo_budget``: the res:// path in this argument
    (a file with its sidecars, or a folder) holds more bytes than the toolkit keeps for undo
    (``undo_budget_bytes``, the toolkit's UNDO_BYTES_LIMIT). ``outside_project``: the path on disk
    in this argument (one of the tool's ``disk_paths``) is outside the project folder once links
    are resolved: the call reads a file the project's own tools cannot.
    """

    arg: str | None = None
    equals: str | bool | None = None
    exists: str | None = None
    over_undo_budget: str | None = None
    outside_project: str | None = None

    def __post_init__(self) -> None:
        check_fields(self)
        kinds = [k for k in ("arg", "exists", "over_undo_budget", "outside_project") if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ShapeError("field when: each condition names exactly one of arg, exists, over_undo_budget, "
                             "outside_project")
        if (self.arg is None) != (self.equals is None):
            raise ShapeError("field when: arg and equals go together")

    @property
    def param(self) -> str:
        return self.arg or self.exists or self.over_undo_budget or self.outside_project or ""


@dataclass(frozen=True)
class AskTarget:
    """What the call acts on, whose current state a question is bound to (``Asks.target``).

    ``file``: the argument holding a path: its bytes (a folder: every file in it). ``read``: a
    read-only toolkit method whose answer is the state (``args``: its params, "$name" for this
    call's argument ``name``); its refusal of what the call acts on (consent/targets.py ``REFUSED``)
    refuses the call before anyone is asked. ``shows``: what the person is told of the read's answer
    (``{field}`` placeholders).
    """

    file: str | None = None
    read: str | None = None
    args: dict[str, Any] = field(default_factory=dict)
    shows: str | None = None

    def __post_init__(self) -> None:
        check_fields(self)
        if (self.file is None) == (self.read is None):
            raise ShapeError("field target: each target names exactly one of file, read")
        if (self.args or self.shows) and self.read is None:
            raise ShapeError("field target: args and shows go with read")


@dataclass(frozen=True)
class Asks:
    """A tool whose effect neither undo nor a checkpoint can take back: the person is asked first
    (godot_bridge/consent/). ``does`` says what the call will do (``{argument}`` placeholders),
    ``because`` why it cannot be taken back; ``when`` narrows it to the calls that really cannot
    (every condition must hold; none: every call); ``target`` is what the answer is bound to;
    ``show`` the arguments the person must see in full (the code that will run); ``absent`` the
    words a placeholder reads as when its argument is not given; ``needs`` what must hold for the
    call to run at all (``exists``), checked before anyone is asked."""

    does: str
    because: str
    when: list[AskWhen] = field(default_factory=list)
    needs: list[AskWhen] = field(default_factory=list)
    target: list[AskTarget] = field(default_factory=list)
    show: list[str] = field(default_factory=list)
    absent: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        check_fields(self)
        if not self.does.strip() or not self.because.strip():
            raise ShapeError("field asks: does and because must not be empty")
        if any(need.exists is None for need in self.needs):
            raise ShapeError("field asks: needs lists exists conditions only")


@dataclass(frozen=True)
class JobSpec:
    """A tool that can really take long: it may run as a job (``godot_bridge/jobs``).

    ``cancel`` says what cancelling it stops and what stays done (shown with the cancelled job);
    ``after_cancel`` names a tool called after a cancel to undo what had started (game_start:
    game_stop), its answer reported too.
    """

    cancel: str
    after_cancel: str | None = None

    def __post_init__(self) -> None:
        check_fields(self)
        if not self.cancel.strip():
            raise ShapeError("field cancel: must say what cancelling stops")


# The argument every job-capable tool takes: true runs the call as a job and answers its id at once.
BACKGROUND_ARG = "background"
BACKGROUND_SCHEMA: dict[str, Any] = {
    "type": "boolean",
    "description": "true: answer a job_id now for job_status",
}


@dataclass(frozen=True)
class ToolDef:
    """One MCP tool: how it is shown (description, schema, annotations) and where it goes.

    A plain frozen dataclass checked by ``shapes`` (no pydantic at start-up).
    """

    name: str
    method: str | None
    channel: Channel
    description: str
    annotations: dict[str, bool]
    input_schema: dict[str, Any]
    group: str | None = None
    meta: bool = False
    godot_min: str | None = None
    godot_max: str | None = None
    # Path parameter -> allowed prefixes; "frames[].texture_path" reaches into arrays of objects.
    path_params: dict[str, list[str]] = field(default_factory=dict)
    # Words a path parameter takes instead of a path (game_start.scene_path "main").
    path_literals: dict[str, list[str]] = field(default_factory=dict)
    # Parameters holding an absolute path on this machine, outside res:// (asset_import's source_path):
    # guarded as such (safety/pathguard.py check_disk_path); reading one outside the project may ask.
    disk_paths: list[str] = field(default_factory=list)
    success_hint: str | None = None
    operation_param: str | None = None
    operations: list[str] | None = None
    timeout_ms: int | None = None
    # Accepted spellings mapped to the schema's value before validation, e.g. channel "game" -> "runtime".
    value_aliases: dict[str, dict[str, str]] = field(default_factory=dict)
    # A parameter holding a wait the caller asked for (ms); the call timeout grows to cover it.
    wait_param: str | None = None
    # A call whose whole point is to wait: what it waits for, sent as progress to a client that asked.
    wait_message: str | None = None
    handling: list[Handling] = field(default_factory=list)
    # The person is asked before a call runs (what cannot be taken back); None: never.
    asks: Asks | None = None
    # Set: the tool can really take long and may run as a job (the background argument, MCP tasks).
    job: JobSpec | None = None
    # Arguments that make the call write a file (a screenshot's save_path): argument -> the values that
    # do (null: any value given). Read-only mode refuses them, since it writes nothing (C9).
    writes: dict[str, list[str] | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        check_fields(self)
        if not _TOOL_NAME.match(self.name):
            raise ShapeError("field name: must be 1-128 chars of A-Z a-z 0-9 _ . -")
        if self.method is not None and not _METHOD.match(self.method):
            raise ShapeError("field method: must be a toolkit method name such as scene.create")
        if not self.description.strip():
            raise ShapeError("field description: must not be empty")
        unknown = sorted(set(self.annotations) - ANNOTATION_KEYS)
        if unknown:
            raise ShapeError(f"field annotations: unknown annotation key(s) {unknown}")
        for key in ("godot_min", "godot_max"):
            value = getattr(self, key)
            if value is not None and not _VERSION.match(value):
                raise ShapeError(f"field {key}: must look like 4.5 (major.minor[.patch])")
        for param, prefixes in self.path_params.items():
            if not prefixes or not all(prefixes):
                raise ShapeError(f"field path_params: {param}: needs at least one non-empty prefix")
        if self.timeout_ms is not None and self.timeout_ms <= 0:
            raise ShapeError("field timeout_ms: must be a positive number of milliseconds")

    @property
    def always_on(self) -> bool:
        """Listed from start-up (no group to activate)."""
        return self.group is None

    @property
    def read_only_safe(self) -> bool:
        """Visible in read-only mode: the strict rule readOnlyHint and not destructiveHint (C9)."""
        return self.annotations.get("readOnlyHint") is True and self.annotations.get("destructiveHint") is not True

    @property
    def min_version(self) -> tuple[int, int] | None:
        return _parse_version(self.godot_min)

    @property
    def max_version(self) -> tuple[int, int] | None:
        return _parse_version(self.godot_max)

    def handles(self, kind: Handling) -> bool:
        return kind in self.handling

    def writing_args(self, args: Mapping[str, Any]) -> list[str]:
        """The arguments in ``args`` that make this call write a file (``writes``), as ``name`` or
        ``name=value``."""
        found = []
        for param, values in self.writes.items():
            value = args.get(param)
            if value is None or value == "":
                continue
            if values is None:
                found.append(param)
            elif value in values:
                found.append(f"{param}={value}")
        return found

    def operation_count(self) -> int:
        """How many distinct operations this tool stands for (an action enum counts each value)."""
        if self.operations:
            return len(self.operations)
        if self.operation_param is not None:
            prop = self.input_schema.get("properties", {}).get(self.operation_param, {})
            return len(prop.get("enum", ())) or 1
        return 1


@dataclass(frozen=True)
class GroupDef:
    """An on-demand group; ``tools`` is derived from the tools' ``group`` fields."""

    name: str
    description: str
    keywords: list[str]
    tools: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        check_fields(self)


class Catalogue:
    """Every built-in tool and group, in catalogue order."""

    def __init__(self, tools: dict[str, ToolDef], groups: dict[str, GroupDef]) -> None:
        self.tools = tools
        self.groups = groups

    def eager_tools(self) -> list[ToolDef]:
        """Always-on catalogue tools (the two meta tools are separate: meta_tools())."""
        return [t for t in self.tools.values() if t.always_on and not t.meta]

    def meta_tools(self) -> list[ToolDef]:
        return [t for t in self.tools.values() if t.meta]

    def on_demand_tools(self) -> list[ToolDef]:
        return [t for t in self.tools.values() if not t.always_on]

    def operations_count(self) -> int:
        return sum(t.operation_count() for t in self.tools.values() if not t.meta)

    def handling(self, kind: Handling) -> ToolDef | None:
        """The tool the catalogue marks for ``kind`` (game_log, starts_game: one at most)."""
        return next((t for t in self.tools.values() if t.handles(kind)), None)


def catalogue_dir() -> Path:
    """Where the catalogue lives: inside the installed package, else at the top of a checkout."""
    package = Path(__file__).resolve().parents[1]  # godot_bridge/, this module being godot_bridge/tools/catalogue.py
    # The wheel ships catalogue/ as the data directory godot_bridge/catalogue (see pyproject.toml).
    candidates = (package / "catalogue", package.parent / "catalogue")
    for candidate in candidates:
        if (candidate / "groups.json").is_file():
            return candidate
    raise CatalogueError(f"no catalogue found (looked in {', '.join(str(c) for c in candidates)})")


def load_catalogue(directory: Path | None = None) -> Catalogue:
    """Load and validate the catalogue. The default directory is loaded once per process."""
    if directory is None:
        return _load_default()
    return _load(Path(directory))


@functools.lru_cache(maxsize=1)
def _load_default() -> Catalogue:
    return _load(catalogue_dir())


# ---------------------------------------------------------------------------------------------
# Loading and validation


def _read_json(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CatalogueError(f"{path}: cannot read: {exc}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CatalogueError(f"{path}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from exc


def _list_under(data: Any, key: str, path: Path) -> list[Any]:
    if not isinstance(data, dict) or not isinstance(data.get(key), list):
        raise CatalogueError(f'{path}: expected an object {{"{key}": [...]}}')
    extra = sorted(set(data) - {key})
    if extra:
        raise CatalogueError(f"{path}: unexpected top-level key(s) {extra}")
    return data[key]


def _load_groups(path: Path) -> list[dict[str, Any]]:
    raw = _list_under(_read_json(path), "groups", path)
    seen: set[str] = set()
    out: list[dict[str, Any]] = []
    for index, entry in enumerate(raw):
        name = entry.get("name") if isinstance(entry, dict) else None
        label = f"group {name!r}" if isinstance(name, str) else f"group #{index}"
        if not isinstance(entry, dict):
            raise CatalogueError(f"{path}: {label}: expected an object")
        if "tools" in entry:
            # Membership is recorded on each tool; a second list here could disagree with it.
            raise CatalogueError(f"{path}: {label}: field tools: not allowed, set 'group' on the tools instead")
        try:
            build(GroupDef, entry)
        except ShapeError as exc:
            raise CatalogueError(f"{path}: {label}: {exc}") from exc
        if name in seen:
            raise CatalogueError(f"{path}: {label}: duplicate group name")
        seen.add(name)
        out.append(entry)
    return out


def _check_schema(tool: ToolDef, where: str) -> None:
    schema = tool.input_schema
    if schema.get("type") != "object" or not isinstance(schema.get("properties"), dict):
        raise CatalogueError(f'{where}: field input_schema: must be an object schema with "type":"object" and "properties"')
    properties: dict[str, Any] = schema["properties"]
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        raise CatalogueError(f"{where}: field input_schema.required: must be a list of names")
    missing = [r for r in required if r not in properties]
    if missing:
        raise CatalogueError(f"{where}: field input_schema.required: {missing} not in properties")
    for param in tool.path_params:
        if param_schema(schema, param) is None:
            raise CatalogueError(f"{where}: field path_params: {param!r} is not a parameter")
    for param in tool.path_literals:
        if param not in tool.path_params:
            raise CatalogueError(f"{where}: field path_literals: {param!r} is not in path_params")
    for param in tool.disk_paths:
        if param not in properties or param in tool.path_params:
            raise CatalogueError(f"{where}: field disk_paths: {param!r} is not a parameter, or is in path_params")
    if tool.operation_param is not None:
        prop = properties.get(tool.operation_param)
        if not isinstance(prop, dict) or not prop.get("enum"):
            raise CatalogueError(
                f"{where}: field operation_param: {tool.operation_param!r} must be a parameter with an enum"
            )


def param_schema(schema: dict[str, Any], key: str) -> dict[str, Any] | None:
    """The schema of the parameter a path key names ("a", "a[].b", through array items), if any."""
    head, sep, tail = key.partition("[].")
    prop = schema.get("properties", {}).get(head)
    if not isinstance(prop, dict):
        return None
    if not sep:
        return prop
    branches = [prop, *(b for b in prop.get("anyOf", []) if isinstance(b, dict))]
    for branch in branches:
        items = branch.get("items")
        found = param_schema(items, tail) if isinstance(items, dict) else None
        if found is not None:
            return found
    return None


def _check_handling(tool: ToolDef, where: str) -> None:
    if len(set(tool.handling)) != len(tool.handling):
        raise CatalogueError(f"{where}: field handling: listed twice")
    if tool.handling and tool.channel not in ("editor", "runtime"):
        raise CatalogueError(f"{where}: field handling: only tools forwarded to Godot (editor, runtime) have handling")
    if tool.handles("channel_arg"):
        spec = tool.input_schema.get("properties", {}).get("channel")
        if not isinstance(spec, dict) or not {"editor", "runtime"} <= set(spec.get("enum") or ()):
            raise CatalogueError(
                f"{where}: field handling: channel_arg needs a 'channel' parameter with enum editor, runtime"
            )


def _check_writes(tool: ToolDef, where: str) -> None:
    """``writes`` names the tool's own parameters, and values of their enum."""
    properties = tool.input_schema.get("properties", {})
    for param, values in tool.writes.items():
        spec = properties.get(param)
        if not isinstance(spec, dict):
            raise CatalogueError(f"{where}: field writes: {param!r} is not a parameter")
        if values is not None and (not values or not set(values) <= set(spec.get("enum") or ())):
            raise CatalogueError(f"{where}: field writes: {param!r} lists values outside its enum")


def _check_asks(tool: ToolDef, where: str) -> None:
    """A question's placeholders, conditions and targets name the tool's own parameters."""
    asks = tool.asks
    if asks is None:
        return
    if tool.annotations.get("readOnlyHint") and not asks.when:
        # A read that asks on every call would be no read: it asks only when an argument makes it write.
        raise CatalogueError(f"{where}: field asks: a read-only tool asks only under a condition (when)")
    if tool.read_only_safe:
        # ... and, since read-only mode lists it, that argument is one read-only mode refuses.
        unmarked = sorted({w.param for w in asks.when} - set(tool.writes))
        if unmarked:
            raise CatalogueError(f"{where}: field writes: a read-only tool asks when {unmarked} writes; list it")
    properties = tool.input_schema.get("properties", {})
    named = [w.param for w in asks.when] + [t.file for t in asks.target if t.file] + list(asks.show) + list(asks.absent)
    named += re.findall(r"{(\w+)}", asks.does)
    named += [v[1:] for t in asks.target for v in t.args.values() if isinstance(v, str) and v.startswith("$")]
    unknown = sorted({n for n in named if n not in properties})
    if unknown:
        raise CatalogueError(f"{where}: field asks: {unknown} not in input_schema.properties")
    outside = sorted({w.outside_project for w in asks.when if w.outside_project} - set(tool.disk_paths))
    if outside:
        raise CatalogueError(f"{where}: field asks: outside_project names {outside}, not in disk_paths")
    # The gate reads these paths (a file's bytes, a user:// listing): only a guarded one may be read.
    read = [w.exists or w.over_undo_budget for w in asks.when] + [t.file for t in asks.target]
    unguarded = sorted({n for n in read if n and n not in tool.path_params})
    if unguarded:
        raise CatalogueError(f"{where}: field asks: {unguarded} read as paths but not in path_params")


def _check_tool(tool: ToolDef, where: str) -> None:
    if (tool.channel == "bridge") != (tool.method is None):
        raise CatalogueError(f"{where}: field method: channel 'bridge' and a null method go together")
    if tool.meta and tool.group is not None:
        raise CatalogueError(f"{where}: field group: a meta tool is always on and has no group")
    if tool.operations is not None and (not tool.operations or len(set(tool.operations)) != len(tool.operations)):
        raise CatalogueError(f"{where}: field operations: must be a non-empty list of distinct names")
    _check_handling(tool, where)
    _check_writes(tool, where)
    _check_asks(tool, where)
    if tool.job is not None and tool.meta:
        raise CatalogueError(f"{where}: field job: a meta tool never runs as a job")
    if tool.job is not None and BACKGROUND_ARG in tool.input_schema.get("properties", {}):
        raise CatalogueError(f"{where}: field input_schema: {BACKGROUND_ARG!r} is the job argument the bridge adds")
    low, high = tool.min_version, tool.max_version
    if low is not None and high is not None and low > high:
        raise CatalogueError(f"{where}: field godot_max: lower than godot_min")
    _check_schema(tool, where)


def _load_tool_file(path: Path) -> Iterable[tuple[ToolDef, str]]:
    for index, entry in enumerate(_list_under(_read_json(path), "tools", path)):
        name = entry.get("name") if isinstance(entry, dict) else None
        where = f"{path}: tool {name!r}" if isinstance(name, str) else f"{path}: tool #{index}"
        try:
            tool = build(ToolDef, entry)
        except ShapeError as exc:
            raise CatalogueError(f"{where}: {exc}") from exc
        _check_tool(tool, where)
        yield _with_background(tool), where


def _with_background(tool: ToolDef) -> ToolDef:
    """A job-capable tool's schema gains the ``background`` argument (one definition for all of them)."""
    if tool.job is None:
        return tool
    schema = dict(tool.input_schema)
    schema["properties"] = {**schema["properties"], BACKGROUND_ARG: BACKGROUND_SCHEMA}
    return replace(tool, input_schema=schema)


HINTS_FILE = "hints.json"


def _apply_hints(path: Path, tools: dict[str, ToolDef], origin: dict[str, Path]) -> dict[str, ToolDef]:
    """Attach ``hints.json``'s success hints; an unknown tool or a hint given twice is an error."""
    if not path.is_file():
        return tools
    data = _read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("hints"), dict) or set(data) != {"hints"}:
        raise CatalogueError(f'{path}: expected an object {{"hints": {{tool name: hint}}}}')
    out = dict(tools)
    for name, hint in data["hints"].items():
        if name not in tools:
            raise CatalogueError(f"{path}: hint for unknown tool {name!r}")
        if not isinstance(hint, str) or not hint.strip():
            raise CatalogueError(f"{path}: hint for {name!r}: must be a non-empty string")
        if tools[name].success_hint is not None:
            # One place per fact: a tool file's success_hint and this file must not both speak.
            raise CatalogueError(f"{path}: hint for {name!r}: {origin[name]} already sets its success_hint")
        out[name] = replace(tools[name], success_hint=hint)
    return out


def _load(directory: Path) -> Catalogue:
    groups_path = directory / "groups.json"
    group_entries = _load_groups(groups_path)
    members: dict[str, list[str]] = {entry["name"]: [] for entry in group_entries}

    tool_files = sorted((directory / "tools").glob("*.json"))
    if not tool_files:
        raise CatalogueError(f"{directory / 'tools'}: no tool files")

    tools: dict[str, ToolDef] = {}
    origin: dict[str, Path] = {}
    for path in tool_files:
        for tool, where in _load_tool_file(path):
            if tool.name in tools:
                raise CatalogueError(f"{where}: duplicate tool name (also in {origin[tool.name]})")
            if tool.group is not None:
                if tool.group not in members:
                    raise CatalogueError(f"{where}: field group: unknown group {tool.group!r} (not in {groups_path})")
                members[tool.group].append(tool.name)
            tools[tool.name] = tool
            origin[tool.name] = path

    for kind in _UNIQUE_HANDLING:
        marked = [name for name, tool in tools.items() if tool.handles(kind)]
        if len(marked) > 1:
            raise CatalogueError(f"{directory / 'tools'}: handling {kind!r} is on {marked}; one tool at most")
    tools = _apply_hints(directory / HINTS_FILE, tools, origin)
    for name, tool in tools.items():
        after = tool.job.after_cancel if tool.job is not None else None
        if after is not None and after not in tools:
            raise CatalogueError(f"{origin[name]}: tool {name!r}: field job.after_cancel: unknown tool {after!r}")

    groups: dict[str, GroupDef] = {}
    for entry in group_entries:
        name = entry["name"]
        if not members[name]:
            raise CatalogueError(f"{groups_path}: group {name!r}: no tool names it as its group")
        groups[name] = GroupDef(**entry, tools=members[name])
    return Catalogue(tools, groups)
