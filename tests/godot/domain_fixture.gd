extends RefCounted
## The setup most domain command tests share: a runtime context (over an optional scene root, put
## in the tree here), a registry holding the domain script(s), a scratch folder, calls through the
## registry's handlers and runs of the result examples. A test builds one in _init and calls
## cleanup() from its own cleanup(). Not a test itself (the runner only runs test_*.gd).

const Assert := preload("assert.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")
const ResultExamples := preload("result_examples.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const RuntimeContext := preload("res://addons/godot_mcp_toolkit/context/runtime_context.gd")
const ToolContext := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_tool_context.gd")
const TMP_ROOT := "res://tmp_tests"

var registry: CommandRegistry = null
var context: RuntimeContext = null
var _examples_domain := ""
var _root: Node = null
var _scratch := ""


## `domain_paths`: the commands/*.gd scripts to register; `examples_domain`: the name of the
## tests/fixtures/toolkit/results file; `root`: a scene root the fixture adds to the tree and frees;
## `scratch`: a res://tmp_tests/... folder made now and removed (with its contents) in cleanup();
## `engine_version`: when set, the registry is configured with it (and the context) before registering.
func _init(domain_paths: Array[String], examples_domain: String, root: Node = null, scratch: String = "",
		engine_version: String = "") -> void:
	_examples_domain = examples_domain
	_root = root
	_scratch = scratch
	if root != null:
		(Engine.get_main_loop() as SceneTree).root.add_child(root)
	context = RuntimeContext.new(root)
	registry = CommandRegistry.new()
	if engine_version != "":
		registry.configure(engine_version, context)
	for path: String in domain_paths:
		(load(path) as Script).call("register", registry, context)
	if scratch != "":
		DirAccess.make_dir_recursive_absolute(scratch)


## Frees the scene root and removes the scratch folder, and res://tmp_tests once nothing is left in it.
func cleanup() -> void:
	if is_instance_valid(_root):
		_root.get_parent().remove_child(_root)
		_root.free()
	if _scratch != "":
		remove_tree(_scratch)
	if DirAccess.dir_exists_absolute(TMP_ROOT) and DirAccess.get_directories_at(TMP_ROOT).is_empty():
		DirAccess.remove_absolute(TMP_ROOT)


## Named `invoke` because Object.call cannot be overridden: runs `method`'s registered handler.
## A method no registered domain serves fails the test at once (a handler-less call would stall).
func invoke(method: String, params: Dictionary) -> Dictionary:
	var info := registry.dispatch_info(method)
	if info.is_empty():
		Assert.is_true(false, "%s is not registered by this fixture's domains" % method)
		return {}
	return call_handler(info, params)


## Calls `method` page after page from `params`, following `next_offset` (at most `limit` pages):
## each page must answer, fit one answer (AnswerBudget) and, when it stops, say how to go on
## (a hint naming offset). `each.call(page, number)` checks what one page holds. Returns how many
## pages it took.
func follow_pages(method: String, params: Dictionary, each: Callable, limit: int = 50) -> int:
	var args := params.duplicate()
	var pages := 0
	while pages < limit:
		pages += 1
		var page := invoke(method, args)
		Assert.is_true(page.get("success", false), "%s page %d answers (%s)" % [method, pages, page.get("error", "")])
		Assert.is_true(AnswerBudget.size_of(page) <= AnswerBudget.BYTES, "%s page %d fits one answer (%d bytes)" % [
			method, pages, AnswerBudget.size_of(page)])
		each.call(page, pages)
		if not page.get("has_more", false):
			break
		Assert.contains(page.get("hint", ""), "offset", "%s page %d stops and says how to go on" % [method, pages])
		args["offset"] = page["next_offset"]
	return pages


## Runs the handler of a dispatch_info() entry as dispatch does: a cancellable one also gets a
## tool context. Its reply as it is (a coroutine's is not a Dictionary until it finishes).
static func call_handler(info: Dictionary, params: Dictionary) -> Variant:
	var args: Array = [params]
	if info["cancellable"]:
		args.append(ToolContext.new(1, 1, info["method"]))
	return (info["handler"] as Callable).callv(args)


## Runs example `index` of `method` and checks the reply against the example's result.
func example(method: String, index: int = 0) -> Dictionary:
	var result := invoke(method, ResultExamples.params(_examples_domain, method, index))
	ResultExamples.check(_examples_domain, method, result, index)
	return result


## Removes a folder with everything under it (nothing when it does not exist).
static func remove_tree(path: String) -> void:
	if not DirAccess.dir_exists_absolute(path):
		return
	for folder: String in DirAccess.get_directories_at(path):
		remove_tree(path.path_join(folder))
	for file_name: String in DirAccess.get_files_at(path):
		DirAccess.remove_absolute(path.path_join(file_name))
	DirAccess.remove_absolute(path)
