@tool
extends RefCounted
## Idempotent creates (contract C6): the `if_exists` request switch and the `status` result
## discriminator. Pure; runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")

const STATUS_CREATED := "created"
const STATUS_RETURNED := "returned"
const STATUS_REPLACED := "replaced"

const IF_EXISTS_RETURN := "return"
const IF_EXISTS_FAIL := "fail"
const IF_EXISTS_REPLACE := "replace"
const IF_EXISTS_MODES := [IF_EXISTS_RETURN, IF_EXISTS_FAIL, IF_EXISTS_REPLACE]

## What a create handler should do next (see decide()).
const ACTION_CREATE := "create"
const ACTION_RETURN := "return"
const ACTION_REPLACE := "replace"
const ACTION_FAIL := "fail"


## Reads `if_exists` (default "return"): {"ok": true, "mode"} or {"ok": false, "error"}.
static func read_mode(params: Dictionary) -> Dictionary:
	var mode: Variant = params.get("if_exists", IF_EXISTS_RETURN)
	if not mode is String or not mode in IF_EXISTS_MODES:
		var message := "if_exists must be one of %s, got %s" % [", ".join(PackedStringArray(IF_EXISTS_MODES)), str(mode)]
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", message)}
	return {"ok": true, "mode": mode}


## The action for a file-level create given whether the target already `exists`.
static func decide(mode: String, exists: bool) -> String:
	if not exists:
		return ACTION_CREATE
	if mode == IF_EXISTS_FAIL:
		return ACTION_FAIL
	if mode == IF_EXISTS_REPLACE:
		return ACTION_REPLACE
	return ACTION_RETURN


## The ALREADY_EXISTS envelope for if_exists:"fail", with the way out in the message.
static func already_exists(path: String) -> Dictionary:
	return ToolkitError.fail("ALREADY_EXISTS",
		"%s already exists; pass if_exists:'replace' to overwrite or 'return' to reuse it" % path)


## Sets `status` on a success payload; returns it for chaining.
static func with_status(result: Dictionary, status: String) -> Dictionary:
	result["status"] = status
	return result
