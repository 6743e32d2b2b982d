"""The seven lsp_* tools, served from Godot's GDScript language server.

``LspService`` is what the dispatch calls. It owns one lazily connected client
per process, re-resolves the endpoint on every call (so an editor that restarts
on another port, or a registry change, is followed), and tells the editor how
the language server is doing through ``status_sink`` (contract C15).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from godot_bridge.config import Settings
from godot_bridge.godot_files import uids
from godot_bridge.editor.registry import tcp_accepts
from godot_bridge.errors import ToolError
from godot_bridge.lsp import shape
from godot_bridge.lsp.client import (
    LspClient,
    LspClosedError,
    LspConflictError,
    LspError,
    LspResponseError,
    LspTimeoutError,
    LspTimeouts,
)
from godot_bridge.lsp.endpoint import PortProbe, Resolution, resolve_endpoint
from godot_bridge.lsp.scan import chunks, find_scripts
from godot_bridge.lsp.uris import is_shader, map_file_uris, parse_res_path, res_to_uri, to_lsp_position
from godot_bridge.safety import untrusted

log = logging.getLogger(__name__)

ProgressFn = Callable[[float, float | None, str | None], Awaitable[None]]
StatusSink = Callable[[dict[str, Any]], Awaitable[None]]

MAX_SOURCE_BYTES = 2 * 1024 * 1024
MAX_DIAGNOSTICS = 100
MAX_SYMBOLS = 300
MAX_DEFINITIONS = 50
MAX_REFERENCES = 200
SCAN_MAX_FILES_LISTED = 50
SCAN_MAX_PER_FILE = 10
SCAN_MAX_PATHS_LISTED = 50

SHADER_NOTE = (
    "Godot's language server analyses GDScript only, so it reports nothing for shader files; "
    "the shader editor shows shader errors."
)
_TIMEOUT_HINT = (
    "The editor may be busy (importing, or a modal dialog is open). Wait a moment, then retry."
)
_SOURCE_HINT = {
    "pinned": "The port comes from --lsp-port/GODOT_MCP_LSP_PORT; check it matches Editor Settings > "
    "Network > Language Server > Remote Port and that the editor is open.",
    "registry": "The port is the one this project's editor published; keep that editor open, or restart "
    "it if the language server failed to start (see its Output panel).",
    "default": "This project's editor has not published a language-server port (is the godot_mcp_toolkit "
    "plugin enabled?), and nothing answered on the default 127.0.0.1:6005.",
}


class LspService:
    def __init__(
        self,
        settings: Settings,
        *,
        status_sink: StatusSink | None = None,
        registry_file: Path | None = None,
        timeouts: LspTimeouts | None = None,
        probe: PortProbe = tcp_accepts,
    ) -> None:
        self._settings = settings
        self._project = str(settings.project_path)
        self._status_sink = status_sink
        self._registry_file = registry_file
        self._timeouts = timeouts or LspTimeouts()
        self._probe = probe
        self._client: LspClient | None = None
        self._connect_lock = asyncio.Lock()
        self._last_status: tuple[str, str | None, int | None] | None = None  # last one pushed
        self._status: dict[str, Any] | None = None  # last one computed
        self._handlers: dict[str, Callable[[dict[str, Any], ProgressFn | None], Awaitable[dict[str, Any]]]] = {
            "lsp_diagnostics": self._diagnostics,
            "lsp_symbols": self._symbols,
            "lsp_hover": self._hover,
            "lsp_completion": self._completion,
            "lsp_definition": self._definition,
            "lsp_references": self._references,
            "lsp_project_diagnostics": self._project_diagnostics,
        }

    # ------------------------------------------------------------ public API

    async def handle(
        self, tool_name: str, args: dict[str, Any], *, progress: ProgressFn | None = None
    ) -> dict[str, Any]:
        handler = self._handlers.get(tool_name)
        if handler is None:
            raise ToolError("INTERNAL", f"{tool_name} is not an LSP tool")
        try:
            payload = await handler(args, progress)
        except LspConflictError as exc:
            raise await self._conflict(str(exc)) from exc
        except LspTimeoutError as exc:
            raise ToolError("TIMEOUT", f"Godot's language server: {exc}", hint=_TIMEOUT_HINT) from exc
        except LspClosedError as exc:
            raise await self._connection_lost(str(exc)) from exc
        except LspResponseError as exc:
            said = map_file_uris(self._project, exc.message)
            if exc.code == -32601:
                raise ToolError(
                    "UNSUPPORTED",
                    f"this Godot version's language server does not implement that request ({said})",
                ) from exc
            raise ToolError(
                "RPC_ERROR",
                f"Godot's language server refused the request: {said or exc.code}",
                hint="Check that the file parses (lsp_diagnostics), then retry.",
            ) from exc
        # Godot's text links files by machine path (file:///home/<user>/...): the model gets res://.
        return shape.without_file_uris(self._project, payload)

    async def aclose(self) -> None:
        async with self._connect_lock:
            await self._drop_client()

    async def refresh_status(self, *, force: bool = False) -> dict[str, Any] | None:
        """Connect (or re-check the endpoint) only to learn and push the status; never raises.

        For the dispatch to call when the editor (re)connects: ``force=True`` re-sends
        the current status even if unchanged, since a restarted editor has forgotten it.
        Returns the latest status dict (None if there never was one).
        """
        if force:
            self._last_status = None
        try:
            client = await self._connected()
        except ToolError:
            return self._status
        # A reused connection is no new attempt, so nothing was reported: re-state it.
        previous = self._status or {}
        host, port = client.endpoint
        detail = previous.get("detail") if previous.get("state") == "active" else None
        await self._report("active", host, port, detail or "connected")
        return self._status

    # ------------------------------------------------------------ connection and status

    async def _report(self, state: str, host: str | None, port: int | None, detail: str) -> None:
        """Push {state, host, port, detail} to the editor, once per distinct (state, host, port)."""
        key = (state, host, port)
        status = {"state": state, "host": host, "port": port, "detail": detail}
        self._status = status
        if self._status_sink is None or key == self._last_status:
            return
        try:
            await self._status_sink(status)
        except Exception:  # the dock is cosmetic; a failed push must not fail the tool call
            log.warning("could not push the LSP status to the editor", exc_info=True)
            return
        self._last_status = key

    async def _drop_client(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()

    async def _connected(self) -> LspClient:
        async with self._connect_lock:
            resolution = await resolve_endpoint(
                self._settings,
                registry_file=self._registry_file,
                probe=self._probe,
                probe_timeout=self._timeouts.probe,
            )
            if resolution.refusal is not None:
                await self._drop_client()
                await self._report(resolution.refusal, resolution.host, resolution.port, resolution.detail)
                raise _refusal_error(resolution)
            client = self._client
            if (
                client is not None
                and not client.closed
                and client.conflict_message is None
                and client.endpoint == (resolution.host, resolution.port)
            ):
                return client
            await self._drop_client()
            client = LspClient(resolution.host, resolution.port, project_path=self._project, timeouts=self._timeouts)
            try:
                await client.start()
            except LspConflictError as exc:
                await self._report("conflict", resolution.host, resolution.port, str(exc))
                raise ToolError(
                    "LSP_PORT_CONFLICT",
                    f"the language server at {resolution.host}:{resolution.port} belongs to another project's "
                    f"editor: {exc}",
                ) from exc
            except LspError as exc:
                await self._report("unavailable", resolution.host, resolution.port, str(exc))
                raise ToolError(
                    "LSP_UNAVAILABLE",
                    f"Godot's language server at {resolution.host}:{resolution.port} is not usable: {exc}",
                    hint=_SOURCE_HINT[resolution.source],
                ) from exc
            self._client = client
            await self._report(
                "active", resolution.host, resolution.port, f"connected ({resolution.source} endpoint)"
            )
            return client

    async def _conflict(self, message: str) -> ToolError:
        client = self._client
        host, port = client.endpoint if client is not None else (None, None)
        await self._drop_client()
        await self._report("conflict", host, port, message)
        return ToolError("LSP_PORT_CONFLICT", f"the language server belongs to another project's editor: {message}")

    async def _connection_lost(self, message: str) -> ToolError:
        client = self._client
        host, port = client.endpoint if client is not None else (None, None)
        if client is not None and client.closed:
            await self._drop_client()
            await self._report("unavailable", host, port, message)
        return ToolError("LSP_UNAVAILABLE", f"lost the connection to Godot's language server: {message}")

    @staticmethod
    def _check_conflict(client: LspClient) -> None:
        # Godot may warn after initialize too (e.g. a reload); from then on its answers are suspect.
        if client.conflict_message:
            raise LspConflictError(client.conflict_message)

    # ------------------------------------------------------------ file access

    def _read_source(self, res: str) -> str:
        root = Path(self._project)
        local = root.joinpath(*res[len("res://") :].split("/"))
        try:
            real = local.resolve(strict=True)
            inside = real.is_relative_to(root.resolve())
        except FileNotFoundError:
            raise ToolError(
                "NOT_FOUND", f"{res} does not exist", hint="Check the path; unsaved editor changes are not on disk yet."
            ) from None
        except OSError as exc:
            raise ToolError("READ_FAILED", f"cannot read {res}: {exc.strerror or exc}") from None
        if not inside:
            raise ToolError("PATH_DENIED", f"{res} is a link to a file outside the project")
        if not real.is_file():
            raise ToolError("NOT_FOUND", f"{res} is not a file")
        try:
            if real.stat().st_size > MAX_SOURCE_BYTES:
                raise ToolError("FILE_TOO_LARGE", f"{res} is larger than {MAX_SOURCE_BYTES // (1024 * 1024)} MiB")
            return real.read_bytes().decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ToolError("READ_FAILED", f"{res} is not UTF-8 text") from None
        except OSError as exc:
            raise ToolError("READ_FAILED", f"cannot read {res}: {exc.strerror or exc}") from None

    def _file_path(self, args: dict[str, Any]) -> str:
        """The clean res:// path ``file_path`` names; a uid:// is resolved from the project's files."""
        raw = str(args.get("file_path", "")).strip()
        if raw.startswith(uids.PREFIX):
            found = uids.resolve(Path(self._project), raw) if uids.is_uid(raw) else None
            if found is None:
                raise ToolError("NOT_FOUND", f"no file of the project has the uid {raw}",
                                hint="Pass the script's res:// path (its uid is in its .uid file).")
            raw = found
        return parse_res_path(raw)

    async def _open(self, args: dict[str, Any], *, position: bool) -> tuple[LspClient, str, str, dict[str, Any]]:
        """Validate, read, connect, sync. Returns (client, res path, text, base payload)."""
        res = self._file_path(args)
        text = self._read_source(res)
        base: dict[str, Any] = {"file": res}
        if position:
            line, column = max(int(args.get("line", 1)), 1), max(int(args.get("column", 1)), 1)
            line_count = text.count("\n") + 1
            if line > line_count:
                raise ToolError("INVALID_PARAMS", f"line {line} is past the end of {res} ({line_count} lines)")
            base.update(line=line, column=column)
        client = await self._connected()
        await client.sync_document(res, text)
        return client, res, text, base

    def _text_position(self, client: LspClient, res: str, base: dict[str, Any]) -> dict[str, Any]:
        return {
            "textDocument": {"uri": res_to_uri(client.project_path, res)},
            "position": to_lsp_position(base["line"], base["column"]),
        }

    # ------------------------------------------------------------ tools

    async def _diagnostics(self, args: dict[str, Any], progress: ProgressFn | None) -> dict[str, Any]:
        res = self._file_path(args)
        if is_shader(res):
            self._read_source(res)  # still say so when the file is missing
            return {"file": res, "errors": 0, "warnings": 0, "diagnostics": [], "note": SHADER_NOTE}
        text = self._read_source(res)
        client = await self._connected()
        marker = await client.sync_document(res, text)
        got = await client.wait_diagnostics([res], marker)
        self._check_conflict(client)
        if res not in got:
            raise ToolError(
                "TIMEOUT",
                f"Godot's language server published no diagnostics for {res} within "
                f"{self._timeouts.diagnostics:g} s",
                hint=_TIMEOUT_HINT,
            )
        items = shape.diagnostics(got[res])
        counts = shape.count_by_severity(items)
        payload: dict[str, Any] = {
            "file": res,
            "errors": counts.get("error", 0),
            "warnings": counts.get("warning", 0),
            "diagnostics": items[:MAX_DIAGNOSTICS],
        }
        if len(items) > MAX_DIAGNOSTICS:
            payload["truncated"] = True
        return payload

    async def _symbols(self, args: dict[str, Any], progress: ProgressFn | None) -> dict[str, Any]:
        client, res, _, base = await self._open(args, position=False)
        document = {"textDocument": {"uri": res_to_uri(client.project_path, res)}}
        raw = await client.request("textDocument/documentSymbol", document)
        self._check_conflict(client)
        found = shape.symbols(raw)
        payload = {**base, "count": len(found), "symbols": found[:MAX_SYMBOLS]}
        if len(found) > MAX_SYMBOLS:
            payload["truncated"] = True
        if not found and is_shader(res):
            payload["note"] = SHADER_NOTE
        return payload

    async def _hover(self, args: dict[str, Any], progress: ProgressFn | None) -> dict[str, Any]:
        client, res, _, base = await self._open(args, position=True)
        raw = await client.request("textDocument/hover", self._text_position(client, res, base))
        self._check_conflict(client)
        text = shape.hover_text(raw)
        if text is None:
            return {**base, "note": "nothing to show at this position; point at an identifier"}
        # Hover text is the script's own doc comments plus engine docs: project content the
        # toolkit never saw, so the bridge wraps it itself (C21), its file links mapped first so
        # that nothing decoded from them lands inside the envelope unscrubbed.
        text = map_file_uris(self._project, text)
        return {**base, "hover": untrusted.wrap(text, kind="hover", source="godot-lsp")}

    async def _completion(self, args: dict[str, Any], progress: ProgressFn | None) -> dict[str, Any]:
        client, res, text, base = await self._open(args, position=True)
        limit = min(max(int(args.get("limit") or 10), 1), 50)
        params = self._text_position(client, res, base) | {"context": {"triggerKind": 1}}
        raw = await client.request("textDocument/completion", params)
        self._check_conflict(client)
        line_text = text.split("\n")[base["line"] - 1].rstrip("\r")
        prefix = shape.identifier_prefix(line_text, base["column"])
        items, incomplete = shape.completion_items(raw, prefix)
        payload: dict[str, Any] = {**base, "total": len(items), "items": items[:limit]}
        if prefix:
            payload["prefix"] = prefix
        if incomplete:
            payload["incomplete"] = True
        if not items:
            payload["note"] = "no completions here; column is the cursor position, just after what was typed"
        return payload

    async def _definition(self, args: dict[str, Any], progress: ProgressFn | None) -> dict[str, Any]:
        client, res, _, base = await self._open(args, position=True)
        raw = await client.request("textDocument/definition", self._text_position(client, res, base))
        self._check_conflict(client)
        found = shape.locations(client.project_path, raw)
        payload: dict[str, Any] = {**base, "definitions": found[:MAX_DEFINITIONS]}
        if not found:
            payload["note"] = (
                "no definition found: nothing under the cursor, or a built-in engine symbol "
                "(look those up with classdb_get_info)"
            )
        return payload

    async def _references(self, args: dict[str, Any], progress: ProgressFn | None) -> dict[str, Any]:
        client, res, _, base = await self._open(args, position=True)
        params = self._text_position(client, res, base) | {"context": {"includeDeclaration": True}}
        raw = await client.request("textDocument/references", params)
        self._check_conflict(client)
        found = shape.locations(client.project_path, raw)
        files = {shape.where(loc) for loc in found}
        payload: dict[str, Any] = {
            **base,
            "total": len(found),
            "files": len(files),
            "references": found[:MAX_REFERENCES],
        }
        if len(found) > MAX_REFERENCES:
            payload["truncated"] = True
        return payload

    async def _project_diagnostics(self, args: dict[str, Any], progress: ProgressFn | None) -> dict[str, Any]:
        include_warnings = bool(args.get("include_warnings", False))
        walk = find_scripts(Path(self._project), include_addons=bool(args.get("include_addons", False)))
        client = await self._connected()
        scripts = walk.scripts
        answered: dict[str, list[Any]] = {}
        timed_out: list[str] = []
        read_failed: list[str] = list(walk.unreadable_dirs)
        opened_here: list[str] = []
        done = 0
        not_scanned = 0
        if progress is not None:
            # A first 0/N at the start: a short scan's only other notification would arrive
            # together with the result, and some clients drop progress that late.
            await progress(0, len(scripts), f"checking {len(scripts)} scripts")
        try:
            for chunk in chunks(scripts):
                texts: dict[str, str] = {}
                for res in chunk:
                    try:
                        texts[res] = self._read_source(res)
                    except ToolError:
                        read_failed.append(res)
                marker = client.sequence
                for res, text in texts.items():
                    if not client.is_open(res):
                        opened_here.append(res)
                    await client.sync_document(res, text)
                got = await client.wait_diagnostics(list(texts), marker)
                self._check_conflict(client)
                answered.update(got)
                timed_out.extend(res for res in texts if res not in got)
                done += len(chunk)
                if progress is not None:
                    await progress(done, len(scripts), f"checked {done}/{len(scripts)} scripts")
                if texts and not got:
                    # A whole chunk without one answer: the server is not analysing; waiting
                    # another 5 s per chunk would only make the caller wait for nothing.
                    not_scanned = len(scripts) - done
                    break
        finally:
            if not client.closed:
                for res in opened_here:
                    try:
                        await client.close_document(res)
                    except LspError:
                        break
        return _scan_payload(answered, include_warnings, timed_out, read_failed, not_scanned)


def _refusal_error(resolution: Resolution) -> ToolError:
    if resolution.refusal == "conflict":
        return ToolError(
            "LSP_PORT_CONFLICT", f"not connecting to {resolution.host}:{resolution.port}: {resolution.detail}"
        )
    return ToolError("LSP_UNAVAILABLE", f"no language server for this project: {resolution.detail}")


def _scan_payload(
    answered: dict[str, list[Any]],
    include_warnings: bool,
    timed_out: list[str],
    read_failed: list[str],
    not_scanned: int,
) -> dict[str, Any]:
    shaped = {res: shape.diagnostics(raw, include_warnings=include_warnings) for res, raw in answered.items()}
    with_diagnostics = {res: items for res, items in shaped.items() if items}
    errors = sum(1 for items in shaped.values() for d in items if d["severity"] == "error")
    payload: dict[str, Any] = {
        "scanned": len(answered),
        "clean": len(answered) - len(with_diagnostics),
        "files_with_diagnostics": len(with_diagnostics),
        "total_diagnostics": sum(len(items) for items in with_diagnostics.values()),
        "errors": errors,
    }
    truncated = False
    # Files with the most errors first, so a capped list still shows what breaks the build.
    ranked = sorted(
        with_diagnostics.items(), key=lambda kv: (-sum(d["severity"] == "error" for d in kv[1]), kv[0])
    )
    if len(ranked) > SCAN_MAX_FILES_LISTED:
        truncated = True
    listed: dict[str, list[dict[str, Any]]] = {}
    for res, items in ranked[:SCAN_MAX_FILES_LISTED]:
        listed[res] = items[:SCAN_MAX_PER_FILE]
        truncated = truncated or len(items) > SCAN_MAX_PER_FILE
    payload["files"] = listed
    if include_warnings:
        payload["warnings"] = sum(1 for items in shaped.values() for d in items if d["severity"] == "warning")
    else:
        hidden = sum(1 for raw in answered.values() for d in shape.diagnostics(raw) if d["severity"] != "error")
        if hidden:
            payload["warnings_hidden"] = hidden
    for name, paths in (("timed_out", timed_out), ("read_failed", read_failed)):
        if paths:
            payload[name] = sorted(paths)[:SCAN_MAX_PATHS_LISTED]
            if len(paths) > SCAN_MAX_PATHS_LISTED:
                payload[f"{name}_count"] = len(paths)
                truncated = True
    if not_scanned:
        payload["not_scanned"] = not_scanned
        payload["note"] = "the language server stopped answering, so the scan ended early"
    if truncated:
        payload["truncated"] = True
    return payload
