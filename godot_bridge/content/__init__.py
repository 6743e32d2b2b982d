"""What the bridge serves besides tool calls, and the files and images behind it.

MCP resources, prompts and completions; the screenshots kept for link mode and the PNG header
they are checked by; the errors Godot pushes; and reading Godot's own text files (``project.godot``,
``.tscn``) without an editor.
"""
