"""Asking the person before a tool call does what cannot be taken back.

``policy`` says which calls ask (GODOT_MCP_CONFIRM, the catalogue's ``asks``), ``targets`` reads
what a call acts on (whether it asks at all, and the state an answer is bound to), ``question``
is what the person reads and answers (and which answers are no answer), ``tickets`` the
single-use tokens and 2026-07-28 states, ``gate`` the one check every call passes
(``tools/dispatch.py`` calls it), ``outcomes`` what a call that did not run answers,
``editor_dialog`` the question asked in the Godot editor itself. The MCP layer says per request how its client
can be asked (``caller.Caller``); nothing here imports the MCP SDK.
"""
