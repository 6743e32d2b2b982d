extends RefCounted
## commands/asset/asset_commands.gd through the command registry with a runtime context: listing and
## filtering real files, dependencies of a saved scene (direct and the whole chain), and importing
## bytes from base64 and from a file outside the project, with undo.
## Not covered here (editor only): the editor's import of the written file (textures, audio ->
## .godot/imported) and asset.list's FILESYSTEM_NOT_READY while the editor scans; the reply's
## envelope is served to the bridge by the simulator from tests/fixtures/toolkit/results/asset.json.

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const ResultExamples := preload("result_examples.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")

const DOMAIN := "res://addons/godot_mcp_toolkit/commands/asset/asset_commands.gd"
const DIR := "res://tmp_tests/asset_ops"
const DOT := DIR + "/dot.png"
const OUTSIDE := "/tmp/mcp_asset_ops_source.png"
## A home folder with a key under .ssh, and a text file beside it: what asset.import must not bring in.
const HOME := "/tmp/mcp_asset_ops_home"
const NOTES := "/tmp/mcp_asset_ops_notes.txt"
const KEY_TEXT := "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\n" \
	+ "-----END OPENSSH PRIVATE KEY-----\n"

var _fx: DomainFixture = null


func _init() -> void:
	var domains: Array[String] = [DOMAIN]
	_fx = DomainFixture.new(domains, "asset", null, DIR, "4.6.0")


func cleanup() -> void:
	for path: String in [DIR + "/ramp.tres", DIR + "/sky.tres", DIR + "/main.tscn"]:
		if ResourceLoader.has_cached(path):
			load(path).resource_path = ""
	DirAccess.remove_absolute(OUTSIDE)
	DirAccess.remove_absolute(NOTES)
	DomainFixture.remove_tree(HOME)
	_fx.cleanup()


func test_registered_with_the_reference_lanes() -> void:
	Assert.is_true(DOMAIN in CommandDomains.DOMAINS, "listed in command_domains.gd")
	Assert.is_true(_fx.registry.dispatch_info("asset.list")["read_only"], "list is a read")
	Assert.is_true(_fx.registry.dispatch_info("asset.get_dependencies")["read_only"], "dependencies is a read")
	Assert.is_false(_fx.registry.dispatch_info("asset.import")["read_only"], "import mutates")


func test_list_filters_types_and_truncation() -> void:
	_build_chain()
	var textures := _fx.invoke("asset.list", ResultExamples.params("asset", "asset.list", 0))
	ResultExamples.check("asset", "asset.list", textures, 0)
	var capped := _fx.invoke("asset.list", ResultExamples.params("asset", "asset.list", 1))
	ResultExamples.check("asset", "asset.list", capped, 1)
	var globbed := _fx.invoke("asset.list", {"path_prefix": DIR, "name_glob": "S*.TRES"})
	Assert.eq(globbed["files"], [{"path": DIR + "/sky.tres", "type": "GradientTexture1D"}], "glob, any case")
	var resources := _fx.invoke("asset.list", {"path_prefix": DIR, "class_filter": "Resource"})
	Assert.eq(resources["total_files"], 3, "every resource is a Resource")
	var dotted := _fx.invoke("asset.list", {"path_prefix": DIR + "/", "extension_filter": [".TSCN"]})
	Assert.eq(dotted["total_files"], 1, "extensions with a dot, any case")
	var prefix := _fx.invoke("asset.list", {"path_prefix": DIR + "/s"})
	Assert.eq(prefix["files"], [{"path": DIR + "/sky.tres", "type": "GradientTexture1D"}], "a file-name prefix")
	var missing := _fx.invoke("asset.list", ResultExamples.params("asset", "asset.list", 2))
	ResultExamples.check("asset", "asset.list", missing, 2)
	Assert.eq(_fx.invoke("asset.list", {"class_filter": "NoSuchClass"})["code"], "UNKNOWN_CLASS", "unknown class")
	Assert.eq(_fx.invoke("asset.list", {"path_prefix": "user://"})["code"], "PATH_DENIED", "res:// only")
	Assert.eq(_fx.invoke("asset.list", {"limit": 0})["code"], "INVALID_PARAMS", "limit >= 1")
	Assert.eq(_fx.invoke("asset.list", {"extension_filter": "png"})["code"], "INVALID_PARAMS", "an array")


func test_dependencies_direct_and_transitive() -> void:
	_build_chain()
	var chain := _fx.invoke("asset.get_dependencies", ResultExamples.params("asset", "asset.get_dependencies", 0))
	ResultExamples.check("asset", "asset.get_dependencies", chain, 0)
	var direct := _fx.invoke("asset.get_dependencies", {"file_path": DIR + "/main.tscn"})
	Assert.eq(direct["dependencies"].size(), 1, "only the texture directly")
	Assert.eq(direct["dependencies"][0]["path"], DIR + "/sky.tres", "by path")
	Assert.eq(direct["dependencies"][0]["type"], "GradientTexture1D", "its type, read from the file")
	var capped := _fx.invoke("asset.get_dependencies", {"file_path": DIR + "/main.tscn", "include_transitive": true,
		"limit": 1})
	Assert.eq([capped["returned"], capped["total_dependencies"], capped["has_more"]], [1, 2, true], "says it truncated")
	var none := _fx.invoke("asset.get_dependencies", {"file_path": DIR + "/ramp.tres"})
	Assert.eq(none["dependencies"], [], "a Gradient loads nothing else")
	var missing := _fx.invoke("asset.get_dependencies", ResultExamples.params("asset", "asset.get_dependencies", 1))
	ResultExamples.check("asset", "asset.get_dependencies", missing, 1)
	DirAccess.remove_absolute(DIR + "/ramp.tres")
	var broken := _fx.invoke("asset.get_dependencies", {"file_path": DIR + "/sky.tres"})
	Assert.eq(broken["dependencies"][0]["missing"], true, "a deleted dependency is flagged missing")
	Assert.is_false(broken["dependencies"][0].has("type") and broken["dependencies"][0]["type"] == "",
		"a type nobody can tell is left out, not given as empty")


## limit 2000 over a scene that loads 150 files asks for more than one answer holds: each page
## fits one, and following next_offset lists every dependency once.
func test_a_large_limit_pages_within_one_answer() -> void:
	var text := "[gd_scene load_steps=151 format=3]\n\n"
	for index in 150:
		var texture := "%s/art/a_texture_with_a_long_descriptive_name_%03d.png" % [DIR, index]
		text += "[ext_resource type=\"Texture2D\" path=\"%s\" id=\"%d\"]\n" % [texture, index + 1]
	text += "\n[node name=\"Level\" type=\"Node2D\"]\n"
	var file := FileAccess.open(DIR + "/crowded.tscn", FileAccess.WRITE)
	file.store_string(text)
	file.close()
	var seen := {}
	var each := func(page: Dictionary, number: int) -> void:
		Assert.eq(page["returned"], page["dependencies"].size(), "returned counts page %d" % number)
		for dependency: Dictionary in page["dependencies"]:
			Assert.is_false(seen.has(dependency["path"]), "%s once" % dependency["path"])
			seen[dependency["path"]] = true
	var pages := _fx.follow_pages("asset.get_dependencies", {"file_path": DIR + "/crowded.tscn", "limit": 2000}, each, 20)
	Assert.is_true(pages > 1, "%d pages" % pages)
	Assert.eq(seen.size(), 150, "every dependency once")
	DirAccess.remove_absolute(DIR + "/crowded.tscn")


func test_import_base64_and_outside_file_with_undo() -> void:
	var params := ResultExamples.params("asset", "asset.import", 0)
	var created := _fx.invoke("asset.import", params)
	ResultExamples.check("asset", "asset.import", created, 0)
	var written := FileAccess.get_file_as_bytes(DOT)
	Assert.eq(written, Marshalls.base64_to_raw(params["base64_data"]), "the bytes as given")
	var image := Image.new()
	Assert.eq(image.load_png_from_buffer(written), OK, "a PNG a user can open")
	Assert.eq([image.get_width(), image.get_pixel(0, 0), image.get_pixel(1, 0)], [2, Color.RED, Color.BLUE], "pixels")
	Assert.eq(_fx.context.runtime_project.refreshed_files, PackedStringArray([DOT]), "handed to the editor's file index")
	var returned := _fx.invoke("asset.import", ResultExamples.params("asset", "asset.import", 1))
	ResultExamples.check("asset", "asset.import", returned, 1)
	var refused := _fx.invoke("asset.import", ResultExamples.params("asset", "asset.import", 2))
	ResultExamples.check("asset", "asset.import", refused, 2)
	var outside := FileAccess.open(OUTSIDE, FileAccess.WRITE)
	Assert.is_true(outside != null, "a file outside the project can be made in this engine")
	var other_png := Image.create(3, 1, false, Image.FORMAT_RGBA8).save_png_to_buffer()
	outside.store_buffer(other_png)
	outside.close()
	var replaced := _fx.invoke("asset.import", {"source_path": OUTSIDE, "dest_path": DOT, "if_exists": "replace"})
	Assert.eq([replaced["status"], replaced["source"], replaced["bytes"]], ["replaced", "source_path", other_png.size()],
		"replaced")
	Assert.eq(FileAccess.get_file_as_bytes(DOT), other_png, "with the outside file's bytes")
	Assert.is_true(_fx.context.edits.undo(), "undo the replace")
	Assert.eq(FileAccess.get_file_as_bytes(DOT), written, "the PNG is back")
	Assert.is_true(_fx.context.edits.undo(), "undo the create")
	Assert.is_false(FileAccess.file_exists(DOT), "gone")
	Assert.is_false(_fx.context.edits.undo(), "return and fail recorded nothing")
	Assert.is_true(_fx.context.edits.redo(), "redo the create")
	Assert.eq(FileAccess.get_file_as_bytes(DOT), written, "written again")


func test_import_refusals_write_nothing() -> void:
	var missing := _fx.invoke("asset.import", ResultExamples.params("asset", "asset.import", 3))
	ResultExamples.check("asset", "asset.import", missing, 3)
	var cases := {
		"INVALID_PARAMS": {"dest_path": DOT},
		"PARENT_NOT_FOUND": {"base64_data": "AAEC", "dest_path": DIR + "/missing/a.png"},
		"PATH_DENIED": {"base64_data": "AAEC", "dest_path": "res://addons/godot_mcp_toolkit/a.png"},
		"INVALID_PATH": {"base64_data": "AAEC", "dest_path": DIR},
	}
	for code: String in cases:
		Assert.eq(_fx.invoke("asset.import", cases[code])["code"], code, code)
	var both := {"base64_data": "AAEC", "source_path": OUTSIDE, "dest_path": DOT}
	Assert.eq(_fx.invoke("asset.import", both)["code"], "INVALID_PARAMS", "both sources")
	Assert.eq(_fx.invoke("asset.import", {"base64_data": "!!!", "dest_path": DOT})["code"], "INVALID_PARAMS", "bad base64")
	Assert.eq(_fx.invoke("asset.import", {"source_path": "res://icon.svg", "dest_path": DOT})["code"], "INVALID_PARAMS",
		"source_path is outside the project")
	var token_dir := ProjectSettings.globalize_path("user://addons/godot_mcp_toolkit")
	Assert.eq(_fx.invoke("asset.import", {"source_path": token_dir + "/any/mcp_token", "dest_path": DOT})["code"],
		"PATH_DENIED", "the toolkit's auth token is never copied into the project")
	var folded := ProjectSettings.globalize_path("user://") + "//./ADDONS/godot_mcp_toolkit/x"
	Assert.eq(_fx.invoke("asset.import", {"source_path": folded, "dest_path": DOT})["code"], "PATH_DENIED",
		"not by doubled slashes, ./ nor case")
	var climbing := _fx.invoke("asset.import", {"source_path": ProjectSettings.globalize_path("user://") + "/a/../b",
		"dest_path": DOT})
	Assert.eq(climbing["code"], "PATH_DENIED", "'..' is refused outright")
	Assert.eq(_fx.invoke("asset.import", {"base64_data": "AAEC", "dest_path": DOT, "if_exists": "merge"})["code"],
		"INVALID_PARAMS", "unknown if_exists")
	Assert.eq(_fx.invoke("asset.import", {"base64_data": "AAEC", "dest_path": "res://project.godot",
		"if_exists": "replace"})["code"], "PATH_DENIED", "engine-owned files")
	Assert.eq(DirAccess.get_files_at(DIR), PackedStringArray(), "nothing written")
	Assert.is_false(_fx.context.edits.undo(), "nothing recorded")


## ramp.tres (Gradient) <- sky.tres (GradientTexture1D) <- main.tscn (a Sprite2D using sky.tres).
func _build_chain() -> void:
	var ramp := Gradient.new()
	ResourceSaver.save(ramp, DIR + "/ramp.tres")
	ramp.take_over_path(DIR + "/ramp.tres")
	var sky := GradientTexture1D.new()
	sky.gradient = ramp
	ResourceSaver.save(sky, DIR + "/sky.tres")
	sky.take_over_path(DIR + "/sky.tres")
	var root := Node2D.new()
	var sprite := Sprite2D.new()
	sprite.texture = sky
	root.add_child(sprite)
	sprite.owner = root
	var scene := PackedScene.new()
	scene.pack(root)
	ResourceSaver.save(scene, DIR + "/main.tscn")
	root.free()



func test_import_refuses_bytes_that_are_not_what_the_name_says() -> void:
	var text := Marshalls.raw_to_base64("not a png".to_utf8_buffer())
	var refused := _fx.example("asset.import", 4)
	Assert.eq(refused["code"], "INVALID_PARAMS", "9 bytes of text saved as .png are refused, not created")
	Assert.contains(refused["error"], "dot.png does not hold a PNG image", "saying what was expected")
	Assert.contains(refused["error"], "6E 6F 74 20 61 20 70 6E (\"not a pn\")", "and what the bytes start with")
	Assert.is_false(FileAccess.file_exists(DOT), "nothing written")
	var jpeg := Image.create(2, 2, false, Image.FORMAT_RGB8).save_jpg_to_buffer()
	var swapped := _fx.invoke("asset.import", {"base64_data": Marshalls.raw_to_base64(jpeg), "dest_path": DOT})
	Assert.contains(swapped["hint"], "These bytes are a JPEG image: save them as .jpg", "a known format is named")
	var as_jpg := _fx.invoke("asset.import", {"base64_data": Marshalls.raw_to_base64(jpeg), "dest_path": DIR + "/a.jpg"})
	Assert.eq(as_jpg.get("status"), "created", "the same bytes under their own extension are fine")
	var wav := "RIFF".to_ascii_buffer() + PackedByteArray([36, 0, 0, 0]) + "WAVEfmt ".to_ascii_buffer()
	Assert.eq(_fx.invoke("asset.import", {"base64_data": Marshalls.raw_to_base64(wav), "dest_path": DIR + "/a.ogg"})[
		"code"], "INVALID_PARAMS", "a WAV saved as .ogg")
	Assert.eq(_fx.invoke("asset.import", {"base64_data": Marshalls.raw_to_base64(wav), "dest_path": DIR + "/a.wav"})[
		"status"], "created", "a WAV as .wav")
	var svg := "\ufeff<?xml version=\"1.0\"?>\n<!-- icon -->\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".to_utf8_buffer()
	Assert.eq(_fx.invoke("asset.import", {"base64_data": Marshalls.raw_to_base64(svg), "dest_path": DIR + "/a.svg"})[
		"status"], "created", "an SVG after a BOM, a prolog and a comment")
	Assert.eq(_fx.invoke("asset.import", {"base64_data": text, "dest_path": DIR + "/b.svg"})["code"], "INVALID_PARAMS",
		"text that is no SVG")
	Assert.eq(_fx.invoke("asset.import", {"base64_data": text, "dest_path": DIR + "/notes.txt"})["status"], "created",
		"a kind without a signature is taken as it is")
	var mpeg_frame := PackedByteArray([0xFF, 0xFB, 0x90, 0x00])
	Assert.eq(_fx.invoke("asset.import", {"base64_data": Marshalls.raw_to_base64(mpeg_frame),
		"dest_path": DIR + "/a.mp3"})["status"], "created", "an MP3 without an ID3 tag")


func test_a_file_from_disk_is_refused_in_a_hidden_folder_or_when_it_is_no_asset() -> void:
	var key := KEY_TEXT.to_utf8_buffer()
	_write(HOME + "/.ssh/id_rsa", key)
	_write(HOME + "/.cache/shot.png", Image.create(3, 1, false, Image.FORMAT_RGBA8).save_png_to_buffer())
	_write(HOME + "/key.png", key)
	_write(NOTES, key)
	var hidden := _fx.example("asset.import", 5)
	Assert.contains(hidden["error"], "hidden folder or is a hidden file (.ssh)", "the hidden part is named")
	Assert.eq(_fx.invoke("asset.import", {"source_path": HOME + "/.cache/shot.png", "dest_path": DOT})["code"],
		"PATH_DENIED", "a real PNG in a hidden folder too")
	Assert.eq(_fx.invoke("asset.import", {"source_path": HOME + "//./.ssh/id_rsa", "dest_path": DOT})["code"],
		"PATH_DENIED", "not hidden by doubled slashes or ./")
	var as_text := _fx.invoke("asset.import", {"source_path": NOTES, "dest_path": DIR + "/notes.txt"})
	Assert.eq(as_text["code"], "INVALID_PARAMS", "a file from disk under no asset's extension")
	Assert.contains(as_text["error"], "notes.txt: a file from disk is copied only as an asset", "saying why")
	Assert.contains(as_text["hint"], "png, jpg", "and naming the kinds that are taken")
	Assert.eq(_fx.invoke("asset.import", {"source_path": NOTES, "dest_path": DIR + "/notes"})["code"], "INVALID_PARAMS",
		"nor without an extension")
	for dest: String in [DOT, DIR + "/key.obj", DIR + "/key.tga", DIR + "/key.dae"]:
		Assert.eq(_fx.invoke("asset.import", {"source_path": HOME + "/key.png", "dest_path": dest})["code"],
			"INVALID_PARAMS", "a key is not the asset %s names" % dest.get_file())
	Assert.eq(DirAccess.get_files_at(DIR), PackedStringArray(), "nothing written")
	Assert.is_false(_fx.context.edits.undo(), "nothing recorded")


func test_models_and_images_without_a_signature_are_told_by_their_structure() -> void:
	var files := {
		"cube.obj": "# Blender 4.2\nmtllib cube.mtl\no Cube\nv 1.0 1.0 -1.0\nvn 0 1 0\nvt 0.5 0.5\ns 0\n" +
			"usemtl Material\nf 1/1/1 1/1/1 1/1/1\n",
		"cube.mtl": "# Blender MTL\nnewmtl Material\nNs 250\nKa 1 1 1\nKd 0.8 0.8 0.8\nmap_Bump n.png\nillum 2\n",
		"cube.dae": "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<COLLADA xmlns=\"http://www.collada.org/2005/11/" +
			"COLLADASchema\" version=\"1.4.1\"></COLLADA>\n",
	}
	for name: String in files:
		_write(HOME + "/" + name, (files[name] as String).to_utf8_buffer())
	# An uncompressed 2x1 true-colour TGA: the 18-byte header, then two BGR pixels.
	var tga := PackedByteArray([0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 24, 0, 0, 0, 255, 255, 0, 0])
	_write(HOME + "/red.tga", tga)
	for name: String in ["cube.obj", "cube.mtl", "cube.dae", "red.tga"]:
		var created := _fx.invoke("asset.import", {"source_path": HOME + "/" + name, "dest_path": DIR + "/" + name})
		Assert.eq(created.get("status"), "created", "%s from disk: %s" % [name, created.get("error", "")])
	var text := Marshalls.raw_to_base64(KEY_TEXT.to_utf8_buffer())
	for name: String in ["k.obj", "k.mtl", "k.dae", "k.tga"]:
		Assert.eq(_fx.invoke("asset.import", {"base64_data": text, "dest_path": DIR + "/" + name})["code"],
			"INVALID_PARAMS", "a key as %s" % name)


func test_inspect_source_says_what_import_would_copy_and_writes_nothing() -> void:
	var png := Image.create(3, 1, false, Image.FORMAT_RGBA8).save_png_to_buffer()
	_write(OUTSIDE, png)
	_write(HOME + "/.ssh/id_rsa", KEY_TEXT.to_utf8_buffer())
	_write(NOTES, KEY_TEXT.to_utf8_buffer())
	var seen := _fx.example("asset.inspect_source", 0)
	var hashing := HashingContext.new()
	hashing.start(HashingContext.HASH_SHA256)
	hashing.update(png)
	Assert.eq([seen["bytes"], seen["sha256"]], [png.size(), hashing.finish().hex_encode()], "its size and sha256")
	_fx.example("asset.inspect_source", 1)
	_fx.example("asset.inspect_source", 2)
	Assert.eq(_fx.invoke("asset.inspect_source", {"source_path": OUTSIDE})["code"], "INVALID_PARAMS", "dest_path too")
	var into_toolkit := {"source_path": OUTSIDE, "dest_path": "res://addons/godot_mcp_toolkit/a.png"}
	Assert.eq(_fx.invoke("asset.inspect_source", into_toolkit)["code"], "PATH_DENIED",
		"a destination asset.import would refuse")
	Assert.is_true(_fx.registry.dispatch_info("asset.inspect_source")["read_only"], "a read")
	Assert.eq(DirAccess.get_files_at(DIR), PackedStringArray(), "nothing written")
	Assert.is_false(_fx.context.edits.undo(), "nothing recorded")


func _write(path: String, data: PackedByteArray) -> void:
	DirAccess.make_dir_recursive_absolute(path.get_base_dir())
	var file := FileAccess.open(path, FileAccess.WRITE)
	Assert.is_true(file != null, "%s can be written in this engine" % path)
	if file != null:
		file.store_buffer(data)
		file.close()
