@tool
extends RefCounted
## A command param naming a file the command is about to make: a res:// path through the file
## guard, of one of the kinds the tool makes, in a folder that exists. Returns {"value": path} or
## {"error": envelope} like the readers of contract/build_args.gd, so it joins their collect().
## Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")
const Folders := preload("res://addons/godot_mcp_toolkit/base/folders.gd")


## A res:// file path through the file guard, with one of `extensions`, in a folder that exists.
static func res_file(params: Dictionary, key: String, extensions: Array) -> Dictionary:
	if not params.has(key):
		return {"error": ToolkitError.fail("INVALID_PARAMS", "Missing required parameter(s): %s" % key)}
	var checked := FileGuard.check(params[key])
	if not checked["ok"]:
		return {"error": checked["error"]}
	var path: String = checked["path"]
	if not path.get_extension().to_lower() in extensions:
		return {"error": FileGuard.wrong_extension(key, path, extensions)}
	if not Folders.exists(path.get_base_dir()):
		return {"error": ToolkitError.fail("PARENT_NOT_FOUND", "The folder %s does not exist" % path.get_base_dir(),
			"Create it first with folder_create, or pick an existing folder.")}
	return {"value": path}
