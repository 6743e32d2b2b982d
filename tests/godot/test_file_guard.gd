extends RefCounted
## security/file_guard.gd: res:// only (user:// when allowed), no '..', never the toolkit's own
## folder or token.

const Assert := preload("assert.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")


func test_project_paths_pass_normalized() -> void:
	Assert.eq(FileGuard.check("res://scenes/main.tscn"), {"ok": true, "path": "res://scenes/main.tscn"}, "plain")
	Assert.eq(FileGuard.check("res://scenes//./levels/a.tscn")["path"], "res://scenes/levels/a.tscn", "collapsed")
	Assert.eq(FileGuard.check("res://scenes\\win\\b.tscn")["path"], "res://scenes/win/b.tscn", "backslashes")
	Assert.eq(FileGuard.check("  res://x.gd ")["path"], "res://x.gd", "trimmed")


func test_dot_dot_is_refused_everywhere() -> void:
	for path: String in ["res://../outside.txt", "res://a/../../b", "res://a/..", "user://../x", "res://a\\..\\b"]:
		_denied(FileGuard.check(path, true), "PATH_DENIED", path)
	Assert.is_true(FileGuard.check("res://a/..b/c..d.txt")["ok"], "dots inside names are fine")


func test_only_res_and_allowed_user_paths() -> void:
	_denied(FileGuard.check("user://saves/slot1.save"), "PATH_DENIED", "user:// needs allow_user")
	Assert.is_true(FileGuard.check("user://saves/slot1.save", true)["ok"], "user:// when allowed")
	for path: String in ["/etc/passwd", "C:/Windows/win.ini", "http://example.com/x", "scenes/a.tscn", "RES://a.tscn"]:
		_denied(FileGuard.check(path, true), "PATH_DENIED", path)


func test_toolkit_folder_and_token_are_off_limits() -> void:
	_denied(FileGuard.check("res://addons/godot_mcp_toolkit/plugin.gd"), "PATH_DENIED", "own code")
	_denied(FileGuard.check("res://addons/godot_mcp_toolkit"), "PATH_DENIED", "the folder itself")
	_denied(FileGuard.check("res://Addons/GODOT_MCP_TOOLKIT/x.gd"), "PATH_DENIED", "case-folded")
	_denied(FileGuard.check("user://addons/godot_mcp_toolkit/project_instance_0123456789ab/mcp_token", true),
		"PATH_DENIED", "the token")
	Assert.is_true(FileGuard.check("res://addons/godot_mcp_toolkit_fork/x.gd")["ok"], "a sibling folder is fine")
	var protected := PackedStringArray(["user://custom/token.txt"])
	_denied(FileGuard.check("user://custom//token.txt", true, protected), "PATH_DENIED", "an extra protected file")


func test_non_strings_and_empty_are_invalid_path() -> void:
	for value: Variant in ["", "   ", null, 42, ["res://a"]]:
		_denied(FileGuard.check(value), "INVALID_PATH", str(value))


func _denied(verdict: Dictionary, code: String, what: String) -> void:
	Assert.is_false(verdict["ok"], "%s refused" % what)
	Assert.eq(verdict.get("error", {}).get("code"), code, "%s -> %s" % [what, code])


func test_param_names_the_parameter_and_the_expected_kind() -> void:
	Assert.eq(FileGuard.param("res://a//b.tres", "file_path", ["tres", "res"]), {"path": "res://a/b.tres"}, "ok")
	var missing: Dictionary = FileGuard.param(null, "file_path")["error"]
	Assert.eq([missing["code"], missing["error"]], ["INVALID_PARAMS", "Missing required parameter(s): file_path"], "null")
	var not_text: Dictionary = FileGuard.param(3, "scene_path")["error"]
	Assert.eq(not_text["error"], "scene_path must be a string", "not a string")
	var wrong: Dictionary = FileGuard.param("res://a.png", "scene_path", ["tscn", "scn"])["error"]
	var expected := ["UNSUPPORTED_FILE_TYPE", "scene_path must end in .tscn or .scn: res://a.png"]
	Assert.eq([wrong["code"], wrong["error"]], expected, "kind")
	Assert.eq(FileGuard.param("res://../x.tres", "file_path")["error"]["code"], "PATH_DENIED", "guard applies")


func test_a_uid_is_the_path_resource_uid_has_for_it_guarded_as_that_path() -> void:
	# As the editor's file scan registers every file's uid.
	var scene_id := ResourceUID.create_id()
	ResourceUID.add_id(scene_id, "res://scenes/level.tscn")
	var own_id := ResourceUID.create_id()
	ResourceUID.add_id(own_id, "res://addons/godot_mcp_toolkit/plugin.gd")
	var uid := ResourceUID.id_to_text(scene_id)
	Assert.eq(FileGuard.check(uid), {"ok": true, "path": "res://scenes/level.tscn", "uid": uid}, "resolved")
	Assert.eq(FileGuard.param(uid, "scene_path", ["tscn"]), {"path": "res://scenes/level.tscn", "uid": uid},
		"a parameter takes it too")
	Assert.eq(FileGuard.param(uid, "script_path", ["gd"])["error"]["code"], "UNSUPPORTED_FILE_TYPE",
		"the kind is the resolved file's")
	_denied(FileGuard.check(ResourceUID.id_to_text(own_id)), "PATH_DENIED", "guarded as the path it names")
	var unknown := FileGuard.check("uid://nosuchuidhere")
	_denied(unknown, "NOT_FOUND", "unknown")
	Assert.contains(unknown["error"]["error"], "uid://nosuchuidhere", "names it")
	Assert.contains(unknown["error"]["hint"], "res://", "says how to get a path")
	_denied(FileGuard.check("uid://"), "INVALID_PATH", "no uid at all")
	_denied(FileGuard.check("uid://NOT-A-UID"), "INVALID_PATH", "malformed")
	Assert.contains(FileGuard.check("user://x.cfg")["error"]["error"], "uid://", "the refusal says uids are fine")
	ResourceUID.remove_id(scene_id)
	ResourceUID.remove_id(own_id)
