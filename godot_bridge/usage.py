"""The command line as data: every command, flag and environment variable, said once.

``godot-bridge --help`` (and each command's ``--help``) is rendered from these definitions, and
so are the README's Command line and Environment tables (``scripts/gen_cli_doc.py`` writes them;
tests/docs/test_cli_docs.py fails when the README differs, or when a parser accepts a flag that
is not defined here). A usage error is one line and a pointer to ``--help``, exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import NoReturn

from godot_bridge.config import ENV_DOCS

USAGE_ERROR = 2


def env_docs() -> dict[str, str]:
    """``config.ENV_DOCS`` with the catalogue's counts filled in (``{read_only_in_all}``, ...)."""
    # Imported here: every command line parses with this module, only --help reads the catalogue.
    from godot_bridge.tools.catalogue import load_catalogue
    from godot_bridge.tools.counts import count

    counts = count(load_catalogue()).by_name()
    return {name: meaning.format_map(counts) for name, meaning in ENV_DOCS.items()}


@dataclass(frozen=True)
class Option:
    name: str  # "--project"
    metavar: str  # "DIR", "" for a switch
    help: str
    alias: str = ""  # "-h"

    @property
    def spelled(self) -> str:
        flag = f"{self.alias}, {self.name}" if self.alias else self.name
        return f"{flag} {self.metavar}" if self.metavar else flag


@dataclass(frozen=True)
class Command:
    name: str  # "" for the server itself
    synopsis: str  # after "godot-bridge"
    summary: str
    options: tuple[Option, ...]
    footer: str = ""

    @property
    def prog(self) -> str:
        return f"godot-bridge {self.name}".strip()

    def flags(self) -> set[str]:
        return {o.name for o in self.options} | {o.alias for o in self.options if o.alias}


HELP = Option("--help", "", "show this help and exit", alias="-h")
# Shared by init and uninstall: the same words for the same flag.
SETUP_PROJECT = Option("--project", "DIR", "the Godot project, or a folder whose one subfolder is one (default: "
                       "$GODOT_MCP_PROJECT_PATH, else the working directory)")
DRY_RUN = Option("--dry-run", "", "print what would change and write nothing")

SERVER = Command(
    "", "[--project DIR] [--editor-port N] [--runtime-port N] [--lsp-port N] [--lsp-host HOST] "
    "[--http [--host HOST] [--port N] [--no-auth]]",
    "the MCP server (stdio) that drives a live Godot 4.2+ editor through the godot_mcp_toolkit plugin; your MCP "
    "client starts it",
    (
        Option("--project", "DIR", "the Godot project folder (default: $GODOT_MCP_PROJECT_PATH, else the working "
               "directory; a folder whose one subfolder holds project.godot works too)"),
        Option("--editor-port", "N", "dial the editor plugin on port N instead of the registry's"),
        Option("--runtime-port", "N", "dial the running game on port N instead of the registry's"),
        Option("--lsp-port", "N", "the GDScript language server's port (default: the registry's, else 6005)"),
        Option("--lsp-host", "HOST", "the GDScript language server's host (default 127.0.0.1)"),
        Option("--http", "", "serve Streamable HTTP at POST /mcp instead of stdio (several clients, one editor)"),
        Option("--host", "HOST", "with --http: the bind address (default 127.0.0.1; another needs "
               "GODOT_BRIDGE_HTTP_TOKEN)"),
        Option("--port", "N", "with --http: the port (default 8765)"),
        Option("--no-auth", "", "with --http: allow a non-loopback bind without a token (prints a warning)"),
        Option("--tools-count", "", "print the catalogue's tool counts and exit"),
        Option("--list-eager", "", "print the always-on, meta and grouped tool names as JSON and exit"),
        Option("--version", "", "print the version and exit"),
        HELP,
    ),
    "Flags take --flag value or --flag=value. Precedence for every endpoint: flag > environment > registry > "
    "default.",
)

INIT = Command(
    "init", "[--project DIR] [--client NAME ...] [--user] [--launch HOW] [--env NAME=VALUE ...] [--dry-run] "
    "[--force]",
    "set a Godot project up: copy the plugin into it, enable it in project.godot, write the MCP client "
    "configuration, then run doctor",
    (
        SETUP_PROJECT,
        Option("--client", "NAME", "claude, copilot or qwen (.mcp.json), cursor (.cursor/mcp.json), vscode "
               "(.vscode/mcp.json), codex (.codex/config.toml), gemini (.gemini/settings.json), opencode "
               "(opencode.json), or all; several allowed; default claude"),
        Option("--user", "", "write the clients' per-user file instead (~/.codex/config.toml, ~/.cursor/mcp.json, "
               "~/.gemini/settings.json, ~/.config/opencode/opencode.json)"),
        Option("--launch", "HOW", "the command the entry runs: uvx (pinned to this version), installed (this "
               "installation's godot-bridge) or a command line; default: the bridge running init"),
        Option("--env", "NAME=VALUE", "set a variable in the entry's env (NAME= removes it); repeatable"),
        DRY_RUN,
        Option("--force", "", "replace a plugin copy that is newer or was changed locally"),
        HELP,
    ),
    "Exit status: 0 when the set-up is done (checks that need an open editor may still wait), 1 when something "
    "failed, 2 for a usage error.",
)

DOCTOR = Command(
    "doctor", "[--json] [--project DIR] [--timeout SECONDS]",
    "check the set-up step by step (Python, packages, project, registry, token, editor, game, language server, "
    "client files and whether their entry starts, limits, editor launch) and say how to fix what is broken",
    (
        Option("--json", "", "machine-readable output"),
        Option("--project", "DIR", "the Godot project (default: $GODOT_MCP_PROJECT_PATH, else the working directory)"),
        Option("--timeout", "SECONDS", "per network probe (default 3)"),
        HELP,
    ),
    "Exit status: 0 when no check failed, 1 when one did, 2 for a usage error.",
)

UNINSTALL = Command(
    "uninstall", "[--project DIR] [--client NAME ...] [--user] [--dry-run] [--force]",
    "take the set-up out again: our entry from every client file, the plugin from project.godot, the plugin "
    "folder",
    (
        SETUP_PROJECT,
        Option("--client", "NAME", "only these clients' files (default: every client file that names the bridge)"),
        Option("--user", "", "also the clients' per-user files"),
        DRY_RUN,
        Option("--force", "", "also remove plugin files you changed or added, and an entry you edited"),
        HELP,
    ),
    "Everything is planned first; a file it cannot change safely stops it with nothing changed. "
    "Exit status: 0 done, 1 failed, 2 for a usage error.",
)

COMMANDS = (SERVER, INIT, DOCTOR, UNINSTALL)


def _wrap(text: str, width: int, indent: str) -> list[str]:
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return [indent + item for item in lines] or [indent]


def help_text(command: Command) -> str:
    """``--help`` for ``command``: usage, what it does, its options; the server's adds commands and environment."""
    out = [f"usage: {command.prog} {command.synopsis}"]
    if command is SERVER:
        out += [f"       godot-bridge {c.name} {c.synopsis}" for c in COMMANDS if c is not SERVER]
        out.append("       godot-bridge --tools-count | --list-eager | --version | --help")
    out += ["", *_wrap(command.summary[0].upper() + command.summary[1:] + ".", 96, ""), "", "options:"]
    width = max(len(o.spelled) for o in command.options) + 2
    for option in command.options:
        body = _wrap(option.help, 96 - width - 2, "")
        out.append(f"  {option.spelled.ljust(width)}{body[0]}")
        out += [" " * (width + 2) + line for line in body[1:]]
    if command is SERVER:
        out += ["", "commands (each has --help):"]
        out += [f"  {c.name.ljust(12)}{c.summary.split(':')[0].split(' (')[0]}" for c in COMMANDS if c is not SERVER]
        name_width = max(map(len, ENV_DOCS)) + 2
        out += ["", "environment:"]
        for name, meaning in env_docs().items():
            body = _wrap(meaning, 96 - name_width - 2, "")
            out.append(f"  {name.ljust(name_width)}{body[0]}")
            out += [" " * (name_width + 2) + line for line in body[1:]]
    if command.footer:
        out += ["", *_wrap(command.footer, 96, "")]
    return "\n".join(out) + "\n"


class _Parser(argparse.ArgumentParser):
    """argparse with this module's help text and a one-line usage error (exit 2)."""

    command: Command

    def error(self, message: str) -> NoReturn:  # type: ignore[override]
        raise SystemExit(usage_error(self.command, message))

    def print_help(self, file: object = None) -> None:
        sys.stdout.write(help_text(self.command))


def argparser(command: Command) -> argparse.ArgumentParser:
    """A parser for ``command`` whose --help and errors are this module's; the caller adds the arguments."""
    parser = _Parser(prog=command.prog, add_help=False)
    parser.command = command
    parser.add_argument("-h", "--help", action="help")
    return parser


def usage_error(command: Command, message: str) -> int:
    """One line saying what was wrong, one saying where the options are; exit status 2."""
    sys.stderr.write(f"{command.prog}: error: {message}\nRun '{command.prog} --help' for the options.\n")
    return USAGE_ERROR


def failure(command: Command, message: str) -> int:
    """The command could not do its work: one line saying why; exit status 1."""
    sys.stderr.write(f"{command.prog}: error: {message}\n")
    return 1


def read_failure(command: Command, exc: OSError) -> int:
    """A file the plan needed could not be read: nothing was written yet."""
    return failure(command, f"cannot read {exc.filename or 'the project'}: {exc.strerror or exc}; nothing was changed")


# -- the README's tables -----------------------------------------------------------------------


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown_commands() -> str:
    rows = ["| command or flag | meaning |", "| --- | --- |"]
    for command in COMMANDS:
        rows.append(f"| `{command.prog}` | {_cell(command.summary)} |")
        for option in command.options:
            if option is HELP:
                continue
            rows.append(f"| `{command.name + ' ' if command.name else ''}{option.spelled}` | {_cell(option.help)} |")
    rows.append("| `--help`, `-h` | after any command: its options |")
    return "\n".join(rows) + "\n"


def markdown_environment() -> str:
    rows = ["| variable | meaning |", "| --- | --- |"]
    rows += [f"| `{name}` | {_cell(meaning)} |" for name, meaning in env_docs().items()]
    return "\n".join(rows) + "\n"
