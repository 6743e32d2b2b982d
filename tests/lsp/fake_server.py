"""A scripted stand-in for Godot's GDScript language server, for tests.

An asyncio TCP server on 127.0.0.1 speaking Content-Length framed JSON-RPC. Its
framing is written independently of ``godot_bridge.lsp.framing`` so a bug there
cannot hide itself. Behaviour:

- diagnostics come from the document text: a line containing ``#ERR msg`` gives
  an error, ``#WARN msg`` a warning (with Godot's numeric warning code);
  ``silent`` URI suffixes get no diagnostics at all (to exercise timeouts);
- documentSymbol/hover/completion/definition/references are derived from the
  open documents the way Godot would answer, unless ``responses`` scripts a
  value, a callable ``(params, server) -> value``, ``ErrorReply`` or ``NO_REPLY``;
- ``split`` writes every frame in pieces of that many bytes; ``coalesce`` sends
  everything produced for one read in a single write (and adds log noise so even
  single answers travel with company);
- ``show_message`` (sent as ``message_method``) or a rootUri that differs from
  ``expected_root_uri`` produce Godot's root-mismatch warning during initialize;
- after ``initialized`` it sends two server->client requests
  (workspace/configuration, window/workDoneProgress/create) and records replies;
- ``file_links`` ("encoded" as Godot 4.5+ writes URIs, "raw" as earlier versions wrote
  ``"file://" + path``, spaces and all) puts machine-path ``file://`` links into every text it
  answers, the way Godot's hover links the declaring file (``Defined in [a.gd](file:///…)``), and
  spells the URIs of its locations the same way.

Run standalone: ``python -m tests.lsp.fake_server --port 0`` prints
``{"host": ..., "port": N}`` as one JSON line, then serves until SIGTERM/SIGINT.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

GODOT_ROOT_WARNING = (
    "The GDScript Language Server might not work correctly with other projects than the one opened in Godot."
)
NO_REPLY = object()

COMPLETION_NAMES = [
    ("velocity", 10),
    ("position", 10),
    ("print", 3),
    ("preload", 3),
    ("process_mode", 10),
    ("_process", 2),
    ("queue_free", 2),
    ("move_and_slide", 2),
    ("PI", 21),
    ("Vector2", 7),
]
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass
class ErrorReply:
    code: int
    message: str


def _frame(message: Any) -> bytes:
    body = json.dumps(message, ensure_ascii=False).encode("utf-8")
    return f"Content-Length: {len(body)}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n".encode(
        "ascii"
    ) + body


@dataclass(eq=False)  # identity hashing: connections live in a set
class _Connection:
    writer: asyncio.StreamWriter
    split: int | None
    coalesce: bool
    pending: bytearray = field(default_factory=bytearray)

    async def send(self, message: Any) -> None:
        if self.coalesce:
            self.pending += _frame(message)
        else:
            await self._write(_frame(message))

    async def flush(self) -> None:
        if self.pending:
            data, self.pending = bytes(self.pending), bytearray()
            await self._write(data)

    async def _write(self, data: bytes) -> None:
        if not self.split:
            self.writer.write(data)
            await self.writer.drain()
            return
        for i in range(0, len(data), self.split):
            self.writer.write(data[i : i + self.split])
            await self.writer.drain()
            await asyncio.sleep(0)  # let the pieces leave as separate segments


class FakeLspServer:
    def __init__(
        self,
        *,
        responses: dict[str, Any] | None = None,
        split: int | None = None,
        coalesce: bool = False,
        show_message: str | None = None,
        message_method: str = "window/showMessage",
        expected_root_uri: str | None = None,
        silent: tuple[str, ...] = (),
        file_links: str | None = None,
    ) -> None:
        self.responses = dict(responses or {})
        self.split = split
        self.coalesce = coalesce
        self.show_message = show_message
        self.message_method = message_method
        self.expected_root_uri = expected_root_uri
        self.silent = tuple(silent)
        if file_links not in (None, "encoded", "raw"):
            raise ValueError(f"file_links is 'encoded' or 'raw', not {file_links!r}")
        self.file_links = file_links
        self.received: list[dict[str, Any]] = []
        self.client_replies: list[dict[str, Any]] = []
        self.documents: dict[str, str] = {}  # uri -> text
        self.connections = 0
        self.host = "127.0.0.1"
        self.port = 0
        self._server: asyncio.Server | None = None
        self._conns: set[_Connection] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._event = asyncio.Event()

    # ------------------------------------------------------------ lifecycle

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        self._server = await asyncio.start_server(self._serve, host, port)
        self.host = host
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        await self.drop_clients()
        if self._server is not None:
            await self._server.wait_closed()
            self._server = None

    async def drop_clients(self) -> None:
        """Hang up on every client; each handler then sees EOF and ends by itself."""
        for conn in list(self._conns):
            conn.writer.close()
        tasks = list(self._tasks)
        if tasks:
            _, stragglers = await asyncio.wait(tasks, timeout=2.0)
            for task in stragglers:
                task.cancel()

    async def __aenter__(self) -> FakeLspServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------ test helpers

    def link(self, uri: str) -> str:
        """``uri`` as this server spells file URIs in its answers."""
        return unquote(uri) if self.file_links == "raw" else uri

    def linked(self, text: str, uri: str) -> str:
        """``text`` followed by a machine-path link to ``uri``, when ``file_links`` is on."""
        return f"{text} (in {self.link(uri)})" if self.file_links else text

    def messages(self, method: str) -> list[dict[str, Any]]:
        return [m for m in self.received if m.get("method") == method]

    async def wait_for(self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 5.0) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            while True:
                for message in self.received:
                    if predicate(message):
                        return message
                event = self._event
                await event.wait()

    async def wait_until(self, condition: Callable[[], bool], timeout: float = 5.0) -> None:
        """Wait for a state change (a message arriving, a client leaving) that makes ``condition`` true."""
        async with asyncio.timeout(timeout):
            while not condition():
                await self._event.wait()

    @property
    def open_connections(self) -> int:
        return len(self._conns)

    async def notify_clients(self, method: str, params: Any) -> None:
        for conn in list(self._conns):
            await conn.send({"jsonrpc": "2.0", "method": method, "params": params})
            await conn.flush()

    def _arrived(self, message: dict[str, Any]) -> None:
        self.received.append(message)
        self._poke()

    def _poke(self) -> None:
        event, self._event = self._event, asyncio.Event()
        event.set()

    # ------------------------------------------------------------ wire

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        conn = _Connection(writer, self.split, self.coalesce)
        self._conns.add(conn)
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        buffer = bytearray()
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                buffer += data
                for message in self._take_messages(buffer):
                    self._arrived(message)
                    await self._on_message(conn, message)
                await conn.flush()
        except (ConnectionError, OSError):
            pass
        finally:
            self._conns.discard(conn)
            self._tasks.discard(task)
            writer.close()
            self._poke()

    @staticmethod
    def _take_messages(buffer: bytearray) -> list[dict[str, Any]]:
        out = []
        while True:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                return out
            match = re.search(rb"content-length:\s*(\d+)", bytes(buffer[:end]), re.IGNORECASE)
            if match is None:
                raise ConnectionError("client sent a frame without Content-Length")
            length = int(match.group(1))
            if len(buffer) < end + 4 + length:
                return out
            body = bytes(buffer[end + 4 : end + 4 + length])
            del buffer[: end + 4 + length]
            out.append(json.loads(body.decode("utf-8")))

    async def _on_message(self, conn: _Connection, message: dict[str, Any]) -> None:
        method = message.get("method")
        if method is None:
            self.client_replies.append(message)
            return
        params = message.get("params") or {}
        if "id" not in message:
            await self._on_notification(conn, method, params)
            return
        if method == "initialize":
            await self._before_initialize_reply(conn, params)
        scripted = self.responses.get(method, self._default_answer(method))
        if callable(scripted):
            scripted = scripted(params, self)
        if scripted is NO_REPLY:
            return
        if isinstance(scripted, ErrorReply):
            reply = {"jsonrpc": "2.0", "id": message["id"], "error": {"code": scripted.code, "message": scripted.message}}
        else:
            reply = {"jsonrpc": "2.0", "id": message["id"], "result": scripted}
        await conn.send(reply)

    async def _before_initialize_reply(self, conn: _Connection, params: dict[str, Any]) -> None:
        # Godot warns while handling initialize, i.e. before its answer.
        text = self.show_message
        if text is None and self.expected_root_uri is not None and params.get("rootUri") != self.expected_root_uri:
            text = GODOT_ROOT_WARNING
        if text is not None:
            await conn.send({"jsonrpc": "2.0", "method": self.message_method, "params": {"type": 2, "message": text}})

    async def _on_notification(self, conn: _Connection, method: str, params: dict[str, Any]) -> None:
        if method == "initialized":
            await conn.send(
                {"jsonrpc": "2.0", "id": "cfg-1", "method": "workspace/configuration", "params": {"items": [{"section": "gdscript"}]}}
            )
            await conn.send(
                {"jsonrpc": "2.0", "id": 7, "method": "window/workDoneProgress/create", "params": {"token": "t"}}
            )
        elif method == "textDocument/didOpen":
            doc = params["textDocument"]
            self.documents[doc["uri"]] = doc["text"]
            await self._publish(conn, doc["uri"])
        elif method == "textDocument/didChange":
            uri = params["textDocument"]["uri"]
            self.documents[uri] = params["contentChanges"][-1]["text"]
            await self._publish(conn, uri)
        elif method == "textDocument/didClose":
            self.documents.pop(params["textDocument"]["uri"], None)

    async def _publish(self, conn: _Connection, uri: str) -> None:
        if uri.endswith(self.silent):
            return
        if self.coalesce:
            await conn.send({"jsonrpc": "2.0", "method": "window/logMessage", "params": {"type": 4, "message": f"parsed {uri}"}})
        await conn.send(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/publishDiagnostics",
                "params": {"uri": uri, "diagnostics": [
                    {**d, "message": self.linked(d["message"], uri)} for d in diagnostics_for(self.documents.get(uri, ""))
                ]},
            }
        )

    # ------------------------------------------------------------ default answers (Godot-like)

    def _default_answer(self, method: str) -> Any:
        answers: dict[str, Callable[[dict[str, Any], FakeLspServer], Any]] = {
            "initialize": lambda p, s: {"capabilities": {"textDocumentSync": 1, "hoverProvider": True}, "serverInfo": {"name": "fake-godot"}},
            "shutdown": lambda p, s: None,
            "textDocument/documentSymbol": _symbols,
            "textDocument/hover": _hover,
            "textDocument/completion": lambda p, s: [
                {"label": name, "kind": kind, "sortText": "",
                 "detail": "" if name != "velocity" else s.linked("Vector2", p["textDocument"]["uri"])}
                for name, kind in COMPLETION_NAMES
            ],
            "textDocument/definition": _definition,
            "textDocument/references": _references,
        }
        return answers.get(method, ErrorReply(-32601, f"method not found: {method}"))

    def word_at(self, params: dict[str, Any]) -> str:
        text = self.documents.get(params["textDocument"]["uri"], "")
        lines = text.split("\n")
        line, character = params["position"]["line"], params["position"]["character"]
        if line >= len(lines):
            return ""
        for match in _WORD.finditer(lines[line]):
            if match.start() <= character <= match.end():
                return match.group(0)
        return ""


def diagnostics_for(text: str) -> list[dict[str, Any]]:
    out = []
    for number, line in enumerate(text.split("\n")):
        for marker, severity in (("#ERR", 1), ("#WARN", 2)):
            at = line.find(marker)
            if at >= 0:
                diag: dict[str, Any] = {
                    "range": {"start": {"line": number, "character": at}, "end": {"line": number, "character": len(line)}},
                    "severity": severity,
                    "message": line[at + len(marker) :].strip() or marker,
                    "source": "gdscript",
                }
                if severity == 2:
                    diag["code"] = 3  # Godot sends its warning enum value
                out.append(diag)
    return out


def document_symbols(text: str) -> list[dict[str, Any]]:
    """One class symbol holding members; functions hold their parameters (as Godot does)."""
    lines = text.split("\n")
    children = []
    for number, line in enumerate(lines):
        match = re.match(r"(func|var|const|signal)\s+([A-Za-z_]\w*)(\(([^)]*)\))?", line)
        if not match:
            continue
        keyword, name = match.group(1), match.group(2)
        kind = {"func": 12, "var": 13, "const": 14, "signal": 24}[keyword]
        end = number
        if keyword == "func":
            while end + 1 < len(lines) and (lines[end + 1].startswith("\t") or not lines[end + 1].strip()):
                end += 1
        params = [p.strip().split(":")[0] for p in (match.group(4) or "").split(",") if p.strip()]
        children.append(
            {
                "name": name,
                "kind": kind,
                "detail": line.strip().rstrip(":"),
                "range": {"start": {"line": number, "character": 0}, "end": {"line": end, "character": 0}},
                "selectionRange": {"start": {"line": number, "character": match.start(2)}, "end": {"line": number, "character": match.end(2)}},
                "children": [
                    {"name": p, "kind": 13, "range": {"start": {"line": number, "character": 0}, "end": {"line": number, "character": 0}}}
                    for p in params
                ],
            }
        )
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": max(len(lines) - 1, 0), "character": 0}}
    return [{"name": "Script", "kind": 5, "range": whole, "selectionRange": whole, "children": children}]


def _symbols(params: dict[str, Any], server: FakeLspServer) -> Any:
    uri = params["textDocument"]["uri"]
    found = document_symbols(server.documents.get(uri, ""))
    if server.file_links:
        for symbol in found[0]["children"]:
            symbol["detail"] = server.linked(symbol["detail"], uri)
    return found


def _hover(params: dict[str, Any], server: FakeLspServer) -> Any:
    word = server.word_at(params)
    if not word:
        return None
    value = f"**{word}**\n\ndocs for {word}"
    if server.file_links:  # Godot links the file that declares the symbol
        declared = _declarations(server, word)
        uri = declared[0]["uri"] if declared else server.link(params["textDocument"]["uri"])
        value += f"\n\nDefined in [{unquote(uri.rsplit('/', 1)[-1])}]({uri})"
    return {"contents": {"kind": "markdown", "value": value}}


def _declarations(server: FakeLspServer, word: str) -> list[dict[str, Any]]:
    out = []
    for uri, text in server.documents.items():
        for number, line in enumerate(text.split("\n")):
            match = re.match(rf"(func|var|const|signal)\s+({re.escape(word)})\b", line)
            if match:
                out.append(_location(server.link(uri), number, match.start(2), match.end(2)))
    return out


def _location(uri: str, line: int, start: int, end: int) -> dict[str, Any]:
    return {"uri": uri, "range": {"start": {"line": line, "character": start}, "end": {"line": line, "character": end}}}


def _definition(params: dict[str, Any], server: FakeLspServer) -> Any:
    word = server.word_at(params)
    return _declarations(server, word) if word else []


def _references(params: dict[str, Any], server: FakeLspServer) -> Any:
    word = server.word_at(params)
    if not word:
        return []
    out = []
    for uri, text in server.documents.items():
        for number, line in enumerate(text.split("\n")):
            for match in re.finditer(rf"\b{re.escape(word)}\b", line):
                out.append(_location(server.link(uri), number, match.start(), match.end()))
    return out


# ---------------------------------------------------------------- subprocess entry point


async def _serve_forever(args: argparse.Namespace) -> None:
    server = FakeLspServer(
        split=args.split,
        coalesce=args.coalesce,
        show_message=args.show_message,
        message_method="window/logMessage" if args.log_message else "window/showMessage",
        expected_root_uri=args.expected_root_uri,
        silent=tuple(args.silent),
    )
    port = await server.start(args.host, args.port)
    print(json.dumps({"host": args.host, "port": port}), flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):  # Windows event loops
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await server.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Scripted fake GDScript language server for tests")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--split", type=int, default=None, help="write frames in pieces of N bytes")
    parser.add_argument("--coalesce", action="store_true", help="send all output for one read in one write")
    parser.add_argument("--show-message", default=None, help="text sent as showMessage during initialize")
    parser.add_argument("--log-message", action="store_true", help="send --show-message as window/logMessage")
    parser.add_argument("--expected-root-uri", default=None, help="warn like Godot when rootUri differs")
    parser.add_argument("--silent", action="append", default=[], help="URI suffix that gets no diagnostics")
    args = parser.parse_args(argv)
    if args.host != "127.0.0.1":
        sys.exit("the fake server only listens on 127.0.0.1")
    asyncio.run(_serve_forever(args))


if __name__ == "__main__":
    main()
