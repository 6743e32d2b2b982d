@tool
extends RefCounted
## Which command names an extension may take (contract C13 collision guard). Pure.
##
## Built-in domains are reserved as whole prefixes, not just the names registered today, so a
## later built-in command can never be shadowed by an extension that got there first.

const RESERVED_DOMAINS := [
	"3d", "animation", "animation_player", "animationtree", "asset", "audiobus", "autoload",
	"bridge", "classdb", "control", "debug", "debugger", "discover", "editor", "execute",
	"extensions", "file", "folder", "game", "groups", "input", "input_map", "lsp", "mcp", "meta",
	"navigation", "node", "particles", "path2d", "procedural", "project", "resource", "runtime",
	"save", "scene", "script", "signal", "sound", "spriteframes", "texture", "theme", "tilemap",
	"tileset", "toolkit",
]
## Transport-level methods handled before dispatch.
const RESERVED_METHODS := ["ping", "echo"]

static var _shape: RegEx = null


## The domain part of `domain.verb` ("" when there is no dot).
static func domain_of(method: String) -> String:
	var dot := method.find(".")
	return method.left(dot) if dot > 0 else ""


## "" when `method` is acceptable for an extension, else the reason it is refused.
## `extra_reserved` adds domains seen on built-in commands at run time; `taken` says whether the
## name is already registered by anyone.
static func refusal(method: String, extra_reserved: Array = [], taken: bool = false) -> String:
	if _shape == null:
		_shape = RegEx.create_from_string("^[a-z][a-z0-9_]*(\\.[a-z0-9_]+)+$")
	if method in RESERVED_METHODS or method.begins_with("_"):
		return "'%s' is a transport method name" % method
	if _shape.search(method) == null:
		return "'%s' is not of the form domain.verb (lowercase, digits, underscores)" % method
	var domain := domain_of(method)
	if domain in RESERVED_DOMAINS or domain in extra_reserved:
		return "'%s' uses the built-in domain '%s.'; pick a domain of your own" % [method, domain]
	if taken:
		return "'%s' is already registered; the first registration keeps it" % method
	return ""
