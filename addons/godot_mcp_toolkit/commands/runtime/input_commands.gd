@tool
extends RefCounted
## input.simulate in the running game (Mode B, registered through runtime/runtime_domains.gd): a
## batch of keys, mouse buttons and motion, actions, clicks (at a point or on a node) and typed
## text, played in order with optional delays. Every event is checked before the first is sent,
## so bad input sends nothing. Events go through Input.parse_input_event and are flushed at once,
## so a node's _input sees them and Input.is_action_pressed() is true before the reply; typed text
## goes to the focused Control (commands/runtime/text_sender.gd). A delay waits for real frames, so
## the game runs between events; the command is cancellable between events.
## RUNTIME-REACHABLE: nothing here or below may name an Editor* class.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const EventPlan := preload("res://addons/godot_mcp_toolkit/commands/runtime/input_event_plan.gd")
const TextSender := preload("res://addons/godot_mcp_toolkit/commands/runtime/text_sender.gd")
const NodePoint := preload("res://addons/godot_mcp_toolkit/commands/runtime/node_point.gd")
const TimeKeeper := preload("res://addons/godot_mcp_toolkit/commands/game_time/time_keeper.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/runtime/input_commands.gd"
const MAX_EVENTS := 500
## The delays of one batch must fit in the bridge's call timeout (30 s, the catalogue declares no
## longer one) with room for the events themselves; the watchdog uses the same default budget.
const MAX_TOTAL_DELAY_MS := 25000
const STOP_CANCELLED := "cancelled"
const STOP_NO_SCENE := "no_scene"


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("input.simulate", Callable(script, "_cmd_simulate").bind(context),
		registry.create_options()
		.cancellable())


## Cancellable: dispatch passes its job context (is_cancelled()) as the second argument.
static func _cmd_simulate(params: Dictionary, job: RefCounted, context: RefCounted) -> Dictionary:
	var summary: Variant = params.get("summary", true)
	if not summary is bool:
		return ToolkitError.fail("INVALID_PARAMS", "summary must be true or false")
	var planned := _plan(params.get("events"), context.scenes.scene_root())
	if planned.has("error"):
		return planned["error"]
	var plans: Array = planned["plans"]
	var tree := (context.scenes.scene_root() as Node).get_tree()
	var results: Array[Dictionary] = []
	var stopped := ""
	for plan: Dictionary in plans:
		if plan["delay_before_ms"] > 0 and not await _wait(tree, plan["delay_before_ms"], job):
			stopped = STOP_CANCELLED
			break
		# Looked up per event: the game may change scenes during a delay.
		var root: Node = context.scenes.scene_root()
		if root == null:
			stopped = STOP_NO_SCENE
			break
		results.append(_send(plan, root, TimeKeeper.of(context)))
		if plan["delay_after_ms"] > 0 and not await _wait(tree, plan["delay_after_ms"], job):
			stopped = STOP_CANCELLED
			break
	var report := _report(plans.size(), results, summary, stopped)
	var queued := results.filter(func(result: Dictionary) -> bool: return result.get("queued_until_step", false))
	if not queued.is_empty():
		report["queued_until_step"] = queued.size()
		report["hint"] = "The game is paused by the assistant: these events reach it when game_step runs its first frame."
	elif stopped.is_empty() and plans.any(func(plan: Dictionary) -> bool: return plan.get("tap", false)):
		report["hint"] = "A key or action without \"pressed\" is pressed and released in the same frame: " \
			+ "_input sees both, but code polling Input in _process may not. To hold it, send pressed: true, " \
			+ "delay_after_ms, then pressed: false."
	return ToolkitSuccess.ok(report)


## {"plans": Array} or {"error": envelope}: the whole batch checked, nothing sent.
static func _plan(events: Variant, root: Node) -> Dictionary:
	if events is Dictionary:
		events = [events]
	if not events is Array or (events as Array).is_empty():
		return {"error": ToolkitError.fail("INVALID_PARAMS", "events is required: one event object or a non-empty array",
			"e.g. {\"event_type\": \"action\", \"event_data\": {\"action\": \"jump\"}}")}
	if (events as Array).size() > MAX_EVENTS:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "at most %d events per call, got %d" % [
			MAX_EVENTS, (events as Array).size()], "Split the batch into several calls.")}
	if root == null:
		return {"error": ToolkitError.fail("NO_SCENE", "The game has no current scene to send input to",
			"Wait until the game has loaded its scene, then retry.")}
	var plans: Array = []
	var pointer: Array = [root.get_viewport().get_mouse_position()]
	var total_delay := 0
	for i in (events as Array).size():
		var built := EventPlan.build(events[i], i, root, pointer)
		if built.has("error"):
			return built
		plans.append(built["plan"])
		total_delay += int(built["plan"]["delay_before_ms"]) + int(built["plan"]["delay_after_ms"])
	if total_delay > MAX_TOTAL_DELAY_MS:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "the delays add up to %d ms; at most %d per call" % [
			total_delay, MAX_TOTAL_DELAY_MS], "Split the batch into several calls.")}
	return {"plans": plans}


## Sends one planned event now (or, while time.pause holds the game, queues it for the next
## time.step); returns what was sent and anything worth knowing about it.
static func _send(plan: Dictionary, root: Node, keeper: RefCounted) -> Dictionary:
	var result := {"index": plan["index"], "event_type": plan["event_type"]}
	match plan["event_type"]:
		"send_text":
			var target: Variant = plan["target"]
			if target != null and not is_instance_valid(target):
				result["sent"] = 0
				result["warning"] = "the field to type into left the scene before the text was sent"
				return result
			result.merge(TextSender.send(plan["text"], target, plan["submit"], root))
			return result
		"click_node":
			var point := NodePoint.screen_point(plan["node"])
			if point.has("error"):
				result["sent"] = 0
				result["warning"] = point["error"]
				return result
			var from := root.get_viewport().get_mouse_position()
			plan["events"] = EventPlan.click_events(point["position"], from, plan["button_index"], plan["double_click"])
			result["node_path"] = plan["node_path"]
			result["position"] = {"x": point["position"].x, "y": point["position"].y}
	if keeper != null and keeper.queue_input(plan["events"]):
		# Paused nodes get no _input: the keeper delivers these when the next step's frame starts.
		result["queued_until_step"] = true
	else:
		for event: InputEvent in plan["events"]:
			Input.parse_input_event(event)
		# Delivered now, not at the next frame's flush: the caller sees the effect in the reply.
		Input.flush_buffered_events()
	result["sent"] = (plan["events"] as Array).size()
	var outside := _outside_warning(plan["events"], root)
	if not outside.is_empty():
		result["warning"] = outside
	return result


## Waits `ms` of real time frame by frame, so the game runs meanwhile; false when cancelled.
static func _wait(tree: SceneTree, ms: int, job: RefCounted) -> bool:
	var deadline := Time.get_ticks_msec() + ms
	while Time.get_ticks_msec() < deadline:
		if job != null and job.is_cancelled():
			return false
		await tree.process_frame
	return not (job != null and job.is_cancelled())


static func _report(planned: int, results: Array[Dictionary], summary: bool, stopped: String) -> Dictionary:
	var by_type := {}
	var warnings: Array[String] = []
	for result: Dictionary in results:
		by_type[result["event_type"]] = int(by_type.get(result["event_type"], 0)) + 1
		if result.has("warning"):
			warnings.append("event %d: %s" % [result["index"], result["warning"]])
	var report := {"events_sent": results.size(), "events_planned": planned, "by_type": by_type}
	if stopped == STOP_CANCELLED:
		report["cancelled"] = true
		report["hint"] = "Cancelled after %d of %d events; the rest were not sent." % [results.size(), planned]
	elif stopped == STOP_NO_SCENE:
		report["hint"] = "The game's scene went away after %d of %d events; the rest were not sent." % [
			results.size(), planned]
	if not warnings.is_empty():
		report["warnings"] = warnings
	if not summary:
		report["results"] = results
	else:
		# Typed text is the one outcome a summary must not hide: did the field change?
		var texts := results.filter(func(result: Dictionary) -> bool: return result["event_type"] == "send_text")
		if not texts.is_empty():
			report["text_results"] = texts
	return report


## Mouse events outside the game window reach no Control; say so rather than report a click.
static func _outside_warning(events: Array, root: Node) -> String:
	var window := Rect2(Vector2.ZERO, Vector2(root.get_window().size))
	for event: InputEvent in events:
		if event is InputEventMouse:
			var at := (event as InputEventMouse).position
			if not window.has_point(at):
				return "(%d, %d) is outside the game window (%dx%d): nothing there receives it" % [
					at.x, at.y, window.size.x, window.size.y]
	return ""
