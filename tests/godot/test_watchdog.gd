extends RefCounted
## transport/dispatch/mutation_watchdog.gd with a hand-driven clock.

const Assert := preload("assert.gd")
const Watchdog := preload("res://addons/godot_mcp_toolkit/transport/dispatch/mutation_watchdog.gd")
const Settings := preload("res://addons/godot_mcp_toolkit/settings/settings_registration.gd")

var _time := {"now": 1000, "grace": 500}
var _watchdog: Watchdog = null


func _init() -> void:
	_watchdog = Watchdog.new(func() -> int: return _time["now"], func() -> int: return _time["grace"])


func test_budget_is_declared_timeout_plus_grace() -> void:
	Assert.eq(_watchdog.budget_ms(2000), 2500, "declared + grace")
	Assert.eq(_watchdog.budget_ms(0), Watchdog.DEFAULT_TIMEOUT_MS + 500, "the default when undeclared")
	_time["grace"] = -5
	Assert.eq(_watchdog.budget_ms(100), 100, "a negative grace counts as none")


func test_expires_only_after_the_deadline() -> void:
	_watchdog.arm(3, 1000)
	_time["now"] += 1499
	Assert.eq(_watchdog.take_expired(), -1, "not yet")
	_time["now"] += 1
	Assert.eq(_watchdog.take_expired(), 3, "expired at the deadline")
	Assert.eq(_watchdog.take_expired(), -1, "reported once")
	Assert.is_false(_watchdog.is_armed(), "no longer watching")


func test_grace_is_read_when_armed() -> void:
	_watchdog.arm(1, 1000)
	_time["grace"] = 100000
	_time["now"] += 1500
	Assert.eq(_watchdog.take_expired(), 1, "the grace at arm time applies")


func test_disarm_ignores_stale_serials() -> void:
	_watchdog.arm(5, 1000)
	_watchdog.disarm(4)
	Assert.is_true(_watchdog.is_armed(), "another mutation's disarm is ignored")
	_watchdog.disarm(5)
	Assert.is_false(_watchdog.is_armed(), "own disarm stops watching")
	_time["now"] += 10000
	Assert.eq(_watchdog.take_expired(), -1, "nothing to expire")


## The numbers against the bridge: it gives up on a call 30 s after the _executing notice (its
## default call timeout, godot_bridge/editor/timing.py), so an undeclared mutation must not hold
## the lane much longer than that. A few seconds of grace cover the notice's trip and a slow frame.
func test_default_budget_follows_the_bridge_call_timeout() -> void:
	Assert.eq(Watchdog.DEFAULT_TIMEOUT_MS, 30000, "the bridge's default call timeout")
	Assert.eq(Settings.default_of(Settings.MUTATION_WATCHDOG_GRACE_MS), 5000, "5 s default grace")
	var stock := Watchdog.new(func() -> int: return 0,
		func() -> int: return Settings.get_int(Settings.MUTATION_WATCHDOG_GRACE_MS))
	Assert.eq(stock.budget_ms(0), 35000, "an undeclared mutation frees the lane after 35 s, not 6 min")
	Assert.eq(stock.budget_ms(60000), 65000, "a declared timeout (game_start's 60 s) gets the same grace")
