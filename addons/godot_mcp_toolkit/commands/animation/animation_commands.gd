@tool
extends RefCounted
## Animation authoring in the edited scene: animation.keyframe / animation.get_keys on the
## Animation resources in an AnimationPlayer's libraries (value tracks), and animationtree.edit /
## animationtree.list (commands/animation/animation_tree.gd). Every change is one undoable action
## recorded against the player or tree, so Ctrl+Z in the editor takes it back. Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const Coerce := preload("res://addons/godot_mcp_toolkit/contract/coerce.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")
const PropertyAccess := preload("res://addons/godot_mcp_toolkit/scene_tree/property_access.gd")
const AnimationTreeEdit := preload("res://addons/godot_mcp_toolkit/commands/animation/animation_tree.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/animation/animation_commands.gd"
const ACTIONS := ["add", "remove"]
const TRACK_TYPES := {"value": Animation.TYPE_VALUE}


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("animation.keyframe", Callable(script, "_cmd_keyframe").bind(context),
		registry.create_options())
	registry.register_command("animation.get_keys", Callable(script, "_cmd_get_keys").bind(context),
		registry.create_options()
		.read_only())
	AnimationTreeEdit.register(registry, context)


static func _cmd_keyframe(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["action", "player_path", "animation_name", "track_path", "time"])
	if not missing.is_empty():
		return missing
	var action: Variant = params["action"]
	if not (action is String and action in ACTIONS):
		return ToolkitError.fail("INVALID_PARAMS", "action must be add or remove")
	var track_type: Variant = params.get("track_type", "value")
	if not (track_type is String and TRACK_TYPES.has(track_type)):
		return ToolkitError.fail("INVALID_PARAMS", "track_type must be value (the only track type supported)")
	var time: Variant = params["time"]
	if not Params.is_number(time) or float(time) < 0.0:
		return ToolkitError.fail("INVALID_PARAMS", "time must be a number of seconds from 0")
	if action == "add" and not params.has("value"):
		return ToolkitError.fail("INVALID_PARAMS", "value is required to add a key")
	var found := _animation(params, context)
	if not found["ok"]:
		return found["error"]
	var animation: Animation = found["animation"]
	var track_path := NodePath(str(params["track_path"]))
	var track := animation.find_track(track_path, Animation.TYPE_VALUE)
	var summary := {"action": action, "player_path": found["player_path"], "animation_name": params["animation_name"],
		"track_path": str(track_path), "time": float(time)}
	if action == "remove":
		return _remove_key(animation, track, float(time), summary, found["player"], context)
	var value := _track_value(found["player"], track_path, params["value"])
	if not value["ok"]:
		return value["error"]
	return _add_key(animation, track, float(time), value["value"], summary, found["player"], context)


static func _add_key(animation: Animation, track: int, time: float, value: Variant, summary: Dictionary,
		player: Node, context: RefCounted) -> Dictionary:
	var undo: RefCounted = context.edits.create_undo_action("MCP: add key %s @ %s" % [summary["track_path"], time], player)
	var created_track := track < 0
	if created_track:
		track = animation.get_track_count()
		undo.add_do_method(animation, &"add_track", [Animation.TYPE_VALUE])
		undo.add_do_method(animation, &"track_set_path", [track, NodePath(summary["track_path"])])
		undo.add_undo_method(animation, &"remove_track", [track])
	var key := -1 if created_track else animation.track_find_key(track, time, Animation.FIND_MODE_APPROX)
	if key >= 0:
		undo.add_do_method(animation, &"track_set_key_value", [track, key, value])
		undo.add_undo_method(animation, &"track_set_key_value", [track, key, animation.track_get_key_value(track, key)])
	else:
		undo.add_do_method(animation, &"track_insert_key", [track, time, value])
		if not created_track:
			undo.add_undo_method(animation, &"track_remove_key_at_time", [track, time])
	var old_length := animation.length
	if time > old_length:
		# A key past the end would never play: the animation grows to reach it.
		undo.add_do_property(animation, &"length", time)
		undo.add_undo_property(animation, &"length", old_length)
		summary["length_extended_to"] = time
	undo.commit()
	context.scenes.mark_modified()
	summary["status"] = "replaced" if key >= 0 else "created"
	summary["track_created"] = created_track
	summary["track_index"] = track
	summary["value"] = Coerce.serialize_value(value)
	summary["key_count"] = animation.track_get_key_count(track)
	return ToolkitSuccess.ok(summary)


static func _remove_key(animation: Animation, track: int, time: float, summary: Dictionary, player: Node,
		context: RefCounted) -> Dictionary:
	if track < 0:
		return ToolkitError.fail("NOT_FOUND", "No value track %s in animation %s" % [summary["track_path"],
			summary["animation_name"]], "animation_get_keys lists a track's keys.")
	var key := animation.track_find_key(track, time, Animation.FIND_MODE_APPROX)
	if key < 0:
		return ToolkitError.fail("NOT_FOUND", "No key at %s s on %s" % [time, summary["track_path"]],
			"animation_get_keys lists the key times.")
	var old_value: Variant = animation.track_get_key_value(track, key)
	var label := "MCP: remove key %s @ %s" % [summary["track_path"], time]
	var undo: RefCounted = context.edits.create_undo_action(label, player)
	undo.add_do_method(animation, &"track_remove_key", [track, key])
	undo.add_undo_method(animation, &"track_insert_key", [track, animation.track_get_key_time(track, key), old_value,
		animation.track_get_key_transition(track, key)])
	undo.commit()
	context.scenes.mark_modified()
	summary["status"] = "removed"
	summary["track_index"] = track
	summary["value"] = Coerce.serialize_value(old_value)
	summary["key_count"] = animation.track_get_key_count(track)
	return ToolkitSuccess.ok(summary)


static func _cmd_get_keys(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["player_path", "animation_name", "track_path"])
	if not missing.is_empty():
		return missing
	var found := _animation(params, context)
	if not found["ok"]:
		return found["error"]
	var animation: Animation = found["animation"]
	var track_path := str(params["track_path"])
	var track := animation.find_track(NodePath(track_path), Animation.TYPE_VALUE)
	if track < 0:
		return ToolkitError.fail("NOT_FOUND", "No value track %s in animation %s" % [track_path,
			params["animation_name"]], "Tracks: %s" % ", ".join(_track_paths(animation)))
	var keys: Array[Dictionary] = []
	for key in animation.track_get_key_count(track):
		keys.append({"time": animation.track_get_key_time(track, key),
			"value": Coerce.serialize_value(animation.track_get_key_value(track, key)),
			"transition": animation.track_get_key_transition(track, key)})
	return ToolkitSuccess.ok({"player_path": found["player_path"], "animation_name": params["animation_name"],
		"track_path": track_path, "track_type": "value", "length": animation.length, "keys": keys,
		"count": keys.size()})


## {"ok", "player", "player_path", "animation"} for player_path + animation_name, or the error.
static func _animation(params: Dictionary, context: RefCounted) -> Dictionary:
	for key: String in ["player_path", "animation_name", "track_path"]:
		if not params[key] is String or (params[key] as String).is_empty():
			return _refuse("INVALID_PARAMS", "%s must be a non-empty string" % key)
	var root: Node = context.scenes.scene_root()
	var found := NodeLookup.find(root, params["player_path"])
	if not found["ok"]:
		return found
	var player := found["node"] as AnimationPlayer
	if player == null:
		return _refuse("INVALID_CLASS", "%s is a %s, not an AnimationPlayer" % [params["player_path"],
			(found["node"] as Node).get_class()])
	var name := StringName(params["animation_name"])
	if not player.has_animation(name):
		return {"ok": false, "error": ToolkitError.fail("NOT_FOUND", "%s has no animation %s" % [
			params["player_path"], name], "Its animations: %s" % ", ".join(player.get_animation_list()))}
	return {"ok": true, "player": player, "player_path": NodeLookup.path_of(root, player),
		"animation": player.get_animation(name)}


## The key value for the property the track animates, coerced from its JSON form and checked
## against the property's type (an int is accepted for a float).
static func _track_value(player: AnimationPlayer, track_path: NodePath, raw: Variant) -> Dictionary:
	var base := player.get_node_or_null(player.root_node)
	var target := base.get_node_or_null(NodePath(str(track_path).get_slice(":", 0))) if base != null else null
	if target == null:
		return _refuse("NOT_FOUND", ("The track's node %s is not in the scene (paths are relative to the player's "
			+ "root_node)") % str(track_path).get_slice(":", 0))
	var property := track_path.get_concatenated_subnames()
	if property.is_empty():
		return _refuse("INVALID_PARAMS", "track_path names no property: it is node:property, e.g. Sprite:position",
			"Add the property after a colon, e.g. %s:position." % str(track_path))
	var resolved := PropertyAccess.resolve(target, property)
	if resolved.has("error"):
		return _refuse("PROPERTY_NOT_FOUND", "%s; track_path is node:property, e.g. Sprite:position" % resolved["error"],
			resolved["hint"])
	var entry: Dictionary = resolved["entry"]
	var value: Variant = Coerce.coerce_value(raw)
	var problem := Coerce.error_of(value)
	if not problem.is_empty():
		return _refuse("INVALID_VALUE", problem, PropertyAccess.value_hint(entry))
	var wanted: int = entry["type"]
	if wanted == TYPE_FLOAT and value is int:
		value = float(value)
	if wanted != TYPE_NIL and typeof(value) != wanted:
		return _refuse("INVALID_VALUE", "%s.%s is a %s; value is a %s" % [target.name, property,
			type_string(wanted), type_string(typeof(value))], PropertyAccess.value_hint(entry))
	return {"ok": true, "value": value}


static func _track_paths(animation: Animation) -> PackedStringArray:
	var paths := PackedStringArray()
	for track in animation.get_track_count():
		paths.append(str(animation.track_get_path(track)))
	return paths


static func _refuse(code: String, message: String, hint: String = "") -> Dictionary:
	return {"ok": false, "error": ToolkitError.fail(code, message, hint)}
