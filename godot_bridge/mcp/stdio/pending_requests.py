"""Requests read but not yet answered on the wire, so end of input can wait for their answers.

Shared by the lean path (``server.py``) and the SDK path (``sdk_dispatch.py``) on one pipe. No SDK import.
"""

from __future__ import annotations

import asyncio
from typing import Any

# How long answers to requests still running at end of input may take. Short: a client that
# closed its input is leaving, and a call the editor never answers must not hold it.
EOF_GRACE_S = 3.0
# A listen stream stays open until the client goes; it is not a request waiting for an answer.
STREAMING_METHODS = frozenset({"subscriptions/listen"})


def _key(rid: Any) -> tuple[str, Any]:
    return (type(rid).__name__, rid)  # 1 and "1" are different requests


class Unanswered:
    """A request counts as answered when its response line has been written (not when its handler
    returns: a write still queued behind another would be cancelled at shutdown and lost), or
    when the client cancelled it (it gets no answer by design).
    """

    def __init__(self) -> None:
        self._open: dict[tuple[str, Any], int] = {}
        # asyncio's Event, not anyio's: both serving paths run on asyncio (or uvloop), and anyio's
        # Event looks the backend up on every creation, once per call.
        self.idle = asyncio.Event()
        self.idle.set()

    def started(self, rid: Any) -> None:
        if not self._open:
            self.idle.clear()
        key = _key(rid)
        self._open[key] = self._open.get(key, 0) + 1

    @property
    def count(self) -> int:
        return sum(self._open.values())

    def finished(self, rid: Any) -> None:
        key = _key(rid)
        left = self._open.get(key)
        if left is None:
            return  # an answer to a line that never became a request (e.g. refused as too deep)
        if left > 1:
            self._open[key] = left - 1
        else:
            del self._open[key]
            if not self._open:
                self.idle.set()
