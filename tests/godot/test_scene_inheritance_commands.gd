extends RefCounted
## The scene_inheritance domain (commands/scene/scene_inheritance_commands.gd) through the command
## registry over a runtime context: scene.create_inherited writes a .tscn that, loaded back from
## disk, has the base scene as its root's instance and carries the base's nodes; it is idempotent
## and refuses bad input without writing anything.
##
## Not covered here (only an editor shows it): the editor's FileSystem dock picking up the new file
## (context.project.refresh_files is asserted instead) and opening it as an inherited scene (yellow nodes).

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")

const DOMAIN := "scene_inheritance"
const SCRATCH := "res://tmp_tests/scene_inheritance"
const BASE := SCRATCH + "/base.tscn"
const CHILD := SCRATCH + "/hero.tscn"

var _fx: DomainFixture = null


## The examples in tests/fixtures/toolkit/results/scene_inheritance.json use this base scene:
## res://tmp_tests/scene_inheritance/base.tscn, Node2D "Base" > Look (Sprite2D).
func _init() -> void:
	DirAccess.make_dir_recursive_absolute(SCRATCH)
	var base := Node2D.new()
	base.name = "Base"
	var look := Sprite2D.new()
	look.name = "Look"
	base.add_child(look)
	look.owner = base
	var packed := PackedScene.new()
	packed.pack(base)
	ResourceSaver.save(packed, BASE)
	base.free()
	_fx = DomainFixture.new(CommandDomains.DOMAINS, DOMAIN, null, SCRATCH)


func cleanup() -> void:
	_fx.cleanup()


func test_registered_as_a_scene_independent_mutation() -> void:
	var info: Dictionary = _fx.registry.dispatch_info("scene.create_inherited")
	Assert.is_false(info["read_only"], "writes a file")
	Assert.is_true(info["scene_independent"], "needs no open scene")


func test_create_inherited_writes_a_scene_that_inherits() -> void:
	_fx.example("scene.create_inherited")
	Assert.is_true(CHILD in _fx.context.runtime_project.refreshed_files, "the editor is told about the file")
	var packed := ResourceLoader.load(CHILD, "PackedScene", ResourceLoader.CACHE_MODE_IGNORE) as PackedScene
	Assert.is_true(packed != null, "loads back")
	var state := packed.get_state()
	Assert.eq(state.get_node_instance(0).resource_path, BASE, "its root is the base scene")
	var hero := packed.instantiate()
	Assert.eq(String(hero.name), "Hero", "root renamed")
	Assert.is_true(hero.get_node_or_null("Look") is Sprite2D, "carries the base's nodes")
	Assert.eq(hero.get_class(), "Node2D", "of the base's root type")
	hero.free()
	var again := _fx.example("scene.create_inherited", 1)
	Assert.contains(again["warnings"][0], "root_name", "names what it did not apply")
	DirAccess.remove_absolute(CHILD)


func test_an_unrelated_existing_file_is_never_overwritten() -> void:
	var other := SCRATCH + "/other.tscn"
	var plain := Node.new()
	var packed := PackedScene.new()
	packed.pack(plain)
	ResourceSaver.save(packed, other)
	plain.free()
	var before := FileAccess.get_file_as_string(other)
	var result := _fx.invoke("scene.create_inherited", {"file_path": other, "base_scene": BASE})
	Assert.eq(result.get("code"), "ALREADY_EXISTS", "refused: %s" % result)
	Assert.eq(FileAccess.get_file_as_string(other), before, "left as it was")
	DirAccess.remove_absolute(other)


func test_refusals_write_nothing() -> void:
	_fx.example("scene.create_inherited", 2)
	var broken := SCRATCH + "/broken.tscn"
	var handle := FileAccess.open(broken, FileAccess.WRITE)
	handle.store_string("not a scene")
	handle.close()
	var cases := [
		[{"file_path": CHILD}, "INVALID_PARAMS"],
		[{"file_path": CHILD, "base_scene": 3}, "INVALID_PARAMS"],
		[{"file_path": SCRATCH + "/nope/x.tscn", "base_scene": BASE}, "PARENT_NOT_FOUND"],
		[{"file_path": SCRATCH + "/x.scn", "base_scene": BASE}, "UNSUPPORTED_FILE_TYPE"],
		[{"file_path": BASE, "base_scene": BASE}, "INVALID_PARAMS"],
		[{"file_path": "res://addons/godot_mcp_toolkit/x.tscn", "base_scene": BASE}, "PATH_DENIED"],
		[{"file_path": CHILD, "base_scene": broken}, "INVALID_PARAMS"],
		[{"file_path": CHILD, "base_scene": BASE, "root_name": "a:b"}, "INVALID_PARAMS"],
	]
	for case: Array in cases:
		var result := _fx.invoke("scene.create_inherited", case[0])
		Assert.eq(result.get("code"), case[1], "%s -> %s (%s)" % [case[0], case[1], result.get("error")])
	Assert.is_false(FileAccess.file_exists(CHILD), "nothing written")
	DirAccess.remove_absolute(broken)
