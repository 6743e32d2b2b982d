@tool
extends RefCounted
## Performance of the running game (Mode B, registered through runtime/runtime_domains.gd):
## perf.snapshot reads every Performance monitor now; perf.sample waits N real frames, reading the
## chosen monitors and timing each frame itself (wall clock between process_frame signals, which
## covers physics, scripts and drawing alike), and answers with min/median/p95/max per monitor
## and the frames that spiked. Monitor names and units: commands/performance/monitors.gd.
## The engine's per-function script profiler is not reachable from here (SCRIPT_PROFILE says why),
## so the reply says so instead of guessing. RUNTIME-REACHABLE: nothing here or below may name an
## Editor* class.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const Monitors := preload("res://addons/godot_mcp_toolkit/commands/performance/monitors.gd")
const FrameStats := preload("res://addons/godot_mcp_toolkit/commands/performance/frame_stats.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/performance/performance_commands.gd"
const MIN_FRAMES := 1
const MAX_FRAMES := 600
const DEFAULT_FRAMES := 60
const MIN_SPIKE_FACTOR := 1.1
const MAX_SPIKE_FACTOR := 10.0
const DEFAULT_SPIKE_FACTOR := 2.0
## A slow game must not outlast the bridge's call timeout (30 s): sampling stops here and says so.
const MAX_SAMPLE_MS := 20000
const STOP_CANCELLED := "cancelled"
const STOP_TIME_LIMIT := "time_limit"
## The key perf.sample times itself; never a Performance monitor.
const FRAME_TIME := "frame_time_ms"
## Godot's script profiler (per-function times) runs inside the engine's debugger: its frames are
## sent only to the editor over the remote debug connection (Debugger > Profiler), and the
## ScriptLanguage profiling calls behind it are not bound for scripts. EngineProfiler only hands a
## game's own profiler whole-frame times, which frame_time_ms already covers.
const SCRIPT_PROFILE := {"available": false,
	"reason": "Godot does not expose its per-function script profiler to the running game: its data goes only "
		+ "to the editor's Debugger > Profiler over the remote debug connection. Custom Performance monitors "
		+ "the game registers can be sampled as custom:<id>."}


## `limit_ms` overrides MAX_SAMPLE_MS (tests).
static func register(registry: RefCounted, context: RefCounted, limit_ms: int = MAX_SAMPLE_MS) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("perf.snapshot", Callable(script, "_cmd_snapshot").bind(context),
		registry.create_options()
		.read_only().scene_independent())
	registry.register_command("perf.sample", Callable(script, "_cmd_sample").bind(context, limit_ms),
		registry.create_options()
		.read_only().scene_independent().cancellable())


static func _cmd_snapshot(_params: Dictionary, _context: RefCounted) -> Dictionary:
	var monitors := Monitors.snapshot()
	var fps := float(monitors.get("fps", 0.0))
	var result := {"monitors": monitors, "custom_monitors": Monitors.custom(),
		# Derived, not measured per frame: the mean frame time over the second fps covers.
		"frame_time_avg_ms": 1000.0 / fps if fps > 0.0 else null,
		"process_frames": Engine.get_process_frames(), "physics_frames": Engine.get_physics_frames(),
		# A release build reports 0 for the memory and orphan-node monitors; this says which kind runs.
		"debug_build": OS.is_debug_build()}
	return ToolkitSuccess.ok(result)


## Cancellable: dispatch passes its job context (is_cancelled()) as the second argument.
static func _cmd_sample(params: Dictionary, job: RefCounted, context: RefCounted, limit_ms: int) -> Dictionary:
	var checked := _checked_sample(params)
	if checked.has("error"):
		return checked["error"]
	var keys: Array[String] = checked["monitors"]
	var series := {}
	for key: String in keys:
		series[key] = []
	var frame_times: Array = []
	var tree := _tree(context)
	var stopped := ""
	# Start on a frame boundary, so the first interval is a whole frame; the time limit counts from
	# there and is checked only once a frame is in, so even a very slow game is summarised.
	await tree.process_frame
	var started := Time.get_ticks_msec()
	var last := Time.get_ticks_usec()
	for _frame in int(checked["frames"]):
		if job != null and job.is_cancelled():
			stopped = STOP_CANCELLED
			break
		if not frame_times.is_empty() and Time.get_ticks_msec() - started >= limit_ms:
			stopped = STOP_TIME_LIMIT
			break
		await tree.process_frame
		var now := Time.get_ticks_usec()
		frame_times.append((now - last) / 1000.0)
		last = now
		for key: String in keys:
			series[key].append(Monitors.read(key))
	var elapsed := Time.get_ticks_msec() - started
	var result := _report(checked, frame_times, series, stopped, elapsed)
	if stopped == STOP_TIME_LIMIT:
		result["hint"] = "Sampling stops after %d ms; the game ran %d of %d frames in that time. Ask for fewer frames." % [
			limit_ms, frame_times.size(), checked["frames"]]
	return ToolkitSuccess.ok(result)


static func _report(checked: Dictionary, frame_times: Array, series: Dictionary, stopped: String,
		elapsed_ms: int) -> Dictionary:
	var stats := {FRAME_TIME: FrameStats.summarize(frame_times)}
	for key: String in series:
		stats[key] = FrameStats.summarize(series[key])
	var result := {"frames_requested": checked["frames"], "frames_sampled": frame_times.size(),
		"elapsed_ms": elapsed_ms, "spike_factor": checked["spike_factor"], "stats": stats,
		"spikes": FrameStats.spikes(frame_times, checked["spike_factor"], series),
		"script_profile": SCRIPT_PROFILE}
	if stopped == STOP_CANCELLED:
		result["cancelled"] = true
	elif stopped == STOP_TIME_LIMIT:
		result["stopped"] = STOP_TIME_LIMIT
	return result


## {"frames", "spike_factor", "monitors"} or {"error": envelope}: everything checked before waiting.
static func _checked_sample(params: Dictionary) -> Dictionary:
	var frames: Variant = params.get("frames", DEFAULT_FRAMES)
	if not Params.is_whole_number(frames) or int(frames) < MIN_FRAMES or int(frames) > MAX_FRAMES:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "frames must be a whole number from %d to %d, got %s" % [
			MIN_FRAMES, MAX_FRAMES, JSON.stringify(frames)])}
	var factor: Variant = params.get("spike_factor", DEFAULT_SPIKE_FACTOR)
	if not Params.is_number(factor) or float(factor) < MIN_SPIKE_FACTOR or float(factor) > MAX_SPIKE_FACTOR:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "spike_factor must be a number from %s to %s, got %s" % [
			MIN_SPIKE_FACTOR, MAX_SPIKE_FACTOR, JSON.stringify(factor)])}
	var wanted: Variant = params.get("monitors", Monitors.SAMPLE_DEFAULT)
	if not wanted is Array:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "monitors must be an array of monitor names",
			"e.g. [\"process_time_ms\", \"draw_calls\"]")}
	var keys: Array[String] = []
	for name: Variant in wanted:
		if name is String and name == FRAME_TIME:
			continue  # always sampled; naming it is harmless
		if not name is String or not Monitors.exists(name):
			return {"error": ToolkitError.fail("INVALID_PARAMS", "monitors: unknown monitor %s" % JSON.stringify(name),
				"Known here: %s, or custom:<id> for a monitor the game added." % ", ".join(Monitors.available()))}
		if not name in keys:
			keys.append(name)
	return {"frames": int(frames), "spike_factor": float(factor), "monitors": keys}


static func _tree(context: RefCounted) -> SceneTree:
	var root: Node = context.scenes.scene_root()
	if root != null and root.is_inside_tree():
		return root.get_tree()
	return Engine.get_main_loop() as SceneTree
