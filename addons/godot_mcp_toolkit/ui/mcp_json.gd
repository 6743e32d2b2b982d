@tool
extends RefCounted
## The project's .mcp.json: what the MCP client reads to launch the bridge (contract C11). Pure.
##
## merge() adds or updates only our own server entry and keeps everything else, including other
## MCP servers the user configured (the reference writer dropped them). Inside our entry, keys the
## user added (extra env vars, "type", ...) survive; command and args are ours to set.
## What the entry holds (its key, command, args, env) is data in mcp_entry.json, which the
## bridge's `godot-bridge init` reads too, so both write the same entry.
## Mirrored by tests/unit/test_toolkit_fixtures.py over tests/fixtures/toolkit/mcp_json_merge.json.
## The launch's "{version}" is this plugin's version, so the uvx form starts the bridge it belongs to.

const VersionUtils := preload("../base/version_utils.gd")
const ENTRY_FILE := "res://addons/godot_mcp_toolkit/ui/mcp_entry.json"
const VERSION_SLOT := "{version}"
const SERVERS := "mcpServers"
const READ_ONLY_VAR := "GODOT_MCP_READ_ONLY"
const TRUTHY := ["1", "true", "yes", "on"]

static var _entry: Dictionary = {}


## The shared entry definition (mcp_entry.json), read once; {} when it cannot be read.
static func entry_definition() -> Dictionary:
	if _entry.is_empty():
		var parsed: Variant = JSON.parse_string(FileAccess.get_file_as_string(ENTRY_FILE))
		if parsed is Dictionary and (parsed as Dictionary).get("launch") is Dictionary:
			_entry = parsed
	return _entry


## Our entry's key in the servers object ("godot-mcp-toolkit").
static func server_key() -> String:
	return String(entry_definition().get("server_key", ""))


## The MCP clients and where each reads its servers (mcp_entry.json "clients"): name -> spec.
static func clients() -> Dictionary:
	var found: Variant = entry_definition().get("clients", {})
	return found if found is Dictionary else {}


## "" when `existing` can be merged, else why not. Callers show the reason and leave the file be.
static func validate(existing: Dictionary, servers_key: String = SERVERS, env_key: String = "env") -> String:
	if server_key().is_empty():
		return "the toolkit's %s cannot be read; reinstall the plugin" % ENTRY_FILE
	if not existing.has(servers_key):
		return ""
	var servers: Variant = existing[servers_key]
	if not servers is Dictionary:
		return "\"%s\" is not an object" % servers_key
	var key := server_key()
	if not (servers as Dictionary).has(key):
		return ""
	var entry: Variant = servers[key]
	if not entry is Dictionary:
		return "\"%s.%s\" is not an object" % [servers_key, key]
	if (entry as Dictionary).has(env_key) and not entry[env_key] is Dictionary:
		return "\"%s.%s.%s\" is not an object" % [servers_key, key, env_key]
	return ""


## The merged document. `os_name` is an OS.get_name() value; `env_overrides` sets env vars
## (a null value removes one); `launch` ({command, args}) replaces the uvx form (what
## `godot-bridge init` recorded); `extra` sets keys a client needs ({"type": "stdio"} for VS Code).
## `spec` (a client of mcp_entry.json) gives its servers key, those keys, its spelling of the
## entry (opencode: one command array, "environment") and its time-limit keys, set from `limits`
## (by kind, as `init` recorded them) when missing or lower; a higher one the user chose stays.
## Precondition: validate(existing) == "" (otherwise `existing` is returned untouched, so a caller
## that skips the check still cannot destroy a file).
static func merge(existing: Dictionary, os_name: String, env_overrides: Dictionary = {},
		servers_key: String = SERVERS, launch: Dictionary = {}, extra: Dictionary = {},
		spec: Dictionary = {}, limits: Dictionary = {}) -> Dictionary:
	if not spec.is_empty():
		servers_key = String(spec.get("servers", servers_key))
		var wanted: Dictionary = (spec.get("entry", {}) as Dictionary).duplicate(true)
		for key: Variant in extra:
			wanted[key] = extra[key]
		extra = wanted
	if not validate(existing, servers_key, String(spec.get("env_key", "env"))).is_empty():
		return existing.duplicate(true)
	var config := existing.duplicate(true)
	if not config.has(servers_key):
		config[servers_key] = {}
	var servers: Dictionary = config[servers_key]
	var ours := server_key()
	var entry := common(servers.get(ours, {}), spec)
	var env := {}
	for key: Variant in (entry.get("env", {}) as Dictionary):
		env[String(key)] = env_string(entry["env"][key])
	for key: Variant in env_overrides:
		if env_overrides[key] == null:
			env.erase(String(key))
		else:
			env[String(key)] = env_string(env_overrides[key])
	var fixed: Dictionary = entry_definition().get("env", {})
	for variable: Variant in fixed:
		env[String(variable)] = env_string(fixed[variable])
	var chosen := launch if launch.has("command") else launch_for(os_name)
	for key: Variant in extra:
		if not entry.has(key):
			entry[key] = extra[key]
	entry["command"] = String(chosen["command"])
	entry["args"] = (chosen.get("args", []) as Array).duplicate()
	entry["env"] = env
	_raise_limits(entry, spec.get("timeouts", {}), limits)
	servers[ours] = spelled(entry, spec)
	return config


## `entry`'s time-limit keys (`timeouts`: key -> kind) at least `limits[kind]`, whole numbers as ints.
static func _raise_limits(entry: Dictionary, timeouts: Dictionary, limits: Dictionary) -> void:
	for key: Variant in timeouts:
		var kind := String(timeouts[key])
		if not (limits.get(kind) is float or limits.get(kind) is int):
			continue
		var least := float(limits[kind])
		var current: Variant = entry.get(key)
		if not (current is float or current is int) or float(current) < least:
			entry[key] = int(least) if is_equal_approx(least, roundf(least)) else least


## A client's spelling of an entry in the common shape (command, args, env), keys in their order.
static func common(entry: Dictionary, spec: Dictionary) -> Dictionary:
	var env_key := String(spec.get("env_key", "env"))
	var argv := bool(spec.get("argv", false))
	var out := {}
	for key: Variant in entry:
		if key == "command" and argv and entry[key] is Array:
			var words: Array = entry[key]
			out["command"] = String(words[0]) if not words.is_empty() else ""
			out["args"] = words.slice(1)
		elif key == env_key:
			out["env"] = entry[key]
		else:
			out[key] = entry[key]
	return out


## The common shape as the client of `spec` spells it.
static func spelled(entry: Dictionary, spec: Dictionary) -> Dictionary:
	var env_key := String(spec.get("env_key", "env"))
	var argv := bool(spec.get("argv", false))
	var out := {}
	for key: Variant in entry:
		if key == "args" and argv:
			continue
		if key == "command" and argv:
			out["command"] = [entry[key]] + (entry.get("args", []) as Array)
		elif key == "env":
			out[env_key] = entry[key]
		else:
			out[key] = entry[key]
	return out


## How the client starts the bridge ({"command", "args"}): through uvx, wrapped in `cmd /c` on
## Windows where a bare uvx shim is not directly executable by most MCP clients.
## --compile-bytecode: uv installs no .pyc files otherwise, and the bridge would compile itself and
## the SDK on every cold start.
## The version is this plugin's: never whatever an index serves later.
static func launch_for(os_name: String) -> Dictionary:
	var launches: Dictionary = entry_definition().get("launch", {})
	var chosen: Dictionary = launches.get(os_name, launches.get("default", {}))
	var args: Array = []
	for arg: Variant in chosen.get("args", []):
		args.append(String(arg).replace(VERSION_SLOT, VersionUtils.plugin_version()))
	return {"command": String(chosen.get("command", "")), "args": args}


## Our entry's key, else the first (sorted) key containing one of the hints, else "".
static func find_server_key(config: Dictionary) -> String:
	var servers: Variant = config.get(SERVERS)
	if not servers is Dictionary:
		return ""
	var ours := server_key()
	if (servers as Dictionary).has(ours):
		return ours
	var keys := (servers as Dictionary).keys()
	keys.sort()
	var hints: Array = entry_definition().get("server_key_hints", [])
	for key: Variant in keys:
		for hint: Variant in hints:
			if key is String and (key as String).contains(String(hint)):
				return key
	return ""


## The entry's env, string-coerced; {} when there is no usable entry.
static func server_env(config: Dictionary) -> Dictionary:
	var key := find_server_key(config)
	if key.is_empty():
		return {}
	var entry: Variant = config[SERVERS][key]
	if not entry is Dictionary or not (entry as Dictionary).get("env") is Dictionary:
		return {}
	var env := {}
	for name: Variant in entry["env"]:
		env[String(name)] = env_string(entry["env"][name])
	return env


## Read-only mirror (C9): the bridge is authoritative; this only tells the dock what it will do.
static func read_only_from(config: Dictionary) -> bool:
	var value := String(server_env(config).get(READ_ONLY_VAR, ""))
	return value.strip_edges().to_lower() in TRUTHY


## Env values are strings on the wire. JSON numbers arrive as floats, so a whole number is written
## without a fractional part ("1", not "1.0"); booleans become "true"/"false".
static func env_string(value: Variant) -> String:
	if value is String:
		return value
	if value is bool:
		return "true" if value else "false"
	if value is float and is_equal_approx(value, roundf(value)) and absf(value) < 1e15:
		return str(int(value))
	if value == null:
		return ""
	return str(value)
