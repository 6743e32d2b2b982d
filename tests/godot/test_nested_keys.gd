extends RefCounted
## A misspelt key inside a nested object (a cell, a point, an event, a color) is refused by name,
## with the keys that object takes, and nothing changes; a dropped key would otherwise leave its
## default in place and the call would succeed doing something else. The bridge catches these
## where the catalogue schema lists the nested keys, but the reference bridge does not, so the
## toolkit refuses them itself, at every place it reads a nested object. One case per place, each
## through the registered handler over a runtime context.
##
## The C7 tag key "type" stays allowed where a vector or color is read ({"type": "Vector2", ...}).

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")
const RuntimeDomains := preload("res://addons/godot_mcp_toolkit/runtime/runtime_domains.gd")

const SCRATCH := "res://tmp_tests/nested_keys"
const SHEET := SCRATCH + "/sheet.tres"
const WORLD := SCRATCH + "/world.tres"
const GRADIENT := SCRATCH + "/ramp.tres"
const CURVE := SCRATCH + "/curve.tres"
const FRAMES := SCRATCH + "/frames.tres"

var _root: Node2D = null
var _fx: DomainFixture = null


func _init() -> void:
	_root = Node2D.new()
	_root.name = "Main"
	for child: Node in [Node2D.new(), NavigationRegion2D.new(), Path2D.new(), Control.new(), AnimationTree.new()]:
		child.name = {"Node2D": "Player", "NavigationRegion2D": "Region", "Path2D": "Path", "Control": "UI",
			"AnimationTree": "Tree"}[child.get_class()]
		_root.add_child(child)
		child.owner = _root
	(_root.get_node("Region") as NavigationRegion2D).navigation_polygon = NavigationPolygon.new()
	(_root.get_node("Path") as Path2D).curve = Curve2D.new()
	(_root.get_node("Tree") as AnimationTree).tree_root = AnimationNodeStateMachine.new()
	var domains: Array[String] = []
	domains.append_array(CommandDomains.DOMAINS)
	domains.append_array(RuntimeDomains.DOMAINS)
	_fx = DomainFixture.new(domains, "", _root, SCRATCH)
	var sheet := ImageTexture.create_from_image(Image.create(64, 16, false, Image.FORMAT_RGBA8))
	ResourceSaver.save(sheet, SHEET)
	var tile_set := TileSet.new()
	tile_set.add_physics_layer()
	var source := TileSetAtlasSource.new()
	source.texture = load(SHEET)
	source.texture_region_size = Vector2i(16, 16)
	source.create_tile(Vector2i(0, 0))
	tile_set.add_source(source, 0)
	ResourceSaver.save(tile_set, WORLD)
	ResourceSaver.save(Gradient.new(), GRADIENT)
	ResourceSaver.save(Curve.new(), CURVE)
	var frames := SpriteFrames.new()
	ResourceSaver.save(frames, FRAMES)


func cleanup() -> void:
	_fx.cleanup()


## [method, params, the unknown key the refusal must name]
func _cases() -> Array:
	var red := {"r": 1, "g": 0, "b": 0}
	return [
		["3d.create_primitive", {"parent_path": ".", "primitive": "box", "material": {"albedo_colour": red}},
			"albedo_colour"],
		["3d.create_primitive", {"parent_path": ".", "primitive": "box", "material": {"albedo_color": {
			"r": 1, "g": 0, "b": 0, "alpha": 1}}}, "alpha"],
		["3d.create_primitive", {"parent_path": ".", "primitive": "box", "size": {"x": 1, "y": 1, "z": 1, "w": 1}}, "w"],
		["3d.create_light", {"parent_path": ".", "light_type": "omni", "rotation": {"x": 0, "y": 0, "zz": 1}}, "zz"],
		["3d.setup_environment", {"parent_path": ".", "sky": {"top_color": red}}, "top_color"],
		["3d.setup_environment", {"parent_path": ".", "ambient_light": {"colour": red}}, "colour"],
		["3d.setup_environment", {"parent_path": ".", "fog": {"density": 0.1, "enable": true}}, "enable"],
		["particles.create", {"parent_path": ".", "type": "2d", "initial_velocity": {"min": 1, "maximum": 2}},
			"maximum"],
		["particles.create", {"parent_path": ".", "type": "2d", "color_ramp": {"points": [
			{"offset": 0, "color": red, "position": 1}]}}, "position"],
		["particles.create", {"parent_path": ".", "type": "2d", "color_ramp": {"points": [{"offset": 0, "color": red}],
			"mode": "linear"}}, "mode"],
		["particles.create", {"parent_path": ".", "type": "2d", "scale_curve": {"points": [{"x": 0, "y": 1, "t": 0}]}},
			"t"],
		["particles.create", {"parent_path": ".", "type": "3d", "gravity": {"x": 0, "y": -9, "z": 0, "g": 1}}, "g"],
		["particles.create", {"parent_path": ".", "type": "2d", "color": {"r": 1, "g": 1, "b": 1, "alpha": 1}}, "alpha"],
		["navigation.edit_polygon", {"node_path": "Region", "action": "add_outline", "outline": [
			{"x": 0, "y": 0}, {"x": 10, "y": 0}, {"x": 10, "y": 10, "z": 1}]}, "z"],
		["path2d.edit_curve", {"node_path": "Path", "action": "add", "points": [{"position": {"x": 0, "y": 0},
			"handle_in": {"x": 1, "y": 1}}]}, "handle_in"],
		["path2d.edit_curve", {"node_path": "Path", "action": "add", "points": [{"position": {"x": 0, "y": 0, "z": 0}}]},
			"z"],
		["procedural.edit_gradient", {"file_path": GRADIENT, "action": "add_point", "points": [
			{"offset": 0.5, "color": red, "colour": red}]}, "colour"],
		["procedural.edit_curve", {"file_path": CURVE, "action": "add_point", "points": [
			{"position": {"x": 0.5, "y": 0.5}, "left_tangents": 0}]}, "left_tangents"],
		["audiobus.edit", {"action": "add_effect", "bus_index": 0, "effect": {"type": "AudioEffectReverb",
			"enable": true}}, "enable"],
		["control.set_layout", {"node_path": "UI", "preset": "full_rect", "margins": {"left": 4, "rigth": 4}}, "rigth"],
		["animationtree.edit", {"node_path": "Tree", "action": "add_node", "node_name": "walk",
			"position": {"x": 0, "y": 0, "z": 0}}, "z"],
		["node.groups", {"action": "add", "entries": [{"node_path": "Player", "group": "heroes", "persist": true}]},
			"persist"],
		["node.set_property", {"batch": [{"node_path": "Player", "property": "visible", "value": false,
			"unique": true}]}, "unique"],
		["scene.query", {"property_filters": [{"property": "visible", "value": true, "op": "eq"}]}, "op"],
		["input.simulate", {"events": [{"event_type": "action", "event_data": {"action": "ui_accept"},
			"delay_ms": 10}]}, "delay_ms"],
		["input.simulate", {"events": [{"event_type": "key", "event_data": {"keycode": "A", "control": true}}]},
			"control"],
		["input.simulate", {"events": [{"event_type": "click", "event_data": {"position": {"x": 1, "y": 1, "z": 0}}}]},
			"z"],
		["theme.edit", {"file_path": SCRATCH + "/theme.tres", "edits": [{"type_name": "Button", "property_type": "color",
			"property": "font_color", "value": red, "type": "Button"}]}, "'type'"],
		["theme.edit", {"file_path": SCRATCH + "/theme.tres", "edits": [{"type_name": "Button", "property_type": "color",
			"property": "font_color", "value": {"r": 1, "g": 0, "b": 0, "alpha": 0.5}}]}, "alpha"],
		["theme.edit", {"file_path": SCRATCH + "/theme.tres", "edits": [{"type_name": "Button",
			"property_type": "stylebox", "property": "normal", "value": {"bg_colour": red}}]}, "bg_colour"],
		["spriteframes.create", {"file_path": SCRATCH + "/hero.tres", "animations": [{"name": "run", "speed": 5,
			"frames": []}]}, "speed"],
		["spriteframes.create", {"file_path": SCRATCH + "/hero.tres", "animations": [{"name": "run", "frames": [
			{"texture_path": SHEET, "time": 1}]}]}, "time"],
		["spriteframes.create", {"file_path": SCRATCH + "/hero.tres", "animations": [{"name": "run", "frames": [
			{"texture_path": SHEET, "atlas": {"x": 0, "y": 0, "w": 16, "width": 16, "height": 16}}]}]}, "'w'"],
		["spriteframes.from_spritesheet", {"file_path": SCRATCH + "/hero.tres", "texture_path": SHEET,
			"frame_size": {"x": 16, "y": 16, "z": 1}, "animations": [{"name": "run", "frame_count": 2}]}, "z"],
		["spriteframes.from_spritesheet", {"file_path": SCRATCH + "/hero.tres", "texture_path": SHEET,
			"frame_size": {"x": 16, "y": 16}, "animations": [{"name": "run", "frames": 2}]}, "frames"],
		["spriteframes.edit", {"file_path": FRAMES, "action": "add_animation", "animation_name": "run", "frames": [
			{"texture_path": SHEET, "durations": 1}]}, "durations"],
		["tileset.create", {"file_path": SCRATCH + "/new.tres", "texture_path": SHEET,
			"tile_size": {"x": 16, "y": 16, "w": 1}}, "w"],
		["tileset.add_alternative", {"file_path": WORLD, "atlas_x": 0, "atlas_y": 0,
			"modulate": {"r": 1, "g": 1, "b": 1, "alpha": 1}}, "alpha"],
		["tileset.setup_layers", {"file_path": WORLD, "terrain_sets": [{"mode": "match_sides", "names": ["grass"]}]},
			"names"],
		["tileset.setup_layers", {"file_path": WORLD, "custom_data": [{"name": "damage", "kind": "int"}]}, "kind"],
		["tileset.edit_visuals", {"file_path": WORLD, "tiles": [{"atlas_x": 0, "atlas_y": 0, "zindex": 2}]}, "zindex"],
		["tileset.edit_visuals", {"file_path": WORLD, "tiles": [{"atlas_x": 0, "atlas_y": 0,
			"animation": {"frames_count": 1, "fps": 2}}]}, "fps"],
		["tileset.edit_physics", {"file_path": WORLD, "tiles": [{"atlas_x": 0, "atlas_y": 0, "physics_polygon": [
			{"x": 0, "y": 0}, {"x": 1, "y": 0}, {"x": 1, "y": 1, "z": 0}]}]}, "z"],
		["tileset.edit_physics", {"file_path": WORLD, "tiles": [{"atlas_x": 0, "atlas_y": 0, "polygon": "full"}]},
			"polygon"],
		["node.set_property", {"node_path": "Player", "property": "position", "value": {"type": "Vector2", "x": 1,
			"y": 2, "z": 3}}, "z"],
	]


func test_every_nested_object_refuses_an_unknown_key_by_name() -> void:
	var before := _snapshot()
	for case: Array in _cases():
		var result := _fx.invoke(case[0], case[1])
		var where := "%s %s" % [case[0], JSON.stringify(case[1])]
		Assert.eq(result.get("code"), "INVALID_PARAMS" if case[0] != "node.set_property" or case[1].has("batch")
			else "INVALID_VALUE", "%s refused -> %s" % [where, result.get("error")])
		Assert.contains(str(result.get("error", "")), str(case[2]), "%s names the key" % where)
		Assert.contains(str(result.get("error", "")), "accepted", "%s says what the object takes" % where)
		Assert.is_false(str(result.get("hint", "")).is_empty(), "%s has a hint" % where)
	Assert.eq(_snapshot(), before, "no refusal changed the scene or the files")


func test_the_type_tag_is_still_accepted_in_vectors_and_colors() -> void:
	var tagged := _fx.invoke("3d.create_light", {"parent_path": ".", "light_type": "omni",
		"position": {"type": "Vector3", "x": 1, "y": 2, "z": 3}, "color": {"type": "Color", "r": 1, "g": 0, "b": 0}})
	Assert.eq(tagged.get("success"), true, "tagged vector and color accepted: %s" % tagged.get("error"))
	var light := _root.get_node_or_null(str(tagged.get("node_path", "")))
	Assert.eq(light.position if light != null else null, Vector3(1, 2, 3), "and applied")


## What the refusals must leave alone: the scene's node names and the scratch files' bytes.
func _snapshot() -> Dictionary:
	var files := {}
	for file_name: String in DirAccess.get_files_at(SCRATCH):
		files[file_name] = FileAccess.get_file_as_bytes(SCRATCH.path_join(file_name))
	var nodes := []
	for node: Node in _root.find_children("*", "", true, false):
		nodes.append(str(_root.get_path_to(node)))
	return {"files": files, "nodes": nodes}
