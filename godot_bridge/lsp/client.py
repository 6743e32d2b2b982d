"""A small asyncio JSON-RPC client for Godot's GDScript language server (TCP).

Only what the bridge's seven tools need: initialize/initialized, requests with a
timeout, full-text document sync, and the diagnostics the server pushes. It knows
nothing about tools or endpoints; ``lsp/tools.py`` decides where to connect and
how to shape answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from dataclasses import dataclass
from typing import Any

from godot_bridge.errors import LanguageServerError
from godot_bridge.lsp.framing import FrameDecoder, FramingError, encode
from godot_bridge.lsp.uris import language_id, project_root_uri, res_to_uri, uri_to_res

log = logging.getLogger(__name__)

# Godot's warning when a client's rootUri is not the project the editor has open
# (shown since Godot 4.5). We always send our real root, so seeing it means we
# reached another project's editor.
CONFLICT_MARKER = "might not work correctly with other projects"

_READ_CHUNK = 64 * 1024
_METHOD_NOT_FOUND = -32601


@dataclass(frozen=True)
class LspTimeouts:
    """Seconds. Injectable so tests can run the timeout paths quickly."""

    connect: float = 5.0
    request: float = 10.0
    diagnostics: float = 5.0
    probe: float = 0.5  # per registry claimant: is its editor WebSocket port accepting?


class LspError(LanguageServerError):
    """Base for client failures; the service maps each subclass to a ToolError code."""


class LspConnectError(LspError):
    pass


class LspClosedError(LspError):
    pass


class LspTimeoutError(LspError):
    pass


class LspConflictError(LspError):
    pass


class LspResponseError(LspError):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(f"language server error {code}: {message}")
        self.code = code
        self.message = message


def _client_capabilities() -> dict[str, Any]:
    return {
        "textDocument": {
            "synchronization": {"didSave": False, "willSave": False},
            "publishDiagnostics": {"relatedInformation": False, "versionSupport": True},
            "hover": {"contentFormat": ["plaintext", "markdown"]},
            "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
            "completion": {"completionItem": {"snippetSupport": False, "documentationFormat": ["plaintext"]}},
            "definition": {"linkSupport": True},
            "references": {},
        },
        "workspace": {"configuration": False, "workspaceFolders": False, "applyEdit": False},
        "window": {"workDoneProgress": False},
    }


class LspClient:
    """One TCP connection to one language server, for one project root."""

    def __init__(self, host: str, port: int, *, project_path: str, timeouts: LspTimeouts | None = None) -> None:
        self.host = host
        self.port = port
        self.project_path = project_path
        self.timeouts = timeouts or LspTimeouts()
        self.conflict_message: str | None = None
        self.capabilities: dict[str, Any] = {}
        self.close_reason = ""
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._reader_task: asyncio.Task[None] | None = None
        self._decoder = FrameDecoder()
        self._write_lock = asyncio.Lock()
        self._next_id = 1
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._closed = False
        # Diagnostics by res:// path (or raw URI when outside the project): (sequence, list).
        self._diagnostics: dict[str, tuple[int, list[Any]]] = {}
        self._sequence = 0
        self._waiters: set[asyncio.Future[None]] = set()
        self._versions: dict[str, int] = {}  # open documents and their last version

    # ------------------------------------------------------------ lifecycle

    @property
    def endpoint(self) -> tuple[str, int]:
        return self.host, self.port

    @property
    def closed(self) -> bool:
        return self._closed

    async def start(self) -> None:
        """Connect, initialize with the project's real root, then send initialized."""
        try:
            self._reader, self._writer = await asyncio.wait_for(
                asyncio.open_connection(self.host, self.port), self.timeouts.connect
            )
        except (OSError, asyncio.TimeoutError) as exc:
            self._closed = True
            reason = "timed out" if isinstance(exc, asyncio.TimeoutError) else (exc.strerror or str(exc))
            raise LspConnectError(f"cannot connect to {self.host}:{self.port} ({reason})") from exc
        self._reader_task = asyncio.create_task(self._read_loop(), name=f"lsp-reader-{self.port}")
        root_uri = project_root_uri(self.project_path)
        params = {
            "processId": os.getpid(),
            "clientInfo": {"name": "godot-bridge"},
            "rootUri": root_uri,
            # Godot 4.2-4.4 compare rootPath (not rootUri) with their project to decide
            # whether to adopt our rootUri for the URIs they send back.
            "rootPath": self.project_path,
            "capabilities": _client_capabilities(),
        }
        try:
            result = await self.request("initialize", params)
        except LspError:
            await self.aclose()
            raise
        # Godot sends its root-mismatch warning while handling initialize, so it has
        # been read (in order) by the time the answer arrives.
        if self.conflict_message:
            await self.aclose()
            raise LspConflictError(self.conflict_message)
        if isinstance(result, dict) and isinstance(result.get("capabilities"), dict):
            self.capabilities = result["capabilities"]
        await self.notify("initialized", {})

    async def aclose(self) -> None:
        self._mark_closed(self.close_reason or "closed by the bridge")
        task, self._reader_task = self._reader_task, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        writer, self._writer = self._writer, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer.wait_closed(), 1.0)

    def _mark_closed(self, reason: str) -> None:
        if self._closed and self.close_reason:
            return
        self._closed = True
        self.close_reason = self.close_reason or reason
        for future in self._pending.values():
            if not future.done():
                future.set_exception(LspClosedError(f"language server connection closed ({self.close_reason})"))
        self._pending.clear()
        self._wake_waiters()

    # ------------------------------------------------------------ messaging

    async def _send(self, message: dict[str, Any]) -> None:
        if self._closed or self._writer is None:
            raise LspClosedError(f"language server connection closed ({self.close_reason or 'not connected'})")
        try:
            async with self._write_lock:
                self._writer.write(encode(message))
                await self._writer.drain()
        except (ConnectionError, OSError) as exc:
            self._mark_closed(f"write failed: {exc}")
            raise LspClosedError(f"language server connection lost ({exc})") from exc

    async def notify(self, method: str, params: Any) -> None:
        await self._send({"jsonrpc": "2.0", "method": method, "params": params})

    async def request(self, method: str, params: Any, *, timeout: float | None = None) -> Any:
        if self._closed:
            raise LspClosedError(f"language server connection closed ({self.close_reason})")
        request_id = self._next_id
        self._next_id += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        limit = self.timeouts.request if timeout is None else timeout
        try:
            await self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
            try:
                return await asyncio.wait_for(asyncio.shield(future), limit)
            except asyncio.TimeoutError:
                with contextlib.suppress(LspError):
                    await self.notify("$/cancelRequest", {"id": request_id})
                raise LspTimeoutError(f"{method} got no answer within {limit:g} s") from None
        finally:
            self._pending.pop(request_id, None)
            if not future.done():
                future.cancel()

    async def _read_loop(self) -> None:
        assert self._reader is not None
        reason = "server closed the connection"
        try:
            while True:
                data = await self._reader.read(_READ_CHUNK)
                if not data:
                    break
                for message in self._decoder.feed(data):
                    await self._dispatch(message)
        except FramingError as exc:
            reason = f"unreadable data from the server: {exc}"
            log.warning("LSP %s:%d: %s", self.host, self.port, reason)
        except (ConnectionError, OSError) as exc:
            reason = f"connection error: {exc}"
        except LspClosedError:
            reason = "connection lost while replying"
        except Exception as exc:  # a bug here must not leave callers waiting for answers
            log.exception("LSP reader stopped")
            reason = f"internal error: {exc}"
        finally:
            self._mark_closed(reason)

    async def _dispatch(self, message: Any) -> None:
        if not isinstance(message, dict):
            return
        method = message.get("method")
        if isinstance(method, str):
            if "id" in message:
                await self._answer_server_request(message["id"], method, message.get("params"))
            else:
                self._on_notification(method, message.get("params"))
            return
        request_id = message.get("id")
        if isinstance(request_id, str) and request_id.isdigit():
            request_id = int(request_id)  # some servers echo numeric ids as strings
        future = self._pending.get(request_id) if isinstance(request_id, int) else None
        if future is None or future.done():
            return  # late answer to a request that timed out, or an id we never sent
        error = message.get("error")
        if isinstance(error, dict):
            future.set_exception(LspResponseError(int(error.get("code") or 0), str(error.get("message") or "")))
        else:
            future.set_result(message.get("result"))

    async def _answer_server_request(self, request_id: Any, method: str, params: Any) -> None:
        """Give server->client requests an answer that changes nothing, so the server never waits."""
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id}
        if method == "workspace/configuration":
            items = params.get("items") if isinstance(params, dict) else None
            reply["result"] = [None] * (len(items) if isinstance(items, list) else 0)
        elif method == "workspace/applyEdit":
            reply["result"] = {"applied": False, "failureReason": "godot-bridge does not apply server edits"}
        elif method in (
            "window/workDoneProgress/create",
            "client/registerCapability",
            "client/unregisterCapability",
            "window/showMessageRequest",
            "workspace/workspaceFolders",
        ):
            if method == "window/showMessageRequest":
                self._on_notification("window/showMessage", params)
            reply["result"] = None
        else:
            reply["error"] = {"code": _METHOD_NOT_FOUND, "message": f"{method} is not supported by godot-bridge"}
        await self._send(reply)

    def _on_notification(self, method: str, params: Any) -> None:
        if not isinstance(params, dict):
            return
        if method == "textDocument/publishDiagnostics":
            self._store_diagnostics(params)
        elif method in ("window/showMessage", "window/logMessage"):
            text = str(params.get("message") or "")
            log.info("Godot language server: %s", text)
            if CONFLICT_MARKER in text:
                self.conflict_message = text

    # ------------------------------------------------------------ documents and diagnostics

    def key_for_uri(self, uri: str) -> str:
        return uri_to_res(self.project_path, uri) or uri

    def _store_diagnostics(self, params: dict[str, Any]) -> None:
        uri = params.get("uri")
        items = params.get("diagnostics")
        if not isinstance(uri, str) or not isinstance(items, list):
            return
        key = self.key_for_uri(uri)
        version = params.get("version")
        if isinstance(version, int) and version < self._versions.get(key, 0):
            return  # about text we have since replaced
        self._sequence += 1
        self._diagnostics[key] = (self._sequence, items)
        self._wake_waiters()

    def _wake_waiters(self) -> None:
        waiters, self._waiters = self._waiters, set()
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    @property
    def sequence(self) -> int:
        """Counter of diagnostics notifications so far; take it before syncing, wait past it."""
        return self._sequence

    def is_open(self, res_path: str) -> bool:
        return res_path in self._versions

    async def sync_document(self, res_path: str, text: str) -> int:
        """didOpen the first time, didChange (whole text, next version) after.

        Returns a marker: diagnostics published after it describe this text.
        """
        marker = self._sequence
        uri = res_to_uri(self.project_path, res_path)
        version = self._versions.get(res_path)
        if version is None:
            self._versions[res_path] = 1
            document = {"uri": uri, "languageId": language_id(res_path), "version": 1, "text": text}
            await self.notify("textDocument/didOpen", {"textDocument": document})
        else:
            self._versions[res_path] = version + 1
            await self.notify(
                "textDocument/didChange",
                {"textDocument": {"uri": uri, "version": version + 1}, "contentChanges": [{"text": text}]},
            )
        return marker

    async def close_document(self, res_path: str) -> None:
        if self._versions.pop(res_path, None) is not None and not self._closed:
            uri = res_to_uri(self.project_path, res_path)
            await self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    def diagnostics_after(self, key: str, marker: int) -> list[Any] | None:
        entry = self._diagnostics.get(key)
        return entry[1] if entry is not None and entry[0] > marker else None

    async def wait_diagnostics(
        self, keys: list[str], marker: int, timeout: float | None = None
    ) -> dict[str, list[Any]]:
        """Wait until every key has diagnostics newer than ``marker`` or the time is up.

        Returns those that arrived (possibly none); raises LspClosedError if the
        connection drops first.
        """
        limit = self.timeouts.diagnostics if timeout is None else timeout
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limit
        while True:
            found = {k: v for k in keys if (v := self.diagnostics_after(k, marker)) is not None}
            if len(found) == len(keys):
                return found
            if self._closed:
                raise LspClosedError(f"language server connection closed ({self.close_reason})")
            remaining = deadline - loop.time()
            if remaining <= 0:
                return found
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.add(waiter)
            try:
                await asyncio.wait_for(waiter, remaining)
            except asyncio.TimeoutError:
                pass
            finally:
                self._waiters.discard(waiter)
