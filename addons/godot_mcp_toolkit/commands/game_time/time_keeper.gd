@tool
extends RefCounted
## The game's clock as the assistant controls it (commands/game_time/game_time_commands.gd): holds the game
## paused, steps it N process or physics frames or until a check says stop, and sets the time
## scale. One keeper per context (attach / of), shared with input.simulate.
##
## Driven by SceneTree.process_frame and physics_frame, which fire at the start of every frame
## before any node processes, paused or not. So a step starts and ends on whole frames, and a game
## script that unpauses the tree is overridden before the next frame's nodes run (the keeper is
## not a Node, so nothing about it can be paused). Input that input.simulate sends while the game
## is held is queued here and delivered when the next step's first frame starts: paused nodes get
## no _input, and is_action_just_pressed() only holds in the frame the event arrived.
## RUNTIME-REACHABLE: names no Editor* class.

signal step_finished

const META_KEY := &"mcp_time_keeper"
const UNIT_PROCESS := "process"
const UNIT_PHYSICS := "physics"
## Why a step stopped (the `stopped` key of its report).
const STOP_FRAMES := "frames"
const STOP_TIMEOUT := "timeout"
const STOP_CANCELLED := "cancelled"


## One step in progress. `check() -> String` runs at every frame boundary of the counted unit
## after the first: a non-empty answer stops the step with that reason.
class Run:
	extends RefCounted
	var unit := UNIT_PROCESS
	var frames := 1
	var check := Callable()
	var deadline_ms := 0
	var job: RefCounted = null
	var started := false
	var stopped := ""
	var process_frames := 0
	var physics_frames := 0
	var process_time := 0.0
	var physics_time := 0.0


var _tree: SceneTree = null
var _held := false
## The tree's pause as the game itself wants it, restored on release: what it was when the hold
## began, false once the game unpaused during the hold.
var _game_paused := false
var _overrides := 0
var _queued: Array[InputEvent] = []
var _run: Run = null


func _init(tree: SceneTree) -> void:
	_tree = tree
	_tree.process_frame.connect(_on_frame.bind(UNIT_PROCESS))
	_tree.physics_frame.connect(_on_frame.bind(UNIT_PHYSICS))


## The keeper of `context`, made on first use.
static func attach(context: RefCounted) -> RefCounted:
	if context.has_meta(META_KEY):
		return context.get_meta(META_KEY)
	var script: Script = load("res://addons/godot_mcp_toolkit/commands/game_time/time_keeper.gd")
	var keeper: RefCounted = script.new(Engine.get_main_loop() as SceneTree)
	context.set_meta(META_KEY, keeper)
	return keeper


## The keeper of `context`, or null when the time commands were never registered on it.
static func of(context: RefCounted) -> RefCounted:
	# has_meta first: get_meta with a null default still reports a missing key as an error.
	return context.get_meta(META_KEY) if context != null and context.has_meta(META_KEY) else null


func is_held() -> bool:
	return _held


## Pause the game for the assistant (idempotent).
func hold() -> void:
	if _held:
		return
	_game_paused = _tree.paused
	_held = true
	_tree.paused = true


## Give the clock back: the tree's pause goes back to what the game wants, and queued input is
## delivered now rather than lost.
func release() -> void:
	if not _held:
		return
	_held = false
	_tree.paused = _game_paused
	_deliver_queued()


## Queues input events for the next step when the game is held (true), else leaves them to the
## caller (false).
func queue_input(events: Array) -> bool:
	if not _held or _run != null:
		return false
	for event: InputEvent in events:
		_queued.append(event)
	return true


func set_time_scale(scale: float) -> float:
	var previous := Engine.time_scale
	Engine.time_scale = scale
	return previous


func state() -> Dictionary:
	return {
		"paused_by_assistant": _held,
		"tree_paused": _tree.paused,
		"time_scale": Engine.time_scale,
		"game_unpauses_overridden": _overrides,
		"queued_input_events": _queued.size(),
	}


## Runs the game for `frames` frames of `unit` (or until `check` answers a reason, `timeout_ms`
## passes or `job` is cancelled), holding it before and after. Returns the report: frames and
## game time stepped, the engine's frame totals, why it stopped, and the state.
func step(unit: String, frames: int, check: Callable, timeout_ms: int, job: RefCounted) -> Dictionary:
	hold()
	var run := Run.new()
	run.unit = unit
	run.frames = frames
	run.check = check
	run.deadline_ms = Time.get_ticks_msec() + timeout_ms
	run.job = job
	_run = run
	await step_finished
	return _report(run)


func _report(run: Run) -> Dictionary:
	var report := {
		"stopped": run.stopped,
		"unit": run.unit,
		"process_frames": run.process_frames,
		"physics_frames": run.physics_frames,
		"game_time_s": run.process_time if run.unit == UNIT_PROCESS else run.physics_time,
		"engine_process_frames": Engine.get_process_frames(),
		"engine_physics_frames": Engine.get_physics_frames(),
	}
	report.merge(state())
	return report


## At the start of every process (or physics) frame: a running step decides whether this frame
## runs; otherwise a held game stays paused.
func _on_frame(unit: String) -> void:
	if _run != null and _advance(_run, unit):
		return
	if _held and not _tree.paused:
		_tree.paused = true
		_overrides += 1
		_game_paused = false


## True when the step lets this frame run.
func _advance(run: Run, unit: String) -> bool:
	if not run.started:
		# A step begins on a boundary of the unit it counts, so its first frame is whole.
		if unit != run.unit:
			return false
		run.started = true
		_tree.paused = false
		_deliver_queued()
	elif unit == run.unit:
		var reason := _stop_reason(run)
		if not reason.is_empty():
			_finish(run, reason)
			return false
	# The step owns the pause while it runs, whatever the game's scripts set.
	_tree.paused = false
	if unit == UNIT_PROCESS:
		run.process_frames += 1
		run.process_time += _tree.root.get_process_delta_time()
	else:
		run.physics_frames += 1
		run.physics_time += _tree.root.get_physics_process_delta_time()
	return true


func _stop_reason(run: Run) -> String:
	if run.job != null and run.job.is_cancelled():
		return STOP_CANCELLED
	if run.check.is_valid():
		var reason := str(run.check.call())
		if not reason.is_empty():
			return reason
	var counted := run.process_frames if run.unit == UNIT_PROCESS else run.physics_frames
	if counted >= run.frames:
		return STOP_FRAMES
	if Time.get_ticks_msec() >= run.deadline_ms:
		return STOP_TIMEOUT
	return ""


func _finish(run: Run, reason: String) -> void:
	run.stopped = reason
	_run = null
	_tree.paused = true
	step_finished.emit()


func _deliver_queued() -> void:
	if _queued.is_empty():
		return
	for event: InputEvent in _queued:
		Input.parse_input_event(event)
	_queued.clear()
	Input.flush_buffered_events()
