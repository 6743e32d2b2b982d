#!/usr/bin/env python3
"""CI: every catalogue method routed to the editor or the running game is served by the toolkit.

Catalogue side: catalogue/tools/*.json, {"tools": [{"name", "method", "channel", ...}]}; methods
whose channel is "editor" or "runtime" must exist in the toolkit.

Toolkit side (addons/godot_mcp_toolkit/, examples excluded), a method counts as registered when
its string appears as:
  - the first argument of register_command(...) / register_runtime_command(...) / _register(...) /
    _reg(...) / add_command(...), optionally after one leading argument (`_reg(registry, "x.y", ...)`),
    either as a literal or as a constant declared in the same file (`const LIST := "x.y"`);
  - an entry of a registration table: a `const *_COMMANDS`/`*_METHODS`/`*_HANDLERS` literal;
  - a `match` arm in a file under runtime/ (`"runtime.x":` alone on its line).

Every registered catalogue method must also *read* each parameter its catalogue input schema
declares (except BRIDGE_ONLY_PARAMS): the parameter's name must appear as a string literal in the
handler or in a function of the same file the handler reaches by name. That catches a schema that
promises a parameter the command silently ignores. A handler is found from the registration:
`register_command("x.y", Callable(script, "_cmd_x")...)`, `register_command("x.y", _cmd_x...)`, a
`"x.y": _cmd_x` table entry, or the body of a runtime `match` arm.

Run as a script it also checks modes: every method the reference toolkit serves in the editor or in
the game (tests/data/reference/toolkit-methods.json) is served by ours in that mode (mode_problems).

scripts/gd_drift_pending.txt lists catalogue methods not implemented yet (one per line, # comments).
Fails when a catalogue method is neither registered nor pending, when a pending method is already
registered (stale allowlist), or when the pending list repeats itself. A pending method that the
catalogue does not have is only warned about: the catalogue is still being filled in.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gd_common import REFERENCE_DIR, REPO, TOOLKIT, Function, fail_exit, functions, gd_files, lex  # noqa: E402

ROUTED_CHANNELS = {"editor", "runtime"}
# Parameters the bridge consumes itself (it routes on `channel`) and never forwards.
BRIDGE_ONLY_PARAMS = frozenset({"channel"})
# ... and those it consumes for one kind of handling: a screenshot's `thumbnail` is the bridge's
# own preview capture (godot_bridge/editor/screenshots.py).
BRIDGE_HANDLING_PARAMS = {"image_result": frozenset({"thumbnail"})}
PENDING_FILE = Path("scripts/gd_drift_pending.txt")
METHOD = r"[a-z0-9_]+(?:\.[a-z0-9_]+)+"
_CALL = re.compile(
    r"(?<![\w])(?:register_command|register_runtime_command|_register|_reg|add_command)\s*\(\s*"
    r"(?:[A-Za-z_][\w.]*\s*,\s*)?"
    r"(?:\"(?P<lit>" + METHOD + r")\"|(?P<const>[A-Z][A-Z0-9_]*)\b)"
)
_CONST = re.compile(r"^\s*const\s+([A-Z][A-Z0-9_]*)\s*(?::\s*\w+\s*)?:?=\s*\"(" + METHOD + r")\"", re.M)
_TABLE = re.compile(r"^\s*const\s+\w*(?:COMMANDS|METHODS|HANDLERS)\w*\s*(?::[^=]*)?:?=\s*([\[{])", re.M)
_MATCH_ARM = re.compile(r"^\s*\"(" + METHOD + r")\"(?:\s*,\s*\"" + METHOD + r"\")*\s*:\s*$", re.M)
_MATCH_ARM_EXTRA = re.compile(r"\"(" + METHOD + r")\"")
_STRING = re.compile(r"\"(" + METHOD + r")\"")


def catalogue_methods(repo: Path) -> dict[str, str]:
    """method -> channel for every editor/runtime tool in catalogue/tools/*.json."""
    found: dict[str, str] = {}
    for path in sorted((repo / "catalogue" / "tools").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for tool in data.get("tools", []) if isinstance(data, dict) else []:
            method = tool.get("method") if isinstance(tool, dict) else None
            if isinstance(method, str) and tool.get("channel") in ROUTED_CHANNELS:
                found[method] = tool["channel"]
    return found


def catalogue_params(repo: Path) -> dict[str, set[str]]:
    """method -> the top-level parameter names its catalogue input schema declares."""
    found: dict[str, set[str]] = {}
    for path in sorted((repo / "catalogue" / "tools").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for tool in data.get("tools", []) if isinstance(data, dict) else []:
            if not isinstance(tool, dict) or tool.get("channel") not in ROUTED_CHANNELS:
                continue
            schema = tool.get("input_schema") or {}
            props = schema.get("properties") if isinstance(schema, dict) else None
            names = set(props) if isinstance(props, dict) else set()
            for kind in tool.get("handling") or []:
                names -= BRIDGE_HANDLING_PARAMS.get(kind, frozenset())
            found.setdefault(str(tool.get("method")), set()).update(names - BRIDGE_ONLY_PARAMS)
    return found


_HANDLER = re.compile(
    r"\s*,\s*(?:Callable\((?:[^()]|\([^()]*\))*?,\s*\"(?P<callable>\w+)\"\s*\)|(?P<name>[A-Za-z_]\w*))"
)
_PRELOAD = re.compile(r"^\s*const\s+([A-Z]\w*)\s*(?::\s*\w+\s*)?:?=\s*preload\(\s*\"(res://[^\"]+\.gd)\"\s*\)", re.M)
_QUALIFIED = re.compile(r"(?<![\w.])([A-Z]\w*)\.([A-Za-z_]\w*)\s*\(")
Loader = Callable[[str], "str | None"]
_CALLED = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*\(|\"([A-Za-z_]\w*)\"")


def handler_text(text: str, method: str, load: Loader | None = None) -> str | None:
    """The source a method's handler runs: its function plus the functions it reaches by name,
    in its own file and (given `load`, res:// path -> source) in preloaded helper scripts it calls
    as `Alias.func(...)`."""
    code = _without_comments(text)
    start = _handler_start(code, method)
    if start is None:
        return None
    files: dict[str, tuple[str, dict[str, Function], dict[str, str]]] = {}

    def parsed(key: str, source: str) -> tuple[str, dict[str, Function], dict[str, str]]:
        if key not in files:
            clean = source if key == "" else _without_comments(source)
            aliases = {m.group(1): m.group(2) for m in _PRELOAD.finditer(clean)}
            files[key] = (clean, {f.name: f for f in functions(clean)}, aliases)
        return files[key]

    parsed("", code)
    seen: set[tuple[str, str]] = set()
    pieces: list[str] = []
    queue: list[tuple[str, str]] = []

    def reach(key: str, body: str) -> None:
        aliases = files[key][2]
        queue.extend((key, name) for name in _names_called(body))
        if load is None:
            return
        for alias, name in _QUALIFIED.findall(body):
            target = aliases.get(alias)
            if target is None or target in files:
                if target is not None:
                    queue.append((target, name))
                continue
            source = load(target)
            if source is not None:
                parsed(target, source)
                queue.append((target, name))

    if isinstance(start, str):
        queue.append(("", start))
    else:
        pieces.append(start[0])
        reach("", start[0])
    while queue:
        key, name = queue.pop()
        if (key, name) in seen or key not in files or name not in files[key][1]:
            continue
        seen.add((key, name))
        body = files[key][1][name].body(files[key][0])
        pieces.append(body)
        reach(key, body)
    if not pieces:
        return None
    return "\n".join(pieces)


def repo_loader(repo: Path) -> Loader:
    """res:// path -> the source of that script in this repo (None when missing)."""

    def load(res_path: str) -> str | None:
        path = repo / res_path.removeprefix("res://")
        return path.read_text(encoding="utf-8") if path.is_file() else None

    return load


def _names_called(body: str) -> list[str]:
    return [m.group(1) or m.group(2) for m in _CALLED.finditer(body)]


def _handler_start(code: str, method: str) -> str | tuple[str] | None:
    """A handler function name, or (arm body,) for a runtime match arm; None when not found."""
    constants = {m.group(1): m.group(2) for m in _CONST.finditer(code)}
    for match in _CALL.finditer(code):
        named = match.group("lit") or constants.get(match.group("const") or "")
        if named != method:
            continue
        handler = _HANDLER.match(code, match.end())
        if handler:
            return handler.group("callable") or handler.group("name")
    entry = re.search(r"\"" + re.escape(method) + r"\"[ \t]*:[ \t]*([A-Za-z_]\w*)", code)
    if entry:
        return entry.group(1)
    arm = re.search(r"^([ \t]*)\"" + re.escape(method) + r"\"[^\n]*:\s*$", code, re.M)
    if arm:
        indent = len(arm.group(1).expandtabs(4))
        lines: list[str] = []
        for line in code[arm.end() + 1 :].splitlines():
            if line.strip() and len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip()) <= indent:
                break
            lines.append(line)
        return ("\n".join(lines),)
    return None


def unread_params(text: str, method: str, params: set[str], load: Loader | None = None) -> list[str] | None:
    """Declared params the handler never names as a string; None when the handler is not found."""
    body = handler_text(text, method, load)
    if body is None:
        return None
    # Names are checked against the raw strings of the reached code, comments excluded.
    literals = set(re.findall(r"\"(\w+)\"", body))
    return sorted(p for p in params if p not in literals)


def registered_in_source(text: str, runtime_file: bool = False) -> set[str]:
    """Method strings one GDScript file registers (see the module docstring for the forms)."""
    code = _without_comments(text)
    constants = {m.group(1): m.group(2) for m in _CONST.finditer(code)}
    found: set[str] = set()
    for match in _CALL.finditer(code):
        if match.group("lit"):
            found.add(match.group("lit"))
        elif match.group("const") in constants:
            found.add(constants[match.group("const")])
    for match in _TABLE.finditer(code):
        body = _balanced(code, match.end() - 1)
        found.update(_STRING.findall(body))
    if runtime_file:
        for match in _MATCH_ARM.finditer(code):
            found.update(_MATCH_ARM_EXTRA.findall(match.group(0)))
    return found


def registered_methods(repo: Path) -> dict[str, str]:
    """method -> first file registering it, across the toolkit (examples excluded)."""
    found: dict[str, str] = {}
    toolkit = TOOLKIT.as_posix()
    for rel in gd_files(repo, TOOLKIT, exclude=(f"{toolkit}/examples/",)):
        runtime_file = rel.as_posix().startswith(f"{toolkit}/runtime/")
        for method in registered_in_source((repo / rel).read_text(encoding="utf-8"), runtime_file):
            found.setdefault(method, rel.as_posix())
    return found


def read_pending(path: Path) -> list[str]:
    if not path.is_file():
        return []
    entries = []
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = line.split("#", 1)[0].strip()
        if entry:
            entries.append(entry)
    return entries


def run(repo: Path = REPO) -> tuple[list[str], list[str], dict[str, int]]:
    catalogue = catalogue_methods(repo)
    registered = registered_methods(repo)
    pending = read_pending(repo / PENDING_FILE)
    problems: list[str] = []
    warnings: list[str] = []
    seen: set[str] = set()
    for method in pending:
        if method in seen:
            problems.append(f"{PENDING_FILE}: '{method}' is listed twice")
        seen.add(method)
        if method in registered:
            problems.append(
                f"{PENDING_FILE}: '{method}' is registered in {registered[method]}; remove it from the pending list"
            )
        elif catalogue and method not in catalogue:
            warnings.append(f"{PENDING_FILE}: '{method}' is not an editor/runtime method of the catalogue")
    for method, channel in sorted(catalogue.items()):
        if method not in registered and method not in seen:
            problems.append(
                f"catalogue method '{method}' ({channel}) is not registered by the toolkit "
                f"and not in {PENDING_FILE}"
            )
    declared = catalogue_params(repo)
    for method in sorted(set(catalogue) & set(registered)):
        rel = registered[method]
        missing = unread_params(
            (repo / rel).read_text(encoding="utf-8"), method, declared.get(method, set()), repo_loader(repo)
        )
        if missing is None:
            problems.append(f"{rel}: cannot find the handler registered for '{method}'")
        elif missing:
            problems.append(
                f"{rel}: the handler of '{method}' never reads declared param(s) {', '.join(missing)}"
            )
    if not catalogue:
        warnings.append("catalogue/tools/*.json has no editor/runtime methods; nothing to check")
    stats = {
        "catalogue": len(catalogue),
        "registered": len(set(catalogue) & set(registered)),
        "pending": len(pending),
    }
    return problems, warnings, stats


def _without_comments(text: str) -> str:
    # Keep strings (the method names live in them) but drop comments, so a commented-out
    # registration does not count.
    lexed = lex(text)
    out = list(lexed.code)
    for offset, value in lexed.strings:
        quote = lexed.code[offset]
        literal = quote + value + quote
        if len(literal) <= len(out) - offset and "\n" not in value:
            out[offset : offset + len(literal)] = list(literal)
    return "".join(out)


def _balanced(code: str, open_at: int) -> str:
    pairs = {"[": "]", "{": "}"}
    closing = pairs[code[open_at]]
    depth = 0
    for i in range(open_at, len(code)):
        if code[i] == code[open_at]:
            depth += 1
        elif code[i] == closing:
            depth -= 1
            if depth == 0:
                return code[open_at : i + 1]
    return code[open_at:]


# Served by the router and transport themselves, not registered as commands.
TRANSPORT_METHODS = frozenset({"_cancel", "echo", "ping"})
EDITOR_DOMAINS = "commands/command_domains.gd"
RUNTIME_DOMAINS = "runtime/runtime_domains.gd"


def _domain_files(repo: Path, listing: str) -> set[str]:
    text = (repo / TOOLKIT / listing).read_text(encoding="utf-8") if (repo / TOOLKIT / listing).is_file() else ""
    return {path.removeprefix("res://") for path in re.findall(r"\"(res://[^\"]+\.gd)\"", text)}


def mode_problems(repo: Path = REPO) -> list[str]:
    """Every method the reference toolkit serves in a mode is served by ours in that mode.

    The game serves what runtime/runtime_domains.gd lists (and the runtime server itself); the
    editor serves every other registration. Checked against the repo's own copy of
    toolkit-methods.json only, so scratch repos without one are not judged against it.
    """
    reference = repo / REFERENCE_DIR / "toolkit-methods.json"
    if not reference.is_file():
        return []
    runtime_files = _domain_files(repo, RUNTIME_DOMAINS)
    editor_files = _domain_files(repo, EDITOR_DOMAINS)
    served: dict[str, set[str]] = {"editor": set(), "runtime": set()}
    toolkit = TOOLKIT.as_posix()
    for rel in gd_files(repo, TOOLKIT, exclude=(f"{toolkit}/examples/",)):
        name = rel.as_posix()
        methods = registered_in_source((repo / rel).read_text(encoding="utf-8"), name.startswith(f"{toolkit}/runtime/"))
        if name in runtime_files or name.startswith(f"{toolkit}/runtime/"):
            served["runtime"] |= methods
        if name not in runtime_files or name in editor_files:
            served["editor"] |= methods
    problems = []
    for entry in json.loads(reference.read_text(encoding="utf-8")):
        method, mode = entry.get("method"), entry.get("mode")
        if mode in served and method not in TRANSPORT_METHODS and method not in served[mode]:
            problems.append(f"the reference toolkit serves '{method}' in {mode} mode; ours does not")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=REPO)
    args = parser.parse_args(argv)
    problems, warnings, stats = run(args.repo)
    problems += mode_problems(args.repo)
    for warning in warnings:
        print(f"gd_drift: warning: {warning}", file=sys.stderr)
    summary = (
        f"gd_drift: {stats['catalogue']} editor/runtime catalogue methods: "
        f"{stats['registered']} registered, {stats['pending']} pending"
    )
    return fail_exit(problems, summary, "gd_drift")


if __name__ == "__main__":
    sys.exit(main())
