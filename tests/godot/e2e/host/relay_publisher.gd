extends RefCounted
## Where the engine host's registry entry and token land: in place of registry/registry_client.gd
## (the same methods), it reports what the toolkit publishes over the control link, and the test
## writes projects.json and the token file on the machine, as the plugin would. One instance serves
## the editor and the game, as the one registry does.

var _link: RefCounted = null
var _runtime := false


func _init(link: RefCounted) -> void:
	_link = link


func register(project_path: String, port: int, token_path: String, godot_version: String,
		lsp_host: String, lsp_port: int) -> void:
	_link.send({"event": "register", "project_path": project_path, "port": port, "token_path": token_path,
		"token": FileAccess.get_file_as_string(token_path), "godot_version": godot_version,
		"lsp_host": lsp_host, "lsp_port": lsp_port})


func update_lsp_endpoint(host: String, port: int) -> void:
	_link.send({"event": "update_lsp_endpoint", "lsp_host": host, "lsp_port": port})


func unregister() -> void:
	_link.send({"event": "unregister"})


func set_runtime(port: int, pid: int) -> void:
	_runtime = true
	_link.send({"event": "set_runtime", "port": port, "pid": pid})


func clear_runtime() -> void:
	if _runtime:
		_runtime = false
		_link.send({"event": "clear_runtime"})


func has_runtime() -> bool:
	return _runtime
