@tool
extends RefCounted
## The placeholders domain: texture.generate writes a PNG shape, sound.generate a 16-bit PCM WAV
## tone, both real files a game loads as they are. Paths go through the file guard; the editor is
## told through context.project.refresh_files so it imports them. Writing a file is not an edit of the
## open scene, so nothing is recorded for undo (as with the editor's own "Save As").
##
## Helpers: commands/generate/texture_painter.gd (pixels), commands/generate/wav_encoder.gd
## (samples and the RIFF bytes), contract/build_args.gd (param checks).

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Idempotency := preload("res://addons/godot_mcp_toolkit/contract/idempotency.gd")
const Args := preload("res://addons/godot_mcp_toolkit/contract/build_args.gd")
const FileParams := preload("res://addons/godot_mcp_toolkit/files/file_params.gd")
const TexturePainter := preload("res://addons/godot_mcp_toolkit/commands/generate/texture_painter.gd")
const WavEncoder := preload("res://addons/godot_mcp_toolkit/commands/generate/wav_encoder.gd")
const LabelFont := preload("res://addons/godot_mcp_toolkit/commands/generate/label_font.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/generate/generate_commands.gd"
const MAX_SIDE := 4096
const MAX_SECONDS := 30.0
const MAX_SCAN_WAIT_MS := 60000
const COLOR_SCHEMA := {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "number"}}]}


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("texture.generate", Callable(script, "_cmd_texture").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["file_path"], "properties": {
			"file_path": {"type": "string"}, "shape": {"type": "string", "enum": TexturePainter.SHAPES},
			"width": {"type": "number"}, "height": {"type": "number"}, "fill_color": COLOR_SCHEMA,
			"outline_color": COLOR_SCHEMA, "background_color": COLOR_SCHEMA, "outline_width": {"type": "number"},
			"direction": {"type": "string", "enum": TexturePainter.DIRECTIONS}, "cell_size": {"type": "number"},
			"label": {"type": "string"}, "label_color": COLOR_SCHEMA,
			"if_exists": {"type": "string", "enum": Idempotency.IF_EXISTS_MODES}, "wait_for_scan_ms": {"type": "number"},
		}}).scene_independent())
	registry.register_command("sound.generate", Callable(script, "_cmd_sound").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["file_path"], "properties": {
			"file_path": {"type": "string"}, "waveform": {"type": "string", "enum": WavEncoder.WAVEFORMS},
			"duration": {"type": "number"}, "frequency": {"type": "number"}, "end_frequency": {"type": "number"},
			"volume": {"type": "number"}, "decay": {"type": "number"}, "fade_in": {"type": "number"},
			"fade_out": {"type": "number"}, "if_exists": {"type": "string", "enum": Idempotency.IF_EXISTS_MODES},
			"wait_for_scan_ms": {"type": "number"},
		}}).scene_independent())


static func _cmd_texture(params: Dictionary, context: RefCounted) -> Dictionary:
	var read := Args.collect([
		["path", FileParams.res_file(params, "file_path", ["png"])],
		["mode", _if_exists(params)],
		["shape", Args.choice(params, "shape", "solid", TexturePainter.SHAPES)],
		["width", Args.integer(params, "width", 64, 1, MAX_SIDE)],
		["height", Args.integer(params, "height", 64, 1, MAX_SIDE)],
		["fill", Args.color(params, "fill_color", Color.WHITE)],
		["outline", Args.color(params, "outline_color", Color.BLACK)],
		["background", Args.color(params, "background_color", Color.TRANSPARENT)],
		["outline_width", Args.integer(params, "outline_width", 0, 0, MAX_SIDE)],
		["direction", Args.choice(params, "direction", "up", TexturePainter.DIRECTIONS)],
		["cell_size", Args.integer(params, "cell_size", 8, 1, MAX_SIDE)],
		["label", Args.text(params, "label", "")],
		["label_color", Args.color(params, "label_color", Color.BLACK)],
		["wait", Args.integer(params, "wait_for_scan_ms", 0, 0, MAX_SCAN_WAIT_MS)],
	])
	if read.has("error"):
		return read["error"]
	var style: Dictionary = read["values"]
	var label: String = style["label"]
	var label_scale := 0
	if not label.is_empty():
		var missing := LabelFont.unsupported(label)
		if not missing.is_empty():
			return ToolkitError.fail("INVALID_PARAMS", "label has characters the built-in pixel font lacks: %s" % missing,
				"Use letters, digits, spaces and - ! ? . : + /")
		label_scale = LabelFont.fit_scale(label, Vector2i(style["width"], style["height"]))
		if label_scale < 1:
			return ToolkitError.fail("INVALID_PARAMS", "label '%s' does not fit a %dx%d image (each character needs 4x5 px)"
				% [label, style["width"], style["height"]], "Shorten the label or make the image larger.")
	var early := _existing(style["path"], style["mode"], params)
	if not early.is_empty():
		return early
	var existed := FileAccess.file_exists(style["path"])
	var image := TexturePainter.paint(style)
	if label_scale > 0:
		LabelFont.draw(image, label, style["label_color"], label_scale)
	var bytes := image.save_png_to_buffer()
	var written := _write(style["path"], bytes, context)
	if not written.is_empty():
		return written
	return ToolkitSuccess.ok(_written_result(style["path"], bytes.size(), existed, {
		"shape": style["shape"], "width": style["width"], "height": style["height"], "label_scale": label_scale}))


static func _cmd_sound(params: Dictionary, context: RefCounted) -> Dictionary:
	var read := Args.collect([
		["path", FileParams.res_file(params, "file_path", ["wav"])],
		["mode", _if_exists(params)],
		["waveform", Args.choice(params, "waveform", "sine", WavEncoder.WAVEFORMS)],
		["duration", Args.number(params, "duration", 0.5, 0.001, MAX_SECONDS)],
		["frequency", Args.number(params, "frequency", 440.0, 1.0, WavEncoder.SAMPLE_RATE / 2.0)],
		["volume", Args.number(params, "volume", 0.5, 0.0, 1.0)],
		["decay", Args.number(params, "decay", 0.0, 0.0, 1000.0)],
		["fade_in", Args.number(params, "fade_in", 0.0, 0.0, MAX_SECONDS)],
		["fade_out", Args.number(params, "fade_out", 0.0, 0.0, MAX_SECONDS)],
		["wait", Args.integer(params, "wait_for_scan_ms", 0, 0, MAX_SCAN_WAIT_MS)],
	])
	if read.has("error"):
		return read["error"]
	var tone: Dictionary = read["values"]
	var end := Args.number(params, "end_frequency", tone["frequency"], 1.0, WavEncoder.SAMPLE_RATE / 2.0)
	if end.has("error"):
		return end["error"]
	tone["end_frequency"] = end["value"]
	var early := _existing(tone["path"], tone["mode"], params)
	if not early.is_empty():
		return early
	var existed := FileAccess.file_exists(tone["path"])
	var samples := WavEncoder.synthesize(tone)
	var bytes := WavEncoder.encode(samples)
	var written := _write(tone["path"], bytes, context)
	if not written.is_empty():
		return written
	return ToolkitSuccess.ok(_written_result(tone["path"], bytes.size(), existed, {
		"waveform": tone["waveform"], "duration": tone["duration"], "sample_rate": WavEncoder.SAMPLE_RATE,
		"samples": samples.size()}))


static func _if_exists(params: Dictionary) -> Dictionary:
	var mode := Idempotency.read_mode(params)
	return {"value": mode["mode"]} if mode["ok"] else {"error": mode["error"]}


## The early answer when the file exists and if_exists says fail or return; {} to go on writing.
static func _existing(path: String, mode: String, params: Dictionary) -> Dictionary:
	match Idempotency.decide(mode, FileAccess.file_exists(path)):
		Idempotency.ACTION_FAIL:
			return Idempotency.already_exists(path)
		Idempotency.ACTION_RETURN:
			var result := Idempotency.with_status({"path": path}, Idempotency.STATUS_RETURNED)
			var ignored := PackedStringArray()
			for key: String in params:
				if not key in ["file_path", "if_exists", "wait_for_scan_ms"]:
					ignored.append(key)
			if not ignored.is_empty():
				result["warnings"] = ["Not applied, the file already exists: %s. Pass if_exists:'replace' to overwrite it."
					% ", ".join(ignored)]
			return ToolkitSuccess.ok(result)
	return {}


## Writes all of `bytes` to a sibling temp file, then renames it over `path`, so a failed write
## never leaves a half-written asset; then asks the editor to import it. {} on success.
static func _write(path: String, bytes: PackedByteArray, context: RefCounted) -> Dictionary:
	var error := ProjectWrites.write_bytes(path, bytes)
	if error != OK:
		return ToolkitError.fail("WRITE_FAILED", "Could not write %s (%s)" % [path, error_string(error)])
	context.project.refresh_files(PackedStringArray([path]))
	return {}


static func _written_result(path: String, size: int, existed: bool, details: Dictionary) -> Dictionary:
	var result := {"path": path, "bytes": size, "import_requested": true}
	Idempotency.with_status(result, Idempotency.STATUS_REPLACED if existed else Idempotency.STATUS_CREATED)
	result.merge(details)
	# A sync handler cannot wait for the editor's scan: say the import was asked for, not done.
	result["hint"] = "The editor imports the file on its next filesystem scan; load it with load(\"%s\")." % path
	return result
