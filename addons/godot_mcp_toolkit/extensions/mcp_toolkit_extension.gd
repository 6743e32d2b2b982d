@tool
class_name MCPToolkitExtension
extends RefCounted
## Base class for project-provided MCP commands (contract C13). Public API.
##
## Drop a script that extends this class into `res://mcp_extensions/` or
## `res://addons/<any addon>/mcp_extensions/`, with `@tool` as its first line: it runs inside the
## editor, which refuses to instantiate scripts without it. The toolkit instantiates it, calls
## register() once per load, and re-loads it when the file changes (C14). Command names must be
## `<your_domain>.<verb>`; built-in domains (scene., node., editor., ...) are refused, and a name
## another extension already took is refused too: the first one keeps it.
##
## Extensions run with the editor's full trust; only install ones you would run yourself.


## Override to add commands. `registry` is the extension facade:
##   register_command(method, handler, options = null) -> bool
##   create_options(), create_extension_options(description), create_undo_action(description,
##   context_object = null), queue_save(path = ""), check_save(save_id, clear = false),
##   fail(code, message, hint = ""), require(parameters, required)
## A handler takes (params: Dictionary) -> Dictionary, or (params, ctx) when its options mark it
## cancellable. `server` offers broadcast_notification(name, params) and get_status().
func register(_registry: Object, _server: Object) -> void:
	pass


## Optional: called just before this instance's commands are withdrawn (file changed or removed,
## plugin disabled). Release anything register() connected.
func unregister() -> void:
	pass
