@tool
extends VBoxContainer
## The editor dock: server status, read-only mirror, limits, token, and writing an MCP client's file.
##
## Built in code (no .tscn) so it has no scene to keep in sync. It only renders and forwards
## button presses; the server, token and settings live elsewhere. bind() takes the editor
## server (get_status(), signal status_changed) and the plugin (regenerate_token(), optional).

const McpJson := preload("mcp_json.gd")
const McpJsonSync := preload("mcp_json_sync.gd")
const SettingsRegistration := preload("../settings/settings_registration.gd")

## Limits shown read-only here (clamped as the server reads them); edited in Project Settings (C22).
const LIMIT_SETTINGS := {
	"WebSocket buffer (KiB)": SettingsRegistration.WS_BUFFER_KB,
	"Save read cap (KiB)": SettingsRegistration.SAVE_READ_CAP_KB,
	"Script read cap (KiB)": SettingsRegistration.SCRIPT_READ_CAP_KB,
}

var _server: Object = null
var _plugin: Object = null
var _values := {}
var _message: Label = null
var _confirm: ConfirmationDialog = null
## The MCP clients the write button can configure (the same list as `godot-bridge init --client`).
var _client: OptionButton = null
var _client_names: PackedStringArray = PackedStringArray()


func _init() -> void:
	name = "MCP"
	_build()


## Connects the dock to the running server and plugin; safe to call again after a restart.
func bind(server: Object, plugin: Object) -> void:
	if _server != null and _server.has_signal("status_changed") and _server.is_connected("status_changed", refresh):
		_server.disconnect("status_changed", refresh)
	_server = server
	_plugin = plugin
	if _server != null and _server.has_signal("status_changed"):
		_server.connect("status_changed", refresh)
	refresh()


func refresh() -> void:
	var mcp_json := McpJsonSync.read_state()
	# Hand the mirror to the server so its status (and anything else reading it) agrees with the
	# dock; the server only signals a real change, so this cannot loop.
	if _server != null and _server.has_method("set_read_only_mirror"):
		_server.set_read_only_mirror(mcp_json.read_only and mcp_json.error.is_empty())
	var status: Dictionary = {}
	if _server != null and _server.has_method("get_status"):
		status = _server.get_status()
	var lines := status_lines(status)
	lines["Read-only (.mcp.json)"] = read_only_text(mcp_json.exists, mcp_json.error, mcp_json.read_only)
	for label: String in LIMIT_SETTINGS:
		lines[label] = str(SettingsRegistration.get_int(LIMIT_SETTINGS[label]))
	for key: String in lines:
		if _values.has(key):
			(_values[key] as Label).text = String(lines[key])


## Pure: label -> text for the status part, from server.get_status().
static func status_lines(status: Dictionary) -> Dictionary:
	var listening := bool(status.get("listening", false))
	var error := String(status.get("error", ""))
	var port_text := "not listening"
	if listening:
		port_text = "127.0.0.1:%d" % int(status.get("port", 0))
	if not error.is_empty():
		port_text += " (%s)" % error
	return {
		"Server": port_text,
		"Peers": str(int(status.get("peers", 0))),
		"Godot": String(status.get("godot_version", "?")) + (" (headless)" if status.get("headless", false) else ""),
		"LSP": lsp_text(status.get("lsp_status")),
	}


## Pure: the bridge-reported LSP verdict (C15) as one line; "unknown" until a bridge reports.
static func lsp_text(lsp_status: Variant) -> String:
	if lsp_status is String and not (lsp_status as String).is_empty():
		return lsp_status
	if not lsp_status is Dictionary or (lsp_status as Dictionary).is_empty():
		return "unknown (no bridge has reported yet)"
	var text := "%s %s:%s" % [
		String(lsp_status.get("state", "?")), String(lsp_status.get("host", "?")), str(lsp_status.get("port", "?"))]
	var detail := String(lsp_status.get("detail", ""))
	return text if detail.is_empty() else "%s (%s)" % [text, detail]


## Pure: the read-only mirror line. The bridge decides; this is what it will decide.
static func read_only_text(exists: bool, error: String, read_only: bool) -> String:
	if not exists:
		return "no .mcp.json"
	if not error.is_empty():
		return "unreadable: %s" % error
	return "yes (mutating tools hidden)" if read_only else "no"


func _build() -> void:
	var grid := GridContainer.new()
	grid.columns = 2
	add_child(grid)
	for key: String in ["Server", "Peers", "Godot", "LSP", "Read-only (.mcp.json)"] + LIMIT_SETTINGS.keys():
		var caption := Label.new()
		caption.text = key
		grid.add_child(caption)
		var value := Label.new()
		value.text = "-"
		value.clip_text = true
		value.size_flags_horizontal = Control.SIZE_EXPAND_FILL
		grid.add_child(value)
		_values[key] = value
	var buttons := HBoxContainer.new()
	add_child(buttons)
	_client = OptionButton.new()
	_client.tooltip_text = "The MCP client to configure: its file in this project."
	var clients := McpJson.clients()
	for name: Variant in clients:
		var spec: Dictionary = clients[name]
		_client.add_item("%s (%s)" % [String(spec.get("label", name)), String(spec.get("file", ""))])
		_client_names.append(String(name))
	buttons.add_child(_client)
	var write_button := Button.new()
	write_button.text = "Write entry"
	write_button.tooltip_text = (
		"Create or update the godot-mcp-toolkit entry in the chosen client's file; other servers are kept.")
	write_button.pressed.connect(_on_write_pressed)
	buttons.add_child(write_button)
	var token_button := Button.new()
	token_button.text = "Regenerate token"
	token_button.tooltip_text = "Issue a new auth token; connected bridges must reconnect."
	token_button.pressed.connect(_on_token_pressed)
	buttons.add_child(token_button)
	_message = Label.new()
	_message.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	add_child(_message)
	_confirm = ConfirmationDialog.new()
	_confirm.dialog_text = "Regenerate the MCP auth token? Connected bridges are dropped and reconnect with the new one."
	_confirm.confirmed.connect(_on_token_confirmed)
	add_child(_confirm)


func _on_write_pressed() -> void:
	var client := McpJsonSync.DEFAULT_CLIENT
	if _client != null and _client.selected >= 0 and _client.selected < _client_names.size():
		client = _client_names[_client.selected]
	var error := McpJsonSync.write("", "", {}, client)
	if not error.is_empty():
		_message.text = error
	else:
		var spec: Dictionary = McpJson.clients().get(client, {})
		var note := String(spec.get("note", ""))
		_message.text = " ".join(PackedStringArray(["%s updated." % String(spec.get("file", "")),
			McpJsonSync.launch_note(), note])).strip_edges()
	refresh()


func _on_token_pressed() -> void:
	_confirm.popup_centered()


func _on_token_confirmed() -> void:
	if _plugin != null and _plugin.has_method("regenerate_token"):
		_plugin.call("regenerate_token")
		_message.text = "Token regenerated."
	else:
		_message.text = "This build of the toolkit cannot regenerate the token from the dock."
	refresh()
