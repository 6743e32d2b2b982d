@tool
extends RefCounted
## The checkpoint journal: checkpoints in order, and for each one the files the toolkit changed
## after it, each kept as it was the first time the toolkit touched it after that checkpoint
## (its bytes, or "did not exist"). Also, for every journalled file, the hash of what the toolkit
## itself last left there, so a restore can tell a hand edit from its own work.
##
## A file is journalled once, in the newest checkpoint only: a file no checkpoint between an older
## one and now has an entry for was not touched by the toolkit in that span, so its state at the
## older checkpoint is the one the first newer entry kept (restore merges them that way).
##
## Bounded: at most max_checkpoints, and at most max_bytes of stored originals (the newest
## checkpoint is never dropped for size, so one huge file still gets journalled). The oldest go
## first, and each drop is recorded (the create answer and checkpoint_list say which).
## Only res:// files are journalled, never the engine's .godot/ (this journal lives there).
## Runtime-safe.

const JournalStore := preload("res://addons/godot_mcp_toolkit/checkpoints/journal_store.gd")

const DEFAULT_ROOT := "res://.godot/mcp_checkpoints"
const DEFAULT_MAX_CHECKPOINTS := 20
const DEFAULT_MAX_BYTES := 64 * 1024 * 1024
## Files the engine writes next to a file it imports or saves: journalled with it, restored with it.
const COMPANIONS := [".import", ".uid"]
const DROP_LOG_SIZE := 20

var max_checkpoints := DEFAULT_MAX_CHECKPOINTS
var max_bytes := DEFAULT_MAX_BYTES
var store: JournalStore = null
var _index: Dictionary = {}


func _init(root_dir: String = DEFAULT_ROOT, checkpoint_limit: int = DEFAULT_MAX_CHECKPOINTS,
		byte_limit: int = DEFAULT_MAX_BYTES) -> void:
	store = JournalStore.new(root_dir)
	max_checkpoints = maxi(1, checkpoint_limit)
	max_bytes = maxi(0, byte_limit)
	_index = store.load_index()


## True for a path a checkpoint may keep: under res:// and outside the engine's .godot/.
static func is_journalled_path(path: String) -> bool:
	return path.begins_with("res://") and not path.begins_with("res://.godot/") and path != "res://.godot" \
		and not path.ends_with(".mcp_tmp")


func checkpoints() -> Array:
	return _index["checkpoints"]


func find(id: int) -> int:
	var list := checkpoints()
	for i: int in list.size():
		if int(list[i]["id"]) == id:
			return i
	return -1


## True when `path` was edited by hand and then written over by the toolkit after a checkpoint.
func edited_over(path: String) -> bool:
	return _index["edited_over"].has(path)


## The hash of what the toolkit last wrote at `path` ("" = it removed it); null when unknown.
func written_hash(path: String) -> Variant:
	return _index["written"].get(path)


func warning() -> String:
	return str(_index.get("warning", ""))


func recent_drops() -> Array:
	return _index["dropped"]


# --- the hook (checkpoints/project_writes.gd calls these) ------------------------------------------

## Keeps `path` (and its companions) as they are now in the newest checkpoint, unless already kept.
func before_change(path: String) -> Error:
	var list := checkpoints()
	if list.is_empty() or not is_journalled_path(path):
		return OK
	var entries: Dictionary = list[list.size() - 1]["entries"]
	if _tracked(path) and _index["written"].has(path) and str(_index["written"][path]) != JournalStore.hash_of(path):
		# Edited by hand since the toolkit's last write, and about to be written over: a restore
		# would throw that edit away, so the file is a conflict from now on.
		_index["edited_over"][path] = true
		if entries.has(path):
			return _save()
	if entries.has(path):
		return OK
	var added := false
	for candidate: String in _with_companions(path):
		if entries.has(candidate):
			continue
		var file_hash := JournalStore.hash_of(candidate)
		if file_hash.is_empty() and candidate != path:
			continue
		if not file_hash.is_empty():
			var error := store.put_blob(candidate, file_hash)
			if error != OK:
				return error
		entries[candidate] = {"existed": not file_hash.is_empty(), "hash": file_hash,
			"size": FileAccess.get_file_as_bytes(candidate).size() if not file_hash.is_empty() else 0,
			"companion": candidate != path}
		added = true
	# Companions the engine may write later (a new file's .import) are noted as absent now, so a
	# restore removes them too.
	for companion: String in _with_companions(path):
		if not entries.has(companion):
			entries[companion] = {"existed": false, "hash": "", "size": 0, "companion": true}
	if added:
		_enforce_byte_limit()
	return _save()


## Records what the toolkit left at `path` (after its write, or after a write that failed).
func after_change(path: String) -> void:
	if not is_journalled_path(path) or not _tracked(path):
		return
	var now := JournalStore.hash_of(path)
	if _index["written"].get(path) == now:
		return
	_index["written"][path] = now
	_save()


# --- checkpoints --------------------------------------------------------------------------------

## A new, empty checkpoint; {"checkpoint": its summary, "dropped": [...]} or {"error": text}.
func create(label: String) -> Dictionary:
	var id := int(_index["next_id"])
	var checkpoint := {"id": id, "label": label, "time": Time.get_unix_time_from_system(), "entries": {}}
	checkpoints().append(checkpoint)
	_index["next_id"] = id + 1
	var dropped: Array = []
	while checkpoints().size() > max_checkpoints:
		dropped.append(_drop_oldest("more than %d checkpoints" % max_checkpoints))
	_collect()
	var error := _save()
	if error != OK:
		return {"error": "Could not write the checkpoint index under %s: %s" % [store.root, error_string(error)]}
	return {"checkpoint": summary(checkpoint), "dropped": dropped}


## id, label, time (ISO 8601 UTC and unix seconds), files (main files, not engine sidecars), bytes kept.
static func summary(checkpoint: Dictionary) -> Dictionary:
	var files := 0
	var kept := 0
	for path: String in checkpoint["entries"]:
		var entry: Dictionary = checkpoint["entries"][path]
		if not entry["companion"]:
			files += 1
		kept += int(entry["size"])
	var time := float(checkpoint["time"])
	return {"id": int(checkpoint["id"]), "label": checkpoint["label"],
		"time": Time.get_datetime_string_from_unix_time(int(time), false) + "Z", "unix_time": time,
		"file_count": files, "bytes": kept}


## Every path journalled by the checkpoint at `position` or any newer one, with its earliest
## entry: the state each file had when that checkpoint was made.
func merged_entries(position: int) -> Dictionary:
	var merged := {}
	var list := checkpoints()
	for i: int in range(position, list.size()):
		var entries: Dictionary = list[i]["entries"]
		for path: String in entries:
			if not merged.has(path):
				merged[path] = entries[path]
	return merged


## After a restore of the checkpoint at `position`: the newer ones are gone (they describe changes
## that were just undone) and it keeps only the entries that could not be restored. Returns the
## dropped summaries.
func settle_restore(position: int, unresolved: Dictionary, restored_hashes: Dictionary) -> Array:
	var dropped: Array = []
	var merged := merged_entries(position)
	while checkpoints().size() > position + 1:
		var gone: Dictionary = checkpoints().pop_back()
		dropped.push_front({"id": int(gone["id"]), "label": gone["label"], "reason": "newer than the restored checkpoint"})
	var kept := {}
	for path: String in unresolved:
		kept[path] = merged[path]
	checkpoints()[position]["entries"] = kept
	for path: String in restored_hashes:
		_index["written"][path] = restored_hashes[path]
	_log_drops(dropped)
	_collect()
	_save()
	return dropped


# --- internals ----------------------------------------------------------------------------------

static func _with_companions(path: String) -> PackedStringArray:
	var paths := PackedStringArray([path])
	for suffix: String in COMPANIONS:
		if path.ends_with(suffix):
			return paths
	for suffix: String in COMPANIONS:
		paths.append(path + suffix)
	return paths


func _tracked(path: String) -> bool:
	for checkpoint: Dictionary in checkpoints():
		if checkpoint["entries"].has(path):
			return true
	return false


func _enforce_byte_limit() -> void:
	var dropped: Array = []
	while checkpoints().size() > 1 and _stored_bytes() > max_bytes:
		dropped.append(_drop_oldest("stored originals over %d bytes" % max_bytes))
	if not dropped.is_empty():
		_collect()


## Bytes of distinct stored originals (a blob shared by checkpoints counts once).
func _stored_bytes() -> int:
	var sizes := {}
	for checkpoint: Dictionary in checkpoints():
		for path: String in checkpoint["entries"]:
			var entry: Dictionary = checkpoint["entries"][path]
			if entry["existed"]:
				sizes[entry["hash"]] = int(entry["size"])
	var total := 0
	for file_hash: String in sizes:
		total += int(sizes[file_hash])
	return total


func _drop_oldest(reason: String) -> Dictionary:
	var gone: Dictionary = checkpoints().pop_front()
	var record := {"id": int(gone["id"]), "label": gone["label"], "reason": reason}
	_log_drops([record])
	return record


func _log_drops(records: Array) -> void:
	var history: Array = _index["dropped"]
	history.append_array(records)
	while history.size() > DROP_LOG_SIZE:
		history.pop_front()


## Forgets hashes of files no checkpoint tracks and deletes blobs none refers to.
func _collect() -> void:
	var referenced := {}
	var tracked := {}
	for checkpoint: Dictionary in checkpoints():
		for path: String in checkpoint["entries"]:
			tracked[path] = true
			var entry: Dictionary = checkpoint["entries"][path]
			if entry["existed"]:
				referenced[entry["hash"]] = true
	for map: Dictionary in [_index["written"], _index["edited_over"]]:
		for path: String in map.keys():
			if not tracked.has(path):
				map.erase(path)
	store.collect_garbage(referenced)


func _save() -> Error:
	return store.save_index(_index)
