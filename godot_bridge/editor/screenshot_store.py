"""The screenshots the bridge keeps for ``image_response_mode: link``.

A linked screenshot costs the model a few dozen tokens (a ``resource_link``) instead of the whole
image; the client reads the bytes with ``resources/read`` when it wants them. The bridge has to
keep them for that, so the store is bounded twice, by count and by total bytes, and drops the
oldest first. Ids are 96 random bits: a URI cannot be guessed from another, and one is never
reused within the process, so a link stays valid (or clearly gone) for the whole session.
"""

from __future__ import annotations

import re
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from godot_bridge.errors import PeerError
from godot_bridge.godot_files.png import png_size

URI_PREFIX = "godot://screenshots/"
URI_SUFFIX = ".png"
MIME = "image/png"
DEFAULT_MAX_COUNT = 16
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
_ID = re.compile(r"^[0-9a-f]{24}$")


class ImageTooLarge(PeerError, ValueError):
    """One image is larger than the whole store may hold."""


@dataclass(frozen=True)
class KeptImage:
    id: str
    data: bytes
    width: int
    height: int
    source: str  # what was captured, in words: "game window", "editor viewport"
    number: int  # 1, 2, ... in the order taken; names the image for people
    taken_at: float  # time.time()

    @property
    def uri(self) -> str:
        return f"{URI_PREFIX}{self.id}{URI_SUFFIX}"

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def name(self) -> str:
        return f"screenshot-{self.number}.png"

    @property
    def description(self) -> str:
        taken = time.strftime("%H:%M:%S", time.gmtime(self.taken_at))
        return f"{self.source} screenshot, {self.width}x{self.height} PNG, taken {taken} UTC"

    def resource(self) -> dict[str, Any]:
        """Its entry in ``resources/list``; with ``type`` added it is the tool result's link."""
        return {"uri": self.uri, "name": self.name, "title": f"Screenshot {self.number} ({self.source})",
                "description": self.description, "mimeType": MIME, "size": self.size}

    def link(self) -> dict[str, Any]:
        return {"type": "resource_link", **self.resource()}


class ImageStore:
    """Keeps the latest screenshots within ``max_count`` images and ``max_bytes`` bytes."""

    def __init__(self, max_count: int = DEFAULT_MAX_COUNT, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        if max_count < 1 or max_bytes < 1:
            raise ValueError("an image store must hold at least one image and one byte")
        self.max_count = max_count
        self.max_bytes = max_bytes
        self._images: OrderedDict[str, KeptImage] = OrderedDict()
        self._bytes = 0
        self._taken = 0

    def keep(self, data: bytes, *, source: str) -> KeptImage:
        """Store a PNG (PngError if it is not one) and evict the oldest beyond the bounds."""
        width, height = png_size(data)
        if len(data) > self.max_bytes:
            raise ImageTooLarge(f"the image is {len(data)} bytes, more than the {self.max_bytes} bytes "
                                "the bridge keeps for screenshots in all")
        self._taken += 1
        image = KeptImage(secrets.token_hex(12), bytes(data), width, height, source, self._taken, time.time())
        self._images[image.id] = image
        self._bytes += image.size
        while len(self._images) > self.max_count or self._bytes > self.max_bytes:
            _, dropped = self._images.popitem(last=False)
            self._bytes -= dropped.size
        return image

    def find(self, uri: str) -> KeptImage | None:
        """The image a ``godot://screenshots/<id>.png`` URI names, or None (unknown or evicted)."""
        if not (uri.startswith(URI_PREFIX) and uri.endswith(URI_SUFFIX)):
            return None
        image_id = uri[len(URI_PREFIX):-len(URI_SUFFIX)]
        return self._images.get(image_id) if _ID.match(image_id) else None

    def images(self) -> list[KeptImage]:
        """Newest first."""
        return list(reversed(self._images.values()))

    @property
    def total_bytes(self) -> int:
        return self._bytes

    def __len__(self) -> int:
        return len(self._images)
