"""The toolkit's mutation watchdog and the bridge's call timeout are one number in two languages.

The watchdog (addons/.../mutation_watchdog.gd) clears a wedged mutation after the command's
timeout plus a grace; for a command with no declared timeout that must be the bridge's own default
call timeout, or the lane stays blocked long after the bridge has given up (or is cleared before).
"""

from __future__ import annotations

import re
from pathlib import Path

from godot_bridge.editor.timing import Timing

ROOT = Path(__file__).resolve().parents[2]
WATCHDOG = ROOT / "addons/godot_mcp_toolkit/transport/dispatch/mutation_watchdog.gd"
SETTINGS = ROOT / "addons/godot_mcp_toolkit/settings/settings_registration.gd"


def _int_after(pattern: str, text: str) -> int:
    match = re.search(pattern, text)
    assert match is not None, pattern
    return int(match.group(1))


def test_default_watchdog_timeout_is_the_bridge_call_timeout() -> None:
    default_ms = _int_after(r"const DEFAULT_TIMEOUT_MS := (\d+)", WATCHDOG.read_text(encoding="utf-8"))
    assert default_ms == int(Timing().call_timeout * 1000)


def test_grace_is_seconds_not_minutes() -> None:
    grace_ms = _int_after(r"MUTATION_WATCHDOG_GRACE_MS: \{\"default\": (\d+)", SETTINGS.read_text(encoding="utf-8"))
    # Long enough for the _executing notice to reach the bridge and for a slow editor frame,
    # short enough that the lane is free again soon after the bridge has answered TIMEOUT.
    assert 1000 <= grace_ms <= 10000
