@tool
extends RefCounted
## The project's .mcp.json: what the MCP client reads to launch the bridge (contract C11). Pure.
##
## merge() adds or updates only our own server entry and keeps everything else, including other
## MCP servers the user configured (the reference writer dropped them). Inside our entry, keys the
## user added (extra env vars, "type", ...) survive; command and args are ours to set.
## Mirrored by tests/unit/test_toolkit_fixtures.py over tests/fixtures/toolkit/mcp_json_merge.json.

const SERVERS := "mcpServers"
const SERVER_KEY := "godot-mcp-toolkit"
## Older or hand-written entries are recognised by this substring when ours is absent.
const SERVER_KEY_HINT := "godot-mcp"
const PACKAGE := "godot-bridge"
const CONFIG_VERSION_VAR := "GODOT_MCP_CONFIG_VERSION"
## Bumped when the entry's shape changes, so the bridge can tell an old file from a new one.
const CONFIG_VERSION := "1"
const READ_ONLY_VAR := "GODOT_MCP_READ_ONLY"
const TRUTHY := ["1", "true", "yes", "on"]


## "" when `existing` can be merged, else why not. Callers show the reason and leave the file be.
static func validate(existing: Dictionary) -> String:
	if not existing.has(SERVERS):
		return ""
	var servers: Variant = existing[SERVERS]
	if not servers is Dictionary:
		return "\"%s\" is not an object" % SERVERS
	if not (servers as Dictionary).has(SERVER_KEY):
		return ""
	var entry: Variant = servers[SERVER_KEY]
	if not entry is Dictionary:
		return "\"%s.%s\" is not an object" % [SERVERS, SERVER_KEY]
	if (entry as Dictionary).has("env") and not entry["env"] is Dictionary:
		return "\"%s.%s.env\" is not an object" % [SERVERS, SERVER_KEY]
	return ""


## The merged document. `os_name` is an OS.get_name() value; `env_overrides` sets env vars
## (a null value removes one). Precondition: validate(existing) == "" (otherwise `existing` is
## returned untouched, so a caller that skips the check still cannot destroy a file).
static func merge(existing: Dictionary, os_name: String, env_overrides: Dictionary = {}) -> Dictionary:
	if not validate(existing).is_empty():
		return existing.duplicate(true)
	var config := existing.duplicate(true)
	if not config.has(SERVERS):
		config[SERVERS] = {}
	var servers: Dictionary = config[SERVERS]
	var entry: Dictionary = servers.get(SERVER_KEY, {})
	var env := {}
	for key: Variant in (entry.get("env", {}) as Dictionary):
		env[String(key)] = env_string(entry["env"][key])
	for key: Variant in env_overrides:
		if env_overrides[key] == null:
			env.erase(String(key))
		else:
			env[String(key)] = env_string(env_overrides[key])
	env[CONFIG_VERSION_VAR] = CONFIG_VERSION
	var launch := launch_for(os_name)
	entry["command"] = launch["command"]
	entry["args"] = launch["args"]
	entry["env"] = env
	servers[SERVER_KEY] = entry
	return config


## How the client starts the bridge: through uvx, wrapped in `cmd /c` on Windows where a bare
## uvx shim is not directly executable by most MCP clients. --compile-bytecode: uv installs no
## .pyc files otherwise, and the bridge would compile itself and the SDK on every cold start.
static func launch_for(os_name: String) -> Dictionary:
	if os_name == "Windows":
		return {"command": "cmd", "args": ["/c", "uvx", "--compile-bytecode", PACKAGE]}
	return {"command": "uvx", "args": ["--compile-bytecode", PACKAGE]}


## Our entry's key, else the first (sorted) key containing SERVER_KEY_HINT, else "".
static func find_server_key(config: Dictionary) -> String:
	var servers: Variant = config.get(SERVERS)
	if not servers is Dictionary:
		return ""
	if (servers as Dictionary).has(SERVER_KEY):
		return SERVER_KEY
	var keys := (servers as Dictionary).keys()
	keys.sort()
	for key: Variant in keys:
		if key is String and (key as String).contains(SERVER_KEY_HINT):
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
