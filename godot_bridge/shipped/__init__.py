"""What this bridge ships beside its code, read by the running server and by ``init`` alike.

Where the Godot plugin is and which version it is (``toolkit_files.py``), and the MCP client entry
it defines (``mcp_entry.py``, from ``ui/mcp_entry.json``). Both the server (which follows its own
entry in ``.mcp.json``) and ``setup/`` (which writes entries) read them here, so the server never
imports the installer.
"""
