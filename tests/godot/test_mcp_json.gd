extends RefCounted
## ui/mcp_json.gd and ui/mcp_json_sync.gd against tests/fixtures/toolkit/mcp_json_merge.json and
## client_file_writes.json (the Python tests run the same cases against godot-bridge init's code).

const Assert := preload("assert.gd")
const McpJson := preload("res://addons/godot_mcp_toolkit/ui/mcp_json.gd")
const McpJsonSync := preload("res://addons/godot_mcp_toolkit/ui/mcp_json_sync.gd")
const JsonText := preload("res://addons/godot_mcp_toolkit/ui/json_text.gd")
const VersionUtils := preload("res://addons/godot_mcp_toolkit/base/version_utils.gd")
const FIXTURE := "res://tests/fixtures/toolkit/mcp_json_merge.json"
## The bytes each half writes for the same file: godot-bridge init's run by the Python tests.
const WRITES := "res://tests/fixtures/toolkit/client_file_writes.json"

var _scratch := ""


func test_merge_cases() -> void:
	for case: Dictionary in _fixture()["cases"]:
		var label := String(case["name"])
		var existing: Dictionary = case["input"]
		var spec: Dictionary = McpJson.clients().get(case.get("client", ""), {})
		var merged := _merge_case(case)
		var problem := McpJson.validate(existing, String(spec.get("servers", McpJson.SERVERS)),
			String(spec.get("env_key", "env")))
		if case.has("expected_error"):
			Assert.contains(problem, String(case["expected_error"]), label)
			Assert.eq(merged, existing, label + ": a refused input comes back unchanged")
		else:
			Assert.eq(problem, "", label + ": validates")
			Assert.eq(merged, case["expected"], label)
			if not spec.is_empty():
				var servers := String(spec["servers"])
				Assert.eq((merged[servers][McpJson.server_key()] as Dictionary).keys(),
					(case["expected"][servers][McpJson.server_key()] as Dictionary).keys(), label + ": key order")


## A fixture case merged as `godot-bridge init` merges it: its client's spelling and recorded limits.
func _merge_case(case: Dictionary) -> Dictionary:
	var spec: Dictionary = McpJson.clients().get(case.get("client", ""), {})
	return McpJson.merge(case["input"], String(case["os"]), case["env_overrides"], McpJson.SERVERS, {}, {}, spec,
		case.get("limits", {}))


func test_merge_does_not_mutate_its_input() -> void:
	var existing := {"mcpServers": {"other": {"command": "x"}}}
	var before := existing.duplicate(true)
	McpJson.merge(existing, "Linux", {"GODOT_MCP_READ_ONLY": "1"})
	Assert.eq(existing, before, "input untouched")


## The same cases read the way the dock reads the file: whole numbers stay ints and decimals stay
## floats, checked by type (Assert.eq alone counts 0 and 0.0 as equal).
func test_merge_cases_keep_number_kinds() -> void:
	var parsed := JsonText.parse(_fixture_text())
	Assert.eq(parsed["error"], "", "fixture parses")
	for case: Dictionary in parsed["data"]["cases"]:
		if case.has("expected"):
			var merged := _merge_case(case)
			Assert.eq(_kinds(merged), _kinds(case["expected"]), String(case["name"]) + ": number kinds")
			Assert.eq(merged, case["expected"], String(case["name"]))


func test_parse_keeps_integers_exact() -> void:
	var parsed := JsonText.parse("{\"a\": [0, -7, 2.50, 1e3, 9007199254740993], \"s\": \"12 \\\" 3.5\"}")
	var values: Array = parsed["data"]["a"]
	Assert.eq([typeof(values[0]), typeof(values[1]), typeof(values[2]), typeof(values[3]), typeof(values[4])],
		[TYPE_INT, TYPE_INT, TYPE_FLOAT, TYPE_FLOAT, TYPE_INT], "ints stay ints, decimals and exponents floats")
	Assert.is_true(values[4] == 9007199254740993, "a large integer is exact, not rounded through a float")
	Assert.eq(parsed["data"]["s"], "12 \" 3.5", "numbers inside strings are not numbers")
	Assert.contains(String(JsonText.parse("{\"a\": }")["error"]), "line 1", "a parse error says where")


func test_sync_keeps_other_servers_integers() -> void:
	var path := _scratch_path()
	_write(path, "{\"mcpServers\": {\"other\": {\"command\": \"node\", \"timeout\": 0, \"ratio\": 0.5, \"scale\": 1.0}}}")
	Assert.eq(McpJsonSync.write(path, "Linux", {}), "", "write succeeds")
	var text := FileAccess.get_file_as_string(path)
	Assert.contains(text, "\"timeout\": 0,", "integer 0 written as 0")
	Assert.is_false(text.contains("\"timeout\": 0.0"), "not as 0.0")
	Assert.contains(text, "\"ratio\": 0.5", "a decimal stays a decimal")
	# A whole float is written "1.0" from Godot 4.4 on and "1" before; both are the same JSON number.
	Assert.contains(text, "\"scale\": 1", "a whole float keeps its value")


func test_the_file_written_is_the_cases_bytes() -> void:
	var text := FileAccess.get_file_as_string(WRITES).replace("{version}", VersionUtils.plugin_version())
	var cases: Array = JSON.parse_string(text)["cases"]
	for index in cases.size():
		var case: Dictionary = cases[index]
		var label := String(case["name"])
		var path := _scratch_path().get_base_dir().path_join("written_%d.json" % index)
		if case["input"] != null:
			_write(path, String(case["input"]))
		var error := McpJsonSync.write(path, String(case["os"]), case["env_overrides"])
		if case["toolkit"] == null:
			Assert.ne(error, "", label + ": refused")
			Assert.eq(FileAccess.get_file_as_string(path), case["input"], label + ": left as it was")
		else:
			Assert.eq(error, "", label + ": written")
			Assert.eq(FileAccess.get_file_as_string(path), case["toolkit"], label)


func test_read_only_cases() -> void:
	for case: Dictionary in _fixture()["read_only"]:
		Assert.eq(McpJson.read_only_from(case["input"]), bool(case["expected"]), String(case["name"]))


func test_sync_writes_then_reads_back() -> void:
	var path := _scratch_path()
	_write(path, "{\"mcpServers\": {\"other\": {\"command\": \"npx\", \"args\": []}}}")
	Assert.eq(McpJsonSync.write(path, "Linux", {"GODOT_MCP_READ_ONLY": "true"}), "", "write succeeds")
	var state := McpJsonSync.read_state(path)
	Assert.eq(state.error, "", "file is valid after the write")
	Assert.eq(state.server_key, McpJson.server_key(), "our entry is found")
	Assert.is_true(state.read_only, "read-only mirror follows the env")
	Assert.is_true((state.config["mcpServers"] as Dictionary).has("other"), "other server kept")
	Assert.is_false(FileAccess.file_exists(path + ".tmp"), "no temp file left behind")


func test_sync_refuses_malformed_file() -> void:
	var path := _scratch_path()
	var garbage := "{\"mcpServers\": {\"other\": "
	_write(path, garbage)
	var error := McpJsonSync.write(path, "Linux", {})
	Assert.contains(error, "invalid JSON", "the dock gets a reason")
	Assert.eq(FileAccess.get_file_as_string(path), garbage, "malformed file left as it was")


func test_sync_missing_file_is_created() -> void:
	var path := _scratch_path()
	Assert.is_false(McpJsonSync.read_state(path).exists, "no file yet")
	Assert.eq(McpJsonSync.write(path, "Windows", {}), "", "created")
	var state := McpJsonSync.read_state(path)
	Assert.eq(state.config["mcpServers"]["godot-mcp-toolkit"]["command"], "cmd", "Windows launch")


func test_sync_writes_each_client_where_it_reads() -> void:
	var dir := _scratch_path().get_base_dir()
	var vscode := dir.path_join("vscode_mcp.json")
	Assert.eq(McpJsonSync.write(vscode, "Linux", {}, "vscode"), "", "VS Code written")
	var entry: Dictionary = JSON.parse_string(FileAccess.get_file_as_string(vscode))["servers"][McpJson.server_key()]
	Assert.eq(entry["type"], "stdio", "VS Code needs the transport")
	var codex := dir.path_join("config.toml")
	_write(codex, "model = \"o4\"\n")
	Assert.eq(McpJsonSync.write(codex, "Linux", {}, "codex"), "", "Codex written")
	var toml := FileAccess.get_file_as_string(codex)
	Assert.is_true(toml.begins_with("model = \"o4\"\n\n[mcp_servers.godot-mcp-toolkit]\n"), "appended, the rest kept")
	Assert.contains(toml, "godot-bridge@" + VersionUtils.plugin_version(), "uvx pinned to this plugin's version")
	Assert.contains(McpJsonSync.write(codex, "Linux", {}, "codex"), "already has", "a second write is left to init")
	var names := ["claude", "cursor", "vscode", "codex", "gemini", "copilot", "qwen", "opencode"]
	Assert.eq(McpJson.clients().keys(), names, "the list init offers")


func test_sync_writes_opencode_in_its_spelling_with_the_recorded_limits() -> void:
	var dir := _scratch_path().get_base_dir()
	var record := dir.path_join("record_limits.json")
	Assert.eq(McpJsonSync.recorded_limits(record), {}, "no record: no limits")
	_write(record, JSON.stringify({"limits": {"call_ms": 1980000, "call_s": 1980, "start_s": 60}}))
	Assert.eq(McpJsonSync.recorded_limits(record), {"call_ms": 1980000, "call_s": 1980, "start_s": 60}, "read")
	var spec: Dictionary = McpJson.clients()["opencode"]
	var merged := McpJson.merge({}, "Linux", {}, McpJson.SERVERS, {}, {}, spec, McpJsonSync.recorded_limits(record))
	var entry: Dictionary = merged["mcp"][McpJson.server_key()]
	Assert.eq(entry["type"], "local", "opencode's local server")
	Assert.eq(entry["command"][0], "uvx", "command and args in one array")
	Assert.eq(entry["environment"], {"GODOT_MCP_CONFIG_VERSION": "1"}, "its env is called environment")
	Assert.eq(typeof(entry["timeout"]), TYPE_INT, "a whole number of milliseconds")
	Assert.contains(JSON.stringify(merged), "\"timeout\":1980000", "written without a fraction")
	var opencode := dir.path_join("opencode.json")
	Assert.eq(McpJsonSync.write(opencode, "Linux", {}, "opencode"), "", "opencode written")
	var written: Dictionary = JSON.parse_string(FileAccess.get_file_as_string(opencode))["mcp"][McpJson.server_key()]
	Assert.is_true(written["command"] is Array and not written.has("args"), "the dock writes its spelling too")


func test_recorded_launch_is_what_the_dock_writes() -> void:
	var record := _scratch_path().get_base_dir().path_join("record.json")
	Assert.eq(McpJsonSync.recorded_launch(record), {}, "no record: a plugin copied by hand")
	Assert.contains(McpJsonSync.launch_note(record), "godot-bridge init", "and the dock says how to point it elsewhere")
	_write(record, JSON.stringify({"launch": {"command": "/opt/bin/godot-bridge", "args": [], "how": "installed"}}))
	Assert.eq(McpJsonSync.recorded_launch(record), {"command": "/opt/bin/godot-bridge", "args": []}, "init's choice")
	var merged := McpJson.merge({}, "Linux", {}, "mcpServers", McpJsonSync.recorded_launch(record))
	Assert.eq(merged["mcpServers"][McpJson.server_key()]["command"], "/opt/bin/godot-bridge", "used as the command")


func cleanup() -> void:
	if _scratch.is_empty():
		return
	for file_name: String in DirAccess.get_files_at(_scratch):
		DirAccess.remove_absolute(_scratch.path_join(file_name))
	DirAccess.remove_absolute(_scratch)


## `value` with every number replaced by its type name, so kinds can be compared.
func _kinds(value: Variant) -> Variant:
	if value is Dictionary:
		var out := {}
		for key: Variant in value:
			out[key] = _kinds(value[key])
		return out
	if value is Array:
		return (value as Array).map(_kinds)
	if value is int:
		return "int"
	if value is float:
		return "float"
	return value


## {version} in the fixture is this plugin's version: the uvx form is pinned to it.
func _fixture() -> Dictionary:
	return JSON.parse_string(_fixture_text())


func _fixture_text() -> String:
	return FileAccess.get_file_as_string(FIXTURE).replace("{version}", VersionUtils.plugin_version())


func _scratch_path() -> String:
	if _scratch.is_empty():
		_scratch = OS.get_user_data_dir().path_join("mcp_json_test_%d" % randi())
		DirAccess.make_dir_recursive_absolute(_scratch)
	return _scratch.path_join(".mcp.json")


func _write(path: String, text: String) -> void:
	var file := FileAccess.open(path, FileAccess.WRITE)
	file.store_string(text)
	file.close()
