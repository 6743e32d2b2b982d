"""Language Server Protocol base framing, with no I/O.

Each message is ``Content-Length: <n>\\r\\n[other headers]\\r\\n\\r\\n<n bytes of UTF-8 JSON>``.
The length counts bytes, not characters. A TCP read may hold several messages, a
fraction of one, or end in the middle of a multi-byte character, so the decoder
keeps bytes until a whole body is present and only then decodes it.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from godot_bridge.errors import LanguageServerError

log = logging.getLogger(__name__)

_SEPARATOR = b"\r\n\r\n"
# A header block longer than this is not a language server talking to us.
MAX_HEADER_BYTES = 8 * 1024
# Generous: a big project's symbol list is a few MB at most.
DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024


class FramingError(LanguageServerError, ValueError):
    """The byte stream is not LSP-framed; the connection cannot be resynchronised."""


def encode(message: Any) -> bytes:
    """One framed message. ``ensure_ascii=False`` so the byte length is the UTF-8 one."""
    body = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _content_length(header_block: bytes) -> int:
    length: int | None = None
    for line in header_block.split(b"\r\n"):
        name, sep, value = line.partition(b":")
        if not sep:
            raise FramingError(f"malformed header line {line[:80]!r}")
        if name.strip().lower() == b"content-length":
            text = value.strip()
            if not text.isdigit():
                raise FramingError(f"bad Content-Length {text[:40]!r}")
            length = int(text)
        # Content-Type (and anything else) is ignored: the spec only allows utf-8 JSON.
    if length is None:
        raise FramingError("header block without Content-Length")
    return length


class FrameDecoder:
    """Incremental decoder: ``feed`` bytes as they arrive, get back every complete message.

    A body that is not valid JSON is skipped with a warning: its length was right, so
    the stream is still in step. Broken headers raise ``FramingError``.
    """

    def __init__(self, max_body_bytes: int = DEFAULT_MAX_BODY_BYTES) -> None:
        self._buffer = bytearray()
        self._body_length: int | None = None  # set once the current message's headers are parsed
        self._max_body = max_body_bytes

    @property
    def pending_bytes(self) -> int:
        return len(self._buffer)

    def feed(self, data: bytes) -> list[Any]:
        self._buffer += data
        messages: list[Any] = []
        while True:
            if self._body_length is None and not self._read_header():
                return messages
            assert self._body_length is not None
            if len(self._buffer) < self._body_length:
                return messages
            body = bytes(self._buffer[: self._body_length])
            del self._buffer[: self._body_length]
            self._body_length = None
            try:
                messages.append(json.loads(body.decode("utf-8")))
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                log.warning("skipping an LSP message that is not UTF-8 JSON: %s", exc)

    def _read_header(self) -> bool:
        """Consume one header block if complete; False means wait for more bytes."""
        end = self._buffer.find(_SEPARATOR)
        if end < 0:
            if len(self._buffer) > MAX_HEADER_BYTES:
                raise FramingError("no end of headers within 8 KiB")
            return False
        if end > MAX_HEADER_BYTES:
            raise FramingError("header block longer than 8 KiB")
        length = _content_length(bytes(self._buffer[:end]))
        if length > self._max_body:
            raise FramingError(f"message of {length} bytes exceeds the {self._max_body}-byte limit")
        del self._buffer[: end + len(_SEPARATOR)]
        self._body_length = length
        return True
