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

## Every code's recovery advice for when the caller has no more specific hint: fail() always
## attaches one, so no refusal reaches the model without a next step. A caller that knows more
## (the close name, the accepted keys, the right extension) passes its own.
const DEFAULT_HINTS := {
	"ALREADY_EXISTS": "Pick another name or path, or pass if_exists: \"replace\" where the tool takes it.",
	"ALREADY_PLAYING": "Stop the running game with game_stop first, or keep using it.",
	"BUSY": "The editor is busy with another request; wait for it (editor_wait_for_idle), then retry.",
	"CLASS_MISMATCH": "The target is of another class than the one asked for; check it with scene_query or "
		+ "node_get_property_list, or pick another name.",
	"COMPILATION_FAILED": "Fix the reported script errors, then retry.",
	"CONNECT_FAILED": "Check that the signal and the target method both exist (signal_list, classdb_get_info), "
		+ "then retry.",
	"CREATE_DIR_FAILED": "Check that the parent folder exists and that no file has the folder's name.",
	"DELETE_FAILED": "Nothing was deleted; check that the file is not open or locked, then retry.",
	"DIR_NOT_EMPTY": "Empty the folder first, or pass recursive: true to delete what is in it.",
	"DISCONNECTED": "The connection dropped; retry once the editor or game is back.",
	"EDITED_SCENE": "Close or switch away from that scene in the editor first, then retry.",
	"EDITOR_VIEWPORT_UNAVAILABLE": "Show the editor window (or pass force_foreground_editor: true), then retry.",
	"EMPTY_CONTENT": "The capture came back empty; make sure the viewport is visible, then retry.",
	"EXECUTE_FAILED": "The code ran and failed; read the error, fix the code, then retry.",
	"EXTERNAL_EDITOR_ACTIVE": "Turn off Editor Settings > Text Editor > External > Use External Editor, or set "
		+ "the breakpoint in the external editor.",
	"FAILED": "The engine refused the change and nothing was kept; check the values, then retry.",
	"FILE_TOO_LARGE": "Read a part of it (the tool's range or paging parameters say which), or raise the "
		+ "read cap (Project Settings, mcp_toolkit/limits/; godot-bridge: GODOT_MCP_SCRIPT_READ_LIMIT).",
	"FILESYSTEM_NOT_READY": "The editor is still scanning the project's files; wait (editor_wait_for_idle), then retry.",
	"FOLDER_PROTECTED": "That folder is never deleted; delete the files inside it instead.",
	"GAME_NOT_RUNNING": "Start the game first, then retry.",
	"HEADLESS_UNSUPPORTED": "A headless editor has no viewport to capture; run the editor with a window.",
	"INTERNAL": "Unexpected failure inside the toolkit; the editor's Output panel has the details.",
	"INVALID_CLASS": "The node or resource is of another class than this tool works on; check its class with "
		+ "scene_query or classdb_get_info.",
	"INVALID_METHOD": "Check the method's name and arguments with classdb_get_info (methods section).",
	"INVALID_PARAMS": "Fix the parameter the error names (the tool's input schema lists what each one takes), "
		+ "then call again.",
	"INVALID_PATH": "Pass a well-formed res:// path to a file (file name and extension included), or its uid://.",
	"INVALID_STATE": "The target is not in a state this call can act on; read it first (scene_query, "
		+ "node_get_property_list), fix what the error names, then retry.",
	"INVALID_VALUE": "Pass a value of the property's type; tagged values look like {\"type\": \"Vector2\", "
		+ "\"x\": 1, \"y\": 2}. node_get_property_list shows each property's type.",
	"LOAD_FAILED": "The file does not load; check it exists and has no errors (script_check for scripts), then retry.",
	"LOG_BUSY": "The log is being read by another request; retry in a moment.",
	"LOG_UNAVAILABLE": "This Godot version or platform exposes no log here; read godot://errors instead.",
	"NO_SCENE": "Open a scene first with scene_open (or create one with scene_create).",
	"NODE_NOT_FOUND": "Check the node path with scene_get_tree or scene_query; paths are relative to the scene root.",
	"NOT_A_RESOURCE": "Pass a Resource class or a .tres/.res file (classdb_get_info shows a class's base).",
	"NOT_BREAKED": "The game must be stopped at a breakpoint for this; set one with debug_set_breakpoint first.",
	"NOT_FOUND": "Check the name or path against what exists (list it first), then retry.",
	"NOT_UNIQUE": "Make old_string longer so it matches once, or pass replace_all: true.",
	"PACK_FAILED": "The scene could not be packed (often a node owned by another scene); check the tree, then retry.",
	"PARENT_NOT_FOUND": "Check the parent path against the current scene tree; paths are relative to the scene root.",
	"PARSE_ERROR": "Fix the syntax the error names, then retry.",
	"PATH_DENIED": "Use a res:// path inside the project, or a file's uid:// (user:// only where a tool says so); "
		+ "the toolkit's own folder and '..' segments are refused.",
	"PATH_IN_USE": "Something still uses it: change or remove those users first, then retry.",
	"PROPERTY_NOT_FOUND": "node_get_property_list lists the properties this object has.",
	"READ_FAILED": "Check that the file exists and is readable text, then retry.",
	"RESPONSE_TOO_LARGE": "Ask for less: a smaller part, or a page or filter where the tool has one. Or raise "
		+ "mcp_toolkit/limits/ws_buffer_kb (Project Settings; godot-bridge sets it from GODOT_MCP_WS_BUFFER_LIMIT).",
	"RUNTIME_WINDOW_MINIMIZED": "Restore the game window (or pass force_foreground_game: true), then retry.",
	"SAVE_DELETE_FAILED": "Check that the user:// file exists and is not open elsewhere, then retry.",
	"SAVE_FAILED": "Nothing was saved; check that the folder exists and is writable, then retry.",
	"SAVE_READ_FAILED": "Check the user:// path (save_list shows what exists), then retry.",
	"SAVE_WRITE_FAILED": "Check the user:// path and that the folder is writable, then retry.",
	"SET_FAILED": "The engine kept its previous value (read-only, or the value was refused); "
		+ "check the property with node_get_property_list.",
	"TIMEOUT": "The editor did not finish in time and may still be busy. Retry, or wait for it to go idle first.",
	"UNKNOWN_CLASS": "Use an engine class or a script class_name; classdb_search finds class names.",
	"UNSUPPORTED": "Not available on the connected Godot version or platform.",
	"UNSUPPORTED_FILE_TYPE": "This tool does not take that kind of file; the error names the kinds it takes.",
	"WRITE_FAILED": "Nothing was written; check that the folder exists and is writable, then retry.",
}
## For a code outside CODES (an extension's own): still a next step.
const FALLBACK_HINT := "Read the error, fix what it names, then retry."


## {"success": false, "error": message, "code": code, "hint": ...}: the hint given, else the
## code's default. Never carries "status" (C3).
static func fail(code: String, message: String, hint: String = "") -> Dictionary:
	assert(code in CODES, "MCP toolkit: error code '%s' is not in MCPToolkitError.CODES" % code)
	var envelope := {"success": false, "error": message, "code": code}
	envelope["hint"] = hint if not hint.is_empty() else default_hint(code)
	return envelope


## The advice fail() attaches to `code` when the caller gives none.
static func default_hint(code: String) -> String:
	return DEFAULT_HINTS.get(code, FALLBACK_HINT)


static func is_known_code(code: Variant) -> bool:
	return code is String and code in CODES


## True for anything shaped like an error envelope, whatever its code.
static func is_failure(result: Variant) -> bool:
	if not result is Dictionary:
		return false
	var success: Variant = (result as Dictionary).get("success", true)
	return success is bool and not success
