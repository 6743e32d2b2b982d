@tool
extends RefCounted
## The shape of one registry entry and of one runtime overlay (contract C16, C20). Pure.
##
## Field names are read by the bridge (godot_bridge/editor/registry.py RegistryEntry) and must
## not drift; FIELDS is the full, ordered list the projection emits for every project.

const FIELDS := [
	"_key", "port", "token_path", "pid", "started_at", "godot_version",
	"runtime_port", "runtime_pid", "lsp_host", "lsp_port",
]
const RUNTIME_FIELDS := ["runtime_port", "runtime_pid"]
## Our additions beyond the reference's entry (which ignores unknown fields): published only when
## set, so entries without them project exactly as before. godot_path = the editor's executable,
## which the bridge's editor_launch starts when GODOT_BIN is not set.
const OPTIONAL_FIELDS := ["godot_path"]
## Port published by an entry that only a game process wrote (no editor is listening).
const NO_EDITOR_PORT := -1


## The editor's entry. Runtime fields start empty: they come from the game's overlay.
static func build_entry(key: String, port: int, token_path: String, pid: int, started_at: float,
		godot_version: String, lsp_host: String, lsp_port: int) -> Dictionary:
	return {
		"_key": key,
		"port": port,
		"token_path": token_path,
		"pid": pid,
		"started_at": started_at,
		"godot_version": godot_version,
		"runtime_port": null,
		"runtime_pid": null,
		"lsp_host": lsp_host if not lsp_host.is_empty() else null,
		"lsp_port": lsp_port if lsp_port > 0 else null,
	}


## What the game process publishes about itself.
static func build_runtime(key: String, runtime_port: int, runtime_pid: int, started_at: float,
		godot_version: String) -> Dictionary:
	return {
		"_key": key,
		"runtime_port": runtime_port,
		"runtime_pid": runtime_pid,
		"started_at": started_at,
		"godot_version": godot_version,
	}


## An entry for a game running with no editor entry to overlay onto: the bridge reads it for
## runtime discovery and sees no editor port, token or LSP.
static func runtime_only_entry(overlay: Dictionary) -> Dictionary:
	var entry := {}
	for field: String in FIELDS:
		entry[field] = null
	entry["_key"] = overlay["_key"]
	entry["port"] = NO_EDITOR_PORT
	entry["token_path"] = ""
	entry["pid"] = overlay.get("runtime_pid")
	entry["started_at"] = overlay.get("started_at")
	entry["godot_version"] = overlay.get("godot_version")
	return entry
