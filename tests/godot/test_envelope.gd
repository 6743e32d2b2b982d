extends RefCounted
## The envelope and its helpers (contract C3, C4, C6, C8): ok/fail, default hints, the code
## vocabulary, require, the result check, pagination and idempotency.

const Assert := preload("assert.gd")
const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const EnvelopeCheck := preload("res://addons/godot_mcp_toolkit/contract/envelope_check.gd")
const Pagination := preload("res://addons/godot_mcp_toolkit/contract/pagination.gd")
const Idempotency := preload("res://addons/godot_mcp_toolkit/contract/idempotency.gd")

const HINTED := ["TIMEOUT", "UNSUPPORTED", "PATH_DENIED", "PARENT_NOT_FOUND", "COMPILATION_FAILED",
	"GAME_NOT_RUNNING", "RESPONSE_TOO_LARGE"]


func test_ok_adds_success_in_place() -> void:
	var data := {"path": "res://a.tscn"}
	var result := ToolkitSuccess.ok(data)
	Assert.eq(result, {"path": "res://a.tscn", "success": true}, "success added")
	Assert.is_true(data.has("success"), "the argument itself was changed")
	Assert.eq(ToolkitSuccess.ok(), {"success": true}, "empty payload")


func test_fail_without_a_hint_gets_the_codes_default() -> void:
	Assert.eq(ToolkitError.fail("NOT_FOUND", "no such node"),
		{"success": false, "error": "no such node", "code": "NOT_FOUND", "hint": ToolkitError.DEFAULT_HINTS["NOT_FOUND"]},
		"the default hint of NOT_FOUND")


func test_every_code_has_a_default_hint() -> void:
	Assert.eq(ToolkitError.DEFAULT_HINTS.size(), ToolkitError.CODES.size(), "one default per code")
	for code: String in ToolkitError.CODES:
		var envelope := ToolkitError.fail(code, "m")
		Assert.eq(envelope.get("hint"), ToolkitError.DEFAULT_HINTS.get(code), "%s gets its default hint" % code)
		Assert.is_false(str(envelope.get("hint", "")).is_empty(), "%s hint is not empty" % code)
	for code: String in ToolkitError.DEFAULT_HINTS:
		Assert.is_true(code in ToolkitError.CODES, "%s is a code" % code)
	Assert.eq(ToolkitError.fail("TIMEOUT", "m", "wait more")["hint"], "wait more", "explicit hint wins")
	Assert.eq(ToolkitError.fail("NOT_FOUND", "m", "look elsewhere")["hint"], "look elsewhere", "explicit hint added")
	Assert.eq(ToolkitError.fail("NOT_FOUND", "m", "")["hint"], ToolkitError.DEFAULT_HINTS["NOT_FOUND"],
		"an empty hint is no hint: the default")
	Assert.eq(ToolkitError.default_hint("MY_EXTENSION_CODE"), ToolkitError.FALLBACK_HINT,
		"a code outside the vocabulary still gets advice")


func test_vocabulary_is_the_56_codes() -> void:
	Assert.eq(ToolkitError.CODES.size(), 56, "56 codes")
	for code: String in HINTED:
		Assert.is_true(code in ToolkitError.CODES, "%s in CODES" % code)
	Assert.is_true(ToolkitError.is_known_code("NOT_UNIQUE"), "known")
	Assert.is_false(ToolkitError.is_known_code("NODE_MISSING"), "unknown")
	Assert.is_true(ToolkitError.is_failure(ToolkitError.fail("FAILED", "x")), "a failure")
	Assert.is_false(ToolkitError.is_failure({"success": "false"}), "only a real false counts")


func test_require_names_every_missing_parameter() -> void:
	Assert.eq(Params.require({"a": 1, "b": null}, ["a"]), {}, "present")
	var missing := Params.require({"b": null}, ["a", "b", "c"])
	Assert.eq(missing["code"], "INVALID_PARAMS", "INVALID_PARAMS")
	Assert.contains(missing["error"], "a, b, c", "all of them, null counts as missing")


func test_result_check() -> void:
	Assert.eq(EnvelopeCheck.normalize(null, "x.y")["code"], "INTERNAL", "no result is INTERNAL")
	Assert.eq(EnvelopeCheck.normalize({"n": 1}, "x.y"), {"n": 1, "success": true}, "missing success means success")
	var failure := ToolkitError.fail("NOT_FOUND", "m")
	Assert.eq(EnvelopeCheck.normalize(failure, "x.y"), failure, "an envelope passes unchanged")


func test_pagination_fields() -> void:
	var first := {"returned": 10, "total_nodes": 25, "has_more": true, "next_offset": 10}
	Assert.eq(Pagination.fields(10, 25, "nodes", 0), first, "first page")
	Assert.eq(Pagination.fields(5, 25, "nodes", 20), {"returned": 5, "total_nodes": 25, "has_more": false}, "last page")
	var page := Pagination.page([1, 2, 3, 4, 5], 1, 2, "lines")
	Assert.eq(page, {"items": [2, 3], "returned": 2, "total_lines": 5, "has_more": true, "next_offset": 3}, "page slice")
	Assert.eq(Pagination.window({"offset": 2.0, "limit": 9999}, 100, 500), {"ok": true, "offset": 2, "limit": 500},
		"whole floats accepted, limit clamped")
	Assert.is_false(Pagination.window({"offset": -1}, 100, 500)["ok"], "negative offset refused")


func test_idempotency() -> void:
	Assert.eq(Idempotency.read_mode({}), {"ok": true, "mode": "return"}, "return by default")
	var bad := Idempotency.read_mode({"if_exists": "overwrite"})
	Assert.eq(bad["error"]["code"], "INVALID_PARAMS", "unknown mode refused")
	Assert.eq(Idempotency.decide("fail", false), "create", "nothing there: create")
	Assert.eq(Idempotency.decide("return", true), "return", "return")
	Assert.eq(Idempotency.decide("replace", true), "replace", "replace")
	Assert.eq(Idempotency.decide("fail", true), "fail", "fail")
	Assert.eq(Idempotency.already_exists("res://a.tres")["code"], "ALREADY_EXISTS", "ALREADY_EXISTS")
	Assert.eq(Idempotency.with_status({"success": true}, "replaced")["status"], "replaced", "status set")
