"""The MCP protocol core both transports share: the era of each request and its rules, what a
message may be, the client (peer) a request comes from, one path for a tool call, asking the
person, tasks, pushed errors, and the SDK's server wired to the app. It never imports a
transport (``stdio/``, ``http/``); they import it."""
