"""One truth for the command line: the parsers, ``--help`` and the README's tables all come from
usage.py (and config.ENV_DOCS), and every usage error is one line, a pointer, exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from godot_bridge import cli, usage
from godot_bridge.config import ENV_CHECKS, ENV_DOCS
from godot_bridge.setup import doctor, init, uninstall

REPO = Path(__file__).resolve().parents[2]


def run(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GODOT_MCP_")}
    return subprocess.run([sys.executable, "-m", "godot_bridge", *args], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, cwd=cwd, env={**env, "PYTHONPATH": str(REPO)})


def _argparse_flags(parser: object) -> set[str]:
    return {flag for action in parser._actions for flag in action.option_strings}  # type: ignore[attr-defined]


def test_the_parsers_accept_exactly_the_defined_flags() -> None:
    assert cli._ACTIONS | cli._SWITCHES | cli._VALUE_FLAGS == usage.SERVER.flags()
    assert _argparse_flags(init._parser()) == usage.INIT.flags()
    assert _argparse_flags(uninstall._parser()) == usage.UNINSTALL.flags()
    parsed = doctor.parse_args(["--json", "--project", "/p", "--timeout", "2"])
    assert (parsed.json, parsed.project, parsed.timeout) == (True, "/p", 2.0)
    assert usage.DOCTOR.flags() == {"--json", "--project", "--timeout", "--help", "-h"}


def test_every_variable_the_bridge_reads_is_documented() -> None:
    assert set(ENV_DOCS) == set(ENV_CHECKS) | {"MCP_ALLOWED_ORIGINS"}


def in_process(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``godot-bridge ARGS`` run in this process (argparse exits with SystemExit)."""
    try:
        code = cli.main(args)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("command", usage.COMMANDS, ids=lambda c: c.name or "server")
def test_help_lists_every_flag(command: usage.Command, capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, stderr = in_process([*([command.name] if command.name else []), "--help"], capsys)
    assert code == 0 and stderr == ""
    out = subprocess.CompletedProcess([], code, stdout, stderr)
    for option in command.options:
        assert option.spelled in out.stdout
    if command is usage.SERVER:
        for other in usage.COMMANDS[1:]:
            assert f"godot-bridge {other.name} {other.synopsis}" in out.stdout
        for name in ENV_DOCS:
            assert name in out.stdout


def test_the_readme_tables_are_the_generated_ones() -> None:
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "gen_cli_doc.py"), "--check"], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert usage.markdown_commands() in text and usage.markdown_environment() in text


@pytest.mark.parametrize(("args", "said"), [
    (["--bogus"], "unknown option: --bogus"),
    (["extra"], "unexpected argument"),
    (["--port", "80"], "--port needs --http"),
    (["init", "--bogus"], "unrecognized arguments: --bogus"),
    (["init", "--client", "emacs"], "invalid choice: 'emacs'"),
    (["init", "--env", "NOEQUALS"], "expected NAME=VALUE"),
    (["init", "--env", "GODOT_MCP_TYPO=1"], "GODOT_MCP_TYPO is not a variable the bridge reads"),
    (["init", "--client", "claude", "--user"], "Claude Code has no per-user file"),
    (["doctor", "--bogus"], "unknown argument: --bogus"),
    (["doctor", "--timeout", "soon"], "is not a number of seconds"),
    (["uninstall", "--client", "emacs"], "invalid choice: 'emacs'"),
    (["uninstall", "--force=yes"], "ignored explicit argument"),
])
def test_every_usage_error_is_one_line_a_pointer_and_exit_2(args: list[str], said: str, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "project.godot").write_text("config_version=5\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    code, stdout, stderr = in_process(args, capsys)
    out = subprocess.CompletedProcess(args, code, stdout, stderr)
    assert out.returncode == 2, out.stdout + out.stderr
    lines = out.stderr.splitlines()
    prog = "godot-bridge" + (f" {args[0]}" if args[0] in ("init", "doctor", "uninstall") else "")
    assert len(lines) == 2 and said in lines[0] and lines[0].startswith(f"{prog}: error: "), out.stderr
    assert lines[1] == f"Run '{prog} --help' for the options."
    assert out.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["project.godot"], "a usage error writes nothing"


def test_the_real_process_exits_2_on_a_usage_error(tmp_path: Path) -> None:
    out = run("init", "--bogus", cwd=tmp_path)
    assert out.returncode == 2 and out.stdout == "" and len(out.stderr.splitlines()) == 2
