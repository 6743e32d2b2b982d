@tool
extends RefCounted
## How much one answer may hold, and the measures that page to it (contract C8). An assistant
## shows its model only part of a long tool result: Codex CLI keeps about the first and last 6 KB
## of a tool's text and drops the middle, Gemini CLI the first 8,000 and last 32,000 characters,
## Claude Code above 25,000 tokens saves it to a file. A model shown the head and tail of a list
## believes it saw everything, so a read answers at most BYTES and says how to get the rest
## (has_more, next_offset or a narrower argument); it is never cut in the middle.
## Sizes are of the JSON text the model reads: compact, strings escaped, non-ASCII as UTF-8.
## Pure; runtime-safe.

const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")

## The most bytes of JSON text one answer holds: Codex's window, the smallest of them (about
## 12 KB kept whole), so an answer reaches every assistant whole.
const BYTES := 12000
## Kept free for what the bridge adds to an answer (a success hint) and for the paging fields.
const RESERVE := 800
## The most a write's answer echoes of a value it stored or replaced: a write answers what it did,
## and a larger value is shown by its kind and size (the read tools give it in pages).
const ECHO_BYTES := 1000

static var _costs := PackedByteArray()


## The size of `value` as JSON text.
static func size_of(value: Variant) -> int:
	return JSON.stringify(value).to_utf8_buffer().size()


## The room left for the items of a page beside the rest of the answer (`result` without them).
static func room_beside(result: Dictionary) -> int:
	return BYTES - RESERVE - size_of(result)


## How many of `items`, in order, fit in `room` bytes as the elements of a JSON array; at least
## one when there is any, so a page always moves on (an item alone over the room is its own page).
static func fitting(items: Array, room: int) -> int:
	var used := 2
	for index in items.size():
		used += size_of(items[index]) + (1 if index > 0 else 0)
		if used > room:
			return maxi(index, 1)
	return items.size()


## How many entries of `entries` (name -> value, in the dictionary's order) fit in `room` bytes as
## the members of a JSON object; at least one when there is any.
static func fitting_members(entries: Dictionary, room: int) -> int:
	var used := 2
	var index := 0
	for key: Variant in entries:
		used += size_of(str(key)) + 1 + size_of(entries[key]) + (1 if index > 0 else 0)
		if used > room:
			return maxi(index, 1)
		index += 1
	return index


## The bytes a JSON string spends on each byte of its UTF-8 text, by byte value: 2 for an
## escaped quote, backslash or \b \t \n \f \r, 6 for another control character (\u00XX), else 1.
static func escaped_costs() -> PackedByteArray:
	if _costs.is_empty():
		_costs.resize(256)
		for byte in 256:
			_costs[byte] = 6 if byte < 0x20 else 1
		for byte: int in [0x22, 0x5c, 0x08, 0x09, 0x0a, 0x0c, 0x0d]:
			_costs[byte] = 2
	return _costs


## What an answer shows in place of a value too large for it (`serialized`: its JSON form, of
## `json_bytes`): its size, and its C7 type or how many items it holds; never a cut value. It
## has no "type" key, so it cannot be taken for a tagged value.
static func stand_in(serialized: Variant, json_bytes: int) -> Dictionary:
	var shown := {"omitted": true, "json_bytes": json_bytes}
	if serialized is Dictionary and (serialized as Dictionary).get("type") is String:
		shown["variant"] = serialized["type"]
	elif serialized is Array or serialized is Dictionary:
		shown["items"] = serialized.size()
	return shown


## `serialized` (a value's JSON form) as it is when it takes at most `room` bytes, else its stand_in.
static func within(serialized: Variant, room: int) -> Variant:
	var size := size_of(serialized)
	return serialized if size <= room else stand_in(serialized, size)


## Whether `shown` is a stand_in exactly as stand_in makes one: "omitted" true, a whole positive
## "json_bytes", and at most one of "variant" (a type name) or "items" (a count); nothing else. A
## write given one back keeps the value it stands for (contract/coerce.gd refuses to store one),
## and a read shows a Dictionary of the project's of this very shape tagged, so the two never meet.
static func is_stand_in(shown: Variant) -> bool:
	if not shown is Dictionary:
		return false
	var data := shown as Dictionary
	var omitted: Variant = data.get("omitted")
	var size: Variant = data.get("json_bytes")
	if not omitted is bool or not omitted or not Params.is_whole_number(size) or size < 1:
		return false
	if data.size() == 2:
		return true
	var variant: Variant = data.get("variant")
	var items: Variant = data.get("items")
	return data.size() == 3 and ((variant is String and not (variant as String).is_empty())
		or (Params.is_whole_number(items) and items >= 0))
