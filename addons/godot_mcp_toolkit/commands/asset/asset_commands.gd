@tool
extends RefCounted
## Project assets (group asset_ops): asset.list (filtered, the project's own files first, paged),
## asset.get_dependencies (ResourceLoader's own list, optionally the whole chain) and asset.import
## (an outside file or base64 bytes written under res:// through the file guard, undoable, then
## handed to the editor's file index, which imports it). A file from disk is refused when a part of
## its path is hidden (starts with a dot) or its bytes are not the asset the destination's extension
## names; asset.inspect_source answers what a copy would take (size, sha256, format) or why it is
## refused, without copying: the bridge reads it before it asks the person about such a copy.
## Runtime-safe: reaches the editor only through context.project.refresh_files.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const Pagination := preload("res://addons/godot_mcp_toolkit/contract/pagination.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")
const Idempotency := preload("res://addons/godot_mcp_toolkit/contract/idempotency.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")
const ScriptFiles := preload("res://addons/godot_mcp_toolkit/commands/script/script_files.gd")
const FileBytes := preload("res://addons/godot_mcp_toolkit/files/file_bytes.gd")
const AssetIndex := preload("res://addons/godot_mcp_toolkit/commands/asset/asset_index.gd")
const FileSignature := preload("res://addons/godot_mcp_toolkit/commands/asset/file_signature.gd")
const ClassNames := preload("res://addons/godot_mcp_toolkit/commands/classdb/class_names.gd")
const Auth := preload("res://addons/godot_mcp_toolkit/security/auth.gd")
const Folders := preload("res://addons/godot_mcp_toolkit/base/folders.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/asset/asset_commands.gd"
const DEFAULT_LIMIT := 200
const MAX_LIMIT := 2000
const DEPENDENCIES_HINT := "Showing up to %d of %d (limit, or one answer's size); pass offset next_offset for the rest."
const LIST_HINT := "More files than this page: continue with offset next_offset, or narrow with path_prefix " \
	+ "(remaining: what is left, by folder), name_glob, class_filter or extension_filter."
## The most folders `remaining` names (the fullest): enough to choose a narrower path_prefix.
const MAX_REMAINING_FOLDERS := 12


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("asset.list", Callable(script, "_cmd_list").bind(context),
		registry.create_options()
		.read_only().scene_independent())
	registry.register_command("asset.get_dependencies", Callable(script, "_cmd_dependencies").bind(context),
		registry.create_options()
		.read_only().scene_independent())
	registry.register_command("asset.import", Callable(script, "_cmd_import").bind(context),
		registry.create_options()
		.scene_independent())
	registry.register_command("asset.inspect_source", Callable(script, "_cmd_inspect_source").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "properties": {
			"source_path": {"type": "string"}, "dest_path": {"type": "string"},
		}, "required": ["source_path", "dest_path"], "additionalProperties": false})
		.read_only().scene_independent())


## The whole-number limit in 1..MAX_LIMIT (a larger one is lowered), or the INVALID_PARAMS error.
static func _limit(params: Dictionary) -> Dictionary:
	var limit: Variant = params.get("limit", DEFAULT_LIMIT)
	if limit == null:
		limit = DEFAULT_LIMIT
	if not Params.is_whole_number(limit) or int(limit) < 1:
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", "limit must be a whole number >= 1")}
	return {"ok": true, "limit": mini(int(limit), MAX_LIMIT)}


static func _cmd_list(params: Dictionary, _context: RefCounted) -> Dictionary:
	var filters := _list_filters(params)
	if not filters["ok"]:
		return filters["error"]
	var prefix: String = filters["prefix"]
	# "res://a/" names a folder; "res://a/pl" is also a file-name prefix inside res://a.
	var named_folder := _text(params, "path_prefix", "/").ends_with("/")
	var folder := prefix if named_folder or Folders.exists(prefix) else prefix.get_base_dir()
	if not Folders.exists(folder):
		return ToolkitError.fail("NOT_FOUND", "No folder at %s" % folder, "Start from res:// and narrow down.")
	var matched: Array[Dictionary] = []
	# The toolkit's own folder is off-limits to every tool (FileGuard), so it is not listed either.
	for path: String in AssetIndex.files_under(folder, [FileGuard.TOOLKIT_FOLDERS[0]]):
		if not path.begins_with(prefix):
			continue
		var entry := _listed(path, filters)
		if not entry.is_empty():
			matched.append(entry)
	var offset: int = clampi(filters["offset"], 0, matched.size())
	var files := matched.slice(offset, offset + int(filters["limit"]))
	var base := folder if folder.ends_with("/") else folder + "/"
	# Sized with what is left after `offset`; the page's own `remaining` counts fewer files (a folder
	# the page emptied may let another, longer name in: the answer's reserve holds that).
	var result := {"path_prefix": prefix, "files": [], "remaining": _remaining(matched, offset, base),
		"hint": LIST_HINT}
	result.merge(Pagination.fields(0, matched.size(), "files", offset))
	files = files.slice(0, AnswerBudget.fitting(files, AnswerBudget.room_beside(result)))
	result["files"] = files
	result.merge(Pagination.fields(files.size(), matched.size(), "files", offset), true)
	if result["has_more"]:
		result["remaining"] = _remaining(matched, offset + files.size(), base)
	else:
		for key: String in ["next_offset", "remaining", "hint"]:
			result.erase(key)
	return ToolkitSuccess.ok(result)


## What is left after `start`, counted by the folder under `base` it is in (`base` itself for its
## own files), so a narrower path_prefix is an informed choice: the MAX_REMAINING_FOLDERS fullest.
static func _remaining(matched: Array[Dictionary], start: int, base: String) -> Dictionary:
	var counts := {}
	for entry: Dictionary in matched.slice(start):
		var inside := (entry["path"] as String).substr(base.length())
		var key: String = base + inside.get_slice("/", 0) + "/" if inside.contains("/") else base
		counts[key] = int(counts.get(key, 0)) + 1
	var folders: Array = counts.keys()
	folders.sort_custom(func(a: String, b: String) -> bool:
		return counts[a] > counts[b] if counts[a] != counts[b] else a < b)
	var kept := folders.slice(0, MAX_REMAINING_FOLDERS)
	kept.sort()
	var shown := {}
	for key: String in kept:
		shown[key] = counts[key]
	return shown


## {"path", "type"} when `path` passes the filters, else {}.
static func _listed(path: String, filters: Dictionary) -> Dictionary:
	var extensions: PackedStringArray = filters["extensions"]
	if not extensions.is_empty() and not path.get_extension().to_lower() in extensions:
		return {}
	var glob: String = filters["glob"]
	if not glob.is_empty() and not path.get_file().matchn(glob):
		return {}
	var type := AssetIndex.type_of(path)
	var wanted: String = filters["class"]
	if not wanted.is_empty() and not AssetIndex.is_of_class(type, wanted):
		return {}
	return {"path": path, "type": type}


## The checked filters of asset.list: {"ok", "prefix", "glob", "class", "extensions", "offset", "limit"}.
static func _list_filters(params: Dictionary) -> Dictionary:
	var limit := _limit(params)
	if not limit["ok"]:
		return limit
	# The offset alone: the limit was checked above (a null one is the default).
	var window := Pagination.window({"offset": params["offset"]} if params.get("offset") != null else {}, 1, 1)
	if not window["ok"]:
		return window
	for key: String in ["path_prefix", "name_glob", "class_filter"]:
		if params.get(key) != null and not params[key] is String:
			return _invalid("%s must be a string" % key)
	var checked := FileGuard.check(_text(params, "path_prefix", FileGuard.RES_PREFIX))
	if not checked["ok"]:
		var error: Dictionary = checked["error"]
		return {"ok": false, "error": error if error["code"] == "PATH_DENIED" else _invalid(error["error"])["error"]}
	var extensions := PackedStringArray()
	var raw: Variant = params.get("extension_filter")
	if raw != null and not raw is Array:
		return _invalid("extension_filter must be an array of extensions, e.g. [\"png\", \"tres\"]")
	for item: Variant in (raw if raw is Array else []):
		if not item is String or (item as String).trim_prefix(".").is_empty():
			return _invalid("extension_filter entries must be extensions like \"png\", got %s" % str(item))
		extensions.append((item as String).trim_prefix(".").to_lower())
	var wanted := _text(params, "class_filter", "")
	if not wanted.is_empty() and not ClassDB.class_exists(wanted):
		return {"ok": false, "error": ClassNames.unknown(wanted, "Resource")}
	return {"ok": true, "prefix": checked["path"], "glob": _text(params, "name_glob", ""), "class": wanted,
		"extensions": extensions, "offset": window["offset"], "limit": limit["limit"]}


## The string param `key` (already type-checked), `fallback` when absent or empty.
static func _text(params: Dictionary, key: String, fallback: String) -> String:
	var value: Variant = params.get(key)
	return fallback if value == null or (value as String).is_empty() else value


static func _invalid(message: String) -> Dictionary:
	return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", message)}


static func _cmd_dependencies(params: Dictionary, _context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["file_path"])
	if not missing.is_empty():
		return missing
	var limit := _limit(params)
	if not limit["ok"]:
		return limit["error"]
	var transitive: Variant = params.get("include_transitive", false)
	if transitive != null and not transitive is bool:
		return ToolkitError.fail("INVALID_PARAMS", "include_transitive must be true or false")
	var checked := FileGuard.check(params["file_path"])
	if not checked["ok"]:
		var error: Dictionary = checked["error"]
		return error if error["code"] == "PATH_DENIED" else ToolkitError.fail("INVALID_PARAMS", error["error"])
	var path: String = checked["path"]
	if not FileAccess.file_exists(path) and not ResourceLoader.exists(path):
		return ToolkitError.fail("NOT_FOUND", "No file at %s" % path, "List files with asset_list.")
	var window := Pagination.window(params, 1, 1)
	if not window["ok"]:
		return window["error"]
	var found := _dependencies(path, transitive == true)
	var offset := mini(int(window["offset"]), found.size())
	var wanted := found.slice(offset, offset + int(limit["limit"]))
	var result := {"file_path": path, "include_transitive": transitive == true, "dependencies": [],
		"hint": DEPENDENCIES_HINT % [found.size(), found.size()]}
	result.merge(Pagination.fields(0, found.size(), "dependencies", offset))
	var shown := wanted.slice(0, AnswerBudget.fitting(wanted, AnswerBudget.room_beside(result)))
	result["dependencies"] = shown
	result.erase("hint")
	result.merge(Pagination.fields(shown.size(), found.size(), "dependencies", offset), true)
	if result["has_more"]:
		result["hint"] = DEPENDENCIES_HINT % [offset + shown.size(), found.size()]
	else:
		result.erase("next_offset")
	return ToolkitSuccess.ok(result)


## Direct dependencies of `path`, or (transitive) the whole chain breadth-first, each file once:
## [{"path", "type", "missing", "depth", "required_by"}].
static func _dependencies(path: String, transitive: bool) -> Array[Dictionary]:
	var found: Array[Dictionary] = []
	var seen := {path: true}
	var queue: Array = [[path, 1]]
	while not queue.is_empty():
		var next: Array = queue.pop_front()
		for entry: String in ResourceLoader.get_dependencies(next[0]):
			var dependency := AssetIndex.parse_dependency(entry)
			var dependency_path: String = dependency["path"]
			if seen.has(dependency_path):
				continue
			seen[dependency_path] = true
			var exists := ResourceLoader.exists(dependency_path) or FileAccess.file_exists(dependency_path)
			# Godot 4.3+ lists text resources' dependencies without their type: read it from the file.
			if (dependency["type"] as String).is_empty() and exists:
				dependency["type"] = AssetIndex.type_of(dependency_path)
			if (dependency["type"] as String).is_empty():
				dependency.erase("type")
			dependency.merge({"missing": not exists, "depth": next[1], "required_by": next[0]})
			found.append(dependency)
			if transitive and exists:
				queue.append([dependency_path, next[1] + 1])
	return found


static func _cmd_import(params: Dictionary, context: RefCounted) -> Dictionary:
	var mode := Idempotency.read_mode(params)
	if not mode["ok"]:
		return mode["error"]
	var wait: Variant = params.get("wait_for_scan_ms")
	if wait != null and (not Params.is_number(wait) or float(wait) < 0):
		return ToolkitError.fail("INVALID_PARAMS", "wait_for_scan_ms must be a number >= 0")
	var missing := Params.require(params, ["dest_path"])
	if not missing.is_empty():
		return missing
	var target := ScriptFiles.check_path(params["dest_path"], true)
	if not target["ok"]:
		return target["error"]
	var dest: String = target["path"]
	if not Folders.exists(dest.get_base_dir()):
		return ToolkitError.fail("PARENT_NOT_FOUND", "The folder %s does not exist" % dest.get_base_dir(),
			"Create it first with folder_create.")
	var source := _source_bytes(params)
	if not source["ok"]:
		return source["error"]
	var before: Variant = FileBytes.snapshot(dest)
	var action := Idempotency.decide(mode["mode"], before != null)
	if action == Idempotency.ACTION_FAIL:
		return Idempotency.already_exists(dest)
	var result := {"dest_path": dest, "source": source["kind"]}
	if action == Idempotency.ACTION_RETURN:
		result.merge({"bytes": (before as PackedByteArray).size(), "loadable": ResourceLoader.exists(dest)})
		return ToolkitSuccess.ok(Idempotency.with_status(result, Idempotency.STATUS_RETURNED))
	var data: PackedByteArray = source["data"]
	# The editor imports by extension: bytes of another kind would be "created" and then not import.
	# A file from disk must be such an asset at all (check_asset): nothing else is brought in.
	var mismatch := FileSignature.check_asset(dest, data) if source["kind"] == "source_path" \
		else FileSignature.check(dest, data)
	if not mismatch.is_empty():
		return ToolkitError.fail("INVALID_PARAMS", mismatch["error"], mismatch["hint"])
	var error := FileBytes.write(dest, data)
	if error != OK:
		return FileBytes.write_failed(dest, error)
	FileBytes.record(context, "MCP: import %s" % dest.get_file(), dest, before, data)
	context.project.refresh_files(PackedStringArray([dest]))
	result.merge({"bytes": data.size(), "loadable": ResourceLoader.exists(dest),
		"hint": "The editor imports the file in the background (the toolkit does not block for it); " \
			+ "asset_list shows its type once imported."})
	var status := Idempotency.STATUS_CREATED if before == null else Idempotency.STATUS_REPLACED
	return ToolkitSuccess.ok(Idempotency.with_status(result, status))


## {"ok", "data", "kind"} from exactly one of source_path / base64_data, or the error.
static func _source_bytes(params: Dictionary) -> Dictionary:
	var has_path := params.get("source_path") != null
	var has_data := params.get("base64_data") != null
	if has_path == has_data:
		return _invalid("Pass exactly one of source_path (a file on disk) or base64_data")
	if has_data:
		var text: Variant = params["base64_data"]
		var data := Marshalls.base64_to_raw(text) if text is String else PackedByteArray()
		if data.is_empty():
			return _invalid("base64_data is not valid, non-empty base64")
		return {"ok": true, "data": data, "kind": "base64_data"}
	var checked := _source_file(params["source_path"])
	if not checked["ok"]:
		return checked
	var source: String = checked["path"]
	var bytes := FileAccess.get_file_as_bytes(source)
	if FileAccess.get_open_error() != OK:
		return _read_failed(source)
	return {"ok": true, "data": bytes, "kind": "source_path"}


## {"ok", "path"} for a source_path asset.import may read, or {"ok": false, "error"}: an absolute
## path on disk, no '..', no hidden part (a dot-leading folder or file: ~/.ssh, .env), not the
## toolkit's own files, and a file that exists.
static func _source_file(source: Variant) -> Dictionary:
	if not source is String or not (source as String).is_absolute_path() or (source as String).contains("://"):
		return _invalid("source_path must be an absolute path on disk (outside res:// and user://), got %s" % str(source))
	var parts := FileGuard.normalize(source).split("/")
	if ".." in parts:
		return {"ok": false, "error": ToolkitError.fail("PATH_DENIED", "'..' is not allowed in source_path: %s" % source,
			"Pass the file's full path without '..'.")}
	for part: String in parts:
		if part.begins_with("."):
			return {"ok": false, "error": ToolkitError.fail("PATH_DENIED",
				"source_path is in a hidden folder or is a hidden file (%s): those hold settings and secrets, not " % part
				+ "assets, and are never copied into the project: %s" % source, "Copy the asset out of it by hand first.")}
	if _is_protected_source(source):
		return {"ok": false, "error": ToolkitError.fail("PATH_DENIED",
			"The MCP toolkit's own files (its auth token) cannot be copied into the project: %s" % source)}
	if not FileAccess.file_exists(source):
		return {"ok": false, "error": ToolkitError.fail("NOT_FOUND", "No file at %s" % source,
			"source_path is read on the machine running the editor.")}
	return {"ok": true, "path": source}


static func _read_failed(source: String) -> Dictionary:
	return {"ok": false, "error": ToolkitError.fail("READ_FAILED", "Could not read %s: %s" % [
		source, error_string(FileAccess.get_open_error())])}


## What asset.import would copy from source_path to dest_path, or the refusal it would answer, with
## nothing written: the file's size, sha256 and format (the bridge binds the person's answer to it).
static func _cmd_inspect_source(params: Dictionary, _context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["source_path", "dest_path"])
	if not missing.is_empty():
		return missing
	var target := ScriptFiles.check_path(params["dest_path"], true)
	if not target["ok"]:
		return target["error"]
	var checked := _source_file(params["source_path"])
	if not checked["ok"]:
		return checked["error"]
	var source: String = checked["path"]
	var file := FileAccess.open(source, FileAccess.READ)
	if file == null:
		return _read_failed(source)["error"]
	var size := file.get_length()
	var head := file.get_buffer(mini(size, FileSignature.TEXT_WINDOW * 2))
	file.close()
	var mismatch := FileSignature.check_asset(target["path"], head)
	if not mismatch.is_empty():
		return ToolkitError.fail("INVALID_PARAMS", mismatch["error"], mismatch["hint"])
	return ToolkitSuccess.ok({"source_path": source, "bytes": size, "sha256": FileAccess.get_sha256(source),
		"format": FileSignature.identify(head)})


## True for the toolkit's user:// folder and the auth token file, on disk: copied under res:// they
## would be readable with script_read, handing the bridge's secret to whatever reads the project.
static func _is_protected_source(source: String) -> bool:
	var folded := _disk_form(source)
	var guarded := [ProjectSettings.globalize_path(FileGuard.TOOLKIT_FOLDERS[1]), Auth.new().get_published_token_path()]
	for item: String in guarded:
		var protected := _disk_form(item)
		if folded == protected or folded.begins_with(protected + "/"):
			return true
	return false


## `/` separators, doubled slashes and `./` collapsed, case folded (Windows and macOS fold case).
## `..` is refused before this is asked.
static func _disk_form(path: String) -> String:
	return FileGuard.normalize(path).to_lower()
