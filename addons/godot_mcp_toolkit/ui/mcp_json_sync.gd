@tool
extends RefCounted
## Reads and writes <project>/.mcp.json for the dock (contract C9 mirror, C11).
##
## Reading never fails loudly: a missing file just means "not configured". Writing refuses to
## touch a file it cannot parse, and replaces the file atomically so a crash never leaves a
## half-written config for the MCP client to choke on. No Editor* names: usable headless.

const McpJson := preload("mcp_json.gd")
const AtomicFile := preload("../registry/store/atomic_file.gd")
const JsonText := preload("json_text.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")

const FILE_NAME := ".mcp.json"


## What the dock shows about the file.
class State:
	extends RefCounted
	var path := ""
	var exists := false
	## Parse or shape problem; empty when the file is usable.
	var error := ""
	var server_key := ""
	var read_only := false
	var config: Dictionary = {}


static func default_path() -> String:
	return ProjectSettings.globalize_path("res://").path_join(FILE_NAME)


static func read_state(path: String = "") -> State:
	var state := State.new()
	state.path = path if not path.is_empty() else default_path()
	state.exists = FileAccess.file_exists(state.path)
	if not state.exists:
		return state
	var parsed := _parse(AtomicFile.read_text(state.path))
	state.error = String(parsed["error"])
	if state.error.is_empty():
		state.config = parsed["config"]
		state.error = McpJson.validate(state.config)
		state.server_key = McpJson.find_server_key(state.config)
		state.read_only = McpJson.read_only_from(state.config)
	return state


## Creates or merges the file. Returns "" on success, else a message for the dock; the file is
## left untouched on any error.
static func write(path: String = "", os_name: String = "", env_overrides: Dictionary = {}) -> String:
	var state := read_state(path)
	if not state.error.is_empty():
		return "%s was not changed: %s" % [state.path, state.error]
	var host := os_name if not os_name.is_empty() else OS.get_name()
	var merged := McpJson.merge(state.config, host, env_overrides)
	var error := ProjectWrites.write_text(state.path, JSON.stringify(merged, "  ", false) + "\n")
	if error != OK:
		return "could not write %s: %s" % [state.path, error_string(error)]
	return ""


## {"config": Dictionary, "error": String}: an empty file counts as an empty object so a
## freshly `touch`ed file can be filled in. Integers stay integers (JsonText), so other servers'
## entries are written back as they were.
static func _parse(text: String) -> Dictionary:
	if text.strip_edges().is_empty():
		return {"config": {}, "error": ""}
	var parsed := JsonText.parse(text)
	if not String(parsed["error"]).is_empty():
		return {"config": {}, "error": parsed["error"]}
	if not parsed["data"] is Dictionary:
		return {"config": {}, "error": "the top level is not a JSON object"}
	return {"config": parsed["data"], "error": ""}
