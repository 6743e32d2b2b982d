"""The shaders group end to end: real shaders (tests/fixtures/shaders, provenance in its README)
written with script_write and compiled by the engine host's renderer (Compatibility, WebGL2), the
mistakes models make checked as code, each answering the engine's own error on its line; a
shader's uniforms on a node's ShaderMaterial, set through node_set_property, and a misspelt
parameter refused. Part of the end-to-end call list (tests/engine/e2e/calls.py); files go under res://e2e/.
"""

from __future__ import annotations

from pathlib import Path

from tests.engine.e2e.call_list import Call, FileHas, Has, Read

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "shaders"
OUTLINE = "res://e2e/outline.gdshader"
BRIDGE = "res://e2e/bridge_particles.gdshader"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def engine_error(line: int, message: str, column: int = 0) -> dict[str, object]:
    error: dict[str, object] = {"line": line, "message": message}
    if column:
        error["column"] = column
    return error


def mistake(name: str, line: int, message: str, column: int = 0) -> Call:
    """A mistake's text checked as code: the engine's error on its line, and a hint."""
    return Call("shader_check", {"code": fixture(f"mistakes/{name}.gdshader")}, f"a mistake: {name}",
                result={"valid": False, "errors": [engine_error(line, message, column)], "hint": Has(" ")})


def uniform(name: str, value: object) -> Read:
    return Read("shader_get_uniforms", {"node_path": "Glow"}, {"uniforms": [{"name": name, "value": value}]})


SHADER_CALLS: list[Call] = [
    Call("script_write", {"file_path": OUTLINE, "content": fixture("godot-demo-projects/outline.gdshader")},
         "a canvas_item shader from godot-demo-projects", result={"valid": True, "errors": []},
         file=FileHas(OUTLINE, "shader_type canvas_item;")),
    Call("shader_check", {"file_path": OUTLINE}, "it compiles", result={"valid": True, "shader_type": "canvas_item"}),
    Call("shader_check", {"code": fixture("godot-demo-projects/paper_material.gdshader")},
         "a spatial shader from godot-demo-projects", result={"valid": True, "errors": [], "shader_type": "spatial"}),
    Call("shader_check", {"code": fixture("godot-disintegration-effect-examples/undertale.gdshader")},
         "a particles shader of a public project", result={"valid": True, "errors": [], "shader_type": "particles"}),
    Call("shader_check", {"code": fixture("godot-demo-projects/skybox.gdshader")}, "a sky shader",
         result={"valid": True, "shader_type": "sky"}),
    # A real particles shader written the Godot 3 way: kept as written, answered with the engine's error.
    Call("script_write", {"file_path": BRIDGE, "content": fixture("godot-shaders/particle_bridge_particle.gdshader")},
         "a Godot 3 particles shader that does not compile",
         result={"valid": False, "errors": [engine_error(19, "Unknown identifier in expression: 'TRANSFORM'.", 2)],
                 "hint": Has("Written, but the shader does not compile")},
         file=FileHas(BRIDGE, "void vertex() {")),
    Call("script_edit", {"file_path": BRIDGE, "old_string": "void vertex() {", "new_string": "void process() {"},
         "its processor function renamed for Godot 4: the next error",
         result={"valid": False, "errors": [engine_error(19, "Invalid arguments to operator '%': 'uint, int'.", 31)]}),
    Call("script_edit", {"file_path": BRIDGE, "old_string": "(INDEX ", "new_string": "(int(INDEX) ", "replace_all": True},
         "INDEX (a uint in Godot 4) made an int: it compiles", result={"valid": True, "errors": []}),
    mistake("albedo_in_canvas_item", 6, "Unknown identifier in expression: 'ALBEDO'.", 2),
    mistake("vertex_in_particles", 7, "Unknown identifier in expression: 'VERTEX'.", 2),
    mistake("undeclared_sampler", 7, "Unknown identifier in expression: 'noise_texture'.", 19),
    mistake("varying_wrong_stage", 10,
            "Varyings which assigned in 'vertex' function may not be reassigned in 'fragment' or 'light'."),
    mistake("missing_shader_type", 1, "shader type  not supported in OpenGL renderer"),
    mistake("glsl_frag_color", 5, "Unknown identifier in expression: 'gl_FragColor'.", 2),
    mistake("glsl_version", 1, "shader type  not supported in OpenGL renderer"),
    mistake("glsl_in_out", 3, "Expected constant, function, uniform or varying."),
    mistake("int_for_float", 4, "Invalid assignment of 'int' to 'float'.", 2),
    Call("shader_check", {"code": "void fragment() {\n\tCOLOR = vec4(1.0);\n}\n", "shader_type": "canvas_item"},
         "code without a shader_type line, checked as canvas_item", result={"valid": True, "shader_type": "canvas_item"}),
    # An include, checked inside the project's shader that includes it (relative #include).
    Call("script_write", {"file_path": "res://e2e/tint.gdshaderinc", "content": fixture("includes/tint.gdshaderinc")},
         "an include", result={"valid": True}),
    Call("script_write", {"file_path": "res://e2e/uses_tint.gdshader", "content": fixture("includes/uses_tint.gdshader")},
         "a shader including it", result={"valid": True, "errors": []}),
    Call("shader_check", {"file_path": "res://e2e/tint.gdshaderinc"}, "the include, through its includer",
         result={"valid": True, "shader_type": "canvas_item", "included_by": "res://e2e/uses_tint.gdshader"}),
    Call("script_write", {"file_path": "res://e2e/broken.gdshaderinc", "content": fixture("includes/broken.gdshaderinc")},
         "an include missing a ';'",
         result={"valid": False, "errors": [engine_error(3, "Expected a ';' after 'return'.")]}),
    # Uniforms, and setting one on a node's ShaderMaterial.
    Call("shader_get_uniforms", {"file_path": OUTLINE}, "the shader's uniforms",
         result={"uniforms": [{"name": "outline_width", "type": "float", "default": 2.0},
                              {"name": "outline_color", "type": "vec4", "hint": "source_color"}],
                 "total_uniforms": 2}),
    Call("scene_create_node", {"class_name": "Sprite2D", "parent_path": ".", "node_name": "Glow",
                               "properties": {"material": {"type": "NewResource", "class": "ShaderMaterial",
                                                           "properties": {"shader": {"type": "Resource",
                                                                                     "path": OUTLINE}}}}},
         "a sprite drawn with it", effect=uniform("outline_width", 2.0)),
    Call("node_set_property", {"node_path": "Glow", "property": "material:shader_parameter/outline_width", "value": 6},
         "a shader parameter set", effect=uniform("outline_width", 6.0), undone=uniform("outline_width", 2.0)),
    Call("shader_get_uniforms", {"node_path": "Glow"}, "the node material's values",
         result={"property": "material", "shader_path": OUTLINE, "shader_type": "canvas_item",
                 "uniforms": [{"name": "outline_width", "default": 2.0, "value": 6.0}]}),
    Call("node_set_property", {"node_path": "Glow", "property": "material:shader_parameter/outline_widht", "value": 6},
         "a shader parameter the shader does not declare", code="PROPERTY_NOT_FOUND"),
]
