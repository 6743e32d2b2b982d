"""CLI flags and the informational commands (issue 2, item 4)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from godot_bridge.cli import UsageError, parse_args
from godot_bridge.tools.catalogue import load_catalogue

GOLDEN_TOOLS_COUNT = """\
Total tools:  135
  Eager:      25
  Meta:       2 (discover_tools, extensions_refresh: always in tools/list)
  On-demand:  108
Groups:       38
Operations (built-in): 181
Startup surface (eager + meta): 27
"""


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "godot_bridge", *args], capture_output=True, text=True,
                          timeout=30, stdin=subprocess.DEVNULL)


def test_tools_count_golden():
    out = run("--tools-count")
    assert out.returncode == 0 and out.stdout == GOLDEN_TOOLS_COUNT


def test_list_eager_is_sorted_and_complete():
    data = json.loads(run("--list-eager").stdout)
    assert data["eager"] == sorted(data["eager"]) and len(data["eager"]) == 25
    assert data["meta"] == ["discover_tools", "extensions_refresh"]
    assert list(data["groups"]) == sorted(data["groups"]) and len(data["groups"]) == 38
    cat = load_catalogue()
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
