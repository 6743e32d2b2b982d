extends RefCounted
## animation_player.control (commands/animation/animation_player_commands.gd) registered through
## runtime/runtime_domains.gd over a runtime context whose scene is a throwaway "Game" with a
## Sprite (Node2D) and an AnimationPlayer holding "move" (Sprite:position from (0,0) to (100,0) over
## 2 s) and "blink". Asserted on the engine: a seek moves the sprite, play/pause/stop change what the
## player reports. Nothing is undoable at runtime (the game is not a saved scene). Not covered
## here: playback advancing over real frames (the runner's frames do not run during a test).

const Assert := preload("assert.gd")
const ResultExamples := preload("result_examples.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const RuntimeContext := preload("res://addons/godot_mcp_toolkit/context/runtime_context.gd")
const RuntimeDomains := preload("res://addons/godot_mcp_toolkit/runtime/runtime_domains.gd")

var _root: Node = null
var _sprite: Node2D = null
var _player: AnimationPlayer = null
var _context: RuntimeContext = null
var _registry := CommandRegistry.new()


func _init() -> void:
	_root = Node.new()
	_root.name = "Game"
	_sprite = Node2D.new()
	_sprite.name = "Sprite"
	_root.add_child(_sprite)
	_player = AnimationPlayer.new()
	_player.name = "Anim"
	_root.add_child(_player)
	var library := AnimationLibrary.new()
	library.add_animation("move", _track("Sprite:position", Vector2.ZERO, Vector2(100, 0), 2.0))
	library.add_animation("blink", _track("Sprite:visible", true, false, 0.5))
	_player.add_animation_library("", library)
	(Engine.get_main_loop() as SceneTree).root.add_child(_root)
	_context = RuntimeContext.new(_root)
	_registry.configure("4.6.0", _context)
	RuntimeDomains.register_all(_registry, _context)


func cleanup() -> void:
	_registry.clear()
	_root.free()


func test_play_then_seek_moves_the_sprite() -> void:
	var played := _call(ResultExamples.params("animation_player", "animation_player.control", 0))
	ResultExamples.check("animation_player", "animation_player.control", played, 0)
	Assert.is_true(_player.is_playing(), "the engine plays it")
	var sought := _call(ResultExamples.params("animation_player", "animation_player.control", 1))
	ResultExamples.check("animation_player", "animation_player.control", sought, 1)
	Assert.eq(_sprite.position, Vector2(50, 0), "halfway through move, the sprite is halfway")
	Assert.eq(sought["position"], 1.0, "the reported position is the engine's")
	var late := _call({"node_path": "Anim", "operation": "seek", "time": 9.0})
	Assert.eq([late["position"], _sprite.position], [2.0, Vector2(100, 0)], "a seek past the end stops at the end")


func test_pause_and_stop_report_the_state() -> void:
	_call({"node_path": "Anim", "operation": "play", "animation_name": "move", "time": 0.5})
	Assert.eq(_sprite.position, Vector2(25, 0), "play with time starts there")
	var paused := _call(ResultExamples.params("animation_player", "animation_player.control", 2))
	ResultExamples.check("animation_player", "animation_player.control", paused, 2)
	Assert.is_false(_player.is_playing(), "paused in the engine")
	var resumed := _call({"node_path": "Anim", "operation": "play"})
	Assert.eq([resumed["animation"], resumed["playing"], resumed["position"]], ["move", true, 0.5],
		"play without a name resumes the paused animation where it was")
	var stopped := _call({"node_path": "Anim", "operation": "stop"})
	Assert.eq([stopped["playing"], stopped["position"]], [false, 0.0], "stopped, back at the start")
	Assert.is_false(_player.is_playing(), "stopped in the engine")
	var idle := _call({"node_path": "Anim", "operation": "pause"})
	Assert.eq([idle["playing"], idle["position"]], [false, null], "pausing a stopped player: no position to report")
	Assert.contains(idle["hint"], "was not playing", "and it says nothing changed")


func test_seek_another_animation_assigns_it() -> void:
	var sought := _call({"node_path": "Anim", "operation": "seek", "animation_name": "blink", "time": 0.5})
	Assert.eq([sought["animation"], sought["playing"]], ["blink", false], "assigned, not playing")
	Assert.is_false(_sprite.visible, "the blink track applied at its end")


func test_bad_input_changes_nothing() -> void:
	var cases := [
		[{"operation": "play"}, "INVALID_PARAMS"],
		[{"node_path": "Anim", "operation": "rewind"}, "INVALID_PARAMS"],
		[{"node_path": "Anim", "operation": "seek"}, "INVALID_PARAMS"],
		[{"node_path": "Anim", "operation": "seek", "time": -1}, "INVALID_PARAMS"],
		[{"node_path": "Anim", "operation": "play", "animation_name": 3}, "INVALID_PARAMS"],
		[{"node_path": "Sprite", "operation": "play"}, "INVALID_PARAMS"],
		[{"node_path": "Nope", "operation": "play"}, "NOT_FOUND"],
		[{"node_path": "Anim", "operation": "seek", "time": 1.0}, "INVALID_STATE"],
		[{"node_path": "Anim", "operation": "play"}, "INVALID_STATE"],
	]
	for case: Array in cases:
		Assert.eq(_call(case[0]).get("code"), case[1], JSON.stringify(case[0]))
	ResultExamples.check("animation_player", "animation_player.control",
		_call(ResultExamples.params("animation_player", "animation_player.control", 3)), 3)
	Assert.is_false(_player.is_playing(), "nothing started")
	Assert.eq([_sprite.position, String(_player.assigned_animation)], [Vector2.ZERO, ""], "nothing moved or assigned")


func _call(params: Dictionary) -> Dictionary:
	var handler: Callable = _registry.dispatch_info("animation_player.control")["handler"]
	return handler.callv([params])


static func _track(path: String, from: Variant, to: Variant, length: float) -> Animation:
	var animation := Animation.new()
	animation.length = length
	var track := animation.add_track(Animation.TYPE_VALUE)
	animation.track_set_path(track, NodePath(path))
	animation.track_insert_key(track, 0.0, from)
	animation.track_insert_key(track, length, to)
	return animation
