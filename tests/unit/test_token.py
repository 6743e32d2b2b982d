"""Token discovery: every rule of C18 fails with its own AUTH_FAILED message."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from godot_bridge.editor import token as tokens
from godot_bridge.editor.registry import RegistryEntry
from godot_bridge.errors import ToolError
from godot_bridge.safety import private_files

TOKEN = "ab" * 32
REG = Path("/data/godot-mcp-toolkit/projects.json")


def _entry(token_path: str) -> RegistryEntry:
    return RegistryEntry.from_json("/p", {"_key": "/p", "port": 6550, "token_path": token_path})


def _published(tmp_path: Path, instance: str = "0123456789ab", content: str = TOKEN) -> Path:
    path = tmp_path / "app_userdata" / "proj" / "addons" / "godot_mcp_toolkit" / f"project_instance_{instance}" / "mcp_token"
    path.parent.mkdir(parents=True)
    path.write_text(content, encoding="utf-8")
    path.chmod(0o600)  # as the toolkit creates it
    return path


def _load(override: Path | None, entry: RegistryEntry | None) -> tuple[str, tokens.TokenSource]:
    return tokens.load(override, entry, project="/p", registry_file=REG)


def test_registry_token_path_is_read(tmp_path):
    path = _published(tmp_path)
    value, source = _load(None, _entry(str(path)))
    assert value == TOKEN
    assert source.origin == "registry" and source.path == path


def test_token_is_reread_every_time(tmp_path):
    path = _published(tmp_path)
    entry = _entry(str(path))
    assert _load(None, entry)[0] == TOKEN
    path.write_text("cd" * 32, encoding="utf-8")
    assert _load(None, entry)[0] == "cd" * 32


def test_override_wins_and_skips_the_suffix_rule(tmp_path):
    override = tmp_path / "my-token.txt"
    override.write_text(TOKEN + "\n", encoding="utf-8")  # an operator's file may end in a newline
    override.chmod(0o600)
    value, source = _load(override, _entry("relative/garbage"))
    assert value == TOKEN and source.origin == "GODOT_MCP_TOKEN_PATH"


def _cases(tmp_path: Path) -> dict[str, tuple[Path | None, RegistryEntry | None, str]]:
    good = _published(tmp_path)
    folder = tmp_path / "dir-override"
    folder.mkdir()
    dir_token = tmp_path / "x" / "addons" / "godot_mcp_toolkit" / "project_instance_aaaaaaaaaaaa" / "mcp_token"
    dir_token.mkdir(parents=True)
    empty = _published(tmp_path / "e", content="  \n")
    binary = tmp_path / "b" / "addons" / "godot_mcp_toolkit" / "project_instance_bbbbbbbbbbbb" / "mcp_token"
    binary.parent.mkdir(parents=True)
    binary.write_bytes(b"\xff\xfe\x00")
    binary.chmod(0o600)
    base = str(good.parent.parent)
    return {
        "override relative": (Path("relative/token"), None, "is not an absolute path"),
        "override missing": (tmp_path / "nope", None, "does not exist"),
        "override directory": (folder, None, "is not a regular file"),
        "no entry": (None, None, "no registry entry for project /p"),
        "empty token_path": (None, _entry(""), "publishes no token_path"),
        "relative": (None, _entry("addons/godot_mcp_toolkit/project_instance_0123456789ab/mcp_token"), "not an absolute path"),
        "dotdot": (None, _entry(f"{base}/../godot_mcp_toolkit/project_instance_0123456789ab/mcp_token"), "'..' segment"),
        "wrong name": (None, _entry(str(good.parent / "token")), "does not end in"),
        "uppercase hash": (None, _entry(f"{base}/project_instance_0123456789AB/mcp_token"), "does not end in"),
        "short hash": (None, _entry(f"{base}/project_instance_0123456789a/mcp_token"), "does not end in"),
        "wrong addon": (None, _entry(str(tmp_path / "addons/other/project_instance_0123456789ab/mcp_token")), "does not end in"),
        "missing": (None, _entry(f"{base}/project_instance_ffffffffffff/mcp_token"), "does not exist"),
        "directory": (None, _entry(str(dir_token)), "is not a regular file"),
        "empty": (None, _entry(str(empty)), "is empty"),
        "binary": (None, _entry(str(binary)), "is not text"),
    }


def test_each_rule_has_its_own_message(tmp_path):
    messages = {}
    for name, (override, entry, expected) in _cases(tmp_path).items():
        with pytest.raises(ToolError) as caught:
            _load(override, entry)
        err = caught.value
        assert err.code == "AUTH_FAILED", name
        assert expected in err.message, (name, err.message)
        assert err.hint, name
        messages[name] = err.message
    # Distinct: no two rules read the same to the user.
    assert len(set(messages.values())) == len(messages)


@pytest.mark.skipif(os.name == "nt" or os.geteuid() == 0, reason="root reads any file; needs POSIX permissions")
def test_unreadable_token_file(tmp_path):
    path = _published(tmp_path)
    path.chmod(0)
    try:
        with pytest.raises(ToolError, match="cannot read the token file"):
            _load(None, _entry(str(path)))
    finally:
        path.chmod(0o600)


def test_backslash_paths_are_checked_for_shape():
    # A Windows-style published path: the suffix rule treats '\' as a separator.
    err = None
    try:
        _load(None, _entry("C:\\Users\\me\\AppData\\addons\\godot_mcp_toolkit\\project_instance_0123456789ab\\mcp_token"))
    except ToolError as exc:
        err = exc
    assert err is not None and err.code == "AUTH_FAILED"
    # On POSIX that is not absolute; on Windows it is, and then it simply does not exist.
    assert "does not end in" not in err.message


# -- a token other local accounts could read ------------------------------------------------------

posix_only = pytest.mark.skipif(os.name != "posix", reason="Unix permissions only")


@posix_only
@pytest.mark.parametrize(("mode", "said"), [
    (0o644, "readable by group and others (mode 0644)"),
    (0o640, "readable by group (mode 0640)"),
    (0o604, "readable by others (mode 0604)"),
    (0o620, "writable by group (mode 0620)"),
])
def test_the_users_own_token_file_others_can_reach_is_made_private(tmp_path, mode, said, caplog):
    """As the reference toolkit writes it (the process umask: 0644 in a 0755 folder): the bridge
    makes it private and reads it, saying so once."""
    path = _published(tmp_path)
    path.chmod(mode)
    path.parent.chmod(0o755)
    tokens._told.clear()
    with caplog.at_level("WARNING", logger="godot_bridge.editor.token"):
        assert _load(None, _entry(str(path)))[0] == TOKEN
        assert _load(None, _entry(str(path)))[0] == TOKEN
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    [told] = [r.getMessage() for r in caplog.records]
    assert said in told and "folder 0700" in told and "godot-bridge init" in told


@posix_only
def test_a_private_file_in_an_open_folder_closes_the_folder(tmp_path):
    path = _published(tmp_path)
    path.parent.chmod(0o755)  # a fresh token written here would be readable from the first byte
    source = tokens.locate(None, _entry(str(path)), project="/p", registry_file=REG)
    assert "in a folder others can open (mode 0755)" in (tokens.make_private(source) or "")
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert tokens.make_private(source) is None, "nothing left to do"


@posix_only
def test_a_token_file_that_cannot_be_made_private_is_refused_with_the_fix(tmp_path, monkeypatch):
    path = _published(tmp_path)
    path.chmod(0o644)

    def refuse(target, mode):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(private_files.os, "chmod", refuse)
    with pytest.raises(ToolError) as caught:
        _load(None, _entry(str(path)))
    err = caught.value
    assert err.code == "AUTH_FAILED" and str(path) in err.message and "Operation not permitted" in err.message
    assert f"chmod 600 {path}" in (err.hint or "")
    assert stat.S_IMODE(path.stat().st_mode) == 0o644, "left as it was"


@posix_only
@pytest.mark.skipif(os.name != "posix" or os.geteuid() != 0, reason="giving a file to another account needs root")
def test_another_accounts_token_file_is_refused(tmp_path):
    path = _published(tmp_path)
    path.chmod(0o644)
    os.chown(path, 65534, 65534)
    with pytest.raises(ToolError) as caught:
        _load(None, _entry(str(path)))
    assert "belongs to another account (uid 65534)" in caught.value.message
    assert stat.S_IMODE(path.stat().st_mode) == 0o644, "not touched"


@posix_only
def test_an_operators_token_file_is_made_private_but_not_its_folder(tmp_path):
    folder = tmp_path / "shared folder"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    override = folder / "my token.txt"
    override.write_text(TOKEN, encoding="utf-8")
    override.chmod(0o644)
    assert _load(override, None)[0] == TOKEN
    assert stat.S_IMODE(override.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o755, "an operator's folder may be anything: left alone"


@posix_only
def test_private_files_are_0600_from_the_first_byte(tmp_path):
    old_umask = os.umask(0)  # the most permissive umask: the mode must not come from it
    try:
        fresh = tmp_path / "fresh.log"
        with private_files.open_private(fresh) as file:
            assert stat.S_IMODE(fresh.stat().st_mode) == 0o600, "private before anything is written"
            file.write(b"secret")
        existing = tmp_path / "existing.log"
        existing.write_bytes(b"old output")
        existing.chmod(0o644)
        with private_files.open_private(existing) as file:
            assert stat.S_IMODE(existing.stat().st_mode) == 0o600 and existing.read_bytes() == b""
            file.write(b"new")
        assert existing.read_bytes() == b"new"
        link = tmp_path / "link.log"
        link.symlink_to(tmp_path / "elsewhere.log")
        with pytest.raises(OSError):
            private_files.open_private(link)
        assert not (tmp_path / "elsewhere.log").exists(), "a symlink in its place is not followed"
    finally:
        os.umask(old_umask)

