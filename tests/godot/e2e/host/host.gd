extends SceneTree
## The engine host for the end-to-end tests (tests/engine/e2e): the real toolkit, composed by
## core/toolkit_app.gd exactly as the editor plugin composes it, over the runtime context on a real
## scene loaded from its .tscn. Two things differ from an editor, and only these: the listener (a
## browser cannot listen, so bridges reach the toolkit through the relay, relay_listener.gd) and
## where the registry entry and token land (reported to the test, relay_publisher.gd).
##
## It reacts to the context's signals as an editor would: an opened scene is loaded and shown (its
## Editable Children marked, as the editor's edit-state instantiation marks them, which a release
## build cannot do); a played scene is instantiated as the game, with the game's runtime server
## started the way the game's autoload starts it (through the relay's second port); a stop ends both.
## At start it registers every file's uid with ResourceUID, as the editor's file scan does.
##
## usage: run_gd.py PROJECT res://e2e_host/host.gd -- -- --relay=ws://127.0.0.1:N
##        --editor-port=E --runtime-port=R --scene=res://scenes/main.tscn
## Ends when the relay goes away (or asks it to quit).

const ToolkitApp := preload("res://addons/godot_mcp_toolkit/core/toolkit_app.gd")
const RuntimeContext := preload("res://addons/godot_mcp_toolkit/context/runtime_context.gd")
const RuntimeServer := preload("res://addons/godot_mcp_toolkit/runtime/mcp_runtime_server.gd")
const EditableInstances := preload("editable_instances.gd")
const RelayLink := preload("relay_link.gd")
const RelayListener := preload("relay_listener.gd")
const RelayPublisher := preload("relay_publisher.gd")
## Real projects' scenes (tests/engine/e2e/fixture_projects.py) open as an editor opens them.
const FIXTURES := "res://fixtures/"

var _options: Dictionary = {}
var _link: RelayLink = null
var _publisher: RelayPublisher = null
var _context: RuntimeContext = null
var _app: ToolkitApp = null
## The edited scenes (path -> root), kept like editor tabs; they do not process, as in an editor.
var _edited: Node = null
var _scenes: Dictionary = {}
var _game: Node = null
var _game_runtime: Node = null
## What the next test process does: {"polls": frames it runs (-1: until killed), "exit_code", "report"}.
var _process_plan: Dictionary = {}
## Settings a test replaced with a real project's (load_settings): name -> the value before.
var _replaced_settings: Dictionary = {}


func _initialize() -> void:
	# As the editor runs: redraw only what changed (the engine otherwise renders every frame and
	# takes a core from the tests for nothing).
	OS.low_processor_usage_mode = true
	_options = _parse(OS.get_cmdline_user_args())
	_link = RelayLink.new(str(_options.get("relay", "")))
	_link.op_received.connect(_on_op)
	_publisher = RelayPublisher.new(_link)
	_register_uids("res://")
	_edited = Node.new()
	_edited.name = "EditedScenes"
	_edited.process_mode = Node.PROCESS_MODE_DISABLED
	root.add_child(_edited)
	var scene := str(_options.get("scene", ""))
	_context = RuntimeContext.new(_show(scene))
	_context.runtime_host.frame_waits = true  # this host has a frame loop: long waits let it serve meanwhile
	_context.runtime_game.process_runner = _run_process
	_context.scenes.open_scene(scene)
	var scenes := _context.runtime_scenes
	scenes.scene_opened.connect(func(path: String) -> void: scenes.set_scene_root(_show(path)))
	_context.runtime_game.play_started.connect(_on_play_started)
	_context.runtime_game.play_stopped.connect(_on_play_stopped)
	_app = ToolkitApp.new(_context, {"getenv": _getenv, "listener": RelayListener.new(_link),
		"publisher": _publisher})
	# The game shares this tree: its pause must not stop the editor side from serving.
	_app.process_mode = Node.PROCESS_MODE_ALWAYS
	root.add_child(_app)
	_app.start()


func _process(_delta: float) -> bool:
	_link.poll()
	if _link.is_closed():
		print("e2e host: the relay is gone; quitting")
		_shutdown()
		quit(0 if _link.was_open() else 1)
	return false


## The environment the toolkit reads: the ports the relay holds for the editor and the game.
func _getenv(name: String) -> String:
	match name:
		"GODOT_MCP_EDITOR_PORT":
			return str(_options.get("editor-port", ""))
		"GODOT_MCP_RUNTIME_PORT":
			return str(_options.get("runtime-port", ""))
	return ""


## The root of the edited scene at `path`: the one already open, else loaded from its file.
func _show(path: String) -> Node:
	if _scenes.has(path) and is_instance_valid(_scenes[path]):
		return _scenes[path]
	var packed := load(path) as PackedScene
	if packed == null:
		push_error("e2e host: cannot load the scene %s" % path)
		return null
	var scene_root := packed.instantiate()
	EditableInstances.mark(scene_root, path)
	# Each scene under a holder of its own, as each has its own viewport in an editor: two roots
	# of one name side by side would have one renamed ("@Node2D@14").
	var holder := Node.new()
	_edited.add_child(holder)
	if path.begins_with(FIXTURES):
		_add_without_running(holder, scene_root)
	else:
		holder.add_child(scene_root)
	_scenes[path] = scene_root
	return scene_root


## Every file's uid into ResourceUID (what the editor's file scan does; an exported game reads them
## from .godot/uid_cache.bin instead): a text resource's from its header, a script's from its .uid
## file. Read here, as the editor reads them: this release build's ResourceLoader.get_resource_uid
## answers -1 for every file.
static func _register_uids(folder: String) -> void:
	var header := RegEx.create_from_string('^\\[gd_(?:scene|resource)[^\\]]*\\buid="(uid://[a-z0-9]+)"')
	for file_name: String in DirAccess.get_files_at(folder):
		var path := folder.path_join(file_name)
		var uid := ""
		var described := path
		if file_name.get_extension() == "uid":
			uid = FileAccess.get_file_as_string(path).strip_edges()
			described = path.get_basename()
		elif file_name.get_extension() in ["tscn", "tres"]:
			var file := FileAccess.open(path, FileAccess.READ)
			var found := header.search(file.get_line()) if file != null else null
			uid = found.get_string(1) if found != null else ""
		var id := ResourceUID.text_to_id(uid) if uid.begins_with("uid://") else ResourceUID.INVALID_ID
		if id != ResourceUID.INVALID_ID and not ResourceUID.has_id(id):
			ResourceUID.add_id(id, described)
	for sub: String in DirAccess.get_directories_at(folder):
		if not sub.begins_with(".") and folder.path_join(sub) != "res://addons":
			_register_uids(folder.path_join(sub))


## As an editor opens a scene: the project's scripts are attached and hold their values, but
## never run (no _ready, no processing), so the scene reads as its file says. A script attached
## to a node already in the tree gets no _ready and does not start processing.
static func _add_without_running(holder: Node, scene_root: Node) -> void:
	var scripted: Array = []
	var pending: Array[Node] = [scene_root]
	while not pending.is_empty():
		var node: Node = pending.pop_back()
		pending.append_array(node.get_children())
		var script: Variant = node.get_script()
		if script == null:
			continue
		var values := {}
		for property: Dictionary in node.get_property_list():
			if int(property["usage"]) & PROPERTY_USAGE_SCRIPT_VARIABLE:
				values[property["name"]] = node.get(property["name"])
		scripted.append([node, script, values])
		node.set_script(null)
	holder.add_child(scene_root)
	for entry: Array in scripted:
		var node: Node = entry[0]
		node.set_script(entry[1])
		for name: String in entry[2]:
			node.set(name, entry[2][name])


## Played: the scene runs as the game, and the game's runtime server starts as its autoload would
## start it (runtime/mcp_runtime_autoload.gd): the same script, added to the tree, listening on
## the runtime port.
func _on_play_started(path: String) -> void:
	_game = (load(path) as PackedScene).instantiate()
	root.add_child(_game)
	current_scene = _game
	_game_runtime = Node.new()
	_game_runtime.name = "MCPToolkitRuntime"
	root.add_child(_game_runtime)
	var server := RuntimeServer.new(_getenv, RelayListener.new(_link), _publisher)
	server.name = "MCPRuntimeServer"
	_game_runtime.add_child(server)


func _on_play_stopped() -> void:
	if _game_runtime != null:
		_game_runtime.queue_free()
		_game_runtime = null
	if _game != null:
		_game.queue_free()
		_game = null
	# What a game process takes with it when it ends: its pause and its clock.
	current_scene = null
	paused = false
	Engine.time_scale = 1.0


## What a test asks of the editor's user (undo, pressing Play/Stop) or of the disk; answered with
## {"event": "reply", "id": ...}.
func _on_op(op: Dictionary) -> void:
	var reply := {"event": "reply", "id": op.get("id")}
	match str(op.get("op", "")):
		"undo":
			reply["ok"] = _context.edits.undo()
		"redo":
			reply["ok"] = _context.edits.redo()
		"user_edit":
			reply["ok"] = _user_edit(str(op.get("node", "")), str(op.get("property", "")), op.get("value"))
		"play":
			reply["error"] = _context.game.play_scene(str(op.get("path", "")))
		"stop":
			_context.game.stop_playing()
			reply["ok"] = true
		"read_file":
			reply.merge(_read_file(str(op.get("path", ""))))
		"write_file":
			reply["ok"] = _write_file(str(op.get("path", "")), Marshalls.base64_to_raw(str(op.get("base64", ""))))
		"remove_file":
			reply["ok"] = DirAccess.remove_absolute(str(op.get("path", ""))) == OK
		"process_plan":
			_process_plan = op.get("plan", {}) as Dictionary
			reply["ok"] = true
		"load_settings":
			reply["ok"] = _load_settings(str(op.get("path", "")), str(op.get("section", "")))
		"restore_settings":
			_restore_settings()
			reply["ok"] = true
		"processes":
			reply["started"] = _context.runtime_game.started_processes.size()
			reply["killed"] = Array(_context.runtime_game.killed_processes)
		"quit":
			_shutdown()
			_link.send(reply)
			_link.poll()
			quit(0)
			return
		_:
			reply["error"] = "unknown op %s" % op.get("op")
	_link.send(reply)


## The user changes a property in the editor: an action of their own on the scene's history.
func _user_edit(node_path: String, property: String, value: Variant) -> bool:
	var scene_root := _context.scenes.scene_root()
	var node := scene_root.get_node_or_null(node_path) if scene_root != null else null
	if node == null:
		return false
	var history := _context.edits.history(_context.edits.history_id_for(node))
	history.create_action("Set %s" % property)
	history.add_do_property(node, property, value)
	history.add_undo_property(node, property, node.get(property))
	history.commit_action()
	return true


## Every key of `section` of a real project's project.godot at `path` into this project's settings
## (in memory, as that project's editor holds them), the values before kept for restore_settings.
func _load_settings(path: String, section: String) -> bool:
	var real := ConfigFile.new()
	if real.load(path) != OK or not real.has_section(section):
		return false
	for key: String in real.get_section_keys(section):
		var name := "%s/%s" % [section, key]
		if not _replaced_settings.has(name):
			_replaced_settings[name] = ProjectSettings.get_setting(name) if ProjectSettings.has_setting(name) else null
		ProjectSettings.set_setting(name, real.get_value(section, key))
	return true


func _restore_settings() -> void:
	for name: String in _replaced_settings:
		ProjectSettings.set_setting(name, _replaced_settings[name])
	_replaced_settings.clear()


## A test process the toolkit starts (test_run): it runs `_process_plan.polls` frames (-1: until
## killed) and, like GUT, writes `_process_plan.report` to the JUnit file its arguments name.
func _run_process(_path: String, args: PackedStringArray) -> Dictionary:
	var report := str(_process_plan.get("report", ""))
	for arg: String in args:
		if arg.begins_with("-gjunit_xml_file=") and not report.is_empty():
			_write_file(arg.trim_prefix("-gjunit_xml_file="), report.to_utf8_buffer())
	return {"polls": int(_process_plan.get("polls", 0)), "exit_code": int(_process_plan.get("exit_code", 0))}


static func _write_file(path: String, data: PackedByteArray) -> bool:
	DirAccess.make_dir_recursive_absolute(path.get_base_dir())
	var file := FileAccess.open(path, FileAccess.WRITE)
	if file == null:
		return false
	file.store_buffer(data)
	file.close()
	return true


## {"kind": "file", "base64": the bytes}, {"kind": "dir"}, or {"kind": null} when nothing is there.
static func _read_file(path: String) -> Dictionary:
	if DirAccess.dir_exists_absolute(path):
		return {"kind": "dir"}
	if not FileAccess.file_exists(path):
		return {"kind": null}
	return {"kind": "file", "base64": Marshalls.raw_to_base64(FileAccess.get_file_as_bytes(path))}


func _shutdown() -> void:
	if _app != null:
		_context.game.stop_playing()
		_app.shutdown(false)
		_app.queue_free()
		_app = null


static func _parse(args: PackedStringArray) -> Dictionary:
	var parsed := {}
	for arg: String in args:
		if arg.begins_with("--") and "=" in arg:
			parsed[arg.substr(2, arg.find("=") - 2)] = arg.substr(arg.find("=") + 1)
	return parsed
