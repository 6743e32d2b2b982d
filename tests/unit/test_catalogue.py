"""The catalogue against the reference surface, its text limits, and the loader's refusals (its size on
the wire: test_context_cost.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from godot_bridge.consent.policy import Policy, offered
from godot_bridge.tools.catalogue import Catalogue, CatalogueError, ToolDef, catalogue_dir, load_catalogue, param_schema

REPO = Path(__file__).resolve().parents[2]
# The reference implementation's facts, carried in the repo (tests/data/reference/README.md).
REFERENCE = REPO / "tests" / "data" / "reference"
JS_SAFE_INT = 9007199254740991
BOUND_KEYS = ("minimum", "maximum", "exclusiveMinimum", "minItems")


@pytest.fixture(scope="module")
def cat() -> Catalogue:
    return load_catalogue()


@pytest.fixture(scope="module")
def ref_tools() -> dict[str, dict[str, Any]]:
    return {t["name"]: t for t in json.loads((REFERENCE / "tools.json").read_text())}


@pytest.fixture(scope="module")
def ref_groups() -> list[dict[str, Any]]:
    return sorted(json.loads((REFERENCE / "groups.json").read_text()), key=lambda g: g["order"])


def _ref_names() -> list[str]:
    return [t["name"] for t in json.loads((REFERENCE / "tools.json").read_text())]


def offered_params(tool: ToolDef) -> dict[str, Any]:
    """A tool's parameters as a client sees them under the default confirmation policy."""
    shown = offered(tool) if Policy().may_ask(tool) else tool
    return shown.input_schema["properties"]


def _deviations() -> set[tuple[str, str, str]]:
    """(tool, param, aspect) triples listed in catalogue/DEVIATIONS.md; param may be nested (a[].b)."""
    text = (REPO / "catalogue" / "DEVIATIONS.md").read_text()
    return {
        (m.group(1), m.group(2), m.group(3))
        for m in re.finditer(r"^- `([\w]+)\.([\w\[\].]+)` \((\w+)\):", text, flags=re.MULTILINE)
    }


ALWAYS_ON = "always-on"  # DEVIATIONS.md's "group" of an added tool that is listed from start-up


def _additions() -> tuple[dict[str, str | None], list[str]]:
    """Tools (name -> group) and groups listed in DEVIATIONS.md as ours, beyond the reference."""
    text = (REPO / "catalogue" / "DEVIATIONS.md").read_text()
    tools: dict[str, str | None] = {
        m.group(1): None if m.group(2) == ALWAYS_ON else m.group(2)
        for m in re.finditer(r"^- tool `(\w+)` \(([\w-]+)\):", text, flags=re.MULTILINE)
    }
    groups = re.findall(r"^- group `(\w+)`:", text, flags=re.MULTILINE)
    return tools, groups


ADDED_TOOLS, ADDED_GROUPS = _additions()


def _moved() -> dict[str, str]:
    """Reference start-up tools that load with a group here (DEVIATIONS.md: name -> group)."""
    text = (REPO / "catalogue" / "DEVIATIONS.md").read_text()
    return dict(re.findall(r"^- on demand `(\w+)` \((\w+)\):", text, flags=re.MULTILINE))


MOVED = _moved()


# -- the reference surface ---------------------------------------------------------------------


def test_same_tool_names_as_reference(cat: Catalogue, ref_tools: dict[str, dict[str, Any]]) -> None:
    assert set(cat.tools) - set(ADDED_TOOLS) == set(ref_tools)


def test_additions_are_listed_and_new(cat: Catalogue, ref_tools: dict[str, dict[str, Any]], ref_groups: list[dict[str, Any]]) -> None:
    assert ADDED_TOOLS and ADDED_GROUPS, "DEVIATIONS.md lists the additions"
    for name, group in ADDED_TOOLS.items():
        tool = cat.tools.get(name)
        assert tool is not None and name not in ref_tools, name
        assert tool.group == (None if group == "none" else group), name
    assert not set(ADDED_GROUPS) & {g["name"] for g in ref_groups}
    # Appended, never interleaved: the reference's groups keep their positions.
    assert list(cat.groups)[-len(ADDED_GROUPS):] == ADDED_GROUPS


@pytest.mark.parametrize("name", _ref_names())
def test_tool_facts_match_reference(cat: Catalogue, ref_tools: dict[str, dict[str, Any]], name: str) -> None:
    ref, tool = ref_tools[name], cat.tools.get(name)
    assert tool is not None
    assert tool.method == ref["method"]
    assert tool.group == MOVED.get(name, ref["group"])
    assert tool.channel == ref["channel"]
    assert tool.meta == bool(ref.get("meta"))
    assert tool.always_on == (ref["eager"] and name not in MOVED)
    assert tool.annotations == ref["annotations"]
    assert list(tool.annotations) == list(ref["annotations"])
    assert tool.godot_min == ref.get("godotMin")
    assert tool.godot_max is None
    assert tool.operation_param == ref.get("operationParam")
    assert tool.operations == ref.get("operations")
    guards = {"project": ["res://"], "user": ["user://"]}
    expected_paths = {p["param"]: p.get("prefixes") or guards[p["guard"]] for p in ref.get("pathParams", [])}
    # We guard more than the reference declares; each addition is listed in DEVIATIONS.md.
    added = {p for t, p, aspect in _deviations() if t == name and aspect == "path"}
    assert {k: v for k, v in tool.path_params.items() if k not in added} == expected_paths
    assert added <= set(tool.path_params), f"{name}: DEVIATIONS.md lists a path guard the catalogue lacks"


def _check_items(ours: dict[str, Any], ref_items: str, item_props: list[str] | None, items_enum: list[Any] | None) -> None:
    if ref_items == "any":
        assert "type" not in ours
    elif ref_items == "anyOf":
        assert isinstance(ours.get("anyOf"), list) and ours["anyOf"]
    else:
        assert ours.get("type") == ref_items
    if item_props is not None:
        assert list(ours.get("properties", {})) == item_props
    if items_enum is not None:
        assert ours.get("enum") == items_enum


def _check_shape(ours: dict[str, Any], ref: dict[str, Any], widened_enum: bool = False) -> None:
    """Type, enum, nested property names, items: the parts a param and an anyOf branch share.

    widened_enum: DEVIATIONS.md lists an enum deviation for this param; it may only add values, so
    every call the reference accepts still validates.
    """
    ref_type = ref.get("type")
    if ref_type in (None, "any"):
        assert "type" not in ours
    else:
        assert ours.get("type") == ref_type
    if widened_enum:
        assert set(ref.get("enum", [])) <= set(ours.get("enum", [])), "an enum deviation may only add values"
    else:
        assert ours.get("enum") == ref.get("enum")
    if "properties" in ref:
        assert list(ours.get("properties", {})) == ref["properties"]
    if "items" in ref:
        _check_items(ours["items"], ref["items"], ref.get("itemProperties"), ref.get("itemsEnum"))
    else:
        assert "items" not in ours
    if "anyOf" in ref:
        assert len(ours["anyOf"]) == len(ref["anyOf"])
        for branch, ref_branch in zip(ours["anyOf"], ref["anyOf"], strict=True):
            _check_shape(branch, ref_branch)
    else:
        assert "anyOf" not in ours


@pytest.mark.parametrize("name", _ref_names())
def test_params_match_reference(cat: Catalogue, ref_tools: dict[str, dict[str, Any]], name: str) -> None:
    ref, tool = ref_tools[name], cat.tools.get(name)
    assert tool is not None
    allowed = {(p, aspect) for t, p, aspect in _deviations() if t == name}
    schema = tool.input_schema
    props: dict[str, Any] = schema["properties"]
    # Our own parameters (aspect "extra") come after the reference's, which keep their names and order.
    extra = [p for p in props if (p, "extra") in allowed]
    assert list(props) == [p["name"] for p in ref["params"]] + extra, "parameter names and order"
    assert schema.get("additionalProperties") is False

    ref_required = {p["name"] for p in ref["params"] if p["required"]}
    ours_required = set(schema.get("required", []))
    for param in ref_required ^ ours_required:
        assert (param, "required") in allowed, f"{name}.{param}: required differs from the reference"
    assert "required" not in schema or schema["required"], "an empty required list is omitted"

    for ref_param in ref["params"]:
        ours = props[ref_param["name"]]
        where = f"{name}.{ref_param['name']}"
        if (ref_param["name"], "items") not in allowed:
            # tools.json summarises nesting; where DEVIATIONS.md says its summary is wrong,
            # test_input_schemas.py checks the param against the full schema instead.
            _check_shape(ours, ref_param, (ref_param["name"], "enum") in allowed)
        assert ours.get("default") == ref_param.get("default"), where
        for key in BOUND_KEYS:
            if (ref_param["name"], key) in allowed:
                continue
            ref_bound = ref_param.get(key)
            if ref_bound is None or abs(ref_bound) == JS_SAFE_INT:
                assert key not in ours, f"{where}: unexpected {key}"
            else:
                assert ours.get(key) == ref_bound, f"{where}: {key}"


def test_deviations_name_real_params(cat: Catalogue, ref_tools: dict[str, dict[str, Any]]) -> None:
    listed = _deviations()
    assert ("lsp_completion", "limit", "required") in listed
    for tool_name, param, aspect in listed:
        ref_params = {p["name"] for p in ref_tools[tool_name]["params"]}
        if aspect == "extra":  # ours alone: served by the catalogue, unknown to the reference
            # (dry_run and confirmation_token are the consent policy's, offered on every tool that may ask)
            offered = offered_params(cat.tools[tool_name])
            assert param not in ref_params and param in offered, (tool_name, param)
        else:
            assert param.split("[]")[0] in ref_params
    completion = cat.tools.get("lsp_completion")
    assert completion is not None
    assert "limit" not in completion.input_schema.get("required", [])
    assert completion.input_schema["properties"]["limit"]["default"] == 10


def test_groups_match_reference(cat: Catalogue, ref_groups: list[dict[str, Any]]) -> None:
    assert [g for g in cat.groups if g not in ADDED_GROUPS] == [g["name"] for g in ref_groups]
    for ref in ref_groups:
        group = cat.groups[ref["name"]]
        assert group.keywords == ref["keywords"], ref["name"]
        moved_in = {name for name, moved_to in MOVED.items() if moved_to == ref["name"]}
        assert set(group.tools) == set(ref["tools"]) | moved_in, ref["name"]
        assert len(group.tools) == len(ref["tools"]) + len(moved_in)
        assert group.description.strip()


def test_tools_in_each_file_follow_reference_order(ref_tools: dict[str, dict[str, Any]]) -> None:
    order = list(ref_tools)
    for path in sorted((REPO / "catalogue" / "tools").glob("*.json")):
        names = [t["name"] for t in json.loads(path.read_text())["tools"] if t["name"] not in ADDED_TOOLS]
        assert names == sorted(names, key=order.index), path.name


# -- counts -----------------------------------------------------------------------------------


def test_counts(cat: Catalogue) -> None:
    """The reference's surface (our additions are counted separately, below)."""
    tools = [t for t in cat.tools.values() if t.name not in ADDED_TOOLS]
    catalogue_tools = [t for t in tools if not t.meta]
    startup = [t for t in tools if t.always_on]
    assert len(catalogue_tools) == 112
    # The reference's 34 start-up tools, 10 of which load with a group here (DEVIATIONS.md).
    assert len(MOVED) == 10 and all(name in cat.tools and name not in ADDED_TOOLS for name in MOVED)
    assert sum(t.always_on and not t.meta for t in tools) == 34 - len(MOVED)
    assert sum(not t.always_on for t in tools) == 78 + len(MOVED)
    assert [t.name for t in cat.meta_tools() if t.name not in ADDED_TOOLS] == ["discover_tools", "extensions_refresh"]
    assert len(cat.groups) - len(ADDED_GROUPS) == 28
    assert sum(t.operation_count() for t in tools if not t.meta) == 160
    assert sum(t.channel == "runtime" for t in tools) == 8
    assert sum(t.channel == "lsp" for t in tools) == 7
    assert sum(t.read_only_safe for t in tools) == 41
    assert len(startup) == 36 - len(MOVED)
    assert sum(t.read_only_safe for t in startup) == 12
    assert [t.name for t in tools if t.godot_min] == ["scene_close"]


ADDED_GROUP_NAMES = {"editor_lifecycle", "game_time", "performance", "checkpoints", "testing", "history", "jobs",
                     "shaders"}


HISTORY_TOOLS = ("history", "undo", "redo")
JOB_TOOLS = ("job_status", "job_cancel")
CALL_TOOL = "call_tool"


def test_added_tools(cat: Catalogue) -> None:
    added = [cat.tools[name] for name in ADDED_TOOLS]
    assert [t.name for t in added if t.meta] == [CALL_TOOL], "the one added meta tool reaches every other"
    assert sorted(t.name for t in added if t.always_on) == sorted(["undo", CALL_TOOL]), \
        "additions load on demand, but stepping back one's own edit and reaching every tool must be at hand"
    lifecycle = [t for t in added if t.group == "editor_lifecycle"]
    assert sorted(t.name for t in lifecycle) == ["editor_launch", "editor_restart"]
    assert all(t.channel == "bridge" and t.method is None for t in lifecycle)
    assert not any(t.read_only_safe for t in lifecycle), "launching and restarting are hidden in read-only mode"
    restart = cat.tools["editor_restart"]
    assert restart.annotations.get("destructiveHint") is True
    game_time = [t for t in added if t.group == "game_time"]
    assert sorted(t.name for t in game_time) == [
        "game_pause", "game_resume", "game_set_time_scale", "game_step", "game_step_until"]
    assert all(t.channel == "runtime" and t.method and t.method.startswith("time.") for t in game_time)
    testing = {name: cat.tools[name] for name in ("test_list", "test_run")}
    assert all(t.channel == "editor" and t.method == name.replace("_", ".") for name, t in testing.items())
    assert testing["test_list"].read_only_safe, "listing tests is a read"
    assert not testing["test_run"].read_only_safe, "running runs project code: hidden in read-only mode"
    assert testing["test_run"].wait_param == "timeout_ms"
    assert {t.group for t in added if t.group} == ADDED_GROUP_NAMES, "each added group has its checks here or below"


def test_job_tools(cat: Catalogue) -> None:
    """The job tools load with their group (read-only safe: they change nothing in the project); the
    job-capable tools are the ones that can really take long, and each takes ``background``."""
    jobs = [cat.tools[name] for name in sorted(JOB_TOOLS)]
    assert all(t.group == "jobs" and not t.meta and t.channel == "bridge" and t.read_only_safe for t in jobs)
    assert "job_status" in cat.tools["game_start"].input_schema["properties"]["background"]["description"]
    capable = sorted(t.name for t in cat.tools.values() if t.job is not None)
    assert capable == ["asset_import", "editor_launch", "editor_restart", "editor_wait_for_idle", "game_performance_sample",
                       "game_start", "game_step_until", "lsp_project_diagnostics", "test_run"]
    for name in capable:
        background = cat.tools[name].input_schema["properties"]["background"]
        assert background["type"] == "boolean", name
    assert cat.tools["game_start"].job.after_cancel == "game_stop"
    assert all("background" not in t.input_schema["properties"] for t in cat.tools.values() if t.job is None)


def test_performance_tools(cat: Catalogue) -> None:
    """Reads only, so read-only mode keeps them; the game's two go to the game."""
    group = cat.groups["performance"]
    assert group.tools == ["game_performance", "game_performance_sample", "editor_scene_stats"]
    assert all(cat.tools[name].read_only_safe for name in group.tools)
    assert [(cat.tools[name].channel, cat.tools[name].method) for name in group.tools] == [
        ("runtime", "perf.snapshot"), ("runtime", "perf.sample"), ("editor", "perf.scene_counts")]
    frames = cat.tools["game_performance_sample"].input_schema["properties"]["frames"]
    assert (frames["minimum"], frames["maximum"]) == (1, 600)


def test_shader_tools(cat: Catalogue) -> None:
    """Reads only (read-only mode keeps them), in the editor, found by "shader" and by "material"."""
    group = cat.groups["shaders"]
    assert group.tools == ["shader_check", "shader_get_uniforms"]
    assert [(cat.tools[name].channel, cat.tools[name].method, cat.tools[name].read_only_safe) for name in group.tools] == [
        ("editor", "shader.check", True), ("editor", "shader.get_uniforms", True)]
    assert {"shader", "material"} <= set(group.keywords)
    assert all(cat.tools[name].path_params == {"file_path": ["res://"]} for name in group.tools)
    assert cat.tools["shader_check"].input_schema["properties"]["shader_type"]["enum"] == [
        "canvas_item", "spatial", "particles", "sky", "fog"]


def test_checkpoint_tools(cat: Catalogue) -> None:
    tools = {name: cat.tools[name] for name in ("checkpoint_create", "checkpoint_list", "checkpoint_restore", "checkpoint_diff")}
    assert all(t.channel == "editor" and t.method == name.replace("_", ".", 1) for name, t in tools.items())
    assert [n for n, t in tools.items() if t.read_only_safe] == ["checkpoint_list", "checkpoint_diff"]
    assert tools["checkpoint_restore"].annotations.get("destructiveHint") is True
    assert tools["checkpoint_create"].annotations.get("destructiveHint") is False


def test_history_tools(cat: Catalogue) -> None:
    tools = {name: cat.tools[name] for name in HISTORY_TOOLS}
    assert [(t.channel, t.method) for t in tools.values()] == [
        ("editor", "history.list"), ("editor", "history.undo"), ("editor", "history.redo")]
    assert [name for name, t in tools.items() if t.read_only_safe] == ["history"], "read-only mode hides undo and redo"
    for name in ("undo", "redo"):
        hints = tools[name].annotations
        assert (hints["destructiveHint"], hints["idempotentHint"]) == (False, False), name
    assert set(tools["undo"].input_schema["properties"]) == {"steps", "until", "dry_run"}
    assert tools["undo"].input_schema == tools["redo"].input_schema


def test_group_members_are_derived_from_tools(cat: Catalogue) -> None:
    for group in cat.groups.values():
        assert group.tools
        assert all(cat.tools[n].group == group.name for n in group.tools)
    assert sum(len(g.tools) for g in cat.groups.values()) == len(cat.on_demand_tools())


def test_tool_properties(cat: Catalogue) -> None:
    close = cat.tools.get("scene_close")
    assert close is not None and close.min_version == (4, 5) and close.max_version is None
    simulate, manage, create = cat.tools.get("input_simulate"), cat.tools.get("node_manage"), cat.tools.get("scene_create")
    assert simulate is not None and simulate.operation_count() == 7
    assert manage is not None and manage.operation_count() == 4
    assert create is not None and create.operation_count() == 1
    assert create.success_hint and "scene_open" in create.success_hint
    discover = cat.tools.get("discover_tools")
    assert discover is not None and discover.channel == "bridge" and discover.method is None
    refresh = cat.tools.get("extensions_refresh")
    assert refresh is not None and refresh.channel == "editor" and refresh.method == "extensions.refresh"


def test_catalogue_names_follow_house_style(cat: Catalogue) -> None:
    for tool in cat.tools.values():
        assert re.fullmatch(r"[a-z0-9][a-z0-9_]{0,63}", tool.name), tool.name
        if tool.method is not None:
            assert re.fullmatch(r"[a-z0-9_]+(\.[a-z0-9_]+)+", tool.method), tool.method


# -- text ---------------------------------------------------------------------------------


def _param_descriptions(schema: Any) -> list[str]:
    found: list[str] = []
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "description" and isinstance(value, str):
                found.append(value)
            else:
                found.extend(_param_descriptions(value))
    elif isinstance(schema, list):
        for value in schema:
            found.extend(_param_descriptions(value))
    return found


def test_descriptions(cat: Catalogue) -> None:
    for tool in cat.tools.values():
        assert tool.description.strip(), tool.name
        assert len(tool.description) <= 600, tool.name
        for text in _param_descriptions(tool.input_schema["properties"]):
            assert text.strip() and len(text) <= 120, f"{tool.name}: {text!r}"
        if tool.success_hint is not None:
            assert tool.success_hint.strip() and len(tool.success_hint) <= 200, tool.name


def test_schemas_are_valid_draft_2020_12(cat: Catalogue) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    for tool in cat.tools.values():
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)


def test_every_string_param_with_path_guard_is_a_string(cat: Catalogue) -> None:
    for tool in cat.tools.values():
        for param in tool.path_params:
            prop = param_schema(tool.input_schema, param)
            assert prop is not None, f"{tool.name}.{param}"
            if prop.get("type") == "array":  # a list of paths, checked item by item
                prop = prop["items"]
            assert prop.get("type") == "string", f"{tool.name}.{param}"


# -- loading ------------------------------------------------------------------------------------


def test_catalogue_dir_is_the_checkout_catalogue() -> None:
    assert catalogue_dir() == REPO / "catalogue"


def test_default_load_is_cached() -> None:
    assert load_catalogue() is load_catalogue()


# -- malformed catalogues ------------------------------------------------------------------------


def _tool(name: str = "alpha_read", **changes: Any) -> dict[str, Any]:
    tool: dict[str, Any] = {
        "name": name,
        "method": "alpha.read",
        "channel": "editor",
        "group": "alpha",
        "description": "Read alpha.",
        "annotations": {"readOnlyHint": True},
        "input_schema": {
            "type": "object",
            "properties": {"file_path": {"type": "string"}, "action": {"type": "string", "enum": ["a", "b"]}},
            "required": ["file_path"],
            "additionalProperties": False,
        },
    }
    tool.update(changes)
    return tool


def _write_catalogue(root: Path, files: dict[str, Any], groups: Any = None) -> Path:
    (root / "tools").mkdir(parents=True)
    if groups is None:
        groups = {"groups": [{"name": "alpha", "description": "Alpha tools.", "keywords": ["alpha"]}]}
    (root / "groups.json").write_text(groups if isinstance(groups, str) else json.dumps(groups))
    for name, content in files.items():
        (root / "tools" / name).write_text(content if isinstance(content, str) else json.dumps(content))
    return root


def _load_error(root: Path) -> str:
    with pytest.raises(CatalogueError) as info:
        load_catalogue(root)
    return str(info.value)


def test_minimal_catalogue_loads(tmp_path: Path) -> None:
    root = _write_catalogue(tmp_path, {"alpha.json": {"tools": [_tool(operation_param="action")]}})
    loaded = load_catalogue(root)
    assert list(loaded.tools) == ["alpha_read"]
    assert loaded.groups["alpha"].tools == ["alpha_read"]
    assert loaded.tools["alpha_read"].operation_count() == 2


def test_bad_json_names_file_and_position(tmp_path: Path) -> None:
    root = _write_catalogue(tmp_path, {"alpha.json": '{"tools": [\n  {"name": "alpha_read",,}\n]}'})
    message = _load_error(root)
    assert "alpha.json" in message and "line 2" in message


def test_duplicate_tool_name(tmp_path: Path) -> None:
    root = _write_catalogue(
        tmp_path, {"alpha.json": {"tools": [_tool()]}, "beta.json": {"tools": [_tool(method="beta.read")]}}
    )
    message = _load_error(root)
    assert "beta.json" in message and "alpha_read" in message and "duplicate" in message
    assert "alpha.json" in message


def test_unknown_group(tmp_path: Path) -> None:
    root = _write_catalogue(tmp_path, {"alpha.json": {"tools": [_tool(), _tool("alpha_two", group="gamma")]}})
    message = _load_error(root)
    assert "alpha.json" in message and "alpha_two" in message and "gamma" in message


def test_path_param_must_be_a_parameter(tmp_path: Path) -> None:
    root = _write_catalogue(tmp_path, {"alpha.json": {"tools": [_tool(path_params={"dest_path": ["res://"]})]}})
    message = _load_error(root)
    assert "alpha.json" in message and "alpha_read" in message and "dest_path" in message


def test_a_path_the_question_reads_must_be_a_guarded_path_param(tmp_path: Path) -> None:
    """The consent gate reads what a call acts on (a file's bytes, a user:// listing) before it runs:
    a path it reads is one the guard checks first."""
    asks = {"does": "Replace {file_path}", "because": "No undo keeps it.", "when": [{"exists": "file_path"}],
            "target": [{"file": "file_path"}]}
    writes = {"annotations": {"destructiveHint": True}, "asks": asks}
    root = _write_catalogue(tmp_path / "bad", {"alpha.json": {"tools": [_tool(**writes)]}})
    message = _load_error(root)
    assert "alpha_read" in message and "file_path" in message and "path_params" in message
    good = _write_catalogue(tmp_path / "good", {"alpha.json": {"tools": [
        _tool(**writes, path_params={"file_path": ["res://"]})]}})
    assert load_catalogue(good).tools["alpha_read"].asks is not None


@pytest.mark.parametrize(("changes", "needle"), [
    ({"writes": {"dest_path": None}}, "writes: 'dest_path' is not a parameter"),
    ({"writes": {"action": ["c"]}}, "writes: 'action' lists values outside its enum"),
    ({"asks": {"does": "Save {file_path}", "because": "No undo.", "when": [{"exists": "file_path"}]},
      "path_params": {"file_path": ["res://"]}}, "a read-only tool asks when ['file_path'] writes; list it"),
    ({"disk_paths": ["dest_path"]}, "disk_paths: 'dest_path' is not a parameter"),
    ({"asks": {"does": "Copy {file_path}", "because": "Read.", "when": [{"outside_project": "file_path"}]},
      "annotations": {}}, "outside_project names ['file_path'], not in disk_paths"),
])
def test_what_a_call_writes_or_reads_on_disk_names_its_own_parameters(tmp_path: Path, changes: dict[str, Any],
                                                                       needle: str) -> None:
    root = _write_catalogue(tmp_path, {"alpha.json": {"tools": [_tool(**changes)]}})
    message = _load_error(root)
    assert "alpha_read" in message and needle in message, message


def test_required_must_be_a_property(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"a": {}}, "required": ["a", "b"], "additionalProperties": False}
    root = _write_catalogue(tmp_path, {"alpha.json": {"tools": [_tool(input_schema=schema)]}})
    message = _load_error(root)
    assert "alpha.json" in message and "alpha_read" in message and "'b'" in message


def test_schema_must_be_an_object_schema(tmp_path: Path) -> None:
    root = _write_catalogue(tmp_path, {"alpha.json": {"tools": [_tool(input_schema={"type": "string"})]}})
    message = _load_error(root)
    assert "alpha_read" in message and "input_schema" in message


def test_operation_param_needs_an_enum(tmp_path: Path) -> None:
    root = _write_catalogue(tmp_path, {"alpha.json": {"tools": [_tool(operation_param="file_path")]}})
    message = _load_error(root)
    assert "alpha_read" in message and "operation_param" in message


def test_group_without_tools(tmp_path: Path) -> None:
    groups = {
        "groups": [
            {"name": "alpha", "description": "Alpha.", "keywords": []},
            {"name": "empty", "description": "Nothing.", "keywords": []},
        ]
    }
    root = _write_catalogue(tmp_path, {"alpha.json": {"tools": [_tool()]}}, groups=groups)
    message = _load_error(root)
    assert "groups.json" in message and "empty" in message


def test_groups_file_may_not_list_members(tmp_path: Path) -> None:
    groups = {"groups": [{"name": "alpha", "description": "Alpha.", "keywords": [], "tools": ["alpha_read"]}]}
    root = _write_catalogue(tmp_path, {"alpha.json": {"tools": [_tool()]}}, groups=groups)
    assert "tools" in _load_error(root)


def test_bridge_channel_goes_with_null_method(tmp_path: Path) -> None:
    root = _write_catalogue(tmp_path, {"alpha.json": {"tools": [_tool(channel="bridge")]}})
    message = _load_error(root)
    assert "alpha_read" in message and "method" in message
    root2 = _write_catalogue(tmp_path / "b", {"alpha.json": {"tools": [_tool(method=None)]}})
    assert "alpha_read" in _load_error(root2)


def test_unknown_field_is_named(tmp_path: Path) -> None:
    root = _write_catalogue(tmp_path, {"alpha.json": {"tools": [_tool(godotMin="4.5")]}})
    message = _load_error(root)
    assert "alpha.json" in message and "alpha_read" in message and "godotMin" in message


def test_bad_annotation_and_version(tmp_path: Path) -> None:
    root = _write_catalogue(tmp_path, {"alpha.json": {"tools": [_tool(annotations={"readOnly": True})]}})
    assert "readOnly" in _load_error(root)
    root2 = _write_catalogue(tmp_path / "b", {"alpha.json": {"tools": [_tool(godot_min="four")]}})
    assert "godot_min" in _load_error(root2)


def test_top_level_shape(tmp_path: Path) -> None:
    root = _write_catalogue(tmp_path, {"alpha.json": [_tool()]})
    assert "alpha.json" in _load_error(root)


# -- handling: what the bridge does beyond forwarding, as data -------------------------


def test_handling_names_the_special_tools(cat: Catalogue) -> None:
    marked = {kind: sorted(t.name for t in cat.tools.values() if t.handles(kind))
              for kind in ("channel_arg", "image_result", "game_log", "starts_game", "lists_extensions")}
    assert marked == {
        "channel_arg": ["execute_code", "signal_emit"],
        "image_result": ["editor_screenshot", "runtime_screenshot"],
        "game_log": ["debugger_get_log"],
        "starts_game": ["game_start"],
        "lists_extensions": ["extensions_refresh"],
    }
    game_log = cat.handling("game_log")
    assert game_log is not None and game_log.method == "debugger.get_log"


def test_no_tool_name_or_method_is_spelled_in_the_bridge_code() -> None:
    """Which tool gets special treatment is catalogue data; the code names the handling, not the tool."""
    special = {"execute_code", "signal_emit", "editor_screenshot", "runtime_screenshot", "debugger_get_log",
               "game_start", "extensions_refresh"}
    methods = {"execute.code", "signal.emit", "editor.screenshot", "runtime.screenshot", "debugger.get_log",
               "game.start", "extensions.refresh"}
    offenders = []
    for path in sorted((REPO / "godot_bridge").rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            for quoted in re.findall(r"\"([\w.]+)\"", code):
                if quoted in special | methods:
                    offenders.append(f"{path.relative_to(REPO)}:{number}: {quoted}")
    assert offenders == []


@pytest.mark.parametrize(
    ("changes", "needle"),
    [
        ({"handling": ["teleport"]}, "handling"),
        ({"handling": ["image_result", "image_result"]}, "listed twice"),
        ({"handling": ["channel_arg"]}, "channel_arg needs a 'channel' parameter"),
        ({"handling": ["game_log"], "channel": "bridge", "method": None}, "only tools forwarded"),
    ],
)
def test_bad_handling_is_refused(tmp_path: Path, changes: dict[str, Any], needle: str) -> None:
    root = _write_catalogue(tmp_path, {"alpha.json": {"tools": [_tool(**changes)]}})
    message = _load_error(root)
    assert "alpha_read" in message and needle in message


def test_a_unique_handling_on_two_tools_is_refused(tmp_path: Path) -> None:
    tools = [_tool(handling=["game_log"]), _tool("alpha_two", method="alpha.two", handling=["game_log"])]
    root = _write_catalogue(tmp_path, {"alpha.json": {"tools": tools}})
    message = _load_error(root)
    assert "game_log" in message and "alpha_read" in message and "alpha_two" in message
