@tool
extends RefCounted
## animation_player.control in the running game (Mode B, registered through
## runtime/runtime_domains.gd): play, pause, stop or seek an AnimationPlayer of the game's current
## scene. The result reports the player's state after the operation, read back from the engine.
## RUNTIME-REACHABLE: nothing here may name an Editor* class.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/animation/animation_player_commands.gd"
const OPERATIONS := ["play", "pause", "stop", "seek"]


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("animation_player.control", Callable(script, "_cmd_control").bind(context),
		registry.create_options())


static func _cmd_control(params: Dictionary, context: RefCounted) -> Dictionary:
	var checked := _checked(params)
	if checked.has("error"):
		return checked["error"]
	var root: Node = context.scenes.scene_root()
	var found := NodeLookup.find(root, params["node_path"])
	if not found["ok"]:
		return found["error"]
	var player := found["node"] as AnimationPlayer
	if player == null:
		return ToolkitError.fail("INVALID_PARAMS", "'%s' is a %s, not an AnimationPlayer" % [
			params["node_path"], (found["node"] as Node).get_class()],
			"Point node_path at the AnimationPlayer node itself.")
	var name: String = checked["animation_name"]
	if not name.is_empty() and not player.has_animation(name):
		return ToolkitError.fail("NOT_FOUND", "AnimationPlayer '%s' has no animation '%s'" % [player.name, name],
			"Its animations: %s." % ", ".join(player.get_animation_list()))
	var was_playing := player.is_playing()
	var applied := _apply(player, checked["operation"], name, checked["time"])
	if applied.has("error"):
		return applied["error"]
	var result := _state(player, _position_known(checked["operation"], was_playing, player))
	if checked["operation"] == "stop":
		# stop() rewinds to the start and drops the playback the position would be read from.
		result["position"] = 0.0
	if checked["operation"] == "pause" and not was_playing:
		result["hint"] = "The player was not playing; nothing changed."
	result["node_path"] = NodeLookup.path_of(root, player)
	result["operation"] = checked["operation"]
	return ToolkitSuccess.ok(result)


## {"operation", "animation_name" ("" = none given), "time" (-1 = none given)} or {"error"}.
static func _checked(params: Dictionary) -> Dictionary:
	var path: Variant = params.get("node_path")
	if not path is String or (path as String).is_empty():
		return _bad("node_path is required: the AnimationPlayer's path in the running scene")
	var operation: Variant = params.get("operation", "play")
	if not (operation is String and operation in OPERATIONS):
		return _bad("operation must be one of %s" % ", ".join(PackedStringArray(OPERATIONS)))
	var name: Variant = params.get("animation_name", "")
	if not name is String:
		return _bad("animation_name must be a string")
	var time: Variant = params.get("time")
	if time != null and not (Params.is_number(time) and float(time) >= 0.0):
		return _bad("time must be a number of seconds, 0 or more")
	if operation == "seek" and time == null:
		return _bad("seek needs time (seconds from the start of the animation)")
	return {"operation": operation, "animation_name": name, "time": -1.0 if time == null else float(time)}


## Runs the operation; {} or {"error": envelope} when the player cannot do it.
static func _apply(player: AnimationPlayer, operation: String, name: String, time: float) -> Dictionary:
	match operation:
		"play":
			var chosen := name if not name.is_empty() else _default_animation(player)
			if chosen.is_empty():
				return {"error": ToolkitError.fail("INVALID_STATE", "No animation to play: none named, assigned or autoplayed",
					"Pass animation_name; its animations: %s." % ", ".join(player.get_animation_list()))}
			player.play(chosen)
			if time >= 0.0:
				player.seek(minf(time, player.get_animation(chosen).length), true)
		"pause":
			player.pause()
		"stop":
			player.stop()
		"seek":
			var target := name if not name.is_empty() else String(player.assigned_animation)
			if target.is_empty():
				return {"error": ToolkitError.fail("INVALID_STATE", "Nothing to seek: no animation is assigned",
					"Pass animation_name, or play one first.")}
			if target != String(player.assigned_animation):
				player.assigned_animation = target
			player.seek(minf(time, player.get_animation(target).length), true)
	return {}


static func _default_animation(player: AnimationPlayer) -> String:
	if not String(player.assigned_animation).is_empty():
		return String(player.assigned_animation)
	return String(player.autoplay)


## Whether the engine holds a playback position to read: it errors when asked after a stop (or
## for a player never played), and the API offers no way to ask first.
static func _position_known(operation: String, was_playing: bool, player: AnimationPlayer) -> bool:
	return player.is_playing() or operation in ["play", "seek"] or (operation == "pause" and was_playing)


## What the player is doing now: the animation it holds, whether it plays, where (0 after a stop,
## null when the engine cannot say), and how long.
static func _state(player: AnimationPlayer, position_known: bool) -> Dictionary:
	var name := String(player.assigned_animation)
	var has := not name.is_empty() and player.has_animation(name)
	var position: Variant = null
	if has and position_known:
		position = player.current_animation_position
	return {
		"animation": name,
		"playing": player.is_playing(),
		"position": position,
		"length": player.get_animation(name).length if has else 0.0,
		"speed_scale": player.speed_scale,
		"animations": Array(player.get_animation_list()),
	}


static func _bad(message: String) -> Dictionary:
	return {"error": ToolkitError.fail("INVALID_PARAMS", message)}
