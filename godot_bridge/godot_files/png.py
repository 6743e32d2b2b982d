"""Width and height of a PNG, read from its header (the IHDR chunk) without decoding pixels.

A screenshot kept by the bridge is described by its size; the toolkit's metadata says what it
*meant* to send, the header says what was sent. Anything that is not a PNG with a well-formed
IHDR is refused with a message naming what is wrong.
"""

from __future__ import annotations

import struct

from godot_bridge.errors import GodotFileError

SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Signature, then the first chunk: length (4), type (4), width (4), height (4).
_HEADER_BYTES = len(SIGNATURE) + 16
_IHDR_LENGTH = 13


class PngError(GodotFileError, ValueError):
    """The bytes are not a PNG whose header can be read."""


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from the IHDR chunk; raises PngError."""
    if not data.startswith(SIGNATURE):
        raise PngError("not a PNG (the 8-byte PNG signature is missing)")
    if len(data) < _HEADER_BYTES:
        raise PngError(f"truncated PNG ({len(data)} bytes, the header alone needs {_HEADER_BYTES})")
    length, kind, width, height = struct.unpack(">I4sII", data[len(SIGNATURE):_HEADER_BYTES])
    if kind != b"IHDR" or length != _IHDR_LENGTH:
        raise PngError("malformed PNG: the first chunk is not a 13-byte IHDR")
    if width == 0 or height == 0:
        raise PngError(f"malformed PNG: {width}x{height} is not a valid size")
    return width, height
