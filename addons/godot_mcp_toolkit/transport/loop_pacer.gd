@tool
extends RefCounted
## Keeps the main loop responsive while a bridge is connected. The servers poll from _process, and
## an editor in low-processor mode sleeps OS.low_processor_usage_mode_sleep_usec between frames:
## 100 ms by default while unfocused (the user is typing in their AI client), i.e. up to 100 ms
## added to every hop. While a peer is connected the sleep is capped at about the focused editor's
## pace; when the last peer leaves, the value we displaced is put back.
##
## The editor rewrites the sleep on every focus change, so the cap is re-applied each poll and
## whatever the editor last wrote is what gets restored. The target is injectable (tests).
## Runtime-safe: names no Editor* class.

## A little under the focused editor's default (6900), and a value the editor never writes itself,
## so a cap of ours is told apart from the editor's own writes.
const CAP_USEC := 5000
const PROPERTY := &"low_processor_usage_mode_sleep_usec"

var _target: Object = null
var _active := false
## The last value not ours (what the editor or user set), -1 when none seen.
var _displaced := -1


## `target` holds `low_processor_usage_mode_sleep_usec` (the OS singleton by default).
func _init(target: Object = null) -> void:
	_target = target if target != null else OS


## Called every poll with whether any peer is connected.
func update(connected: bool) -> void:
	var current := int(_target.get(PROPERTY))
	if connected:
		_active = true
		if current != CAP_USEC:
			_displaced = current
			if current > CAP_USEC:
				_target.set(PROPERTY, CAP_USEC)
	elif _active:
		_active = false
		if current == CAP_USEC and _displaced >= 0:
			_target.set(PROPERTY, _displaced)
		_displaced = -1


func is_capping() -> bool:
	return _active and int(_target.get(PROPERTY)) == CAP_USEC
