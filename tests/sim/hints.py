"""The toolkit's default hint per error code, read from its one definition.

contract/mcp_toolkit_error.gd ``DEFAULT_HINTS`` is what ``fail()`` attaches when a caller gives
no hint of its own, so every refusal the toolkit sends carries one. The simulator answers its
failures the same way; reading the GDScript source (instead of keeping a copy) means the two
cannot drift.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

ERROR_FILE = Path(__file__).resolve().parents[2] / "addons" / "godot_mcp_toolkit" / "contract" / "mcp_toolkit_error.gd"
_BLOCK = re.compile(r"^const DEFAULT_HINTS := \{\n(.*?)^\}", re.M | re.S)
_STRING = r'"(?:[^"\\]|\\.)*"'
# "CODE": "text" (+ "more text" on the following lines)
_ENTRY = re.compile(rf'^\s*"([A-Z_]+)":\s*({_STRING}(?:\s*\+\s*{_STRING})*),\s*$', re.M)
_FALLBACK = re.compile(rf"^const FALLBACK_HINT := ({_STRING})", re.M)


@cache
def default_hints(path: Path = ERROR_FILE) -> dict[str, str]:
    text = path.read_text(encoding="utf-8")
    block = _BLOCK.search(text)
    if block is None:
        raise ValueError(f"{path}: no DEFAULT_HINTS dictionary")
    return {code: _join(parts) for code, parts in _ENTRY.findall(block.group(1))}


def _join(parts: str) -> str:
    return "".join(json.loads(literal) for literal in re.findall(_STRING, parts))


def hint_for(code: str) -> str:
    """The hint fail() gives ``code`` (the fallback for a code outside the vocabulary)."""
    hints = default_hints()
    if code in hints:
        return hints[code]
    fallback = _FALLBACK.search(ERROR_FILE.read_text(encoding="utf-8"))
    return json.loads(fallback.group(1)) if fallback else ""
