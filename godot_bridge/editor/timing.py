"""Every delay the editor bridge uses, in one injectable place.

Production uses the defaults (the contract's numbers); tests pass a fast
``Timing`` so reconnects, heartbeats and timeouts resolve in milliseconds
instead of tens of seconds.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Timing:
    call_timeout: float = 30.0  # default per-call deadline; a tool's timeout_ms overrides it
    connect_timeout: float = 5.0  # TCP + WebSocket opening handshake
    auth_timeout: float = 5.0  # from the auth frame to the ack
    backoff_initial: float = 1.0  # first reconnect delay; doubles per failure
    backoff_max: float = 60.0
    reconnect_wait: float = 10.0  # how long a call waits for a dropped editor to come back
    reconnect_poll: float = 1.0  # retry cadence while a call is waiting for the editor
    setup_timeout: float = 5.0  # post-auth housekeeping calls (limits, extensions, LSP status)
    heartbeat_interval: float = 15.0  # runtime channel ping cadence
    heartbeat_misses: int = 4  # consecutive missed pings that tear the runtime channel down
    runtime_wait: float = 10.0  # game_start waits this long for the game's runtime channel
    crash_context_timeout: float = 2.0  # fetching the debugger log for a failed runtime call
    watch_debounce_ms: int = 300  # registry watcher: group bursts of writes (tmp write, then rename)
    watch_poll: float = 1.0  # registry directory not there yet: check this often
    force_polling: bool = False  # registry watcher without inotify/FSEvents (network drives)

