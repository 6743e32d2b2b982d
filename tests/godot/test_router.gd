extends RefCounted
## transport/dispatch/server_request_router.gd: JSON-RPC parsing, error codes, id coercion, and
## the client notifications _cancel / echo.

const Assert := preload("assert.gd")
const Router := preload("res://addons/godot_mcp_toolkit/transport/dispatch/server_request_router.gd")

var _router: Router = null


func _init() -> void:
	_router = Router.new(func(method: String) -> bool: return method in ["echo", "scene.create"])


func test_unparsable_text_is_parse_error_with_null_id() -> void:
	var decision := _router.route("{not json")
	Assert.eq(decision["action"], "respond", "answered directly")
	Assert.eq(decision["response"]["error"]["code"], Router.PARSE_ERROR, "-32700")
	Assert.eq(decision["response"]["id"], null, "no id can be known")
	Assert.eq(decision["response"]["jsonrpc"], "2.0", "JSON-RPC 2.0 frame")


func test_non_object_frames_are_invalid_requests() -> void:
	for text: String in ["[1, 2]", "42", "\"text\"", "null"]:
		var decision := _router.route(text)
		Assert.eq(decision["response"]["error"]["code"], Router.INVALID_REQUEST, "-32600 for %s" % text)


func test_malformed_requests_are_invalid_and_keep_a_usable_id() -> void:
	var cases := {
		"{\"jsonrpc\": \"2.0\", \"id\": 1}": 1,
		"{\"jsonrpc\": \"1.0\", \"id\": 2, \"method\": \"echo\"}": 2,
		"{\"jsonrpc\": 2, \"id\": 3, \"method\": \"echo\"}": 3,
		"{\"jsonrpc\": \"2.0\", \"id\": 4, \"method\": \"\"}": 4,
		"{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\": \"echo\", \"params\": [1]}": 5,
		"{\"jsonrpc\": \"2.0\", \"id\": true, \"method\": \"echo\"}": null,
		"{\"jsonrpc\": \"2.0\", \"id\": {\"a\": 1}, \"method\": \"echo\"}": null,
	}
	for text: String in cases:
		var response: Dictionary = _router.route(text)["response"]
		Assert.eq(response["error"]["code"], Router.INVALID_REQUEST, "-32600 for %s" % text)
		Assert.eq(response["id"], cases[text], "id echoed for %s" % text)


func test_unknown_method_is_method_not_found() -> void:
	var decision := _router.route("{\"jsonrpc\": \"2.0\", \"id\": 9, \"method\": \"nope.nothing\"}")
	Assert.eq(decision["response"]["error"]["code"], Router.METHOD_NOT_FOUND, "-32601")
	Assert.contains(decision["response"]["error"]["message"], "nope.nothing", "names the method")
	Assert.eq(typeof(decision["response"]["id"]), TYPE_INT, "id back as int")


func test_whole_float_ids_come_back_as_int() -> void:
	var decision := _router.route("{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"echo\", \"params\": {\"a\": 1}}")
	Assert.eq(decision["action"], "dispatch", "known method is dispatched")
	Assert.eq(typeof(decision["id"]), TYPE_INT, "JSON 7 is int again")
	Assert.eq(decision["id"], 7, "same value")
	Assert.eq(decision["params"], {"a": 1}, "params passed on")
	Assert.eq(typeof(Router.normalize_id(7.5)), TYPE_FLOAT, "a fractional id stays a float")
	Assert.eq(Router.normalize_id("req-1"), "req-1", "string ids untouched")


func test_missing_params_become_an_empty_object() -> void:
	var decision := _router.route("{\"jsonrpc\": \"2.0\", \"id\": \"a\", \"method\": \"scene.create\", \"params\": null}")
	Assert.eq(decision["action"], "dispatch", "null params accepted")
	Assert.eq(decision["params"], {}, "as {}")
	Assert.eq(decision["id"], "a", "string id")


func test_cancel_notification() -> void:
	var decision := _router.route("{\"jsonrpc\": \"2.0\", \"method\": \"_cancel\", \"params\": {\"request_id\": \"7\"}}")
	Assert.eq(decision["action"], "cancel", "_cancel recognised")
	Assert.eq(decision["request_id"], "7", "request id carried")
	Assert.is_false(decision["has_id"], "a notification: no response owed")
	var numeric := _router.route("{\"jsonrpc\": \"2.0\", \"method\": \"_cancel\", \"params\": {\"request_id\": 7}}")
	Assert.eq(str(numeric["request_id"]), "7", "a numeric request_id has the same text form as the id 7")


func test_echo_notification_and_other_notifications() -> void:
	var echo := _router.route("{\"jsonrpc\": \"2.0\", \"method\": \"echo\", \"params\": {\"n\": 1}}")
	Assert.eq(echo["action"], "echo", "echo notification")
	Assert.eq(echo["params"], {"n": 1}, "params to echo back")
	var other := _router.route("{\"jsonrpc\": \"2.0\", \"method\": \"scene.create\"}")
	Assert.eq(other["action"], "ignore", "other notifications get no answer")


func test_echo_request_is_dispatched_like_any_command() -> void:
	var decision := _router.route("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"echo\"}")
	Assert.eq(decision["action"], "dispatch", "echo with an id is a normal request")
