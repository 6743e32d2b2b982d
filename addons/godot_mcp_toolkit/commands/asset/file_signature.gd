@tool
extends RefCounted
## Do these bytes hold what the file name says? asset.import writes bytes under a name, and the
## editor imports them by extension: 9 bytes of text saved as .png would be answered "created"
## and then fail to import. Formats with a fixed signature, a text marker, a known header (tga) or
## known line keywords (obj, mtl) are checked; other kinds (plain text) pass `check`. A copy from
## a file on disk (`check_asset`) is taken only as an asset whose bytes are checked here: reading a
## file outside the project must not be a way to bring any file in. Pure; runtime-safe.

## Each format: the extensions it is saved under and its signatures ([offset, bytes as text or
## PackedByteArray]); any one signature matching is enough.
const FORMATS := {
	"PNG image": {"extensions": ["png"], "signatures": [[0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]]]},
	"JPEG image": {"extensions": ["jpg", "jpeg"], "signatures": [[0, [0xFF, 0xD8, 0xFF]]]},
	"WebP image": {"extensions": ["webp"], "signatures": [[8, "WEBP"]], "also": [0, "RIFF"]},
	"BMP image": {"extensions": ["bmp"], "signatures": [[0, "BM"]]},
	"OpenEXR image": {"extensions": ["exr"], "signatures": [[0, [0x76, 0x2F, 0x31, 0x01]]]},
	"Radiance HDR image": {"extensions": ["hdr"], "signatures": [[0, "#?RADIANCE"], [0, "#?RGBE"]]},
	"KTX texture": {"extensions": ["ktx", "ktx2"], "signatures": [[0, [0xAB, 0x4B, 0x54, 0x58, 0x20]]]},
	"DDS texture": {"extensions": ["dds"], "signatures": [[0, "DDS "]]},
	"WAV sound": {"extensions": ["wav"], "signatures": [[8, "WAVE"]], "also": [0, "RIFF"]},
	"Ogg sound": {"extensions": ["ogg", "oga"], "signatures": [[0, "OggS"]]},
	# An ID3 tag, or (see _mpeg_frame) an MPEG frame header right away.
	"MP3 sound": {"extensions": ["mp3"], "signatures": [[0, "ID3"]]},
	"font": {"extensions": ["ttf", "otf", "ttc"], "signatures": [[0, [0x00, 0x01, 0x00, 0x00]], [0, "OTTO"],
		[0, "true"], [0, "ttcf"]]},
	"WOFF font": {"extensions": ["woff"], "signatures": [[0, "wOFF"]]},
	"WOFF2 font": {"extensions": ["woff2"], "signatures": [[0, "wOF2"]]},
	"glTF binary": {"extensions": ["glb"], "signatures": [[0, "glTF"]]},
	"FBX model": {"extensions": ["fbx"], "signatures": [[0, "Kaydara FBX Binary"], [0, "; FBX"]]},
	"Blender file": {"extensions": ["blend"], "signatures": [[0, "BLENDER"]]},
	"Ogg video": {"extensions": ["ogv"], "signatures": [[0, "OggS"]]},
	"BMFont font": {"extensions": ["fnt", "font"], "signatures": [[0, "info "], [0, "BMF"]]},
	"Godot binary resource": {"extensions": ["res", "scn"], "signatures": [[0, "RSRC"], [0, "RSCC"]]},
}
## Text formats: a marker that must appear near the start (after a BOM, an XML prolog, comments).
const TEXT_FORMATS := {
	"SVG image": {"extensions": ["svg"], "marker": "<svg"},
	"glTF JSON": {"extensions": ["gltf"], "marker": "{"},
	"COLLADA model": {"extensions": ["dae"], "marker": "<collada"},
}
## Line formats: every whole line near the start is empty, a # comment, or begins with one of the
## format's keywords (any case).
const LINE_FORMATS := {
	"Wavefront OBJ model": {"extensions": ["obj"], "keywords": ["v", "vt", "vn", "vp", "f", "l", "p", "o", "g",
		"s", "mg", "usemtl", "mtllib", "usemap", "maplib", "cstype", "deg", "bmat", "step", "curv", "curv2",
		"surf", "parm", "trim", "hole", "scrv", "sp", "end", "con", "bevel", "c_interp", "d_interp", "lod",
		"shadow_obj", "trace_obj", "ctech", "stech", "call", "csh"]},
	"Wavefront material": {"extensions": ["mtl"], "keywords": ["newmtl", "ka", "kd", "ks", "ke", "ns", "ni", "d",
		"tr", "tf", "illum", "sharpness", "map_ka", "map_kd", "map_ks", "map_ke", "map_ns", "map_d", "map_bump",
		"bump", "disp", "decal", "refl", "map_refl", "map_aat", "pr", "pm", "ps", "pc", "pcr", "aniso", "anisor",
		"norm", "map_pr", "map_pm", "map_ps"]},
}
## A TGA file has no signature: its 18-byte header's colour-map type, image type and pixel depth.
const TGA := "TGA image"
const TGA_IMAGE_TYPES := [1, 2, 3, 9, 10, 11]
const TGA_DEPTHS := [8, 15, 16, 24, 32]
const TEXT_WINDOW := 4096


## {} when `data` fits `path`'s extension (or the extension has no known signature), else
## {"error": message, "hint": advice} saying what the bytes start with and, when known, what
## they look like instead.
static func check(path: String, data: PackedByteArray) -> Dictionary:
	var extension := path.get_extension().to_lower()
	var expected := _format_of_extension(extension)
	if expected.is_empty() or matches(expected, data):
		return {}
	var found := identify(data)
	var message := "%s does not hold a %s: a .%s file starts with %s, these %d bytes start with %s" % [
		path.get_file(), expected, extension, _describe_signature(expected), data.size(), _show_start(data)]
	var hint := "Pass the file's real bytes (base64_data is the encoded file itself)."
	if not found.is_empty():
		hint = "These bytes are a %s: save them as .%s, or pass the %s you meant." % [
			found, _first_extension(found), expected]
	return {"error": message, "hint": hint}


## As `check`, for bytes copied from a file on disk: the extension must also name an asset kind
## whose bytes can be checked, so no other file (a key, a config) can be brought in under any name.
static func check_asset(path: String, data: PackedByteArray) -> Dictionary:
	var extension := path.get_extension().to_lower()
	if _format_of_extension(extension).is_empty():
		var message := "%s: a file from disk is copied only as an asset whose bytes can be checked, and .%s is not one"
		var hint := "Name the destination with the asset's own extension (%s), or ask the person to copy the file " \
			+ "into the project."
		return {"error": message % [path.get_file(), extension], "hint": hint % ", ".join(checked_extensions())}
	return check(path, data)


## Every extension whose bytes `check` can tell apart.
static func checked_extensions() -> PackedStringArray:
	var found := PackedStringArray()
	for table: Dictionary in [FORMATS, TEXT_FORMATS, LINE_FORMATS]:
		for format: String in table:
			found.append_array(PackedStringArray(table[format]["extensions"]))
	found.append("tga")
	return found


## The format name whose signature `data` carries, or "".
static func identify(data: PackedByteArray) -> String:
	for table: Dictionary in [FORMATS, TEXT_FORMATS, LINE_FORMATS]:
		for format: String in table:
			if matches(format, data):
				return format
	return TGA if matches(TGA, data) else ""


static func matches(format: String, data: PackedByteArray) -> bool:
	if format == TGA:
		return _tga_header(data)
	if TEXT_FORMATS.has(format):
		var text := data.slice(0, TEXT_WINDOW).get_string_from_utf8().to_lower()
		return text.contains(TEXT_FORMATS[format]["marker"])
	if LINE_FORMATS.has(format):
		return _keyword_lines(data, LINE_FORMATS[format]["keywords"])
	var spec: Dictionary = FORMATS[format]
	if spec.has("also") and not _at(data, spec["also"][0], spec["also"][1]):
		return false
	if format == "MP3 sound" and _mpeg_frame(data):
		return true
	for signature: Array in spec["signatures"]:
		if _at(data, signature[0], signature[1]):
			return true
	return false


## An MPEG audio frame starts with 11 set bits (FF Ex/Fx).
static func _mpeg_frame(data: PackedByteArray) -> bool:
	return data.size() >= 2 and data[0] == 0xFF and (data[1] & 0xE0) == 0xE0


static func _tga_header(data: PackedByteArray) -> bool:
	return data.size() >= 18 and data[1] in [0, 1] and data[2] in TGA_IMAGE_TYPES and data[16] in TGA_DEPTHS \
		and (data[12] | data[13]) != 0 and (data[14] | data[15]) != 0


## Every whole line of the first TEXT_WINDOW bytes (the last, cut one is not judged) is empty, a
## comment, or a keyword followed by a space, a tab or the line's end; at least one has a keyword.
static func _keyword_lines(data: PackedByteArray, keywords: Array) -> bool:
	var lines := data.slice(0, TEXT_WINDOW).get_string_from_utf8().split("\n")
	if data.size() > TEXT_WINDOW:
		lines.resize(lines.size() - 1)
	var seen := false
	for line: String in lines:
		var text := line.strip_edges()
		if text.is_empty() or text.begins_with("#"):
			continue
		var keyword := text.get_slice(" ", 0).get_slice("\t", 0).to_lower()
		if keyword not in keywords:
			return false
		seen = true
	return seen


static func _format_of_extension(extension: String) -> String:
	if extension == "tga":
		return TGA
	for table: Dictionary in [FORMATS, TEXT_FORMATS, LINE_FORMATS]:
		for format: String in table:
			if extension in table[format]["extensions"]:
				return format
	return ""


static func _first_extension(format: String) -> String:
	if format == TGA:
		return "tga"
	for table: Dictionary in [FORMATS, TEXT_FORMATS, LINE_FORMATS]:
		if table.has(format):
			return table[format]["extensions"][0]
	return ""


static func _at(data: PackedByteArray, offset: int, wanted: Variant) -> bool:
	var bytes := _bytes(wanted)
	return data.size() >= offset + bytes.size() and data.slice(offset, offset + bytes.size()) == bytes


static func _bytes(wanted: Variant) -> PackedByteArray:
	return (wanted as String).to_ascii_buffer() if wanted is String else PackedByteArray(wanted)


static func _describe_signature(format: String) -> String:
	if format == TGA:
		return "an 18-byte TGA header"
	if TEXT_FORMATS.has(format):
		return "text holding \"%s\"" % TEXT_FORMATS[format]["marker"]
	if LINE_FORMATS.has(format):
		var keywords: Array = LINE_FORMATS[format]["keywords"]
		return "lines of %s keywords (%s, ...)" % [format, ", ".join(PackedStringArray(keywords.slice(0, 3)))]
	var signature: Array = FORMATS[format]["signatures"][0]
	var shown := _show_start(_bytes(signature[1]))
	return shown if signature[0] == 0 else "%s at byte %d" % [shown, signature[0]]


## The first bytes as hex, and as text when they are printable.
static func _show_start(data: PackedByteArray) -> String:
	var head := data.slice(0, 8)
	var hex := PackedStringArray()
	var printable := true
	for byte: int in head:
		hex.append("%02X" % byte)
		printable = printable and byte >= 0x20 and byte < 0x7F
	var text := " (\"%s\")" % head.get_string_from_ascii() if printable and not head.is_empty() else ""
	return " ".join(hex) + text
