@tool
extends "res://addons/godot_mcp_toolkit/context/role.gd"
## Asking the person at the editor, in a dialog over it (ui/consent_dialog.gd). The same in every
## context: where there is no window to show it over, nobody is asked. Runtime-safe.

const ConsentDialog := preload("res://addons/godot_mcp_toolkit/ui/consent_dialog.gd")
const HostRole := preload("res://addons/godot_mcp_toolkit/context/host_role.gd")

## What the person's question is shown over: the editor's base control, set by the plugin; null
## where there is nobody to ask (the game, tests).
var dialog_parent: Node = null
var _host: HostRole = null


func _init(host: HostRole) -> void:
	_host = host


## Asks the person at the editor to allow or refuse what `message` describes, and waits:
## {"answer": "accept" | "decline" | "cancel"} (cancel also when `timeout_ms` passes or `job`, the
## request's ToolContext, is cancelled: the question is withdrawn). Where nobody can be asked (the
## game, a test, a headless editor): {"unavailable": why}. May await, so callers await it.
func ask_person(title: String, message: String, timeout_ms: int, job: RefCounted) -> Dictionary:
	var parent := dialog_parent
	if parent == null or not is_instance_valid(parent):
		return {"unavailable": "this is not an editor with a window, so nobody is there to ask"}
	if _host.is_headless():
		return {"unavailable": "the editor runs headless (no window), so nobody is there to ask"}
	return {"answer": await ConsentDialog.new(title, message).ask(parent, timeout_ms, job)}
