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

from godot_bridge.setup import client_entry, init, json_text, launch, uninstall
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
}
EXPECTED_PATHS = {"claude": ".mcp.json", "cursor": ".cursor/mcp.json", "vscode": ".vscode/mcp.json",
                  "codex": ".codex/config.toml", "gemini": ".gemini/settings.json"}


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
        "gemini": "mcpServers"}
    assert clients()["vscode"].entry == {"type": "stdio"} and clients()["codex"].format == "toml"
    assert "trust" in clients()["codex"].note and clients()["codex"].user_file == "~/.codex/config.toml"


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
    entry = parse(name, after)[clients()[name].servers][KEY]
    assert entry["command"] == launch.choose(None, client_entry.os_name()).command
    assert ("type" in entry) == (name == "vscode")


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
        assert entry["env"]["GODOT_MCP_PROJECT_PATH"] == str(repo / "game"), "the entry names the project below"
    user_entry = tomllib.loads((home / ".codex" / "config.toml").read_text(encoding="utf-8"))["mcp_servers"][KEY]
    assert "GODOT_MCP_PROJECT_PATH" not in user_entry["env"], "a per-user entry serves every project"
    assert uninstall.main(["--project", str(repo), "--user"], env) == 0
    assert snapshot(repo) == before, "every file as it was, byte for byte"
    assert snapshot(home) == home_before
    assert sorted(p.relative_to(repo) for p in repo.rglob("*") if p.is_dir()) == folders_before, "no folder left"
