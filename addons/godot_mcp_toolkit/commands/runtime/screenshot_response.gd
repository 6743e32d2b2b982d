@tool
extends RefCounted
## The screenshot reply (contract C3), shared by runtime.screenshot and editor.screenshot: the
## params (image_detail, image_response_mode, save_path) checked, the inline image's size cap,
## and the inline | disk | both shapes with their disclosures (image_detail and returned "WxH"
## always; the saved-file hint for disk/both). Pure apart from Image resizing; RUNTIME-REACHABLE.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")

const MIME := "image/png"
## Long-edge cap of the inline image per detail level; 0 = native.
const DETAIL_CAPS := {"full": 0, "mid": 1024, "low": 512}
const MODES := ["inline", "disk", "both"]
const SCREENSHOT_DIR := "user://screenshots/"


## {"ok": true, "detail", "mode", "save_path"} or {"ok": false, "error"}. save_path must sit under
## one of `allowed_prefixes`; when omitted for disk/both, a fresh name under user://screenshots/.
static func read_params(params: Dictionary, allowed_prefixes: PackedStringArray) -> Dictionary:
	var detail: Variant = params.get("image_detail", "full")
	if not (detail is String and DETAIL_CAPS.has(detail)):
		return _refuse("INVALID_PARAMS", "image_detail must be full, mid or low")
	var mode: Variant = params.get("image_response_mode", "inline")
	if not (mode is String and mode in MODES):
		return _refuse("INVALID_PARAMS", "image_response_mode must be inline, disk or both")
	var save_path := ""
	if params.has("save_path"):
		var checked := _save_path(params["save_path"], allowed_prefixes)
		if not checked["ok"]:
			return checked
		save_path = checked["path"]
	elif mode != "inline":
		save_path = SCREENSHOT_DIR + "screenshot_%d.png" % Time.get_ticks_usec()
	return {"ok": true, "detail": detail, "mode": mode, "save_path": save_path}


## The inline size for `detail`: the long edge capped, aspect kept, never larger than native.
static func detail_dims(width: int, height: int, detail: String) -> Vector2i:
	var cap: int = DETAIL_CAPS.get(detail, 0)
	var long_edge := maxi(width, height)
	if cap <= 0 or long_edge <= cap:
		return Vector2i(width, height)
	var scale := float(cap) / float(long_edge)
	return Vector2i(maxi(1, roundi(width * scale)), maxi(1, roundi(height * scale)))


## A copy of `image` at the detail's size (the same image when no shrink is needed).
static func scaled(image: Image, detail: String) -> Image:
	var dims := detail_dims(image.get_width(), image.get_height(), detail)
	if dims == image.get_size():
		return image
	var copy := image.duplicate() as Image
	copy.resize(dims.x, dims.y, Image.INTERPOLATE_LANCZOS)
	return copy


## The reply for `mode`. `inline` = {"png": PackedByteArray, "width", "height"} of the image sent,
## `saved` = {"path": absolute path, "bytes", "width", "height"} of the full-res file, `native` the
## capture's own size. `remediation` (what had to be done to capture) and `hint` ride every shape.
static func shape(mode: String, detail: String, native: Vector2i, inline: Dictionary, saved: Dictionary,
		remediation: PackedStringArray = PackedStringArray(), hint: String = "") -> Dictionary:
	var result := {"mime_type": MIME, "width": native.x, "height": native.y, "image_detail": detail}
	if mode == "disk":
		result["path"] = saved["path"]
		result["bytes"] = saved["bytes"]
		result["returned"] = "%dx%d" % [saved["width"], saved["height"]]
	else:
		var png: PackedByteArray = inline["png"]
		result["image_base64"] = Marshalls.raw_to_base64(png)
		result["bytes"] = png.size()
		result["returned"] = "%dx%d" % [inline["width"], inline["height"]]
		if mode == "both":
			result["path"] = saved["path"]
	var hints := PackedStringArray()
	if not hint.is_empty():
		hints.append(hint)
	if mode != "inline":
		hints.append("Saved full-res → %s. Read it for pixel detail without re-capturing." % saved["path"])
	if not hints.is_empty():
		result["hint"] = " ".join(hints)
	if not remediation.is_empty():
		result["remediation"] = Array(remediation)
	return result


static func _save_path(raw: Variant, allowed_prefixes: PackedStringArray) -> Dictionary:
	var guarded := FileGuard.check(raw, true)
	if not guarded["ok"]:
		return guarded
	var path: String = guarded["path"]
	if path.get_extension().to_lower() != "png":
		return {"ok": false, "error": FileGuard.wrong_extension("save_path", path, ["png"])}
	for prefix: String in allowed_prefixes:
		if path.begins_with(prefix) and path.length() > prefix.length():
			return {"ok": true, "path": path}
	return _refuse("PATH_DENIED", "save_path must be under %s: %s" % [" or ".join(allowed_prefixes), raw])


static func _refuse(code: String, message: String) -> Dictionary:
	return {"ok": false, "error": ToolkitError.fail(code, message)}
