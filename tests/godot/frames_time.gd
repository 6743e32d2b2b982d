extends SceneTree
## The game_time commands over REAL engine frames (the runner's tests run inside one call, where
## no frame passes). Run as a main loop script: godot --script res://tests/godot/frames_time.gd;
## tests/engine/test_time_frames.py runs it in the engine and reads the verdict. Each scenario
## builds a "Game" scene with a Counter (counts its _process and _physics_process calls and sums
## their deltas, reads an action in both), registers the runtime domains over a runtime context
## and calls the time.* and input.simulate handlers as the in-game server would, awaiting real
## frames. Prints "PASS name" / "FAIL name" per scenario, the failures on stderr, and quits 0 only
## when every check held.

const Assert := preload("assert.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const RuntimeContext := preload("res://addons/godot_mcp_toolkit/context/runtime_context.gd")
const RuntimeDomains := preload("res://addons/godot_mcp_toolkit/runtime/runtime_domains.gd")
const TimeKeeper := preload("res://addons/godot_mcp_toolkit/commands/game_time/time_keeper.gd")
const ToolContext := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_tool_context.gd")

const ACTION := "frames_jump"
const COUNTER_SOURCE := "extends Node2D\n\nvar process_calls := 0\nvar physics_calls := 0\n" \
	+ "var process_time := 0.0\nvar physics_time := 0.0\nvar just_pressed: Array = []\nvar inputs := 0\n\n" \
	+ "func _process(delta: float) -> void:\n\tprocess_calls += 1\n\tprocess_time += delta\n" \
	+ "\tposition.x += 1.0\n" \
	+ "\tif Input.is_action_just_pressed(\"frames_jump\"):\n\t\tjust_pressed.append(\"process\")\n\n" \
	+ "func _physics_process(delta: float) -> void:\n\tphysics_calls += 1\n\tphysics_time += delta\n" \
	+ "\tif Input.is_action_just_pressed(\"frames_jump\"):\n\t\tjust_pressed.append(\"physics\")\n\n" \
	+ "func _input(event: InputEvent) -> void:\n\tif event.is_action_pressed(\"frames_jump\"):\n\t\tinputs += 1\n"
## A game script that unpauses the tree in every frame it runs (as a careless pause menu might).
const ROGUE_SOURCE := "extends Node\n\nvar armed := false\nvar unpaused := 0\n\n" \
	+ "func _process(_delta: float) -> void:\n\tif armed and get_tree().paused:\n" \
	+ "\t\tget_tree().paused = false\n\t\tunpaused += 1\n"
const SCENARIOS := ["pause_holds", "step_process_frames", "step_physics_frames", "step_until_moving_node",
	"step_until_cap", "time_scale", "game_unpause_is_overridden", "input_then_step"]

var _game: Node = null
var _counter: Node2D = null  # its script's fields are read with get()
var _rogue: Node = null
var _registry: CommandRegistry = null
var _context: RuntimeContext = null


func _initialize() -> void:
	_run_all.call_deferred()


func _run_all() -> void:
	Assert.reset()
	InputMap.add_action(ACTION)
	for scenario: String in SCENARIOS:
		var before := Assert.failures.size()
		Assert.current = scenario
		_build()
		await frames(2)
		await call(scenario)
		_teardown()
		print("%s %s" % ["PASS" if Assert.failures.size() == before else "FAIL", scenario])
	for failure: String in Assert.failures:
		printerr("FAIL ", failure)
	print("frames_time: %d scenarios, %d checks, %d failures" % [SCENARIOS.size(), Assert.checks, Assert.failures.size()])
	quit(0 if Assert.failures.is_empty() else 1)


func pause_holds() -> void:
	var paused := _call("time.pause", {})
	Assert.eq([paused["success"], paused["paused_by_assistant"], paused["tree_paused"]], [true, true, true], "held")
	var before: int = _counter.get("process_calls")
	await frames(5)
	Assert.eq(_counter.get("process_calls"), before, "no _process while held")
	var resumed := _call("time.resume", {})
	Assert.eq([resumed["paused_by_assistant"], resumed["tree_paused"]], [false, false], "released")
	await frames(3)
	Assert.eq(_counter.get("process_calls"), before + 3, "running again")


func step_process_frames() -> void:
	_call("time.pause", {})
	await frames(2)
	var calls: int = _counter.get("process_calls")
	var physics: int = _counter.get("physics_calls")
	var time: float = _counter.get("process_time")
	var engine_frames := Engine.get_process_frames()
	var stepped: Dictionary = await _step("time.step", {"frames": 10})
	Assert.eq([stepped["success"], stepped["stopped"], stepped["process_frames"]], [true, "frames", 10], "10 frames")
	Assert.eq(_counter.get("process_calls") - calls, 10, "the counter ran exactly 10 process frames")
	Assert.eq(stepped["physics_frames"], _counter.get("physics_calls") - physics, "physics frames counted as they ran")
	Assert.is_true(is_equal_approx(stepped["game_time_s"], _counter.get("process_time") - time),
		"game time %s = the counter's deltas %s" % [stepped["game_time_s"], _counter.get("process_time") - time])
	Assert.is_true(stepped["engine_process_frames"] >= engine_frames + 10, "engine total moved on")
	Assert.eq([stepped["paused_by_assistant"], stepped["tree_paused"]], [true, true], "held again")
	calls = _counter.get("process_calls")
	await frames(4)
	Assert.eq(_counter.get("process_calls"), calls, "and stays held")


func step_physics_frames() -> void:
	_call("time.pause", {})
	var calls: int = _counter.get("physics_calls")
	var time: float = _counter.get("physics_time")
	var stepped: Dictionary = await _step("time.step", {"frames": 6, "physics": true})
	Assert.eq([stepped["unit"], stepped["physics_frames"]], ["physics", 6], "6 physics frames")
	Assert.eq(_counter.get("physics_calls") - calls, 6, "the counter ran exactly 6 physics frames")
	Assert.is_true(is_equal_approx(stepped["game_time_s"], _counter.get("physics_time") - time),
		"game time %s = the physics deltas %s" % [stepped["game_time_s"], _counter.get("physics_time") - time])


func step_until_moving_node() -> void:
	_call("time.pause", {})
	var start := _counter.position.x
	var until: Dictionary = await _step("time.step_until", {"node_path": "Counter", "property": "position:x",
		"operator": "ge", "value": start + 7, "max_frames": 100})
	Assert.eq([until["success"], until["met"], until["stopped"]], [true, true, "condition"], "met")
	Assert.eq(until["process_frames"], 7, "after exactly 7 frames")
	Assert.eq(_counter.position.x, start + 7, "and held right there")
	Assert.eq(until["value"], start + 7, "the value seen")
	var vector: Dictionary = await _step("time.step_until", {"node_path": "/root/Game/Counter", "property": "position",
		"operator": "eq", "value": {"type": "Vector2", "x": start + 9, "y": 0}})
	Assert.eq([vector["met"], vector["process_frames"]], [true, 2], "a tagged Vector2, absolute path")


func step_until_cap() -> void:
	_call("time.pause", {})
	var capped: Dictionary = await _step("time.step_until", {"node_path": "Counter", "property": "position:x",
		"operator": "lt", "value": -1, "max_frames": 5})
	Assert.eq([capped["success"], capped["code"], capped["stopped"], capped["process_frames"]],
		[false, "TIMEOUT", "frames", 5], "stopped at the cap")
	Assert.eq(capped["value"], _counter.position.x, "with the last value seen")
	Assert.is_true(capped["tree_paused"], "held after the cap")
	var timed: Dictionary = await _step("time.step_until", {"node_path": "Counter", "property": "position:x",
		"operator": "lt", "value": -1, "max_frames": 3600, "timeout_ms": 50})
	Assert.eq([timed["success"], timed["stopped"]], [false, "timeout"], "the real-time limit too")


func time_scale() -> void:
	var scaled := _call("time.set_scale", {"time_scale": 2.0})
	Assert.eq([scaled["previous_time_scale"], scaled["time_scale"]], [1.0, 2.0], "doubled")
	_call("time.pause", {})
	var stepped: Dictionary = await _step("time.step", {"frames": 4, "physics": true})
	Assert.is_true(is_equal_approx(stepped["game_time_s"], 4 * 2.0 / Engine.physics_ticks_per_second),
		"4 physics frames at 2x are %s s of game time" % stepped["game_time_s"])
	_call("time.set_scale", {"time_scale": 1})


func game_unpause_is_overridden() -> void:
	_call("time.pause", {})
	_rogue.set("armed", true)
	var calls: int = _counter.get("process_calls")
	await frames(6)
	Assert.is_true(int(_rogue.get("unpaused")) >= 5, "the game unpaused its tree every frame")
	Assert.eq(_counter.get("process_calls"), calls, "yet the nodes before the rogue script never ran")
	var state := _state()
	Assert.eq([state["paused_by_assistant"], state["tree_paused"]], [true, true], "still held")
	Assert.is_true(state["game_unpauses_overridden"] >= 5, "and the overrides are counted")
	_rogue.set("armed", false)
	var resumed := _call("time.resume", {})
	Assert.is_false(resumed["tree_paused"], "the game wanted it running: resume leaves it running")


func input_then_step() -> void:
	_call("time.pause", {})
	var sent: Dictionary = await _step("input.simulate", {"events": {"event_type": "action", "event_data": {
		"action": ACTION, "pressed": true}}})
	Assert.eq([sent["success"], sent["queued_until_step"]], [true, 1], "queued while held")
	Assert.eq([_counter.get("inputs"), Input.is_action_pressed(ACTION)], [0, false], "nothing reached the game yet")
	await _step("time.step", {"frames": 2})
	Assert.eq(_counter.get("inputs"), 1, "_input saw it in the step")
	Assert.is_true(Input.is_action_pressed(ACTION), "held")
	Assert.is_true("process" in _counter.get("just_pressed"), "just pressed in the first stepped frame: %s" % [
		_counter.get("just_pressed")])
	Input.action_release(ACTION)
	_counter.set("just_pressed", [])
	await _step("input.simulate", {"events": {"event_type": "action", "event_data": {"action": ACTION, "pressed": true}}})
	await _step("time.step", {"frames": 2, "physics": true})
	Assert.is_true("physics" in _counter.get("just_pressed"), "a physics step delivers it to _physics_process: %s" % [
		_counter.get("just_pressed")])
	Input.action_release(ACTION)


func frames(count: int) -> void:
	for i in count:
		await process_frame


## The keeper's state as every time.* answer carries it.
func _state() -> Dictionary:
	return TimeKeeper.of(_context).state()


func _call(method: String, params: Dictionary) -> Dictionary:
	var info := _registry.dispatch_info(method)
	return (info["handler"] as Callable).call(params)


func _step(method: String, params: Dictionary) -> Dictionary:
	var info := _registry.dispatch_info(method)
	return await (info["handler"] as Callable).call(params, ToolContext.new(1, 1, method))


func _build() -> void:
	_game = Node.new()
	_game.name = "Game"
	_counter = Node2D.new()
	_counter.name = "Counter"
	_counter.set_script(_script(COUNTER_SOURCE))
	_game.add_child(_counter)
	_rogue = Node.new()
	_rogue.name = "Rogue"
	_rogue.process_mode = Node.PROCESS_MODE_ALWAYS
	_rogue.set_script(_script(ROGUE_SOURCE))
	_game.add_child(_rogue)
	root.add_child(_game)
	_context = RuntimeContext.new(_game)
	_registry = CommandRegistry.new()
	_registry.configure("4.6.0", _context)
	RuntimeDomains.register_all(_registry, _context)


func _teardown() -> void:
	_call("time.resume", {})
	Engine.time_scale = 1.0
	paused = false
	_registry.clear()
	_registry = null
	_context = null
	_game.free()


static func _script(source: String) -> GDScript:
	var script := GDScript.new()
	script.source_code = source
	script.reload()
	return script
