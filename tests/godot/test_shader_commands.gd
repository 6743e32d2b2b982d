extends RefCounted
## The shader domain (commands/shader/) in the engine: the web engine runs the Compatibility
## renderer on WebGL2, so every shader here is really compiled, by the compiler a game uses. Real
## shaders of public projects (tests/fixtures/shaders, provenance in its README) answer valid; each
## mistake models make answers the engine's own message on the right line. Also: the verdict
## without the message (what Godot 4.2-4.4 gives), includes checked inside a shader including them,
## a shader's uniforms on a node's ShaderMaterial, a wrong shader_parameter/<name> answered with the
## close ones, and script.write / script.edit of a shader answering its errors.
##
## Not covered here: a headless editor's dummy renderer that compiles nothing (shader.check refuses
## with UNSUPPORTED there), and Godot 4.2-4.4 themselves (scripts/gd_compat.py checks the API use;
## the no-message path is run here by compiling without listening).

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")
const ShaderCompile := preload("res://addons/godot_mcp_toolkit/commands/shader/shader_compile.gd")
const ShaderIncludes := preload("res://addons/godot_mcp_toolkit/commands/shader/shader_includes.gd")

const DOMAIN := "res://addons/godot_mcp_toolkit/commands/shader/shader_commands.gd"
const SCRIPT_DOMAIN := "res://addons/godot_mcp_toolkit/commands/script/script_commands.gd"
const NODE_DOMAIN := "res://addons/godot_mcp_toolkit/commands/node/node_commands.gd"
const SCRATCH := "res://tmp_tests/shader"
const FIXTURES := "res://tests/fixtures/shaders"

## Shaders of public projects that compile, and their type.
const GOOD := {
	"godot-demo-projects/outline.gdshader": "canvas_item",
	"godot-demo-projects/whirl.gdshader": "canvas_item",
	"godot-demo-projects/paper_material.gdshader": "spatial",
	"godot-demo-projects/skybox.gdshader": "sky",
	"godot-disintegration-effect-examples/undertale.gdshader": "particles",
	"includes/uses_tint.gdshader": "canvas_item",
}
## Each mistake: [line, column (0: none), what the engine's message says]. The message is the
## Compatibility renderer's (Godot 4.6); a renderer refusing the whole shader words it its own way.
const MISTAKES := {
	"godot-shaders/particle_bridge_particle.gdshader": [19, 2, "Unknown identifier in expression: 'TRANSFORM'."],
	"mistakes/albedo_in_canvas_item.gdshader": [6, 2, "Unknown identifier in expression: 'ALBEDO'."],
	"mistakes/vertex_in_particles.gdshader": [7, 2, "Unknown identifier in expression: 'VERTEX'."],
	"mistakes/undeclared_sampler.gdshader": [7, 19, "Unknown identifier in expression: 'noise_texture'."],
	"mistakes/varying_wrong_stage.gdshader": [10, 0,
		"Varyings which assigned in 'vertex' function may not be reassigned in 'fragment' or 'light'."],
	"mistakes/missing_shader_type.gdshader": [1, 0, "not supported"],
	"mistakes/glsl_frag_color.gdshader": [5, 2, "Unknown identifier in expression: 'gl_FragColor'."],
	"mistakes/glsl_version.gdshader": [1, 0, "not supported"],
	"mistakes/glsl_in_out.gdshader": [3, 0, "Expected constant, function, uniform or varying."],
	"mistakes/int_for_float.gdshader": [4, 2, "Invalid assignment of 'int' to 'float'."],
}

var _root: Node2D = null
var _fx: DomainFixture = null


func _init() -> void:
	_root = Node2D.new()
	_root.name = "Main"
	_add(_root, Sprite2D.new(), "Hero", _material("godot-demo-projects/outline.gdshader", {"outline_width": 4.0}))
	var orb := MeshInstance3D.new()
	orb.mesh = BoxMesh.new()
	_add(_root, orb, "Orb", null)
	orb.material_override = _material("godot-demo-projects/paper_material.gdshader", {"outline_thickness": 0.02})
	var broken := Shader.new()
	broken.code = FileAccess.get_file_as_string(FIXTURES.path_join("mistakes/albedo_in_canvas_item.gdshader"))
	var broken_material := ShaderMaterial.new()
	broken_material.shader = broken
	_add(_root, Sprite2D.new(), "Broken", broken_material)
	var domains: Array[String] = [DOMAIN, SCRIPT_DOMAIN, NODE_DOMAIN]
	_fx = DomainFixture.new(domains, "shader", _root, SCRATCH)


func cleanup() -> void:
	_fx.cleanup()


static func _add(root: Node, node: Node, node_name: String, material: Material) -> void:
	node.name = node_name
	root.add_child(node)
	node.owner = root
	if material != null:
		node.set("material", material)


static func _material(fixture: String, values: Dictionary) -> ShaderMaterial:
	var material := ShaderMaterial.new()
	material.shader = load(FIXTURES.path_join(fixture))
	for key: String in values:
		material.set_shader_parameter(key, values[key])
	return material


func _check(params: Dictionary) -> Dictionary:
	return _fx.invoke("shader.check", params)


func test_registered_as_reads_in_the_editor_domains() -> void:
	Assert.is_true(DOMAIN in CommandDomains.DOMAINS, "listed in command_domains.gd")
	for method: String in ["shader.check", "shader.get_uniforms"]:
		Assert.is_true(_fx.registry.dispatch_info(method)["read_only"], "%s is a read" % method)
	Assert.is_true(_fx.registry.dispatch_info("shader.check")["scene_independent"], "a check needs no scene")
	Assert.is_true(ShaderCompile.renderer_compiles(), "the web engine's Compatibility renderer compiles shaders")


func test_the_result_examples() -> void:
	for index in 6:
		_fx.example("shader.check", index)
	for index in 3:
		_fx.example("shader.get_uniforms", index)


func test_real_shaders_of_public_projects_compile() -> void:
	for fixture: String in GOOD:
		var path := FIXTURES.path_join(fixture)
		var result := _check({"file_path": path})
		Assert.eq([result.get("valid"), result.get("errors"), result.get("shader_type")], [true, [], GOOD[fixture]],
			"%s compiles (%s)" % [fixture, result.get("errors", result.get("error"))])
		Assert.is_false(result.has("hint"), "%s: a valid shader needs no advice" % fixture)


func test_each_mistake_answers_the_engines_error_on_its_line() -> void:
	for fixture: String in MISTAKES:
		var expected: Array = MISTAKES[fixture]
		var path := FIXTURES.path_join(fixture)
		for params: Dictionary in [{"file_path": path}, {"code": FileAccess.get_file_as_string(path)}]:
			var result := _check(params)
			var label := "%s (%s)" % [fixture, params.keys()[0]]
			Assert.eq(result.get("valid"), false, "%s does not compile" % label)
			var errors: Array = result.get("errors", [])
			Assert.eq(errors.size(), 1, "%s: the compiler's one error" % label)
			if errors.is_empty():
				continue
			var error: Dictionary = errors[0]
			Assert.eq(error["line"], expected[0], "%s: the line" % label)
			Assert.eq(error.get("column", 0), expected[1], "%s: the column" % label)
			Assert.contains(error["message"], expected[2], "%s: the engine's message" % label)
			Assert.is_false(error.has("file"), "%s: the error is in the file itself" % label)
			Assert.is_false(str(result.get("hint", "")).is_empty(), "%s: says what to do" % label)


func test_the_hints_name_the_cause() -> void:
	var version := _check({"file_path": FIXTURES.path_join("mistakes/glsl_version.gdshader")})
	Assert.contains(version["hint"], "#version", "a GLSL directive: the preprocessor refused it")
	var missing := _check({"file_path": FIXTURES.path_join("mistakes/missing_shader_type.gdshader")})
	Assert.eq(missing["shader_type"], "", "no type declared")
	Assert.contains(missing["hint"], "shader_type canvas_item", "say how a shader starts")
	var directive := _check({"code": "shader_type canvas_item;\n#version 330\nvoid fragment() {}\n"})
	Assert.eq(directive["errors"][0]["line"], 2, "a # line after the type reaches the compiler as it is")
	Assert.contains(directive["errors"][0]["message"], "'#'", "the engine's tokenizer message")
	Assert.contains(directive["hint"], "#version", "and the hint says why")


func test_without_the_engines_message_the_verdict_stands() -> void:
	# What Godot 4.2-4.4 gives: no Logger, so no message, but the probe uniform still says whether
	# the renderer compiled it.
	for fixture: String in GOOD:
		var text := FileAccess.get_file_as_string(FIXTURES.path_join(fixture))
		Assert.eq(ShaderCompile.check(text, FIXTURES.path_join(fixture), false)["valid"], true, "%s still valid" % fixture)
	for fixture: String in MISTAKES:
		var report := ShaderCompile.check(FileAccess.get_file_as_string(FIXTURES.path_join(fixture)),
			FIXTURES.path_join(fixture), false)
		Assert.eq(report["valid"], false, "%s still refused" % fixture)
		var error: Dictionary = report["errors"][0]
		if report["shader_type"] == "":
			Assert.eq([error["line"], error["message"]], [1, ShaderCompile.MISSING_TYPE], "%s: what the text shows" % fixture)
		else:
			Assert.eq(error["line"], 0, "%s: no line is known" % fixture)
			Assert.contains(error["message"], "4.5+", "%s: says which Godot reports it" % fixture)


func test_an_include_is_checked_inside_a_shader_including_it() -> void:
	var tint := FIXTURES.path_join("includes/tint.gdshaderinc")
	Assert.eq(ShaderIncludes.includers(tint), PackedStringArray([FIXTURES.path_join("includes/uses_tint.gdshader")]),
		"the project shader that includes it (relative #include)")
	var through := _check({"file_path": tint})
	Assert.eq([through["valid"], through["shader_type"], through["included_by"]],
		[true, "canvas_item", FIXTURES.path_join("includes/uses_tint.gdshader")], "compiled as its includer's type")
	var asked := _check({"file_path": tint, "shader_type": "particles"})
	Assert.eq([asked["valid"], asked["shader_type"], asked.has("included_by")], [true, "particles", false],
		"shader_type chooses the including shader's type")
	_write(SCRATCH.path_join("lone.gdshaderinc"), "float half(float x) {\n\treturn x / 2.0;\n}\nvoid fragment() {\n" \
		+ "\tCOLOR = vec4(1.0);\n}\n")
	var lone := _check({"file_path": SCRATCH.path_join("lone.gdshaderinc")})
	Assert.eq([lone["valid"], lone["shader_type"]], [false, ShaderIncludes.DEFAULT_TYPE], "no includer: spatial")
	Assert.eq(lone["errors"][0]["line"], 5, "COLOR is read-only in a spatial fragment(): line 5 of the include")
	_write(SCRATCH.path_join("outer.gdshaderinc"), "// wraps the broken one\n#include \"%s\"\n" % FIXTURES.path_join(
		"includes/broken.gdshaderinc"))
	var outer := _check({"file_path": SCRATCH.path_join("outer.gdshaderinc"), "shader_type": "spatial"})
	Assert.eq(outer["errors"], [{"line": 3, "message": "Expected a ';' after 'return'.",
		"file": FIXTURES.path_join("includes/broken.gdshaderinc")}], "an error in a nested include names its file")


func test_refusals_name_what_was_wrong() -> void:
	var outline := FIXTURES.path_join("godot-demo-projects/outline.gdshader")
	var cases := [
		[{}, "INVALID_PARAMS", "neither"],
		[{"code": "   "}, "INVALID_PARAMS", "non-empty"],
		[{"code": "shader_type spatial;", "shader_type": "canvas_item"}, "INVALID_PARAMS", "declares shader_type spatial"],
		[{"file_path": outline, "shader_type": "spatial"}, "INVALID_PARAMS", "declares its own shader_type"],
		[{"code": "shader_type spatial;", "shader_type": "sprite"}, "INVALID_PARAMS", "canvas_item, spatial"],
		[{"file_path": "res://tests/fixtures/shaders/README.md"}, "UNSUPPORTED_FILE_TYPE", ".gdshader"],
		[{"file_path": SCRATCH.path_join("none.gdshader")}, "NOT_FOUND", "none.gdshader"],
		[{"file_path": "res://../outside.gdshader"}, "PATH_DENIED", ".."],
	]
	for case: Array in cases:
		var result := _check(case[0])
		Assert.eq(result.get("code"), case[1], "%s is refused" % JSON.stringify(case[0]))
		Assert.contains(str(result.get("error", "")), case[2], "%s: says why" % JSON.stringify(case[0]))


func test_uniforms_on_a_node_material() -> void:
	var orb := _fx.invoke("shader.get_uniforms", {"node_path": "Orb"})
	Assert.eq([orb["property"], orb["shader_type"], orb["total_uniforms"]], ["material_override", "spatial", 4],
		"found in material_override")
	var thickness: Dictionary = orb["uniforms"][2]
	Assert.eq([thickness["name"], thickness["type"], thickness["hint"], thickness["value"]],
		["outline_thickness", "float", "hint_range(0.001, 0.05)", 0.02], "declared type and hint, the material's value")
	var named := _fx.invoke("shader.get_uniforms", {"node_path": "Hero", "property": "material"})
	Assert.eq(named["uniforms"][0]["value"], 4.0, "the property named")
	var wrong := _fx.invoke("shader.get_uniforms", {"node_path": "Hero", "property": "texture"})
	Assert.eq(wrong["code"], "INVALID_PARAMS", "texture holds no ShaderMaterial")
	var broken := _fx.invoke("shader.get_uniforms", {"node_path": "Broken"})
	Assert.eq(broken["code"], "COMPILATION_FAILED", "a shader that does not compile has no uniforms")
	Assert.contains(broken["error"], "line 6", "and the answer says where it fails")
	var particles := FIXTURES.path_join("godot-disintegration-effect-examples/undertale.gdshader")
	var whole := _fx.invoke("shader.get_uniforms", {"file_path": particles})
	Assert.eq([whole["returned"], whole["total_uniforms"], whole["has_more"]], [43, 43, false], "43 uniforms, one answer")
	var rest := _fx.invoke("shader.get_uniforms", {"file_path": particles, "offset": 40})
	Assert.eq(rest["uniforms"].map(func(u: Dictionary) -> String: return u["name"]),
		["progress", "particle_lifetime_fraction", "connect_lines"], "from offset 40 on")


func test_uniforms_of_a_material_file() -> void:
	var material := _material("godot-demo-projects/outline.gdshader", {"outline_width": 7.0})
	Assert.eq(ResourceSaver.save(material, SCRATCH.path_join("glow.tres")), OK, "material saved")
	var answer := _fx.invoke("shader.get_uniforms", {"file_path": SCRATCH.path_join("glow.tres")})
	Assert.eq([answer["uniforms"][0]["name"], answer["uniforms"][0]["value"]], ["outline_width", 7.0],
		"the .tres material's value")
	Assert.eq(_fx.invoke("shader.get_uniforms", {"file_path": "res://tests/fixtures/shaders/README.md"})["code"],
		"UNSUPPORTED_FILE_TYPE", "not a shader or material file")


func test_a_wrong_shader_parameter_answers_the_close_names() -> void:
	var typo := _set_hero("material:shader_parameter/outline_widht")
	Assert.eq(typo["code"], "PROPERTY_NOT_FOUND", "a name the shader does not declare is refused")
	Assert.contains(typo["error"], "declares no uniform 'outline_widht'", "names the wrong one")
	Assert.contains(typo["hint"], "Did you mean shader_parameter/outline_width", "and the close one")
	var hero := _root.get_node("Hero") as Sprite2D
	Assert.eq((hero.material as ShaderMaterial).get_shader_parameter("outline_widht"), null, "nothing was stored")
	var right := _set_hero("material:shader_parameter/outline_width")
	Assert.eq([right.get("success"), (hero.material as ShaderMaterial).get_shader_parameter("outline_width")], [true, 3.0],
		"the declared name is set")
	var broken := _fx.invoke("node.set_property", {"node_path": "Broken", "property": "material:shader_parameter/tint",
		"value": 1.0})
	Assert.contains(broken.get("hint", ""), "shader_check", "a shader that does not compile takes no parameters")


func _set_hero(property: String) -> Dictionary:
	return _fx.invoke("node.set_property", {"node_path": "Hero", "property": property, "value": 3.0})


func test_script_write_of_a_shader_answers_its_errors_and_keeps_the_file() -> void:
	var path := SCRATCH.path_join("water.gdshader")
	var broken := FileAccess.get_file_as_string(FIXTURES.path_join("mistakes/undeclared_sampler.gdshader"))
	var written := _fx.invoke("script.write", {"file_path": path, "content": broken})
	Assert.eq([written["success"], written["status"], written["valid"]], [true, "created", false], "written, invalid")
	var engine_error := {"line": 7, "column": 19, "message": "Unknown identifier in expression: 'noise_texture'."}
	Assert.eq(written["errors"], [engine_error], "the engine's error, as shader_check answers it")
	Assert.contains(written["hint"], "Written, but the shader does not compile", "the answer says it does not compile")
	Assert.eq(FileAccess.get_file_as_string(path), broken, "the file is the user's: kept as written")
	var fixed := _fx.invoke("script.edit", {"file_path": path, "old_string": "uniform float scroll = 0.1;",
		"new_string": "uniform float scroll = 0.1;\nuniform sampler2D noise_texture;"})
	Assert.eq([fixed["valid"], fixed["errors"]], [true, []], "the edit makes it compile")
	Assert.contains(fixed["hint"], "shader_get_uniforms", "a shader's advice, not a script's (attach it)")
	var include := _fx.invoke("script.write", {"file_path": SCRATCH.path_join("fx.gdshaderinc"),
		"content": "vec3 dim(vec3 c) {\n\treturn c * 0.5\n}\n"})
	Assert.eq([include["valid"], include["errors"][0]["line"]], [false, 3], "an include answers its errors too")


func test_script_write_updates_the_loaded_shader_and_include() -> void:
	var include_path := SCRATCH.path_join("shade.gdshaderinc")
	var shader_path := SCRATCH.path_join("shaded.gdshader")
	_write(include_path, "vec3 shade(vec3 c) {\n\treturn c;\n}\n")
	_write(shader_path, "shader_type canvas_item;\n#include \"shade.gdshaderinc\"\nvoid fragment() {\n" \
		+ "\tCOLOR.rgb = shade(COLOR.rgb);\n}\n")
	var shader := load(shader_path) as Shader
	var include := load(include_path) as ShaderInclude
	var new_include := "vec3 shade(vec3 c) {\n\treturn c * 0.25;\n}\n"
	_fx.invoke("script.write", {"file_path": include_path, "content": new_include})
	Assert.eq(include.code, new_include, "the loaded include takes the new code")
	var new_shader := "shader_type canvas_item;\n#include \"shade.gdshaderinc\"\nuniform float k = 1.0;\n" \
		+ "void fragment() {\n\tCOLOR.rgb = shade(COLOR.rgb) * k;\n}\n"
	var answer := _fx.invoke("script.write", {"file_path": shader_path, "content": new_shader})
	Assert.eq([answer["valid"], shader.code, shader.get_shader_uniform_list().size()], [true, new_shader, 1],
		"the loaded shader takes the new code and compiles it")


func _write(path: String, text: String) -> void:
	var file := FileAccess.open(path, FileAccess.WRITE)
	file.store_string(text)
	file.close()
