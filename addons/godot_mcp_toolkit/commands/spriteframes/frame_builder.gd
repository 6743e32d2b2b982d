@tool
extends RefCounted
## SpriteFrames building blocks for commands/spriteframes/spriteframes_commands.gd: animation requests checked
## into specs (textures loaded, atlas regions inside their texture), specs applied to a
## SpriteFrames, the edit actions, and summaries. Checking never touches a SpriteFrames, so a bad
## request changes nothing. Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const ResourceFile := preload("res://addons/godot_mcp_toolkit/files/resource_file.gd")

const DEFAULT_FPS := 5.0


## {"name", "fps", "loop", "frames": [[Texture2D, duration]]} or {"error"}.
static func animation(value: Variant, label: String) -> Dictionary:
	var head := _head(value, label, ["frames"])
	if head.has("error"):
		return head
	var frames: Variant = (value as Dictionary).get("frames")
	if not frames is Array:
		return _bad("%s.frames must be an array of {texture_path, atlas?, duration?}" % label)
	var built := frame_list(frames, "%s.frames" % label)
	if built.has("error"):
		return built
	head["frames"] = built["frames"]
	return head


## The same spec, cut from a grid sheet: frame_count cells from (row, start_col), wrapping to the
## next rows.
static func grid_animation(value: Variant, label: String, sheet: Texture2D, size: Vector2i) -> Dictionary:
	var head := _head(value, label, ["row", "start_col", "frame_count"])
	if head.has("error"):
		return head
	var entry: Dictionary = value
	for key: String in ["row", "start_col", "frame_count"]:
		if entry.has(key) and (not Params.is_whole_number(entry[key]) or int(entry[key]) < 0):
			return _bad("%s.%s must be a whole number, 0 or more" % [label, key])
	if not entry.has("frame_count") or int(entry["frame_count"]) < 1:
		return _bad("%s needs frame_count (1 or more)" % label)
	var columns := sheet.get_width() / size.x
	var rows := sheet.get_height() / size.y
	var first := int(entry.get("row", 0)) * columns + int(entry.get("start_col", 0))
	var last := first + int(entry["frame_count"]) - 1
	if columns == 0 or rows == 0 or int(entry.get("start_col", 0)) >= columns or last >= columns * rows:
		return {"error": ToolkitError.fail("INVALID_PARAMS",
			"%s runs past the sheet: it is %d columns x %d rows of %dx%d" % [label, columns, rows, size.x, size.y],
			"Check row, start_col and frame_count against the grid (counted from 0).")}
	var frames: Array = []
	for cell: int in range(first, last + 1):
		var atlas := AtlasTexture.new()
		atlas.atlas = sheet
		atlas.region = Rect2(Vector2((cell % columns) * size.x, (cell / columns) * size.y), Vector2(size))
		frames.append([atlas, 1.0])
	head["frames"] = frames
	return head


## {"frames": [[Texture2D, duration]]} or {"error"} for [{texture_path, atlas?, duration?}].
static func frame_list(frames: Array, label: String) -> Dictionary:
	var built: Array = []
	for index: int in frames.size():
		var at := "%s[%d]" % [label, index]
		var frame: Variant = frames[index]
		if not frame is Dictionary:
			return _bad("%s must be an object {texture_path, atlas?, duration?}" % at)
		var unknown := Params.reject_unknown_keys(frame, ["texture_path", "atlas", "duration"], at)
		if not unknown.is_empty():
			return {"error": unknown}
		var loaded := ResourceFile.load_texture(frame.get("texture_path"), "%s.texture_path" % at)
		if loaded.has("error"):
			return loaded
		var duration: Variant = frame.get("duration", 1.0)
		if not Params.is_number(duration) or float(duration) <= 0.0:
			return _bad("%s.duration must be a number above 0" % at)
		var texture: Texture2D = loaded["texture"]
		if frame.has("atlas"):
			var cut := _atlas(frame["atlas"], "%s.atlas" % at, texture)
			if cut.has("error"):
				return cut
			texture = cut["texture"]
		built.append([texture, float(duration)])
	return {"frames": built}


static func apply_animation(frames: SpriteFrames, spec: Dictionary) -> void:
	var name: StringName = spec["name"]
	if not frames.has_animation(name):
		frames.add_animation(name)
	frames.clear(name)
	frames.set_animation_speed(name, spec["fps"])
	frames.set_animation_loop(name, spec["loop"])
	for pair: Array in spec["frames"]:
		frames.add_frame(name, pair[0], pair[1])


## Applies one edit action to `frames` (already loaded); {} plus what changed, or {"error"} with
## `frames` untouched.
static func edit(frames: SpriteFrames, action: String, name: String, request: Dictionary) -> Dictionary:
	var exists := frames.has_animation(name)
	if action == "add_animation":
		if exists:
			return {"error": ToolkitError.fail("INVALID_PARAMS", "Animation '%s' already exists" % name,
				"Edit it with add_frame/set_fps/set_loop, or remove it first.")}
		var spec := animation({"name": name, "fps": request["fps"] if request["fps"] != null else DEFAULT_FPS,
			"loop": request["loop"] if request["loop"] != null else true,
			"frames": request["frames"] if request["frames"] != null else []}, "animation")
		if spec.has("error"):
			return spec
		apply_animation(frames, spec)
		return {"frames_added": (spec["frames"] as Array).size()}
	if not exists:
		return {"error": ToolkitError.fail("NOT_FOUND", "No animation '%s'" % name,
			"Its animations: %s." % ", ".join(frames.get_animation_names()))}
	match action:
		"remove_animation":
			frames.remove_animation(name)
			return {"removed": true}
		"set_fps":
			if not Params.is_number(request["fps"]) or float(request["fps"]) < 0.0:
				return _bad("set_fps needs fps, a number 0 or more")
			frames.set_animation_speed(name, float(request["fps"]))
			return {}
		"set_loop":
			if not request["loop"] is bool:
				return _bad("set_loop needs loop: true or false")
			frames.set_animation_loop(name, request["loop"])
			return {}
		"add_frame":
			return _add_frames(frames, name, request)
		"remove_frame":
			var index := _index(request["frame_index"], "frame_index", frames.get_frame_count(name))
			if index.has("error"):
				return index
			frames.remove_frame(name, index["value"])
			return {"removed_index": index["value"]}
	return _reorder(frames, name, request)


static func _add_frames(frames: SpriteFrames, name: String, request: Dictionary) -> Dictionary:
	if not request["frames"] is Array or (request["frames"] as Array).is_empty():
		return _bad("add_frame needs frames: [{texture_path, atlas?, duration?}]")
	var built := frame_list(request["frames"], "frames")
	if built.has("error"):
		return built
	var at := frames.get_frame_count(name)
	if request["frame_index"] != null:
		var index := _index(request["frame_index"], "frame_index", at + 1)
		if index.has("error"):
			return index
		at = index["value"]
	for offset: int in (built["frames"] as Array).size():
		var pair: Array = built["frames"][offset]
		frames.add_frame(name, pair[0], pair[1], at + offset)
	return {"frames_added": (built["frames"] as Array).size(), "inserted_at": at}


static func _reorder(frames: SpriteFrames, name: String, request: Dictionary) -> Dictionary:
	var count := frames.get_frame_count(name)
	var from := _index(request["frame_index"], "frame_index", count)
	if from.has("error"):
		return from
	var to := _index(request["new_index"], "new_index", count)
	if to.has("error"):
		return to
	var texture := frames.get_frame_texture(name, from["value"])
	var duration := frames.get_frame_duration(name, from["value"])
	frames.remove_frame(name, from["value"])
	frames.add_frame(name, texture, duration, to["value"])
	return {"moved": {"from": from["value"], "to": to["value"]}}


## {"value"} for a whole number in [0, limit) or {"error"}.
static func _index(value: Variant, key: String, limit: int) -> Dictionary:
	if not Params.is_whole_number(value) or int(value) < 0 or int(value) >= limit:
		return _bad("%s must be a whole number from 0 to %d" % [key, limit - 1])
	return {"value": int(value)}


## Every animation's name, fps, loop and frame count (plus the frames' textures when `detailed`).
static func summary(frames: SpriteFrames, detailed: bool = false) -> Array:
	var list: Array = []
	var names := frames.get_animation_names()
	names.sort()
	for name: String in names:
		list.append(describe(frames, name, detailed))
	return list


static func describe(frames: SpriteFrames, name: String, detailed: bool) -> Dictionary:
	var entry := {"name": name, "fps": frames.get_animation_speed(name), "loop": frames.get_animation_loop(name),
		"frame_count": frames.get_frame_count(name)}
	if detailed:
		var list: Array = []
		for index: int in frames.get_frame_count(name):
			list.append(_frame_info(frames.get_frame_texture(name, index), frames.get_frame_duration(name, index)))
		entry["frames"] = list
	return entry


static func _frame_info(texture: Texture2D, duration: float) -> Dictionary:
	var info := {"duration": duration}
	if texture is AtlasTexture and (texture as AtlasTexture).atlas != null:
		var region := (texture as AtlasTexture).region
		info["texture_path"] = (texture as AtlasTexture).atlas.resource_path
		info["atlas"] = {"x": int(region.position.x), "y": int(region.position.y),
			"width": int(region.size.x), "height": int(region.size.y)}
	elif texture != null:
		info["texture_path"] = texture.resource_path
	return info


## {"name", "fps", "loop"} from an animation entry (which may also hold `more` keys), or {"error"}.
static func _head(value: Variant, label: String, more: Array) -> Dictionary:
	if not value is Dictionary:
		return _bad("%s must be an object" % label)
	var entry: Dictionary = value
	var unknown := Params.reject_unknown_keys(entry, ["name", "fps", "loop"] + more, label)
	if not unknown.is_empty():
		return {"error": unknown}
	var name: Variant = entry.get("name")
	if not name is String or (name as String).is_empty():
		return _bad("%s.name must be a non-empty string" % label)
	var fps: Variant = entry.get("fps", DEFAULT_FPS)
	if not Params.is_number(fps) or float(fps) < 0.0:
		return _bad("%s.fps must be a number, 0 or more" % label)
	var loop: Variant = entry.get("loop", true)
	if not loop is bool:
		return _bad("%s.loop must be true or false" % label)
	return {"name": name, "fps": float(fps), "loop": loop}


## {"texture": AtlasTexture} for {x, y, width, height} inside `texture`, or {"error"}.
static func _atlas(value: Variant, label: String, texture: Texture2D) -> Dictionary:
	if not value is Dictionary:
		return _bad("%s must be {x, y, width, height}" % label)
	var unknown := Params.reject_unknown_keys(value, ["x", "y", "width", "height"], label)
	if not unknown.is_empty():
		return {"error": unknown}
	for key: String in ["x", "y", "width", "height"]:
		if not Params.is_whole_number(value.get(key)):
			return _bad("%s.%s must be a whole number" % [label, key])
	var region := Rect2i(int(value["x"]), int(value["y"]), int(value["width"]), int(value["height"]))
	if region.size.x <= 0 or region.size.y <= 0 or not Rect2i(Vector2i.ZERO, texture.get_size()).encloses(region):
		return _bad("%s %s is not inside the %dx%d texture" % [label, region, texture.get_width(), texture.get_height()])
	var atlas := AtlasTexture.new()
	atlas.atlas = texture
	atlas.region = Rect2(region)
	return {"texture": atlas}


static func _bad(message: String) -> Dictionary:
	return {"error": ToolkitError.fail("INVALID_PARAMS", message)}
