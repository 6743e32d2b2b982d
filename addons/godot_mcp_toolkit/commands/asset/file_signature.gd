@tool
extends RefCounted
## Do these bytes hold what the file name says? asset.import writes bytes under a name, and the
## editor imports them by extension: 9 bytes of text saved as .png would be answered "created"
## and then fail to import. Formats with a fixed signature are checked; formats without one (tga,
## obj, dae, plain text) pass. Pure; runtime-safe.

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
}
## Text formats: a marker that must appear near the start (after a BOM, an XML prolog, comments).
const TEXT_FORMATS := {
	"SVG image": {"extensions": ["svg"], "marker": "<svg"},
	"glTF JSON": {"extensions": ["gltf"], "marker": "{"},
}
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


## The format name whose signature `data` carries, or "".
static func identify(data: PackedByteArray) -> String:
	for format: String in FORMATS:
		if matches(format, data):
			return format
	for format: String in TEXT_FORMATS:
		if matches(format, data):
			return format
	return ""


static func matches(format: String, data: PackedByteArray) -> bool:
	if TEXT_FORMATS.has(format):
		var text := data.slice(0, TEXT_WINDOW).get_string_from_utf8().to_lower()
		return text.contains(TEXT_FORMATS[format]["marker"])
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


static func _format_of_extension(extension: String) -> String:
	for table: Dictionary in [FORMATS, TEXT_FORMATS]:
		for format: String in table:
			if extension in table[format]["extensions"]:
				return format
	return ""


static func _first_extension(format: String) -> String:
	var table: Dictionary = FORMATS if FORMATS.has(format) else TEXT_FORMATS
	return table[format]["extensions"][0]


static func _at(data: PackedByteArray, offset: int, wanted: Variant) -> bool:
	var bytes := _bytes(wanted)
	return data.size() >= offset + bytes.size() and data.slice(offset, offset + bytes.size()) == bytes


static func _bytes(wanted: Variant) -> PackedByteArray:
	return (wanted as String).to_ascii_buffer() if wanted is String else PackedByteArray(wanted)


static func _describe_signature(format: String) -> String:
	if TEXT_FORMATS.has(format):
		return "text holding \"%s\"" % TEXT_FORMATS[format]["marker"]
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
