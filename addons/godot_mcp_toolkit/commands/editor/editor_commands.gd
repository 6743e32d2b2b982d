@tool
extends RefCounted
## The editor itself: editor.save_scene (the edited scene, or a copy; commands/scene/scene_files.gd),
## editor.screenshot (its 2D/3D viewport, shaped like runtime.screenshot by
## commands/runtime/screenshot_response.gd), editor.refresh (rescan, or update named files) and
## editor.wait_for_idle (until the filesystem stops scanning/importing). The viewport, the scan and
## the busy state are reached through the context, so this file is runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")
const ScreenshotResponse := preload("res://addons/godot_mcp_toolkit/commands/runtime/screenshot_response.gd")
const ScreenshotCapture := preload("res://addons/godot_mcp_toolkit/commands/runtime/screenshot_capture.gd")
const SceneFiles := preload("res://addons/godot_mcp_toolkit/commands/scene/scene_files.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/editor/editor_commands.gd"
const ALLOWED_PREFIXES := ["res://", "user://screenshots/"]
const DEFAULT_WAIT_MS := 30000
## Frames to let the editor redraw after it had to be brought forward.
const REDRAW_FRAMES := 3
const HEADLESS_HINT := ("Screenshots need a display: start the editor with a window (editor_launch without "
	+ "headless), on a machine without a screen under a virtual one (xvfb-run godot --editor --path <project>).")


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("editor.screenshot", Callable(script, "_cmd_screenshot").bind(context),
		registry.create_options().read_only())
	registry.register_command("editor.refresh", Callable(script, "_cmd_refresh").bind(context),
		registry.create_options()
		.scene_independent())
	registry.register_command("editor.wait_for_idle", Callable(script, "_cmd_wait_for_idle").bind(context),
		registry.create_options()
		.read_only().scene_independent())
	registry.register_command("editor.save_scene", Callable(script, "_cmd_save_scene").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "properties": {"file_path": {"type": "string"}}}))


static func _cmd_screenshot(params: Dictionary, context: RefCounted) -> Dictionary:
	var chosen := ScreenshotResponse.read_params(params, PackedStringArray(ALLOWED_PREFIXES))
	if not chosen["ok"]:
		return chosen["error"]
	var force: Variant = params.get("force_foreground_editor", false)
	if not force is bool:
		return ToolkitError.fail("INVALID_PARAMS", "force_foreground_editor must be true or false")
	if context.host.is_headless():
		return ToolkitError.fail("HEADLESS_UNSUPPORTED", "The editor runs headless (no display): it draws no "
			+ "viewport, so there is nothing to capture", HEADLESS_HINT)
	var root: Node = context.scenes.scene_root()
	var focus: Node = null
	if params.has("node_path"):
		if not params["node_path"] is String:
			return ToolkitError.fail("INVALID_PARAMS", "node_path must be a string")
		var found := NodeLookup.find(root, params["node_path"])
		if not found["ok"]:
			return found["error"]
		focus = found["node"]
	elif root == null:
		return ToolkitError.fail("NO_SCENE", "No scene is open in the editor", "Open a scene with scene_open first.")
	var prepared: Dictionary = context.viewport.prepare_viewport(force)
	if not prepared["ok"]:
		return _unavailable(force)
	var remediation: PackedStringArray = prepared["remediation"]
	if not remediation.is_empty():
		for i in REDRAW_FRAMES:
			await context.host.wait_frame()
	var image: Image = context.viewport.capture_viewport(focus)
	if image == null:
		return _unavailable(force)
	if image.is_empty():
		return ToolkitError.fail("EMPTY_CONTENT", "The editor viewport returned an empty image",
			"Retry once the editor has drawn a frame (editor_wait_for_idle).")
	var reply := ScreenshotCapture.shaped(image, chosen, remediation)
	var saved: String = chosen["save_path"]
	if reply["success"] and saved.begins_with("res://"):
		context.project.refresh_files(PackedStringArray([saved]))
	if reply["success"] and focus != null:
		reply["node_path"] = NodeLookup.path_of(root, focus)
	return reply


static func _unavailable(forced: bool) -> Dictionary:
	if forced:
		return ToolkitError.fail("EDITOR_VIEWPORT_UNAVAILABLE", "The editor viewport still cannot draw after "
			+ "bringing the editor forward", "Restore the editor window by hand and retry.")
	return ToolkitError.fail("EDITOR_VIEWPORT_UNAVAILABLE", "The editor window is minimized or its viewport is "
		+ "hidden", "Pass force_foreground_editor=true to bring it forward, or restore it yourself and retry.")


static func _cmd_refresh(params: Dictionary, context: RefCounted) -> Dictionary:
	var raw: Variant = params.get("file_paths")
	if raw == null:
		context.project.scan_files()
		return ToolkitSuccess.ok({"scope": "project", "hint": "The scan runs in the background; "
			+ "editor_wait_for_idle waits for it."})
	if not raw is Array or (raw as Array).is_empty():
		return ToolkitError.fail("INVALID_PARAMS", "file_paths must be a non-empty list of res:// paths")
	var paths := PackedStringArray()
	var missing := PackedStringArray()
	for entry: Variant in raw:
		var guarded := FileGuard.check(entry)
		if not guarded["ok"]:
			return guarded["error"]
		var path: String = guarded["path"]
		if not path in paths:
			paths.append(path)
		if not FileAccess.file_exists(path):
			missing.append(path)
	context.project.refresh_files(paths)
	var result := {"scope": "files", "file_paths": Array(paths), "count": paths.size()}
	if not missing.is_empty():
		# A deleted file is refreshed too (the editor drops it), so this is news, not a failure.
		result["missing"] = Array(missing)
		result["hint"] = "Files not on disk are removed from the editor's filesystem view."
	return ToolkitSuccess.ok(result)


static func _cmd_wait_for_idle(params: Dictionary, context: RefCounted) -> Dictionary:
	var timeout: Variant = params.get("timeout_ms", DEFAULT_WAIT_MS)
	if not Params.is_number(timeout) or float(timeout) <= 0:
		return ToolkitError.fail("INVALID_PARAMS", "timeout_ms must be a positive number of milliseconds")
	var started := Time.get_ticks_msec()
	var busy_frames := 0
	while context.project.is_busy():
		if Time.get_ticks_msec() - started >= float(timeout):
			return ToolkitError.fail("TIMEOUT", "The editor was still scanning or importing after %d ms"
				% int(timeout), "Call editor_wait_for_idle again, with a larger timeout_ms for a big import.")
		busy_frames += 1
		await context.host.wait_frame()
	return ToolkitSuccess.ok({"idle": true, "was_busy": busy_frames > 0, "waited_ms": Time.get_ticks_msec() - started})


static func _cmd_save_scene(params: Dictionary, context: RefCounted) -> Dictionary:
	return SceneFiles.save(params.get("file_path", ""), context)
