"""Numbers the toolkit defines and the bridge needs too, read from the toolkit this bridge ships, so
each lives in one place: the GDScript ``const`` that uses it. A bridge and its toolkit ship
together (the wheel carries the addon), so the figure read is the one the editor runs with.
"""

from __future__ import annotations

import functools
import math
import re

from godot_bridge.shipped.toolkit_files import toolkit_dir

# `const NAME := 12000` or a product such as `32 * 1024 * 1024` (how a size reads in GDScript).
_FIGURE = r"(\d+(?:\s*\*\s*\d+)*)"


@functools.cache
def toolkit_int(file: str, name: str) -> int:
    """The integer ``const name := ...`` of the toolkit's ``file`` (relative to the addon folder)."""
    path = toolkit_dir() / file  # the one place that knows where the toolkit ships
    pattern = re.compile(rf"^const {re.escape(name)} := {_FIGURE}$", re.M)
    found = pattern.search(path.read_text(encoding="utf-8")) if path.is_file() else None
    if found is None:  # a packaging error, not bad input
        raise RuntimeError(f"the shipped toolkit's {file} is missing or has no `const {name} := <integer>`")
    return math.prod(int(part) for part in found.group(1).split("*"))
