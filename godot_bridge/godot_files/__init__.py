"""Reading Godot's own files without an editor.

``project.godot`` and the text resource format ``.tscn`` / ``.tres`` share (``text_format.py``), a
scene's node tree as the Scene dock shows it (``scenes.py``), ``uid://`` paths (``uids.py``), and a
PNG's size from its header (``png.py``). Pure reading: nothing here talks to the editor.
"""
