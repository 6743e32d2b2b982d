extends RefCounted
## settings/settings_registration.gd: set_int makes a change last (saved with the project settings)
## while a value at its default is never written to project.godot.

const Assert := preload("assert.gd")
const Settings := preload("res://addons/godot_mcp_toolkit/settings/settings_registration.gd")

var _saves: Array[int] = []
var _dir := ""


func _init() -> void:
	Settings.set_persister(func() -> Error:
		_saves.append(Settings.get_int(Settings.WS_BUFFER_KB))
		return OK)


func cleanup() -> void:
	Settings.set_persister(Callable())
	ProjectSettings.set_setting(Settings.WS_BUFFER_KB, null)
	if not _dir.is_empty():
		for file_name: String in DirAccess.get_files_at(_dir):
			DirAccess.remove_absolute(_dir.path_join(file_name))
		DirAccess.remove_absolute(_dir)


func test_a_change_is_saved_once() -> void:
	Assert.eq(Settings.set_int(Settings.WS_BUFFER_KB, 2048), 2048, "stored")
	Assert.eq(_saves, [2048], "saved with the new value in place")
	Settings.set_int(Settings.WS_BUFFER_KB, 2048)
	Assert.eq(_saves, [2048], "an unchanged value is not saved again")
	Settings.set_int(Settings.WS_BUFFER_KB, 1024)
	Assert.eq(_saves, [2048, 1024], "going back to the default is saved too")


func test_an_unchanged_default_is_not_saved() -> void:
	Settings.set_int(Settings.WS_BUFFER_KB, Settings.default_of(Settings.WS_BUFFER_KB))
	Assert.eq(_saves, [], "nothing changed, nothing saved")


func test_only_a_non_default_value_reaches_the_file() -> void:
	var path := _scratch().path_join("settings.godot")
	Settings.set_int(Settings.WS_BUFFER_KB, 4096)
	Assert.eq(ProjectSettings.save_custom(path), OK, "written")
	Assert.contains(FileAccess.get_file_as_string(path), "ws_buffer_kb=4096", "the change is in the file")
	Settings.set_int(Settings.WS_BUFFER_KB, 1024)
	Assert.eq(ProjectSettings.save_custom(path), OK, "written again")
	Assert.is_false(FileAccess.get_file_as_string(path).contains("ws_buffer_kb"), "a default is left out")


func _scratch() -> String:
	if _dir.is_empty():
		_dir = OS.get_user_data_dir().path_join("settings_test_%d" % randi())
		DirAccess.make_dir_recursive_absolute(_dir)
	return _dir
