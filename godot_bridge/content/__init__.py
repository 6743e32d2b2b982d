"""What the bridge serves over MCP besides tools: resources, prompts and completions.

Godot's own files are read by ``godot_files/``; the errors Godot pushes and the screenshots kept
for links are kept beside the editor link that receives them (``editor/``).
"""
