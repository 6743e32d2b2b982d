@tool
extends RefCounted
## Where a log read comes from: "buffer" (this process's output since capture started, Godot
## 4.5+) or "file" (the engine's log file). Shared by editor.get_console and the game's
## debugger.get_log. RUNTIME-REACHABLE.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const LogBuffer := preload("res://addons/godot_mcp_toolkit/logs/log_buffer.gd")
const LogCapture := preload("res://addons/godot_mcp_toolkit/logs/log_capture.gd")
const LogFile := preload("res://addons/godot_mcp_toolkit/logs/log_file.gd")
const LogQuery := preload("res://addons/godot_mcp_toolkit/logs/log_query.gd")
const LogHub := preload("res://addons/godot_mcp_toolkit/logs/log_hub.gd")

const SOURCES := ["buffer", "file"]


## What a log command reads, bound to its handler: the hub's buffer and capture, and `log_file`
## ("" for the engine's own log file; tests pass another).
static func of(hub: LogHub, log_file: String) -> Dictionary:
	return {"buffer": hub.buffer, "capture": hub.capture, "file": log_file}


## {} when `source` names a source, else the INVALID_PARAMS envelope.
static func check(source: Variant) -> Dictionary:
	if source is String and source in SOURCES:
		return {}
	return ToolkitError.fail("INVALID_PARAMS", "source must be 'buffer' or 'file'")


## The default source: the buffer where this engine can fill one.
static func default_source(capture: LogCapture) -> String:
	return "buffer" if capture.is_attached() else "file"


## {"ok": true, "entries"} or {"ok": false, "error": LOG_UNAVAILABLE with a version-aware hint}.
static func read(source: String, capture: LogCapture, buffer: LogBuffer, log_file: String) -> Dictionary:
	if source == "buffer":
		if not capture.is_attached():
			return {"ok": false, "error": ToolkitError.fail("LOG_UNAVAILABLE",
				"The output buffer needs Godot 4.5+ (this is %s)" % Engine.get_version_info()["string"],
				"Pass source='file' to read the engine's log file instead.")}
		return {"ok": true, "entries": buffer.entries()}
	var file := LogFile.read(log_file if not log_file.is_empty() else LogFile.path())
	if not file["ok"]:
		var hint := "Pass source='buffer' to read what was printed since the toolkit started." \
			if capture.is_attached() else "Enable debug/file_logging/enable_file_logging and restart."
		return {"ok": false, "error": ToolkitError.fail("LOG_UNAVAILABLE", "The log file cannot be read: %s"
			% file["reason"], hint)}
	return {"ok": true, "entries": file["entries"]}


## One page of `params.source` (default: the buffer where this engine fills one), filtered by
## `chosen` (LogQuery.filters_of), its entries labelled `kind` from "<origin>:<source>", with the
## source named: {"ok": true, "result"} or {"ok": false, "error"}. `sources`: the log hub's
## "capture", "buffer" and "file".
static func page(params: Dictionary, sources: Dictionary, chosen: Dictionary, kind: String,
		origin: String) -> Dictionary:
	var capture: LogCapture = sources["capture"]
	var source: Variant = params.get("source", default_source(capture))
	var bad_source := check(source)
	if not bad_source.is_empty():
		return {"ok": false, "error": bad_source}
	var entries := read(source, capture, sources["buffer"], sources["file"])
	if not entries["ok"]:
		return entries
	var result := LogQuery.page(entries["entries"], chosen, kind, "%s:%s" % [origin, source])
	result["source"] = source
	return {"ok": true, "result": result}
