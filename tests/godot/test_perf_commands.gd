extends RefCounted
## Performance observability: perf.snapshot and perf.sample (commands/performance/performance_commands.gd, registered
## through runtime/runtime_domains.gd) over a runtime context whose scene is a throwaway "Game",
## and perf.scene_counts (commands/performance/scene_stats_commands.gd) over a built "Main" scene. perf.sample
## waits for frames, so it runs through the real dispatch lane and the test drives frames by
## emitting SceneTree.process_frame (the runner's own frames do not run during a test); a Burner
## node connected to process_frame sleeps on two chosen frames, and those must come out as the
## spikes. Not covered here: real engine frame times (this engine runs no frames during a test, so
## the Performance time monitors stay as they were; frame_time_ms is measured by the command
## itself and is what the spikes are judged on), and the memory and orphan-node monitors, which a
## release build (this one) reports as 0.

const Assert := preload("assert.gd")
const ResultExamples := preload("result_examples.gd")
const DomainFixture := preload("domain_fixture.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const RuntimeContext := preload("res://addons/godot_mcp_toolkit/context/runtime_context.gd")
const RuntimeDomains := preload("res://addons/godot_mcp_toolkit/runtime/runtime_domains.gd")
const ToolContext := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_tool_context.gd")
const DispatchLane := preload("res://addons/godot_mcp_toolkit/transport/dispatch/dispatch_lane.gd")
const RecordingLane := preload("recording_lane.gd")
const Monitors := preload("res://addons/godot_mcp_toolkit/commands/performance/monitors.gd")
const FrameStats := preload("res://addons/godot_mcp_toolkit/commands/performance/frame_stats.gd")
const PerfCommands := preload("res://addons/godot_mcp_toolkit/commands/performance/performance_commands.gd")

const DOMAIN := "performance"
const PEER := 9
const MAX_PUMPS := 800
## A pumped frame sleeps this long; the Burner's frames sleep BURN_MS on top.
const FRAME_MS := 2
const BURN_MS := 60
const BURNER_SOURCE := "extends Node\n\nvar calls := 0\nvar burn_on: Array = []\n\n" \
	+ "func _ready() -> void:\n\tget_tree().process_frame.connect(_on_frame)\n\n" \
	+ "func _on_frame() -> void:\n\tif calls in burn_on:\n\t\tOS.delay_msec(%d)\n\tcalls += 1\n" % BURN_MS
const CUSTOM_ID := "test_perf/enemies"

var _tree: SceneTree = Engine.get_main_loop() as SceneTree
var _root: Node = null
var _context: RuntimeContext = null
var _registry := CommandRegistry.new()
var _responses: Dictionary = {}


func _init() -> void:
	_root = Node.new()
	_root.name = "Game"
	_tree.root.add_child(_root)
	_context = RuntimeContext.new(_root)
	_registry.configure("4.6.0", _context)
	RuntimeDomains.register_all(_registry, _context)


func cleanup() -> void:
	if Performance.has_custom_monitor(CUSTOM_ID):
		Performance.remove_custom_monitor(CUSTOM_ID)
	_registry.clear()
	_root.free()


func test_snapshot_has_numbers_of_the_right_kinds() -> void:
	var snap: Dictionary = _call("perf.snapshot", {})
	ResultExamples.check(DOMAIN, "perf.snapshot", snap, 0)
	var monitors: Dictionary = snap["monitors"]
	for key: String in monitors:
		var kind: String = Monitors.TABLE[key][1]
		if kind == "count" or kind == "bytes":
			Assert.eq(typeof(monitors[key]), TYPE_INT, "%s is a whole number" % key)
			Assert.is_true(monitors[key] >= 0, "%s is not negative" % key)
		else:
			Assert.eq(typeof(monitors[key]), TYPE_FLOAT, "%s is a float" % key)
	Assert.is_true(monitors["objects"] >= monitors["nodes"], "every node is an object")
	Assert.eq(snap["debug_build"], OS.is_debug_build(), "says which kind of build answers")


func test_snapshot_counts_follow_the_tree() -> void:
	var before: Dictionary = _call("perf.snapshot", {})["monitors"]
	for i in 3:
		_root.add_child(Node.new())
	var orphan := Node.new()
	var after: Dictionary = _call("perf.snapshot", {})["monitors"]
	Assert.eq(after["nodes"] - before["nodes"], 3, "three nodes entered the tree")
	# Orphans are tracked by debug builds only; this release engine reports 0 throughout.
	Assert.eq(after["orphan_nodes"] - before["orphan_nodes"], 1 if OS.is_debug_build() else 0,
		"one node outside the tree is an orphan (in a debug build)")
	Assert.is_true(after["objects"] - before["objects"] >= 4, "and all four are objects")
	orphan.free()


func test_every_monitor_name_is_a_real_constant_here() -> void:
	# 4.6 has every monitor of the table: a misspelt constant would silently drop its key.
	Assert.eq(Monitors.available(), Monitors.TABLE.keys(), "every table entry resolves on 4.6")
	for key: String in Monitors.available():
		Assert.is_true(Monitors.exists(key), key)
	Assert.is_false(Monitors.exists("gpu_temperature"), "an unknown name")
	Assert.is_false(Monitors.exists("custom:nobody_registered_this"), "an unregistered custom monitor")


func test_custom_monitors_are_read_and_sampled() -> void:
	Performance.add_custom_monitor(CUSTOM_ID, func() -> int: return 7)
	Assert.eq(_call("perf.snapshot", {})["custom_monitors"], {CUSTOM_ID: 7}, "the game's own monitor")
	var lane := _lane()
	lane.submit(PEER, 1, "perf.sample", {"frames": 4, "monitors": ["custom:" + CUSTOM_ID]})
	_pump_until(1)
	var stats: Dictionary = _responses[1]["result"]["stats"]
	Assert.eq(stats["custom:" + CUSTOM_ID], {"min": 7, "median": 7.0, "p95": 7, "max": 7}, "sampled per frame")
	lane.submit(PEER, 5, "perf.sample", {"frames": 2, "monitors": ["frame_time_ms", "nodes", "nodes"]})
	_pump_until(5)
	Assert.eq(_responses[5]["result"]["stats"].keys(), ["frame_time_ms", "nodes"],
		"frame time is always there; a name given twice is sampled once")


func test_sample_finds_the_frames_a_node_burns() -> void:
	var burner := Node.new()
	burner.name = "Burner"
	var script := GDScript.new()
	script.source_code = BURNER_SOURCE
	script.reload()
	burner.set_script(script)
	# Emission 0 aligns the sampler on a frame; emission n then ends sampled frame n - 1.
	burner.set("burn_on", [6, 13])
	_root.add_child(burner)
	var lane := _lane()
	lane.submit(PEER, 2, "perf.sample", ResultExamples.params(DOMAIN, "perf.sample", 0).merged({"frames": 20}, true))
	Assert.is_false(_responses.has(2), "no reply before the frames have run")
	var pumps := _pump_until(2)
	var result: Dictionary = _responses[2]["result"]
	Assert.eq([result["frames_requested"], result["frames_sampled"]], [20, 20], "every frame sampled")
	Assert.is_true(pumps >= 21, "it waited for 21 frames (one to align), took %d" % pumps)
	var spikes: Dictionary = result["spikes"]
	var worst: Array = (spikes["frames"] as Array).slice(0, 2).map(func(spike: Dictionary) -> int: return spike["frame"])
	worst.sort()
	Assert.eq(worst, [5, 12], "the two burnt frames are the worst spikes")
	for spike: Dictionary in (spikes["frames"] as Array).slice(0, 2):
		Assert.is_true(spike["frame_time_ms"] >= BURN_MS, "a burnt frame took at least %d ms: %s" % [BURN_MS, spike])
		Assert.eq(spike.keys(), ["frame", "frame_time_ms", "process_time_ms", "draw_calls"],
			"each spike carries the sampled monitors of its frame")
	Assert.is_true(result["stats"]["frame_time_ms"]["max"] >= BURN_MS, "max shows the burn")
	Assert.is_true(result["stats"]["frame_time_ms"]["median"] < BURN_MS / 2.0, "the median does not")
	Assert.eq(result["script_profile"]["available"], false, "no in-process script profiler, said plainly")


func test_the_sample_example_through_the_lane() -> void:
	var lane := _lane()
	lane.submit(PEER, 3, "perf.sample", ResultExamples.params(DOMAIN, "perf.sample", 0))
	_pump_until(3)
	ResultExamples.check(DOMAIN, "perf.sample", _responses[3]["result"], 0)


func test_cancel_stops_sampling() -> void:
	var lane := _lane()
	lane.submit(PEER, 4, "perf.sample", {"frames": 600})
	for i in 3:
		_tree.process_frame.emit()
	Assert.is_true(lane.cancel(PEER, "4"), "the running sample is found")
	_pump_until(4)
	var result: Dictionary = _responses[4]["result"]
	Assert.eq(result.get("cancelled"), true, "says it was cancelled")
	Assert.is_true(result["frames_sampled"] >= 1 and result["frames_sampled"] <= 3, "and stopped early")


func test_a_slow_game_stops_at_the_time_limit() -> void:
	var registry := CommandRegistry.new()
	registry.configure("4.6.0", _context)
	PerfCommands.register(registry, _context, 40)
	var lane := RecordingLane.over(registry, _responses)
	lane.submit(PEER, 6, "perf.sample", {"frames": 600})
	_pump_until(6, 10)
	var result: Dictionary = _responses[6]["result"]
	Assert.eq(result.get("stopped"), "time_limit", "stopped by the clock, not the frame count")
	Assert.is_true(result["frames_sampled"] >= 1 and result["frames_sampled"] < 600, "a partial sample")
	Assert.contains(result["hint"], "Ask for fewer frames", "and says what to do")
	Assert.eq(result["stats"]["frame_time_ms"].keys(), ["min", "median", "p95", "max"], "still summarised")
	registry.clear()


func test_bad_sample_params_wait_for_nothing() -> void:
	var cases := [
		{"frames": 0}, {"frames": 601}, {"frames": 2.5}, {"frames": "10"},
		{"spike_factor": 1.0}, {"spike_factor": 11}, {"spike_factor": "2"},
		{"monitors": "fps"}, {"monitors": ["nope"]}, {"monitors": [3]},
	]
	for params: Dictionary in cases:
		var reply: Variant = _call("perf.sample", params)
		Assert.is_true(reply is Dictionary and reply.get("code") == "INVALID_PARAMS", JSON.stringify(params))
	var unknown: Dictionary = _call("perf.sample", ResultExamples.params(DOMAIN, "perf.sample", 1))
	ResultExamples.check(DOMAIN, "perf.sample", unknown, 1)
	Assert.contains(unknown["hint"], "draw_calls", "the hint lists the names that exist")


func test_summaries_and_spikes() -> void:
	Assert.eq(FrameStats.summarize([5, 1, 3, 2, 4]), {"min": 1, "median": 3.0, "p95": 5, "max": 5}, "odd count")
	Assert.eq(FrameStats.summarize([4.0, 1.0, 3.0, 2.0])["median"], 2.5, "even count: mean of the middle two")
	var twenty: Array = range(1, 21)
	Assert.eq(FrameStats.summarize(twenty)["p95"], 19, "nearest rank: 19 of 1..20")
	Assert.eq(FrameStats.summarize([]), {}, "nothing to summarize")
	Assert.eq(FrameStats.summarize(["x", 2]), {"min": 2, "median": 2.0, "p95": 2, "max": 2}, "text skipped")
	var times := [10.0, 10.0, 35.0, 10.0, 21.0, 10.0]
	var found := FrameStats.spikes(times, 2.0, {"nodes": [1, 2, 3, 4, 5, 6]})
	Assert.eq(found, {"threshold_ms": 20.0, "count": 2, "frames": [
		{"frame": 2, "frame_time_ms": 35.0, "nodes": 3}, {"frame": 4, "frame_time_ms": 21.0, "nodes": 5}]},
		"above 2x the median, worst first, with the other monitors")
	var many: Array = []
	for i in 100:
		many.append(100.0 if i % 3 == 0 else 1.0)
	var capped := FrameStats.spikes(many, 2.0, {})
	Assert.eq([capped["count"], (capped["frames"] as Array).size()], [34, FrameStats.MAX_SPIKES], "listed up to the cap")


func test_scene_counts_match_the_built_scene() -> void:
	var fixture := DomainFixture.new(
		["res://addons/godot_mcp_toolkit/commands/performance/scene_stats_commands.gd"], DOMAIN, _counted_scene())
	var whole := fixture.example("perf.scene_counts", 0)
	Assert.eq(whole["nodes"], 7, "every node counted")
	fixture.example("perf.scene_counts", 1)
	fixture.example("perf.scene_counts", 2)
	var hero := fixture.invoke("perf.scene_counts", {"node_path": "Hero"})
	Assert.eq([hero["nodes"], hero["resources"]["distinct"]], [1, 3], "a leaf with its texture, gradient and material")
	Assert.eq(fixture.invoke("perf.scene_counts", {"node_path": 4})["code"], "INVALID_PARAMS", "a path is text")
	fixture.cleanup()
	var empty := DomainFixture.new(["res://addons/godot_mcp_toolkit/commands/performance/scene_stats_commands.gd"], DOMAIN)
	Assert.eq(empty.invoke("perf.scene_counts", {})["code"], "NO_SCENE", "no edited scene")
	empty.cleanup()


## Main (Node2D, res://levels/main.tscn): Hero and Tree (Sprite2D, one shared GradientTexture1D;
## Hero also has res://hero.gd and a material saved as res://perf_test_glow.tres), Enemy
## (res://enemy.tscn) holding Gun (res://gun.tscn) holding Muzzle (Marker2D), and Enemy2.
func _counted_scene() -> Node:
	var main := Node2D.new()
	main.name = "Main"
	main.scene_file_path = "res://levels/main.tscn"
	var texture := GradientTexture1D.new()
	texture.gradient = Gradient.new()
	var hero := Sprite2D.new()
	hero.name = "Hero"
	hero.texture = texture
	var glow := CanvasItemMaterial.new()
	glow.resource_path = "res://perf_test_glow.tres"
	hero.material = glow
	var script := GDScript.new()
	script.source_code = "extends Sprite2D\n"
	script.reload()
	script.resource_path = "res://hero.gd"
	hero.set_script(script)
	var tree := Sprite2D.new()
	tree.name = "Tree"
	tree.texture = texture
	var enemy := _instance("Enemy", "res://enemy.tscn")
	var gun := _instance("Gun", "res://gun.tscn")
	var muzzle := Marker2D.new()
	muzzle.name = "Muzzle"
	gun.add_child(muzzle)
	enemy.add_child(gun)
	for child: Node in [hero, tree, enemy, _instance("Enemy2", "res://enemy.tscn")]:
		main.add_child(child)
	return main


static func _instance(node_name: String, scene: String) -> Node2D:
	var node := Node2D.new()
	node.name = node_name
	node.scene_file_path = scene
	return node


func _call(method: String, params: Dictionary) -> Variant:
	var info := _registry.dispatch_info(method)
	var args: Array = [params]
	if info["cancellable"]:
		args.append(ToolContext.new(1, PEER, method))
	return (info["handler"] as Callable).callv(args)


func _lane() -> DispatchLane:
	return RecordingLane.over(_registry, _responses)


## Emits process_frame (what the engine does each frame) until request `id` is answered; returns
## how many frames that took.
func _pump_until(id: int, frame_ms: int = FRAME_MS) -> int:
	var pumps := 0
	while not _responses.has(id) and pumps < MAX_PUMPS:
		OS.delay_msec(frame_ms)
		_tree.process_frame.emit()
		pumps += 1
	Assert.is_true(_responses.has(id), "request %d answered within %d frames" % [id, MAX_PUMPS])
	return pumps
