@tool
extends "res://addons/godot_mcp_toolkit/context/role.gd"
## The processes the editor starts: playing the game, and a separate Godot process that runs the
## project's tests. Play is the editor's own (this base cannot play); the processes are real here
## (OS is runtime-safe, so the editor's context keeps them as they are) and the runtime context
## replaces them with a recorded fake so tests need no second process. Runtime-safe.


## Runs the scene at `path` ("" = the project's main scene), adding `extra_args` to the game's
## command line (e.g. --headless). May await a frame in the editor, so callers await it.
func play_scene(_path: String = "", _extra_args: PackedStringArray = PackedStringArray()) -> Error:
	_unavailable("play_scene")
	return ERR_UNAVAILABLE


func stop_playing() -> void:
	pass


func is_playing() -> bool:
	return false


## The Godot binary this editor runs on, to start a test process with.
func executable_path() -> String:
	return OS.get_executable_path()


## Starts `path` with `args` without waiting; the pid, or -1 when it could not start.
func start_process(path: String, args: PackedStringArray) -> int:
	return OS.create_process(path, args, false)


func is_process_running(pid: int) -> bool:
	return OS.is_process_running(pid)


func kill_process(pid: int) -> Error:
	return OS.kill(pid)


## The exit code of a finished process; -1 when unknown (Godot before 4.3 cannot tell).
func process_exit_code(pid: int) -> int:
	if Engine.get_version_info().hex < 0x040300:
		return -1
	# Named by string: OS.get_process_exit_code does not exist (so would not compile) before 4.3.
	return int(OS.call("get_process_exit_code", pid))
