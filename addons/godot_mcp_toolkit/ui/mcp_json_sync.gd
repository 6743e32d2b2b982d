@tool
extends RefCounted
## Reads and writes the MCP clients' files for the dock (contract C9 mirror, C11).
##
## Reading never fails loudly: a missing file just means "not configured". Writing refuses to
## touch a file it cannot parse, and replaces the file atomically so a crash never leaves a
## half-written config for the MCP client to choke on. No Editor* names: usable headless.
## Which clients there are and where each reads its servers is data (mcp_entry.json "clients"),
## the same list `godot-bridge init --client` takes. The command written is the one
## `godot-bridge init` recorded (the bridge that set the project up); a plugin copied by hand
## has no record and gets the uvx form pinned to its own version.

const McpJson := preload("mcp_json.gd")
const AtomicFile := preload("../registry/store/atomic_file.gd")
const JsonText := preload("json_text.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")

const FILE_NAME := ".mcp.json"
const DEFAULT_CLIENT := "claude"
## Written by `godot-bridge init` beside the plugin's files: their hashes and the launch it chose.
const INSTALL_RECORD := "res://addons/godot_mcp_toolkit/.godot-bridge-install.json"


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


## Where `client` reads its servers, in this project: its file, or the other name of it (`also`)
## the project has instead (opencode reads opencode.json and opencode.jsonc alike).
static func client_path(client: String) -> String:
	var spec: Dictionary = McpJson.clients().get(client, {})
	var path := ProjectSettings.globalize_path("res://").path_join(String(spec.get("file", FILE_NAME)))
	for other: Variant in spec.get("also", []):
		var candidate := path.get_base_dir().path_join(String(other))
		if not FileAccess.file_exists(path) and FileAccess.file_exists(candidate):
			return candidate
	return path


static func read_state(path: String = "", servers_key: String = McpJson.SERVERS, env_key: String = "env") -> State:
	var state := State.new()
	state.path = path if not path.is_empty() else default_path()
	state.exists = FileAccess.file_exists(state.path)
	if not state.exists:
		return state
	var parsed := _parse(AtomicFile.read_text(state.path))
	state.error = String(parsed["error"])
	if state.error.is_empty():
		state.config = parsed["config"]
		state.error = McpJson.validate(state.config, servers_key, env_key)
		state.server_key = McpJson.find_server_key(state.config)
		state.read_only = McpJson.read_only_from(state.config)
	return state


## The command `godot-bridge init` recorded ({command, args}); {} for a plugin copied by hand.
static func recorded_launch(record_path: String = INSTALL_RECORD) -> Dictionary:
	var launch := _recorded(record_path, "launch")
	if not launch.get("command") is String or not launch.get("args") is Array:
		return {}
	return {"command": launch["command"], "args": launch["args"]}


## The clients' time limits `godot-bridge init` derived from the tool catalogue (by kind: call_ms,
## call_s, start_s); {} for a plugin copied by hand, whose entries then carry none.
static func recorded_limits(record_path: String = INSTALL_RECORD) -> Dictionary:
	return _recorded(record_path, "limits")


## The install record's object `field`; {} without a record or such an object.
static func _recorded(record_path: String, field: String) -> Dictionary:
	if not FileAccess.file_exists(record_path):
		return {}
	var parsed: Variant = JSON.parse_string(FileAccess.get_file_as_string(record_path))
	if not parsed is Dictionary or not (parsed as Dictionary).get(field) is Dictionary:
		return {}
	return parsed[field]


## What the dock says after writing: which command the entry runs, and, for a plugin copied by
## hand, how to point it at a bridge installed some other way.
static func launch_note(record_path: String = INSTALL_RECORD) -> String:
	if not recorded_launch(record_path).is_empty():
		return ""
	var launch := McpJson.launch_for(OS.get_name())
	return ("The entry runs %s %s (this plugin's version, through uv). If you installed the bridge another way, "
		+ "run `godot-bridge init` in a terminal to point the entry at it.") % [
			launch["command"], " ".join(PackedStringArray(launch["args"]))]


## Creates or merges `client`'s file (`path` overrides where it is). Returns "" on success, else a
## message for the dock; the file is left untouched on any error. The bytes it writes, beside
## godot-bridge init's for the same file: tests/fixtures/toolkit/client_file_writes.json.
static func write(path: String = "", os_name: String = "", env_overrides: Dictionary = {},
		client: String = DEFAULT_CLIENT) -> String:
	var spec: Dictionary = McpJson.clients().get(client, {})
	if spec.is_empty():
		return "unknown MCP client %s" % client
	var target := path if not path.is_empty() else client_path(client)
	var host := os_name if not os_name.is_empty() else OS.get_name()
	if String(spec.get("format", "json")) == "toml":
		return _write_toml(target, spec, host, env_overrides)
	var servers_key := String(spec.get("servers", McpJson.SERVERS))
	var state := read_state(target, servers_key, String(spec.get("env_key", "env")))
	if not state.error.is_empty():
		return "%s was not changed: %s" % [state.path, state.error]
	var merged := McpJson.merge(state.config, host, env_overrides, servers_key, recorded_launch(), {}, spec,
		recorded_limits())
	var error := ProjectWrites.write_text(state.path, JSON.stringify(merged, "  ", false) + "\n")
	if error != OK:
		return "could not write %s: %s" % [state.path, error_string(error)]
	return ""


## Codex's TOML: our table is added to a file without it. One that has it already is left for
## `godot-bridge init --client codex`, which edits TOML keeping every other byte.
static func _write_toml(target: String, spec: Dictionary, host: String, env_overrides: Dictionary) -> String:
	var key := McpJson.server_key()
	var table := "%s.%s" % [String(spec.get("servers", "mcp_servers")), key]
	var text := AtomicFile.read_text(target) if FileAccess.file_exists(target) else ""
	if text.contains("[%s]" % table):
		return "%s already has [%s]: update it with `godot-bridge init --client codex` in a terminal" % [target, table]
	var merged := McpJson.merge({}, host, env_overrides, "", recorded_launch(), {}, spec, recorded_limits())
	var entry: Dictionary = merged[String(spec.get("servers", "mcp_servers"))][key]
	var lines := PackedStringArray(["[%s]" % table, "command = %s" % JSON.stringify(entry["command"]),
		"args = %s" % JSON.stringify(entry["args"])])
	var env := PackedStringArray()
	for name: Variant in entry["env"]:
		env.append("%s = %s" % [name, JSON.stringify(entry["env"][name])])
	lines.append("env = {%s}" % ", ".join(env))
	for name: Variant in spec.get("timeouts", {}):
		if entry.has(name):
			lines.append("%s = %s" % [name, JSON.stringify(entry[name])])
	var lead := "" if text.is_empty() else ("\n" if text.ends_with("\n") else "\n\n")
	var error := ProjectWrites.write_text(target, text + lead + "\n".join(lines) + "\n")
	if error != OK:
		return "could not write %s: %s" % [target, error_string(error)]
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
