extends RefCounted
## commands/classdb/classdb_commands.gd through the command registry with a runtime context, against this
## engine's own ClassDB (the expectations are computed from ClassDB, so they hold on any version)
## and the project's global class MCPToolkitError. Reads only: nothing to undo or clean up.
## Not covered here (editor only): editor-only classes (EditorPlugin...) that only an editor's ClassDB has.

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const ResultExamples := preload("result_examples.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")

const DOMAIN := "res://addons/godot_mcp_toolkit/commands/classdb/classdb_commands.gd"

var _fx: DomainFixture = null


func _init() -> void:
	var domains: Array[String] = [DOMAIN]
	_fx = DomainFixture.new(domains, "classdb", null, "", "4.6.0")


func cleanup() -> void:
	_fx.cleanup()


func test_registered_with_the_reference_lanes() -> void:
	Assert.is_true(DOMAIN in CommandDomains.DOMAINS, "listed in command_domains.gd")
	for method: String in ["classdb.get_info", "classdb.search"]:
		Assert.is_true(_fx.registry.dispatch_info(method)["read_only"], "%s is a read" % method)
		Assert.is_true(_fx.registry.dispatch_info(method)["scene_independent"], "%s needs no scene" % method)


func test_get_info_of_engine_classes() -> void:
	for index in [0, 1, 2]:
		var params := ResultExamples.params("classdb", "classdb.get_info", index)
		ResultExamples.check("classdb", "classdb.get_info", _fx.invoke("classdb.get_info", params), index)
	var own := ClassDB.class_get_method_list("Timer", true).size()
	var first := _fx.invoke("classdb.get_info", {"class_name": "Timer", "sections": ["methods"], "limit": 2})
	Assert.eq(first["total"], own, "the total is Timer's own method count")
	var rest := _fx.invoke("classdb.get_info", {"class_name": "Timer", "sections": ["methods"], "offset": 2, "limit": 500})
	var names := PackedStringArray()
	for method: Dictionary in first["methods"] + rest["methods"]:
		names.append(method["name"])
	Assert.eq(names.size(), own, "two pages hold every method once")
	Assert.is_true("start" in names and "set_wait_time" in names, "with start and set_wait_time")
	Assert.is_false(rest["has_more"], "and the last page says so")
	var start: Dictionary = rest["methods"][names.find("start") - 2]
	# A release engine (this web build) drops argument names; an editor has them.
	var arg: Dictionary = start["args"][0]
	Assert.eq([start["args"].size(), arg["type"], arg.get("name", "time_sec")], [1, "float", "time_sec"],
		"arguments are typed (and named where the engine knows the names)")
	var timeout: Array = _fx.invoke("classdb.get_info", {"class_name": "Timer", "sections": ["signals"]})["signals"]
	Assert.eq(timeout, [{"name": "timeout", "args": []}], "Timer's own signal")
	var body := _fx.invoke("classdb.get_info", {"class_name": "CharacterBody2D", "include_inherited": true,
		"sections": ["properties", "constants"], "limit": 500})
	var property_names: Array = body["properties"].map(func(entry: Dictionary) -> String: return entry["name"])
	Assert.is_true("velocity" in property_names and "position" in property_names, "inherited adds Node2D's position")
	var mode: Array = body["constants"].filter(
		func(entry: Dictionary) -> bool: return entry["name"] == "MOTION_MODE_FLOATING")
	Assert.eq(mode, [{"name": "MOTION_MODE_FLOATING", "value": CharacterBody2D.MOTION_MODE_FLOATING,
		"enum": "MotionMode"}],
		"constants carry their value and enum")


func test_get_info_of_a_script_class() -> void:
	var info := _fx.invoke("classdb.get_info", {"class_name": "MCPToolkitError", "sections": ["methods", "constants"]})
	Assert.eq([info["source"], info["base"], info["path"]], ["script", "RefCounted",
		"res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd"], "a global class from its script")
	var methods: Array = info["methods"].map(func(entry: Dictionary) -> String: return entry["name"])
	Assert.is_true("fail" in methods, "its static func fail")
	var codes: Array = info["constants"].filter(func(entry: Dictionary) -> bool: return entry["name"] == "CODES")
	Assert.eq(codes, [{"name": "CODES", "type": "Array"}], "a non-number constant shows its type, not its value")


func test_search() -> void:
	for index in [0, 1]:
		var params := ResultExamples.params("classdb", "classdb.search", index)
		ResultExamples.check("classdb", "classdb.search", _fx.invoke("classdb.search", params), index)
	var bodies := _fx.invoke("classdb.search", {"base_class": "PhysicsBody2D", "limit": 500})
	var expected := Array(ClassDB.get_inheriters_from_class("PhysicsBody2D")) + ["PhysicsBody2D"]
	expected.sort()
	Assert.eq(bodies["classes"].map(func(entry: Dictionary) -> String: return entry["name"]), expected,
		"base_class lists the class and every inheriter")
	var wild := _fx.invoke("classdb.search", {"pattern": "*body3d", "limit": 1})
	Assert.is_true(wild["has_more"] and wild["next_offset"] == 1 and wild["returned"] == 1,
		"a page of one says more remain")
	var scripts := _fx.invoke("classdb.search", {"pattern": "MCPToolkitErr", "include_global": true})
	Assert.eq(scripts["classes"], [{"name": "MCPToolkitError", "base": "RefCounted", "source": "script",
		"path": "res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd", "instantiable": true}],
		"script classes on request")
	Assert.eq(_fx.invoke("classdb.search", {"pattern": "MCPToolkitErr"})["total"], 0, "and only then")
	Assert.eq(_fx.invoke("classdb.search", {"limit": 0})["code"], "INVALID_PARAMS", "limit must be positive")
	Assert.contains(_fx.invoke("classdb.get_info", {"class_name": "Node2d"})["hint"], "Did you mean Node2D,",
		"a near miss is suggested, a case slip first")
	Assert.eq(_fx.invoke("classdb.get_info", {"class_name": "Node", "sections": ["fields"]})["code"], "INVALID_PARAMS",
		"unknown section")



## limit 500 asks for more than one answer holds: each page stops within one, and the pages,
## following next_offset, hold every member (every class) once.
func test_a_large_limit_pages_within_one_answer() -> void:
	var members := _pages("classdb.get_info", {"class_name": "Control", "include_inherited": true, "limit": 500},
		["properties", "methods", "signals", "constants"])
	var own := ClassDB.class_get_method_list("Control").size()
	Assert.is_true(members["pages"] > 1, "Control with its bases takes %d pages" % members["pages"])
	Assert.eq(members["names"].size(), members["total"], "every member once")
	Assert.is_true(members["total"] > own, "inherited members included")
	var classes := _pages("classdb.search", {"limit": 500}, ["classes"])
	Assert.is_true(classes["pages"] > 1, "every class takes %d pages" % classes["pages"])
	Assert.eq(classes["names"].size(), ClassDB.get_class_list().size(), "every engine class once")


## Follows next_offset from `params` (domain_fixture.follow_pages): {"pages", "names" (section:name
## -> true), "total"}; each page is checked to count what it holds and to name where it goes on.
func _pages(method: String, params: Dictionary, sections: Array) -> Dictionary:
	var names := {}
	var last := {}
	var each := func(page: Dictionary, number: int) -> void:
		var count := 0
		for section: String in sections:
			for entry: Dictionary in page[section]:
				var key := "%s:%s" % [section, entry["name"]]
				Assert.is_false(names.has(key), "%s only once" % key)
				names[key] = true
				count += 1
		Assert.eq(page["returned"], count, "returned counts page %d" % number)
		if page["has_more"]:
			Assert.contains(page["hint"], "offset %d" % page["next_offset"], "a cut page says where to go on")
		last["total"] = page["total"]
	var pages := _fx.follow_pages(method, params, each)
	return {"pages": pages, "names": names, "total": last["total"]}
