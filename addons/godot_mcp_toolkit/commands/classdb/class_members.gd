@tool
extends RefCounted
## The members of an engine class (from ClassDB) or a script class (from its Script), as JSON-safe
## lists per section, each sorted by name so pages are stable. Pure reads; runtime-safe.

const SECTIONS := ["properties", "methods", "signals", "constants"]
const SKIP_USAGE := PROPERTY_USAGE_CATEGORY | PROPERTY_USAGE_GROUP | PROPERTY_USAGE_SUBGROUP


## Engine class `name`: section -> entries; `inherited` adds the base classes' members.
static func of_engine(name: String, sections: Array, inherited: bool) -> Dictionary:
	var only_own := not inherited
	var found := {}
	if "properties" in sections:
		found["properties"] = _properties(ClassDB.class_get_property_list(name, only_own))
	if "methods" in sections:
		found["methods"] = _methods(ClassDB.class_get_method_list(name, only_own))
	if "signals" in sections:
		found["signals"] = _signals(ClassDB.class_get_signal_list(name, only_own))
	if "constants" in sections:
		var constants: Array[Dictionary] = []
		for constant: String in ClassDB.class_get_integer_constant_list(name, only_own):
			var entry := {"name": constant, "value": ClassDB.class_get_integer_constant(name, constant)}
			var owner := String(ClassDB.class_get_integer_constant_enum(name, constant, only_own))
			if not owner.is_empty():
				entry["enum"] = owner
			constants.append(entry)
		found["constants"] = _sorted(constants)
	return found


## Script `script` (a global class): its own members; `inherited` adds its engine base's.
static func of_script(script: Script, sections: Array, inherited: bool) -> Dictionary:
	var found := {}
	if "properties" in sections:
		found["properties"] = _properties(script.get_script_property_list())
	if "methods" in sections:
		found["methods"] = _methods(script.get_script_method_list())
	if "signals" in sections:
		found["signals"] = _signals(script.get_script_signal_list())
	if "constants" in sections:
		var constants: Array[Dictionary] = []
		var values := script.get_script_constant_map()
		for constant: String in values:
			# Values of project constants can be any text: only numbers and bools are shown.
			var value: Variant = values[constant]
			var entry := {"name": constant, "type": _type_name(typeof(value), value.get_class() if value is Object else "")}
			if value is int or value is float or value is bool:
				entry["value"] = value
			constants.append(entry)
		found["constants"] = _sorted(constants)
	if inherited:
		var base := of_engine(String(script.get_instance_base_type()), sections, true)
		for section: String in base:
			var merged: Array = found[section] + base[section]
			found[section] = merged
	return found


static func _properties(list: Array[Dictionary]) -> Array[Dictionary]:
	var entries: Array[Dictionary] = []
	var seen := {}
	for property: Dictionary in list:
		var name := str(property["name"])
		if int(property["usage"]) & SKIP_USAGE or seen.has(name):
			continue
		seen[name] = true
		entries.append({"name": name, "type": _type_of(property)})
	return _sorted(entries)


static func _methods(list: Array[Dictionary]) -> Array[Dictionary]:
	var entries: Array[Dictionary] = []
	var seen := {}
	for method: Dictionary in list:
		var name := str(method["name"])
		if seen.has(name) or name.begins_with("@"):
			continue
		seen[name] = true
		var entry := {"name": name, "args": _args(method.get("args", [])), "return": _type_of(method.get("return", {}))}
		var flags := int(method.get("flags", 0))
		if flags & METHOD_FLAG_STATIC:
			entry["static"] = true
		if flags & METHOD_FLAG_VIRTUAL:
			entry["virtual"] = true
		if flags & METHOD_FLAG_VARARG:
			entry["vararg"] = true
		entries.append(entry)
	return _sorted(entries)


static func _signals(list: Array[Dictionary]) -> Array[Dictionary]:
	var entries: Array[Dictionary] = []
	for found: Dictionary in list:
		entries.append({"name": str(found["name"]), "args": _args(found.get("args", []))})
	return _sorted(entries)


static func _args(list: Array) -> Array[Dictionary]:
	var args: Array[Dictionary] = []
	for arg: Dictionary in list:
		# Release builds of the engine drop argument names: then only the type is known.
		var entry := {"type": _type_of(arg)}
		if not str(arg.get("name", "")).is_empty():
			entry["name"] = str(arg["name"])
		args.append(entry)
	return args


## "int", "Node", "Array[String]"... from a property/argument info.
static func _type_of(info: Dictionary) -> String:
	var type := int(info.get("type", TYPE_NIL))
	var class_text := str(info.get("class_name", ""))
	if type == TYPE_NIL:
		return "Variant" if int(info.get("usage", 0)) & PROPERTY_USAGE_NIL_IS_VARIANT else "void"
	if type == TYPE_ARRAY and int(info.get("hint", 0)) == PROPERTY_HINT_ARRAY_TYPE:
		return "Array[%s]" % info.get("hint_string", "")
	return _type_name(type, class_text)


static func _type_name(type: int, class_text: String) -> String:
	if type == TYPE_OBJECT and not class_text.is_empty():
		return class_text
	if type == TYPE_INT and class_text.contains("."):
		return class_text
	return type_string(type)


static func _sorted(entries: Array[Dictionary]) -> Array[Dictionary]:
	entries.sort_custom(func(a: Dictionary, b: Dictionary) -> bool: return str(a["name"]) < str(b["name"]))
	return entries
