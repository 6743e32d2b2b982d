@tool
extends RefCounted
## The spriteframes domain: build SpriteFrames .tres files from textures or a grid spritesheet,
## and edit them (animations, frames, fps, loop, order). Every write is one undo step over the
## file (files/resource_file.gd); a request is checked whole before anything is
## written. Frames are built by commands/spriteframes/frame_builder.gd. Runtime-safe.
##
## The catalogue's schemas carry no if_exists: a create over an existing file replaces it (said in
## `status: replaced`; undo brings the old file back). if_exists is still honoured when sent.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const Idempotency := preload("res://addons/godot_mcp_toolkit/contract/idempotency.gd")
const ResourceFile := preload("res://addons/godot_mcp_toolkit/files/resource_file.gd")
const FrameBuilder := preload("res://addons/godot_mcp_toolkit/commands/spriteframes/frame_builder.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/spriteframes/spriteframes_commands.gd"
const ACTIONS := ["add_animation", "remove_animation", "add_frame", "remove_frame", "set_fps", "set_loop",
	"reorder_frames", "list"]
const MAKER := "spriteframes_create"


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	var anything := {"type": "array", "items": {"type": "object"}}
	registry.register_command("spriteframes.create", Callable(script, "_cmd_create").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["file_path", "animations"], "properties": {
			"file_path": {"type": "string"}, "animations": anything}})
		.scene_independent())
	registry.register_command("spriteframes.edit", Callable(script, "_cmd_edit").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["file_path", "action"], "properties": {
			"file_path": {"type": "string"}, "action": {"type": "string", "enum": ACTIONS},
			"animation_name": {"type": "string"}, "fps": {"type": "number"}, "loop": {"type": "boolean"},
			"frames": anything, "frame_index": {"type": "integer"}, "new_index": {"type": "integer"}}})
		.scene_independent())
	registry.register_command("spriteframes.from_spritesheet", Callable(script, "_cmd_from_spritesheet").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["file_path", "texture_path", "frame_size", "animations"],
			"properties": {"file_path": {"type": "string"}, "texture_path": {"type": "string"},
				"frame_size": {"type": "object"}, "animations": anything}})
		.scene_independent())


# --- creates ---------------------------------------------------------------------------------------

static func _cmd_create(params: Dictionary, context: RefCounted) -> Dictionary:
	var target := _new_target(params)
	if target.has("error"):
		return target["error"]
	var animations: Variant = params.get("animations")
	if not animations is Array or (animations as Array).is_empty():
		return ToolkitError.fail("INVALID_PARAMS", "animations must be a non-empty array",
			"[{name, fps, loop, frames: [{texture_path, atlas?, duration?}]}]")
	var specs: Array = []
	for index: int in (animations as Array).size():
		var spec := FrameBuilder.animation(animations[index], "animations[%d]" % index)
		if spec.has("error"):
			return spec["error"]
		specs.append(spec)
	return _write_new(target, specs, "Create SpriteFrames", context)


static func _cmd_from_spritesheet(params: Dictionary, context: RefCounted) -> Dictionary:
	var target := _new_target(params)
	if target.has("error"):
		return target["error"]
	var sheet := ResourceFile.load_texture(params.get("texture_path"), "texture_path")
	if sheet.has("error"):
		return sheet["error"]
	var size: Variant = params.get("frame_size")
	if size is Dictionary:
		var unknown := Params.reject_unknown_keys(size, ["x", "y", "type"], "frame_size")
		if not unknown.is_empty():
			return unknown
	if not size is Dictionary or not Params.is_whole_number(size.get("x")) or not Params.is_whole_number(size.get("y")) \
			or int(size["x"]) <= 0 or int(size["y"]) <= 0:
		return ToolkitError.fail("INVALID_PARAMS", "frame_size must be {x, y} with whole numbers above 0")
	var animations: Variant = params.get("animations")
	if not animations is Array or (animations as Array).is_empty():
		return ToolkitError.fail("INVALID_PARAMS", "animations must be a non-empty array",
			"[{name, row, start_col, frame_count, fps, loop}]")
	var frame_size := Vector2i(int(size["x"]), int(size["y"]))
	var specs: Array = []
	for index: int in (animations as Array).size():
		var spec := FrameBuilder.grid_animation(animations[index], "animations[%d]" % index, sheet["texture"], frame_size)
		if spec.has("error"):
			return spec["error"]
		specs.append(spec)
	var result := _write_new(target, specs, "SpriteFrames from spritesheet", context)
	if result.get("success", false) and result["status"] != Idempotency.STATUS_RETURNED:
		var texture: Texture2D = sheet["texture"]
		result["grid"] = {"columns": texture.get_width() / frame_size.x, "rows": texture.get_height() / frame_size.y}
	return result


## {"path", "mode", "exists"} for a create, or {"error"}.
static func _new_target(params: Dictionary) -> Dictionary:
	var checked := ResourceFile.check_new_path(params.get("file_path"))
	if checked.has("error"):
		return checked
	var mode := Idempotency.read_mode({"if_exists": params.get("if_exists", Idempotency.IF_EXISTS_REPLACE)})
	if not mode["ok"]:
		return {"error": mode["error"]}
	checked["mode"] = mode["mode"]
	checked["exists"] = FileAccess.file_exists(checked["path"])
	return checked


static func _write_new(target: Dictionary, specs: Array, description: String, context: RefCounted) -> Dictionary:
	var path: String = target["path"]
	match Idempotency.decide(target["mode"], target["exists"]):
		Idempotency.ACTION_FAIL:
			return Idempotency.already_exists(path)
		Idempotency.ACTION_RETURN:
			var existing := ResourceFile.load_copy(path, "SpriteFrames", MAKER)
			if existing.has("error"):
				return existing["error"]
			return ToolkitSuccess.ok({"status": Idempotency.STATUS_RETURNED, "path": path,
				"animations": FrameBuilder.summary(existing["resource"]),
				"warnings": ["Not applied, the file already exists: animations. Pass if_exists:'replace' to rebuild it."]})
	var frames := SpriteFrames.new()
	var names := PackedStringArray()
	for spec: Dictionary in specs:
		names.append(spec["name"])
	if not "default" in names:
		frames.remove_animation(&"default")
	for spec: Dictionary in specs:
		FrameBuilder.apply_animation(frames, spec)
	var saved := ResourceFile.save(frames, path, description, context)
	if saved.has("error"):
		return saved["error"]
	var status := Idempotency.STATUS_REPLACED if target["exists"] else Idempotency.STATUS_CREATED
	return ToolkitSuccess.ok({"status": status, "path": path, "animations": FrameBuilder.summary(frames)})


# --- edit ------------------------------------------------------------------------------------------

static func _cmd_edit(params: Dictionary, context: RefCounted) -> Dictionary:
	var action: Variant = params.get("action")
	if not action is String or not action in ACTIONS:
		return ToolkitError.fail("INVALID_PARAMS", "action must be one of %s" % ", ".join(PackedStringArray(ACTIONS)))
	var loaded := ResourceFile.load_copy(params.get("file_path"), "SpriteFrames", MAKER)
	if loaded.has("error"):
		return loaded["error"]
	var frames: SpriteFrames = loaded["resource"]
	var path: String = loaded["path"]
	if action == "list":
		return ToolkitSuccess.ok({"path": path, "animations": FrameBuilder.summary(frames, true)})
	var name: Variant = params.get("animation_name")
	if not name is String or (name as String).is_empty():
		return ToolkitError.fail("INVALID_PARAMS", "%s needs animation_name" % action)
	var request := {
		"fps": params.get("fps"), "loop": params.get("loop"), "frames": params.get("frames"),
		"frame_index": params.get("frame_index"), "new_index": params.get("new_index"),
	}
	var changed := FrameBuilder.edit(frames, action, name, request)
	if changed.has("error"):
		return changed["error"]
	var saved := ResourceFile.save(frames, path, "SpriteFrames %s %s" % [action, name], context)
	if saved.has("error"):
		return saved["error"]
	var result := {"path": path, "action": action, "animation_name": name}
	result.merge(changed)
	if frames.has_animation(name):
		result["animation"] = FrameBuilder.describe(frames, name, false)
	return ToolkitSuccess.ok(result)
