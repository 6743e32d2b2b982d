"""A scripted model endpoint on loopback: the "model" an assistant CLI talks to in these tests.

An assistant CLI (Claude Code, Gemini CLI, Codex, ...) is pointed at ``ModelServer.url`` through its
base-URL setting. Every HTTP request it sends is recorded (``RecordedRequest``: method, path, headers,
raw body bytes, parsed JSON) and answered by a vendor **adapter** from a **scenario**.

Scenario: a list of turns, played in order, one per main model request.

* ``ToolCall(tool, arguments)``: the model calls a tool. ``tool`` is the BARE catalogue name
  (``project_get_info``); the server finds, among the tools the request declares, the one whose
  name is that name or ends with ``__<name>`` / ``_<name>`` (namespaced declarations match on
  ``namespace + name`` too) and answers with a call of that declared name. It records the name it
  used (``Served.declared``). When nothing matches it asks the adapter to ``unlock`` the tool first
  (Claude Code's ToolSearch: a call that makes deferred tools declared; the turn stays pending);
  when that is not possible it records ``declared=None`` and answers with text saying the tool is
  not declared, which ends the CLI's run, so the test can assert on it.
* ``Say(text)``: the model's final answer.

Each turn has ``delay`` (seconds slept before answering: a "slow model") and ``when`` (a predicate on
the parsed ``ModelRequest`` that must hold for the request to get this turn). By default a turn
after a ``ToolCall`` waits until the request carries one more tool result than the one that got the
call. A request that is auxiliary (the adapter says so: Gemini's routing call, Claude Code's title
or quota probes, token counts, ...) or that does not satisfy ``when`` is answered by
``adapter.respond_auxiliary`` and does not consume a turn. Once the scenario is over every main
request gets ``Say("done")``.

Adapter interface (``Adapter``): ``parse(RecordedRequest) -> ModelRequest`` (declared tools, tool
results the client sent back, whether it is auxiliary), ``respond(Reply, ModelRequest) ->
Response`` (the streamed HTTP answer to a main request), ``respond_auxiliary(ModelRequest) ->
Response``, and ``unlock(tool, ModelRequest) -> CallReply | None``.

Helpers for tests and ``bench/``: ``ModelServer.main_requests()`` (parsed main requests in order),
``ours(tools, server_key)`` (the declarations that come from our server) and ``declared_bytes``
(their size as the CLI sent them), ``ModelRequest.results`` (each tool result as the text the model
sees). For the adapters: ``sse`` (a streamed answer) and ``parts_text`` (content parts as text).
"""

from __future__ import annotations

import gzip
import json
import threading
import time
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from godot_bridge.tools.groups import CALL_THROUGH

# Our entry's key in the clients' files (the shipped entry definition); tests put copies of the entry
# beside it under other keys that end with it ("cut-<key>").
SERVER_KEY: str = json.loads((Path(__file__).resolve().parents[2] / "addons/godot_mcp_toolkit/ui/mcp_entry.json")
                             .read_text(encoding="utf-8"))["server_key"]

# -- what was received --------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordedRequest:
    """One HTTP request as it arrived (headers with lower-case names; body decoded from gzip/deflate)."""

    method: str
    path: str  # with the query string
    headers: Mapping[str, str]
    body: bytes
    json: Any  # the parsed body, None when it is not JSON

    @property
    def route(self) -> str:
        """The path without the query string."""
        return urlsplit(self.path).path


@dataclass(frozen=True)
class ToolDeclaration:
    """One tool as the CLI declared it to the model. ``raw`` is the declaration object exactly as sent."""

    name: str
    raw: Mapping[str, Any]
    namespace: str = ""

    @property
    def qualified(self) -> str:
        return self.namespace + self.name

    @property
    def size(self) -> int:
        """Bytes of the declaration as compact UTF-8 JSON: what it adds to the request."""
        return len(json.dumps(self.raw, separators=(",", ":"), ensure_ascii=False).encode())


@dataclass(frozen=True)
class ToolResult:
    """A tool result the client sent back: ``text`` is what the model sees of it."""

    call_id: str
    text: str
    name: str = ""
    is_error: bool = False


@dataclass(frozen=True)
class ModelRequest:
    """What an adapter reads from a request. ``kind`` names an auxiliary request ("routing", "title", ...).
    ``announced``: tool names the client told the model about without declaring them (Claude Code's
    deferred tools, listed by name for its ToolSearch)."""

    request: RecordedRequest
    tools: tuple[ToolDeclaration, ...] = ()
    results: tuple[ToolResult, ...] = ()
    auxiliary: bool = False
    kind: str = "main"
    announced: tuple[str, ...] = ()

    def names(self) -> list[str]:
        return [t.qualified for t in self.tools]

    def knows(self, name: str) -> bool:
        """``name`` (a full declared name) is declared or announced."""
        return name in self.names() or name in self.announced

    def find(self, tool: str) -> ToolDeclaration | None:
        return resolve(tool, self.tools)


# -- the scenario -------------------------------------------------------------------------------

Predicate = Callable[[ModelRequest], bool]


@dataclass(frozen=True)
class ToolCall:
    tool: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    delay: float = 0.0
    when: Predicate | None = None
    # What the model calls instead when ``tool`` is not declared and the tool result before said to go
    # through call_tool (discover_tools saw no re-list in time), as that answer tells a model to.
    instead: ToolCall | None = None


@dataclass(frozen=True)
class Say:
    text: str
    delay: float = 0.0
    when: Predicate | None = None


Turn = ToolCall | Say


@dataclass(frozen=True)
class CallReply:
    """A call the adapter writes: the declared name (namespace split off when there is one)."""

    name: str
    arguments: Mapping[str, Any]
    call_id: str
    namespace: str = ""


@dataclass(frozen=True)
class TextReply:
    text: str


Reply = CallReply | TextReply


@dataclass(frozen=True)
class Response:
    """An HTTP answer; ``chunks`` are written one after the other (an SSE stream is a list of events)."""

    status: int = 200
    content_type: str = "text/event-stream"
    chunks: Sequence[bytes] = ()
    headers: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def json(cls, obj: Any, status: int = 200) -> Response:
        return cls(status, "application/json", [json.dumps(obj).encode()])


class Adapter(Protocol):
    def parse(self, request: RecordedRequest) -> ModelRequest: ...

    def respond(self, reply: Reply, request: ModelRequest) -> Response: ...

    def respond_auxiliary(self, request: ModelRequest) -> Response: ...

    def unlock(self, tool: str, request: ModelRequest) -> CallReply | None: ...


@dataclass(frozen=True)
class Served:
    """What one request got: the turn index (None: auxiliary or after the scenario), the reply, and for a
    ToolCall the declared name used (None: not declared). ``unlock`` marks an adapter's unlocking call."""

    request_index: int
    turn: int | None
    reply: Reply | None
    declared: str | None = None
    unlock: bool = False


# -- name resolution ----------------------------------------------------------------------------


def resolve(tool: str, tools: Sequence[ToolDeclaration]) -> ToolDeclaration | None:
    """The declaration for bare name ``tool``: exact, else ``...__tool``, else ``..._tool``, else ``...-tool``
    (Copilot CLI's names where no adapter splits them; shortest wins: our tools share one prefix, so the
    shortest is the one whose rest is exactly ``tool``)."""
    for suffix in ("", "__", "_", "-"):
        found = [t for t in tools if _matches(t, tool, suffix) and not (suffix and _copy(t))]
        if found:
            return min(found, key=lambda t: len(t.qualified))
    return None


UNLOCK_TRIES = 3
# How discover_tools's answer starts when the client had not fetched its new list in time.
THROUGH_CALL_TOOL = CALL_THROUGH[: CALL_THROUGH.index(", so")]


def told_through_call_tool(req: ModelRequest) -> bool:
    """The last tool result the model got said to call the loaded tools through call_tool."""
    return bool(req.results) and THROUGH_CALL_TOOL in req.results[-1].text


def _copy(decl: ToolDeclaration) -> bool:
    """A tool of a copy of our entry ("cut-<key>"): a bare name is our own entry's tool, never a copy's,
    even while only the copy is connected (a busy machine starts ours later)."""
    name, key = _norm(decl.qualified), _norm(SERVER_KEY)
    at = name.find(key)
    return at > 0 and name[:at].replace("mcp", "").strip("_") != ""


def _matches(decl: ToolDeclaration, tool: str, sep: str) -> bool:
    names = (decl.name, decl.qualified)
    if not sep:
        return tool in names
    return any(n.endswith(sep + tool) for n in names)


def _norm(text: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in text.lower())


def ours(tools: Sequence[ToolDeclaration], server_key: str) -> list[ToolDeclaration]:
    """The declarations that come from the MCP server ``server_key`` (its key in the client's config):
    CLIs put the key, sometimes with ``-`` made ``_``, into the declared name or its namespace."""
    key = _norm(server_key)
    return [t for t in tools if key in _norm(t.qualified)]


def declared_bytes(tools: Sequence[ToolDeclaration]) -> int:
    return sum(t.size for t in tools)


# -- the server ---------------------------------------------------------------------------------


class _Script:
    """The scenario's state; ``decide`` runs under the server's lock."""

    def __init__(self, turns: Sequence[Turn]) -> None:
        self.turns = list(turns)
        self.next = 0
        self.results_at_call = -1  # tool results in the request that got the last ToolCall
        self.unlocks: dict[int, int] = {}  # turn -> unlocking calls made for it
        self.calls = 0

    def _ready(self, turn: Turn, req: ModelRequest) -> bool:
        if turn.when is not None:
            return turn.when(req)
        return len(req.results) > self.results_at_call

    def decide(self, index: int, req: ModelRequest, adapter: Adapter) -> tuple[Served, float]:
        if req.auxiliary:
            return Served(index, None, None), 0.0
        if self.next >= len(self.turns):
            return Served(index, None, TextReply("done")), 0.0
        turn = self.turns[self.next]
        if not self._ready(turn, req):
            return Served(index, None, None), 0.0
        if isinstance(turn, Say):
            self.next += 1
            return Served(index, self.next - 1, TextReply(turn.text)), turn.delay
        return self._call(index, turn, req, adapter)

    def _call(self, index: int, turn: ToolCall, req: ModelRequest, adapter: Adapter) -> tuple[Served, float]:
        at = self.next
        decl = req.find(turn.tool)
        if decl is None and turn.instead is not None and told_through_call_tool(req):
            turn = turn.instead
            decl = req.find(turn.tool)
        # A search may come back before our server is connected (a busy machine): search again, a few times.
        if decl is None and self.unlocks.get(at, 0) < UNLOCK_TRIES:
            self.unlocks[at] = self.unlocks.get(at, 0) + 1
            unlocking = adapter.unlock(turn.tool, req)
            if unlocking is not None:
                self.results_at_call = len(req.results)
                return Served(index, at, unlocking, unlocking.name, unlock=True), 0.0
        self.next += 1
        if decl is None:
            self.results_at_call = len(req.results)
            text = f"The tool {turn.tool} is not declared; declared tools: {', '.join(req.names())}"
            return Served(index, at, TextReply(text), None), turn.delay
        self.calls += 1
        self.results_at_call = len(req.results)
        reply = CallReply(decl.name, dict(turn.arguments), f"call_{self.calls:03d}", decl.namespace)
        return Served(index, at, reply, decl.qualified), turn.delay


class ModelServer:
    """Threaded loopback HTTP server; use as a context manager. ``url`` is ``http://127.0.0.1:<port>``."""

    def __init__(self, adapter: Adapter, turns: Sequence[Turn] = ()) -> None:
        self.adapter = adapter
        self.requests: list[RecordedRequest] = []
        self.parsed: list[ModelRequest | None] = []
        self.served: list[Served] = []
        self.errors: list[str] = []
        self.times: list[float] = []  # time.monotonic() of each request's arrival
        self._lock = threading.Lock()
        self._script = _Script(turns)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="model-server", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_port}"

    def play(self, turns: Sequence[Turn]) -> None:
        """A new scenario (the recording is kept: each Served names its request index)."""
        with self._lock:
            self._script = _Script(turns)

    @property
    def finished(self) -> bool:
        return self._script.next >= len(self._script.turns)

    def main_requests(self) -> list[ModelRequest]:
        return [p for p in self.parsed if p is not None and not p.auxiliary]

    def turn_requests(self) -> list[ModelRequest]:
        """The requests that got a scenario turn, in order (the unlocking ones included)."""
        return [p for s in self.served if s.turn is not None and (p := self.parsed[s.request_index]) is not None]

    def after(self, turn: int) -> ModelRequest | None:
        """The first main request after the one that got ``turn`` (where its tool result shows)."""
        idx = next((s.request_index for s in self.served if s.turn == turn and not s.unlock), None)
        if idx is None:
            return None
        return next((p for p in self.parsed[idx + 1:] if p is not None and not p.auxiliary), None)

    def call_of(self, turn: int) -> Served | None:
        """How ``turn`` (a ToolCall) was served: its declared name, or None when not declared."""
        return next((s for s in self.served if s.turn == turn and not s.unlock), None)

    def result_of(self, turn: int) -> ToolResult | None:
        """The tool result the client sent back for ``turn``'s call: by call id (adapters may add a
        prefix to it), else (a client that makes its own ids) the first new result of that tool's name."""
        served = self.call_of(turn)
        if served is None or not isinstance(served.reply, CallReply):
            return None
        reply = served.reply
        before = self.parsed[served.request_index]
        known = len(before.results) if before is not None else 0
        later = [r for r in self.parsed[served.request_index + 1:] if r is not None and not r.auxiliary]
        for req in later:
            for result in req.results:
                if result.call_id == reply.call_id or result.call_id.endswith(reply.call_id):
                    return result
        for req in later:
            for result in req.results[known:]:
                if result.name == reply.name:
                    return result
        return None

    def handle(self, request: RecordedRequest) -> Response:
        try:
            parsed = self.adapter.parse(request)
        except Exception as exc:  # noqa: BLE001 - a request we cannot read must show in the test, not kill the thread
            with self._lock:
                self.times.append(time.monotonic())
                self.requests.append(request)
                self.parsed.append(None)
                self.errors.append(f"{request.method} {request.path}: {type(exc).__name__}: {exc}")
            return Response.json({"error": {"message": f"model_server cannot parse: {exc}"}}, status=400)
        with self._lock:
            index = len(self.requests)
            self.times.append(time.monotonic())
            self.requests.append(request)
            self.parsed.append(parsed)
            served, delay = self._script.decide(index, parsed, self.adapter)
            self.served.append(served)
        if delay:
            time.sleep(delay)
        if served.reply is None:
            return self.adapter.respond_auxiliary(parsed)
        return self.adapter.respond(served.reply, parsed)

    def __enter__(self) -> ModelServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)


def _decode(body: bytes, encoding: str) -> bytes:
    if encoding == "gzip":
        return gzip.decompress(body)
    if encoding == "deflate":
        return zlib.decompress(body)
    if encoding == "zstd":
        import zstandard  # type: ignore[import-not-found]  # only when a CLI compresses with it

        return zstandard.ZstdDecompressor().decompress(body, max_output_size=64 << 20)
    return body


def _read_chunked(rfile: Any) -> bytes:
    out = bytearray()
    while True:
        size = int(rfile.readline().split(b";")[0].strip() or b"0", 16)
        if size == 0:
            while rfile.readline().strip():
                pass
            return bytes(out)
        out += rfile.read(size)
        rfile.readline()


def _handler(server: ModelServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _serve(self) -> None:
            headers = {k.lower(): v for k, v in self.headers.items()}
            if headers.get("transfer-encoding", "").lower() == "chunked":
                body = _read_chunked(self.rfile)
            else:
                body = self.rfile.read(int(headers.get("content-length") or 0))
            body = _decode(body, headers.get("content-encoding", "").lower())
            try:
                data = json.loads(body) if body else None
            except ValueError:
                data = None
            self._write(server.handle(RecordedRequest(self.command, self.path, headers, body, data)))

        def _write(self, response: Response) -> None:
            payload = b"".join(response.chunks)
            self.send_response(response.status)
            self.send_header("Content-Type", response.content_type)
            self.send_header("Content-Length", str(len(payload)))
            for k, v in response.headers.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(payload)
            self.wfile.flush()

        do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _serve

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
            pass  # stdout/stderr of the test stay clean

    return Handler


def parts_text(content: Any, sep: str = "") -> str:
    """A message's or tool result's content as the model reads it: a string, or its text parts joined by
    ``sep`` (any other part, such as an image, by its type)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return sep.join(str(p["text"]) if "text" in p else f"[{p.get('type', 'part')}]"
                        for p in content if isinstance(p, Mapping))
    return "" if content is None else json.dumps(content)


def sse(events: Iterator[tuple[str | None, Any]] | Sequence[tuple[str | None, Any]]) -> list[bytes]:
    """Server-sent events: each (event name or None, JSON data) as one ``event:``/``data:`` block."""
    out = []
    for name, data in events:
        head = f"event: {name}\n" if name else ""
        out.append(f"{head}data: {json.dumps(data)}\n\n".encode())
    return out
