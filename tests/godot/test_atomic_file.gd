extends RefCounted
## registry/store/atomic_file.gd: a replacing write is one rename of the finished temp file over
## the target, so the target never goes missing and no sibling file is touched.

const Assert := preload("assert.gd")
const AtomicFile := preload("res://addons/godot_mcp_toolkit/registry/store/atomic_file.gd")

var _dir := ""


func test_replacing_write_never_moves_the_target_aside() -> void:
	var path := _scratch().path_join("projects.json")
	Assert.eq(AtomicFile.write_text(path, "old\n"), OK, "first write")
	# A file of the user's own beside the target: the old tmp -> .bak -> target dance deleted it.
	_write(path + ".bak", "the user's backup")
	Assert.eq(AtomicFile.write_text(path, "new\n"), OK, "replacing write")
	Assert.eq(FileAccess.get_file_as_string(path), "new\n", "new content in place")
	Assert.eq(FileAccess.get_file_as_string(path + ".bak"), "the user's backup", "sibling .bak untouched")
	Assert.is_false(FileAccess.file_exists(path + ".tmp"), "temp file consumed by the rename")


func test_a_stale_temp_file_is_overwritten() -> void:
	var path := _scratch().path_join("entry.json")
	_write(path + ".tmp", "left by a crash")
	Assert.eq(AtomicFile.write_json(path, {"port": 6550}), OK, "write succeeds")
	Assert.eq(AtomicFile.read_json_object(path), {"port": 6550}, "fresh content")
	Assert.is_false(FileAccess.file_exists(path + ".tmp"), "no temp left")


func test_a_target_that_is_a_directory_is_left_alone() -> void:
	var path := _scratch().path_join("occupied")
	DirAccess.make_dir_recursive_absolute(path)
	Assert.ne(AtomicFile.write_text(path, "x"), OK, "cannot replace a directory")
	Assert.is_true(DirAccess.dir_exists_absolute(path), "directory still there")
	Assert.is_false(FileAccess.file_exists(path + ".tmp"), "temp cleaned up")


func cleanup() -> void:
	if _dir.is_empty():
		return
	for sub: String in DirAccess.get_directories_at(_dir):
		DirAccess.remove_absolute(_dir.path_join(sub))
	for file_name: String in DirAccess.get_files_at(_dir):
		DirAccess.remove_absolute(_dir.path_join(file_name))
	DirAccess.remove_absolute(_dir)


func _scratch() -> String:
	if _dir.is_empty():
		_dir = OS.get_user_data_dir().path_join("atomic_file_test_%d" % randi())
		DirAccess.make_dir_recursive_absolute(_dir)
	return _dir


func _write(path: String, text: String) -> void:
	var file := FileAccess.open(path, FileAccess.WRITE)
	file.store_string(text)
	file.close()
