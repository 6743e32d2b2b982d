extends RefCounted
## input.simulate (commands/runtime/input_commands.gd and commands/runtime/) registered through
## runtime/runtime_domains.gd over a runtime context whose scene is a throwaway "Game": a Catcher
## node recording what reaches its _input, a Button, a LineEdit and a Node2D marker inside the
## engine's window. Batches with delays run through the real dispatch lane (which awaits coroutine
## handlers); the test drives frames by emitting SceneTree.process_frame, since the runner's own
## frames do not run during a test. Asserted on the engine: events reach _input, an action press
## shows in Input.is_action_pressed before the reply, a click presses the Button, typed text lands
## in the LineEdit. Nothing is undoable at runtime. Not covered here: a stretched or
## SubViewport-embedded game (click_node maps through the root viewport only).

const Assert := preload("assert.gd")
const ResultExamples := preload("result_examples.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const RuntimeContext := preload("res://addons/godot_mcp_toolkit/context/runtime_context.gd")
const RuntimeDomains := preload("res://addons/godot_mcp_toolkit/runtime/runtime_domains.gd")
const ToolContext := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_tool_context.gd")
const DispatchLane := preload("res://addons/godot_mcp_toolkit/transport/dispatch/dispatch_lane.gd")
const RecordingLane := preload("recording_lane.gd")

const ACTION := "test_jump"
const CATCHER_SOURCE := "extends Node\n\nvar got: Array = []\nvar jump_seen: Array = []\n\n" \
	+ "func _input(event: InputEvent) -> void:\n\tgot.append(event)\n" \
	+ "\tif event is InputEventAction:\n\t\tjump_seen.append(Input.is_action_pressed(\"test_jump\"))\n"
const PEER := 7
## Frames pumped at most while waiting for a delayed batch (each after a 5 ms sleep).
const MAX_PUMPS := 400

var _tree: SceneTree = Engine.get_main_loop() as SceneTree
var _root: Node = null
var _catcher: Node = null
var _button: Button = null
var _field: LineEdit = null
var _marker: Node2D = null
var _presses: Array[int] = [0]
var _context: RuntimeContext = null
var _registry := CommandRegistry.new()
var _responses: Dictionary = {}


func _init() -> void:
	_root = Node.new()
	_root.name = "Game"
	_catcher = Node.new()
	_catcher.name = "Catcher"
	var script := GDScript.new()
	script.source_code = CATCHER_SOURCE
	script.reload()
	_catcher.set_script(script)
	_root.add_child(_catcher)
	_button = Button.new()
	_button.name = "Ok"
	_button.position = Vector2(4, 4)
	_button.size = Vector2(30, 20)
	_button.pressed.connect(func() -> void: _presses[0] += 1)
	_root.add_child(_button)
	_field = LineEdit.new()
	_field.name = "Name"
	_field.position = Vector2(0, 30)
	_field.size = Vector2(60, 20)
	_root.add_child(_field)
	_marker = Node2D.new()
	_marker.name = "Marker"
	_marker.position = Vector2(50, 12)
	_root.add_child(_marker)
	_tree.root.add_child(_root)
	InputMap.add_action(ACTION)
	_context = RuntimeContext.new(_root)
	_registry.configure("4.6.0", _context)
	RuntimeDomains.register_all(_registry, _context)


func cleanup() -> void:
	Input.action_release(ACTION)
	InputMap.erase_action(ACTION)
	_registry.clear()
	_root.free()


func test_an_action_press_is_visible_before_the_reply() -> void:
	var pressed := _call(ResultExamples.params("input", "input.simulate", 0))
	ResultExamples.check("input", "input.simulate", pressed, 0)
	Assert.is_true(Input.is_action_pressed(ACTION), "pressed in the Input singleton")
	Assert.is_false(pressed.has("hint"), "a held press needs no advice")
	Assert.eq(_catcher.jump_seen, [true], "_input saw the action, already pressed")
	_call({"events": [{"event_type": "action", "event_data": {"action": ACTION, "pressed": false}}]})
	Assert.is_false(Input.is_action_pressed(ACTION), "released")


func test_keys_reach_input() -> void:
	var sent := _call({"events": {"event_type": "key", "event_data": {"keycode": "A", "shift": true}}, "summary": false})
	Assert.eq(sent["events_sent"], 1, "one spec")
	Assert.eq(sent["results"][0]["sent"], 2, "press and release")
	Assert.contains(sent["hint"], "same frame", "a tap says what polling code may miss")
	var keys: Array = _catcher.got.filter(func(event: InputEvent) -> bool: return event is InputEventKey)
	Assert.eq(keys.size(), 2, "both reached _input")
	var first := keys[0] as InputEventKey
	Assert.eq([first.keycode, first.pressed, first.shift_pressed, first.unicode], [KEY_A, true, true, "A".unicode_at(0)],
		"the key as asked")
	Assert.is_false((keys[1] as InputEventKey).pressed, "then released")
	_call({"events": [{"event_type": "key", "event_data": {"keycode": KEY_ENTER, "pressed": true}}]})
	Assert.eq((_catcher.got.back() as InputEventKey).keycode, KEY_ENTER, "a numeric keycode")


func test_clicks_press_the_button() -> void:
	var clicked := _call({"events": [{"event_type": "click", "event_data": {"position": {"x": 10, "y": 10}}}]})
	Assert.is_true(clicked["success"], "sent")
	Assert.eq(_presses[0], 1, "the Button under the point was pressed")
	var on_node := _call(ResultExamples.params("input", "input.simulate", 1))
	ResultExamples.check("input", "input.simulate", on_node, 1)
	Assert.eq(_presses[0], 2, "click_node pressed it again")
	var marker := _call({"events": [{"event_type": "click_node", "event_data": {"node_path": "Marker",
		"button_index": "right"}}], "summary": false})
	Assert.eq(marker["results"][0]["position"], {"x": 50.0, "y": 12.0}, "a Node2D is clicked at its origin")
	var last := _catcher.got.back() as InputEventMouseButton
	Assert.eq([last.button_index, last.position, last.pressed], [MOUSE_BUTTON_RIGHT, Vector2(50, 12), false],
		"the release reached _input there")
	var outside := _call({"events": [{"event_type": "click", "event_data": {"position": {"x": 5000, "y": 5}}}]})
	Assert.contains(outside["warnings"][0], "outside the game window", "a click off the window says so")


func test_send_text_types_into_the_field() -> void:
	var typed := _call(ResultExamples.params("input", "input.simulate", 2))
	ResultExamples.check("input", "input.simulate", typed, 2)
	Assert.eq(_field.text, "hi there", "the LineEdit holds the text")
	var secret := _call({"events": [{"event_type": "send_text", "event_data": {"text": " password=hunter2hunter2"}}]})
	var report: Dictionary = secret["text_results"][0]
	Assert.eq([report["focus_source"], report["text_changed"]], ["focused", true], "typed into the focused field")
	Assert.eq(_field.text, "hi there password=hunter2hunter2", "the field has it all")
	Assert.is_false("hunter2" in str(report["text_after"]), "but the secret is not echoed back")
	_field.release_focus()
	var nowhere := _call({"events": [{"event_type": "send_text", "event_data": {"text": "x"}}]})
	Assert.eq(nowhere["text_results"][0]["focus_source"], "none", "no focus")
	Assert.contains(nowhere["text_results"][0]["hint"], "No Control had focus", "and the hint says where keys went")


func test_mouse_motion_and_buttons() -> void:
	_call({"events": [
		{"event_type": "mouse_motion", "event_data": {"position": {"x": 20, "y": 20}}},
		{"event_type": "mouse_motion", "event_data": {"position": {"x": 25, "y": 22}}},
		{"event_type": "mouse_button", "event_data": {"button_index": "wheel_up", "pressed": true}},
	]})
	var motions: Array = _catcher.got.filter(func(event: InputEvent) -> bool: return event is InputEventMouseMotion)
	Assert.eq((motions.back() as InputEventMouseMotion).relative, Vector2(5, 2), "relative from the last motion")
	var wheel := _catcher.got.back() as InputEventMouseButton
	Assert.eq([wheel.button_index, wheel.position], [MOUSE_BUTTON_WHEEL_UP, Vector2(25, 22)],
		"a button without a position acts where the pointer is")


func test_delays_wait_for_frames_through_the_lane() -> void:
	var lane := _lane()
	lane.submit(PEER, 1, "input.simulate", {"events": [
		{"event_type": "action", "event_data": {"action": ACTION, "pressed": true}, "delay_after_ms": 40},
		{"event_type": "action", "event_data": {"action": ACTION, "pressed": false}},
	]})
	Assert.is_true(Input.is_action_pressed(ACTION), "the first event went out before the delay")
	Assert.is_false(_responses.has(1), "no reply while the delay runs")
	var pumps := _pump_until(1)
	Assert.is_true(pumps > 0, "the reply needed frames to pass")
	Assert.eq(_responses[1]["result"]["events_sent"], 2, "both sent after the delay")
	Assert.is_false(Input.is_action_pressed(ACTION), "the release came after the delay")


func test_cancel_stops_between_events() -> void:
	var lane := _lane()
	lane.submit(PEER, 2, "input.simulate", {"events": [
		{"event_type": "action", "event_data": {"action": ACTION, "pressed": true}, "delay_after_ms": 20000},
		{"event_type": "action", "event_data": {"action": ACTION, "pressed": false}},
	]})
	Assert.is_true(lane.cancel(PEER, "2"), "the running batch is found")
	_pump_until(2)
	var result: Dictionary = _responses[2]["result"]
	Assert.eq([result["events_sent"], result["events_planned"], result["cancelled"]], [1, 2, true], "stopped after one")
	Assert.is_true(Input.is_action_pressed(ACTION), "the release was never sent")


func test_a_scene_gone_during_a_delay_ends_the_batch() -> void:
	var lane := _lane()
	lane.submit(PEER, 3, "input.simulate", {"events": [
		{"event_type": "key", "event_data": {"keycode": "A", "pressed": true}, "delay_after_ms": 20},
		{"event_type": "key", "event_data": {"keycode": "A", "pressed": false}},
	]})
	_context.runtime_scenes.set_scene_root(null)
	_pump_until(3)
	var result: Dictionary = _responses[3]["result"]
	Assert.eq([result["success"], result["events_sent"], result["events_planned"]], [true, 1, 2], "one sent")
	Assert.contains(result["hint"], "scene went away after 1 of 2", "and it says why the rest were not")


func test_bad_input_sends_nothing() -> void:
	var cases := [
		{},
		{"events": []},
		{"events": [{"event_data": {}}]},
		{"events": [{"event_type": "wave"}]},
		{"events": [{"event_type": "key", "event_data": {"keycode": "NotAKey"}}]},
		{"events": [{"event_type": "action", "event_data": {"action": "no_such_action"}}]},
		{"events": [{"event_type": "click", "event_data": {"position": [1, 2]}}]},
		{"events": [{"event_type": "click_node", "event_data": {"node_path": "Nope"}}]},
		{"events": [{"event_type": "click_node", "event_data": {"node_path": "Catcher"}}]},
		{"events": [{"event_type": "send_text", "event_data": {"text": "x", "node_path": "Marker"}}]},
		{"events": [{"event_type": "mouse_button", "event_data": {"button_index": 42}}]},
		{"events": [{"event_type": "key", "event_data": {"keycode": "A"}, "delay_before_ms": -5}]},
		{"events": [{"event_type": "key", "event_data": {"keycode": "A"}, "delay_after_ms": 20000},
			{"event_type": "key", "event_data": {"keycode": "B"}, "delay_after_ms": 20000}]},
		{"events": [{"event_type": "key", "event_data": {"keycode": "A"}}, {"event_type": "key"}]},
		{"events": [{"event_type": "key", "event_data": {"keycode": "A"}}], "summary": "no"},
	]
	for params: Dictionary in cases:
		var reply := _call(params)
		Assert.eq(reply.get("code"), "NOT_FOUND" if "Nope" in JSON.stringify(params) else "INVALID_PARAMS",
			JSON.stringify(params))
	ResultExamples.check("input", "input.simulate", _call(ResultExamples.params("input", "input.simulate", 3)), 3)
	Assert.eq(_catcher.got, [], "not one event reached the game")
	Assert.eq([_presses[0], _field.text], [0, ""], "nothing clicked or typed")


func _call(params: Dictionary) -> Dictionary:
	var info := _registry.dispatch_info("input.simulate")
	var args: Array = [params]
	if info["cancellable"]:
		args.append(ToolContext.new(1, PEER, "input.simulate"))
	return (info["handler"] as Callable).callv(args)


func _lane() -> DispatchLane:
	return RecordingLane.over(_registry, _responses)


## Emits process_frame (what the engine does each frame) until request `id` is answered; returns
## how many frames that took.
func _pump_until(id: int) -> int:
	var pumps := 0
	while not _responses.has(id) and pumps < MAX_PUMPS:
		OS.delay_msec(5)
		_tree.process_frame.emit()
		pumps += 1
	Assert.is_true(_responses.has(id), "request %d answered within %d frames" % [id, MAX_PUMPS])
	return pumps
