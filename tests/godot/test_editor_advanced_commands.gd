extends RefCounted
## commands/editor/editor_commands.gd through the command registry with a runtime context: the
## screenshot's checks and shaping over the game window's frame (the runtime context's stand-in for
## the editor viewport), a minimized window with and without force, refresh scopes, and the idle
## wait bounded by timeout_ms (the context's busy countdown).
## Not covered here (editor only): the real 2D/3D editor viewport and its main-screen switch, the
## window being restored by the OS, EditorFileSystem's scan/update_file and is_scanning.

const Assert := preload("assert.gd")
const ResultExamples := preload("result_examples.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")
const DomainFixture := preload("domain_fixture.gd")
const ScreenshotResponse := preload("res://addons/godot_mcp_toolkit/commands/runtime/screenshot_response.gd")

const DOMAIN := "res://addons/godot_mcp_toolkit/commands/editor/editor_commands.gd"
const DIR := "res://tmp_tests/editor_advanced"

var _root := Node2D.new()
var _fx: DomainFixture = null


func _init() -> void:
	DirAccess.make_dir_recursive_absolute(DIR)
	var file := FileAccess.open(DIR.path_join("a.txt"), FileAccess.WRITE)
	file.store_string("a\n")
	file.close()
	_root.name = "Main"
	var sprite := Sprite2D.new()
	sprite.name = "Sprite"
	_root.add_child(sprite)
	sprite.owner = _root
	var domains: Array[String] = [DOMAIN]
	_fx = DomainFixture.new(domains, "editor_advanced", _root, DIR, "4.6.0")


func cleanup() -> void:
	_fx.cleanup()


func test_registered_with_the_reference_lanes() -> void:
	Assert.is_true(DOMAIN in CommandDomains.DOMAINS, "listed in command_domains.gd")
	Assert.is_true(_fx.registry.dispatch_info("editor.screenshot")["read_only"], "screenshot reads")
	Assert.is_false(_fx.registry.dispatch_info("editor.screenshot")["scene_independent"], "of the edited scene")
	Assert.is_false(_fx.registry.dispatch_info("editor.refresh")["read_only"], "refresh acts")
	Assert.is_true(_fx.registry.dispatch_info("editor.wait_for_idle")["read_only"], "waiting reads")
	for method: String in ["editor.refresh", "editor.wait_for_idle"]:
		Assert.is_true(_fx.registry.dispatch_info(method)["scene_independent"], "%s needs no scene" % method)


func test_screenshot_inline_is_capped_and_names_the_node() -> void:
	var reply := _fx.invoke("editor.screenshot", ResultExamples.params("editor_advanced", "editor.screenshot", 0))
	ResultExamples.check("editor_advanced", "editor.screenshot", reply, 0)
	var size := (Engine.get_main_loop() as SceneTree).root.get_texture().get_image().get_size()
	var expected := ScreenshotResponse.detail_dims(size.x, size.y, "low")
	Assert.eq(reply["returned"], "%dx%d" % [expected.x, expected.y], "the frame, capped at 512")
	Assert.eq([reply["width"], reply["height"]], [size.x, size.y], "native size reported")
	var image := Image.new()
	Assert.eq(image.load_png_from_buffer(Marshalls.base64_to_raw(reply["image_base64"])), OK, "a PNG")
	Assert.eq(image.get_size(), expected, "of the returned size")


func test_screenshot_saved_under_res_is_refreshed() -> void:
	var reply := _fx.invoke("editor.screenshot", ResultExamples.params("editor_advanced", "editor.screenshot", 1))
	ResultExamples.check("editor_advanced", "editor.screenshot", reply, 1)
	var saved := DIR.path_join("shot.png")
	Assert.is_true(FileAccess.file_exists(saved), "written")
	Assert.eq(reply["path"], ProjectSettings.globalize_path(saved), "path is the file")
	Assert.is_true(saved in _fx.context.runtime_project.refreshed_files, "the editor is told about the new file")
	var loaded := Image.load_from_file(saved)
	Assert.eq("%dx%d" % [loaded.get_width(), loaded.get_height()], reply["returned"], "full-res on disk")


func test_screenshot_refusals() -> void:
	for params: Dictionary in [{"image_detail": "huge"}, {"image_response_mode": "file"},
			{"force_foreground_editor": "yes"}, {"node_path": 3}]:
		Assert.eq(_fx.invoke("editor.screenshot", params)["code"], "INVALID_PARAMS", "refused: %s" % JSON.stringify(params))
	var jpg := _fx.invoke("editor.screenshot", {"save_path": "res://shot.jpg"})
	Assert.eq([jpg["code"], jpg["hint"]], ["UNSUPPORTED_FILE_TYPE", "Pass a .png path, e.g. res://shot.png."],
		"a wrong extension is UNSUPPORTED_FILE_TYPE, with the name it should have")
	for path: String in ["user://other/shot.png", "res://../x.png", "/tmp/x.png"]:
		Assert.eq(_fx.invoke("editor.screenshot", {"save_path": path})["code"], "PATH_DENIED", "refused: %s" % path)
	Assert.eq(_fx.invoke("editor.screenshot", {"node_path": "Nope"})["code"], "NOT_FOUND", "missing node")
	Assert.is_false(FileAccess.file_exists(DIR.path_join("x.png")), "nothing written")
	_fx.context.runtime_scenes.set_scene_root(null)
	Assert.eq(_fx.invoke("editor.screenshot", {})["code"], "NO_SCENE", "no scene")
	_fx.context.runtime_scenes.set_scene_root(_root)


func test_headless_editor_screenshot_is_refused_with_a_hint() -> void:
	_fx.context.runtime_host.headless = true
	var reply := _fx.invoke("editor.screenshot", {"image_response_mode": "disk", "save_path": DIR.path_join("h.png")})
	var no_scene_either := _fx.invoke("editor.screenshot", {"node_path": "Nope"})
	_fx.context.runtime_host.headless = false
	Assert.eq([reply["success"], reply["code"]], [false, "HEADLESS_UNSUPPORTED"], "refused, not an empty image")
	Assert.contains(reply["error"], "headless", "says why")
	Assert.contains(reply["hint"], "xvfb-run", "says how to get a display")
	Assert.is_false(FileAccess.file_exists(DIR.path_join("h.png")), "nothing written")
	Assert.eq(no_scene_either["code"], "HEADLESS_UNSUPPORTED", "the display is the first thing missing")


func test_minimized_window_needs_force() -> void:
	_fx.context.runtime_viewport.viewport_can_draw = false
	ResultExamples.check("editor_advanced", "editor.screenshot", _fx.invoke("editor.screenshot", {}), 2)
	_fx.context.runtime_viewport.viewport_can_restore = false
	Assert.eq(_fx.invoke("editor.screenshot", {"force_foreground_editor": true})["code"], "EDITOR_VIEWPORT_UNAVAILABLE",
		"still hidden after force")
	_fx.context.runtime_viewport.viewport_can_restore = true
	var forced := _fx.invoke("editor.screenshot", {"force_foreground_editor": true})
	Assert.eq(forced["remediation"], ["foregrounded_editor"], "says what it had to do")
	Assert.is_true(forced["success"], "and captured")
	Assert.is_false(_fx.invoke("editor.screenshot", {}).has("remediation"), "a clean capture says nothing")


func test_refresh_project_or_files() -> void:
	ResultExamples.check("editor_advanced", "editor.refresh", _fx.invoke("editor.refresh", {}), 0)
	Assert.eq(_fx.context.runtime_project.scans, 1, "a full scan")
	ResultExamples.check("editor_advanced", "editor.refresh",
		_fx.invoke("editor.refresh", ResultExamples.params("editor_advanced", "editor.refresh", 1)), 1)
	Assert.eq(_fx.context.runtime_project.refreshed_files,
		PackedStringArray([DIR.path_join("a.txt"), DIR.path_join("gone.txt")]),
		"those files")
	Assert.eq(_fx.context.runtime_project.scans, 1, "no full scan for named files")
	for params: Dictionary in [{"file_paths": "res://a.txt"}, {"file_paths": []}]:
		Assert.eq(_fx.invoke("editor.refresh", params)["code"], "INVALID_PARAMS", JSON.stringify(params))
	Assert.eq(_fx.invoke("editor.refresh", {"file_paths": [DIR.path_join("a.txt"), "user://x"]})["code"], "PATH_DENIED",
		"a bad entry refuses the whole call")
	Assert.eq(_fx.context.runtime_project.refreshed_files.size(), 2, "and refreshes nothing")


func test_wait_for_idle_waits_then_times_out() -> void:
	var idle := _fx.invoke("editor.wait_for_idle", {})
	Assert.eq([idle["success"], idle["was_busy"]], [true, false], "idle at once")
	_fx.context.runtime_project.busy_polls = 3
	ResultExamples.check("editor_advanced", "editor.wait_for_idle",
		_fx.invoke("editor.wait_for_idle", ResultExamples.params("editor_advanced", "editor.wait_for_idle", 0)), 0)
	Assert.eq(_fx.context.runtime_project.busy_polls, 0, "polled until idle")
	_fx.context.runtime_project.busy_polls = 1000000
	ResultExamples.check("editor_advanced", "editor.wait_for_idle",
		_fx.invoke("editor.wait_for_idle", ResultExamples.params("editor_advanced", "editor.wait_for_idle", 1)), 1)
	_fx.context.runtime_project.busy_polls = 0
	for bad: Variant in [0, -5, "soon"]:
		Assert.eq(_fx.invoke("editor.wait_for_idle", {"timeout_ms": bad})["code"], "INVALID_PARAMS", str(bad))
