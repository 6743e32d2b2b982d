@tool
extends RefCounted
## Typed, bounded reads of command params for the world-building domains (placeholders,
## procedural, 3d, theme, particles, paths, navigation). Each returns {"value": v} or
## {"error": envelope} naming the param and what it accepts, so a handler validates everything
## before it touches anything. Pure; runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")

## The C7 tag key a vector or color object may carry ({"type": "Vector3", "x": ..}).
const TAG_KEY := "type"


static func number(params: Dictionary, key: String, default: float, low: float = -INF, high: float = INF) -> Dictionary:
	var raw: Variant = params.get(key, default)
	if not (raw is int or raw is float) or is_nan(float(raw)):
		return _bad(key, "a number")
	var value := float(raw)
	if value < low or value > high:
		return _bad(key, "a number from %s to %s (got %s)" % [low, high, value])
	return {"value": value}


static func integer(params: Dictionary, key: String, default: int, low: int = -2147483648,
		high: int = 2147483647) -> Dictionary:
	var raw: Variant = params.get(key, default)
	if not (raw is int or (raw is float and float(raw) == floor(float(raw)))):
		return _bad(key, "a whole number")
	var value := int(raw)
	if value < low or value > high:
		return _bad(key, "a whole number from %d to %d (got %d)" % [low, high, value])
	return {"value": value}


static func choice(params: Dictionary, key: String, default: String, options: Array) -> Dictionary:
	var raw: Variant = params.get(key, default)
	if not raw is String or not raw in options:
		return _bad(key, "one of %s (got %s)" % [", ".join(PackedStringArray(options)), str(raw)])
	return {"value": raw}


static func boolean(params: Dictionary, key: String, default: bool) -> Dictionary:
	var raw: Variant = params.get(key, default)
	if not raw is bool:
		return _bad(key, "true or false")
	return {"value": raw}


static func text(params: Dictionary, key: String, default: String) -> Dictionary:
	var raw: Variant = params.get(key, default)
	if not raw is String:
		return _bad(key, "a string")
	return {"value": raw}


## A color as a name or hex string ("red", "#ff8800"), [r, g, b(, a)] in 0..1, or {r, g, b(, a)}.
static func color(params: Dictionary, key: String, default: Color) -> Dictionary:
	if not params.has(key):
		return {"value": default}
	return color_value(params[key], key)


## color() for a value already in hand; `label` names it in the refusal.
static func color_value(raw: Variant, label: String) -> Dictionary:
	var unknown := keys(raw, ["r", "g", "b", "a", TAG_KEY], label)
	if not unknown.is_empty():
		return unknown
	var parsed: Variant = parse_color(raw)
	if parsed == null:
		return _bad(label, "a color: a name or hex string, [r, g, b, a] or {r, g, b, a} with 0..1 channels")
	return {"value": parsed}


## {} when `raw` is not an object or holds only `accepted` keys, else {"error": INVALID_PARAMS
## naming the unknown keys and the close accepted one}: a misspelt key is refused, never dropped.
static func keys(raw: Variant, accepted: Array, label: String) -> Dictionary:
	if not raw is Dictionary:
		return {}
	var refused := Params.reject_unknown_keys(raw, accepted, label)
	return {} if refused.is_empty() else {"error": refused}


## The Color `raw` describes, or null.
static func parse_color(raw: Variant) -> Variant:
	if raw is String:
		var sentinel := Color(-1, -1, -1, -1)
		var parsed := Color.from_string(raw, sentinel)
		return null if parsed == sentinel else parsed
	var channels: Array = []
	if raw is Array and (raw as Array).size() in [3, 4]:
		channels = raw
	elif raw is Dictionary and raw.has_all(["r", "g", "b"]):
		channels = [raw["r"], raw["g"], raw["b"], raw.get("a", 1.0)]
	else:
		return null
	for channel: Variant in channels:
		if not (channel is int or channel is float):
			return null
	return Color(channels[0], channels[1], channels[2], channels[3] if channels.size() == 4 else 1.0)


## {x, y} or [x, y].
static func vector2(params: Dictionary, key: String, default: Vector2) -> Dictionary:
	if not params.has(key):
		return {"value": default}
	var unknown := keys(params[key], ["x", "y", TAG_KEY], key)
	if not unknown.is_empty():
		return unknown
	var parts: Variant = _components(params[key], ["x", "y"])
	if parts == null:
		return _bad(key, "{x, y} or [x, y] numbers")
	return {"value": Vector2(parts[0], parts[1])}


## {x, y, z} or [x, y, z].
static func vector3(params: Dictionary, key: String, default: Vector3) -> Dictionary:
	if not params.has(key):
		return {"value": default}
	var unknown := keys(params[key], ["x", "y", "z", TAG_KEY], key)
	if not unknown.is_empty():
		return unknown
	var parts: Variant = _components(params[key], ["x", "y", "z"])
	if parts == null:
		return _bad(key, "{x, y, z} or [x, y, z] numbers")
	return {"value": Vector3(parts[0], parts[1], parts[2])}


static func _components(raw: Variant, names: Array) -> Variant:
	var values: Array = []
	if raw is Array and (raw as Array).size() == names.size():
		values = raw
	elif raw is Dictionary and (raw as Dictionary).has_all(names):
		for name: String in names:
			values.append(raw[name])
	else:
		return null
	for value: Variant in values:
		if not (value is int or value is float):
			return null
	return values


## Runs `readers` (an Array of [name, Dictionary outcome]) in order: {"values": {name: value}} or
## the first {"error"}. Lets a handler check every param in one place.
static func collect(readers: Array) -> Dictionary:
	var values := {}
	for reader: Array in readers:
		var outcome: Dictionary = reader[1]
		if outcome.has("error"):
			return outcome
		values[reader[0]] = outcome["value"]
	return {"values": values}


## A nested reader's refusal ({"error": envelope}) as part of `owner`: its message prefixed
## with "owner.", its code and hint kept.
static func nested(owner: String, refusal: Dictionary) -> Dictionary:
	var envelope: Dictionary = refusal["error"]
	return {"error": ToolkitError.fail(envelope["code"], "%s.%s" % [owner, envelope["error"]],
		str(envelope.get("hint", "")))}


static func _bad(key: String, expected: String) -> Dictionary:
	return {"error": ToolkitError.fail("INVALID_PARAMS", "%s must be %s" % [key, expected])}
