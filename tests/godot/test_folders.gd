extends RefCounted
## base/folders.gd: the one check for "this folder exists", with scheme roots always existing.

const Assert := preload("assert.gd")
const Folders := preload("res://addons/godot_mcp_toolkit/base/folders.gd")


func test_scheme_roots_always_exist() -> void:
	# What the helper is for: this engine (the web build) answers false for the project root.
	Assert.is_true(Folders.exists("res://"), "the project root")
	Assert.is_true(Folders.exists("user://"), "the user folder")
	Assert.is_true(Folders.exists("res://tests/godot"), "a folder")
	Assert.is_false(Folders.exists("res://tests/godot/test_folders.gd"), "a file is no folder")
	Assert.is_false(Folders.exists("res://no/such/folder"), "missing")
