@tool
extends RefCounted
## Which ports a server may bind (contract C1, C10). Pure: the environment arrives as
## `getenv(name) -> String` ("" when unset), so every rule is testable without a process env.
## Runtime-safe: the game server resolves its band here too.
##
## A pin (GODOT_MCP_EDITOR_PORT / GODOT_MCP_RUNTIME_PORT) yields exactly one port and the caller
## binds it or fails loudly; otherwise the band, which _MIN/_MAX may move, is scanned in order.
## A malformed value is an error, never a silent fallback to the default.

const MODE_EDITOR := "editor"
const MODE_RUNTIME := "runtime"
const BANDS := {
	MODE_EDITOR: {"min": 6550, "max": 6560, "env": "GODOT_MCP_EDITOR_PORT"},
	MODE_RUNTIME: {"min": 6570, "max": 6585, "env": "GODOT_MCP_RUNTIME_PORT"},
}
const PORT_LOWEST := 1
const PORT_HIGHEST := 65535


## {"ok": bool, "ports": Array[int], "pinned": bool, "error": String, "source": String}; `source`
## names the variable (or "default band") the ports came from, for status lines and errors.
static func resolve(getenv: Callable, mode: String) -> Dictionary:
	if not BANDS.has(mode):
		return _failure("unknown port mode '%s'" % mode)
	var band: Dictionary = BANDS[mode]
	var pin_name: String = band["env"]
	var pin_raw := _read(getenv, pin_name)
	if not pin_raw.is_empty():
		var pin := parse_port(pin_name, pin_raw)
		if not pin["ok"]:
			return _failure(pin["error"])
		return {"ok": true, "ports": [int(pin["port"])], "pinned": true, "error": "", "source": pin_name}
	return _resolve_band(getenv, band)


## {"ok": true, "port": int} or {"ok": false, "error": message naming the variable}.
static func parse_port(variable: String, raw: String) -> Dictionary:
	var text := raw.strip_edges()
	if not text.is_valid_int():
		return {"ok": false, "error": "%s='%s' is not a port number (expected %d-%d)" % [
			variable, raw, PORT_LOWEST, PORT_HIGHEST]}
	var value := text.to_int()
	if value < PORT_LOWEST or value > PORT_HIGHEST:
		return {"ok": false, "error": "%s=%d is out of range (expected %d-%d)" % [
			variable, value, PORT_LOWEST, PORT_HIGHEST]}
	return {"ok": true, "port": value}


static func _resolve_band(getenv: Callable, band: Dictionary) -> Dictionary:
	var limits := {"min": int(band["min"]), "max": int(band["max"])}
	var moved := PackedStringArray()
	for edge: String in ["min", "max"]:
		var variable := "%s_%s" % [band["env"], edge.to_upper()]
		var raw := _read(getenv, variable)
		if raw.is_empty():
			continue
		var parsed := parse_port(variable, raw)
		if not parsed["ok"]:
			return _failure(parsed["error"])
		limits[edge] = int(parsed["port"])
		moved.append(variable)
	if limits["min"] > limits["max"]:
		return _failure("port band is empty: %s_MIN (%d) is above %s_MAX (%d)" % [
			band["env"], limits["min"], band["env"], limits["max"]])
	var ports: Array[int] = []
	for port in range(limits["min"], limits["max"] + 1):
		ports.append(port)
	var source := "default band" if moved.is_empty() else ", ".join(moved)
	return {"ok": true, "ports": ports, "pinned": false, "error": "", "source": source}


static func _read(getenv: Callable, variable: String) -> String:
	var value: Variant = getenv.call(variable)
	return str(value).strip_edges() if value != null else ""


static func _failure(message: String) -> Dictionary:
	return {"ok": false, "ports": [], "pinned": false, "error": message, "source": ""}
