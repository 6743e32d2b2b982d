@tool
extends RefCounted
## The game's command line as the editor builds it from the project setting editor/run/main_run_args:
## where an engine argument (such as --headless) must go in it so Godot reads it, and a play with
## the setting changed for that one launch (the editor context's play_scene). Runtime-safe.
##
## The setting is split on spaces (quotes keep a space inside one argument). With "%command%" the
## part before it wraps the executable and only the part after it reaches Godot. A standalone
## "--" or "++" starts the game's own arguments, which the engine does not read, so an engine
## argument goes before it.

const SETTING := "editor/run/main_run_args"
const PLACEHOLDER := "%command%"
const USER_ARGS := ["--", "++"]


## Calls `play` with `extra` in the setting, then puts the setting back as it was. The editor reads
## it when it starts the game: 4.2 at once, 4.3+ through its Run Instances dialog, which takes a
## change one frame later (its settings_changed is deferred), so `wait_frame` is awaited in between.
## Nothing here saves project.godot.
static func play_with(extra: PackedStringArray, play: Callable, wait_frame: Callable) -> void:
	var previous := str(ProjectSettings.get_setting(SETTING, ""))
	var changed := with_extra(previous, extra)
	if changed != previous:
		ProjectSettings.set_setting(SETTING, changed)
		await wait_frame.call()
	play.call()
	if changed != previous:
		ProjectSettings.set_setting(SETTING, previous)


## `raw` with each of `extra` added where Godot reads it as an engine argument; `raw` itself when
## every one is there already.
static func with_extra(raw: String, extra: PackedStringArray) -> String:
	var tokens := split(raw)
	var start := tokens.find(PLACEHOLDER) + 1
	var insert_at := tokens.size()
	for index in range(start, tokens.size()):
		if tokens[index] in USER_ARGS:
			insert_at = index
			break
	var engine_part := tokens.slice(start, insert_at)
	var missing := PackedStringArray()
	for argument: String in extra:
		if not argument in engine_part and not argument in missing:
			missing.append(argument)
	if missing.is_empty():
		return raw
	var joined := tokens.slice(0, insert_at)
	joined.append_array(missing)
	joined.append_array(tokens.slice(insert_at))
	return " ".join(joined)


## Space-separated arguments; a quoted part (single or double quotes) keeps its spaces and quotes.
static func split(raw: String) -> PackedStringArray:
	var tokens := PackedStringArray()
	var current := ""
	var quote := ""
	for character: String in raw:
		if quote.is_empty() and character == " ":
			if not current.is_empty():
				tokens.append(current)
			current = ""
			continue
		if character == "\"" or character == "'":
			if quote.is_empty():
				quote = character
			elif quote == character:
				quote = ""
		current += character
	if not current.is_empty():
		tokens.append(current)
	return tokens
