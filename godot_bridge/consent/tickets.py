"""Single-use tickets: the confirmation tokens and the 2026-07-28 request states.

A ticket records one question: the tool, a digest of the arguments, the state of the target when
it was asked, whose question it was (the client's peer) and when it expires. Its id is random
(unguessable) and works once: taking it removes it, and an id already taken is remembered until
it would have expired, so a replay is told "already used" instead of "unknown".

Bounded: at most ``limit`` open tickets; the oldest goes first.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from godot_bridge.consent.question import Question
from godot_bridge.errors import ConsentError

TTL_S = 300.0
LIMIT = 256


def digest(args: Mapping[str, Any]) -> str:
    """The arguments as one value: canonical JSON (sorted keys), hashed."""
    text = json.dumps(args, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Ticket:
    tool: str
    args: str  # digest of the arguments
    state: str  # the target's state when asked
    owner: object  # the client it was issued to (its Peer)
    question: Question
    expires: float

    def same_call(self, tool: str, args: str) -> bool:
        return self.tool == tool and self.args == args


class Refused(ConsentError):
    """A ticket that cannot be taken; the message says why and what to do."""


class Tickets:
    def __init__(self, what: str, *, prefix: str, ttl: float = TTL_S, limit: int = LIMIT,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.what, self.prefix, self.ttl, self.limit, self._clock = what, prefix, ttl, limit, clock
        self._open: OrderedDict[str, Ticket] = OrderedDict()
        # Ids no longer open, kept a while so a second use is told why: id -> (forget at, why).
        self._closed: dict[str, tuple[float, str]] = {}

    def __len__(self) -> int:
        return len(self._open)

    def age(self, ticket: Ticket) -> float:
        """Seconds since ``ticket`` was issued (how long its question was open)."""
        return self._clock() - (ticket.expires - self.ttl)

    def issue(self, tool: str, args: str, state: str, owner: object, question: Question) -> str:
        self._sweep()
        while len(self._open) >= self.limit:
            self._open.popitem(last=False)
        value = self.prefix + secrets.token_urlsafe(24)
        self._open[value] = Ticket(tool, args, state, owner, question, self._clock() + self.ttl)
        return value

    def take(self, value: str, owner: object) -> Ticket:
        """The ticket ``value`` names, removed (single use); ``Refused`` when it cannot be used."""
        self._sweep()
        ticket = self._open.pop(value, None) if isinstance(value, str) else None
        if ticket is None:
            closed = self._closed.get(value) if isinstance(value, str) else None
            if closed is not None:
                raise Refused(f"this {self.what} {closed[1]}")
            raise Refused(f"this {self.what} is not one this bridge issued (or it was dropped)")
        if ticket.owner is not owner:
            self._open[value] = ticket  # not the caller's to spend
            raise Refused(f"this {self.what} was issued to another client")
        self._close(value, ticket.expires + self.ttl, "was already used: each works once")
        return ticket

    def _close(self, value: str, forget: float, why: str) -> None:
        self._closed[value] = (forget, why)
        while len(self._closed) > 4 * self.limit:
            del self._closed[next(iter(self._closed))]

    def _sweep(self) -> None:
        now = self._clock()
        for value in [v for v, ticket in self._open.items() if ticket.expires <= now]:
            self._close(value, self._open.pop(value).expires + self.ttl, f"expired (each lasts {self.ttl:g} s)")
        for value in [v for v, (forget, _) in self._closed.items() if forget <= now]:
            del self._closed[value]
