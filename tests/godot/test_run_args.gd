extends RefCounted
## context/run_args.gd: where an engine argument goes in editor/run/main_run_args so the game
## started from the editor reads it (the editor context swaps the setting around a play).

const Assert := preload("assert.gd")
const RunArgs := preload("res://addons/godot_mcp_toolkit/context/run_args.gd")

const HEADLESS := ["--headless"]


func test_appended_to_plain_arguments() -> void:
	Assert.eq(RunArgs.with_extra("", PackedStringArray(HEADLESS)), "--headless", "empty setting")
	Assert.eq(RunArgs.with_extra("--time-scale 0.5", PackedStringArray(HEADLESS)), "--time-scale 0.5 --headless",
		"after the user's engine arguments")


func test_before_the_games_own_arguments() -> void:
	Assert.eq(RunArgs.with_extra("--verbose -- --level 3", PackedStringArray(HEADLESS)),
		"--verbose --headless -- --level 3", "before --: after it the engine reads nothing")
	Assert.eq(RunArgs.with_extra("++ host", PackedStringArray(HEADLESS)), "--headless ++ host", "before ++ too")


func test_after_the_command_placeholder() -> void:
	Assert.eq(RunArgs.with_extra("prime-run %command% --time-scale 2", PackedStringArray(HEADLESS)),
		"prime-run %command% --time-scale 2 --headless", "only what follows %command% reaches Godot")
	Assert.eq(RunArgs.with_extra("--headless %command%", PackedStringArray(HEADLESS)),
		"--headless %command% --headless", "a wrapper's own --headless is not Godot's")


func test_already_there_is_unchanged() -> void:
	var raw := "--headless  --verbose"
	Assert.eq(RunArgs.with_extra(raw, PackedStringArray(HEADLESS)), raw, "the setting is left exactly as it was")
	Assert.eq(RunArgs.with_extra("-- --headless", PackedStringArray(HEADLESS)), "--headless -- --headless",
		"a game argument of the same name does not count")
	Assert.eq(RunArgs.with_extra("x", PackedStringArray()), "x", "nothing to add")


func test_quoted_arguments_keep_their_spaces() -> void:
	Assert.eq(Array(RunArgs.split("--name \"my game\" 'a b' c")), ["--name", "\"my game\"", "'a b'", "c"], "split")
	Assert.eq(RunArgs.with_extra("--name \"my game\"", PackedStringArray(HEADLESS)), "--name \"my game\" --headless",
		"joined back")


## The editor context's play: the setting holds the extra argument while the game is started (after
## a frame, for the Run Instances dialog of 4.3+) and is back as it was right after.
func test_play_with_sets_the_setting_for_one_launch() -> void:
	var before: Variant = ProjectSettings.get_setting(RunArgs.SETTING, "")
	ProjectSettings.set_setting(RunArgs.SETTING, "--verbose")
	var seen := {"at_play": "", "frames": 0}
	var play := func() -> void: seen["at_play"] = str(ProjectSettings.get_setting(RunArgs.SETTING))
	var frame := func() -> void: seen["frames"] = int(seen["frames"]) + 1
	await RunArgs.play_with(PackedStringArray(HEADLESS), play, frame)
	Assert.eq(seen["at_play"], "--verbose --headless", "the game is started with it")
	Assert.eq(seen["frames"], 1, "after one frame")
	Assert.eq(ProjectSettings.get_setting(RunArgs.SETTING), "--verbose", "put back right after")
	await RunArgs.play_with(PackedStringArray(), play, frame)
	Assert.eq([seen["at_play"], seen["frames"]], ["--verbose", 1], "nothing to add: no change, no wait")
	ProjectSettings.set_setting(RunArgs.SETTING, before)
