@tool
extends RefCounted
## The session token (contract C2, C18): 32 random bytes as 64 lowercase hex, regenerated on every
## editor start and written raw (no newline) to
## user://addons/godot_mcp_toolkit/project_instance_<12 hex>/mcp_token, or to $GODOT_MCP_TOKEN_PATH.
## The game process reads the same file. Whoever reads it can run code in the editor, so where the
## platform has Unix permissions the file is 0600 before the token is in it, and the per-project
## folder 0700 (an operator's override folder is left as it is). Runtime-safe: names no Editor* class.

const ProjectPaths := preload("res://addons/godot_mcp_toolkit/paths/project_paths.gd")
const Folders := preload("res://addons/godot_mcp_toolkit/base/folders.gd")

const TOKEN_FILE := "mcp_token"
const ENV_TOKEN_PATH := "GODOT_MCP_TOKEN_PATH"
const TOKEN_BYTES := 32
## Owner-only modes: octal 700 for the folder, 600 for the file.
const PRIVATE_FOLDER := 0x1C0
const PRIVATE_FILE := 0x180

var _getenv: Callable
var _project_path := ""
var _token := ""


## `getenv(name) -> String` answers "" for unset; defaults to the process environment.
## `project_path` defaults to the running project.
func _init(getenv: Callable = Callable(), project_path: String = "") -> void:
	_getenv = getenv if getenv.is_valid() else Callable(OS, "get_environment")
	_project_path = project_path


static func generate_token() -> String:
	return Crypto.new().generate_random_bytes(TOKEN_BYTES).hex_encode()


## Where in-engine code reads and writes the token (user:// form unless overridden).
func get_token_path() -> String:
	if _overridden():
		return str(_getenv.call(ENV_TOKEN_PATH)).strip_edges()
	return ProjectPaths.instance_file(TOKEN_FILE, _project_path)


## The absolute path published in the registry entry; the bridge reads the token from here.
func get_published_token_path() -> String:
	return ProjectSettings.globalize_path(get_token_path())


func get_token() -> String:
	return _token


## Editor: a fresh token, written to disk. Returns the write error (OK on success).
func start() -> Error:
	_token = generate_token()
	return _write(get_token_path(), _token)


## Game process: adopt whatever the editor last wrote. Re-read on every auth attempt, because the
## editor may have rotated the token since the game started.
func load_existing() -> Error:
	var path := get_token_path()
	if not FileAccess.file_exists(path):
		_token = ""
		return ERR_FILE_NOT_FOUND
	_token = FileAccess.get_file_as_string(path).strip_edges()
	return OK if not _token.is_empty() else ERR_INVALID_DATA


## Plain equality, as the contract specifies; an empty token never validates.
func validate(candidate: Variant) -> bool:
	return candidate is String and not _token.is_empty() and candidate == _token


## Editor shutdown: forget the token and delete the file we wrote, unless it was an operator's
## override or another editor has since replaced its content.
func stop() -> void:
	var path := get_token_path()
	if not _overridden() and not _token.is_empty() and FileAccess.file_exists(path):
		if FileAccess.get_file_as_string(path) == _token:
			DirAccess.remove_absolute(ProjectSettings.globalize_path(path))
	_token = ""


func _write(path: String, token: String) -> Error:
	var absolute := ProjectSettings.globalize_path(path)
	var directory := absolute.get_base_dir()
	if not Folders.exists(directory):
		var made := DirAccess.make_dir_recursive_absolute(directory)
		if made != OK:
			return made
	if not _overridden():
		var locked := make_private(directory, PRIVATE_FOLDER)
		if locked != OK:
			return locked
	# Opened in place: WRITE would fill a temporary file beside it (mode from the umask, or 0666) and
	# rename it over. Made private while still empty, so the token never sits in a readable file.
	var file := FileAccess.open(path, FileAccess.WRITE_READ)
	if file == null:
		return FileAccess.get_open_error()
	var restricted := make_private(absolute, PRIVATE_FILE)
	if restricted != OK:
		file.close()
		return restricted
	file.store_string(token)
	file.close()
	return OK


## True when an operator chose the token file ($GODOT_MCP_TOKEN_PATH): its folder is theirs.
func _overridden() -> bool:
	return not str(_getenv.call(ENV_TOKEN_PATH)).strip_edges().is_empty()


## Sets `mode` on the file or folder at the absolute `path`; OK where the platform has no Unix
## permissions (Windows keeps user:// private through the profile's access rules).
static func make_private(path: String, mode: int) -> Error:
	var error := FileAccess.set_unix_permissions(path, mode)
	return OK if error == ERR_UNAVAILABLE else error
