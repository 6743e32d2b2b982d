"""Each MCP client's file, where that client reads it and in its format, merged into files people
really have (comments, trailing commas, other servers, odd layout, CRLF): everything but our entry
stays byte for byte, and taking the entry out again gives back the file as it was."""

from __future__ import annotations

import difflib
import json
import os
import tomllib
from pathlib import Path

import pytest

from godot_bridge.setup import client_entry, client_limits, init, json_text, launch, uninstall
from godot_bridge.setup.client_files import ClientFile, ClientFileError, clients

KEY = client_entry.definition().server_key
ENTRY = {"command": "/opt/godot-bridge/bin/godot-bridge", "args": [], "env": {"GODOT_MCP_CONFIG_VERSION": "1"}}
PROJECT_GODOT = 'config_version=5\n\n[application]\n\nconfig/name="Demo"\n'

# Files as people write them: the shapes each client's own docs show, plus what users add.
REALISTIC = {
    "claude": '{\n  "mcpServers": {\n    "filesystem": {\n      "command": "npx",\n      "args": ["-y", '
              '"@modelcontextprotocol/server-filesystem", "."],\n      "timeout": 0\n    },\n    "github": {"type": '
              '"http", "url": "https://api.githubcopilot.com/mcp/"}\n  }\n}\n',
    "cursor": '{"mcpServers":{"postgres":{"command":"npx","args":["-y","@modelcontextprotocol/server-postgres",'
              '"postgresql://localhost/db"],"env":{"PGPASSWORD":"x"}}}}',
    "vscode": '{\n\t// Team servers; keep in sync with the wiki\n\t"inputs": [\n\t\t{"type": "promptString", "id": '
              '"gh-token", "password": true},\n\t],\n\t"servers": {\n\t\t"github": {\n\t\t\t"type": "http",\n\t\t\t'
              '"url": "https://api.githubcopilot.com/mcp/", /* remote */\n\t\t\t"headers": {"Authorization": '
              '"Bearer ${input:gh-token}"},\n\t\t},\n\t\t// "playwright": {"command": "npx", "args": '
              '["@playwright/mcp"]},\n\t},\n}\n',
    "codex": '# ~/.codex/config.toml style\nmodel = "o4-mini"          # the fast one\napproval_policy = "on-request"\n'
             '\n[mcp_servers.context7]\ncommand = "npx"\nargs    = ["-y", "@upstash/context7-mcp"]   # docs lookups\n'
             'env = { "API_KEY" = "value" }\nstartup_timeout_sec = 20\n\n[profiles.deep]\nmodel = "o3"\n',
    "gemini": '{\r\n    // Gemini CLI settings\r\n    "theme": "GitHub",\r\n    "general": {"vimMode": true},\r\n'
              '    "mcpServers": {\r\n        "bookmarks": {\r\n            "command": "uv",\r\n            "args": '
              '["--directory", "/tmp/acme", "run", "bookmarks.py"],\r\n            "trust": false\r\n        }\r\n    }'
              ',\r\n}\r\n',
    "copilot": '{\n  "mcpServers": {\n    "playwright": {\n      "type": "local",\n      "command": "npx",\n'
               '      "args": ["@playwright/mcp@latest"],\n      "tools": ["*"]\n    }\n  }\n}\n',
    "qwen": '{\n    "mcpServers": {\n        "context7": {\n            "command": "npx",\n'
            '            "args": ["-y", "@upstash/context7-mcp"],\n            "timeout": 30000,\n'
            '            "trust": false\n        }\n    }\n}\n',
    "opencode": '{\n  "$schema": "https://opencode.ai/config.json",\n  // team defaults\n  "theme": "opencode",\n'
                '  "mcp": {\n'
                '    "sentry": {"type": "remote", "url": "https://mcp.sentry.dev/mcp", "enabled": true},\n'
                '    "everything": {\n      "type": "local",\n'
                '      "command": ["npx", "-y", "@modelcontextprotocol/server-everything"],\n'
                '      "environment": {"DEBUG": "1"},\n    },\n  },\n}\n',
}
EXPECTED_PATHS = {"claude": ".mcp.json", "cursor": ".cursor/mcp.json", "vscode": ".vscode/mcp.json",
                  "codex": ".codex/config.toml", "gemini": ".gemini/settings.json", "copilot": ".mcp.json",
                  "qwen": ".mcp.json", "opencode": "opencode.json"}


def parse(name: str, text: str) -> dict:
    if clients()[name].format == "toml":
        return tomllib.loads(text)
    return json_text.loads(text, comments=clients()[name].format == "jsonc")


def only_inserted(before: str, after: str) -> str:
    """What ``after`` adds to ``before``, failing when anything of ``before`` changed or went."""
    ops = difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes()
    changed = [(tag, before[i1:i2], after[j1:j2]) for tag, i1, i2, j1, j2 in ops if tag != "equal"]
    assert all(tag == "insert" for tag, _, _ in changed), changed
    return "".join(new for _, _, new in changed)


def test_the_client_list_and_where_each_reads() -> None:
    assert {name: c.file for name, c in clients().items()} == EXPECTED_PATHS
    assert {name: c.servers for name, c in clients().items()} == {
        "claude": "mcpServers", "cursor": "mcpServers", "vscode": "servers", "codex": "mcp_servers",
        "gemini": "mcpServers", "copilot": "mcpServers", "qwen": "mcpServers", "opencode": "mcp"}
    assert clients()["vscode"].entry == {"type": "stdio"} and clients()["codex"].format == "toml"
    assert "trust" in clients()["codex"].note and clients()["codex"].user_file == "~/.codex/config.toml"
    opencode = clients()["opencode"]
    assert opencode.also == ("opencode.jsonc",) and opencode.argv and opencode.env_key == "environment"
    assert opencode.entry == {"type": "local"} and opencode.user_file == "~/.config/opencode/opencode.json"
    assert "trust" in clients()["copilot"].note and "approve" in clients()["qwen"].note


def test_clients_reading_one_file_ask_for_one_entry() -> None:
    """.mcp.json serves Claude Code, Copilot CLI and Qwen Code: each asks for the very same entry, so
    ``init --client`` with any of them leaves what another wrote as it is (Qwen's approval holds)."""
    readers = [c for c in clients().values() if c.file == ".mcp.json"]
    assert [c.name for c in readers] == ["claude", "copilot", "qwen"]
    shape = {(c.format, c.servers, json.dumps(c.entry), json.dumps(c.timeouts), c.argv, c.env_key, c.passes_env)
             for c in readers}
    assert len(shape) == 1, shape


@pytest.mark.parametrize("name", list(REALISTIC))
def test_entry_merged_into_a_realistic_file_and_taken_out_again(name: str, tmp_path: Path) -> None:
    spec = clients()[name]
    before = REALISTIC[name]
    after = ClientFile(spec, tmp_path / spec.file, before).with_entry(ENTRY)
    added = only_inserted(before, after)
    assert KEY in added and "/opt/godot-bridge/bin/godot-bridge" in added
    data = parse(name, after)
    assert data[spec.servers][KEY] == ENTRY
    assert {k: v for k, v in data[spec.servers].items() if k != KEY} == {
        k: v for k, v in parse(name, before)[spec.servers].items()}
    if "\r\n" in before:
        assert "\n" not in after.replace("\r\n", ""), "line endings kept"
    assert ClientFile(spec, tmp_path / spec.file, after).without_entry(KEY) == before


@pytest.mark.parametrize("name", list(REALISTIC))
def test_a_new_file_and_one_without_servers(name: str, tmp_path: Path) -> None:
    spec = clients()[name]
    created = ClientFile(spec, tmp_path / spec.file, None).with_entry(ENTRY)
    assert parse(name, created) == {spec.servers: {KEY: ENTRY}}
    assert ClientFile(spec, tmp_path / spec.file, created).without_entry(KEY) is None, "the file can go again"
    other = 'model = "o3"\n' if spec.format == "toml" else '{\n  // mine\n  "theme": "dark"\n}\n'
    if spec.format == "json":
        other = '{\n  "theme": "dark"\n}\n'
    merged = ClientFile(spec, tmp_path / spec.file, other).with_entry(ENTRY)
    only_inserted(other, merged)
    assert ClientFile(spec, tmp_path / spec.file, merged).without_entry(KEY) == other


@pytest.mark.parametrize("name", ["vscode", "codex"])
def test_updating_our_entry_changes_only_its_text(name: str, tmp_path: Path) -> None:
    spec = clients()[name]
    old = ClientFile(spec, tmp_path / spec.file, REALISTIC[name]).with_entry(
        {**ENTRY, "command": "uvx", "args": ["godot-bridge"]})
    new = ClientFile(spec, tmp_path / spec.file, old).with_entry(ENTRY)
    ops = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    ours_start = old.index(KEY)
    ours_end = ours_start + len(old) - len(REALISTIC[name])  # our entry's text is all init added
    touched = [(i1, i2) for tag, i1, i2, _, _ in ops if tag != "equal"]
    assert touched and all(ours_start <= i1 and i2 <= ours_end for i1, i2 in touched), (touched, ours_start, ours_end)
    assert parse(name, new)[spec.servers][KEY] == ENTRY
    assert ClientFile(spec, tmp_path / spec.file, new).without_entry(KEY) == REALISTIC[name]


def test_json_with_comments_is_refused_where_the_client_reads_plain_json(tmp_path: Path) -> None:
    with pytest.raises(ClientFileError, match="not valid JSON"):
        ClientFile(clients()["claude"], tmp_path / ".mcp.json", '{"mcpServers": {}, // x\n}').with_entry(ENTRY)
    with pytest.raises(ClientFileError, match="not JSON with comments"):
        ClientFile(clients()["vscode"], tmp_path / "m.json", '{"servers": {/* open').data()
    with pytest.raises(ClientFileError, match="not valid TOML"):
        ClientFile(clients()["codex"], tmp_path / "c.toml", "[mcp_servers\n").data()


def test_blank_handles_strings_comments_and_trailing_commas() -> None:
    text = '{"a": "// not a comment, ]", /* c */ "b": [1, 2,], // end\n}'
    blanked = json_text.blank(text, comments=True)
    assert len(blanked) == len(text) and json.loads(blanked) == {"a": "// not a comment, ]", "b": [1, 2]}
    with pytest.raises(json_text.JsonTextError, match="line 1"):
        json_text.blank('{"a": "open', comments=True)


# -- init writes each client's file where it reads it -------------------------------------------------


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    data = tmp_path / "xdg"
    data.mkdir()
    return {"XDG_DATA_HOME": str(data), "HOME": str(tmp_path / "home"), "PATH": os.environ.get("PATH", "")}


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("name", list(REALISTIC))
def test_init_writes_where_the_client_reads(name: str, tmp_path: Path, env: dict[str, str]) -> None:
    project = tmp_path / "game"
    project.mkdir()
    (project / "project.godot").write_text(PROJECT_GODOT, encoding="utf-8")
    path = project / EXPECTED_PATHS[name]
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(REALISTIC[name].encode("utf-8"))
    assert init.main(["--project", str(project), "--client", name], env) == 0
    after = path.read_bytes().decode("utf-8")
    only_inserted(REALISTIC[name], after)
    spec = clients()[name]
    entry = parse(name, after)[spec.servers][KEY]
    command = launch.choose(None, client_entry.os_name()).command
    assert entry["command"] == ([command] if spec.argv else command)
    assert entry.get("type") == {"vscode": "stdio", "opencode": "local"}.get(name)
    assert (spec.env_key in entry) and (spec.env_key == "env" or "env" not in entry)


def test_all_clients_then_uninstall_gives_back_every_file(tmp_path: Path, env: dict[str, str],
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    repo = tmp_path / "repo"
    (repo / "game").mkdir(parents=True)
    (repo / "game" / "project.godot").write_text(PROJECT_GODOT, encoding="utf-8")
    for name in ("vscode", "codex", "gemini"):  # three with a file already, two without
        path = repo / EXPECTED_PATHS[name]
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(REALISTIC[name].encode("utf-8"))
    home = Path(env["HOME"])
    (home / ".codex").mkdir(parents=True)
    (home / ".codex" / "config.toml").write_text(REALISTIC["codex"], encoding="utf-8")
    before, home_before = snapshot(repo), snapshot(home)
    folders_before = sorted(p.relative_to(repo) for p in repo.rglob("*") if p.is_dir())
    assert init.main(["--project", str(repo), "--client", "all"], env) == 0
    assert init.main(["--project", str(repo), "--client", "codex", "--user"], env) == 0
    out = capsys.readouterr().out
    assert "the client files go in" in out and "Codex reads a project's .codex/config.toml only when you trust" in out
    for name, rel in EXPECTED_PATHS.items():
        entry = parse(name, (repo / rel).read_text(encoding="utf-8"))[clients()[name].servers][KEY]
        env_block = entry[clients()[name].env_key]
        assert env_block["GODOT_MCP_PROJECT_PATH"] == str(repo / "game"), "the entry names the project below"
    user_entry = tomllib.loads((home / ".codex" / "config.toml").read_text(encoding="utf-8"))["mcp_servers"][KEY]
    assert "GODOT_MCP_PROJECT_PATH" not in user_entry["env"], "a per-user entry serves every project"
    assert uninstall.main(["--project", str(repo), "--user"], env) == 0
    assert snapshot(repo) == before, "every file as it was, byte for byte"
    assert snapshot(home) == home_before
    assert sorted(p.relative_to(repo) for p in repo.rglob("*") if p.is_dir()) == folders_before, "no folder left"


# -- Copilot CLI, Qwen Code, opencode ------------------------------------------------------------


def make_project(tmp_path: Path) -> Path:
    project = tmp_path / "game"
    project.mkdir(parents=True)
    (project / "project.godot").write_text(PROJECT_GODOT, encoding="utf-8")
    return project


def test_opencode_jsonc_is_the_file_written_when_the_project_has_it(tmp_path: Path, env: dict[str, str]) -> None:
    project = make_project(tmp_path)
    (project / "opencode.jsonc").write_text(REALISTIC["opencode"], encoding="utf-8")
    assert init.main(["--project", str(project), "--client", "opencode"], env) == 0
    assert not (project / "opencode.json").exists(), "opencode reads either name; the one the project has is edited"
    after = (project / "opencode.jsonc").read_text(encoding="utf-8")
    only_inserted(REALISTIC["opencode"], after)  # comments, trailing commas and the other servers kept
    entry = json_text.loads(after, comments=True)["mcp"][KEY]
    command = launch.choose(None, client_entry.os_name()).as_entry()
    assert entry == {"type": "local", "command": [command["command"], *command["args"]],
                     "environment": {"GODOT_MCP_TOOL_LIST": "groups", "GODOT_MCP_CONFIG_VERSION": "1"},
                     "timeout": client_limits.longest_call_s() * 1000}
    assert uninstall.main(["--project", str(project), "--client", "opencode"], env) == 0
    assert (project / "opencode.jsonc").read_text(encoding="utf-8") == REALISTIC["opencode"]


def test_an_entry_in_place_stays_byte_for_byte_whatever_its_key_order(tmp_path: Path, env: dict[str, str],
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Qwen Code binds the person's approval to the entry's content: an entry init would write anyway,
    in another key order, with a longer time limit and keys of the person's, is not touched."""
    project = make_project(tmp_path)
    command = launch.choose(None, client_entry.os_name()).as_entry()
    longer = client_limits.longest_call_s() * 1000 + 60000
    text = ('{"mcpServers": {"%s": {"timeout": %d, "env": {"GODOT_MCP_TOOL_LIST": "groups", '
            '"GODOT_MCP_CONFIG_VERSION": "1"}, "trust": true, "args": %s, "command": %s}}}\n'
            % (KEY, longer, json.dumps(command["args"]), json.dumps(command["command"])))
    (project / ".mcp.json").write_text(text, encoding="utf-8")
    assert init.main(["--project", str(project), "--client", "qwen", "copilot", "claude"], env) == 0
    assert init.main(["--project", str(project), "--client", "all"], env) == 0
    assert (project / ".mcp.json").read_text(encoding="utf-8") == text
    out = capsys.readouterr().out
    assert ".mcp.json: the Qwen Code entry is already in place" in out
    assert ".mcp.json: GitHub Copilot CLI reads the same entry as Claude Code" in out


def test_a_time_limit_below_the_longest_call_is_raised(tmp_path: Path, env: dict[str, str]) -> None:
    project = make_project(tmp_path)
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {KEY: {"command": "x", "timeout": 60000}}}),
                                       encoding="utf-8")
    (project / ".codex").mkdir()
    (project / ".codex" / "config.toml").write_text(f'[mcp_servers.{KEY}]\ncommand = "x"\ntool_timeout_sec = 60\n',
                                                    encoding="utf-8")
    assert init.main(["--project", str(project), "--client", "copilot", "codex"], env) == 0
    entry = json.loads((project / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"][KEY]
    assert entry["timeout"] == client_limits.longest_call_s() * 1000
    table = tomllib.loads((project / ".codex" / "config.toml").read_text(encoding="utf-8"))["mcp_servers"][KEY]
    assert table["tool_timeout_sec"] == client_limits.longest_call_s()
    assert table["startup_timeout_sec"] == client_limits.START_S


def test_what_codex_would_drop_is_written_into_its_entry_only(tmp_path: Path, env: dict[str, str]) -> None:
    """Codex passes on HOME, PATH and a few more: a non-default XDG_DATA_HOME (where the editor publishes
    its registry) and GODOT_BIN go into its entry's env. Claude Code passes everything on: its shared
    .mcp.json gets no path of this machine."""
    project = make_project(tmp_path)
    custom = {**env, "GODOT_BIN": "/opt/godot/godot", "UNRELATED": "x"}
    assert init.main(["--project", str(project), "--client", "codex", "claude"], custom) == 0
    codex = tomllib.loads((project / ".codex" / "config.toml").read_text(encoding="utf-8"))["mcp_servers"][KEY]
    assert codex["env"] == {"GODOT_MCP_CONFIG_VERSION": "1", "XDG_DATA_HOME": env["XDG_DATA_HOME"],
                            "GODOT_BIN": "/opt/godot/godot", "GODOT_MCP_TOOL_LIST": "all"}
    claude = json.loads((project / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"][KEY]
    assert claude["env"] == {"GODOT_MCP_TOOL_LIST": "all", "GODOT_MCP_CONFIG_VERSION": "1"}
    # The default folder changes nothing: not written. A value already in the entry stays.
    default = {**env, "XDG_DATA_HOME": str(Path.home() / ".local" / "share")}
    other = make_project(tmp_path / "other")
    assert init.main(["--project", str(other), "--client", "codex"], default) == 0
    table = tomllib.loads((other / ".codex" / "config.toml").read_text(encoding="utf-8"))["mcp_servers"][KEY]
    assert "XDG_DATA_HOME" not in table["env"]
    assert init.main(["--project", str(project), "--client", "codex"], {**custom, "XDG_DATA_HOME": "/elsewhere"}) == 0
    again = tomllib.loads((project / ".codex" / "config.toml").read_text(encoding="utf-8"))["mcp_servers"][KEY]
    assert again["env"]["XDG_DATA_HOME"] == env["XDG_DATA_HOME"]


def test_copilot_alone_says_whose_file_it_writes(tmp_path: Path, env: dict[str, str],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    project = make_project(tmp_path)
    assert init.main(["--project", str(project), "--client", "copilot"], env) == 0
    out = capsys.readouterr().out
    assert "write .mcp.json for GitHub Copilot CLI" in out and "(Claude Code and Qwen Code read it too)" in out
    assert "Copilot CLI reads .mcp.json once you trust the folder" in out
