"""CLI flags and the informational commands."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from godot_bridge.cli import UsageError, parse_args
from godot_bridge.tools.catalogue import load_catalogue

# The reference's --tools-count, line by line: tools that read this output take Total as eager +
# on-demand, with the meta tools on a line of their own.
TOOLS_COUNT_LINES = [
    r"Total tools:  (\d+)",
    r"  Eager:      (\d+)",
    r"  On-demand:  (\d+)",
    r"Meta:         (\d+) \((.+): .*\)",  # the meta tools' names, then what they are
    r"Groups:       (\d+)",
    r"Operations \(built-in\): (\d+)",
    r"Startup surface \(eager \+ meta\): (\d+)",
]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "godot_bridge", *args], capture_output=True, text=True,
                          timeout=30, stdin=subprocess.DEVNULL)


def test_tools_count_total_is_eager_plus_on_demand_and_meta_stands_apart():
    out = run("--tools-count")
    lines = out.stdout.splitlines()
    assert out.returncode == 0 and len(lines) == len(TOOLS_COUNT_LINES), out.stdout
    matches = [re.fullmatch(pattern, line) for pattern, line in zip(TOOLS_COUNT_LINES, lines, strict=True)]
    assert all(matches), out.stdout
    total, eager, on_demand, meta, groups, operations, startup = (int(m.group(1)) for m in matches if m)
    cat = load_catalogue()
    assert matches[3] and matches[3].group(2) == ", ".join(t.name for t in cat.meta_tools())
    assert (eager, on_demand, meta) == (len(cat.eager_tools()), len(cat.on_demand_tools()), len(cat.meta_tools()))
    assert total == eager + on_demand and total + meta == len(cat.tools)
    assert startup == eager + meta == sum(t.always_on for t in cat.tools.values())
    assert (groups, operations) == (len(cat.groups), cat.operations_count())


def test_list_eager_is_sorted_and_complete():
    data = json.loads(run("--list-eager").stdout)
    cat = load_catalogue()
    assert data["eager"] == sorted(t.name for t in cat.eager_tools())
    assert data["meta"] == sorted(t.name for t in cat.meta_tools())
    assert list(data["groups"]) == sorted(cat.groups)
    assert sum(len(v) for v in data["groups"].values()) == len(cat.on_demand_tools())


def test_help():
    out = run("--help")
    assert out.returncode == 0 and "--editor-port" in out.stdout and "GODOT_MCP_READ_ONLY" in out.stdout


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [(["--bogus"], "unknown option: --bogus"), (["extra"], "unexpected argument"),
     (["--editor-port", "65536"], "invalid port"), (["--lsp-port=12a"], "invalid port"),
     (["--runtime-port", "0"], "invalid port"), (["--editor-port"], "needs a value"),
     (["--lsp-port", "-5"], "invalid port")],
)
def test_bad_invocations_exit_2_with_one_line_and_a_pointer(argv: list[str], fragment: str):
    out = run(*argv)
    assert out.returncode == 2
    first, second = out.stderr.splitlines()
    assert fragment in first and first.startswith("godot-bridge: error: ")
    assert second == "Run 'godot-bridge --help' for the options."
    assert out.stdout == ""


def test_both_flag_spellings():
    a = parse_args(["--editor-port", "7000", "--runtime-port=7001", "--lsp-host", "127.0.0.2", "--project=/tmp/p"])
    assert a.values == {"--editor-port": "7000", "--runtime-port": "7001", "--lsp-host": "127.0.0.2",
                        "--project": "/tmp/p"}
    with pytest.raises(UsageError):
        parse_args(["--editor-port=+80"])
