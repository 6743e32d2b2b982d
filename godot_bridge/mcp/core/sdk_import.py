"""Import the ``mcp`` SDK without running its two package ``__init__`` files up front.

``mcp/__init__.py`` re-exports the client (which pulls in httpx, cryptography and the
whole server side) and ``mcp/server/__init__.py`` re-exports ``MCPServer`` (FastMCP);
the bridge imports neither, yet both ran on every start-up (a third of the
SDK's import time). ``defer_package_init`` registers the package module with its
``__path__`` so submodules import normally, and runs the real ``__init__`` the first
time anyone asks the package for a name it does not have yet (``from mcp import
Client`` still works, only later). Nothing changes when the package is already loaded.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType
from typing import Any

# Parents before children: finding ``mcp.server`` needs ``mcp.__path__``.
DEFERRED = ("mcp", "mcp.server")


def defer_package_init(name: str) -> ModuleType | None:
    """Register ``name`` as a package whose ``__init__`` runs on first attribute miss; None if not possible."""
    if name in sys.modules:
        return None
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return None
    module = importlib.util.module_from_spec(spec)
    loader = spec.loader

    def __getattr__(attr: str) -> Any:  # noqa: N807 - the PEP 562 hook
        if attr.startswith("__"):  # import machinery probing (__file__, __spec__ ...): no completion
            raise AttributeError(attr)
        module.__dict__.pop("__getattr__", None)
        loader.exec_module(module)  # the real __init__, once
        return getattr(module, attr)

    module.__getattr__ = __getattr__  # type: ignore[method-assign]
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)
    return module


def defer_sdk_inits() -> None:
    for name in DEFERRED:
        defer_package_init(name)
