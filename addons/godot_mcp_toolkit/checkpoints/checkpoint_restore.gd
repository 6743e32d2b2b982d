@tool
extends RefCounted
## Puts the project back as it was at a checkpoint: every file the toolkit changed since is
## rewritten byte-exact from the journal (temp file + rename, so each file is either old or new),
## files it created are removed, files it deleted come back. A file whose bytes are not what the
## toolkit last left there was changed by hand since: it is reported as a conflict and never
## touched (nor are the engine sidecars of such a file). Open scenes, loaded resources and scripts,
## the editor's file index and the in-memory project settings then follow the files.
##
## Nesting: restoring a checkpoint undoes everything after it, newer checkpoints included; those
## are dropped (the answer lists them) and the restored one stays, holding only the files that
## could not be restored, so it can be restored again once the conflicts are settled.
## Runtime-safe.

const FileJournal := preload("res://addons/godot_mcp_toolkit/checkpoints/file_journal.gd")
const JournalStore := preload("res://addons/godot_mcp_toolkit/checkpoints/journal_store.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")
const SettingsSync := preload("res://addons/godot_mcp_toolkit/checkpoints/settings_sync.gd")


## The restore of checkpoint `id`: {"restored", "unchanged", "conflicts", "failed", "reloaded",
## "closed", "dropped", ...} or {"error"} when there is no such checkpoint.
static func run(journal: FileJournal, id: int, context: RefCounted) -> Dictionary:
	var position := journal.find(id)
	if position < 0:
		return {"error": "No checkpoint %d" % id}
	var checkpoint: Dictionary = journal.checkpoints()[position]
	var merged := journal.merged_entries(position)
	var report := {"restored": [], "unchanged": [], "conflicts": [], "failed": []}
	var unresolved := {}
	var restored_hashes := {}
	var blocked := {}
	for path: String in _ordered(merged):
		var entry: Dictionary = merged[path]
		var current := JournalStore.hash_of(path)
		if current == entry["hash"]:
			if not entry["companion"]:
				report["unchanged"].append(path)
			continue
		var reason := _conflict(journal, path, entry, current, blocked)
		if not reason.is_empty():
			if not entry["companion"]:
				blocked[path] = true
				report["conflicts"].append({"path": path, "reason": reason})
			unresolved[path] = true
			continue
		var done := _put_back(journal, path, entry, current)
		if done.has("error"):
			report["failed"].append({"path": path, "error": done["error"]})
			unresolved[path] = true
		else:
			restored_hashes[path] = entry["hash"]
			report["restored"].append({"path": path, "action": done["action"]})
	follow(restored_hashes.keys(), context, report)
	report["dropped"] = journal.settle_restore(position, unresolved, restored_hashes)
	report["id"] = id
	report["label"] = checkpoint["label"]
	return report


## Main files before their sidecars, so a sidecar knows whether its file was left alone.
static func _ordered(merged: Dictionary) -> Array:
	var mains: Array = []
	var companions: Array = []
	for path: String in merged:
		if merged[path]["companion"]:
			companions.append(path)
		else:
			mains.append(path)
	mains.sort()
	companions.sort()
	return mains + companions


## Why `path` must be left alone, or "" when it may be restored.
static func _conflict(journal: FileJournal, path: String, entry: Dictionary, current: String,
		blocked: Dictionary) -> String:
	if entry["companion"]:
		for main: String in blocked:
			if path.begins_with(main + "."):
				return "belongs to %s, which was changed by hand" % main
		return ""
	if journal.edited_over(path):
		return "edited by hand after the checkpoint, then written over by the toolkit: restoring would lose that edit"
	var expected: Variant = journal.written_hash(path)
	if expected == null or current != str(expected):
		if current.is_empty():
			return "deleted by hand since the toolkit last wrote it"
		return "changed by hand since the toolkit last wrote it"
	return ""


static func _put_back(journal: FileJournal, path: String, entry: Dictionary, current: String) -> Dictionary:
	if not entry["existed"]:
		var removed := DirAccess.remove_absolute(path)
		if removed != OK:
			return {"error": "could not remove it: %s" % error_string(removed)}
		return {"action": "removed"}
	var data: Variant = journal.store.get_blob(entry["hash"])
	if data == null:
		return {"error": "its stored copy is missing or damaged"}
	var before_text := FileAccess.get_file_as_string(path) if path == ProjectWrites.PROJECT_FILE else ""
	var written := ProjectWrites.raw_write(path, data)
	if written != OK:
		return {"error": "could not write it: %s" % error_string(written)}
	if path == ProjectWrites.PROJECT_FILE:
		SettingsSync.apply(before_text, (data as PackedByteArray).get_string_from_utf8())
	return {"action": "recreated" if current.is_empty() else "rewritten"}


## Makes the editor follow the files: open scenes reload (or close, when the restore removed
## them), loaded resources (scripts included) are reloaded or forgotten, the file index is told.
## Fills report["reloaded"] and report["closed"]. Also what history.undo / redo do after putting
## files back.
static func follow(paths: Array, context: RefCounted, report: Dictionary) -> void:
	var reloaded: Array = []
	var closed: Array = []
	var open_scenes: PackedStringArray = context.scenes.open_scene_paths()
	for path: String in paths:
		var exists := FileAccess.file_exists(path)
		if path in open_scenes and exists:
			context.scenes.reload_scene(path)
			reloaded.append(path)
		elif path in open_scenes:
			# A scene the toolkit created and the restore removed; before 4.5 the tab stays open.
			var error: Error = context.scenes.close_scene(path)
			if error == OK:
				closed.append(path)
		elif ResourceLoader.has_cached(path):
			_reload_resource(path)
			reloaded.append(path)
	context.project.refresh_files(PackedStringArray(paths))
	report["reloaded"] = reloaded
	report["closed"] = closed


static func _reload_resource(path: String) -> void:
	var live: Resource = load(path)
	if not FileAccess.file_exists(path):
		# A removed file must not keep answering load() from the cache.
		live.resource_path = ""
	elif live is GDScript:
		var script := live as GDScript
		script.source_code = FileAccess.get_file_as_string(path)
		script.reload(true)
	else:
		ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_REPLACE)
