@tool
class_name MCPToolkitError
extends RefCounted
## Error envelope and the wire vocabulary of error codes (contract C3, C4). Public API.
##
## fail() is the only place an error envelope is built. A debug build asserts the code is in
## CODES; release builds strip asserts, so the wire stays string-tolerant and an unknown code
## still reaches the bridge verbatim. Runtime-safe: names no Editor* class.

## Every code the toolkit may put in an envelope. A CI check keeps emitted codes inside this list.
const CODES := [
	"ALREADY_EXISTS",
	"ALREADY_PLAYING",
	"BUSY",
	"CLASS_MISMATCH",
	"COMPILATION_FAILED",
	"CONNECT_FAILED",
	"CREATE_DIR_FAILED",
	"DELETE_FAILED",
	"DIR_NOT_EMPTY",
	"DISCONNECTED",
	"EDITED_SCENE",
	"EDITOR_VIEWPORT_UNAVAILABLE",
	"EMPTY_CONTENT",
	"EXECUTE_FAILED",
	"EXTERNAL_EDITOR_ACTIVE",
	"FAILED",
	"FILE_TOO_LARGE",
	"FILESYSTEM_NOT_READY",
	"FOLDER_PROTECTED",
	"GAME_NOT_RUNNING",
	"HEADLESS_UNSUPPORTED",
	"INTERNAL",
	"INVALID_CLASS",
	"INVALID_METHOD",
	"INVALID_PARAMS",
	"INVALID_PATH",
	"INVALID_STATE",
	"INVALID_VALUE",
	"LOAD_FAILED",
	"LOG_BUSY",
	"LOG_UNAVAILABLE",
	"NO_SCENE",
	"NODE_NOT_FOUND",
	"NOT_A_RESOURCE",
	"NOT_BREAKED",
	"NOT_FOUND",
	"NOT_UNIQUE",
	"PACK_FAILED",
	"PARENT_NOT_FOUND",
	"PARSE_ERROR",
	"PATH_DENIED",
	"PATH_IN_USE",
	"PROPERTY_NOT_FOUND",
	"READ_FAILED",
	"RESPONSE_TOO_LARGE",
	"RUNTIME_WINDOW_MINIMIZED",
	"SAVE_DELETE_FAILED",
	"SAVE_FAILED",
	"SAVE_READ_FAILED",
	"SAVE_WRITE_FAILED",
	"SET_FAILED",
	"TIMEOUT",
	"UNKNOWN_CLASS",
	"UNSUPPORTED",
	"UNSUPPORTED_FILE_TYPE",
	"WRITE_FAILED",
]

## Codes whose recovery advice is the same wherever they are raised, so fail() attaches it when
## the caller passes no hint of its own.
const DEFAULT_HINTS := {
	"TIMEOUT": "The editor did not finish in time and may still be busy. Retry, or wait for it to go idle first.",
	"UNSUPPORTED": "Not available on the connected Godot version or platform.",
	"PATH_DENIED": "Use a res:// path inside the project (user:// only where a tool says so); "
		+ "the toolkit's own folder and '..' segments are refused.",
	"PARENT_NOT_FOUND": "Check the parent path against the current scene tree; paths are relative to the scene root.",
	"COMPILATION_FAILED": "Fix the reported script errors, then retry.",
	"GAME_NOT_RUNNING": "Start the game first, then retry.",
	"RESPONSE_TOO_LARGE": "Ask for less (page with offset/limit or narrow the filter), "
		+ "or raise mcp_toolkit/limits/ws_buffer_kb with meta.set_limits.",
}


## {"success": false, "error": message, "code": code} plus "hint" when one is given or the code
## has a default. Never carries "status" (C3).
static func fail(code: String, message: String, hint: String = "") -> Dictionary:
	assert(code in CODES, "MCP toolkit: error code '%s' is not in MCPToolkitError.CODES" % code)
	var envelope := {"success": false, "error": message, "code": code}
	if not hint.is_empty():
		envelope["hint"] = hint
	elif DEFAULT_HINTS.has(code):
		envelope["hint"] = DEFAULT_HINTS[code]
	return envelope


static func is_known_code(code: Variant) -> bool:
	return code is String and code in CODES


## True for anything shaped like an error envelope, whatever its code.
static func is_failure(result: Variant) -> bool:
	if not result is Dictionary:
		return false
	var success: Variant = (result as Dictionary).get("success", true)
	return success is bool and not success
