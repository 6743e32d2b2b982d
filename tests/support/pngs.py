"""Real, tiny PNG files for the screenshot tests (a decoder would accept them: CRCs and zlib data are right)."""

from __future__ import annotations

import struct
import zlib


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def make_png(width: int, height: int, rgb: tuple[int, int, int] = (200, 40, 40)) -> bytes:
    """A solid-colour 8-bit RGB PNG of the given size."""
    row = b"\x00" + bytes(rgb) * width  # filter type 0 (None), then the pixels
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", zlib.compress(row * height))
            + _chunk(b"IEND", b""))
