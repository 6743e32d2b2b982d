extends RefCounted
## commands/history/ over the edit ledger, every call through the real dispatch lane (which
## brackets each mutation for the ledger) with a runtime context holding two open scenes, each
## with its own undo history, plus the global one: undo steps back exactly the assistant's newest
## entry, then the next, across scenes and files (a script overwritten and a scene file created
## come back byte for byte / go again); redo re-applies; an edit the user made straight on a
## history blocks undo and leaves everything as it was; a hand edit to a file blocks its restore;
## a 500-node batch is one entry and undoes whole; a file moved by a tool moves back; versions and
## the unsaved marker after stepping; every mistaken request is refused and changes nothing.

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const RecordingLane := preload("recording_lane.gd")
const ResultExamples := preload("result_examples.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")
const JournalStore := preload("res://addons/godot_mcp_toolkit/checkpoints/journal_store.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")

const DOMAINS: Array[String] = [
	"res://addons/godot_mcp_toolkit/commands/history/history_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/scene/scene_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/node/node_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/script/script_commands.gd",
]
const DIR := "res://tmp_tests/history"
const SCENE_A := DIR + "/a.tscn"
const SCENE_B := DIR + "/b.tscn"
const PLAYER := DIR + "/player.gd"
const LEVEL := DIR + "/level.tscn"
## The original script: CRLF line ends and no final newline, so "byte for byte" means it.
const PLAYER_BYTES := "extends Node2D\r\n\r\nvar speed := 100.0"
const BATCH := 500

var _fx: DomainFixture = null
var _a: Node2D = null
var _b: Node2D = null
var _lane: RefCounted = null
var _responses := {}
var _next_id := 0


func _init() -> void:
	_a = _scene_root("A", SCENE_A)
	_fx = DomainFixture.new(DOMAINS, "history", _a, DIR, "4.6.0")
	_b = _scene_root("B", SCENE_B)
	(Engine.get_main_loop() as SceneTree).root.add_child(_b)
	_lane = RecordingLane.over(_fx.registry, _responses)
	_lane.set_edit_recorder(_fx.context.edits.edit_ledger())
	_fx.registry.register_command("batch.add_nodes", _add_nodes, _fx.registry.create_options())
	_fx.registry.register_command("batch.move_file", _move_file, _fx.registry.create_options())
	var file := FileAccess.open(PLAYER, FileAccess.WRITE)
	file.store_string(PLAYER_BYTES)
	file.close()


func cleanup() -> void:
	_b.get_parent().remove_child(_b)
	_b.free()
	_fx.cleanup()


# --- the sequence of the issue -----------------------------------------------------------------------

func test_undo_steps_back_the_newest_then_the_next_across_scenes_and_files() -> void:
	var ship := _create_in(_a, "Ship")
	_ok("node.set_property", {"node_path": "Ship", "property": "position", "value": {"type": "Vector2", "x": 5, "y": 6}})
	var buoy := _create_in(_b, "Buoy")
	_ok("script.write", {"file_path": PLAYER, "content": "extends Node2D\n\nvar speed := 300.0\n"})
	_ok("scene.create", {"file_path": LEVEL, "root_type": "Node2D"})
	var listed := _ok("history.list", {})
	Assert.eq(_field(listed["entries"], "method"), ["scene.create", "script.write", "scene.create_node",
		"node.set_property", "scene.create_node"], "five entries, newest first, one per tool call")
	Assert.eq(_field(listed["entries"], "scene"), ["global", "global", SCENE_B, SCENE_A, SCENE_A], "scene or global")
	Assert.eq(_field(listed["entries"], "undoable"), [true, true, true, true, true], "all undoable")
	Assert.eq(listed["entries"][0]["files"], [{"path": LEVEL, "change": "created"}], "the file the call made")
	Assert.eq(listed["entries"][1]["files"], [{"path": PLAYER, "change": "modified"}], "the file it changed")

	var first := _ok("history.undo", {})
	Assert.eq(_field(first["undone"], "method"), ["scene.create"], "the newest entry first")
	Assert.is_false(FileAccess.file_exists(LEVEL), "the created scene file is gone")
	Assert.eq(first["files"], [{"path": LEVEL, "exists": false, "bytes": 0, "sha256": ""}], "read back from disk")
	_ok("history.undo", {})
	Assert.eq(FileAccess.get_file_as_bytes(PLAYER), PLAYER_BYTES.to_utf8_buffer(), "the script is back byte for byte")
	var third := _ok("history.undo", {})
	Assert.eq(_field(third["undone"], "scene"), [SCENE_B], "then scene B's entry")
	Assert.is_false(is_instance_valid(buoy) and buoy.is_inside_tree(), "the node it made is gone from B")
	Assert.eq(third["scenes"][0]["unsaved"], true, "B still needs saving (the command marked it)")
	# A is not the edited scene any more: its entries are still the next to step back.
	Assert.eq(_fx.context.scenes.scene_root(), _b, "B is the edited scene")
	_ok("history.undo", {})
	Assert.eq(ship.position, Vector2.ZERO, "A's property change is undone")
	Assert.is_true(ship.is_inside_tree(), "and only that: the node it was set on is still there")

	var redone := _ok("history.redo", {})
	Assert.eq(_field(redone["redone"], "method"), ["node.set_property"], "redo replays the last undone")
	Assert.eq(ship.position, Vector2(5, 6), "the property is set again")
	_ok("history.redo", {"steps": 3})
	Assert.eq(_b.get_node_or_null("Buoy") != null, true, "B's node is back")
	Assert.contains(FileAccess.get_file_as_string(PLAYER), "300.0", "the script write is back")
	Assert.is_true(FileAccess.file_exists(LEVEL), "and the created file")
	Assert.eq(FileAccess.get_file_as_bytes(LEVEL), _entry_of("scene.create")["files"][LEVEL]["after_bytes"],
		"with the bytes the call wrote")
	Assert.eq(_code(_run("history.redo", {})), "INVALID_STATE", "nothing left to redo")


func test_action_names_show_they_are_the_assistants() -> void:
	_create_in(_a, "Ship")
	var history := _history_of(_a)
	var id := int(_ok("history.list", {})["entries"][0]["id"])
	Assert.eq(history.get_current_action_name(), "MCP #%d: Create Ship" % id, "tagged in the History dock")


func test_a_user_edit_on_top_blocks_undo_and_changes_nothing() -> void:
	var ship := _create_in(_a, "Ship")
	var history := _history_of(_a)
	# The user moves the ship in the editor: an action straight on the scene's history.
	history.create_action("Move Ship")
	history.add_do_property(ship, "position", Vector2(9, 9))
	history.add_undo_property(ship, "position", Vector2.ZERO)
	history.commit_action()
	var version := history.get_version()
	var refused := _run("history.undo", {})
	Assert.eq(_code(refused), "INVALID_STATE", "refused")
	Assert.eq(refused["reason"], "user_edit_on_top", "with the reason")
	Assert.contains(refused["error"], "Create Ship", "naming the entry")
	Assert.contains(refused["hint"], "Nothing was changed", "and saying so")
	Assert.eq(history.get_version(), version, "the history did not move")
	Assert.eq(ship.position, Vector2(9, 9), "the user's edit stands")
	Assert.is_true(ship.is_inside_tree(), "the assistant's node stands")
	var entry: Dictionary = _ok("history.list", {})["entries"][0]
	Assert.eq([entry["undoable"], entry["reason"], entry["user_edits_above"]], [false, "user_edit_on_top", 1],
		"history says why and counts the user's edit")
	Assert.eq(_code(_run("history.undo", {"dry_run": true})), "INVALID_STATE", "a dry run is refused as well")
	# Once the user undoes their own edit (Ctrl+Z), the assistant's entry is on top again.
	Assert.is_true(_fx.context.edits.undo(), "the user's undo")
	_ok("history.undo", {})
	Assert.is_false(ship.is_inside_tree(), "then undo steps back the assistant's node")


func test_a_hand_edit_blocks_the_restore_of_its_file() -> void:
	_ok("script.write", {"file_path": PLAYER, "content": "extends Node\n"})
	var file := FileAccess.open(PLAYER, FileAccess.WRITE)
	file.store_string("extends Node\n# the user's note\n")
	file.close()
	var refused := _run("history.undo", {})
	Assert.eq([_code(refused), refused["reason"]], ["INVALID_STATE", "file_changed"], "refused: changed by hand")
	Assert.contains(refused["error"], PLAYER, "naming the file")
	Assert.eq(FileAccess.get_file_as_string(PLAYER), "extends Node\n# the user's note\n", "the hand edit stays")


func test_a_500_node_batch_is_one_entry_and_undoes_whole() -> void:
	_ok("batch.add_nodes", {})
	Assert.eq(_a.get_child_count(), BATCH, "500 nodes made, each its own action")
	var listed := _ok("history.list", {})
	Assert.eq(listed["total"], 1, "one tool call, one entry")
	Assert.eq(listed["entries"][0]["label"], "Add N0 (+499 more)", "labelled by its first action")
	var undone := _ok("history.undo", {})
	Assert.eq(undone["undone"].size(), 1, "one step")
	Assert.eq(_a.get_child_count(), 0, "undoes whole")
	Assert.eq(_history_of(_a).get_current_action(), -1, "every one of its actions stepped back")
	_ok("history.redo", {})
	Assert.eq(_a.get_child_count(), BATCH, "and redoes whole")


func test_a_moved_file_moves_back() -> void:
	var moved := DIR + "/moved.gd"
	_ok("batch.move_file", {"from": PLAYER, "to": moved})
	Assert.is_false(FileAccess.file_exists(PLAYER), "moved away")
	var undone := _ok("history.undo", {})
	Assert.eq(FileAccess.get_file_as_bytes(PLAYER), PLAYER_BYTES.to_utf8_buffer(), "back where it was, byte for byte")
	Assert.is_false(FileAccess.file_exists(moved), "and not where it went")
	Assert.eq(_field(undone["files"], "exists"), [false, true], "both paths read back")


func test_history_version_and_the_unsaved_marker_after_stepping() -> void:
	var history := _history_of(_a)
	var before := history.get_version()
	var edits := _fx.context.edits
	Assert.eq(edits.history_unsaved(edits.history_id_for(_a)), false, "a scene just opened is saved")
	_create_in(_a, "Ship")
	Assert.eq(history.get_version(), before + 1, "one action, one version")
	var undone := _ok("history.undo", {})
	Assert.eq(history.get_version(), before, "undo brings the version back")
	Assert.eq(undone["scenes"], [{"scene": SCENE_A, "open": true, "version": before, "top": "", "unsaved": true}],
		"and the scene stays marked unsaved, as the editor's marker does once set")
	# An edit that does not mark the scene (an extension's) on a saved scene: the version decides.
	Assert.eq(_fx.context.scenes.save_scene(SCENE_A), OK, "saved")
	_ok("batch.add_nodes", {"count": 1})
	Assert.eq(_ok("history.list", {})["entries"][0]["unsaved"], true, "unsaved after the edit")
	Assert.eq(_ok("history.undo", {})["scenes"][0]["unsaved"], false, "saved again once stepped back")
	Assert.eq(_ok("history.redo", {})["scenes"][0]["unsaved"], true, "and unsaved once redone")


func test_redo_is_refused_once_something_newer_was_done_in_that_history() -> void:
	_create_in(_a, "Ship")
	_ok("history.undo", {})
	_create_in(_a, "Boat")
	var refused := _run("history.redo", {})
	Assert.eq([_code(refused), refused["reason"]], ["INVALID_STATE", "replaced"], "the redo was dropped by Godot")
	Assert.is_true(_a.get_node_or_null("Ship") == null, "nothing changed")


func test_an_entry_of_a_closed_scene_is_refused_and_until_reaches_past_it() -> void:
	var ship := _create_in(_a, "Ship")
	_create_in(_b, "Buoy")
	Assert.eq(_fx.context.scenes.close_scene(SCENE_B), OK, "the user closes B")
	var refused := _run("history.undo", {})
	Assert.eq([_code(refused), refused["reason"]], ["INVALID_STATE", "scene_closed"], "B's entry cannot be stepped")
	Assert.contains(refused["hint"], "scene_open " + SCENE_B, "says how to reopen it")
	Assert.is_true(ship.is_inside_tree(), "nothing changed")
	var first_id := int(_ok("history.list", {})["entries"][1]["id"])
	var reached := _ok("history.undo", {"until": first_id})
	Assert.eq(_field(reached["skipped"], "reason"), ["scene_closed"], "until skips the closed scene's entry")
	Assert.eq(_field(reached["undone"], "scene"), [SCENE_A], "and steps back A's")
	Assert.is_false(ship.is_inside_tree(), "A's node is gone")


func test_mistaken_requests_are_refused_with_a_hint_and_change_nothing() -> void:
	Assert.eq(_code(_run("history.undo", {})), "INVALID_STATE", "nothing to undo")
	Assert.eq(_code(_run("history.redo", {})), "INVALID_STATE", "nothing to redo")
	_create_in(_a, "Ship")
	var version := _history_of(_a).get_version()
	for params: Dictionary in [{"until": 999999}, {"steps": 2}, {"steps": 1, "until": 1}, {"steps": 0},
			{"dry_run": "yes"}]:
		var refused := _run("history.undo", params)
		Assert.is_false(refused["success"], "refused: %s" % params)
		Assert.is_true(not str(refused.get("hint", "")).is_empty(), "with a hint: %s" % params)
	Assert.eq(_code(_run("history.undo", {"until": 999999})), "NOT_FOUND", "an unknown id")
	Assert.eq(_code(_run("history.list", {"limit": 0})), "INVALID_PARAMS", "a bad limit")
	Assert.eq(_history_of(_a).get_version(), version, "and nothing moved")
	Assert.is_true(_a.get_node_or_null("Ship") != null, "the entry stands")


func test_dry_run_says_what_it_would_do_without_doing_it() -> void:
	_ok("scene.create", {"file_path": LEVEL, "root_type": "Node2D"})
	var dry := _ok("history.undo", {"dry_run": true})
	Assert.eq(_field(dry["would_undo"], "method"), ["scene.create"], "what it would step back")
	Assert.eq(dry["files"], [{"path": LEVEL, "exists": false, "bytes": 0, "sha256": ""}], "and what the file would be")
	Assert.is_true(FileAccess.file_exists(LEVEL), "but the file is still there")
	Assert.eq(_ok("history.list", {})["entries"][0]["state"], "done", "and the entry still done")


func test_reads_and_failed_calls_make_no_entry() -> void:
	_ok("history.list", {})
	_ok("scene.get_tree", {})
	Assert.eq(_code(_run("scene.create_node", {"class_name": "Node2D", "parent_path": "Nowhere"})), "PARENT_NOT_FOUND",
		"a call that fails")
	Assert.eq(_ok("history.list", {})["total"], 0, "records nothing")


func test_history_pages_and_blocked_entries_say_what_is_in_their_way() -> void:
	_create_in(_a, "Ship")
	_create_in(_a, "Boat")
	_create_in(_a, "Raft")
	var first := _ok("history.list", {"limit": 2})
	Assert.eq(_field(first["entries"], "label"), ["Create Raft", "Create Boat"], "the newest page")
	var rest := _ok("history.list", {"limit": 2, "before": first["next_before"]})
	Assert.eq(_field(rest["entries"], "label"), ["Create Ship"], "then the older one")
	Assert.is_false(rest.has("next_before"), "and no more")
	var history := _history_of(_a)
	var boat := _a.get_node("Boat")
	# The user's edit lands on top of all three; the older entries are blocked behind the newest.
	history.create_action("Hide Boat")
	history.add_do_property(boat, "visible", false)
	history.add_undo_property(boat, "visible", true)
	history.commit_action()
	var listed: Array = _ok("history.list", {})["entries"]
	Assert.eq(_field(listed, "reason"), ["user_edit_on_top", "blocked_behind", "blocked_behind"], "why each waits")
	Assert.eq(_field(listed, "user_edits_above"), [1, 1, 1], "the user's edit is above each")


## limit 100 asks for more than one answer holds (each entry carries its call's arguments): the
## page stops within one, and next_before goes on until every entry was listed once.
func test_a_large_limit_pages_within_one_answer() -> void:
	_create_in(_a, "Ship")
	for index in 60:
		var batch: Array = []
		for item in 8:
			batch.append({"node_path": "Ship", "property": "editor_description",
				"value": "entry %d item %d %s" % [index, item, "words ".repeat(12)]})
		_ok("node.set_property", {"batch": batch})
	var seen := []
	var params := {"limit": 100}
	var pages := 0
	for page_number in 20:
		pages += 1
		var page := _ok("history.list", params)
		Assert.is_true(AnswerBudget.size_of(page) <= AnswerBudget.BYTES, "page %d fits one answer (%d bytes)" % [
			page_number, AnswerBudget.size_of(page)])
		seen.append_array(_field(page["entries"], "id"))
		if not page.has("next_before"):
			break
		Assert.eq(page["next_before"], seen[-1], "next_before is the oldest entry listed")
		params["before"] = page["next_before"]
	Assert.eq(seen.size(), 61, "every entry once")
	Assert.is_true(pages > 1, "over %d pages" % pages)
	var newest_first := seen.duplicate()
	newest_first.sort()
	newest_first.reverse()
	Assert.eq(seen, newest_first, "newest first")


func test_an_entry_the_user_undid_in_the_editor_is_theirs_to_redo() -> void:
	_create_in(_a, "Ship")
	Assert.is_true(_fx.context.edits.undo(), "the user's Ctrl+Z")
	var entry: Dictionary = _ok("history.list", {})["entries"][0]
	Assert.eq([entry["state"], entry["undoable"], entry["redoable"]], ["undone_in_editor", false, false],
		"not the assistant's to step")
	Assert.eq(_code(_run("history.undo", {})), "INVALID_STATE", "nothing of the assistant's is done")
	Assert.eq(_code(_run("history.redo", {})), "INVALID_STATE", "and redo is the editor's")
	Assert.is_true(_fx.context.edits.redo(), "the user's Ctrl+Shift+Z")
	Assert.eq(_ok("history.list", {})["entries"][0]["state"], "done", "done again")


func test_result_examples() -> void:
	_create_in(_a, "Ship")
	for method: String in ["history.list", "history.undo", "history.redo"]:
		for index: int in ResultExamples.examples("history", method).size():
			ResultExamples.check("history", method, _run(method, ResultExamples.params("history", method, index)), index)


# --- helpers -----------------------------------------------------------------------------------------

static func _scene_root(root_name: String, path: String) -> Node2D:
	var root := Node2D.new()
	root.name = root_name
	root.scene_file_path = path
	return root


## `method` through the dispatch lane, as a bridge's call arrives; its result envelope.
func _run(method: String, params: Dictionary) -> Dictionary:
	_next_id += 1
	_lane.submit(1, _next_id, method, params)
	return _responses[_next_id]["result"]


func _ok(method: String, params: Dictionary) -> Dictionary:
	var result := _run(method, params)
	Assert.is_true(result.get("success") == true, "%s %s: %s" % [method, params, JSON.stringify(result)])
	return result


func _code(result: Dictionary) -> Variant:
	return result.get("code")


## Makes `root` the edited scene and adds a Node2D `node_name` under its root.
func _create_in(root: Node, node_name: String) -> Node:
	_fx.context.runtime_scenes.set_scene_root(root)
	_ok("scene.create_node", {"class_name": "Node2D", "parent_path": ".", "node_name": node_name})
	return root.get_node_or_null(node_name)


func _history_of(root: Node) -> UndoRedo:
	return _fx.context.edits.history(_fx.context.edits.history_id_for(root))


func _entry_of(method: String) -> Dictionary:
	for entry: Dictionary in _fx.context.edits.edit_ledger().entries:
		if entry["method"] == method:
			return entry
	return {}


static func _field(items: Array, key: String) -> Array:
	return items.map(func(item: Dictionary) -> Variant: return item[key])


## An extension's command (contract C13): `count` (default 500) nodes, each its own undo action.
func _add_nodes(params: Dictionary) -> Dictionary:
	var root := _fx.context.scenes.scene_root()
	for index: int in int(params.get("count", BATCH)):
		var node := Node2D.new()
		node.name = "N%d" % index
		var action: RefCounted = _fx.registry.create_undo_action("Add %s" % node.name, root)
		action.add_do_method(root, &"add_child", [node, true])
		action.add_do_method(node, &"set_owner", [root])
		action.add_do_reference(node)
		action.add_undo_method(root, &"remove_child", [node])
		action.commit()
	return {"success": true}


## A command that moves a file through the toolkit's file door, with no undo action of its own.
func _move_file(params: Dictionary) -> Dictionary:
	var data := FileAccess.get_file_as_bytes(params["from"])
	ProjectWrites.write_bytes(params["to"], data)
	ProjectWrites.remove_file(params["from"])
	return {"success": true}
