"""MCP over stdio: the read/route loop, the lean path that answers the hot methods without the
SDK, the SDK path loaded on first need, the pipes, and the record of unanswered requests."""
