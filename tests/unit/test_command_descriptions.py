"""A built-in command's description is the catalogue's (catalogue/tools/*.json), the one the model
reads; the toolkit registers its own commands without one. An extension's command is described by
its GDScript (the catalogue does not know it), so extensions keep `with_description`."""

from __future__ import annotations

import re
from pathlib import Path

TOOLKIT = Path(__file__).resolve().parents[2] / "addons" / "godot_mcp_toolkit"
# Where the toolkit's own commands are registered, in the editor and in the running game.
BUILT_IN = ("commands", "runtime")
_DESCRIBED = re.compile(r"\.with_description\s*\(")


def test_built_in_commands_take_their_description_from_the_catalogue() -> None:
    described = [f"{path.relative_to(TOOLKIT)}:{text.count(chr(10), 0, found.start()) + 1}"
                 for folder in BUILT_IN for path in sorted((TOOLKIT / folder).rglob("*.gd"))
                 for text in [path.read_text(encoding="utf-8")] for found in _DESCRIBED.finditer(text)]
    assert not described, ("built-in commands described a second time (the catalogue describes them): "
                           + ", ".join(described))


def test_the_scan_sees_a_registration_with_a_description() -> None:
    """The pattern above finds the options API's description call (so the check can fail): the
    registry's own test sets one, as an extension may."""
    registry_test = (TOOLKIT.parents[1] / "tests" / "godot" / "test_command_registry.gd").read_text(encoding="utf-8")
    assert _DESCRIBED.search(registry_test)
