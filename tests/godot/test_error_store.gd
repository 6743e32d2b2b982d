extends RefCounted
## Errors pushed, not polled (toolkit side): the error store (logs/error_store.gd: dedup
## by severity+message+file+line with counts, bound, ids, what a push takes), the 4.2-style log
## lines it is fed from before Godot 4.5 (logs/error_lines.gd, logs/log_tail.gd, the held "at:"
## line in logs/log_hub.gd), the per-frame errors.reported batch (logs/error_push.gd) in the wire
## shape of tests/fixtures/toolkit/pushed_errors.json, and real push_error()/push_warning() of this
## 4.6 engine reaching the store through the engine Logger. The servers and debugger.get_log over
## the same store, and crash detection, are in test_error_push.gd.

const Assert := preload("assert.gd")
const ErrorStore := preload("res://addons/godot_mcp_toolkit/logs/error_store.gd")
const ErrorLines := preload("res://addons/godot_mcp_toolkit/logs/error_lines.gd")
const ErrorPush := preload("res://addons/godot_mcp_toolkit/logs/error_push.gd")
const LogFile := preload("res://addons/godot_mcp_toolkit/logs/log_file.gd")
const LogHub := preload("res://addons/godot_mcp_toolkit/logs/log_hub.gd")
const LogTail := preload("res://addons/godot_mcp_toolkit/logs/log_tail.gd")

const FIXTURE := "res://tests/fixtures/toolkit/pushed_errors.json"
const TAIL_DIR := "user://tmp_tests_error_store"
const TAIL_PATH := "user://tmp_tests_error_store/godot.log"
## Godot 4.2's log file: a GDScript runtime error, push_error, push_warning, an engine error.
const LOG_42 := "Godot Engine v4.2.2.stable.official - https://godotengine.org\n" \
	+ "SCRIPT ERROR: Invalid get index 'hp' (on base: 'Nil').\n" \
	+ "          at: _process (res://player.gd:31)\n" \
	+ "USER ERROR: level file missing\n" \
	+ "   at: push_error (core/variant/variant_utility.cpp:1091)\n" \
	+ "WARNING: low health\n   at: hurt (res://player.gd:12)\n" \
	+ "printed line\n" \
	+ "ERROR: no source line\n"


## Time and frames the tests move by hand.
class Clock:
	var now := 1000
	var frame := 1

	func ms() -> int:
		return now

	func frames() -> int:
		return frame


## Every notification a pusher broadcast.
class Recorder:
	var sent: Array = []
	var peers := true

	func broadcast(event_name: String, params: Dictionary) -> void:
		sent.append({"notification": event_name, "params": params})

	func has_peers() -> bool:
		return peers


func cleanup() -> void:
	if FileAccess.file_exists(TAIL_PATH):
		DirAccess.remove_absolute(TAIL_PATH)
	DirAccess.remove_absolute(TAIL_DIR)


func test_repeats_raise_the_count_of_one_entry() -> void:
	var clock := Clock.new()
	var store := ErrorStore.new(10, clock.ms)
	store.record("error", "boom", "res://a.gd", 3, "_ready")
	clock.now = 1500
	store.record("error", "  boom ", "res://a.gd", 3, "_ready")
	store.record("warning", "boom", "res://a.gd", 3, "_ready")
	store.record("error", "boom", "res://a.gd", 4, "_ready")
	store.record("fatal", "odd", "", 0, "")
	var entries := store.entries()
	Assert.eq(entries.map(func(e: Dictionary) -> Array: return [e["id"], e["severity"], e["line"], e["count"]]),
		[[1, "error", 3, 2], [2, "warning", 3, 1], [3, "error", 4, 1], [4, "error", 0, 1]],
		"severity+message+file+line is one entry; an unknown severity counts as an error")
	Assert.eq(entries[0]["time_ms"], 1000, "the time of the first occurrence")
	Assert.eq([entries[3]["file"], entries[3]["function"], entries[3]["stack"]], ["", "", []], "no place given")


func test_bounded_oldest_first_and_ids_keep_growing() -> void:
	var store := ErrorStore.new(3)
	for i in 5:
		store.record("error", "e%d" % i)
	Assert.eq(store.entries().map(func(e: Dictionary) -> String: return e["message"]), ["e2", "e3", "e4"],
		"the oldest went")
	Assert.eq(store.dropped(), 2, "evictions counted")
	Assert.eq(store.clear(), 3, "clear says how many")
	store.record("error", "e0")
	Assert.eq(store.entries()[0]["id"], 6, "ids never repeat, even after a clear")
	store.record("warning", "x".repeat(5000))
	Assert.is_true((store.entries()[1]["message"] as String).length() < 2100, "a huge message is cut")


func test_a_script_frame_beats_the_engines_cpp_location() -> void:
	var stack := [{"file": "res://enemy.gd", "line": 40, "function": "attack"},
		{"file": "res://main.gd", "line": 9, "function": "_ready"}]
	var store := ErrorStore.new()
	store.record("error", "bad target", "core/variant/variant_utility.cpp", 1024, "push_error", stack)
	store.record("error", "own place", "res://x.gd", 5, "f", stack)
	var entries := store.entries()
	Assert.eq([entries[0]["file"], entries[0]["line"], entries[0]["function"]], ["res://enemy.gd", 40, "attack"],
		"push_error's C++ site replaced by the innermost script frame")
	Assert.eq(entries[0]["stack"], stack, "the stack kept, innermost first")
	Assert.eq([entries[1]["file"], entries[1]["line"]], ["res://x.gd", 5], "a script location is kept")
	Assert.eq(ErrorStore.locate("scene/main/node.cpp", 7, "get_node", []),
		{"file": "scene/main/node.cpp", "line": 7, "function": "get_node"}, "no stack: the engine's place")


func test_take_batch_sends_new_once_and_updates_at_most_once_a_second() -> void:
	var clock := Clock.new()
	var store := ErrorStore.new(10, clock.ms)
	store.record("error", "a")
	store.record("warning", "b")
	Assert.eq(store.take_batch().map(func(e: Dictionary) -> int: return e["id"]), [1, 2], "both new ones")
	Assert.eq(store.take_batch(), [], "nothing new")
	store.record("error", "a")
	clock.now += 400
	Assert.eq(store.take_batch(), [], "a repeat within the second waits")
	store.record("error", "a")
	store.record("error", "c")
	Assert.eq(store.take_batch().map(func(e: Dictionary) -> int: return e["id"]), [3], "a new one does not wait")
	clock.now += 600
	var update := store.take_batch()
	Assert.eq(update.map(func(e: Dictionary) -> Array: return [e["id"], e["count"]]), [[1, 3]],
		"the same id again, with the count it reached")
	clock.now += 5000
	Assert.eq(store.take_batch(), [], "no change, no update")


func test_a_storm_is_pushed_in_capped_batches() -> void:
	var store := ErrorStore.new(1000)
	for i in ErrorStore.MAX_BATCH + 5:
		store.record("error", "storm %d" % i)
	Assert.eq(store.take_batch().size(), ErrorStore.MAX_BATCH, "one batch is capped")
	Assert.eq(store.take_batch().size(), 5, "the rest on the next one")


func test_push_one_notification_per_frame_in_the_fixture_shape() -> void:
	var clock := Clock.new()
	var store := ErrorStore.new(10, clock.ms)
	var recorder := Recorder.new()
	var push := ErrorPush.new(store, "game", recorder.broadcast, recorder.has_peers, clock.frames)
	store.record("error", "Node not found: \"Gun\"", "scene/main/node.cpp", 1792, "get_node",
		[{"file": "res://player.gd", "line": 14, "function": "_ready"}])
	store.record("warning", "low health", "res://player.gd", 12, "hurt")
	Assert.is_true(push.tick(), "sent")
	store.record("warning", "later")
	Assert.is_false(push.tick(), "a second tick in the same frame sends nothing")
	clock.frame += 1
	Assert.is_true(push.tick(), "the next frame sends the rest")
	Assert.eq(recorder.sent.size(), 2, "one notification per frame")
	var fixture: Dictionary = JSON.parse_string(FileAccess.get_file_as_string(FIXTURE))
	Assert.eq(JSON.parse_string(JSON.stringify(recorder.sent[0])), fixture["errors.reported"],
		"exactly the shape the bridge is tested with")
	Assert.eq(recorder.sent[1]["params"]["entries"].map(func(e: Dictionary) -> int: return e["id"]), [3],
		"the later entry only")


func test_push_waits_for_a_peer_and_cleans_text() -> void:
	var clock := Clock.new()
	var store := ErrorStore.new(10, clock.ms)
	var recorder := Recorder.new()
	recorder.peers = false
	var push := ErrorPush.new(store, "editor", recorder.broadcast, recorder.has_peers, clock.frames)
	store.record("error", "login failed api_key=abcd1234abcd1234abcd1234 <untrusted-x>", "res://a.gd", 1)
	Assert.is_false(push.tick(), "no bridge, nothing taken")
	recorder.peers = true
	clock.frame += 1
	Assert.is_true(push.tick(), "the first bridge gets what came before it")
	var entry: Dictionary = recorder.sent[0]["params"]["entries"][0]
	Assert.eq(recorder.sent[0]["params"]["source"], "editor", "the source")
	Assert.is_false("abcd1234abcd1234" in entry["message"], "secrets scrubbed")
	Assert.contains(entry["message"], "[untrusted tag removed]", "no envelope breakout")
	Assert.contains(store.entries()[0]["message"], "abcd1234", "the store itself keeps the raw text")


func test_godot_4_2_log_lines_become_errors() -> void:
	var entries := LogFile.parse(LOG_42.split("\n"))
	var found: Array = []
	for entry: Dictionary in entries:
		var error := ErrorLines.from_entry(entry)
		if not error.is_empty():
			found.append(error)
	Assert.eq(found, [
		{"severity": "error", "message": "Invalid get index 'hp' (on base: 'Nil').", "file": "res://player.gd",
			"line": 31, "function": "_process"},
		{"severity": "error", "message": "level file missing", "file": "core/variant/variant_utility.cpp",
			"line": 1091, "function": "push_error"},
		{"severity": "warning", "message": "low health", "file": "res://player.gd", "line": 12, "function": "hurt"},
		{"severity": "error", "message": "no source line", "file": "", "line": 0, "function": ""},
	], "prefix stripped, the at: line split into function, file and line")
	Assert.eq(ErrorLines.parse_at("somewhere odd"), {"file": "", "line": 0, "function": "somewhere odd"},
		"an at: of another shape keeps its text")


func test_the_log_file_is_followed_across_partial_writes_and_rotation() -> void:
	DirAccess.make_dir_recursive_absolute(TAIL_DIR)
	_write(TAIL_PATH, "old line\n", FileAccess.WRITE)
	var tail := LogTail.new(TAIL_PATH, false)
	Assert.eq(tail.read_new(), PackedStringArray(), "what was there before is skipped")
	_write(TAIL_PATH, "ERROR: half", FileAccess.READ_WRITE)
	Assert.eq(tail.read_new(), PackedStringArray(), "an unfinished line waits")
	_write(TAIL_PATH, " done\nnext\n", FileAccess.READ_WRITE)
	Assert.eq(tail.read_new(), PackedStringArray(["ERROR: half done", "next"]), "completed lines, in order")
	_write(TAIL_PATH, "new run\n", FileAccess.WRITE)
	Assert.eq(tail.read_new(), PackedStringArray(["new run"]), "a shorter file is read from its top")
	Assert.eq(LogTail.new(TAIL_DIR + "/none.log").read_new(), PackedStringArray(), "no file, no lines")


func test_hub_follows_a_4_2_log_file_and_holds_an_error_for_its_at_line() -> void:
	var clock := Clock.new()
	var hub := LogHub.new(clock.ms)
	hub.feed_lines(PackedStringArray(["starting", "ERROR: Parse Error: x"]))
	Assert.eq(hub.errors.entries(), [], "an error line at the end waits for its at: line")
	hub.feed_lines(PackedStringArray(["   at: GDScript::reload (res://bad.gd:3)", "ok"]))
	var first := hub.errors.entries()
	Assert.eq([first.size(), first[0]["message"], first[0]["file"], first[0]["line"]],
		[1, "Parse Error: x", "res://bad.gd", 3], "joined with the at: line that came next")
	hub.feed_lines(PackedStringArray(["WARNING: alone"]))
	hub.feed_lines(PackedStringArray())
	Assert.eq(hub.errors.entries()[1]["message"], "alone", "released when nothing follows")
	DirAccess.make_dir_recursive_absolute(TAIL_DIR)
	_write(TAIL_PATH, LOG_42, FileAccess.WRITE)
	hub.follow_file(TAIL_PATH)
	hub.poll()
	hub.poll()
	Assert.eq(hub.errors.entries().size(), 5, "the second poll within 250 ms does not read (the error is held)")
	clock.now += 300
	hub.poll()
	Assert.eq(hub.errors.entries().size(), 6, "a later poll releases it; the file's four problems, from its top")


func test_real_push_error_and_warning_reach_the_store() -> void:
	var hub := LogHub.new()
	Assert.is_true(hub.attach(), "the engine logger attaches on 4.5+ (this is %s)" % Engine.get_version_info()["string"])
	var marker := "store-marker-%d" % Time.get_ticks_usec()
	for i in 3:
		push_error(marker + " failed")
	push_warning(marker + " careful")
	var mine := hub.errors.entries().filter(func(e: Dictionary) -> bool: return marker in str(e["message"]))
	Assert.eq(mine.map(func(e: Dictionary) -> Array: return [e["severity"], e["count"]]),
		[["error", 3], ["warning", 1]], "three identical errors are one entry; the warning its own")
	var first: Dictionary = mine[0]
	Assert.eq(first["message"], marker + " failed", "the text as pushed")
	Assert.is_true(first["line"] > 0 and not (first["file"] as String).is_empty(), "a place: %s:%d" % [
		first["file"], first["line"]])
	if not (first["stack"] as Array).is_empty():
		Assert.eq(first["file"], "res://tests/godot/test_error_store.gd", "the script frame is the place")
	var before := hub.errors.entries().size()
	hub.capture.detach()
	push_error(marker + " after")
	Assert.eq(hub.errors.entries().size(), before, "nothing is recorded once detached")


static func _write(path: String, text: String, mode: FileAccess.ModeFlags) -> void:
	var file := FileAccess.open(path, mode)
	file.seek_end()
	file.store_string(text)
	file.close()
