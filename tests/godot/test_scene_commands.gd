extends RefCounted
## The scene domain (commands/scene/scene_commands.gd) through the command registry, over a runtime
## context and a throwaway scene: results, what happened to the scene, undo and redo, and the
## .tscn files scene.create / editor.save_scene write (reloaded from disk, as a user would get).
##
## Not covered here (only an editor shows it): the editor switching its scene tab on scene.open,
## the Scene dock and the "modified" star, Ctrl+Z in the editor's own history (the same actions
## are recorded through EditorUndoRedoManager there), and the editor's Save As dialog.

const Assert := preload("assert.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")
const DomainFixture := preload("domain_fixture.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")

const DOMAIN := "scene"
const SCRATCH := "res://tmp_tests/scene"

var _root: Node2D = null
var _fx: DomainFixture = null


## The scene the examples in tests/fixtures/toolkit/results/scene.json describe: Node2D "Main"
## with Player (Node2D at 100,50; group "actors") > Gun (Sprite2D), Enemy1 / Enemy2 (Node2D at
## 300,50 and 400,200; group "enemies"), and HUD (Control) > Score (Label, text "0").
func _init() -> void:
	_root = Node2D.new()
	_root.name = "Main"
	var player := _add(_root, Node2D.new(), "Player")
	player.position = Vector2(100, 50)
	player.add_to_group("actors", true)
	_add(player, Sprite2D.new(), "Gun")
	var enemy_1 := _add(_root, Node2D.new(), "Enemy1")
	enemy_1.position = Vector2(300, 50)
	var enemy_2 := _add(_root, Node2D.new(), "Enemy2")
	enemy_2.position = Vector2(400, 200)
	for enemy: Node in [enemy_1, enemy_2]:
		enemy.add_to_group("enemies", true)
	var hud := _add(_root, Control.new(), "HUD")
	var score := _add(hud, Label.new(), "Score") as Label
	score.text = "0"
	_fx = DomainFixture.new(CommandDomains.DOMAINS, DOMAIN, _root, SCRATCH)


func cleanup() -> void:
	_fx.cleanup()


func _add(parent: Node, node: Node, node_name: String) -> Node:
	node.name = node_name
	parent.add_child(node)
	node.owner = _root
	return node


# --- registration -----------------------------------------------------------------------------------

func test_commands_are_registered_with_the_reference_flags() -> void:
	for method: String in ["scene.get_tree", "scene.query", "scene.spatial_map"]:
		Assert.is_true(_fx.registry.dispatch_info(method)["read_only"], "%s is a read" % method)
	for method: String in ["scene.create", "scene.open", "scene.create_node", "scene.delete_node", "editor.save_scene"]:
		Assert.is_false(_fx.registry.dispatch_info(method)["read_only"], "%s mutates" % method)
	for method: String in ["scene.create", "scene.open"]:
		Assert.is_true(_fx.registry.dispatch_info(method)["scene_independent"], "%s works without a scene" % method)
	Assert.is_false(_fx.registry.dispatch_info("scene.create_node")["scene_independent"], "create_node needs the scene")
	Assert.is_true(_fx.registry.dispatch_info("scene.open")["leases_scene"], "open binds the peer to the scene")


# --- scene.get_tree ---------------------------------------------------------------------------------

func test_get_tree_nests_the_scene() -> void:
	var result := _fx.example("scene.get_tree")
	Assert.eq(result["total_nodes"], 7, "every node counted")
	Assert.is_false(result["has_more"], "nothing cut")
	var player: Dictionary = result["tree"]["children"][0]
	Assert.eq([player["name"], player["class"], player["path"]], ["Player", "Node2D", "Player"], "first child")
	Assert.eq(player["children"][0]["path"], "Player/Gun", "paths relative to the root")


## A branch the cut left out is read with the same tool (root_path): the same shape, that branch whole.
func test_get_tree_cut_by_max_depth_says_so_and_a_branch_reads_on() -> void:
	var result := _fx.example("scene.get_tree", 1)
	Assert.eq(result["returned"], 5, "root and its four children")
	Assert.is_true(result["has_more"], "has more")
	Assert.eq(result["tree"]["children"][0]["child_count"], 1, "Player's hidden child counted")
	Assert.contains(result["hint"], "max_depth 1", "says why")
	Assert.contains(result["hint"], "scene_get_tree root_path", "and how to read on with the same tool")
	var branch := _fx.example("scene.get_tree", 2)
	Assert.eq(branch["tree"]["children"][0]["path"], "HUD/Score", "the child the cut left out, its path from the root")
	var keys := result.keys()
	keys.erase("truncated")
	keys.erase("hint")
	Assert.eq(branch.keys(), keys, "the shape of a whole tree")
	var cut := _fx.invoke("scene.get_tree", {"root_path": "Player", "max_depth": 0})
	Assert.eq([cut["tree"]["path"], cut["tree"]["child_count"], cut["total_nodes"]], ["Player", 1, 2],
		"max_depth counts from the branch")
	var by_root_name := _fx.invoke("scene.get_tree", {"root_path": "Main/Player/Gun"})
	Assert.eq([by_root_name["tree"]["class"], by_root_name["returned"]], ["Sprite2D", 1], "any path form node_path takes")
	Assert.eq(_fx.invoke("scene.get_tree", {"root_path": "."})["total_nodes"], 7, "\".\" is the whole scene")
	var missing := _fx.invoke("scene.get_tree", {"root_path": "Player/Nope"})
	Assert.eq(missing["code"], "NOT_FOUND", "a path that is not there")
	Assert.contains(missing["hint"], "Gun", "names what is there")
	Assert.eq(_fx.invoke("scene.get_tree", {"root_path": 3})["code"], "INVALID_PARAMS", "a path is a string")


func test_get_tree_properties_are_the_changed_ones_tagged() -> void:
	var result := _fx.invoke("scene.get_tree", {"include_properties": true})
	var player: Dictionary = result["tree"]["children"][0]
	Assert.eq(player["properties"], {"position": {"type": "Vector2", "x": 100, "y": 50}}, "only what differs")
	var score: Dictionary = result["tree"]["children"][3]["children"][0]
	Assert.contains(score["properties"]["text"], "<untrusted-", "free text is wrapped")
	Assert.contains(score["properties"]["text"], "\n0\n", "with its content")
	Assert.eq(_fx.invoke("scene.get_tree", {"max_depth": "deep"})["code"], "INVALID_PARAMS", "bad max_depth")
	Assert.eq(_fx.invoke("scene.get_tree", {"include_properties": 1})["code"], "INVALID_PARAMS", "bad flag")


func test_reads_without_a_scene_say_no_scene() -> void:
	_fx.context.runtime_scenes.set_scene_root(null)
	for method: String in ["scene.get_tree", "scene.query", "scene.spatial_map"]:
		var result := _fx.invoke(method, {})
		Assert.eq(result["code"], "NO_SCENE", method)
		Assert.contains(result["hint"], "scene_open", "%s says how to recover" % method)
	Assert.eq(_fx.invoke("scene.create_node", {"class_name": "Node", "parent_path": "."})["code"], "NO_SCENE",
		"create_node")


# --- scene.create_node ------------------------------------------------------------------------------

func test_create_node_with_verified_properties_and_undo() -> void:
	var result := _fx.example("scene.create_node")
	var node := _root.get_node_or_null("Player/Muzzle") as Marker2D
	Assert.is_true(node != null, "created under Player")
	Assert.eq(node.owner, _root, "owned by the scene root (saved with it)")
	Assert.eq(node.position, Vector2(16, 0), "position stored")
	Assert.eq(node.z_index, 2, "z_index truncated by the engine")
	Assert.eq(result["properties_set"], 2, "two writes took")
	Assert.eq(_fx.context.runtime_scenes.modified_count, 1, "scene marked modified")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.is_true(_root.get_node_or_null("Player/Muzzle") == null, "undo removes it")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.eq(_root.get_node_or_null("Player/Muzzle"), node, "redo puts the same node back")
	Assert.eq(node.position, Vector2(16, 0), "with its properties")


func test_create_node_reports_dropped_writes() -> void:
	var result := _fx.example("scene.create_node", 1)
	var label := _root.get_node("HUD/Title") as Label
	Assert.eq(label.text, "Hello", "the good write stored")
	Assert.eq(label.position, Vector2.ZERO, "the dropped write left the default")
	Assert.eq(result["properties_failed"][0]["name"], "position", "failure named")
	Assert.eq(label.layout_mode, 1, "layout_mode applied to a Control")
	Assert.is_true(label.unique_name_in_owner, "unique name set")
	Assert.eq(_root.get_node("%Title"), label, "reachable as %Title")


func test_create_node_is_idempotent() -> void:
	_fx.invoke("scene.create_node", {"class_name": "Node2D", "parent_path": ".", "node_name": "Spawner"})
	var again := _fx.example("scene.create_node", 2)
	Assert.eq(_root.get_children().filter(func(n: Node) -> bool: return n.name.begins_with("Spawner")).size(), 1,
		"no duplicate")
	Assert.eq((_root.get_node("Spawner") as Node2D).position, Vector2.ZERO, "returned node untouched")
	Assert.eq(again["status"], "returned", "returned")
	var mismatch := _fx.example("scene.create_node", 3)
	Assert.eq(mismatch["code"], "CLASS_MISMATCH", "another class is refused")


func test_create_node_refuses_bad_input_and_changes_nothing() -> void:
	var before := _fx.invoke("scene.get_tree", {})
	var missing_parent := _fx.example("scene.create_node", 4)
	Assert.contains(missing_parent["hint"], "children of 'Player': Gun", "hint lists what is there")
	var bad_class := _fx.invoke("scene.create_node", {"class_name": "Sprite", "parent_path": "."})
	Assert.eq(bad_class["code"], "UNKNOWN_CLASS", "unknown class")
	Assert.contains(bad_class["hint"], "Sprite2D", "suggests close names")
	for type_name: String in ["Resource", "CanvasItem"]:
		var refused := _fx.invoke("scene.create_node", {"class_name": type_name, "parent_path": "."})
		Assert.eq(refused["code"], "INVALID_CLASS", "%s: not a Node, or abstract" % type_name)
	Assert.eq(_fx.invoke("scene.create_node", {"parent_path": "."})["code"], "INVALID_PARAMS", "class_name required")
	Assert.eq(_fx.invoke("scene.create_node", {"class_name": "Node", "parent_path": ".", "node_name": "a/b"})["code"],
		"INVALID_PARAMS", "bad node name")
	Assert.eq(_fx.invoke("scene.create_node", {"class_name": "Node", "parent_path": ".", "properties": [1]})["code"],
		"INVALID_PARAMS", "properties must be an object")
	Assert.eq(_fx.invoke("scene.get_tree", {}), before, "the scene is exactly as it was")
	Assert.eq(_fx.context.runtime_scenes.modified_count, 0, "nothing marked modified")


# --- scene.delete_node ------------------------------------------------------------------------------

func test_delete_node_and_undo_restores_place_and_owners() -> void:
	var player := _root.get_node("Player")
	var gun := _root.get_node("Player/Gun")
	var result := _fx.example("scene.delete_node")
	Assert.eq(result["descendants_deleted"], 1, "Gun went with it")
	Assert.is_true(_root.get_node_or_null("Player") == null, "gone")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.eq(_root.get_node_or_null("Player"), player, "the same node is back")
	Assert.eq(player.get_index(), 0, "at its old index")
	Assert.eq(player.owner, _root, "owner restored")
	Assert.eq(gun.owner, _root, "child's owner restored (so it saves)")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.is_true(_root.get_node_or_null("Player") == null, "deleted again")


func test_delete_node_refusals() -> void:
	Assert.eq(_fx.example("scene.delete_node", 1)["code"], "NOT_FOUND", "missing node")
	var root_refusal := _fx.invoke("scene.delete_node", {"node_path": "."})
	Assert.eq(root_refusal["code"], "INVALID_PARAMS", "the root stays")
	Assert.eq(_fx.invoke("scene.delete_node", {})["code"], "INVALID_PARAMS", "node_path required")
	Assert.eq(_root.get_child_count(), 4, "nothing deleted")


# --- scene.query ------------------------------------------------------------------------------------

func test_query_filters_and_pages() -> void:
	var result := _fx.example("scene.query")
	Assert.eq(result["total_matches"], 2, "two enemies")
	var paged := _fx.example("scene.query", 1)
	Assert.eq(paged["next_offset"], 1, "resume point")
	var by_name := _fx.invoke("scene.query", {"name_pattern": "enemy*", "property_filters": [
		{"property": "position:y", "operator": "gt", "value": 100}]})
	Assert.eq(by_name["nodes"].map(func(n: Dictionary) -> String: return n["path"]), ["Enemy2"], "glob + gt")
	var tagged := _fx.invoke("scene.query", {"property_filters": [
		{"property": "position", "value": {"type": "Vector2", "x": 100, "y": 50}}]})
	Assert.eq(tagged["nodes"].map(func(n: Dictionary) -> String: return n["path"]), ["Player"], "eq on a tagged value")
	var below := _fx.invoke("scene.query", {"root_path": "HUD", "class_filter": "Control"})
	Assert.eq(below["nodes"].map(func(n: Dictionary) -> String: return n["path"]), ["HUD", "HUD/Score"],
		"class_filter matches subclasses, below root_path")
	var shallow := _fx.invoke("scene.query", {"class_filter": "Node2D", "max_depth": 1})
	Assert.eq(shallow["total_matches"], 4, "depth 1 leaves out Player/Gun")


func test_query_refuses_bad_filters() -> void:
	Assert.eq(_fx.invoke("scene.query", {"property_filters": [{"property": "x", "operator": "like", "value": 1}]})["code"],
		"INVALID_PARAMS", "unknown operator")
	Assert.eq(_fx.invoke("scene.query", {"property_filters": [{"property": "x", "operator": "gt", "value": "a"}]})["code"],
		"INVALID_PARAMS", "gt needs a number")
	Assert.eq(_fx.invoke("scene.query", {"limit": 0})["code"], "INVALID_PARAMS", "limit >= 1")
	Assert.eq(_fx.invoke("scene.query", {"root_path": "Nope"})["code"], "NOT_FOUND", "root_path must exist")
	var misspelt := _fx.invoke("scene.query", {"class_filter": "Sprite2d"})
	Assert.eq(misspelt["code"], "UNKNOWN_CLASS", "no such class is a refusal (as classdb_get_info says), not 0 matches")
	Assert.contains(misspelt["error"], "'Sprite2d'", "naming it")
	Assert.contains(misspelt["hint"], "Did you mean Sprite2D", "with the class meant first")
	var none := _fx.invoke("scene.query", {"class_filter": "Camera3D"})
	Assert.eq([none["success"], none["total_matches"]], [true, 0], "a real class with no nodes is 0 matches")


# --- scene.spatial_map ------------------------------------------------------------------------------

func test_spatial_map_positions_bounds_and_overlaps() -> void:
	var shape := RectangleShape2D.new()
	shape.size = Vector2(40, 40)
	var body := _add(_root.get_node("Enemy1"), CollisionShape2D.new(), "Hitbox") as CollisionShape2D
	body.shape = shape
	var wall := _add(_root, CollisionShape2D.new(), "Wall") as CollisionShape2D
	wall.shape = shape
	wall.position = Vector2(320, 60)
	var result := _fx.example("scene.spatial_map")
	Assert.eq(result["dimension"], "2d", "a 2D scene")
	var near := _fx.invoke("scene.spatial_map", {"center": [300, 50], "radius": 30, "detail": "brief"})
	var near_paths: Array = near["nodes"].map(func(n: Dictionary) -> String: return n["path"])
	Assert.eq(near_paths, ["Enemy1", "Enemy1/Hitbox", "Wall"], "center + radius")
	var region := _fx.invoke("scene.spatial_map", {"region": [0, 0, 200, 100], "class": "Node2D"})
	var in_region: Array = region["nodes"].map(func(n: Dictionary) -> String: return n["path"])
	Assert.eq(in_region, [".", "Player", "Player/Gun"], "region (the root sits at 0,0)")
	var capped := _fx.invoke("scene.spatial_map", {"max_nodes": 2})
	Assert.is_true(capped["truncated"], "the cap is said")
	Assert.eq(capped["returned"], 2, "two listed")
	Assert.eq(_fx.invoke("scene.spatial_map", {"radius": 5})["code"], "INVALID_PARAMS", "radius needs center")
	Assert.eq(_fx.invoke("scene.spatial_map", {"detail": "huge"})["code"], "INVALID_PARAMS", "bad detail")
	Assert.eq(_fx.invoke("scene.spatial_map", {"region": [1, 2, 3]})["code"], "INVALID_PARAMS", "bad region")


# --- files: scene.create, scene.open, editor.save_scene ----------------------------------------------

func test_create_writes_a_scene_file_idempotently() -> void:
	var created := _fx.example("scene.create")
	var packed := ResourceLoader.load(created["path"], "", ResourceLoader.CACHE_MODE_IGNORE) as PackedScene
	var instance := packed.instantiate()
	Assert.eq([instance.name, instance.get_class()], [&"level", "Node3D"], "root from the file")
	instance.free()
	Assert.eq(_fx.context.runtime_project.refreshed_files, PackedStringArray([created["path"]]),
		"the editor is told about the file")
	_fx.example("scene.create", 1)
	Assert.eq(_fx.example("scene.create", 2)["code"], "ALREADY_EXISTS", "if_exists fail")
	_fx.example("scene.create", 3)
	var replaced := ResourceLoader.load(created["path"], "", ResourceLoader.CACHE_MODE_IGNORE) as PackedScene
	Assert.eq(replaced.get_state().get_node_type(0), &"Node2D", "replaced on disk")


func test_create_refuses_bad_input_and_writes_nothing() -> void:
	var bad_type := _fx.invoke("scene.create", {"file_path": SCRATCH + "/x.tscn", "root_type": "Nope"})
	Assert.eq(bad_type["code"], "UNKNOWN_CLASS", "unknown root_type")
	Assert.is_false(FileAccess.file_exists(SCRATCH + "/x.tscn"), "no file written")
	Assert.eq(_fx.invoke("scene.create", {"file_path": SCRATCH + "/x.txt"})["code"], "UNSUPPORTED_FILE_TYPE", "extension")
	Assert.eq(_fx.invoke("scene.create", {"file_path": "res://addons/godot_mcp_toolkit/x.tscn"})["code"], "PATH_DENIED",
		"toolkit folder")
	Assert.eq(_fx.invoke("scene.create", {"file_path": SCRATCH + "/../x.tscn"})["code"], "PATH_DENIED", "no ..")
	Assert.eq(_fx.invoke("scene.create", {"file_path": SCRATCH + "/missing/x.tscn"})["code"], "PARENT_NOT_FOUND", "folder")
	Assert.eq(_fx.invoke("scene.create", {"file_path": SCRATCH + "/x.tscn", "if_exists": "merge"})["code"],
		"INVALID_PARAMS", "if_exists")
	Assert.eq(_fx.invoke("scene.create", {})["code"], "INVALID_PARAMS", "file_path required")
	Assert.eq(DirAccess.get_files_at(SCRATCH).size(), 0, "nothing written")


func test_open_makes_the_scene_the_edited_one() -> void:
	_fx.invoke("scene.create", {"file_path": SCRATCH + "/level.tscn", "root_type": "Node3D"})
	var opened := _fx.example("scene.open")
	Assert.eq(_fx.context.scenes.edited_scene_path(), SCRATCH + "/level.tscn", "edited scene switched")
	Assert.is_false(opened["already_open"], "was not open")
	Assert.is_true(_fx.invoke("scene.open", {"file_path": SCRATCH + "/level.tscn"})["already_open"], "second open")
	Assert.eq(_fx.example("scene.open", 1)["code"], "NOT_FOUND", "missing file")
	Assert.eq(_fx.invoke("scene.open", {})["code"], "INVALID_PARAMS", "file_path required")
	var id := ResourceUID.create_id()
	ResourceUID.add_id(id, SCRATCH + "/level.tscn")  # as the editor's file scan registers it
	var by_uid := _fx.invoke("scene.open", {"file_path": ResourceUID.id_to_text(id)})
	Assert.eq([by_uid["path"], by_uid["uid"]], [SCRATCH + "/level.tscn", ResourceUID.id_to_text(id)],
		"opened by its uid: the answer names its path and the uid")
	ResourceUID.remove_id(id)
	Assert.eq(_fx.invoke("scene.open", {"file_path": "uid://nosuchuidhere"})["code"], "NOT_FOUND", "unknown uid")


func test_save_writes_what_the_user_gets() -> void:
	_fx.invoke("scene.create", {"file_path": SCRATCH + "/level.tscn", "root_type": "Node2D", "root_name": "Level"})
	var level := (load(SCRATCH + "/level.tscn") as PackedScene).instantiate()
	_root.get_parent().add_child(level)
	_fx.context.runtime_scenes.set_scene_root(level)
	_fx.invoke("scene.create_node", {"class_name": "Label", "parent_path": ".", "node_name": "Title",
		"properties": {"text": "Hi", "position": {"type": "Vector2", "x": 5, "y": 6}}})
	var saved := _fx.example("editor.save_scene")
	Assert.eq(_fx.context.runtime_scenes.saved_scenes, PackedStringArray([SCRATCH + "/level.tscn"]),
		"saved through the context")
	var reloaded := (ResourceLoader.load(saved["path"], "", ResourceLoader.CACHE_MODE_IGNORE) as PackedScene).instantiate()
	var title := reloaded.get_node_or_null("Title") as Label
	Assert.is_true(title != null, "the created node is in the file")
	if title != null:
		Assert.eq([title.text, title.position], ["Hi", Vector2(5, 6)], "with its properties")
	reloaded.free()
	var copy := _fx.invoke("editor.save_scene", {"file_path": SCRATCH + "/copy.tscn"})
	Assert.eq(copy["copy_of"], SCRATCH + "/level.tscn", "a new path saves a copy, and says so")
	Assert.is_true(FileAccess.file_exists(SCRATCH + "/copy.tscn"), "copy written")
	Assert.eq(_fx.invoke("editor.save_scene", {"file_path": "user://x.tscn"})["code"], "PATH_DENIED", "res:// only")
	level.get_parent().remove_child(level)
	level.free()
	_fx.context.runtime_scenes.set_scene_root(null)
	Assert.eq(_fx.example("editor.save_scene", 1)["code"], "NO_SCENE", "nothing to save")


func test_get_tree_cuts_a_big_scene_at_one_answer_and_says_so() -> void:
	var crowd := _add(_root, Node.new(), "Crowd")
	for index in 600:
		_add(crowd, Node.new(), "N%d" % index)
	var result := _fx.invoke("scene.get_tree", {})
	Assert.eq(result["total_nodes"], 608, "all counted")
	Assert.is_true(result["returned"] > 100 and result["returned"] < 608, "cut (%d nodes)" % result["returned"])
	Assert.is_true(AnswerBudget.size_of(result) <= AnswerBudget.BYTES, "at one answer's size")
	Assert.is_true(result["has_more"] and result["truncated"], "the cut is said")
	Assert.contains(result["hint"], "one answer", "and why")
	Assert.eq(result["tree"]["children"][4]["child_count"], 600, "the cut node says how many it has")
	Assert.eq(result["tree"]["children"][0]["children"][0]["path"], "Player/Gun", "shallow levels kept first")
