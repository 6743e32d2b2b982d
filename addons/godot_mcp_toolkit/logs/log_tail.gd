@tool
extends RefCounted
## Follows a growing log file: each read_new() returns the complete lines written since the last
## one. A file that got shorter was rotated or truncated, so reading starts over at its top. Used
## where the engine has no Logger API (before Godot 4.5) to see the game's errors as they are
## printed. RUNTIME-REACHABLE.

## One read takes at most this much; a burst larger than that is read over several calls.
const MAX_CHUNK_BYTES := 256 * 1024

var _path := ""
var _offset := 0
## The unfinished last line of the previous read, as bytes (a read may end inside a character).
var _partial := PackedByteArray()


## `from_start` false skips what the file holds already (only lines written later are returned).
func _init(path: String, from_start: bool = true) -> void:
	_path = path
	if not from_start and FileAccess.file_exists(path):
		var file := FileAccess.open(path, FileAccess.READ)
		if file != null:
			_offset = file.get_length()


func path() -> String:
	return _path


## The complete lines added since the last call (none when the file does not exist).
func read_new() -> PackedStringArray:
	if _path.is_empty() or not FileAccess.file_exists(_path):
		return PackedStringArray()
	var file := FileAccess.open(_path, FileAccess.READ)
	if file == null:
		return PackedStringArray()
	var length := file.get_length()
	if length < _offset:
		_offset = 0
		_partial = PackedByteArray()
	if length == _offset:
		return PackedStringArray()
	file.seek(_offset)
	var chunk := file.get_buffer(mini(length - _offset, MAX_CHUNK_BYTES))
	_offset += chunk.size()
	var bytes := _partial + chunk
	var end := bytes.rfind(10)  # the last "\n"
	if end < 0:
		_partial = bytes
		return PackedStringArray()
	_partial = bytes.slice(end + 1)
	return bytes.slice(0, end).get_string_from_utf8().split("\n")
