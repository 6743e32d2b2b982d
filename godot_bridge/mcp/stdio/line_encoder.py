"""One wire line from a message, encoded as the SDK's codec encodes it.

Needs orjson (the ``fast`` extra): its number and string formatting is the SDK's
(pydantic-core's); without orjson the bridge uses the SDK path for everything (``available``).
A tool's structured content, already encoded once, is spliced in as it is (``splice``).
"""

from __future__ import annotations

import json
import logging
from typing import Any

try:
    import orjson
except ImportError:  # pragma: no cover - the lean path is off without it
    orjson = None  # type: ignore[assignment]

log = logging.getLogger(__name__)


def available() -> bool:
    return orjson is not None


def encode(message: dict[str, Any]) -> bytes | None:
    """One wire line, encoded as the codec encodes the SDK's messages; None if it cannot be.

    orjson writes what pydantic-core writes. What orjson refuses (a lone surrogate, an integer
    beyond 64 bits) is written by json, ASCII-escaped when UTF-8 cannot carry it, as the codec does.
    """
    assert orjson is not None
    try:
        return orjson.dumps(message, default=_for_orjson) + b"\n"  # type: ignore[no-any-return]
    except (TypeError, orjson.JSONEncodeError):
        pass
    try:
        return json.dumps(message, ensure_ascii=False, separators=(",", ":"), default=_for_json).encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        pass
    except (TypeError, ValueError) as exc:
        log.error("cannot serialize an outgoing message: %s", exc)
        return None
    return json.dumps(message, ensure_ascii=True, separators=(",", ":"), default=_for_json).encode("ascii") + b"\n"


class _Spliced:
    """Already-encoded JSON (a tool's sorted structured content): orjson writes the bytes as they
    are; the json fallback, which cannot, writes the value they encode."""

    __slots__ = ("data", "fragment")

    def __init__(self, data: bytes) -> None:
        assert orjson is not None
        self.data, self.fragment = data, orjson.Fragment(data)


def splice(data: bytes) -> Any:
    return _Spliced(data)


def _for_orjson(value: Any) -> Any:
    if isinstance(value, _Spliced):
        return value.fragment
    raise TypeError(f"{type(value).__name__} is not JSON")


def _for_json(value: Any) -> Any:
    if isinstance(value, _Spliced):
        return json.loads(value.data)
    raise TypeError(f"{type(value).__name__} is not JSON")


def response(rid: str | int | None, result: dict[str, Any]) -> bytes | None:
    return encode({"jsonrpc": "2.0", "id": rid, "result": result})


def error(rid: str | int | None, code: int, message: str) -> bytes:
    line = encode({"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}})
    assert line is not None  # ids and messages are strings and integers: the last fallback always encodes
    return line


def notify(method: str, params: dict[str, Any] | None = None) -> bytes | None:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return encode(message)
