@tool
extends RefCounted
## Counts what a scene is made of, for perf.scene_counts: nodes by class, tree depth, scripts,
## the resources the nodes hold (embedded or from files, scripts counted apart), and instanced
## scenes with how deeply they nest. Works on any Node tree (the editor's edited scene, a test
## scene). RUNTIME-REACHABLE: names no Editor* class.

## Listed per map at most (the largest first); the totals still count everything.
const MAX_LISTED := 50
## How deep resources are followed into their own properties (a material's textures, a mesh's
## material): deep enough for the usual chains, bounded so a cyclic or huge graph stays cheap.
const MAX_RESOURCE_DEPTH := 4


static func count(root: Node) -> Dictionary:
	var tally := {"nodes": 0, "max_depth": 0, "classes": {}, "script_nodes": 0, "scripts": {}, "script_ids": {},
		"resources": {}, "instances": 0, "instance_depth": 0, "scenes": {}}
	_visit(root, root, 0, 0, tally)
	var resources: Dictionary = tally["resources"]
	var by_class := {}
	var from_files := 0
	for resource: Resource in resources.values():
		by_class[resource.get_class()] = int(by_class.get(resource.get_class(), 0)) + 1
		if _is_file(resource):
			from_files += 1
	return {"nodes": tally["nodes"], "max_depth": tally["max_depth"], "by_class": _largest(tally["classes"]),
		"scripts": {"nodes_with_script": tally["script_nodes"], "distinct": (tally["script_ids"] as Dictionary).size(),
			"by_path": _largest(tally["scripts"])},
		"resources": {"distinct": resources.size(), "from_files": from_files,
			"embedded": resources.size() - from_files, "by_class": _largest(by_class)},
		"instances": {"count": tally["instances"], "max_nesting": tally["instance_depth"],
			"by_scene": _largest(tally["scenes"])}}


## `depth` counts edges from the counted root; `nesting` how many instanced scenes enclose `node`
## (the node itself included when it is an instance root).
static func _visit(node: Node, top: Node, depth: int, nesting: int, tally: Dictionary) -> void:
	tally["nodes"] += 1
	tally["max_depth"] = maxi(tally["max_depth"], depth)
	var classes: Dictionary = tally["classes"]
	classes[node.get_class()] = int(classes.get(node.get_class(), 0)) + 1
	if node != top and not node.scene_file_path.is_empty():
		nesting += 1
		tally["instances"] += 1
		tally["instance_depth"] = maxi(tally["instance_depth"], nesting)
		var scenes: Dictionary = tally["scenes"]
		scenes[node.scene_file_path] = int(scenes.get(node.scene_file_path, 0)) + 1
	var script := node.get_script() as Script
	if script != null:
		tally["script_nodes"] += 1
		# Listed by file; scripts without one (made in code) share one line but count apart.
		var key := script.resource_path if not script.resource_path.is_empty() else "(unsaved)"
		tally["scripts"][key] = int(tally["scripts"].get(key, 0)) + 1
		tally["script_ids"][script.get_instance_id()] = true
	_collect_resources(node, tally["resources"], 0)
	for child: Node in node.get_children():
		_visit(child, top, depth + 1, nesting, tally)


## Adds every Resource stored in `holder`'s properties (and in arrays there) to `found`, keyed by
## instance id so one shared resource counts once; follows resources into their own properties.
static func _collect_resources(holder: Object, found: Dictionary, depth: int) -> void:
	if depth > MAX_RESOURCE_DEPTH:
		return
	for property: Dictionary in holder.get_property_list():
		if int(property["usage"]) & PROPERTY_USAGE_STORAGE == 0:
			continue
		var type := int(property["type"])
		if type != TYPE_OBJECT and type != TYPE_ARRAY:
			continue
		var value: Variant = holder.get(property["name"])
		var items: Array = value if value is Array else [value]
		for item: Variant in items:
			if item is Resource and not item is Script and not found.has(item.get_instance_id()):
				found[item.get_instance_id()] = item
				_collect_resources(item, found, depth + 1)


## A resource saved in its own file (res://x.tres), not embedded in a scene (res://x.tscn::id).
static func _is_file(resource: Resource) -> bool:
	return not resource.resource_path.is_empty() and not "::" in resource.resource_path


## The MAX_LISTED largest entries of a name -> count map, largest first (ties by name).
static func _largest(counts: Dictionary) -> Dictionary:
	var names: Array = counts.keys()
	names.sort_custom(func(a: Variant, b: Variant) -> bool:
		return counts[a] > counts[b] or (counts[a] == counts[b] and str(a) < str(b)))
	var listed := {}
	for name: Variant in names.slice(0, MAX_LISTED):
		listed[name] = counts[name]
	return listed
