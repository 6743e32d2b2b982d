@tool
extends RefCounted
## runtime.screenshot's capture: the game window's frame as an Image, the inline copy shrunk to
## image_detail, the full-res PNG written for disk/both, the reply shaped by
## commands/runtime/screenshot_response.gd. A window that cannot draw (a minimized top-level game) is
## RUNTIME_WINDOW_MINIMIZED unless force_foreground_game, which restores it and waits a few frames.
## RUNTIME-REACHABLE.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const ScreenshotResponse := preload("res://addons/godot_mcp_toolkit/commands/runtime/screenshot_response.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")

const ALLOWED_PREFIXES := ["user://screenshots/"]
## Frames to wait after restoring a minimized window before giving up on it.
const FOREGROUND_FRAMES := 5


## `viewport` is what is captured (the game's root window); params as the catalogue declares.
static func capture(params: Dictionary, viewport: Viewport) -> Dictionary:
	var chosen := ScreenshotResponse.read_params(params, PackedStringArray(ALLOWED_PREFIXES))
	if not chosen["ok"]:
		return chosen["error"]
	var force: Variant = params.get("force_foreground_game", false)
	if not force is bool:
		return ToolkitError.fail("INVALID_PARAMS", "force_foreground_game must be true or false")
	var remediation := PackedStringArray()
	if not DisplayServer.window_can_draw():
		if not force:
			return _minimized("The game window is minimized or hidden and draws nothing",
				"Pass force_foreground_game=true to restore it, or restore the window yourself and retry.")
		DisplayServer.window_set_mode(DisplayServer.WINDOW_MODE_WINDOWED)
		DisplayServer.window_move_to_foreground()
		for i in FOREGROUND_FRAMES:
			await viewport.get_tree().process_frame
		if not DisplayServer.window_can_draw():
			return _minimized("The game window still cannot draw after restoring it",
				"Bring the game window to the front by hand and retry.")
		remediation.append("foregrounded_game")
	var image := viewport.get_texture().get_image() if viewport != null else null
	if image == null or image.is_empty():
		return ToolkitError.fail("INTERNAL", "The game's viewport returned no image")
	return shaped(image, chosen, remediation)


## The reply for a captured `image` (split out so a generated Image can be run through it).
static func shaped(image: Image, chosen: Dictionary, remediation: PackedStringArray) -> Dictionary:
	var mode: String = chosen["mode"]
	var saved := {}
	if mode != "inline":
		var written := _save(image, chosen["save_path"])
		if not written["ok"]:
			return written["error"]
		saved = written
	var inline := {}
	if mode != "disk":
		var small := ScreenshotResponse.scaled(image, chosen["detail"])
		inline = {"png": small.save_png_to_buffer(), "width": small.get_width(), "height": small.get_height()}
	return ToolkitSuccess.ok(ScreenshotResponse.shape(mode, chosen["detail"], image.get_size(), inline, saved,
		remediation))


static func _save(image: Image, path: String) -> Dictionary:
	var folder := path.get_base_dir()
	var made := ProjectWrites.make_dir(ProjectSettings.globalize_path(folder))
	if made != OK:
		return {"ok": false, "error": ToolkitError.fail("INTERNAL", "Cannot create %s (%s)" % [folder, error_string(made)])}
	var error := ProjectWrites.write_png(image, path)
	if error != OK:
		return {"ok": false, "error": ToolkitError.fail("INTERNAL", "Cannot write %s (%s)" % [path, error_string(error)])}
	var file := FileAccess.open(path, FileAccess.READ)
	var size := file.get_length() if file != null else 0
	return {"ok": true, "path": ProjectSettings.globalize_path(path), "bytes": size,
		"width": image.get_width(), "height": image.get_height()}


static func _minimized(message: String, hint: String) -> Dictionary:
	return ToolkitError.fail("RUNTIME_WINDOW_MINIMIZED", message, hint)
