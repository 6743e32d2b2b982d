"""The bridge reaches the MCP SDK through its public API only, so any release in the ``mcp`` range serves.

A scan of godot_bridge/'s source (ast, nothing imported from it) for what is not someone's public API:

* an import from ``mcp`` / ``mcp_types`` of a name, or through a module, starting with ``_``;
* an attribute ``x._name`` or ``getattr(x, "_name")`` (also ``hasattr`` / ``setattr``) whose
  name the bridge does not define itself: a private name it does not own is the SDK's (or the
  standard library's, which the same rule keeps us off);
* a string naming an SDK module's private member (``"_NoServerRequestsDispatchContext"`` handed
  to an ``importlib`` look-up).
"""

from __future__ import annotations

import ast
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2] / "godot_bridge"
SDK_ROOTS = ("mcp", "mcp_types")


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name != "_"


def _is_sdk(module: str | None) -> bool:
    return (module or "").split(".")[0] in SDK_ROOTS


def own_private_names(trees: list[ast.AST]) -> set[str]:
    """Every private name the bridge defines: functions, classes, attributes it assigns, parameters."""
    names: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.alias) and node.asname:
                names.add(node.asname)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return {n for n in names if _is_private(n)}


def private_uses(tree: ast.AST, own: set[str], where: str) -> list[str]:
    """The uses in ``tree`` of a private name that is not the bridge's own."""
    found: list[str] = []
    for node in ast.walk(tree):
        line = f"{where}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.ImportFrom) and _is_sdk(node.module):
            assert node.module is not None
            if any(_is_private(part) for part in node.module.split(".")):
                found.append(f"{line}: import from private module {node.module}")
            found += [f"{line}: import of private {node.module}.{a.name}" for a in node.names if _is_private(a.name)]
        elif isinstance(node, ast.Import):
            found += [f"{line}: import of private {a.name}" for a in node.names
                      if _is_sdk(a.name) and any(_is_private(p) for p in a.name.split("."))]
        elif isinstance(node, ast.Attribute) and _is_private(node.attr) and node.attr not in own:
            found.append(f"{line}: attribute {ast.unparse(node)}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("getattr", "hasattr", "setattr", "delattr") and len(node.args) >= 2:
            name = node.args[1]
            if isinstance(name, ast.Constant) and isinstance(name.value, str) and _is_private(name.value) \
                    and name.value not in own:
                found.append(f"{line}: {node.func.id}(..., {name.value!r})")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _is_private(node.value) \
                and node.value.isidentifier() and node.value not in own and _sdk_private_member(node.value):
            found.append(f"{line}: string naming the SDK's private {node.value!r}")
    return found


def _sdk_private_member(name: str) -> bool:
    """Whether some SDK module the bridge imports defines ``name`` (a private member of it)."""
    import importlib

    for module in _SDK_MODULES:
        try:
            if hasattr(importlib.import_module(module), name):
                return True
        except ImportError:
            continue
    return False


_SDK_MODULES: list[str] = []


def scan(root: Path) -> list[str]:
    files = sorted(root.rglob("*.py"))
    trees = [ast.parse(path.read_text(encoding="utf-8"), str(path)) for path in files]
    _SDK_MODULES[:] = sorted({node.module for tree in trees for node in ast.walk(tree)
                              if isinstance(node, ast.ImportFrom) and _is_sdk(node.module) and node.module})
    own = own_private_names(trees)
    found: list[str] = []
    for path, tree in zip(files, trees, strict=True):
        found += private_uses(tree, own, str(path.relative_to(root.parent)))
    return found


def test_no_private_sdk_name_in_the_bridge() -> None:
    found = scan(SOURCE)
    assert not found, "private names the bridge does not own:\n" + "\n".join(found)


def test_the_scan_finds_each_kind_of_private_use(tmp_path: Path) -> None:
    """What the bridge once used, each found (so the test above can fail)."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text(
        "import importlib\n"
        "from contextlib import AsyncExitStack\n"
        "from mcp.server.runner import _NoServerRequestsDispatchContext\n"
        "from mcp.server.request_state import RequestStateBoundary\n"
        "import mcp._internal\n"
        "wrapped = importlib.import_module('mcp.server.runner')\n"
        "cls = getattr(wrapped, '_NoServerRequestsDispatchContext')\n"
        "stack = AsyncExitStack()\n"
        "print(len(stack._exit_callbacks))\n"
        "print(getattr(stack, '_exit_callbacks', None))\n"
        "RequestStateBoundary(None)._seal(None, 'state', ())\n"
        "class Ours:\n"
        "    def __init__(self):\n"
        "        self._mine = 1\n"
        "print(Ours()._mine)\n",
        encoding="utf-8",
    )
    found = "\n".join(scan(package))
    for expected in ("import of private mcp.server.runner._NoServerRequestsDispatchContext",
                     "import of private mcp._internal",
                     "getattr(..., '_NoServerRequestsDispatchContext')",
                     "attribute stack._exit_callbacks",
                     "getattr(..., '_exit_callbacks')",
                     "RequestStateBoundary(None)._seal"):
        assert expected in found, found
    assert "_mine" not in found, "a private name the code defines itself is its own"
