extends "res://addons/godot_mcp_toolkit/transport/peer/socket_peer.gd"
## One bridge connection as the engine host carries it: an OUTBOUND WebSocket to the relay
## (tests/engine/e2e/relay.py), which pairs it with the connection the bridge made to the relay's port.
## The transport sees the same peer surface as for an accepted socket.
##
## A browser's WebSocket refuses to send close codes other than 1000 and 3000-4999 (the web engine
## traps on it), yet the toolkit closes with 1001 and 1008. So 1001-1999 travel as 4001-4999 and the
## relay closes the bridge's side with the real code; the toolkit itself uses no 4xxx code.

const CARRIED_BASE := 4000


## The code a browser may send for the toolkit's `code`.
static func carried(code: int) -> int:
	return CARRIED_BASE + code - 1000 if code > 1000 and code < 2000 else code


func close(code: int, reason: String) -> void:
	super.close(carried(code), reason)
