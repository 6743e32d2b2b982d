"""The tools: the catalogue and its groups, what ``tools/list`` shows, and one ``tools/call``'s path.

Loading and validating the catalogue, the on-demand groups ``discover_tools`` loads, the tool
surface a client sees, and everything a single call passes through on its way to the editor and
back: argument validation, dispatch, progress while it waits, the result's shape and size ceiling.
"""
