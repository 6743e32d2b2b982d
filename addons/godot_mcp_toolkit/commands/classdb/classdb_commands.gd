@tool
extends RefCounted
## What classes the running engine has: classdb.get_info (one class's members) and classdb.search
## (classes by name and base). Read from this engine's ClassDB and the project's global script
## classes, so the answer fits the user's Godot version. Both page with offset/limit. Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const ClassMembers := preload("res://addons/godot_mcp_toolkit/commands/classdb/class_members.gd")
const ClassNames := preload("res://addons/godot_mcp_toolkit/commands/classdb/class_names.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/classdb/classdb_commands.gd"
const DEFAULT_INFO_LIMIT := 100
const DEFAULT_SEARCH_LIMIT := 50
const MAX_LIMIT := 500
const SEARCH_NARROWER := "pattern or base_class"
## A page that stops short (at limit, or where one answer is full) says how to go on.
const PAGE_HINT := "%d of %d shown; call again with offset %d, or a narrower %s."


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("classdb.get_info", Callable(script, "_cmd_get_info").bind(context),
		registry.create_options()
		.read_only().scene_independent())
	registry.register_command("classdb.search", Callable(script, "_cmd_search").bind(context),
		registry.create_options()
		.read_only().scene_independent())


# --- classdb.get_info ----------------------------------------------------------------------------

static func _cmd_get_info(params: Dictionary, _context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["class_name"])
	if not missing.is_empty():
		return missing
	var page := _page(params, DEFAULT_INFO_LIMIT)
	if page.has("error"):
		return page["error"]
	var sections: Variant = params.get("sections", ClassMembers.SECTIONS)
	if not sections is Array or (sections as Array).is_empty() \
			or (sections as Array).any(func(section: Variant) -> bool: return not section in ClassMembers.SECTIONS):
		return _invalid("sections must be a non-empty list of %s" % ", ".join(PackedStringArray(ClassMembers.SECTIONS)))
	var inherited: Variant = params.get("include_inherited", false)
	if not inherited is bool:
		return _invalid("include_inherited must be true or false")
	var name: Variant = params["class_name"]
	if not name is String or (name as String).is_empty():
		return _invalid("class_name must be a class name like \"CharacterBody2D\"")
	var ordered := ClassMembers.SECTIONS.filter(func(section: String) -> bool: return section in sections)
	var described := _describe(name, ordered, inherited)
	if described.has("error"):
		return described["error"]
	return ToolkitSuccess.ok(_paged_members(described, ordered, page["offset"], page["limit"]))


## {"info": header, "members": section -> entries} or {"error"}.
static func _describe(name: String, sections: Array, inherited: bool) -> Dictionary:
	if ClassDB.class_exists(name):
		return {"info": {"class_name": name, "source": "engine", "base": String(ClassDB.get_parent_class(name)),
			"instantiable": ClassDB.can_instantiate(name)},
			"members": ClassMembers.of_engine(name, sections, inherited)}
	var global := _global_classes().get(name, {}) as Dictionary
	if global.is_empty():
		return {"error": ClassNames.unknown(name)}
	var path := str(global["path"])
	var script := load(path) as Script if ResourceLoader.exists(path) else null
	if script == null or String(script.get_instance_base_type()).is_empty():
		return {"error": ToolkitError.fail("LOAD_FAILED",
			"The script of class %s (%s) does not load or compile" % [name, path],
			"script_check shows its errors.")}
	return {"info": {"class_name": name, "source": "script", "base": str(global["base"]), "path": path,
		"instantiable": ClassDB.can_instantiate(script.get_instance_base_type())},
		"members": ClassMembers.of_script(script, sections, inherited)}


## The header plus the page [offset, offset+limit) of the members, counted across the sections in
## order, cut short where one answer is full; totals per section and whether more remain.
static func _paged_members(described: Dictionary, sections: Array, offset: int, limit: int) -> Dictionary:
	var result: Dictionary = described["info"].duplicate()
	var totals := {}
	var wanted: Array = []
	var section_of := PackedStringArray()
	var position := 0
	for section: String in sections:
		var entries: Array = described["members"][section]
		totals[section] = entries.size()
		result[section] = []
		var start := clampi(offset - position, 0, entries.size())
		var stop := clampi(offset + limit - position, 0, entries.size())
		for entry: Variant in entries.slice(start, stop):
			wanted.append(entry)
			section_of.append(section)
		position += entries.size()
	result.merge({"totals": totals, "total": position, "offset": offset, "limit": limit})
	var returned := AnswerBudget.fitting(wanted, _room(result, position, "sections"))
	for index in returned:
		(result[section_of[index]] as Array).append(wanted[index])
	return _with_page(result, returned, position, offset, "sections")


## The room for a page's items beside `result` and the paging fields of a page that stops short.
static func _room(result: Dictionary, total: int, narrower: String) -> int:
	var fields := {"returned": total, "has_more": true, "next_offset": total,
		"hint": PAGE_HINT % [total, total, total, narrower]}
	return AnswerBudget.room_beside(result) - AnswerBudget.size_of(fields)


## `result` with the paging fields of `returned` items from `offset` out of `total`, and on a page
## that stops short, where the next starts.
static func _with_page(result: Dictionary, returned: int, total: int, offset: int, narrower: String) -> Dictionary:
	var paged := result.duplicate()
	paged.merge({"returned": returned, "has_more": offset + returned < total})
	if paged["has_more"]:
		paged["next_offset"] = offset + returned
		paged["hint"] = PAGE_HINT % [returned, total, offset + returned, narrower]
	return paged


# --- classdb.search ------------------------------------------------------------------------------

static func _cmd_search(params: Dictionary, _context: RefCounted) -> Dictionary:
	var page := _page(params, DEFAULT_SEARCH_LIMIT)
	if page.has("error"):
		return page["error"]
	var pattern: Variant = params.get("pattern", "")
	var base: Variant = params.get("base_class", "")
	for field: String in ["instantiable_only", "include_global"]:
		if not params.get(field, false) is bool:
			return _invalid("%s must be true or false" % field)
	if not pattern is String or not base is String:
		return _invalid("pattern and base_class must be text")
	var globals := _global_classes()
	if not (base as String).is_empty() and not ClassDB.class_exists(base) and not globals.has(base):
		return ClassNames.unknown(base)
	var matches: Array[Dictionary] = []
	for name: String in ClassDB.get_class_list():
		if _matches(name, pattern) and (base == "" or ClassDB.is_parent_class(name, base)):
			matches.append({"name": name, "base": String(ClassDB.get_parent_class(name)), "source": "engine",
				"instantiable": ClassDB.can_instantiate(name)})
	if params.get("include_global", false):
		for name: String in globals:
			if _matches(name, pattern) and (base == "" or _global_inherits(name, base, globals)):
				var engine := _engine_base(name, globals)
				matches.append({"name": name, "base": str(globals[name]["base"]), "source": "script",
					"path": str(globals[name]["path"]),
					"instantiable": not engine.is_empty() and ClassDB.can_instantiate(engine)})
	if params.get("instantiable_only", false):
		matches = matches.filter(func(entry: Dictionary) -> bool: return entry["instantiable"])
	matches.sort_custom(func(a: Dictionary, b: Dictionary) -> bool: return str(a["name"]) < str(b["name"]))
	var offset: int = page["offset"]
	var wanted := matches.slice(offset, offset + int(page["limit"]))
	var result := {"classes": [], "total": matches.size(), "offset": offset, "limit": page["limit"]}
	result["classes"] = wanted.slice(0, AnswerBudget.fitting(wanted, _room(result, matches.size(), SEARCH_NARROWER)))
	return ToolkitSuccess.ok(_with_page(result, (result["classes"] as Array).size(), matches.size(), offset,
		SEARCH_NARROWER))


## A "*"/"?" pattern is a wildcard match, anything else a substring; both ignore case.
static func _matches(name: String, pattern: String) -> bool:
	if pattern.is_empty():
		return true
	if pattern.contains("*") or pattern.contains("?"):
		return name.matchn(pattern)
	return name.findn(pattern) >= 0


## Whether global class `name` has `base` among its ancestors (script or engine ones).
static func _global_inherits(name: String, base: String, globals: Dictionary) -> bool:
	var current := name
	for _step in 64:
		if current == base:
			return true
		if not globals.has(current):
			return ClassDB.class_exists(current) and ClassDB.is_parent_class(current, base)
		current = str(globals[current]["base"])
	return false


## The engine class a global class finally extends ("" when the chain is broken).
static func _engine_base(name: String, globals: Dictionary) -> String:
	var current := name
	for _step in 64:
		if not globals.has(current):
			return current if ClassDB.class_exists(current) else ""
		current = str(globals[current]["base"])
	return ""


# --- shared --------------------------------------------------------------------------------------

## Global script classes (class_name) by name.
static func _global_classes() -> Dictionary:
	var found := {}
	for entry: Dictionary in ProjectSettings.get_global_class_list():
		found[str(entry["class"])] = entry
	return found


## {"offset", "limit"} or {"error"}.
static func _page(params: Dictionary, default_limit: int) -> Dictionary:
	var offset: Variant = params.get("offset", 0)
	var limit: Variant = params.get("limit", default_limit)
	if not Params.is_whole_number(offset) or int(offset) < 0:
		return {"error": _invalid("offset must be a whole number >= 0")}
	if not Params.is_whole_number(limit) or int(limit) < 1 or int(limit) > MAX_LIMIT:
		return {"error": _invalid("limit must be a whole number from 1 to %d" % MAX_LIMIT)}
	return {"offset": int(offset), "limit": int(limit)}


static func _invalid(text: String) -> Dictionary:
	return ToolkitError.fail("INVALID_PARAMS", text)
