"""The GDScript CI checks: they pass on the tree, and each detector catches what it is for."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

import gd_check  # noqa: E402
import gd_common  # noqa: E402
import gd_compat  # noqa: E402
import gd_drift  # noqa: E402
import gd_writes  # noqa: E402
from gd_common import COMPAT_MAP_NAME, find_reference, functions, lex  # noqa: E402

TK = "addons/godot_mcp_toolkit"


@pytest.mark.parametrize("script", ["gd_check.py", "gd_drift.py", "gd_compat.py", "gd_writes.py", "gd_layers.py"])
def test_check_passes_on_the_tree(script: str) -> None:
    result = subprocess.run(
        [sys.executable, str(REPO / "scripts" / script)], capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def cmap() -> gd_compat.CompatMap:
    path = find_reference(REPO, COMPAT_MAP_NAME)
    if path is None:
        pytest.fail(f"{COMPAT_MAP_NAME} must be in the repo (tests/data/reference)")
    return gd_compat.load_map(path)


@pytest.fixture()
def reference_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scratch repos in tmp_path carry no reference data; point the checks at the repo's copy."""
    path = find_reference(REPO, COMPAT_MAP_NAME)
    assert path is not None
    monkeypatch.setenv("GODOT_REFERENCE_DIR", str(path.parent))


# --- lexer -------------------------------------------------------------------------------------


def test_lexer_blanks_comments_and_strings_but_keeps_lines() -> None:
    text = 'var a := "x # not a comment" # EditorInterface\nvar b := """multi\nline"""\n'
    lexed = lex(text)
    assert "EditorInterface" not in lexed.code
    assert "not a comment" not in lexed.code
    assert lexed.code.count("\n") == text.count("\n")
    assert [value for _, value in lexed.strings] == ["x # not a comment", "multi\nline"]


def test_functions_split_by_indentation() -> None:
    code = "func a() -> void:\n\tpass\n\n\nfunc b() -> void:\n\tvar f := func(): return 1\n\treturn\n"
    names = [(f.name, code[f.start : f.end].count("\n")) for f in functions(lex(code).code)]
    assert names == [("a", 4), ("b", 3)]


# --- gd_check ------------------------------------------------------------------------------------


def test_gd_check_flags_parse_errors_and_lint(tmp_path: Path) -> None:
    (tmp_path / "gdlintrc").write_text((REPO / "gdlintrc").read_text())
    _write(tmp_path, "addons/x/ok.gd", "extends RefCounted\n\n\nfunc ok_name() -> void:\n\tpass\n")
    _write(tmp_path, "addons/x/broken.gd", "extends RefCounted\nfunc (:\n")
    _write(tmp_path, "addons/x/style.gd", "extends RefCounted\n\n\nfunc BadName() -> void:\n\tvar s := '" + "x" * 130 + "'\n")
    problems = gd_check.run(tmp_path)
    assert any(p.startswith("addons/x/broken.gd:") and ": parse:" in p for p in problems)
    assert any("style.gd:4: function-name" in p for p in problems)
    assert any("style.gd:5: max-line-length" in p for p in problems)
    assert not any("ok.gd" in p for p in problems)


def test_one_parse_lints_as_gdtoolkit_does(tmp_path: Path) -> None:
    """gd_check lints the tree it parsed (once, cached) with gdtoolkit's own checks: the same problems
    as gdtoolkit's lint_code, which parses again, on code that breaks several kinds of rule."""
    from gdtoolkit.linter import lint_code

    code = ("extends RefCounted\nclass_name bad_class\n\nvar X := 1\nfunc BadName(a, a) -> void:\n"
            "\tvar s := '" + "x" * 130 + "'\n\tpass;\n# gdlint: ignore=function-name\nfunc Other() -> void:\n\tpass\n")
    config = gd_check.load_config(REPO)
    tree = gd_common.parse_tree(code, cache=tmp_path)
    assert gd_common.parse_tree(code, cache=tmp_path) == tree, "the cached tree is the parsed one"
    ours = [(p.name, p.line) for p in gd_check.lint_tree(code, tree, config)]
    assert ours == [(p.name, p.line) for p in lint_code(code, config)] and len(ours) >= 3


def test_gd_check_requires_the_committed_config(tmp_path: Path) -> None:
    _write(tmp_path, "addons/x/ok.gd", "extends RefCounted\n")
    assert gd_check.run(tmp_path) == [f"gdlintrc: {tmp_path / 'gdlintrc'} is missing"]


# --- gd_writes -----------------------------------------------------------------------------------


def test_writes_flags_every_raw_file_change() -> None:
    source = """
    func a(path: String, res: Resource, dir: DirAccess, image: Image) -> void:
        var f := FileAccess.open(path, FileAccess.WRITE)
        ResourceSaver.save(res, path)
        ProjectSettings.save()
        DirAccess.remove_absolute(path)
        AtomicFile.write_text(path, "x")
        image.save_png(path)
        EditorInterface.save_scene()
        ProjectWrites.raw_write(path, PackedByteArray())
        var d := DirAccess.open("res://")
        d.rename("a", "b")
        var config := ConfigFile.new()
        config.save(path)
    """
    calls = [call for _, call in gd_writes.raw_writes(textwrap.dedent(source))]
    assert len(calls) == 10, calls


def test_writes_accepts_the_door_announcements_comments_and_strings() -> None:
    source = """
    # ResourceSaver.save(res, path) in a comment
    func a(path: String, res: Resource, image: Image) -> void:
        ProjectWrites.save_resource(res, path)
        ProjectWrites.write_png(image, path)
        var text := "FileAccess.WRITE"
        var bytes := image.save_png_to_buffer()
        var f := FileAccess.open(path, FileAccess.READ)


    func announced(path: String) -> Error:
        var error := ProjectWrites.before(PackedStringArray([path]))
        error = EditorInterface.save_scene()
        ProjectWrites.after(PackedStringArray([path]))
        return error
    """
    assert gd_writes.raw_writes(textwrap.dedent(source)) == []


def test_writes_fails_on_a_new_site_and_a_stale_exemption(tmp_path: Path) -> None:
    _write(tmp_path, f"{TK}/commands/new_commands.gd", "func a(p: String) -> void:\n\tDirAccess.remove_absolute(p)\n")
    for key in gd_writes.EXEMPT:
        _write(tmp_path, key, "func a(p: String) -> void:\n\tDirAccess.remove_absolute(p)\n")
    stale = next(iter(gd_writes.EXEMPT))
    _write(tmp_path, stale, "func a() -> void:\n\tpass\n")
    problems = gd_writes.run(tmp_path)
    assert len(problems) == 2, problems
    assert sorted(p.split(":")[0] for p in problems) == sorted([f"{TK}/commands/new_commands.gd", stale])
    assert any(p.startswith(f"{TK}/commands/new_commands.gd:2: `DirAccess.remove_absolute(`") for p in problems)
    assert any(p.startswith(f"{stale}: exempt") for p in problems)


# --- gd_drift ------------------------------------------------------------------------------------


def test_drift_recognises_every_registration_form() -> None:
    source = """
    const LIST := "extensions.list"
    const MY_COMMANDS := {
    \t"table.one": _a,
    \t"table.two": _b,
    }
    func register(registry) -> void:
    \tregistry.register_command("scene.create", _c)
    \tregistry.register_command(LIST, _d)
    \t_reg(registry, "node.move", _e)
    \t# registry.register_command("comment.only", _f)
    \tregistry.has_command("not.registered")
    """
    found = gd_drift.registered_in_source(textwrap.dedent(source))
    assert found == {"extensions.list", "table.one", "table.two", "scene.create", "node.move"}
    arms = '\tmatch method:\n\t\t"runtime.screenshot":\n\t\t\tpass\n\t\t"runtime.a", "runtime.b":\n\t\t\tpass\n'
    assert gd_drift.registered_in_source(arms, runtime_file=True) == {"runtime.screenshot", "runtime.a", "runtime.b"}
    assert gd_drift.registered_in_source(arms) == set()


def _drift_repo(root: Path, pending: str) -> None:
    tools = [
        {"name": "scene_create", "method": "scene.create", "channel": "editor"},
        {"name": "node_move", "method": "node.move", "channel": "editor"},
        {"name": "runtime_tap", "method": "runtime.tap", "channel": "runtime"},
        {"name": "lsp_hover", "method": "lsp.hover", "channel": "lsp"},
    ]
    _write(root, "catalogue/tools/x.json", json.dumps({"tools": tools}))
    _write(root, f"{TK}/commands/scene.gd", 'func register(r) -> void:\n\tr.register_command("scene.create", _x)\n\n\nfunc _x(p):\n\treturn p\n')
    _write(root, f"{TK}/examples/e.gd", 'func register(r) -> void:\n\tr.register_command("node.move", _x)\n')
    _write(root, "scripts/gd_drift_pending.txt", pending)


def test_drift_fails_on_unregistered_and_stale_pending(tmp_path: Path) -> None:
    _drift_repo(tmp_path, "# pending\nscene.create\nruntime.tap\nruntime.tap\nold.gone\n")
    problems, warnings, stats = gd_drift.run(tmp_path)
    text = "\n".join(problems)
    assert "'scene.create' is registered in" in text  # stale allowlist
    assert "'runtime.tap' is listed twice" in text
    assert "catalogue method 'node.move' (editor) is not registered" in text  # examples do not count
    assert "lsp.hover" not in text  # not routed to the editor/runtime
    assert any("'old.gone' is not an editor/runtime method" in w for w in warnings)
    assert stats == {"catalogue": 3, "registered": 1, "pending": 4}


def test_drift_passes_when_everything_is_accounted_for(tmp_path: Path) -> None:
    _drift_repo(tmp_path, "node.move\nruntime.tap\n")
    problems, _, _ = gd_drift.run(tmp_path)
    assert problems == []


def test_drift_finds_declared_params_the_handler_never_reads(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"name": {}, "parent_path": {}, "channel": {}, "mode": {}}}
    tools = [{"name": "scene_create", "method": "scene.create", "channel": "editor", "input_schema": schema}]
    _write(tmp_path, "catalogue/tools/x.json", json.dumps({"tools": tools}))
    _write(tmp_path, "scripts/gd_drift_pending.txt", "")
    _write(tmp_path, f"{TK}/commands/scene.gd", """
    static func register(r, context) -> void:
    \tr.register_command("scene.create", Callable(load("res://x.gd"), "_cmd_create").bind(context))


    static func _cmd_create(params: Dictionary, context) -> Dictionary:
    \tvar parent := _parent(params)
    \t# params["mode"] is only mentioned in a comment
    \treturn {"name": params.get("name", ""), "parent": parent}


    static func _parent(params: Dictionary) -> String:
    \treturn params.get("parent_path", ".")
    """)
    problems, _, _ = gd_drift.run(tmp_path)
    assert problems == [f"{TK}/commands/scene.gd: the handler of 'scene.create' never reads declared param(s) mode"]


def test_drift_params_follow_preloaded_helper_scripts(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"name": {}, "mode": {}, "depth": {}}}
    tools = [{"name": "scene_create", "method": "scene.create", "channel": "editor", "input_schema": schema}]
    _write(tmp_path, "catalogue/tools/x.json", json.dumps({"tools": tools}))
    _write(tmp_path, "scripts/gd_drift_pending.txt", "")
    _write(tmp_path, f"{TK}/commands/scene.gd", f"""
    const Helper := preload("res://{TK}/commands/scene/helper.gd")


    static func register(r, context) -> void:
    \tr.register_command("scene.create", Callable(load("res://x.gd"), "_cmd_create").bind(context))


    static func _cmd_create(params: Dictionary, context) -> Dictionary:
    \treturn Helper.build(params.get("name", ""), params)
    """)
    _write(tmp_path, f"{TK}/commands/scene/helper.gd", """
    static func build(name: String, params: Dictionary) -> Dictionary:
    \treturn {"name": name, "mode": params.get("mode")}


    static func unused(params: Dictionary) -> int:
    \treturn params.get("depth", 0)
    """)
    problems, _, _ = gd_drift.run(tmp_path)
    assert problems == [f"{TK}/commands/scene.gd: the handler of 'scene.create' never reads declared param(s) depth"]


def test_drift_modes_follow_the_reference(tmp_path: Path) -> None:
    reference = [
        {"method": "signal.emit", "mode": "editor"},
        {"method": "signal.emit", "mode": "runtime"},
        {"method": "ping", "mode": "runtime"},  # the transport answers it
    ]
    _write(tmp_path, "tests/data/reference/toolkit-methods.json", json.dumps(reference))
    _write(tmp_path, f"{TK}/runtime/runtime_domains.gd",
           f'const DOMAINS: Array[String] = [\n\t"res://{TK}/commands/game_signals.gd",\n]\n')
    _write(tmp_path, f"{TK}/commands/game_signals.gd",
           'static func register(r, c) -> void:\n\tr.register_command("signal.emit", _emit)\n')
    assert gd_drift.mode_problems(tmp_path) == ["the reference toolkit serves 'signal.emit' in editor mode; ours does not"]
    _write(tmp_path, f"{TK}/commands/editor_signals.gd",
           'static func register(r, c) -> void:\n\tr.register_command("signal.emit", _emit)\n')
    assert gd_drift.mode_problems(tmp_path) == []


def test_drift_params_follow_runtime_match_arms_and_missing_handlers(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"node_path": {}}}
    tools = [
        {"name": "runtime_tap", "method": "runtime.tap", "channel": "runtime", "input_schema": schema},
        {"name": "node_move", "method": "node.move", "channel": "editor", "input_schema": schema},
    ]
    _write(tmp_path, "catalogue/tools/x.json", json.dumps({"tools": tools}))
    _write(tmp_path, "scripts/gd_drift_pending.txt", "")
    _write(tmp_path, f"{TK}/runtime/server.gd", """
    func handle(method: String, params: Dictionary) -> Dictionary:
    \tmatch method:
    \t\t"runtime.tap":
    \t\t\treturn _tap(params)
    \treturn {}


    func _tap(params: Dictionary) -> Dictionary:
    \treturn {"path": params.get("node_path")}
    """)
    _write(tmp_path, f"{TK}/commands/node.gd", 'func register(r) -> void:\n\tr.register_command("node.move", _gone)\n')
    problems, _, _ = gd_drift.run(tmp_path)
    assert problems == [f"{TK}/commands/node.gd: cannot find the handler registered for 'node.move'"]


# --- gd_compat: engine API ---------------------------------------------------------------------


def _api(cmap: gd_compat.CompatMap, source: str) -> list[str]:
    return gd_compat.check_engine_api("t.gd", textwrap.dedent(source).lstrip("\n"), cmap, set())


def test_unguarded_44_member_on_unknown_receiver_is_flagged(cmap: gd_compat.CompatMap) -> None:
    problems = _api(cmap, """
    func f(ei) -> void:
    \tei.get_editor_undo_redo()
    """)
    assert len(problems) == 1
    assert "t.gd:2: .get_editor_undo_redo is API added after 4.2" in problems[0]


def test_guarded_member_on_unknown_receiver_passes(cmap: gd_compat.CompatMap) -> None:
    assert _api(cmap, """
    func f(ei) -> void:
    \tif ei.has_method("get_editor_undo_redo"):
    \t\tei.get_editor_undo_redo()
    \tif Engine.get_version_info()["minor"] >= 5:
    \t\tei.call("close_scene")
    """) == []


def test_guard_in_another_function_does_not_count(cmap: gd_compat.CompatMap) -> None:
    problems = _api(cmap, """
    func g(ei) -> bool:
    \treturn ei.has_method("close_scene")


    func f(ei) -> void:
    \tei.call("close_scene")
    """)
    assert problems and "t.gd:6: call(\"close_scene\")" in problems[0]


def test_typed_receiver_is_flagged_even_when_guarded(cmap: gd_compat.CompatMap) -> None:
    problems = _api(cmap, """
    func f() -> void:
    \tif EditorInterface.has_method("close_scene"):
    \t\tEditorInterface.close_scene()
    \tvar fs: EditorFileSystem = null
    \tfs.resources_reimporting.connect(f)
    \tvar file := FileAccess.open("a", FileAccess.WRITE)
    \tfile.resize(0)
    """)
    text = "\n".join(problems)
    assert "t.gd:3: EditorInterface.close_scene (method) is added in 4.5" in text
    assert "t.gd:5: EditorFileSystem.resources_reimporting (signal) is added in 4.3" in text
    assert 'obj.connect("resources_reimporting"' in text
    assert "t.gd:7: FileAccess.resize (method) is added in 4.3" in text


def test_classes_missing_in_42_and_bare_inherited_calls(cmap: gd_compat.CompatMap) -> None:
    problems = _api(cmap, """
    extends EditorPlugin

    var _toast: EditorToaster = null


    func f() -> void:
    \tadd_dock(null)
    \tadd_control_to_dock(DOCK_SLOT_LEFT_UL, null)
    \tvar s := "EditorDock is fine inside a string"
    """)
    text = "\n".join(problems)
    assert "t.gd:3: engine class EditorToaster is added in 4.4" in text
    assert "t.gd:7: EditorPlugin.add_dock is added in 4.6" in text
    assert len(problems) == 2


def test_common_names_on_unknown_receivers_stay_quiet(cmap: gd_compat.CompatMap) -> None:
    assert _api(cmap, """
    func f(timer, list) -> void:
    \ttimer.start()
    \tlist.resize(3)
    \tvar d := list.duplicate()
    """) == []


# --- gd_compat: settings, codes, export safety -------------------------------------------------


def _toolkit(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        _write(root, f"{TK}/{rel}", text)


SETTINGS = 'extends RefCounted\nconst WS_BUFFER_KB := "mcp_toolkit/limits/ws_buffer_kb"\n'


def test_settings_read_must_be_registered(tmp_path: Path) -> None:
    _toolkit(tmp_path, {
        "settings/settings_registration.gd": SETTINGS,
        "ui/a.gd": (
            'const Settings := preload("../settings/settings_registration.gd")\n'
            'var a = Settings.get_int(Settings.WS_BUFFER_KB)\n'
            'var b = Settings.get_int(Settings.NOT_THERE)\n'
            'var c = ProjectSettings.get_setting("mcp_toolkit/limits/ws_buffer_kb")\n'
            'var d = ProjectSettings.get_setting("mcp_toolkit/limits/unknown_kb")\n'
            'const DENY_PREFIX := "mcp_toolkit/"\n'
        ),
    })
    files = [Path(TK) / "settings/settings_registration.gd", Path(TK) / "ui/a.gd"]
    problems = gd_compat.check_settings(tmp_path, files)
    text = "\n".join(problems)
    assert len(problems) == 2
    assert "ui/a.gd:3: Settings.NOT_THERE is not a setting declared" in text
    assert "ui/a.gd:5: setting 'mcp_toolkit/limits/unknown_kb' is not registered" in text


def test_fail_codes_must_be_in_the_vocabulary(tmp_path: Path, reference_env: None) -> None:
    _toolkit(tmp_path, {
        "commands/a.gd": (
            'func f() -> Dictionary:\n'
            '\tif true:\n\t\treturn registry.fail("NOT_FOUND", "x")\n'
            '\treturn MCPToolkitError.fail("NODE_MISSING", "y")\n'
        ),
    })
    problems = gd_compat.check_codes(tmp_path, [Path(TK) / "commands/a.gd"])
    assert problems == [f"{TK}/commands/a.gd:4: error code 'NODE_MISSING' is not in the toolkit vocabulary (C4)"]


def test_declared_codes_must_equal_the_vocabulary(tmp_path: Path, reference_env: None) -> None:
    _toolkit(tmp_path, {"contract/mcp_toolkit_error.gd": 'const CODES := [\n\t"NOT_FOUND",\n\t"MADE_UP",\n]\n'})
    codes, problems = gd_compat.vocabulary(tmp_path)
    assert codes is not None and len(codes) == 56
    assert len(problems) == 1 and "extra ['MADE_UP']" in problems[0]


def test_runtime_reachable_files_must_not_name_editor_classes(tmp_path: Path) -> None:
    _toolkit(tmp_path, {
        "runtime/server.gd": 'extends Node\nconst Client := preload("../registry/client.gd")\n',
        "registry/client.gd": 'extends RefCounted\nvar helper := MCPHelper.new()\n',
        "core/helper.gd": 'class_name MCPHelper\nextends RefCounted\n# EditorInterface in a comment is fine\n'
                          'func f() -> void:\n\tEditorInterface.get_editor_settings()\n',
        "ui/dock.gd": 'extends Control\nfunc f() -> void:\n\tEditorInterface.get_base_control()\n',
        "runtime/autoload.gd": 'extends Node\nconst P := "res://addons/godot_mcp_toolkit/ui/panel.gd"\n'
                               'func _ready() -> void:\n\tload(P).new()\n',
        "ui/panel.gd": 'extends Control\nvar s: EditorSettings\n',
    })
    files = sorted(p.relative_to(tmp_path) for p in (tmp_path / TK).rglob("*.gd"))
    problems = gd_compat.check_runtime_editor_free(tmp_path, files)
    assert len(problems) == 2
    assert problems[0].startswith(f"{TK}/core/helper.gd:5: runtime-reachable file names EditorInterface")
    assert f"via {TK}/core/helper.gd <- {TK}/registry/client.gd <- {TK}/runtime/server.gd" in problems[0]
    assert problems[1].startswith(f"{TK}/ui/panel.gd:2: runtime-reachable file names EditorSettings")
    assert f"via {TK}/ui/panel.gd <- {TK}/runtime/autoload.gd" in problems[1]


def test_runtime_marker_makes_a_file_an_entry(tmp_path: Path) -> None:
    _toolkit(tmp_path, {"registry/client.gd": '## RUNTIME-REACHABLE\nextends RefCounted\nvar s: EditorSettings\n'})
    problems = gd_compat.check_runtime_editor_free(tmp_path, [Path(TK) / "registry/client.gd"])
    assert len(problems) == 1 and "names EditorSettings" in problems[0]


def test_members_hoisted_into_a_new_base_class_are_not_removals(cmap: gd_compat.CompatMap) -> None:
    # TCPServer.stop moved to the SocketServer base added in 4.6; it still works on a TCPServer.
    assert _api(cmap, """
    func f() -> void:
    \tvar server := TCPServer.new()
    \tserver.stop()
    """) == []
