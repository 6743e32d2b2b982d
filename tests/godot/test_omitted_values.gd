extends "node_scene.gd"
## A value larger than one answer is read as its stand-in ({"omitted": true, "json_bytes", "variant"
## or "items"}): written back as it was read (node.set_property with what node.get_property gave,
## resource.write with the properties resource.load gave), it is kept as stored and the answer says
## so (`kept`); the stand-in itself is never stored. Recognised strictly: a Dictionary of the
## project's that has these keys reads tagged and goes back as itself.

const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")
const Coerce := preload("res://addons/godot_mcp_toolkit/contract/coerce.gd")
const DomainFixture := preload("domain_fixture.gd")

const RESOURCE_DOMAIN := "res://addons/godot_mcp_toolkit/commands/resource/resource_commands.gd"
const SCENE_DOMAIN := "res://addons/godot_mcp_toolkit/commands/scene/scene_commands.gd"
const RES_DIR := "res://tmp_tests/omitted"
const PICTURE := RES_DIR + "/picture.tres"
## Noise, so the image's bytes are as large as JSON as they are raw: 64 x 64 RGBA, 16 KB.
const SIDE := 64

var _files: DomainFixture = null
var _texture: ImageTexture = null


func _init() -> void:
	super()
	var image := Image.create(SIDE, SIDE, false, Image.FORMAT_RGBA8)
	var noise := RandomNumberGenerator.new()
	noise.seed = 7
	for y in SIDE:
		for x in SIDE:
			image.set_pixel(x, y, Color(noise.randf(), noise.randf(), noise.randf(), 1.0))
	_texture = ImageTexture.create_from_image(image)
	(_root.get_node("Player/Sprite") as Sprite2D).texture = _texture
	var scene_domains: Array[String] = [SCENE_DOMAIN]
	CommandDomains.register_all(_registry, _context, scene_domains)
	var domains: Array[String] = [RESOURCE_DOMAIN]
	_files = DomainFixture.new(domains, "resource_io", null, RES_DIR, "4.6.0")


func cleanup() -> void:
	if ResourceLoader.has_cached(PICTURE):
		load(PICTURE).resource_path = ""
	_files.cleanup()
	super()


func test_only_the_exact_shape_a_read_makes_is_a_stand_in() -> void:
	for made: Variant in [AnswerBudget.stand_in({"type": "Resource"}, 20000), AnswerBudget.stand_in([1, 2], 20000),
			AnswerBudget.stand_in("text", 20000), {"omitted": true, "json_bytes": 20000.0, "items": 3.0}]:
		Assert.is_true(AnswerBudget.is_stand_in(made), "%s is one (as JSON brings it too)" % [made])
	for lookalike: Variant in [{"omitted": true}, {"omitted": "true", "json_bytes": 5}, {"omitted": 1, "json_bytes": 5},
			{"omitted": true, "json_bytes": 0}, {"omitted": true, "json_bytes": 2.5},
			{"omitted": true, "json_bytes": 5, "variant": ""}, {"omitted": true, "json_bytes": 5, "items": -1},
			{"omitted": true, "json_bytes": 5, "variant": "Image", "items": 2},
			{"omitted": true, "json_bytes": 5, "note": "mine"}, [true, 5], "omitted"]:
		Assert.is_false(AnswerBudget.is_stand_in(lookalike), "%s is not" % [lookalike])


func test_a_project_dictionary_shaped_like_one_reads_tagged_and_goes_back_as_itself() -> void:
	var mine := {"omitted": true, "json_bytes": 5}
	var shown: Variant = Coerce.serialize_value(mine)
	Assert.eq(shown, {"type": "Dictionary", "entries": [["omitted", true], ["json_bytes", 5]]},
		"tagged, so no read shows it as a stand-in")
	Assert.eq(Coerce.coerce_value(shown), mine, "and the tag gives it back")
	Assert.eq(Coerce.serialize_value({"omitted": true, "json_bytes": 5, "note": "mine"}),
		{"omitted": true, "json_bytes": 5, "note": "mine"}, "another shape stays a plain object")
	_root.set_meta("note", mine)
	var read := _call("node.get_property", {"node_path": ".", "property": "metadata/note"})
	var back := _call("node.set_property", {"node_path": ".", "property": "metadata/note", "value": read["value"]})
	Assert.eq([back["status"], back.has("kept")], ["unchanged", false], "written back: the same Dictionary (%s)" % back)
	var stored := _call("node.set_property", {"node_path": ".", "property": "metadata/other", "value": shown})
	Assert.eq([stored["status"], _root.get_meta("other")], ["updated", mine], "a new one is stored through its tag")


func test_a_stand_in_is_never_stored_as_a_value() -> void:
	var stand_in := AnswerBudget.stand_in([1, 2], 20000)
	Assert.contains(Coerce.error_of(Coerce.coerce_value({"inner": stand_in})), "stands for a value too large",
		"inside another value it is refused, naming what it is")
	Assert.contains(Coerce.error_of(Coerce.coerce_value([stand_in])), "give the property back whole", "and what to do")
	var created := _call("scene.create_node", {"class_name": "Line2D", "parent_path": ".", "node_name": "Trail",
		"properties": {"points": stand_in}})
	Assert.eq(created["properties_failed"][0]["name"], "points", "a new node has nothing stored to keep (%s)" % created)
	Assert.contains(created["properties_failed"][0]["error"], "stands for a value too large", "said so")
	Assert.eq((_root.get_node("Trail") as Line2D).points, PackedVector2Array(), "the default, not the stand-in")


func test_node_set_property_keeps_what_node_get_property_omitted() -> void:
	var read := _call("node.get_property", {"node_path": "Player/Sprite", "property": "texture"})
	Assert.is_true(AnswerBudget.is_stand_in(read["value"]), "the texture is over one answer (%s)" % str(read).left(200))
	var back := _call("node.set_property", {"node_path": "Player/Sprite", "property": "texture", "value": read["value"]})
	Assert.eq([back["success"], back["status"], back["kept"]], [true, "unchanged", ["texture"]],
		"written back as read: kept, and said (%s)" % back)
	Assert.is_true(AnswerBudget.is_stand_in(back["value"]), "the answer shows it by its size again")
	Assert.is_true((_root.get_node("Player/Sprite") as Sprite2D).texture == _texture, "the same texture, untouched")
	Assert.is_false(_context.edits.undo(), "nothing to undo")
	var batch := _call("node.set_property", {"batch": [
		{"node_path": "Player/Sprite", "property": "texture", "value": read["value"]},
		{"node_path": "Player", "property": "position", "value": {"type": "Vector2", "x": 1, "y": 2}}]})
	Assert.eq([batch["applied"], batch["results"][0]["kept"], batch["results"][1].has("kept")], [2, ["texture"], false],
		"in a batch, per item")
	Assert.eq(_call("node.set_property", {"node_path": "Player/Sprite", "property": "nope", "value": read["value"]})[
		"code"], "PROPERTY_NOT_FOUND", "a stand-in for a property that is not there")


func test_resource_write_keeps_what_resource_load_omitted() -> void:
	Assert.eq(ResourceSaver.save(_texture, PICTURE), OK, "an ImageTexture .tres with its Image inside")
	var before := FileAccess.get_file_as_bytes(PICTURE)
	var loaded := _files.invoke("resource.load", {"file_path": PICTURE})
	var image: Variant = loaded["properties"]["image"]
	Assert.eq([AnswerBudget.is_stand_in(image), image.get("variant")], [true, "Resource"], "the Image by its size")
	Assert.contains(loaded["hint"], "keeps the value", "the hint says it can go back")
	var back := _files.invoke("resource.write", {"file_path": PICTURE, "properties": loaded["properties"]})
	Assert.eq([back.get("success"), back.get("status"), back.get("kept")], [true, "unchanged", ["image"]],
		"every property load gave goes back: the Image kept (%s)" % back)
	Assert.eq(FileAccess.get_file_as_bytes(PICTURE), before, "the file as it was")
	var renamed: Dictionary = loaded["properties"].duplicate()
	renamed["resource_name"] = "Noise"
	var written := _files.invoke("resource.write", {"file_path": PICTURE, "properties": renamed})
	Assert.eq([written["status"], written["kept"], written["properties"].has("image")], ["updated", ["image"], false],
		"the other properties written, the Image kept")
	var fresh := ResourceLoader.load(PICTURE, "", ResourceLoader.CACHE_MODE_IGNORE) as ImageTexture
	Assert.eq([fresh.resource_name, fresh.get_image().get_data()], ["Noise", _texture.get_image().get_data()],
		"saved with the same pixels")
	var copy := _files.invoke("resource.write", {"file_path": RES_DIR + "/copy.tres", "type": "ImageTexture",
		"properties": {"image": image}})
	Assert.eq(copy["code"], "INVALID_VALUE", "a new file has no stored Image to keep")
	Assert.is_false(FileAccess.file_exists(RES_DIR + "/copy.tres"), "nothing written")
	Assert.eq(_files.invoke("resource.write", {"file_path": PICTURE, "properties": {"nope": image}})["code"],
		"PROPERTY_NOT_FOUND", "a stand-in for a property the resource does not have")
