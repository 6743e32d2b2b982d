"""Real assistant CLIs (Claude Code, Gemini CLI, Codex, Copilot, Qwen Code, opencode) driven offline by a scripted model endpoint, through the bridge, into an editor."""
