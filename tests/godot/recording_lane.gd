extends RefCounted
## A real DispatchLane over a command registry whose answers land in a dictionary by request id,
## for tests that submit through the lane and drive the frames themselves (progress notifications
## are dropped; the clock is the engine's, the watchdog grace 5 s). Not a test itself.

const DispatchLane := preload("res://addons/godot_mcp_toolkit/transport/dispatch/dispatch_lane.gd")


static func over(registry: RefCounted, responses: Dictionary) -> DispatchLane:
	return DispatchLane.new(Callable(registry, "dispatch_info"),
		func(_peer: int, frame: Dictionary) -> void: responses[frame["id"]] = frame,
		func(_peer: int, _kind: String, _id: Variant) -> void: pass,
		func() -> int: return Time.get_ticks_msec(), func() -> int: return 5000)
