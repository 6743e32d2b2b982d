@tool
extends RefCounted
## What changed since a checkpoint, file by file: created / modified / deleted, whether a restore
## would meet a conflict (the file is not what the toolkit last left there), and for text files a
## small diff: the changed block between the common head and tail, "-" old and "+" new lines,
## cut at max_lines. Engine sidecars (.import, .uid) are left out. Runtime-safe.

const FileJournal := preload("res://addons/godot_mcp_toolkit/checkpoints/file_journal.gd")
const JournalStore := preload("res://addons/godot_mcp_toolkit/checkpoints/journal_store.gd")
const ScriptFiles := preload("res://addons/godot_mcp_toolkit/commands/script/script_files.gd")

## Larger files are not diffed (the lines would be cut anyway, and reading them costs).
const TEXT_LIMIT := 256 * 1024


static func run(journal: FileJournal, id: int, max_lines: int) -> Dictionary:
	var position := journal.find(id)
	if position < 0:
		return {"error": "No checkpoint %d" % id}
	var merged := journal.merged_entries(position)
	var paths := merged.keys()
	paths.sort()
	var files: Array = []
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
		var diff := _text_diff(journal, entry, path, max_lines)
		if not diff.is_empty():
			item["diff"] = diff
		files.append(item)
	var checkpoint: Dictionary = journal.checkpoints()[position]
	return {"id": id, "label": checkpoint["label"], "files": files, "total_files": files.size(),
		"conflicts": conflicts}


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
		out.append("-" + old_lines[i])
	for i: int in range(head, new_lines.size() - tail):
		out.append("+" + new_lines[i])
	var truncated := out.size() > max_lines
	if truncated:
		out.resize(max_lines)
	return {"old_start": head + 1, "new_start": head + 1, "lines": out, "truncated": truncated}
