extends RefCounted
## asset.list over a project: which files come first (the project's own top folder before its
## subfolders, plugins under res://addons/ last), the toolkit's own folder never listed, pages
## followed with offset / next_offset to every file once, and what is left counted by folder.

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const AssetIndex := preload("res://addons/godot_mcp_toolkit/commands/asset/asset_index.gd")

const DOMAIN := "res://addons/godot_mcp_toolkit/commands/asset/asset_commands.gd"
const DIR := "res://tmp_tests/asset_listing"
const TOOLKIT := "res://addons/godot_mcp_toolkit/"
## A small project under DIR: two files on top, a folder and a folder inside it.
const FILES := ["zeta.tres", "alpha.gd", "art/b.tres", "art/a.tres", "art/deep/c.tres", "levels/one.tscn",
	"levels/two.tscn", "levels/three.tscn"]

var _fx: DomainFixture = null


func _init() -> void:
	var domains: Array[String] = [DOMAIN]
	_fx = DomainFixture.new(domains, "asset", null, DIR)
	for file: String in FILES:
		DirAccess.make_dir_recursive_absolute(DIR.path_join(file).get_base_dir())
		var text := "extends Node\n" if file.ends_with(".gd") else "[gd_resource type=\"Resource\" format=3]\n"
		FileAccess.open(DIR.path_join(file), FileAccess.WRITE).store_string(text)


func cleanup() -> void:
	_fx.cleanup()


func test_a_folder_lists_its_own_files_before_its_subfolders() -> void:
	var listed := _fx.invoke("asset.list", {"path_prefix": DIR})
	Assert.eq(_paths(listed), [DIR + "/alpha.gd", DIR + "/zeta.tres", DIR + "/art/a.tres", DIR + "/art/b.tres",
		DIR + "/levels/one.tscn", DIR + "/levels/three.tscn", DIR + "/levels/two.tscn", DIR + "/art/deep/c.tres"],
		"the top folder first, then one folder deep, then two")
	Assert.eq([listed["returned"], listed["total_files"], listed["has_more"]], [8, 8, false], "all of it")
	Assert.is_false(listed.has("remaining") or listed.has("hint") or listed.has("next_offset"), "nothing left to say")


func test_plugins_come_after_the_project_and_the_toolkit_not_at_all() -> void:
	var order := AssetIndex.listing_order(PackedStringArray(["res://addons/gut/gut.gd", "res://levels/a/deep.tscn",
		"res://main.tscn", "res://addons/plugin.cfg", "res://player/player.gd"]))
	Assert.eq(Array(order), ["res://main.tscn", "res://player/player.gd", "res://levels/a/deep.tscn",
		"res://addons/plugin.cfg", "res://addons/gut/gut.gd"], "the project's own files, then res://addons/")
	var everything := _fx.invoke("asset.list", {"limit": 2000})
	var toolkit := _paths(everything).filter(func(path: String) -> bool: return path.to_lower().begins_with(TOOLKIT))
	Assert.eq(toolkit, [], "the toolkit's own files are not the project's")
	Assert.eq(_paths(everything)[0], "res://project.godot", "the project's top folder comes first")
	var addons := _fx.invoke("asset.list", {"path_prefix": "res://addons/"})
	Assert.eq(addons["total_files"], 0, "res://addons/ holds only the toolkit here")
	Assert.eq(_fx.invoke("asset.list", {"path_prefix": TOOLKIT})["code"], "PATH_DENIED",
		"named, it is refused as every tool refuses it")


func test_pages_follow_offset_to_every_file_once() -> void:
	var seen: Array = []
	var each := func(page: Dictionary, number: int) -> void:
		Assert.eq(page["returned"], page["files"].size(), "returned counts page %d" % number)
		seen.append_array(_paths(page))
		if page["has_more"]:
			var left: int = page["total_files"] - page["next_offset"]
			var counted: int = page["remaining"].values().reduce(func(sum: int, count: int) -> int: return sum + count, 0)
			Assert.eq(counted, left, "remaining counts every file left after page %d" % number)
	var pages := _fx.follow_pages("asset.list", {"path_prefix": DIR + "/", "limit": 3}, each, 10)
	Assert.eq(pages, 3, "8 files, 3 a page")
	Assert.eq(seen, _paths(_fx.invoke("asset.list", {"path_prefix": DIR})), "the pages joined are the listing")
	var first := _fx.invoke("asset.list", {"path_prefix": DIR, "limit": 3})
	Assert.eq(first["remaining"], {DIR + "/art/": 2, DIR + "/levels/": 3}, "what is left, by the folder it is in")
	var second := _fx.invoke("asset.list", {"path_prefix": DIR, "limit": 3, "offset": 3})
	Assert.eq(second["remaining"], {DIR + "/art/": 1, DIR + "/levels/": 1}, "fewer on the next page")
	var top := _fx.invoke("asset.list", {"path_prefix": DIR, "limit": 1})
	Assert.eq(top["remaining"][DIR + "/"], 1, "files of the listed folder itself count under it")
	var past := _fx.invoke("asset.list", {"path_prefix": DIR, "offset": 50})
	Assert.eq([past["returned"], past["has_more"], past["files"]], [0, false, []], "past the end: nothing, and no more")
	Assert.eq(_fx.invoke("asset.list", {"offset": -1})["code"], "INVALID_PARAMS", "offset >= 0")
	Assert.eq(_fx.invoke("asset.list", {"offset": 1.5})["code"], "INVALID_PARAMS", "a whole offset")


## Thirty folders: `remaining` names only the fullest, so it stays short.
func test_a_crowded_project_keeps_remaining_short() -> void:
	var crowd := DIR + "_crowd"
	for folder in 30:
		var sub := crowd.path_join("folder_%02d" % folder)
		DirAccess.make_dir_recursive_absolute(sub)
		for index in (folder % 5) + 1:
			FileAccess.open(sub.path_join("file_%d.txt" % index), FileAccess.WRITE).store_string("x")
	var page := _fx.invoke("asset.list", {"path_prefix": crowd + "/", "limit": 1})
	DomainFixture.remove_tree(crowd)
	var counts: Array = page["remaining"].values()
	counts.sort()
	Assert.eq(counts, [4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5], "the twelve fullest folders of thirty")
	Assert.eq(page["remaining"].keys()[0], crowd + "/folder_03/", "in path order")


static func _paths(listed: Dictionary) -> Array:
	return (listed.get("files", []) as Array).map(func(entry: Dictionary) -> String: return entry["path"])
