extends SceneTree
## Compiles every .gd under a res:// folder and prints one line per file (tests/support/gd_engine.py
## parses them): "COMPILE ok <path>", "COMPILE FAIL <path>" (the engine's parse errors are printed
## just before), "COMPILE skip <path>" for the paths given after --skip (the editor glue, which
## names classes only an editor build has). Exit code: 0 when everything else compiled, else 1.
## Usage: ... --script res://tests/godot/compile_check.gd -- res://addons [--skip res://a.gd ...]

var _failed := 0
var _skip: Array[String] = []


func _init() -> void:
	var args := OS.get_cmdline_user_args()
	var root := args[0] if not args.is_empty() else "res://addons"
	var skipping := false
	for arg: String in args.slice(1):
		if arg == "--skip":
			skipping = true
		elif skipping:
			_skip.append(arg)
	_walk(root)
	print("COMPILE done, %d failed" % _failed)
	quit(1 if _failed > 0 else 0)


func _walk(dir: String) -> void:
	var files := DirAccess.get_files_at(dir)
	files.sort()
	for file_name: String in files:
		if not file_name.ends_with(".gd"):
			continue
		var path := dir.path_join(file_name)
		if path in _skip:
			print("COMPILE skip %s" % path)
			continue
		var script := ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_REUSE) as Script
		if script != null and script.can_instantiate():
			print("COMPILE ok %s" % path)
		else:
			_failed += 1
			print("COMPILE FAIL %s" % path)
	var dirs := DirAccess.get_directories_at(dir)
	dirs.sort()
	for sub: String in dirs:
		_walk(dir.path_join(sub))
