@tool
extends RefCounted
## The editor seam: the one object through which commands reach the editor, as a few roles of one
## purpose each. A command binds the context as its last argument, reaches the role it needs
## (`context.scenes.open_scene(path)`) and never names an Editor* class, so its logic runs anywhere.
##
##   host      where it runs: editor or not, headless or not, one frame passing (host_role.gd)
##   scenes    the open scenes: the edited root, open/reload/close/save, unsaved marks (scene_role.gd)
##   edits     undo: the undo builder, the histories, the ledger of the assistant's edits (edit_role.gd)
##   project   the project's files and the editor settings (project_role.gd)
##   game      playing the game and the test processes (game_role.gd)
##   debugger  breakpoints, the debugger's state, the log capture (debug_role.gd)
##   viewport  the editor's viewport as an image (viewport_role.gd)
##   person    asking the person at the editor (person_role.gd)
##
## Two implementations fill them: editor/editor_context.gd (the plugin's, over EditorInterface)
## and context/runtime_context.gd (tests and the game). Each role's base names no Editor* class
## and answers every call with a clear "not available", so a missing override is an error, never
## a silent success. scripts/gd_roles.py checks both sides answer every role call.

const HostRole := preload("res://addons/godot_mcp_toolkit/context/host_role.gd")
const SceneRole := preload("res://addons/godot_mcp_toolkit/context/scene_role.gd")
const EditRole := preload("res://addons/godot_mcp_toolkit/context/edit_role.gd")
const ProjectRole := preload("res://addons/godot_mcp_toolkit/context/project_role.gd")
const GameRole := preload("res://addons/godot_mcp_toolkit/context/game_role.gd")
const DebugRole := preload("res://addons/godot_mcp_toolkit/context/debug_role.gd")
const ViewportRole := preload("res://addons/godot_mcp_toolkit/context/viewport_role.gd")
const PersonRole := preload("res://addons/godot_mcp_toolkit/context/person_role.gd")

var host: HostRole = null
var scenes: SceneRole = null
var edits: EditRole = null
var project: ProjectRole = null
var game: GameRole = null
var debugger: DebugRole = null
var viewport: ViewportRole = null
var person: PersonRole = null
