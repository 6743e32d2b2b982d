"""Which event loop serves: uvloop where it is installed and the platform has it, else asyncio's.

uvloop is an optional speed-up (the ``fast`` extra; it does not exist on Windows). In
``bench.cpu`` it cut CPU per call under 16 callers by about a fifth.
``GODOT_BRIDGE_UVLOOP=0`` turns it off, to compare or to rule it out when something misbehaves.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Mapping
from typing import Any


def uvloop_wanted(env: Mapping[str, str] | None = None) -> bool:
    env = os.environ if env is None else env
    if sys.platform == "win32" or env.get("GODOT_BRIDGE_UVLOOP", "1").strip().lower() in ("0", "false", "no", "off"):
        return False
    return importlib.util.find_spec("uvloop") is not None


def backend_options(env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """``anyio.run``'s backend options for the loop we want."""
    return {"use_uvloop": True} if uvloop_wanted(env) else {}
