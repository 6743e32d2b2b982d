@tool
extends RefCounted
## After project.godot is put back on disk, the in-memory ProjectSettings must say the same, or
## the editor's next save would write the undone settings back. Compares the file before and after
## the restore and applies the difference. Runtime-safe.


## Applies to ProjectSettings every setting that differs between the two project.godot texts: a
## setting gone from the restored file returns to its default (or is erased when it has none).
static func apply(before_text: String, after_text: String) -> void:
	var before := _settings(before_text)
	var after := _settings(after_text)
	for name: String in after:
		if not before.has(name) or before[name] != after[name]:
			ProjectSettings.set_setting(name, after[name])
	for name: String in before:
		if after.has(name):
			continue
		if ProjectSettings.property_can_revert(name):
			ProjectSettings.set_setting(name, ProjectSettings.property_get_revert(name))
		else:
			ProjectSettings.set_setting(name, null)


## "section/key" -> value for every setting in a project.godot text (top-level keys such as
## config_version are the file format's, not settings).
static func _settings(text: String) -> Dictionary:
	var config := ConfigFile.new()
	var found := {}
	if config.parse(text) != OK:
		return found
	for section: String in config.get_sections():
		if section.is_empty():
			continue
		for key: String in config.get_section_keys(section):
			found[section + "/" + key] = config.get_value(section, key)
	return found
