@tool
extends RefCounted
## Pages of a text file, byte for byte (script.read). A page is the file's bytes from where it
## starts (start_line, and line_offset bytes into it) to the end of its last whole line, that
## line's "\n" included, so the text of the pages read one after the other, each from where the
## previous answer says to go on (next_start_line, next_line_offset), is the file exactly. A line
## longer than a page comes in pieces, cut on a character boundary and never between "\r" and
## "\n". Lines are counted as an editor numbers them: a final newline starts no other line.
## Pure; runtime-safe.

const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")

const NEWLINE := 0x0a
const CARRIAGE_RETURN := 0x0d


## Where each line starts, as byte offsets (empty for an empty file).
static func line_starts(bytes: PackedByteArray) -> PackedInt64Array:
	var starts := PackedInt64Array()
	if bytes.is_empty():
		return starts
	starts.append(0)
	var found := bytes.find(NEWLINE)
	while found != -1 and found + 1 < bytes.size():
		starts.append(found + 1)
		found = bytes.find(NEWLINE, found + 1)
	return starts


## The page from line `start` (1-based), `offset` bytes into it, up to the end of line `end`
## (0: the end of the file), whose text costs at most `room` bytes as a JSON string:
## {"ok": true, "text", "from", "to" (byte offsets), "end_line", "partial_line", and where the
## next page starts when the file goes on: "next_start_line", "next_line_offset"} or
## {"ok": false, "problem", "hint"} for a start that is not in the file.
static func page(bytes: PackedByteArray, starts: PackedInt64Array, start: int, offset: int, end: int,
		room: int) -> Dictionary:
	var total := starts.size()
	if start > maxi(total, 1):
		return {"ok": false, "problem": "start_line %d is past the end (%d lines)" % [start, total], "hint": ""}
	var line_from := starts[start - 1] if total > 0 else 0
	var line_length := _line_end(bytes, starts, start) - line_from
	if line_length > 0 and bytes[line_from + line_length - 1] == NEWLINE:
		line_length -= 1
	if offset > line_length or (offset < line_length and bytes[line_from + offset] & 0xC0 == 0x80):
		return {"ok": false, "problem": "line_offset %d is %s line %d (%d bytes)" % [offset,
			"past the end of" if offset > line_length else "inside a character of", start, line_length],
			"hint": "Pass the next_line_offset a previous read gave, or 0."}
	var from := line_from + offset
	var limit := bytes.size() if end == 0 or end >= total else starts[end]
	var to := page_end(bytes, from, limit, room)
	var result := {"ok": true, "text": bytes.slice(from, to).get_string_from_utf8(), "from": from, "to": to}
	var next_line := _line_of(starts, to)
	var inside := to < bytes.size() and starts[next_line - 1] != to
	result["partial_line"] = inside
	result["end_line"] = next_line if inside else maxi(next_line - 1, start)
	if to >= bytes.size():
		result["end_line"] = maxi(total, start)
	else:
		result["next_start_line"] = next_line
		if inside:
			result["next_line_offset"] = to - starts[next_line - 1]
	return result


## Where a page starting at `from` ends: at `limit` when all of it fits in `room`, else after the
## last whole line that fits, else (a line longer than the room) at the last character boundary
## that fits, not between "\r" and "\n".
static func page_end(bytes: PackedByteArray, from: int, limit: int, room: int) -> int:
	var costs := AnswerBudget.escaped_costs()
	var used := 2
	var last_line_end := -1
	var index := from
	while index < limit:
		used += costs[bytes[index]]
		if used > room:
			break
		if bytes[index] == NEWLINE:
			last_line_end = index + 1
		index += 1
	if index >= limit:
		return limit
	if last_line_end > from:
		return last_line_end
	var cut := index
	while cut > from + 1 and bytes[cut] & 0xC0 == 0x80:
		cut -= 1
	if cut > from + 1 and bytes[cut] == NEWLINE and bytes[cut - 1] == CARRIAGE_RETURN:
		cut -= 1
	return maxi(cut, from + 1)


## The byte offset just past line `number` (its "\n" included).
static func _line_end(bytes: PackedByteArray, starts: PackedInt64Array, number: int) -> int:
	return starts[number] if number < starts.size() else bytes.size()


## The 1-based line holding byte `position` (the last line for the end of the file).
static func _line_of(starts: PackedInt64Array, position: int) -> int:
	var index := starts.bsearch(position, false)
	return maxi(index, 1)
