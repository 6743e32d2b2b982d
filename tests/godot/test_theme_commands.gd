extends RefCounted
## The theme domain (commands/theme/theme_commands.gd): a Theme .tres created and edited in batches,
## reloaded from disk, an edit of the existing file undone and redone, all-or-nothing refusals,
## fonts and icons from res:// resources, and clearing an item with null.
##
## Not covered here (only an editor shows it): the theme editor panel and controls re-theming live.

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")

const DOMAIN := "theme"
const SCRATCH := "res://tmp_tests/theme"
const DOMAIN_PATH := "res://addons/godot_mcp_toolkit/commands/theme/theme_commands.gd"

var _fx: DomainFixture = null


func _init() -> void:
	var domains: Array[String] = [DOMAIN_PATH]
	_fx = DomainFixture.new(domains, DOMAIN, null, SCRATCH)


func cleanup() -> void:
	_fx.cleanup()


## Example `index` of theme.edit.
func _example(index: int = 0) -> Dictionary:
	return _fx.example("theme.edit", index)


func _from_disk(path: String) -> Theme:
	return ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE) as Theme


func test_new_theme_saved_with_every_item() -> void:
	var path := SCRATCH.path_join("ui.tres")
	var result := _example()
	Assert.eq(Array(result["type_names"]).size(), 3, "three control types")
	var theme := _from_disk(path)
	Assert.eq(theme.get_color("font_color", "Button"), Color(1, 0.8, 0), "color saved")
	Assert.eq(theme.get_font_size("font_size", "Label"), 24, "font size saved")
	var panel := theme.get_stylebox("panel", "Panel") as StyleBoxFlat
	Assert.eq(panel.bg_color, Color("#202030"), "stylebox color saved")
	Assert.eq([panel.corner_radius_top_left, panel.border_width_bottom], [6, 2], "radius and border saved")
	Assert.is_true(path in _fx.context.runtime_project.refreshed_files, "editor told")


func test_edit_existing_with_undo_and_clear() -> void:
	var path := SCRATCH.path_join("ui.tres")
	_example()
	var cleared := _fx.invoke("theme.edit", {"file_path": path, "edits": [
		{"type_name": "Button", "property_type": "color", "property": "font_color", "value": null},
		{"type_name": "Button", "property_type": "constant", "property": "h_separation", "value": 8}]})
	Assert.is_true(cleared["applied"][0]["cleared"], "said cleared")
	var theme := _from_disk(path)
	Assert.is_false(theme.has_color("font_color", "Button"), "color cleared in the file")
	Assert.eq(theme.get_constant("h_separation", "Button"), 8, "constant saved")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	theme = _from_disk(path)
	Assert.is_true(theme.has_color("font_color", "Button"), "color back")
	Assert.is_false(theme.has_constant("h_separation", "Button"), "constant gone again")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.eq(_from_disk(path).get_constant("h_separation", "Button"), 8, "redo re-applied")


func test_bad_batch_changes_nothing() -> void:
	var path := SCRATCH.path_join("ui.tres")
	_example()
	var before := FileAccess.get_file_as_string(path)
	_example(1)
	var bad := [
		[],
		[{"type_name": "", "property_type": "color", "property": "x", "value": "red"}],
		[{"type_name": "Label", "property_type": "color", "property": "x"}],
		[{"type_name": "Label", "property_type": "font_size", "property": "x", "value": -3}],
		[{"type_name": "Label", "property_type": "font", "property": "font", "value": "res://nope.tres"}],
		[{"type_name": "Label", "property_type": "icon", "property": "i", "value": path}],
		[{"type_name": "Panel", "property_type": "stylebox", "property": "p", "value": {"type": "StyleBoxLine"}}],
		[{"type_name": "Panel", "property_type": "stylebox", "property": "p", "value": {"corner_radius": "big"}}],
	]
	for edits: Array in bad:
		Assert.eq(_fx.invoke("theme.edit", {"file_path": path, "edits": edits})["code"], "INVALID_PARAMS", str(edits))
	Assert.eq(FileAccess.get_file_as_string(path), before, "file untouched")
	Assert.eq(_fx.invoke("theme.edit", {"file_path": "res://nowhere/t.tres", "edits": [{}]})["code"], "PARENT_NOT_FOUND",
		"missing folder")
	var gradient_path := SCRATCH.path_join("g.tres")
	ResourceSaver.save(Gradient.new(), gradient_path)
	Assert.eq(_fx.invoke("theme.edit", {"file_path": gradient_path, "edits": [{"type_name": "Label",
		"property_type": "constant", "property": "c", "value": 1}]})["code"], "INVALID_CLASS", "not a theme")


func test_font_and_icon_from_resources() -> void:
	var font_path := SCRATCH.path_join("font.tres")
	var icon_path := SCRATCH.path_join("icon.tres")
	Assert.eq(ResourceSaver.save(FontVariation.new(), font_path), OK, "font resource")
	var texture := GradientTexture2D.new()
	texture.width = 16
	texture.height = 16
	Assert.eq(ResourceSaver.save(texture, icon_path), OK, "icon resource")
	var path := SCRATCH.path_join("fonts.tres")
	var result := _fx.invoke("theme.edit", {"file_path": path, "edits": [
		{"type_name": "Label", "property_type": "font", "property": "font", "value": font_path},
		{"type_name": "CheckBox", "property_type": "icon", "property": "checked", "value": icon_path},
		{"type_name": "Panel", "property_type": "stylebox", "property": "panel", "value": {"type": "StyleBoxEmpty"}}]})
	Assert.eq(result["applied"].size(), 3, "all three applied")
	var theme := _from_disk(path)
	Assert.is_true(theme.get_font("font", "Label") is FontVariation, "font saved")
	Assert.eq(theme.get_icon("checked", "CheckBox").get_width(), 16, "icon saved")
	Assert.is_true(theme.get_stylebox("panel", "Panel") is StyleBoxEmpty, "empty stylebox saved")


func test_an_item_the_class_does_not_read_is_stored_with_a_warning() -> void:
	var path := SCRATCH.path_join("ui.tres")
	Assert.is_false(_example().has("warnings"), "items the classes read: no warning")
	Assert.contains(str(_example(2)["warnings"][0]), "did you mean font_color?", "the example's warning")
	var result := _fx.invoke("theme.edit", {"file_path": path, "edits": [
		{"type_name": "Button", "property_type": "color", "property": "font_colour", "value": "red"},
		{"type_name": "Button", "property_type": "color", "property": "font_color", "value": "red"},
		{"type_name": "Label", "property_type": "color", "property": "font_size", "value": "red"},
		{"type_name": "MyWidget", "property_type": "color", "property": "anything", "value": "red"}]})
	Assert.eq(result["success"], true, "stored: a script may read a custom item by name")
	Assert.is_true(_from_disk(path).has_color("font_colour", "Button"), "as asked")
	var warnings: Array = result.get("warnings", [])
	Assert.eq(warnings.size(), 2, "one warning per item the class does not read: %s" % JSON.stringify(warnings))
	Assert.contains(str(warnings[0]) if warnings.size() > 0 else "", "edits[0]: Button has no color item 'font_colour' "
		+ "(did you mean font_color?)", "names the close match")
	Assert.contains(str(warnings[1]) if warnings.size() > 1 else "", "edits[2]: Label reads 'font_size' as a font_size "
		+ "item, not a color", "a name of another kind says which kind")
	# The instance theme.edit reads (the loaded one, as in the editor), saved to disk too.
	var theme := ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_REUSE) as Theme
	theme.set_type_variation("HeaderLabel", "Label")
	ResourceSaver.save(theme, path)
	var variation := _fx.invoke("theme.edit", {"file_path": path, "edits": [
		{"type_name": "HeaderLabel", "property_type": "color", "property": "font_colour", "value": "red"}]})
	Assert.contains(str(variation.get("warnings", [""])[0]), "HeaderLabel has no color item 'font_colour'",
		"a type variation is checked against its base class")
