@tool
extends RefCounted
## Whether a folder exists, the one way every part of the toolkit asks. A scheme root (`res://`,
## `user://`) always exists: DirAccess.dir_exists_absolute("res://") is false on some platform
## builds (the web engine's file system among them), which would refuse a file at the top of the
## project. Runtime-safe.


static func exists(path: String) -> bool:
	if path.ends_with("://"):
		return true
	return DirAccess.dir_exists_absolute(path)
