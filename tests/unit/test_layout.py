"""The bridge's layout: a few modules at the top of godot_bridge/, the rest in packages by concern,
and every import pointing down the layers (a lower layer never imports a higher one).

Imports are read with ``ast`` from every module, including the ones inside functions (the lazy
imports of cli.py, the ``TYPE_CHECKING`` ones) and ``importlib.import_module("...")`` calls with a
literal name, so a layer cannot reach up even where start-up speed keeps an import late.
"""

from __future__ import annotations

import ast
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "godot_bridge"

# The only modules at the top of godot_bridge/; everything else belongs in a package.
TOP_MODULES = frozenset({"__init__", "__main__", "app", "cli", "config", "errors", "live_config", "heap", "usage"})
PACKAGES = frozenset({"tools", "jobs", "content", "godot_files", "setup", "shipped", "safety", "editor", "lsp",
                      "mcp", "consent"})

# A layer is a top module or a package. A layer may import its own modules and any layer of a
# lower rank, never one of the same or a higher rank.
RANKS = {
    # Leaves: the version, the exception families and the error codes' hints.
    "__init__": 0,
    "errors": 0,
    # The settings.
    "config": 1,
    # What the bridge ships beside its code: the toolkit's files, the MCP client entry it defines.
    "shipped": 1,
    # Guards on paths, secrets and untrusted text.
    "safety": 1,
    # The catalogue, its groups, what tools/list shows, one tools/call's path.
    "tools": 2,
    # Long calls in the background: the job engine, started from the tool-call path.
    "jobs": 3,
    # Reading Godot's own files: project.godot, .tscn, uids, a PNG's header.
    "godot_files": 3,
    # The editor and game links, the registry of open editors, what they push (errors, screenshots
    # kept for links); the language server, found through that registry (lsp/endpoint.py reads it
    # and probes with its tcp_accepts).
    "editor": 4,
    "lsp": 5,
    # What the bridge serves over MCP besides tools: resources, prompts, completions.
    "content": 5,
    # Asking the person before what cannot be taken back: reads targets through the editor link.
    "consent": 5,
    # The composition root and what it is built from.
    "live_config": 7,
    "heap": 7,
    "app": 8,
    # The MCP transports, serving the app.
    "mcp": 9,
    # The command line as data: every command's flags and --help, the server's included.
    "usage": 10,
    # `godot-bridge init`, `doctor`, `uninstall`: terminal commands that check and set up
    # everything below; above the server, so nothing the running server imports reaches them.
    "setup": 11,
    # Entry points.
    "cli": 12,
    "__main__": 13,
}


def _modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(REPO).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        yield ".".join(parts), path


def _layer(module: str) -> str:
    """``godot_bridge.tools.catalogue`` -> ``tools``; ``godot_bridge.app`` -> ``app``; ``godot_bridge`` -> ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _imports(module: str, path: Path) -> Iterator[tuple[int, str]]:
    """(line, imported module) for every import of a godot_bridge module, wherever it stands."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the importer's package
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target == "godot_bridge":
                # `from godot_bridge import cli` names a module; `import __version__` the package itself.
                for alias in node.names:
                    name = alias.name
                    yield node.lineno, f"godot_bridge.{name}" if name in TOP_MODULES | PACKAGES else target
            else:
                yield node.lineno, target
        elif isinstance(node, ast.Call) and any(_names_import_module(n) for n in (node.func, *node.args)):
            # importlib.import_module("godot_bridge.mcp.stdio.sdk_path"), or handed to a worker thread:
            # anyio.to_thread.run_sync(importlib.import_module, "godot_bridge.mcp.stdio.sdk_path")
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.startswith("godot_bridge"):
                    yield node.lineno, arg.value


def _names_import_module(node: ast.expr) -> bool:
    return (isinstance(node, ast.Attribute) and node.attr == "import_module") or (
        isinstance(node, ast.Name) and node.id == "import_module")

def test_the_top_level_holds_only_the_allowed_modules() -> None:
    modules = {p.stem for p in PACKAGE.glob("*.py")}
    packages = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert modules - TOP_MODULES == set(), (
        f"modules at the top of godot_bridge/ that belong in a package: {sorted(modules - TOP_MODULES)}")
    assert packages == PACKAGES, (
        f"godot_bridge/'s packages changed: new {sorted(packages - PACKAGES)}, gone {sorted(PACKAGES - packages)};"
        " give a new one a rank in RANKS")
    strays = sorted(str(p.relative_to(REPO)) for p in PACKAGE.glob("*/") if p.name != "__pycache__"
                    and p.name not in packages and any(p.rglob("*.py")))
    assert strays == [], f"folders of Python modules without an __init__.py: {strays}"


def test_every_layer_has_a_rank() -> None:
    assert set(RANKS) == TOP_MODULES | PACKAGES


def test_imports_point_down_the_layers() -> None:
    upward = []
    for module, path in _modules():
        here = _layer(module)
        for line, imported in _imports(module, path):
            if imported != "godot_bridge" and not imported.startswith("godot_bridge."):
                continue
            there = _layer(imported)
            if there == here:
                continue
            if RANKS[there] >= RANKS[here]:
                upward.append(f"{path.relative_to(REPO)}:{line}: {module} ({here}, rank {RANKS[here]}) imports"
                              f" {imported} ({there}, rank {RANKS[there]})")
    assert upward == [], "imports that do not point down the layers:\n" + "\n".join(upward)


def test_the_running_server_never_imports_the_installer() -> None:
    # `godot-bridge` serving MCP loads app.py and mcp/ (and cli.py, which only dispatches); nothing
    # they reach, at import time or later, may be in setup/: what both need lives below (shipped/).
    graph: dict[str, set[str]] = {}
    for module, path in _modules():
        graph[module] = {imported for _, imported in _imports(module, path) if imported.startswith("godot_bridge")}
    server = [m for m in graph if m in ("godot_bridge.app", "godot_bridge.live_config") or m.startswith("godot_bridge.mcp")]
    reached, pending = set(server), list(server)
    while pending:
        for imported in graph.get(pending.pop(), ()):
            if imported not in reached:
                reached.add(imported)
                pending.append(imported)
    assert sorted(m for m in reached if _layer(m) == "setup") == []
    # cli.py's own top-level imports too: the server process starts there.
    cli = REPO / "godot_bridge" / "cli.py"
    assert [m for m in _import_time_imports("godot_bridge.cli", cli, set(graph)) if _layer(m) == "setup"] == []


def test_package_inits_re_export_nothing() -> None:
    # "No module re-exporting another's names to keep old imports alive": a package's __init__ may
    # import only what it uses itself (mcp/__init__.py calls the SDK import hook), and names no __all__.
    found = []
    for path in sorted(PACKAGE.glob("*/__init__.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {(a.asname or a.name).split(".")[0] for node in ast.walk(tree)
                    if isinstance(node, ast.Import | ast.ImportFrom) for a in node.names}
        used = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
        unused = imported - used - {"annotations"}
        if unused:
            found.append(f"{path.relative_to(REPO)} imports {sorted(unused)} without using them")
        if any(isinstance(node, ast.Name) and node.id == "__all__" for node in ast.walk(tree)):
            found.append(f"{path.relative_to(REPO)} defines __all__")
    assert found == [], "\n".join(found)


def test_the_new_packages_say_what_they_are_for() -> None:
    for name in ("tools", "content", "godot_files", "setup", "shipped", "safety", "consent"):
        doc = ast.get_docstring(ast.parse((PACKAGE / name / "__init__.py").read_text(encoding="utf-8")))
        assert doc, f"godot_bridge/{name}/__init__.py has no docstring"


def test_the_wheel_lists_every_package() -> None:
    # A package missing from pyproject's list is silently left out of the wheel.
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    on_disk = {module for module, path in _modules() if path.name == "__init__.py"}
    assert on_disk - listed == set(), f"packages pyproject.toml does not ship: {sorted(on_disk - listed)}"


def test_the_import_reader_sees_lazy_and_aliased_imports() -> None:
    # The reader itself: cli.py imports setup.doctor inside main(), the stdio transport imports its SDK
    # path by name in a worker thread (stdio/sdk_loader.py); both must be seen, or a layer could reach up unnoticed there.
    seen = {imported for module, path in _modules() for _, imported in _imports(module, path)
            if module == "godot_bridge.cli" or module.startswith("godot_bridge.mcp.stdio.")}
    assert {"godot_bridge.setup.doctor", "godot_bridge.setup.init", "godot_bridge.mcp.stdio.sdk_path"} <= seen


# godot_bridge/mcp/ is a protocol core and two transports over it. A transport may import the core;
# the core imports no transport, and neither transport the other (what both need belongs in the core).
MCP_PARTS = {"core": set(), "stdio": {"core"}, "http": {"core"}}


def _mcp_part(module: str) -> str | None:
    """``godot_bridge.mcp.stdio.server`` -> ``stdio``; None outside mcp/ (and for mcp/__init__.py)."""
    parts = module.split(".")
    return parts[2] if len(parts) > 3 and parts[:2] == ["godot_bridge", "mcp"] else None


def _mcp_arrows_not_allowed(modules: Iterator[tuple[str, Path]]) -> list[str]:
    wrong = []
    for module, path in modules:
        here = _mcp_part(module)
        if here is None:
            continue
        for line, imported in _imports(module, path):
            there = _mcp_part(imported) if imported.startswith("godot_bridge.mcp.") else None
            if imported in ("godot_bridge.mcp.core", "godot_bridge.mcp.stdio", "godot_bridge.mcp.http"):
                there = imported.rpartition(".")[2]  # `from godot_bridge.mcp.stdio import server`
            if there is not None and there != here and there not in MCP_PARTS[here]:
                wrong.append(f"{path.name}:{line}: {module} ({here}) imports {imported} ({there})")
    return wrong


def test_the_mcp_core_imports_no_transport() -> None:
    parts = {p.name for p in (PACKAGE / "mcp").iterdir() if (p / "__init__.py").exists()}
    assert parts == set(MCP_PARTS), f"godot_bridge/mcp/ holds {sorted(parts)}; say in MCP_PARTS what each may import"
    loose = sorted(p.name for p in (PACKAGE / "mcp").glob("*.py") if p.name != "__init__.py")
    assert loose == [], f"modules directly in godot_bridge/mcp/ belong in core/, stdio/ or http/: {loose}"
    wrong = _mcp_arrows_not_allowed(_modules())
    assert wrong == [], "imports between mcp/'s parts that point the wrong way:\n" + "\n".join(wrong)


def test_the_mcp_check_sees_an_import_of_a_transport(tmp_path: Path) -> None:
    # A core module importing the stdio transport, lazily and by `from ... import`, is caught.
    fake = tmp_path / "probe.py"
    fake.write_text("def f():\n    from godot_bridge.mcp.stdio import server\n"
                    "    import godot_bridge.mcp.http.headers\n", encoding="utf-8")
    found = _mcp_arrows_not_allowed(iter([("godot_bridge.mcp.core.probe", fake)]))
    assert len(found) == 2 and "(stdio)" in found[0] and "(http)" in found[1], found
    assert _mcp_arrows_not_allowed(iter([("godot_bridge.mcp.stdio.probe", fake)])) != []


# The cycle finder the toolkit's folder check uses (scripts/gd_layers.py), so both halves are held
# to the same rule by the same code.
sys.path.insert(0, str(REPO / "scripts"))
from gd_layers import cycle_groups  # noqa: E402


def test_the_layers_form_no_cycle() -> None:
    # Whatever RANKS says: a cycle between two packages (or a package and a top module) fails here
    # even if someone gave them one rank.
    graph: dict[str, set[str]] = {}
    for module, path in _modules():
        for _, imported in _imports(module, path):
            if imported.startswith("godot_bridge") and _layer(imported) != _layer(module):
                graph.setdefault(_layer(module), set()).add(_layer(imported))
    assert cycle_groups(graph) == []


def _module_of(name: str, modules: set[str]) -> str | None:
    """The godot_bridge module an imported name lives in: `godot_bridge.tools.catalogue.Catalogue`
    -> `godot_bridge.tools.catalogue`."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _import_time_imports(module: str, path: Path, modules: set[str]) -> Iterator[str]:
    """The godot_bridge modules `module` imports while it is being imported: its top-level
    statements, class bodies and try/if blocks, not function bodies nor `if TYPE_CHECKING:`."""
    is_package = path.name == "__init__.py"
    pending: list[ast.stmt] = list(ast.parse(path.read_text(encoding="utf-8")).body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            pending.extend(node.orelse)
        elif isinstance(node, ast.If | ast.Try | ast.With | ast.ClassDef):
            for field in ("body", "orelse", "finalbody", "handlers"):
                for child in getattr(node, field, []):
                    pending.extend(child.body if isinstance(child, ast.ExceptHandler) else [child])
        elif isinstance(node, ast.Import):
            yield from filter(None, (_module_of(alias.name, modules) for alias in node.names))
        elif isinstance(node, ast.ImportFrom):
            base = module.split(".") if is_package else module.split(".")[:-1]
            target = (".".join(base[: len(base) - (node.level - 1)] + ([node.module] if node.module else []))
                      if node.level else node.module or "")
            for alias in node.names:  # `from pkg import mod` names a module; `from mod import name` a name
                found = _module_of(f"{target}.{alias.name}", modules)
                if found:
                    yield found


def test_modules_import_no_cycle_at_import_time() -> None:
    # Inside a package the ranks say nothing; a cycle of module-level imports there would make
    # import order matter (a half-initialised module). Late imports inside functions may close a
    # loop on purpose (mcp/stdio/sdk_loader.py loads mcp/stdio/sdk_path.py off the event loop).
    paths = dict(_modules())
    graph = {module: {t for t in _import_time_imports(module, path, set(paths)) if t != module}
             for module, path in paths.items()}
    assert cycle_groups(graph) == []


def test_the_cycle_finder_finds_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e", "d"}, "f": {"g"}, "g": {"f"}}
    assert cycle_groups(graph) == [["a", "b", "c"], ["f", "g"]]
