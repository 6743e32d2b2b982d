@tool
extends RefCounted
## Tells a crash of the game from a normal end (editor side), and builds the
## `game_crashed` report: {"exit_code": null, "last_lines": [...], "log_path": "..."}.
##
## The rule, from two facts the editor can see when the game's debugger session ends:
## - who ended it: when the editor stops the game (its Stop button, game.stop) it counts the game
##   as stopped *before* the session ends; when the game's process goes away by itself the session
##   ends while the editor still counts it as playing (the editor kills the child a frame later);
## - how it ended: a game that quits normally (get_tree().quit(), closing its window) runs its
##   tree's exit, where the runtime server withdraws its entry from the registry; a crashed game
##   leaves the entry behind.
## So: a crash is a session that ended while still playing with the game's runtime entry still
## published. A game whose runtime server never published (no toolkit autoload, no free port)
## cannot be judged and is never reported. The exit code is not visible to an editor plugin, so
## it is null. Pure logic (the plugin feeds it); RUNTIME-REACHABLE.

const Scrubber := preload("res://addons/godot_mcp_toolkit/security/scrubber.gd")
const Untrusted := preload("res://addons/godot_mcp_toolkit/security/untrusted.gd")

const EVENT := "game_crashed"
const LAST_LINES := 30
## The end of the log file read for the last lines.
const TAIL_BYTES := 64 * 1024

var _reported := false


## The editor's play state changed; a new play arms the watch again.
func play_state(playing: bool) -> void:
	if playing:
		_reported = false


## The game's debugger session ended. `still_playing`: the editor still counts the game as
## running; `runtime_entry_present`: the game's runtime entry is still in the registry. True (once
## per play) when that makes it a crash.
func session_ended(still_playing: bool, runtime_entry_present: bool) -> bool:
	if _reported or not still_playing or not runtime_entry_present:
		return false
	_reported = true
	return true


## The notification's params: the last `count` lines of the game's log file (secrets scrubbed),
## and the file's absolute path ("" and no lines when file logging is off).
static func report(log_path: String, exit_code: Variant = null, count: int = LAST_LINES) -> Dictionary:
	return {"exit_code": exit_code if exit_code is int else null, "last_lines": last_lines(log_path, count),
		"log_path": ProjectSettings.globalize_path(log_path) if not log_path.is_empty() else ""}


## The last `count` non-empty lines of the file at `path`, oldest first.
static func last_lines(path: String, count: int) -> Array[String]:
	var lines: Array[String] = []
	if path.is_empty() or not FileAccess.file_exists(path):
		return lines
	var file := FileAccess.open(path, FileAccess.READ)
	if file == null:
		return lines
	var length := file.get_length()
	var start := maxi(length - TAIL_BYTES, 0)
	file.seek(start)
	var text := file.get_buffer(length - start).get_string_from_utf8()
	var all := text.split("\n")
	if start > 0 and all.size() > 0:
		all.remove_at(0)  # a partial first line
	var kept := PackedStringArray()
	for line: String in all:
		if not line.strip_edges().is_empty():
			kept.append(line.strip_edges(false, true))
	for line: String in kept.slice(maxi(kept.size() - count, 0)):
		lines.append(Untrusted.strip_tags(Scrubber.scrub(line)))
	return lines
