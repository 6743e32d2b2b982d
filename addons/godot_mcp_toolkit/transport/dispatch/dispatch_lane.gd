@tool
extends RefCounted
## Scheduling for editor commands (contract C5). Three rules, applied in this order:
##   1. Scene lease: a peer that opened a scene (a command marked leases_scene) has affinity to it;
##      its scene-dependent commands wait while another scene is the active tab, so an edit never
##      lands in the wrong scene because the user switched tabs.
##   2. Reads (read_only) run at once, without the lock, even while a mutation is awaiting
##      something, so a long mutation never stalls inspection.
##   3. Mutations run one at a time in arrival order. A command marked exclusive additionally waits
##      for in-flight reads to drain and holds new reads back until it is done.
## A parked command is announced with _queued; a mutation that starts, with _executing. Handlers
## may be coroutines. Owns no socket: responses and notifications go out through injected
## callables, and the clock is injected, so the whole lane runs in headless tests.

const ToolContext := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_tool_context.gd")
const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const EnvelopeCheck := preload("res://addons/godot_mcp_toolkit/contract/envelope_check.gd")
const Router := preload("res://addons/godot_mcp_toolkit/transport/dispatch/server_request_router.gd")
const Watchdog := preload("res://addons/godot_mcp_toolkit/transport/dispatch/mutation_watchdog.gd")

## How long a command may wait for its leased scene to become the active tab. Bounded so a
## command the bridge has long given up on does not run minutes later when the user switches back.
const LEASE_WAIT_MS := 30000

## `lookup(method) -> Dictionary` (registry.dispatch_info), `respond(peer_id, response)`,
## `progress(peer_id, method, request_id)` for _queued/_executing.
var _lookup: Callable
var _respond: Callable
var _progress: Callable
var _clock: Callable
## `active_scene() -> String`: res:// path of the active scene tab; unset disables the lease.
var _active_scene := Callable()
## `report(peer_id, request_id, progress, total, message)` for a handler's counted _progress.
var _report := Callable()
## Told of every mutation's start and end (call_started(method, params) -> token, then
## call_finished(token)): the context's edit ledger, edits/edit_ledger.gd. Null: nobody.
var _edit_recorder: Object = null
var _watchdog: Watchdog

var _serial := 0
var _lease_waiting: Array[Dictionary] = []
var _read_waiting: Array[Dictionary] = []
var _mutation_queue: Array[Dictionary] = []
var _mutation: Dictionary = {}
## serial -> job
var _reads: Dictionary = {}
## peer_id -> res:// scene path
var _affinity: Dictionary = {}


func _init(lookup: Callable, respond: Callable, progress: Callable, clock: Callable, grace_ms: Callable) -> void:
	_lookup = lookup
	_respond = respond
	_progress = progress
	_clock = clock
	_watchdog = Watchdog.new(clock, grace_ms)


func set_active_scene_provider(provider: Callable) -> void:
	_active_scene = provider


## Lets cancellable handlers report counted progress (ToolContext.report_progress); unset, they cannot.
func set_progress_reporter(report: Callable) -> void:
	_report = report


## Brackets every mutation for `recorder` (the assistant's history: one entry per call).
func set_edit_recorder(recorder: Object) -> void:
	_edit_recorder = recorder


func set_affinity(peer_id: int, scene_path: String) -> void:
	if scene_path.is_empty():
		_affinity.erase(peer_id)
	else:
		_affinity[peer_id] = scene_path


func get_affinity(peer_id: int) -> String:
	return str(_affinity.get(peer_id, ""))


## Entry point for a routed request.
func submit(peer_id: int, id: Variant, method: String, params: Dictionary) -> void:
	var info: Dictionary = _lookup.call(method)
	if info.is_empty():
		# Unregistered between routing and here (an extension hot-reload).
		_respond.call(peer_id, Router.error_response(id, Router.METHOD_NOT_FOUND, "Method not found: %s" % method))
		return
	_serial += 1
	var job := {
		"serial": _serial, "peer_id": peer_id, "id": id, "method": method, "params": params,
		"info": info, "ctx": ToolContext.new(id, peer_id, method), "since_ms": int(_clock.call()),
	}
	(job["ctx"] as ToolContext).reporter = _report
	if _lease_blocks(job):
		_park(_lease_waiting, job)
		return
	_route(job)


## _cancel from `peer_id`: a parked command is dropped without running (the bridge has already
## given up on it); a running one has its context cancelled. True when something matched.
func cancel(peer_id: int, request_id: Variant) -> bool:
	for queue: Array in _parked_queues():
		for job: Dictionary in queue:
			if _matches(job, peer_id, request_id):
				queue.erase(job)
				_pump()
				return true
	for job: Dictionary in _running():
		if _matches(job, peer_id, request_id):
			(job["ctx"] as ToolContext).cancel()
			return true
	return false


## A peer went away: forget its parked commands and its lease. Running ones finish; their
## responses are dropped by the transport.
func drop_peer(peer_id: int) -> void:
	for queue: Array in _parked_queues():
		for job: Dictionary in queue.duplicate():
			if job["peer_id"] == peer_id:
				queue.erase(job)
	_affinity.erase(peer_id)
	_pump()


## True while a command from `peer_id` is parked or running.
func has_jobs(peer_id: int) -> bool:
	for job: Dictionary in _running():
		if job["peer_id"] == peer_id:
			return true
	for queue: Array in _parked_queues():
		for job: Dictionary in queue:
			if job["peer_id"] == peer_id:
				return true
	return false


## Once per editor frame: the watchdog, then parked lease waiters.
func tick() -> void:
	var expired := _watchdog.take_expired()
	if expired >= 0 and not _mutation.is_empty() and _mutation["serial"] == expired:
		_expire_mutation()
	_recheck_leases()


## For status displays and tests.
func snapshot() -> Dictionary:
	return {
		"mutation": _mutation.get("method", ""),
		"mutation_queue": _mutation_queue.map(func(job: Dictionary) -> String: return job["method"]),
		"reads": _reads.size(),
		"lease_waiting": _lease_waiting.size(),
		"read_waiting": _read_waiting.size(),
	}


# --- routing -----------------------------------------------------------------------------------

func _route(job: Dictionary) -> void:
	var info: Dictionary = job["info"]
	if info["read_only"] and not info["exclusive"]:
		if _exclusive_pending():
			_park(_read_waiting, job)
		else:
			_start_read(job)
		return
	if not _mutation.is_empty() or not _mutation_queue.is_empty() or (info["exclusive"] and not _reads.is_empty()):
		_park(_mutation_queue, job)
		return
	_start_mutation(job)


func _park(queue: Array[Dictionary], job: Dictionary) -> void:
	queue.append(job)
	_progress.call(job["peer_id"], "_queued", job["id"])


## Starts the next mutation when the lane is free, then releases reads nothing holds back.
## The lease is checked again at the head of the queue: the user may have switched tabs while
## the command waited for the lock.
func _pump() -> void:
	while _mutation.is_empty() and not _mutation_queue.is_empty():
		var head: Dictionary = _mutation_queue[0]
		if head["info"]["exclusive"] and not _reads.is_empty():
			break
		_mutation_queue.pop_front()
		if _lease_blocks(head):
			_park(_lease_waiting, head)
			continue
		_start_mutation(head)
	if not _exclusive_pending() and not _read_waiting.is_empty():
		var released := _read_waiting.duplicate()
		_read_waiting.clear()
		for job: Dictionary in released:
			_start_read(job)


## An exclusive command is running or is next in line.
func _exclusive_pending() -> bool:
	if not _mutation.is_empty() and _mutation["info"]["exclusive"]:
		return true
	return not _mutation_queue.is_empty() and _mutation_queue[0]["info"]["exclusive"]


func _start_read(job: Dictionary) -> void:
	_reads[job["serial"]] = job
	_execute(job)


func _start_mutation(job: Dictionary) -> void:
	_mutation = job
	_progress.call(job["peer_id"], "_executing", job["id"])
	_watchdog.arm(job["serial"], int(job["info"]["timeout_ms"]))
	_execute(job)


# --- running -----------------------------------------------------------------------------------

## Calls the handler and, whenever it returns (at once or after awaiting), finishes the job.
## Not awaited by callers: the lane keeps serving reads while a mutation is suspended.
func _execute(job: Dictionary) -> void:
	var info: Dictionary = job["info"]
	var args: Array = [job["params"]]
	if info["cancellable"]:
		args.append(job["ctx"])
	var handler: Callable = info["handler"]
	var recorded: bool = _edit_recorder != null and not info["read_only"]
	var token: Variant = _edit_recorder.call("call_started", job["method"], job["params"]) if recorded else null
	var raw: Variant = await handler.callv(args)
	if recorded:
		_edit_recorder.call("call_finished", token)
	_finish(job, EnvelopeCheck.normalize(raw, job["method"]))


func _finish(job: Dictionary, envelope: Dictionary) -> void:
	var serial: int = job["serial"]
	if _reads.has(serial):
		_reads.erase(serial)
	elif not _mutation.is_empty() and _mutation["serial"] == serial:
		_watchdog.disarm(serial)
		_mutation = {}
	else:
		# The watchdog already answered for this mutation and moved on.
		push_warning("MCP toolkit: '%s' finished after its watchdog deadline; result dropped" % job["method"])
		return
	if job["info"]["leases_scene"] and envelope.get("success") is bool and envelope["success"]:
		var opened: Variant = envelope.get("path", job["params"].get("file_path", ""))
		if opened is String and not (opened as String).is_empty():
			_affinity[job["peer_id"]] = opened
	_respond.call(job["peer_id"], Router.result_response(job["id"], envelope))
	_pump()


func _expire_mutation() -> void:
	var job := _mutation
	_mutation = {}
	(job["ctx"] as ToolContext).cancel()
	var budget := _watchdog.budget_ms(int(job["info"]["timeout_ms"]))
	_respond.call(job["peer_id"], Router.error_response(job["id"], Router.WATCHDOG_TIMEOUT,
		"Mutation watchdog: '%s' did not finish within %d ms; the mutation lane was cleared" % [job["method"], budget]))
	_pump()


func _running() -> Array[Dictionary]:
	var running: Array[Dictionary] = []
	for job: Dictionary in _reads.values():
		running.append(job)
	if not _mutation.is_empty():
		running.append(_mutation)
	return running


# --- scene lease -------------------------------------------------------------------------------

func _lease_blocks(job: Dictionary) -> bool:
	if job["info"]["scene_independent"] or not _active_scene.is_valid():
		return false
	var wanted := get_affinity(job["peer_id"])
	return not wanted.is_empty() and str(_active_scene.call()) != wanted


func _recheck_leases() -> void:
	if _lease_waiting.is_empty():
		return
	var now := int(_clock.call())
	for job: Dictionary in _lease_waiting.duplicate():
		if not _lease_blocks(job):
			_lease_waiting.erase(job)
			_route(job)
		elif now - int(job["since_ms"]) >= LEASE_WAIT_MS:
			_lease_waiting.erase(job)
			var message := "Scene lease: this connection is working in %s but %s is the active tab" % [
				get_affinity(job["peer_id"]), str(_active_scene.call())]
			_respond.call(job["peer_id"], Router.result_response(job["id"], ToolkitError.fail("EDITED_SCENE",
				message, "Switch the editor back to that scene, or open the scene you want with scene.open.")))


func _parked_queues() -> Array:
	return [_lease_waiting, _read_waiting, _mutation_queue]


static func _matches(job: Dictionary, peer_id: int, request_id: Variant) -> bool:
	# The bridge sends request_id as a string even for numeric ids, so compare text forms.
	return job["peer_id"] == peer_id and str(job["id"]) == str(request_id)
