@tool
extends RefCounted
## What changed since a checkpoint, file by file: created / modified / deleted, whether a restore
## would meet a conflict (the file is not what the toolkit last left there), and for text files a
## small diff: the changed block between the common head and tail, "-" old and "+" new lines,
## cut at max_lines. A page of files stops at one answer's size. Engine sidecars (.import, .uid)
## are left out. Runtime-safe.

const FileJournal := preload("res://addons/godot_mcp_toolkit/checkpoints/file_journal.gd")
const JournalStore := preload("res://addons/godot_mcp_toolkit/checkpoints/journal_store.gd")
const ScriptFiles := preload("res://addons/godot_mcp_toolkit/commands/script/script_files.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")
const Pagination := preload("res://addons/godot_mcp_toolkit/contract/pagination.gd")

## Larger files are not diffed (the lines would be cut anyway, and reading them costs).
const TEXT_LIMIT := 256 * 1024
## A diff line larger than this (as JSON: a scene's packed data) is shown by its size.
const LINE_BYTES := 2000
## The most a page's hint (checkpoint_commands.gd) takes.
const HINT_ROOM := 200


## The files changed since checkpoint `id`, from the `offset`-th (by path) as many as fit one
## answer: {"id", "label", "files", "total_files", "conflicts", paging fields} or {"error"}.
static func run(journal: FileJournal, id: int, max_lines: int, offset: int = 0) -> Dictionary:
	var position := journal.find(id)
	if position < 0:
		return {"error": "No checkpoint %d" % id}
	var merged := journal.merged_entries(position)
	var paths := merged.keys()
	paths.sort()
	var changed: Array = []
	var conflicts := 0
	for path: String in paths:
		var entry: Dictionary = merged[path]
		var current := JournalStore.hash_of(path)
		if entry["companion"] or current == entry["hash"]:
			continue
		var item := {"path": path, "status": _status(entry, current), "conflict": false}
		var expected: Variant = journal.written_hash(path)
		if expected == null or str(expected) != current or journal.edited_over(path):
			item["conflict"] = true
			conflicts += 1
		changed.append([item, entry])
	var checkpoint: Dictionary = journal.checkpoints()[position]
	# Room for the hint the command adds to a page that stops short.
	var result := {"id": id, "label": checkpoint["label"], "files": [], "total_files": changed.size(),
		"conflicts": conflicts, "hint": " ".repeat(HINT_ROOM)}
	result.merge(Pagination.fields(0, changed.size(), "files", offset))
	var files := _page(journal, changed.slice(offset), max_lines, AnswerBudget.room_beside(result))
	result["files"] = files
	result.merge(Pagination.fields(files.size(), changed.size(), "files", offset), true)
	result.erase("hint")
	if not result["has_more"]:
		result.erase("next_offset")
	return result


## The files of `changed` ([item, journal entry] pairs) with their diffs, as many as fit in `room`
## bytes; a first file whose diff alone outgrows it keeps the diff's first lines that fit.
static func _page(journal: FileJournal, changed: Array, max_lines: int, room: int) -> Array:
	var files: Array = []
	var used := 2
	for pair: Array in changed:
		var item: Dictionary = pair[0]
		var diff := _text_diff(journal, pair[1], item["path"], max_lines)
		if not diff.is_empty():
			item["diff"] = diff
		var cost := AnswerBudget.size_of(item) + 1
		if used + cost > room and not files.is_empty():
			break
		if used + cost > room and item.has("diff"):
			_shorten(item, room - used)
		files.append(item)
		used += AnswerBudget.size_of(item) + 1
	return files


## Drops `item`'s last diff lines until it takes at most `room` bytes; the diff says it was cut.
static func _shorten(item: Dictionary, room: int) -> void:
	var diff: Dictionary = item["diff"]
	var lines: Array = diff["lines"]
	diff["truncated"] = true
	var excess := AnswerBudget.size_of(item) - room
	while excess > 0 and not lines.is_empty():
		excess -= AnswerBudget.size_of(lines.pop_back()) + 1


static func _status(entry: Dictionary, current: String) -> String:
	if not entry["existed"]:
		return "created"
	if current.is_empty():
		return "deleted"
	return "modified"


## {"lines": [...], "truncated": bool, "old_start", "new_start"} for text on both sides, else {}.
static func _text_diff(journal: FileJournal, entry: Dictionary, path: String, max_lines: int) -> Dictionary:
	var old_text: Variant = ""
	if entry["existed"]:
		old_text = _text(journal.store.get_blob(entry["hash"]))
	var new_text: Variant = ""
	if FileAccess.file_exists(path):
		new_text = _text(FileAccess.get_file_as_bytes(path))
	if old_text == null or new_text == null:
		return {}
	return lines_diff(old_text, new_text, max_lines)


## The text of `data`, or null when it is binary, missing or too large to diff.
static func _text(data: Variant) -> Variant:
	if not data is PackedByteArray:
		return null
	var bytes: PackedByteArray = data
	if bytes.size() > TEXT_LIMIT or bytes.has(0):
		return null
	return bytes.get_string_from_utf8()


## The block that differs between two texts, after their common first and last lines.
static func lines_diff(old_text: String, new_text: String, max_lines: int) -> Dictionary:
	var old_lines := ScriptFiles.split_lines(old_text)
	var new_lines := ScriptFiles.split_lines(new_text)
	var head := 0
	while head < old_lines.size() and head < new_lines.size() and old_lines[head] == new_lines[head]:
		head += 1
	var tail := 0
	while tail < old_lines.size() - head and tail < new_lines.size() - head \
			and old_lines[old_lines.size() - 1 - tail] == new_lines[new_lines.size() - 1 - tail]:
		tail += 1
	var out: Array = []
	for i: int in range(head, old_lines.size() - tail):
		out.append(AnswerBudget.within("-" + old_lines[i], LINE_BYTES))
	for i: int in range(head, new_lines.size() - tail):
		out.append(AnswerBudget.within("+" + new_lines[i], LINE_BYTES))
	var truncated := out.size() > max_lines
	if truncated:
		out.resize(max_lines)
	return {"old_start": head + 1, "new_start": head + 1, "lines": out, "truncated": truncated}
