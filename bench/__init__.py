"""The godot-bridge benchmark (run by hand: ``python -m bench``; not part of the test suite)."""
