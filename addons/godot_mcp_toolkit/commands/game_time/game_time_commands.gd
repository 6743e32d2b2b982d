@tool
extends RefCounted
## Deterministic time in the running game (Mode B, registered through runtime/runtime_domains.gd):
## time.pause / time.resume hold and release the game for the assistant, time.step runs N process
## or physics frames, time.step_until runs until a node's property meets a condition (capped by
## frames and real time), time.set_scale sets Engine.time_scale. Every
## answer carries the state (paused_by_assistant, tree_paused, time_scale); every step its frame
## counts and game time. The clock itself is commands/game_time/time_keeper.gd.
## RUNTIME-REACHABLE: nothing here or below may name an Editor* class.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const Coerce := preload("res://addons/godot_mcp_toolkit/contract/coerce.gd")
const TimeKeeper := preload("res://addons/godot_mcp_toolkit/commands/game_time/time_keeper.gd")
const StepCondition := preload("res://addons/godot_mcp_toolkit/commands/game_time/step_condition.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/game_time/game_time_commands.gd"
## A step must end inside the bridge's 30 s call timeout, like input.simulate's delays.
const MAX_FRAMES := 3600
const MAX_STEP_MS := 25000
const DEFAULT_MAX_FRAMES := 600
const DEFAULT_TIMEOUT_MS := 10000
const MIN_SCALE := 0.01
const MAX_SCALE := 20.0


static func register(registry: RefCounted, context: RefCounted) -> void:
	TimeKeeper.attach(context)
	var script: Script = load(SELF_PATH)
	registry.register_command("time.pause", Callable(script, "_cmd_pause").bind(context),
		registry.create_options().scene_independent())
	registry.register_command("time.resume", Callable(script, "_cmd_resume").bind(context),
		registry.create_options().scene_independent())
	registry.register_command("time.step", Callable(script, "_cmd_step").bind(context), registry.create_options()
		.cancellable().scene_independent())
	registry.register_command("time.step_until", Callable(script, "_cmd_step_until").bind(context),
		registry.create_options()
		.cancellable())
	registry.register_command("time.set_scale", Callable(script, "_cmd_set_scale").bind(context),
		registry.create_options().scene_independent())


static func _cmd_pause(_params: Dictionary, context: RefCounted) -> Dictionary:
	var keeper := TimeKeeper.of(context)
	keeper.hold()
	return ToolkitSuccess.ok(keeper.state())


static func _cmd_resume(_params: Dictionary, context: RefCounted) -> Dictionary:
	var keeper := TimeKeeper.of(context)
	keeper.release()
	return ToolkitSuccess.ok(keeper.state())


static func _cmd_step(params: Dictionary, job: RefCounted, context: RefCounted) -> Dictionary:
	var frames := _frames(params, "frames", 1)
	if frames.has("error"):
		return frames["error"]
	var unit := _unit(params)
	if unit.has("error"):
		return unit["error"]
	var report: Dictionary = await TimeKeeper.of(context).step(unit["unit"], frames["value"], Callable(),
		MAX_STEP_MS, job)
	if report["stopped"] == TimeKeeper.STOP_TIMEOUT:
		return _stopped_early(report, "TIMEOUT", "%d of %d frames ran before the %d ms limit" % [
			_counted(report), frames["value"], MAX_STEP_MS], "Step fewer frames per call.")
	return ToolkitSuccess.ok(report)


static func _cmd_step_until(params: Dictionary, job: RefCounted, context: RefCounted) -> Dictionary:
	var frames := _frames(params, "max_frames", DEFAULT_MAX_FRAMES)
	if frames.has("error"):
		return frames["error"]
	var unit := _unit(params)
	if unit.has("error"):
		return unit["error"]
	var timeout: Variant = params.get("timeout_ms", DEFAULT_TIMEOUT_MS)
	if not Params.is_whole_number(timeout) or int(timeout) < 1 or int(timeout) > MAX_STEP_MS:
		return ToolkitError.fail("INVALID_PARAMS", "timeout_ms must be a whole number from 1 to %d" % MAX_STEP_MS)
	var built := StepCondition.build(params, context)
	if not built["ok"]:
		return built["error"]
	var condition: RefCounted = built["condition"]
	var keeper := TimeKeeper.of(context)
	if condition.holds(condition.last):
		# Already true: no frame runs, but the game is held as after any step.
		keeper.hold()
		var now := {"met": true, "value": Coerce.serialize_value(condition.last), "process_frames": 0,
			"physics_frames": 0, "game_time_s": 0.0}
		now.merge(keeper.state())
		return ToolkitSuccess.ok(now)
	var report: Dictionary = await keeper.step(unit["unit"], frames["value"], Callable(condition, "check"),
		int(timeout), job)
	report["value"] = Coerce.serialize_value(condition.last)
	match report["stopped"]:
		StepCondition.MET:
			report["met"] = true
			return ToolkitSuccess.ok(report)
		StepCondition.NODE_GONE:
			return _stopped_early(report, "NOT_FOUND", "%s left the tree after %d frames" % [condition.node_path,
				_counted(report)], "The node was freed or removed while stepping; value is the last one read.")
		TimeKeeper.STOP_CANCELLED:
			report["met"] = false
			return ToolkitSuccess.ok(report)
	var cap := "max_frames (%d)" % frames["value"] if report["stopped"] == TimeKeeper.STOP_FRAMES \
		else "timeout_ms (%d)" % int(timeout)
	return _stopped_early(report, "TIMEOUT", "%s %s %s was not met within %s; last value %s" % [
		condition.property, condition.operator, _shown(params.get("value", "")), cap,
		JSON.stringify(report["value"])], "Step on with a higher max_frames, or check the condition.")


static func _cmd_set_scale(params: Dictionary, context: RefCounted) -> Dictionary:
	var scale: Variant = params.get("time_scale")
	if not Params.is_number(scale) or float(scale) < MIN_SCALE or float(scale) > MAX_SCALE:
		return ToolkitError.fail("INVALID_PARAMS", "time_scale must be a number from %s to %s, got %s" % [
			_shown(MIN_SCALE), _shown(MAX_SCALE), _shown(scale)], "1.0 is normal speed; game_pause stops the game.")
	var keeper := TimeKeeper.of(context)
	var result := {"previous_time_scale": keeper.set_time_scale(float(scale))}
	result.merge(keeper.state())
	return ToolkitSuccess.ok(result)


## {"value": int} or {"error": envelope} for a frame count in 1..MAX_FRAMES.
static func _frames(params: Dictionary, key: String, default: int) -> Dictionary:
	var frames: Variant = params.get(key, default)
	if not Params.is_whole_number(frames) or int(frames) < 1 or int(frames) > MAX_FRAMES:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "%s must be a whole number from 1 to %d, got %s" % [
			key, MAX_FRAMES, _shown(frames)], "Split a longer run into several steps.")}
	return {"value": int(frames)}


static func _unit(params: Dictionary) -> Dictionary:
	var physics: Variant = params.get("physics", false)
	if not physics is bool:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "physics must be true or false")}
	return {"unit": TimeKeeper.UNIT_PHYSICS if physics else TimeKeeper.UNIT_PROCESS}


## A request value as the caller wrote it: JSON numbers arrive as floats, so 3.0 is shown as 3.
static func _shown(value: Variant) -> String:
	if value is float and Params.is_whole_number(value) and absf(value) < 1e15:
		return str(int(value))
	return JSON.stringify(value)


static func _counted(report: Dictionary) -> int:
	return report["physics_frames"] if report["unit"] == TimeKeeper.UNIT_PHYSICS else report["process_frames"]


## An error envelope that still carries the step's report (frames run, last value, state).
static func _stopped_early(report: Dictionary, code: String, message: String, hint: String) -> Dictionary:
	var failed := ToolkitError.fail(code, message, hint)
	for key: String in report:
		if not failed.has(key):
			failed[key] = report[key]
	return failed
