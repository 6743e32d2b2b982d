extends RefCounted
## The time.* commands (commands/game_time/game_time_commands.gd, commands/game_time/) registered through
## runtime/runtime_domains.gd over a runtime context whose scene is a throwaway "Game" with a
## Node2D "Mover" and a Catcher recording what reaches its _input. No engine frame passes inside a
## test, so the test plays the engine: it emits SceneTree.process_frame and then, as the frame's
## node pass would, moves Mover one pixel if the real pause rules (Node.can_process) let it run.
## Stepping over real frames (physics, deltas, a game script fighting the pause) is in
## frames_time.gd, run by tests/engine/test_time_frames.py.

const Assert := preload("assert.gd")
const ResultExamples := preload("result_examples.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const RuntimeContext := preload("res://addons/godot_mcp_toolkit/context/runtime_context.gd")
const RuntimeDomains := preload("res://addons/godot_mcp_toolkit/runtime/runtime_domains.gd")
const TimeKeeper := preload("res://addons/godot_mcp_toolkit/commands/game_time/time_keeper.gd")
const ToolContext := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_tool_context.gd")
const DispatchLane := preload("res://addons/godot_mcp_toolkit/transport/dispatch/dispatch_lane.gd")
const RecordingLane := preload("recording_lane.gd")

const ACTION := "time_test_jump"
const CATCHER_SOURCE := "extends Node\n\nvar got: Array = []\n\n" \
	+ "func _input(event: InputEvent) -> void:\n\tgot.append(event)\n"
const PEER := 3
const MAX_FRAMES := 200

var _tree: SceneTree = Engine.get_main_loop() as SceneTree
var _root: Node = null
var _mover: Node2D = null
var _catcher: Node = null
var _context: RuntimeContext = null
var _registry := CommandRegistry.new()
var _responses: Dictionary = {}
var _moving := true
## tree.paused as seen in each emitted frame, after the keeper had its say.
var _paused_seen: Array[bool] = []


func _init() -> void:
	_root = Node.new()
	_root.name = "Game"
	_mover = Node2D.new()
	_mover.name = "Mover"
	_root.add_child(_mover)
	_catcher = Node.new()
	_catcher.name = "Catcher"
	var script := GDScript.new()
	script.source_code = CATCHER_SOURCE
	script.reload()
	_catcher.set_script(script)
	_root.add_child(_catcher)
	_tree.root.add_child(_root)
	InputMap.add_action(ACTION)
	_context = RuntimeContext.new(_root)
	_registry.configure("4.6.0", _context)
	RuntimeDomains.register_all(_registry, _context)


func cleanup() -> void:
	_call("time.resume", {})
	Engine.time_scale = 1.0
	_tree.paused = false
	Input.action_release(ACTION)
	InputMap.erase_action(ACTION)
	_registry.clear()
	_root.free()


func test_pause_resume_and_state() -> void:
	Assert.eq([_state()["paused_by_assistant"], _state()["tree_paused"]], [false, false], "not held at first")
	ResultExamples.check("time", "time.pause", _call("time.pause", {}), 0)
	Assert.is_true(_tree.paused, "the tree is paused")
	Assert.is_false(_mover.can_process(), "so the game's nodes do not run")
	Assert.eq(_call("time.pause", {})["paused_by_assistant"], true, "pausing twice is harmless")
	ResultExamples.check("time", "time.resume", _call("time.resume", {}), 0)
	Assert.is_true(_mover.can_process(), "running again")


func test_resume_gives_back_the_games_own_pause() -> void:
	_tree.paused = true
	_call("time.pause", {})
	var resumed := _call("time.resume", {})
	Assert.eq([resumed["paused_by_assistant"], resumed["tree_paused"]], [false, true],
		"the game had paused itself (a pause menu): it stays paused")


func test_step_runs_exactly_n_frames() -> void:
	_call("time.pause", {})
	var lane := _lane()
	lane.submit(PEER, 1, "time.step", ResultExamples.params("time", "time.step", 0))
	var frames := _frames_until(1)
	ResultExamples.check("time", "time.step", _responses[1]["result"], 0)
	Assert.eq(frames, 11, "10 frames run, the 11th start holds the game again")
	Assert.eq(_mover.position.x, 10.0, "the game ran 10 frames")
	Assert.eq(_paused_seen, [false, false, false, false, false, false, false, false, false, false, true],
		"unpaused exactly for the stepped frames")
	_frame()
	Assert.eq(_mover.position.x, 10.0, "and stays held")


func test_a_step_pauses_a_running_game_first() -> void:
	var lane := _lane()
	lane.submit(PEER, 1, "time.step", {"frames": 2})
	Assert.is_true(_tree.paused, "held at once, before the first frame")
	_frames_until(1)
	Assert.eq([_responses[1]["result"]["process_frames"], _mover.position.x], [2, 2.0], "two frames")


func test_step_until_a_moving_node() -> void:
	var lane := _lane()
	lane.submit(PEER, 1, "time.step_until", ResultExamples.params("time", "time.step_until", 0))
	_frames_until(1)
	ResultExamples.check("time", "time.step_until", _responses[1]["result"], 0)
	Assert.eq(_mover.position.x, 3.0, "held on the frame the condition became true")
	var already := _call_async("time.step_until", {"node_path": "Mover", "property": "position", "operator": "eq",
		"value": {"type": "Vector2", "x": 3, "y": 0}})
	Assert.eq([already["met"], already["process_frames"], already["value"]], [true, 0, {"type": "Vector2", "x": 3.0,
		"y": 0.0}], "already true: no frame runs")
	var changed := _lane()
	changed.submit(PEER, 2, "time.step_until", {"node_path": "/root/Game/Mover", "property": "position:x",
		"operator": "changed"})
	_frames_until(2)
	Assert.eq([_responses[2]["result"]["met"], _mover.position.x], [true, 4.0], "changed after one frame")


func test_step_until_that_never_holds_reports_the_last_value() -> void:
	_moving = false
	var lane := _lane()
	lane.submit(PEER, 1, "time.step_until", ResultExamples.params("time", "time.step_until", 1))
	_frames_until(1)
	ResultExamples.check("time", "time.step_until", _responses[1]["result"], 1)


func test_a_node_freed_while_stepping() -> void:
	var lane := _lane()
	lane.submit(PEER, 1, "time.step_until", {"node_path": "Mover", "property": "visible", "operator": "falsy"})
	_frame()
	_root.remove_child(_mover)
	_mover.free()
	_frames_until(1)
	var result: Dictionary = _responses[1]["result"]
	Assert.eq([result["success"], result["code"], result["stopped"], result["value"]], [false, "NOT_FOUND",
		"node_gone", true], "names the node and the last value")
	Assert.contains(result["error"], "/root/Game/Mover left the tree", "says which")
	_mover = Node2D.new()


func test_cancel_stops_the_step() -> void:
	var lane := _lane()
	lane.submit(PEER, 1, "time.step", {"frames": 100})
	_frame()
	_frame()
	Assert.is_true(lane.cancel(PEER, "1"), "the running step is found")
	_frames_until(1)
	var result: Dictionary = _responses[1]["result"]
	Assert.eq([result["stopped"], result["process_frames"], result["tree_paused"]], ["cancelled", 2, true],
		"stopped at the next frame, held")


func test_input_waits_for_the_step() -> void:
	_call("time.pause", {})
	var sent := _call_async("input.simulate", {"events": {"event_type": "action", "event_data": {"action": ACTION,
		"pressed": true}}})
	Assert.eq([sent["success"], sent["queued_until_step"]], [true, 1], "queued")
	Assert.contains(sent["hint"], "game_step", "and says when it arrives")
	Assert.eq([_catcher.got.size(), Input.is_action_pressed(ACTION)], [0, false], "not delivered while held")
	Assert.eq(_state()["queued_input_events"], 1, "the state shows it waiting")
	var lane := _lane()
	lane.submit(PEER, 1, "time.step", {"frames": 1})
	_frame()
	Assert.eq(_catcher.got.size(), 1, "delivered as the first stepped frame starts")
	Assert.is_true(Input.is_action_pressed(ACTION), "pressed")
	_frames_until(1)
	_call_async("input.simulate", {"events": {"event_type": "action", "event_data": {"action": ACTION,
		"pressed": false}}})
	Assert.is_true(Input.is_action_pressed(ACTION), "a release queued too")
	_call("time.resume", {})
	Assert.is_false(Input.is_action_pressed(ACTION), "resume delivers what was queued instead of dropping it")


func test_set_scale() -> void:
	ResultExamples.check("time", "time.set_scale", _call("time.set_scale", ResultExamples.params("time",
		"time.set_scale", 0)), 0)
	Assert.eq(Engine.time_scale, 0.5, "the engine's time scale")
	ResultExamples.check("time", "time.set_scale", _call("time.set_scale", ResultExamples.params("time",
		"time.set_scale", 1)), 1)
	for bad: Variant in [0, 0.001, 21, "fast", null, true]:
		Assert.eq(_call("time.set_scale", {"time_scale": bad})["code"], "INVALID_PARAMS", str(bad))
	Assert.eq(Engine.time_scale, 0.5, "unchanged by the refusals")


func test_bad_input_steps_nothing() -> void:
	ResultExamples.check("time", "time.step", _call_async("time.step", ResultExamples.params("time", "time.step", 1)), 1)
	ResultExamples.check("time", "time.step_until", _call_async("time.step_until",
		ResultExamples.params("time", "time.step_until", 2)), 2)
	ResultExamples.check("time", "time.step_until", _call_async("time.step_until",
		ResultExamples.params("time", "time.step_until", 3)), 3)
	var cases := {
		"time.step": [{"frames": 3601}, {"frames": 1.5}, {"frames": "2"}, {"frames": 2, "physics": "yes"}],
		"time.step_until": [
			{"property": "visible", "operator": "truthy"},
			{"node_path": "Mover", "operator": "truthy"},
			{"node_path": "Mover", "property": "visible"},
			{"node_path": "Mover", "property": "visible", "operator": "about"},
			{"node_path": "Mover", "property": "position:x", "operator": "gt"},
			{"node_path": "Mover", "property": "position", "operator": "gt", "value": 3},
			{"node_path": "Mover", "property": "position:x", "operator": "eq", "value": {"type": "Vector9"}},
			{"node_path": "Mover", "property": "visible", "operator": "truthy", "max_frames": 0},
			{"node_path": "Mover", "property": "visible", "operator": "truthy", "timeout_ms": 60000},
			{"node_path": "", "property": "visible", "operator": "truthy"},
		],
	}
	for method: String in cases:
		for params: Dictionary in cases[method]:
			Assert.eq(_call_async(method, params).get("code"), "INVALID_PARAMS", "%s %s" % [method, JSON.stringify(params)])
	var position_gt := _call_async("time.step_until", cases["time.step_until"][5])
	Assert.contains(position_gt["error"], "Vector2", "an ordering on a vector names the type")
	var no_z := _call_async("time.step_until", {"node_path": "Mover", "property": "position:z", "operator": "gt",
		"value": 1})
	Assert.eq(no_z.get("code"), "PROPERTY_NOT_FOUND", "a part the value does not have can never hold: refused")
	Assert.contains(str(no_z.get("error")), "a Vector2 has no 'z'", "saying why")
	Assert.eq([_state()["paused_by_assistant"], _tree.paused, _mover.position.x], [false, false, 0.0],
		"nothing held, nothing stepped")


## The keeper's state as every time.* answer carries it.
func _state() -> Dictionary:
	return TimeKeeper.of(_context).state()


func _call(method: String, params: Dictionary) -> Dictionary:
	return (_registry.dispatch_info(method)["handler"] as Callable).call(params)


## A cancellable handler called without frames: only for calls that answer before any frame.
func _call_async(method: String, params: Dictionary) -> Dictionary:
	var info := _registry.dispatch_info(method)
	var handler: Callable = info["handler"]
	var result: Variant = handler.call(params, ToolContext.new(1, PEER, method))
	Assert.is_true(result is Dictionary, "%s answered without a frame" % method)
	return result if result is Dictionary else {}


func _lane() -> DispatchLane:
	return RecordingLane.over(_registry, _responses)


## One frame as the engine runs it: the frame signal, then the node pass (Mover moves if it may).
func _frame() -> void:
	_tree.process_frame.emit()
	_paused_seen.append(_tree.paused)
	if _moving and is_instance_valid(_mover) and _mover.is_inside_tree() and _mover.can_process():
		_mover.position.x += 1.0


## Frames until request `id` is answered; returns how many.
func _frames_until(id: int) -> int:
	var frames := 0
	while not _responses.has(id) and frames < MAX_FRAMES:
		_frame()
		frames += 1
	Assert.is_true(_responses.has(id), "request %d answered within %d frames" % [id, MAX_FRAMES])
	return frames
