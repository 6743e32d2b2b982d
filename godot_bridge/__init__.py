"""godot-bridge: an MCP server that drives a live Godot editor through the godot_mcp_toolkit plugin."""

__version__ = "0.1.0"
