"""Our bridge with ``structuredContent`` taken out of its results: an experiment, not a product mode.

The bridge answers a 1 MiB nested result at <= 0.9x the reference's cost while
``structuredContent`` keeps travelling with its text. ``python -m bench.structured_cost``
runs this next to the real bridge to show what the second copy costs; nothing else uses it.
"""

from __future__ import annotations

import sys
from typing import Any

from godot_bridge.cli import main
from godot_bridge.tools import results
from godot_bridge.tools.results import ToolOutcome

_outcome = results._outcome


def _text_only(payload: Any, *, is_error: bool = False) -> ToolOutcome:
    outcome = _outcome(payload, is_error=is_error)
    return ToolOutcome(content=outcome.content, is_error=outcome.is_error)


results._outcome = _text_only

if __name__ == "__main__":
    sys.exit(main([]))
