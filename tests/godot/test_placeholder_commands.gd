extends RefCounted
## The placeholders domain (commands/generate/generate_commands.gd) through the command registry: the
## PNG and WAV files it writes are read back byte by byte (Image.load_png_from_buffer, the RIFF
## header fields and samples), if_exists, and the guard/validation refusals that leave no file.
##
## Not covered here (only an editor shows it): the editor's import of the files (.godot/imported,
## the .import sidecar) after context.project.refresh_files, and loading them as Texture2D/AudioStreamWAV
## through that import; here the runtime context only records the refresh request.

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")

const DOMAIN := "placeholders"
const SCRATCH := "res://tmp_tests/placeholders"
const DOMAIN_PATH := "res://addons/godot_mcp_toolkit/commands/generate/generate_commands.gd"

var _fx: DomainFixture = null


func _init() -> void:
	var domains: Array[String] = [DOMAIN_PATH]
	_fx = DomainFixture.new(domains, DOMAIN, null, SCRATCH)


func cleanup() -> void:
	_fx.cleanup()


func test_commands_are_scene_independent_writes() -> void:
	for method: String in ["texture.generate", "sound.generate"]:
		Assert.is_true(_fx.registry.dispatch_info(method)["scene_independent"], "%s needs no scene" % method)
		Assert.is_false(_fx.registry.dispatch_info(method)["read_only"], "%s writes" % method)


func test_texture_png_parses_back_with_the_painted_pixels() -> void:
	var path := SCRATCH.path_join("ball.png")
	var result := _fx.example("texture.generate")
	var bytes := FileAccess.get_file_as_bytes(path)
	Assert.eq(bytes.size(), result["bytes"], "size reported is the file's")
	var image := Image.new()
	Assert.eq(image.load_png_from_buffer(bytes), OK, "a PNG Godot decodes")
	Assert.eq([image.get_width(), image.get_height()], [32, 16], "requested size")
	Assert.eq(image.get_pixel(16, 8), Color.RED, "fill at the centre")
	Assert.eq(image.get_pixel(0, 0).a, 0.0, "transparent corner (outside the circle)")
	Assert.eq(image.get_pixel(16, 0), Color.BLACK, "outline at the top edge")
	var loaded := Image.load_from_file(path)
	Assert.eq(loaded.get_size(), Vector2i(32, 16), "Image.load_from_file reads the file too")
	Assert.is_true(path in _fx.context.runtime_project.refreshed_files, "the editor is told to import it")


func test_texture_if_exists_return_fail_replace() -> void:
	var path := SCRATCH.path_join("ball.png")
	_fx.example("texture.generate")
	var before := FileAccess.get_file_as_bytes(path)
	_fx.example("texture.generate", 1)
	Assert.eq(FileAccess.get_file_as_bytes(path), before, "returned: file untouched")
	var failed := _fx.invoke("texture.generate", {"file_path": path, "if_exists": "fail"})
	Assert.eq(failed["code"], "ALREADY_EXISTS", "fail mode")
	var replaced := _fx.invoke("texture.generate", {"file_path": path, "if_exists": "replace", "shape": "checkerboard",
		"width": 8, "height": 8, "cell_size": 4, "fill_color": "#ffffff", "outline_color": "blue"})
	Assert.eq(replaced["status"], "replaced", "replace mode")
	var image := Image.load_from_file(path)
	Assert.eq(image.get_pixel(0, 0), Color.WHITE, "first cell fill")
	Assert.eq(image.get_pixel(4, 0), Color.BLUE, "next cell the second color")


func test_texture_shapes_follow_direction() -> void:
	var path := SCRATCH.path_join("arrow.png")
	Assert.eq(_fx.invoke("texture.generate", {"file_path": path, "shape": "arrow", "direction": "right", "width": 20,
		"height": 20, "fill_color": "green"})["status"], "created", "arrow written")
	var image := Image.load_from_file(path)
	Assert.eq(image.get_pixel(18, 10), Color.GREEN, "right-pointing tip is filled")
	Assert.eq(image.get_pixel(1, 1).a, 0.0, "left corner empty")
	Assert.eq(image.get_pixel(18, 1).a, 0.0, "corner beside the tip empty")


func test_texture_refusals_write_nothing() -> void:
	var cases := {
		"guard": [{"file_path": "res://addons/godot_mcp_toolkit/x.png"}, "PATH_DENIED"],
		"climb": [{"file_path": "res://../x.png"}, "PATH_DENIED"],
		"extension": [{"file_path": SCRATCH.path_join("x.jpg")}, "UNSUPPORTED_FILE_TYPE"],
		"shape": [{"file_path": SCRATCH.path_join("x.png"), "shape": "star"}, "INVALID_PARAMS"],
		"size": [{"file_path": SCRATCH.path_join("x.png"), "width": 0}, "INVALID_PARAMS"],
		"color": [{"file_path": SCRATCH.path_join("x.png"), "fill_color": "not-a-color"}, "INVALID_PARAMS"],
		"label glyph": [{"file_path": SCRATCH.path_join("x.png"), "label": "hp€"}, "INVALID_PARAMS"],
		"label fit": [{"file_path": SCRATCH.path_join("x.png"), "label": "TOO LONG", "width": 16}, "INVALID_PARAMS"],
	}
	for name: String in cases:
		Assert.eq(_fx.invoke("texture.generate", cases[name][0])["code"], cases[name][1], name)
	Assert.eq(_fx.example("texture.generate", 2)["code"], "PARENT_NOT_FOUND", "missing folder")
	Assert.is_false(FileAccess.file_exists(SCRATCH.path_join("x.png")), "nothing written")


func test_sound_wav_header_and_samples_parse_back() -> void:
	var path := SCRATCH.path_join("blip.wav")
	var result := _fx.example("sound.generate")
	var bytes := FileAccess.get_file_as_bytes(path)
	Assert.eq(bytes.size(), 44 + 4410 * 2, "header plus 16-bit samples")
	Assert.eq(bytes.slice(0, 4).get_string_from_ascii(), "RIFF", "RIFF tag")
	Assert.eq(bytes.decode_u32(4), bytes.size() - 8, "RIFF size")
	Assert.eq(bytes.slice(8, 16).get_string_from_ascii(), "WAVEfmt ", "WAVE + fmt chunk")
	Assert.eq(bytes.decode_u32(16), 16, "PCM fmt chunk size")
	Assert.eq(bytes.decode_u16(20), 1, "PCM format")
	Assert.eq(bytes.decode_u16(22), 1, "mono")
	Assert.eq(bytes.decode_u32(24), 44100, "sample rate")
	Assert.eq(bytes.decode_u32(28), 88200, "byte rate")
	Assert.eq(bytes.decode_u16(32), 2, "block align")
	Assert.eq(bytes.decode_u16(34), 16, "bits per sample")
	Assert.eq(bytes.slice(36, 40).get_string_from_ascii(), "data", "data chunk")
	Assert.eq(bytes.decode_u32(40), 4410 * 2, "data size")
	Assert.eq(result["bytes"], bytes.size(), "size reported is the file's")
	# Square wave at 0.8 volume: the first sample is full positive amplitude, later a negative half.
	Assert.eq(bytes.decode_s16(44), int(round(0.8 * 32767)), "first sample at volume")
	var lowest := 0
	for i: int in 200:
		lowest = min(lowest, bytes.decode_s16(44 + i * 2))
	Assert.eq(lowest, -int(round(0.8 * 32767)), "negative half reached")
	Assert.eq(bytes.decode_s16(bytes.size() - 2), 0, "fade_out ends in silence")
	Assert.is_true(path in _fx.context.runtime_project.refreshed_files, "the editor is told to import it")


func test_sound_noise_is_reproducible_and_decays() -> void:
	var first := SCRATCH.path_join("noise_a.wav")
	var second := SCRATCH.path_join("noise_b.wav")
	for path: String in [first, second]:
		Assert.eq(_fx.invoke("sound.generate", {"file_path": path, "waveform": "noise", "duration": 0.05, "decay": 40})[
			"status"], "created", path)
	var bytes := FileAccess.get_file_as_bytes(first)
	Assert.eq(bytes, FileAccess.get_file_as_bytes(second), "same request, same bytes")
	var early := 0
	var late := 0
	for i: int in 200:
		early = max(early, abs(bytes.decode_s16(44 + i * 2)))
		late = max(late, abs(bytes.decode_s16(bytes.size() - 2 - i * 2)))
	Assert.is_true(late < early, "decay lowers the amplitude (%d < %d)" % [late, early])


func test_sound_refusals_write_nothing() -> void:
	Assert.eq(_fx.example("sound.generate", 1)["code"], "INVALID_PARAMS", "volume")
	var path := SCRATCH.path_join("bad.wav")
	for params: Dictionary in [{"waveform": "pulse"}, {"duration": 0}, {"frequency": "high"}, {"end_frequency": -1},
			{"wait_for_scan_ms": -5}, {"if_exists": "overwrite"}]:
		params["file_path"] = path
		Assert.eq(_fx.invoke("sound.generate", params)["code"], "INVALID_PARAMS", str(params))
	Assert.eq(_fx.invoke("sound.generate", {"file_path": SCRATCH.path_join("x.ogg")})["code"], "UNSUPPORTED_FILE_TYPE",
		"extension")
	Assert.is_false(FileAccess.file_exists(path), "nothing written")
	Assert.is_false(FileAccess.file_exists(SCRATCH.path_join("loud.wav")), "nothing written for the bad volume")


func test_texture_label_drawn_in_pixel_font() -> void:
	var path := SCRATCH.path_join("hp.png")
	# "HI" is 7x5 px at scale 1; a 32x16 image fits it at scale 2 (14x10), centred at (9, 3).
	var result := _fx.invoke("texture.generate", {"file_path": path, "width": 32, "height": 16, "label": "hi",
		"fill_color": "white", "label_color": "black"})
	Assert.eq(result["label_scale"], 2, "largest whole scale that fits")
	var image := Image.load_from_file(path)
	Assert.eq(image.get_pixel(9, 3), Color.BLACK, "H's left stem, top")
	Assert.eq(image.get_pixel(11, 3), Color.WHITE, "gap inside the H")
	Assert.eq(image.get_pixel(11, 7), Color.BLACK, "H's crossbar")
	Assert.eq(image.get_pixel(17, 3), Color.BLACK, "I's top bar")
	Assert.eq(image.get_pixel(1, 1), Color.WHITE, "fill elsewhere")
