@tool
extends RefCounted
## Frees the mutation lane when a handler never finishes (contract C5): a handler that awaits a
## signal which never comes would otherwise hold the lock forever and every later mutation would
## queue behind it. Budget = the command's declared timeout (DEFAULT_TIMEOUT_MS when none) plus
## mcp_toolkit/concurrency/mutation_watchdog_grace_ms (default 5000), read when the mutation starts.
## The clock is injected, so tests move time by hand. Runtime-safe.
##
## The numbers follow the bridge, which gives up on a call `timeout` seconds after the mutation's
## _executing notice (godot_bridge/editor/rpc.py restarts the deadline on it): `timeout` is the
## tool's catalogue timeout_ms, else Timing.call_timeout (30 s), grown to wait + 10 s for a tool
## whose wait_param asks for a longer wait (godot_bridge/editor/forward.py timeout_seconds). So a
## command with no declared timeout is cleared 30 s + 5 s grace after it started, a few seconds
## after the bridge has answered TIMEOUT and sent _cancel, instead of blocking the lane for 6 min.
## A command whose catalogue entry sets timeout_ms must declare the same with_timeout_ms, and one
## with a wait_param must declare its longest allowed wait + 10 s, or the watchdog clears it early.

## The bridge's default call timeout (godot_bridge/editor/timing.py, Timing.call_timeout).
const DEFAULT_TIMEOUT_MS := 30000

var _clock: Callable
var _grace_ms: Callable
var _serial := -1
var _deadline_ms := 0


## `clock() -> int` milliseconds; `grace_ms() -> int`.
func _init(clock: Callable, grace_ms: Callable) -> void:
	_clock = clock
	_grace_ms = grace_ms


## Starts watching the mutation numbered `serial`; returns its budget in ms.
func arm(serial: int, declared_timeout_ms: int) -> int:
	var budget := budget_ms(declared_timeout_ms)
	_serial = serial
	_deadline_ms = int(_clock.call()) + budget
	return budget


func budget_ms(declared_timeout_ms: int) -> int:
	var base := declared_timeout_ms if declared_timeout_ms > 0 else DEFAULT_TIMEOUT_MS
	return base + maxi(int(_grace_ms.call()), 0)


## Stops watching; a stale serial (a mutation the watchdog already expired) is ignored.
func disarm(serial: int) -> void:
	if serial == _serial:
		_serial = -1


func is_armed() -> bool:
	return _serial >= 0


## The serial of the watched mutation once its deadline has passed (and stops watching it),
## else -1.
func take_expired() -> int:
	if _serial < 0 or int(_clock.call()) < _deadline_ms:
		return -1
	var expired := _serial
	_serial = -1
	return expired
