@tool
extends RefCounted
## Byte-level file writes with undo, for files that are not text (imported assets, binary .res,
## save data): one place for the "write whole, record how to go back" steps that save.delete,
## resource.write and asset.import share. Text files go through commands/script/script_files.gd.
## Runtime-safe. Undo steps hold the context weakly (the history lives inside it).

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/files/file_bytes.gd"


## The file's bytes, or null when there is no file (the "previous" of a create).
static func snapshot(path: String) -> Variant:
	if not FileAccess.file_exists(path):
		return null
	return FileAccess.get_file_as_bytes(path)


## Writes `data` to `path` through a sibling temp file renamed over it, so a failed write leaves
## the old file whole. OK or the error.
static func write(path: String, data: PackedByteArray) -> Error:
	return ProjectWrites.write_bytes(path, data)


## Records the undo entry for a change already made on disk: `before` / `after` are bytes or null
## (no file).
static func record(context: RefCounted, label: String, path: String, before: Variant, after: Variant) -> void:
	var action: RefCounted = context.edits.create_undo_action(label)
	add_steps(action, context, path, before, after)
	action.commit(false)


## Adds the do/undo steps that put `path` in the `after` / `before` state to an open action.
static func add_steps(action: RefCounted, context: RefCounted, path: String, before: Variant,
		after: Variant) -> void:
	var steps: Script = load(SELF_PATH)
	var context_ref: WeakRef = weakref(context)
	action.add_do_method(steps, &"restore", [path, after, context_ref])
	action.add_undo_method(steps, &"restore", [path, before, context_ref])


## Undo/redo step: `path` holds `data` again, or is removed when `data` is null; the editor is told.
static func restore(path: String, data: Variant, context_ref: WeakRef) -> void:
	var error := OK
	if data == null:
		error = ProjectWrites.remove_file(path)
		if ResourceLoader.has_cached(path):
			# A removed file must not keep answering load() from the cache.
			load(path).resource_path = ""
	else:
		error = write(path, data)
	if error != OK:
		push_error("MCP toolkit: undo/redo could not restore %s: %s" % [path, error_string(error)])
		return
	var context: Object = context_ref.get_ref()
	if context != null:
		context.project.refresh_files(PackedStringArray([path]))


static func write_failed(path: String, error: Error) -> Dictionary:
	return ToolkitError.fail("WRITE_FAILED", "Could not write %s: %s" % [path, error_string(error)],
		"Nothing was changed. Check that the folder is writable.")
