"""Command line: flags, the informational commands, and the server entry point (C10).

Informational commands (--help, --tools-count, --list-eager) never import the
MCP SDK, so they answer instantly; serving imports it lazily.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from godot_bridge import __version__
from godot_bridge.config import ConfigError, Settings, parse_port
from godot_bridge import usage
from godot_bridge.errors import SettingsError

# The flags, as --help and the README list them (usage.py defines each once).
_ACTIONS = {"--tools-count", "--list-eager", "--help", "-h", "--version"}
_SWITCHES = {"--http", "--no-auth"}
_VALUE_FLAGS = {o.name for o in usage.SERVER.options if o.metavar}
_HTTP_ONLY = ("--host", "--port", "--no-auth")
assert _ACTIONS | _SWITCHES | _VALUE_FLAGS == usage.SERVER.flags(), "cli.py and usage.py disagree on the flags"
# Subcommands: terminal commands, not the server (imported only when named).
_COMMANDS = ("init", "doctor", "uninstall")


class UsageError(SettingsError):
    pass


@dataclass
class Args:
    action: str | None = None
    values: dict[str, str] = field(default_factory=dict)
    switches: set[str] = field(default_factory=set)


def parse_args(argv: Sequence[str]) -> Args:
    """``--flag value`` or ``--flag=value``; the first problem raises UsageError."""
    args = Args()
    items = list(argv)
    i = 0
    while i < len(items):
        item = items[i]
        i += 1
        name, eq, inline = item.partition("=")
        if name in _ACTIONS and not eq:
            args.action = args.action or ("--help" if name == "-h" else name)
            continue
        if name in _SWITCHES and not eq:
            args.switches.add(name)
            continue
        if name not in _VALUE_FLAGS:
            if item.startswith("-"):
                raise UsageError(f"unknown option: {name}")
            raise UsageError(f"unexpected argument: {item!r} (the server takes no positional arguments; commands: "
                             f"{', '.join(_COMMANDS)})")
        if eq:
            value = inline
        elif i < len(items):
            value = items[i]
            i += 1
        else:
            raise UsageError(f"{name} needs a value")
        if value == "":
            raise UsageError(f"{name} needs a non-empty value")
        if name.endswith("port"):
            try:
                parse_port(value, name)
            except ConfigError as exc:
                raise UsageError(str(exc)) from None
        args.values[name] = value
    if "--http" not in args.switches:
        for flag in _HTTP_ONLY:
            if flag in args.values or flag in args.switches:
                raise UsageError(f"{flag} needs --http")
    return args


def settings_from(args: Args) -> Settings:
    v = args.values

    def port(flag: str) -> int | None:
        return int(v[flag]) if flag in v else None

    return Settings.from_env(
        project=v.get("--project"),
        editor_port=port("--editor-port"),
        runtime_port=port("--runtime-port"),
        lsp_port=port("--lsp-port"),
        lsp_host=v.get("--lsp-host"),
    )


def tools_count_text() -> str:
    from godot_bridge.tools.catalogue import load_catalogue
    from godot_bridge.tools.counts import count

    cat = load_catalogue()
    n = count(cat)
    meta = ", ".join(t.name for t in cat.meta_tools())
    # The reference's lines and meanings (tools that read this output depend on them): Total is
    # eager + on-demand; the meta tools, always in tools/list too, are on a line of their own.
    return (
        f"Total tools:  {n.total}\n"
        f"  Eager:      {n.eager}\n"
        f"  On-demand:  {n.on_demand}\n"
        f"Meta:         {n.meta} ({meta}: also always in tools/list, not in Total)\n"
        f"Groups:       {n.groups}\n"
        f"Operations (built-in): {n.operations}\n"
        f"Startup surface (eager + meta): {n.always_on}\n"
    )


def list_eager_json() -> str:
    from godot_bridge.tools.catalogue import load_catalogue

    cat = load_catalogue()
    data = {
        "eager": sorted(t.name for t in cat.eager_tools()),
        "meta": sorted(t.name for t in cat.meta_tools()),
        "groups": {name: sorted(g.tools) for name, g in sorted(cat.groups.items())},
    }
    return json.dumps(data, indent=2)


def _configure_logging() -> None:
    import os

    level = os.environ.get("GODOT_MCP_LOG_LEVEL", "INFO").upper()
    logging.basicConfig(
        stream=sys.stderr,
        level=getattr(logging, level, logging.INFO),
        format="godot-bridge %(levelname)s %(name)s: %(message)s",
    )
    # The SDK logs every request at INFO; keep stderr to our own call log.
    logging.getLogger("mcp").setLevel(logging.WARNING)
    logging.getLogger("watchfiles").setLevel(logging.WARNING)  # "1 change detected" on every file write
    # Every tool call logs one line; the format uses none of the caller, thread or process
    # fields, so skip gathering them (the logging docs' own optimisation; a stack walk per call).
    logging._srcfile = None  # type: ignore[attr-defined]
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["doctor"]:
        from godot_bridge.setup.doctor import main as doctor_main

        return doctor_main(argv[1:])
    if argv[:1] == ["init"]:
        from godot_bridge.setup.init import main as init_main

        return init_main(argv[1:])
    if argv[:1] == ["uninstall"]:
        from godot_bridge.setup.uninstall import main as uninstall_main

        return uninstall_main(argv[1:])
    try:
        args = parse_args(argv)
    except UsageError as exc:
        return usage.usage_error(usage.SERVER, str(exc))
    if args.action == "--help":
        sys.stdout.write(usage.help_text(usage.SERVER))
        return 0
    if args.action == "--version":
        sys.stdout.write(f"godot-bridge {__version__}\n")
        return 0
    try:
        if args.action == "--tools-count":
            sys.stdout.write(tools_count_text())
            return 0
        if args.action == "--list-eager":
            sys.stdout.write(list_eager_json() + "\n")
            return 0
        settings = settings_from(args)
    except Exception as exc:  # CatalogueError, ConfigError: say what is wrong, no traceback
        sys.stderr.write(f"godot-bridge: error: {exc}\n")
        return 1
    if "--http" in args.switches:
        return serve_http(settings, args)
    return serve(settings)


def _say_where(settings: Settings) -> None:
    """Name the project folder on stderr at start; loudly when no project was found there."""
    search = settings.project_search
    log = logging.getLogger("godot_bridge")
    if search is not None and search.project is None:
        log.warning("no Godot project: %s", search.note())
    else:
        log.info("project: %s", settings.project_note())


def serve(settings: Settings) -> int:
    _configure_logging()
    import anyio

    from godot_bridge.app import BridgeApp
    from godot_bridge.heap import tune_for_serving
    from godot_bridge.mcp.stdio.server import run_stdio
    from godot_bridge.mcp.core.event_loop import backend_options

    try:
        app = BridgeApp(settings)
    except Exception as exc:
        sys.stderr.write(f"godot-bridge: error: {exc}\n")
        return 1
    _say_where(settings)
    tune_for_serving()
    try:
        anyio.run(run_stdio, app, backend_options=backend_options())
    except KeyboardInterrupt:
        pass
    return 0


def serve_http(settings: Settings, args: Args) -> int:
    """``--http``: one bridge, one editor link, any number of HTTP clients."""
    _configure_logging()
    from godot_bridge.mcp.http.config import http_options

    try:
        options = http_options(args.values, "--no-auth" in args.switches, settings.env)
    except ConfigError as exc:
        sys.stderr.write(f"godot-bridge: error: {exc}\n")
        return 1
    import anyio

    from godot_bridge.app import BridgeApp
    from godot_bridge.heap import tune_for_serving
    from godot_bridge.mcp.http.server import run_http
    from godot_bridge.mcp.core.event_loop import backend_options

    try:
        app = BridgeApp(settings)
    except Exception as exc:
        sys.stderr.write(f"godot-bridge: error: {exc}\n")
        return 1
    _say_where(settings)
    logging.getLogger("godot_bridge").info("serving MCP at http://%s:%d/mcp", options.host, options.port)
    tune_for_serving()
    try:
        anyio.run(run_http, app, options, backend_options=backend_options())
    except KeyboardInterrupt:
        pass
    return 0
