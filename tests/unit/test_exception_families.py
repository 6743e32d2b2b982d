"""Every exception class the bridge defines belongs to exactly one family, one per concern
(``godot_bridge/errors.py`` lists them), and every family derives from ``BridgeError``."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import godot_bridge
from godot_bridge.errors import FAMILIES, BridgeError


def _defined_exceptions() -> list[type[BaseException]]:
    found = []
    for info in pkgutil.walk_packages(godot_bridge.__path__, "godot_bridge."):
        if info.name.endswith("__main__"):
            continue  # runs the program when imported
        module = importlib.import_module(info.name)
        found += [cls for cls in vars(module).values() if inspect.isclass(cls)
                  and issubclass(cls, BaseException) and cls.__module__ == module.__name__]
    return found


def test_every_family_derives_from_the_root() -> None:
    assert [f.__name__ for f in FAMILIES if f.__bases__ != (BridgeError,)] == []
    assert len(set(FAMILIES)) == len(FAMILIES)


def test_every_exception_belongs_to_exactly_one_family() -> None:
    classes = _defined_exceptions()
    assert len(classes) > 40, "the walk found the bridge's modules"
    wrong = {f"{cls.__module__}.{cls.__qualname__}": [f.__name__ for f in FAMILIES if issubclass(cls, f)]
             for cls in classes if cls is not BridgeError and cls not in FAMILIES}
    assert {name: families for name, families in wrong.items() if len(families) != 1} == {}


def test_a_family_does_not_change_what_catches_a_class() -> None:
    # A class that was a ValueError (caught as one somewhere) is still one; the families add
    # no stdlib base of their own.
    from godot_bridge.config import ConfigError
    from godot_bridge.godot_files.scenes import SceneFormatError
    from godot_bridge.setup.file_batch import BatchError

    assert issubclass(ConfigError, ValueError) and issubclass(SceneFormatError, ValueError)
    assert issubclass(BatchError, RuntimeError)
    for family in FAMILIES:
        assert {b for b in family.__mro__ if b.__module__ == "builtins"} == {Exception, BaseException, object}
