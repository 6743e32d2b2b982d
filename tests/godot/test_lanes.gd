extends RefCounted
## transport/dispatch/dispatch_lane.gd driven through the real command registry: FIFO mutations,
## the _queued/_executing order, reads bypassing the lock, exclusive commands, the watchdog,
## cancellation and the scene lease. Handlers that "take time" await a signal of this suite, which
## the test emits; a signal resumes its awaiting coroutine synchronously, so no frames pass.

signal release_slow
signal release_read

const Assert := preload("assert.gd")
const DispatchLane := preload("res://addons/godot_mcp_toolkit/transport/dispatch/dispatch_lane.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const CommandOptions := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_command_options.gd")
const ToolContext := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_tool_context.gd")
const Router := preload("res://addons/godot_mcp_toolkit/transport/dispatch/server_request_router.gd")
const Notifier := preload("res://addons/godot_mcp_toolkit/transport/notifier.gd")

const PEER := 1

var _state := {"now": 0, "scene": "res://a.tscn"}
## Everything the lane sent, in order: ["_queued"|"_executing", peer, id] or ["response", peer, frame].
var _sent: Array = []
var _log: Array[String] = []
var _last_ctx: ToolContext = null
var _registry: CommandRegistry = null
var _lane: DispatchLane = null


func _init() -> void:
	_registry = CommandRegistry.new()
	_lane = DispatchLane.new(_registry.dispatch_info, _on_respond, _on_progress,
		func() -> int: return _state["now"], func() -> int: return 0)
	_lane.set_active_scene_provider(func() -> String: return _state["scene"])
	var independent := func() -> CommandOptions: return CommandOptions.new().scene_independent()
	_registry.register_command("test.slow", _slow, independent.call().with_timeout_ms(1000))
	_registry.register_command("test.fast", _fast, independent.call())
	_registry.register_command("test.read", _read, independent.call().read_only())
	_registry.register_command("test.slow_read", _slow_read, independent.call().read_only())
	_registry.register_command("test.exclusive", _fast, independent.call().exclusive())
	_registry.register_command("test.cancellable", _cancellable, independent.call().cancellable())
	_registry.register_command("test.in_scene", _fast, CommandOptions.new())
	_registry.register_command("test.open", _open, CommandOptions.new().scene_independent().leases_scene())


func test_mutations_run_one_at_a_time_in_order() -> void:
	_lane.submit(PEER, 1, "test.slow", {})
	_lane.submit(PEER, 2, "test.fast", {})
	_lane.submit(PEER, 3, "test.fast", {})
	Assert.eq(_kinds(), ["_executing:1", "_queued:2", "_queued:3"], "first runs, the rest park")
	release_slow.emit()
	Assert.eq(_kinds(), ["_executing:1", "_queued:2", "_queued:3", "response:1", "_executing:2", "response:2",
		"_executing:3", "response:3"], "FIFO, each announced before it runs")
	Assert.eq(_log, ["slow:start", "slow:end", "fast", "fast"], "no overlap")


func test_reads_bypass_a_running_mutation() -> void:
	_lane.submit(PEER, 1, "test.slow", {})
	_lane.submit(PEER, 2, "test.read", {})
	Assert.eq(_kinds(), ["_executing:1", "response:2"], "the read answers while the mutation waits")
	Assert.eq(_lane.snapshot()["mutation"], "test.slow", "the mutation still holds the lane")
	release_slow.emit()
	Assert.eq(_kinds().back(), "response:1", "then the mutation finishes")


func test_results_are_wrapped_as_json_rpc_results() -> void:
	_lane.submit(PEER, 5, "test.fast", {})
	var frame: Dictionary = _sent.back()[2]
	Assert.eq(frame, {"jsonrpc": "2.0", "id": 5, "result": {"success": true, "done": "fast"}}, "result frame")


func test_exclusive_waits_for_reads_and_holds_new_reads_back() -> void:
	_lane.submit(PEER, 1, "test.slow_read", {})
	_lane.submit(PEER, 2, "test.exclusive", {})
	_lane.submit(PEER, 3, "test.read", {})
	Assert.eq(_kinds(), ["_queued:2", "_queued:3"], "exclusive waits for the read; the new read waits too")
	release_read.emit()
	Assert.eq(_kinds(), ["_queued:2", "_queued:3", "response:1", "_executing:2", "response:2", "response:3"],
		"read drains, exclusive runs alone, then the held read")


func test_watchdog_answers_minus_32000_and_clears_the_lane() -> void:
	_lane.submit(PEER, 1, "test.slow", {})
	_lane.submit(PEER, 2, "test.fast", {})
	_state["now"] = 999
	_lane.tick()
	Assert.eq(_kinds(), ["_executing:1", "_queued:2"], "within budget nothing happens")
	_state["now"] = 1000
	_lane.tick()
	var error_frame: Dictionary = _sent[2][2]
	Assert.eq(error_frame["id"], 1, "the stuck request is answered")
	Assert.eq(error_frame["error"]["code"], Router.WATCHDOG_TIMEOUT, "with -32000")
	Assert.eq(_kinds().slice(3), ["_executing:2", "response:2"], "the lane moved on")
	Assert.eq(_lane.snapshot()["mutation"], "", "and is free")
	release_slow.emit()
	Assert.eq(_sent.size(), 5, "a late finish of the expired handler sends nothing")


func test_cancel_drops_a_parked_command_and_flags_a_running_one() -> void:
	_lane.submit(PEER, 1, "test.cancellable", {})
	_lane.submit(PEER, 2, "test.fast", {})
	Assert.is_false(_lane.cancel(2, 1), "another peer cannot cancel")
	Assert.is_true(_lane.cancel(PEER, "2"), "string request_id matches numeric id 2")
	Assert.is_true(_lane.cancel(PEER, 1), "running command found")
	Assert.is_true(_last_ctx.is_cancelled(), "its context is cancelled")
	release_slow.emit()
	Assert.eq(_kinds(), ["_executing:1", "_queued:2", "response:1"], "the dropped command never runs")
	Assert.eq(_sent.back()[2]["result"]["stopped_early"], true, "handler saw the cancellation")


func test_unknown_method_at_submit_is_method_not_found() -> void:
	_lane.submit(PEER, 4, "test.missing", {})
	Assert.eq(_sent.back()[2]["error"]["code"], Router.METHOD_NOT_FOUND, "-32601")


func test_a_handler_returning_nothing_is_internal() -> void:
	_registry.register_command("test.broken", _broken, CommandOptions.new().scene_independent())
	_lane.submit(PEER, 6, "test.broken", {})
	Assert.eq(_sent.back()[2]["result"]["code"], "INTERNAL", "INTERNAL envelope")


func test_scene_lease_parks_until_the_scene_is_active() -> void:
	_lane.submit(PEER, 1, "test.open", {"file_path": "res://a.tscn"})
	Assert.eq(_lane.get_affinity(PEER), "res://a.tscn", "opening a scene leases it")
	_state["scene"] = "res://b.tscn"
	_lane.submit(PEER, 2, "test.in_scene", {})
	_lane.submit(PEER, 3, "test.fast", {})
	Assert.eq(_kinds().slice(2), ["_queued:2", "_executing:3", "response:3"],
		"scene-dependent command waits; scene-independent ones do not")
	_state["scene"] = "res://a.tscn"
	_lane.tick()
	Assert.eq(_kinds().slice(5), ["_executing:2", "response:2"], "runs once its scene is active again")


func test_scene_lease_wait_is_bounded() -> void:
	_lane.set_affinity(PEER, "res://a.tscn")
	_state["scene"] = "res://b.tscn"
	_lane.submit(PEER, 1, "test.in_scene", {})
	_state["now"] = DispatchLane.LEASE_WAIT_MS
	_lane.tick()
	Assert.eq(_sent.back()[2]["result"]["code"], "EDITED_SCENE", "gives up with EDITED_SCENE")


func test_peer_without_lease_is_not_held() -> void:
	_state["scene"] = "res://b.tscn"
	_lane.submit(2, 1, "test.in_scene", {})
	Assert.eq(_kinds(), ["_executing:1", "response:1"], "no affinity, no wait")


func test_drop_peer_forgets_its_queue_and_lease() -> void:
	_lane.set_affinity(PEER, "res://a.tscn")
	_lane.submit(PEER, 1, "test.slow", {})
	_lane.submit(PEER, 2, "test.fast", {})
	_lane.drop_peer(PEER)
	Assert.eq(_lane.get_affinity(PEER), "", "lease gone")
	release_slow.emit()
	Assert.eq(_kinds(), ["_executing:1", "_queued:2", "response:1"], "parked command dropped")


# --- handlers and sinks ------------------------------------------------------------------------

func _slow(_params: Dictionary) -> Dictionary:
	_log.append("slow:start")
	await release_slow
	_log.append("slow:end")
	return {"success": true, "done": "slow"}


func _fast(_params: Dictionary) -> Dictionary:
	_log.append("fast")
	return {"success": true, "done": "fast"}


func _read(_params: Dictionary) -> Dictionary:
	return {"success": true, "done": "read"}


func _slow_read(_params: Dictionary) -> Dictionary:
	await release_read
	return {"success": true, "done": "slow_read"}


func test_handlers_report_counted_progress_through_the_lane() -> void:
	var counted: Array = []
	_lane.set_progress_reporter(func(peer_id: int, id: Variant, progress: float, total: float, message: String) -> void:
		counted.append([peer_id, id, progress, total, message]))
	_lane.submit(PEER, 4, "test.cancellable", {})
	_last_ctx.report_progress(1, 3, "one of three")
	Assert.eq(counted, [[PEER, 4, 1.0, 3.0, "one of three"]], "the reporter hears the handler, with its request")
	release_slow.emit()
	var unwired := ToolContext.new(5, PEER, "test.cancellable")
	unwired.report_progress(2, 3, "nobody listens")
	Assert.eq(counted.size(), 1, "a context without a reporter stays quiet")
	Assert.eq(Notifier.counted_frame(4, 1, 3, "one of three"), {"jsonrpc": "2.0", "method": "_progress",
		"params": {"request_id": 4, "progress": 1, "total": 3, "message": "one of three"}},
		"the wire frame: a notification (no id), matched to its request like _queued")


func _cancellable(_params: Dictionary, ctx: ToolContext) -> Dictionary:
	_last_ctx = ctx
	await release_slow
	return {"success": true, "stopped_early": ctx.is_cancelled()}


func _open(params: Dictionary) -> Dictionary:
	return {"success": true, "path": params["file_path"]}


func _broken(_params: Dictionary) -> Variant:
	return null


func _on_respond(peer_id: int, frame: Dictionary) -> void:
	_sent.append(["response", peer_id, frame])


func _on_progress(peer_id: int, method: String, request_id: Variant) -> void:
	_sent.append([method, peer_id, request_id])


## "_queued:2", "response:1", ... for compact order assertions.
func _kinds() -> Array:
	var kinds := []
	for entry: Array in _sent:
		var id: Variant = entry[2]["id"] if entry[0] == "response" else entry[2]
		kinds.append("%s:%s" % [entry[0], str(id)])
	return kinds
