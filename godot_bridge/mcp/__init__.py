# Every module of this package imports the SDK; its heavy package __init__ files wait
# until something really needs them (see sdk_import.py).
from godot_bridge.mcp.core.sdk_import import defer_sdk_inits

defer_sdk_inits()
