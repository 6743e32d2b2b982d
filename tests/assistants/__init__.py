"""Real assistant CLIs driven offline by a scripted model endpoint, through the bridge, into an editor
(README.md here)."""
