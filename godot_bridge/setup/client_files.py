"""Each MCP client's configuration file: where it is, reading our entry, and changing only that entry.

Where each client reads its servers (the table is data, ``clients`` in ui/mcp_entry.json, so the
dock offers the same list):

* Claude Code: ``.mcp.json`` at the project root, ``mcpServers`` (project scope; code.claude.com/docs/en/mcp);
* Cursor: ``.cursor/mcp.json`` in the project, ``~/.cursor/mcp.json`` for every project, ``mcpServers``
  (cursor.com/docs/mcp);
* VS Code: ``.vscode/mcp.json`` in the workspace, ``servers``, each stdio server with ``"type": "stdio"``;
  the file is JSON with comments (code.visualstudio.com/docs/copilot/reference/mcp-configuration);
* Codex: ``[mcp_servers.<name>]`` tables with ``command``, ``args``, ``env`` in ``~/.codex/config.toml``,
  or ``.codex/config.toml`` in a project Codex trusts (developers.openai.com/codex/mcp);
* Gemini CLI: ``.gemini/settings.json`` in the project, ``~/.gemini/settings.json`` for the user,
  ``mcpServers`` (geminicli.com/docs/tools/mcp-server); comments are allowed there (its loader strips
  them);
* GitHub Copilot CLI and Qwen Code: ``.mcp.json``, ``mcpServers``, the file Claude Code reads, so one
  entry serves all three (Copilot CLI 1.0 reads it, or ``.github/mcp.json``, in a folder the person
  trusts; Qwen Code 0.24 starts it once the person approves it, an approval bound to the entry's
  content, so an unchanged entry must stay byte for byte what it was);
* opencode: neither; ``"mcp"`` in ``opencode.json`` or ``opencode.jsonc`` (whichever the project has;
  its loader reads both with comments), ``~/.config/opencode/opencode.json`` for the user, each server
  ``{"type": "local", "command": [command, *args], "environment": {...}}`` (client_entry.spelled).

Writing keeps every other byte: JSON files through json_text.py's surgical edits (comments,
trailing commas, other servers and their layout stay as they were), TOML through ``tomlkit``,
which keeps comments, order and formatting of everything it is not told to change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomlkit
import tomlkit.exceptions
import tomlkit.items

from godot_bridge.errors import SetupError
from godot_bridge.setup import json_text
from godot_bridge.shipped.mcp_entry import ClientSpec, definition, our_key


class ClientFileError(SetupError, ValueError):
    """The file cannot be read or changed safely; the message says why (the file is left as it is)."""


def clients() -> dict[str, ClientSpec]:
    return definition().clients


def present(client: ClientSpec, path: Path) -> Path:
    """``path``, or the other name of it (``also``) the folder has instead: opencode reads
    ``opencode.json`` and ``opencode.jsonc`` alike, and the one the project has is the one to edit."""
    for name in (path.name, *client.also):
        candidate = path.with_name(name)
        if candidate.is_file():
            return candidate
    return path


def project_path(client: ClientSpec, folder: Path) -> Path:
    """Where ``client`` reads its servers in the project opened at ``folder``."""
    return present(client, folder / client.file)


def user_path(client: ClientSpec, home: Path, env: Mapping[str, str] | None = None) -> Path | None:
    """The per-user file; a ``~/.config/`` one under ``$XDG_CONFIG_HOME`` when that is set (opencode's rule)."""
    if not client.user_file:
        return None
    rel = client.user_file.removeprefix("~/")
    config_home = (env or {}).get("XDG_CONFIG_HOME")
    if config_home and rel.startswith(".config/"):
        return present(client, Path(config_home) / rel.removeprefix(".config/"))
    return present(client, home / rel)


@dataclass(frozen=True)
class ClientFile:
    """One client's file as it is on disk (``text`` None: absent)."""

    client: ClientSpec
    path: Path
    text: str | None

    @classmethod
    def read(cls, client: ClientSpec, path: Path) -> ClientFile:
        if not path.is_file():
            return cls(client, path, None)
        try:
            # Bytes, not read_text: its newline translation would turn a CRLF file into LF on the way back.
            return cls(client, path, path.read_bytes().decode("utf-8"))
        except UnicodeDecodeError:
            raise ClientFileError(f"{path} is not UTF-8 text; fix or remove it") from None
        except OSError as exc:
            raise ClientFileError(f"{path} cannot be read ({exc.strerror or exc})") from None

    @property
    def toml(self) -> bool:
        return self.client.format == "toml"

    @property
    def blank(self) -> bool:
        return self.text is None or not self.text.strip()

    def _json(self) -> json_text.Doc:
        assert self.text is not None
        return json_text.Doc(self.text, comments=self.client.format == "jsonc")

    def _toml(self) -> tomlkit.TOMLDocument:
        try:
            return tomlkit.parse(self.text or "")
        except tomlkit.exceptions.ParseError as exc:
            raise ClientFileError(f"{self.path} is not valid TOML ({exc}); fix it first") from None

    def data(self) -> dict[str, Any]:
        """The whole document as plain data ({} when absent or blank)."""
        if self.blank:
            return {}
        if self.toml:
            return self._toml().unwrap()
        try:
            data = self._json().data()
        except json_text.JsonTextError as exc:
            kind = "JSON with comments" if self.client.format == "jsonc" else "valid JSON"
            raise ClientFileError(f"{self.path} is not {kind} ({exc}); fix it first (the other servers in it "
                                  "are kept once it parses)") from None
        if not isinstance(data, dict):
            raise ClientFileError(f"{self.path} is not a JSON object; fix it first")
        return data

    def servers(self) -> dict[str, Any] | None:
        """The servers object; None when the file has none. ClientFileError when it is not an object."""
        found = self.data().get(self.client.servers)
        if found is None:
            return None
        if not isinstance(found, dict):
            raise ClientFileError(f'{self.path}: "{self.client.servers}" is not an object; fix it by hand first')
        return found

    def entry(self) -> tuple[str, Any] | None:
        """(key, value) of our entry, found by key or hint; None when there is none."""
        servers = self.servers()
        key = our_key(servers) if servers else None
        return (key, servers[key]) if servers and key is not None else None

    # -- changes -------------------------------------------------------------------------------

    def with_entry(self, entry: dict[str, Any]) -> str:
        """The file's text with our entry (under the definition's key) set to ``entry``."""
        key = definition().server_key
        if self.toml:
            return self._toml_with(key, entry)
        if self.blank:
            return json_text.render({self.client.servers: {key: entry}}, "", "  ") + "\n"
        doc = self._json()
        try:
            if self.servers() is None:
                return json_text.set_member(doc, (), self.client.servers, {key: entry})
            return json_text.set_member(doc, (self.client.servers,), key, entry)
        except json_text.JsonTextError as exc:
            raise ClientFileError(f"{self.path}: {exc}") from None

    def without_entry(self, key: str) -> str | None:
        """The file's text without server ``key`` (and without a servers object left empty by that);
        None when nothing else is left, so the file can go."""
        if self.toml:
            return self._toml_without(key)
        doc = self._json()
        servers = self.servers() or {}
        if key not in servers:
            return self.text
        entry = servers[key]
        try:
            if len(servers) == 1:
                text = json_text.remove_member(
                    doc, (), self.client.servers,
                    lambda t: json_text.set_member(json_text.Doc(t, doc.comments), (), self.client.servers, {key: entry}))
            else:
                text = json_text.remove_member(
                    doc, (self.client.servers,), key,
                    lambda t: json_text.set_member(json_text.Doc(t, doc.comments), (self.client.servers,), key, entry))
        except json_text.JsonTextError as exc:
            raise ClientFileError(f"{self.path}: {exc}") from None
        assert text is not None
        remaining = json_text.loads(text, comments=doc.comments)
        if remaining == {} and text.strip().startswith("{") and not _has_comments(text, doc.comments):
            return None
        return text

    def _toml_with(self, key: str, entry: dict[str, Any]) -> str:
        doc = self._toml()
        servers = doc.get(self.client.servers)
        if servers is None:
            servers = tomlkit.table(is_super_table=True)
            doc[self.client.servers] = servers
        elif not isinstance(servers, tomlkit.items.Table | tomlkit.items.InlineTable):
            raise ClientFileError(f"{self.path}: {self.client.servers} is not a table; fix it by hand first")
        table = servers.get(key)
        if table is None:
            table = tomlkit.table()
            for name, value in entry.items():
                table[name] = _toml_value(value)
            if not self.blank and not (self.text or "").endswith("\n\n") and _has_following_tables(doc, self.client.servers):
                table.add(tomlkit.nl())
            servers[key] = table
        else:
            for name, value in entry.items():
                if table.get(name) != value:
                    table[name] = _toml_value(value)
        return tomlkit.dumps(doc)

    def _toml_without(self, key: str) -> str | None:
        doc = self._toml()
        servers = doc.get(self.client.servers)
        if not isinstance(servers, tomlkit.items.Table | tomlkit.items.InlineTable) or key not in servers:
            return self.text
        entry = servers[key].unwrap() if hasattr(servers[key], "unwrap") else servers[key]
        del servers[key]
        if isinstance(servers, tomlkit.items.Table) and not servers and servers.is_super_table():
            del doc[self.client.servers]  # only our [mcp_servers.x] made it exist
        text = tomlkit.dumps(doc)
        if not text.strip():
            return None
        # tomlkit keeps the blank line it put before a table appended at the end: when adding our
        # entry back would give the current text without it, the file was that before.
        for candidate in (text[:-1] if text.endswith("\n\n") else None, text):
            if candidate is not None and ClientFile(self.client, self.path, candidate).with_entry(entry) == self.text:
                return candidate
        return text


def _has_comments(text: str, comments: bool) -> bool:
    return comments and json_text.blank(text, comments=True, trailing_commas=False) != text


def _has_following_tables(doc: tomlkit.TOMLDocument, servers_key: str) -> bool:
    """Whether a table comes after the servers one (then a blank line keeps ours apart from it)."""
    keys = list(doc.keys())
    return servers_key in keys and keys.index(servers_key) < len(keys) - 1


def _toml_value(value: Any) -> Any:
    """Plain data as tomlkit items; objects inline (``env = {NAME = "value"}``), as Codex's docs write them."""
    if isinstance(value, dict):
        table = tomlkit.inline_table()
        for k, v in value.items():
            table[k] = _toml_value(v)
        return table
    if isinstance(value, list):
        array = tomlkit.array()
        array.extend(_toml_value(v) for v in value)
        return array
    return value
