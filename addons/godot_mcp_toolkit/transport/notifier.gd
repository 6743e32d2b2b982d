@tool
extends RefCounted
## Server-to-client notification frames (contract C5, C14). Two wire shapes, kept apart on
## purpose because the bridge reads them differently:
##   dispatch progress  {"jsonrpc": "2.0", "method": "_queued"|"_executing", "params": {"request_id"}}
##                      which the bridge matches to a pending request to restart its timeout;
##   counted progress   {"jsonrpc": "2.0", "method": "_progress", "params": {"request_id", "progress",
##                      "total", "message"}} from a long handler (test.run), read the same way;
##   plugin events      {"notification": <name>, "params": {...}}  (params left out when empty),
##                      e.g. extensions.changed, game_stopped, errors.reported, game_crashed.
## Runtime-safe.

const QUEUED := "_queued"
const EXECUTING := "_executing"
const PROGRESS := "_progress"

## `send(peer_id, frame: Dictionary)` and `peer_ids() -> Array` (authenticated peers).
var _send: Callable
var _peer_ids: Callable


func _init(send: Callable, peer_ids: Callable) -> void:
	_send = send
	_peer_ids = peer_ids


static func progress_frame(method: String, request_id: Variant) -> Dictionary:
	return {"jsonrpc": "2.0", "method": method, "params": {"request_id": request_id}}


static func counted_frame(request_id: Variant, progress: float, total: float, message: String) -> Dictionary:
	return {"jsonrpc": "2.0", "method": PROGRESS, "params": {
		"request_id": request_id, "progress": progress, "total": total, "message": message}}


static func event_frame(event_name: String, params: Dictionary = {}) -> Dictionary:
	var frame := {"notification": event_name}
	if not params.is_empty():
		frame["params"] = params
	return frame


func queued(peer_id: int, request_id: Variant) -> void:
	_send.call(peer_id, progress_frame(QUEUED, request_id))


func executing(peer_id: int, request_id: Variant) -> void:
	_send.call(peer_id, progress_frame(EXECUTING, request_id))


func event(peer_id: int, event_name: String, params: Dictionary = {}) -> void:
	_send.call(peer_id, event_frame(event_name, params))


func broadcast(event_name: String, params: Dictionary = {}) -> void:
	var frame := event_frame(event_name, params)
	for peer_id: int in _peer_ids.call():
		_send.call(peer_id, frame)
