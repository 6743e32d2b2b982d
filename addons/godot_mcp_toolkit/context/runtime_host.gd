@tool
extends "res://addons/godot_mcp_toolkit/context/host_role.gd"
## The runtime context's host: a test sets whether it stands in for a headless process, and a host
## with a running frame loop whether a frame wait really waits. Runtime-safe.

## Whether this process has no display; a test sets it to stand in for `godot --headless`.
var headless := DisplayServer.get_name() == "headless"
## Whether wait_frame() awaits the next frame of the running loop (see wait_frame).
var frame_waits := false


func is_headless() -> bool:
	return headless


## No frame loop to wait on in a synchronous test: a millisecond passes instead, so a poll that
## is bounded by a timeout still reaches it. A host with a running frame loop (the end-to-end
## engine host) sets `frame_waits`, so a long wait lets the engine serve meanwhile (a cancel).
func wait_frame() -> void:
	if frame_waits:
		await (Engine.get_main_loop() as SceneTree).process_frame
		return
	OS.delay_msec(1)
