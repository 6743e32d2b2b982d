extends RefCounted
## The dock's pure text helpers (ui/dock.gd): what the user reads must match the server status.

const Assert := preload("assert.gd")
const Dock := preload("res://addons/godot_mcp_toolkit/ui/dock.gd")


func test_status_lines_listening() -> void:
	var lines := Dock.status_lines({"listening": true, "port": 6551, "peers": 2, "godot_version": "4.2.2",
		"lsp_status": {"state": "active", "host": "127.0.0.1", "port": 6005, "detail": ""}, "error": ""})
	Assert.eq(lines["Server"], "127.0.0.1:6551", "bound port")
	Assert.eq(lines["Peers"], "2", "peer count")
	Assert.eq(lines["Godot"], "4.2.2", "engine version")
	Assert.eq(lines["LSP"], "active 127.0.0.1:6005", "bridge verdict")


func test_status_lines_say_headless() -> void:
	var lines := Dock.status_lines({"listening": true, "port": 6550, "godot_version": "4.6.0", "headless": true})
	Assert.eq(lines["Godot"], "4.6.0 (headless)", "an editor without a display says so")


func test_status_lines_not_listening_shows_the_error() -> void:
	var lines := Dock.status_lines({"listening": false, "error": "GODOT_MCP_EDITOR_PORT=abc is not a port"})
	Assert.eq(lines["Server"], "not listening (GODOT_MCP_EDITOR_PORT=abc is not a port)", "error surfaced")
	Assert.contains(lines["LSP"], "unknown", "no verdict yet")


func test_lsp_detail_and_read_only_text() -> void:
	Assert.eq(Dock.lsp_text({"state": "conflict", "host": "127.0.0.1", "port": 6005, "detail": "owned by /p/other"}),
		"conflict 127.0.0.1:6005 (owned by /p/other)", "detail appended")
	Assert.eq(Dock.read_only_text(false, "", false), "no .mcp.json", "missing file")
	Assert.contains(Dock.read_only_text(true, "invalid JSON at line 3", false), "unreadable", "broken file")
	Assert.contains(Dock.read_only_text(true, "", true), "yes", "read-only on")
	Assert.eq(Dock.read_only_text(true, "", false), "no", "read-only off")
