"""Setting a project up for the bridge, and checking that set-up: ``godot-bridge init`` and ``doctor``.

Copying the shipped toolkit into a project, enabling it in ``project.godot``, merging our entry
into the MCP client's configuration (``.mcp.json``), writing it all or nothing; and the
step-by-step checks that say what is broken. These are terminal commands, not the server: while
serving, only live_config uses this package, to find our entry in the client's configuration.
"""
