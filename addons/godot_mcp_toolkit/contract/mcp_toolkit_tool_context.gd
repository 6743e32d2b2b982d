@tool
extends RefCounted
## What a cancellable handler receives as its second argument (contract C13): it can poll
## is_cancelled() between steps or await `cancelled`. Cancellation is cooperative; a handler that
## never looks simply runs to the end. Runtime-safe.

signal cancelled

## The JSON-RPC id of the request this context belongs to.
var request_id: Variant = null
## Which connection sent it; cancellation is scoped to that peer.
var peer_id := 0
var method := ""
## Set by the dispatch lane: `reporter(peer_id, request_id, progress, total, message)` sends the
## `_progress` notification (C5). Unset (tests, the game) makes report_progress a no-op.
var reporter := Callable()

var _cancelled := false


func _init(for_request: Variant = null, from_peer: int = 0, for_method: String = "") -> void:
	request_id = for_request
	peer_id = from_peer
	method = for_method


func is_cancelled() -> bool:
	return _cancelled


## Tells the caller how far a long command is (e.g. 3 of 10 suites run); `progress` must grow.
func report_progress(progress: float, total: float, message: String = "") -> void:
	if reporter.is_valid():
		reporter.call(peer_id, request_id, progress, total, message)


## Idempotent: a second cancel does not emit again.
func cancel() -> void:
	if _cancelled:
		return
	_cancelled = true
	cancelled.emit()
