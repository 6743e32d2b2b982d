@tool
extends RefCounted
## Frees the mutation lane when a handler never finishes (contract C5): a handler that awaits a
## signal which never comes would otherwise hold the lock forever and every later mutation would
## queue behind it. Budget = the command's declared timeout (300 s when none) plus
## mcp_toolkit/concurrency/mutation_watchdog_grace_ms, read when the mutation starts.
## The clock is injected, so tests move time by hand. Runtime-safe.

const DEFAULT_TIMEOUT_MS := 300000

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
