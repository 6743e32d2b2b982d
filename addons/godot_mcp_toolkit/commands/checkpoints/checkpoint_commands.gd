@tool
extends RefCounted
## Checkpoints of the assistant's work (group checkpoints): checkpoint.create, checkpoint.list,
## checkpoint.restore and checkpoint.diff over the journal every toolkit file change goes through
## (checkpoints/project_writes.gd). Registering the domain installs the journal (under
## res://.godot/mcp_checkpoints) unless one is installed already, which is how tests bring their
## own. Handlers read the installed journal at call time. Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const Pagination := preload("res://addons/godot_mcp_toolkit/contract/pagination.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")
const FileJournal := preload("res://addons/godot_mcp_toolkit/checkpoints/file_journal.gd")
const CheckpointRestore := preload("res://addons/godot_mcp_toolkit/checkpoints/checkpoint_restore.gd")
const CheckpointDiff := preload("res://addons/godot_mcp_toolkit/commands/checkpoints/checkpoint_diff.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/checkpoints/checkpoint_commands.gd"
const LABEL_MAX := 200
const DIFF_LINES_DEFAULT := 40
const DIFF_LINES_MAX := 400
const MORE_FILES_HINT := "More files than one answer holds: pass offset next_offset."
const TRUNCATED_HINT := "A diff cut short (truncated) shows its first lines; script_read reads a file as it is now."
const LIST_HINT := "checkpoint_list shows the checkpoints there are."


static func register(registry: RefCounted, context: RefCounted) -> void:
	if ProjectWrites.journal() == null:
		ProjectWrites.install(FileJournal.new())
	var script: Script = load(SELF_PATH)
	registry.register_command("checkpoint.create", Callable(script, "_cmd_create").bind(context),
		registry.create_options()
		.scene_independent())
	registry.register_command("checkpoint.list", Callable(script, "_cmd_list").bind(context),
		registry.create_options()
		.read_only().scene_independent())
	registry.register_command("checkpoint.restore", Callable(script, "_cmd_restore").bind(context),
		registry.create_options()
		.destructive().scene_independent())
	registry.register_command("checkpoint.diff", Callable(script, "_cmd_diff").bind(context),
		registry.create_options()
		.read_only().scene_independent())


static func _cmd_create(params: Dictionary, _context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["label"])
	if not missing.is_empty():
		return missing
	var label: Variant = params["label"]
	if not label is String or (label as String).strip_edges().is_empty() or (label as String).length() > LABEL_MAX:
		return ToolkitError.fail("INVALID_PARAMS", "label must be a non-empty string of at most %d characters" % LABEL_MAX)
	var journal := _journal()
	var made := journal.create((label as String).strip_edges())
	if made.has("error"):
		return ToolkitError.fail("WRITE_FAILED", made["error"], "Check that the project's .godot/ folder is writable.")
	var result: Dictionary = made["checkpoint"]
	result["dropped"] = made["dropped"]
	result["checkpoints"] = journal.checkpoints().size()
	return ToolkitSuccess.ok(result)


static func _cmd_list(_params: Dictionary, _context: RefCounted) -> Dictionary:
	var journal := _journal()
	var listed: Array = []
	for checkpoint: Dictionary in journal.checkpoints():
		listed.append(FileJournal.summary(checkpoint))
	var result := {"checkpoints": listed, "total": listed.size(), "dropped": journal.recent_drops().duplicate(true),
		"limits": {"max_checkpoints": journal.max_checkpoints, "max_bytes": journal.max_bytes}}
	if not journal.warning().is_empty():
		result["warning"] = journal.warning()
	return ToolkitSuccess.ok(result)


static func _cmd_restore(params: Dictionary, context: RefCounted) -> Dictionary:
	var id := _id(params)
	if id.has("error"):
		return id["error"]
	var report := CheckpointRestore.run(_journal(), id["id"], context)
	if report.has("error"):
		return ToolkitError.fail("NOT_FOUND", report["error"], LIST_HINT)
	return ToolkitSuccess.ok(report)


static func _cmd_diff(params: Dictionary, _context: RefCounted) -> Dictionary:
	var id := _id(params)
	if id.has("error"):
		return id["error"]
	var max_lines: Variant = params.get("max_lines", DIFF_LINES_DEFAULT)
	if not Params.is_whole_number(max_lines) or int(max_lines) < 1 or int(max_lines) > DIFF_LINES_MAX:
		return ToolkitError.fail("INVALID_PARAMS", "max_lines must be a whole number from 1 to %d" % DIFF_LINES_MAX)
	var window := Pagination.window(params, 1, 1)
	if not window["ok"]:
		return window["error"]
	var diff := CheckpointDiff.run(_journal(), id["id"], int(max_lines), window["offset"])
	if diff.has("error"):
		return ToolkitError.fail("NOT_FOUND", diff["error"], LIST_HINT)
	var hints := PackedStringArray()
	if diff["has_more"]:
		hints.append(MORE_FILES_HINT)
	if (diff["files"] as Array).any(func(item: Dictionary) -> bool: return item.get("diff", {}).get("truncated", false)):
		hints.append(TRUNCATED_HINT)
	if not hints.is_empty():
		diff["hint"] = " ".join(hints)
	return ToolkitSuccess.ok(diff)


## {"id": int} or {"error": failure}.
static func _id(params: Dictionary) -> Dictionary:
	var missing := Params.require(params, ["id"])
	if not missing.is_empty():
		return {"error": missing}
	if not Params.is_whole_number(params["id"]) or int(params["id"]) < 1:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "id must be a checkpoint id (a whole number from 1)", LIST_HINT)}
	return {"id": int(params["id"])}


static func _journal() -> FileJournal:
	var journal := ProjectWrites.journal() as FileJournal
	if journal == null:
		journal = FileJournal.new()
		ProjectWrites.install(journal)
	return journal
