@tool
extends "res://addons/godot_mcp_toolkit/context/game_role.gd"
## The runtime context's game and processes: a play is recorded (and succeeds or fails as the
## editor's would for the same scene), and a fake process table stands in for a second Godot: a
## test sets `process_runner`, a Callable(path, args) -> Dictionary that does what the real process
## would (writes its report) and says {"polls": frames it keeps running (-1 = never ends),
## "exit_code": int}. Without it no process can start, as in a game. Runtime-safe.

## What a host (the end-to-end engine host) reacts to instead of polling.
signal play_started(path: String)
signal play_stopped

var played_scenes := PackedStringArray()
## The extra command-line arguments of each play, in step with played_scenes.
var played_args: Array[PackedStringArray] = []
var process_runner := Callable()
## What was started ({"path", "args"}) and killed, in order.
var started_processes: Array[Dictionary] = []
var killed_processes: Array[int] = []

var _playing := false
## pid -> {"polls", "exit_code"} of the fake processes.
var _processes: Dictionary = {}
var _next_pid := 1000


func play_scene(path: String = "", extra_args: PackedStringArray = PackedStringArray()) -> Error:
	var target := path
	if target.is_empty():
		target = str(ProjectSettings.get_setting("application/run/main_scene", ""))
		if target.is_empty():
			return ERR_UNCONFIGURED
	if not ResourceLoader.exists(target):
		return ERR_FILE_NOT_FOUND
	played_scenes.append(target)
	played_args.append(extra_args)
	_playing = true
	play_started.emit(target)
	return OK


func stop_playing() -> void:
	if _playing:
		_playing = false
		play_stopped.emit()


func is_playing() -> bool:
	return _playing


func executable_path() -> String:
	return "/fake/godot"


func start_process(path: String, args: PackedStringArray) -> int:
	started_processes.append({"path": path, "args": args})
	if not process_runner.is_valid():
		return -1
	var plan: Dictionary = process_runner.call(path, args)
	_next_pid += 1
	_processes[_next_pid] = {"polls": int(plan.get("polls", 0)), "exit_code": int(plan.get("exit_code", 0))}
	return _next_pid


func is_process_running(pid: int) -> bool:
	var process: Dictionary = _processes.get(pid, {})
	if process.is_empty() or process["polls"] == 0:
		return false
	if process["polls"] > 0:
		process["polls"] -= 1
	return true


func kill_process(pid: int) -> Error:
	if not _processes.has(pid):
		return ERR_DOES_NOT_EXIST
	killed_processes.append(pid)
	_processes[pid]["polls"] = 0
	_processes[pid]["exit_code"] = -1
	return OK


func process_exit_code(pid: int) -> int:
	return int(_processes.get(pid, {}).get("exit_code", -1))
