@tool
extends RefCounted
## First stop for every authenticated frame (contract C5): parses JSON-RPC 2.0, answers what is
## malformed or unknown, and tells the server what to do with the rest. Owns no socket, so it is
## testable with strings. Runtime-safe: the game server routes through it too.
##
## route() returns one of:
##   {"action": "respond", "response": <JSON-RPC response>}
##   {"action": "dispatch", "id", "method", "params"}
##   {"action": "cancel", "request_id", "has_id", "id"}    client notification _cancel
##   {"action": "echo", "params"}                            client notification echo
##   {"action": "ignore"}                                    any other notification

const PARSE_ERROR := -32700
const INVALID_REQUEST := -32600
const METHOD_NOT_FOUND := -32601
const WATCHDOG_TIMEOUT := -32000

const CANCEL_METHOD := "_cancel"
const ECHO_METHOD := "echo"

## `is_dispatchable(method) -> bool`: registered and allowed on this engine version.
var _is_dispatchable: Callable


func _init(is_dispatchable: Callable) -> void:
	_is_dispatchable = is_dispatchable


func route(text: String) -> Dictionary:
	var parsed := parse(text)
	if not parsed["ok"]:
		return _respond(parsed["response"])
	var message: Dictionary = parsed["message"]
	var method: String = message["method"]
	if method == CANCEL_METHOD:
		var params: Dictionary = message["params"]
		# Coerced like an id: a numeric request_id (JSON float 7.0) must match the request whose id
		# was coerced to 7, since cancels are matched on the id's text form.
		return {"action": "cancel", "request_id": normalize_id(params.get("request_id")),
			"has_id": message["has_id"], "id": message["id"]}
	if not message["has_id"]:
		return {"action": "echo", "params": message["params"]} if method == ECHO_METHOD else {"action": "ignore"}
	if not bool(_is_dispatchable.call(method)):
		return _respond(error_response(message["id"], METHOD_NOT_FOUND, "Method not found: %s" % method))
	return {"action": "dispatch", "id": message["id"], "method": method, "params": message["params"]}


## {"ok": true, "message": {"has_id", "id", "method", "params"}} or {"ok": false, "response"}.
## Checks in JSON-RPC order, so the most basic fault is the one reported.
static func parse(text: String) -> Dictionary:
	var json := JSON.new()
	if json.parse(text) != OK:
		return _invalid(null, PARSE_ERROR, "Parse error: %s" % json.get_error_message())
	if not json.data is Dictionary:
		return _invalid(null, INVALID_REQUEST, "Invalid request: expected one JSON object per frame")
	var frame: Dictionary = json.data
	var has_id := frame.has("id")
	var id: Variant = normalize_id(frame.get("id"))
	var fault := _fault(frame, id)
	if not fault.is_empty():
		return _invalid(id if id is int or id is String else null, INVALID_REQUEST, "Invalid request: %s" % fault)
	var params: Variant = frame.get("params")
	return {"ok": true, "message": {
		"has_id": has_id, "id": id, "method": frame["method"], "params": params if params is Dictionary else {},
	}}


## JSON numbers arrive as floats; a whole one goes back to int so {"id": 1} round-trips as 1.
static func normalize_id(raw: Variant) -> Variant:
	if raw is float and is_finite(raw) and (raw as float) == floorf(raw):
		return int(raw)
	return raw


static func error_response(id: Variant, code: int, message: String) -> Dictionary:
	return {"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}


static func result_response(id: Variant, result: Variant) -> Dictionary:
	return {"jsonrpc": "2.0", "id": id, "result": result}


## "" when the frame is a well-formed request or notification, else what is wrong with it.
static func _fault(frame: Dictionary, id: Variant) -> String:
	var fault := ""
	if frame.has("jsonrpc") and not (frame["jsonrpc"] is String and frame["jsonrpc"] == "2.0"):
		fault = "jsonrpc must be \"2.0\""
	elif frame.has("id") and not (id == null or id is int or id is String):
		fault = "id must be a string, a whole number or null"
	elif not frame.get("method") is String or (frame["method"] as String).is_empty():
		fault = "method must be a non-empty string"
	elif frame.get("params") != null and not frame["params"] is Dictionary:
		fault = "params must be an object"
	return fault


static func _invalid(id: Variant, code: int, message: String) -> Dictionary:
	return {"ok": false, "response": error_response(id, code, message)}


static func _respond(response: Dictionary) -> Dictionary:
	return {"action": "respond", "response": response}
