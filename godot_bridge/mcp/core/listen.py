"""What rides beside the SDK's ``subscriptions/listen`` handler on a 2026-07-28 listen stream.

The SDK's ``ListenHandler`` owns the stream: its acknowledgement is the first frame and it
forwards the subscription bus. Pushed Godot errors (``error_feed.py``) and task status
(``tasks.py``) add frames of their own to the same stream; both wait for the ack, then send from
a task that runs as long as the stream does. This module is that shared frame.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from typing import Any

import anyio


class AckWatch:
    """The listen request's session, noting when the handler's first frame (its ack) went out.
    ``shape`` may change that ack on its way (``tasks.py`` adds the task ids it accepted)."""

    def __init__(self, session: Any) -> None:
        self._session = session
        self.acked = anyio.Event()

    def shape(self, notification: Any) -> Any:
        return notification

    async def send_notification(self, notification: Any, *args: Any, **kwargs: Any) -> None:
        if not self.acked.is_set():
            notification = self.shape(notification)
        try:
            await self._session.send_notification(notification, *args, **kwargs)
        finally:
            self.acked.set()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


async def beside(inner: Any, ctx: Any, params: Any, watch: AckWatch,
                 forward: Callable[[], Awaitable[None]]) -> Any:
    """Serve the listen stream with ``inner`` (through ``watch``), ``forward`` sending beside it
    until the stream ends."""
    async with anyio.create_task_group() as tg:
        tg.start_soon(forward)
        try:
            return await inner(dataclasses.replace(ctx, session=watch), params)
        finally:
            tg.cancel_scope.cancel()
