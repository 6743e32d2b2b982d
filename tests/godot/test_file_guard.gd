extends RefCounted
## security/file_guard.gd: res:// only (user:// when allowed), no '..', never the toolkit's own
## folder or token; the rules as rows of tests/fixtures/toolkit/path_guard_cases.json, which the
## bridge's guard runs too.

const Assert := preload("assert.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")
const AssetCommands := preload("res://addons/godot_mcp_toolkit/commands/asset/asset_commands.gd")
const CASES := "res://tests/fixtures/toolkit/path_guard_cases.json"


## Every path rule of both halves is one table: tests/unit/test_path_guard_cases.py runs the same
## rows against the bridge's guard (godot_bridge/safety/pathguard.py).
func test_project_path_rules() -> void:
	var table := _cases()
	var ids := _register_uids(table["uids"])
	for case: Dictionary in table["project"]:
		var label := "%s%s" % [str(case["path"]), " +user" if case.get("allow_user", false) else ""]
		var verdict := FileGuard.check(case["path"], bool(case.get("allow_user", false)))
		if case["toolkit"] == "ok":
			Assert.is_true(verdict["ok"], label + " passes")
			Assert.eq(verdict.get("path"), case["normalized"], label + " normalized")
		else:
			_denied(verdict, String(case["toolkit"]), label)
	for id: int in ids:
		ResourceUID.remove_id(id)


## asset.import's source_path (a file on the machine, copied into the project): the same table's
## disk rows. A path both guards let through is answered NOT_FOUND here (no such file).
func test_disk_path_rules() -> void:
	for case: Dictionary in _cases()["disk"]:
		_denied(AssetCommands._source_file(case["path"]), String(case["toolkit"]), String(case["path"]))


func test_an_operators_protected_file_is_refused() -> void:
	var protected := PackedStringArray(["user://custom/token.txt"])
	_denied(FileGuard.check("user://custom//token.txt", true, protected), "PATH_DENIED", "an extra protected file")
	Assert.is_true(FileGuard.check("user://custom/other.txt", true, protected)["ok"], "only that file")


## The table's uids, as the editor's file scan registers every file's uid; the ids added (to remove).
func _register_uids(uids: Dictionary) -> Array[int]:
	var added: Array[int] = []
	for uid: String in uids:
		var id := ResourceUID.text_to_id(uid)
		if not ResourceUID.has_id(id):
			ResourceUID.add_id(id, String(uids[uid]))
			added.append(id)
	return added


func _cases() -> Dictionary:
	var parsed: Variant = JSON.parse_string(FileAccess.get_file_as_string(CASES))
	Assert.is_true(parsed is Dictionary, "%s parses" % CASES)
	return parsed if parsed is Dictionary else {"uids": {}, "project": [], "disk": []}


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
