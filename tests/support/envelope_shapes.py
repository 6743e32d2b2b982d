"""Every member a JSON-RPC message can carry, given every JSON type it may not have.

One table for the tests that send such messages (the unit test of ``envelope.check``, the
stdio and HTTP fuzz tests, the real-process tests): each member's place in a message, the
JSON types it may take, and what the bridge answers when it has another. ``cases()`` walks
every member x every wrong type x both eras with one value per type; ``mistyped()`` is the
hypothesis strategy that draws any value of a wrong type, so the fuzz tests keep meeting them.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from tests.support.bridge_process import MODERN_META

INVALID_REQUEST, INVALID_PARAMS = -32600, -32602
KINDS = ("null", "boolean", "integer", "number", "string", "array", "object")
# One value of each JSON type, for the exhaustive walk (a string that is not "2.0", for jsonrpc).
SAMPLES: dict[str, Any] = {"null": None, "boolean": True, "integer": 7, "number": 1.5, "string": "s",
                           "array": [], "object": {}}
_LEAF = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8)
_ANY = st.recursive(_LEAF, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=8)
STRATEGIES: dict[str, st.SearchStrategy[Any]] = {
    "null": st.none(),
    "boolean": st.booleans(),
    "integer": st.integers(),
    "number": st.floats(allow_nan=False, allow_infinity=False),  # 1.0 too: JSON reads it back as a fraction
    "string": st.text(max_size=12).filter(lambda t: t != "2.0"),
    "array": st.lists(_ANY, max_size=3),
    "object": st.dictionaries(st.text(max_size=6), _ANY, max_size=3),
}

REQUEST = {"jsonrpc": "2.0", "id": "x", "method": "ping", "params": {"_meta": {"progressToken": "t"}}}
NOTIFICATION = {"jsonrpc": "2.0", "method": "notifications/initialized", "params": {"_meta": {"progressToken": "t"}}}
RESULT = {"jsonrpc": "2.0", "id": "x", "result": {}}
ERROR = {"jsonrpc": "2.0", "id": "x", "error": {"code": 1, "message": "m"}}
_META = ("params", "_meta")


@dataclass(frozen=True)
class Member:
    """One member of one message shape, the JSON types it may take and the answer to any other.

    ``code`` None: the message is answered with nothing (a notification). ``echo_id`` False:
    the answer's id is null (the id itself was the problem, or there is none).
    """

    shape: str
    path: tuple[str, ...]
    valid: frozenset[str]
    code: int | None
    echo_id: bool = True

    @property
    def name(self) -> str:
        return f"{self.shape}:{'.'.join(self.path)}"


def _members(shape: str, meta_code: int | None, *, top_code: int | None) -> list[Member]:
    """jsonrpc, params, params._meta and its typed keys of a request (or notification)."""
    return [
        Member(shape, ("jsonrpc",), frozenset(), top_code),
        Member(shape, ("params",), frozenset({"object", "null"}), top_code),
        Member(shape, _META, frozenset({"object", "null"}), meta_code),
        Member(shape, (*_META, "progressToken"), frozenset({"string", "integer"}), meta_code),
        Member(shape, (*_META, "io.modelcontextprotocol/protocolVersion"), frozenset({"string"}), meta_code),
        Member(shape, (*_META, "io.modelcontextprotocol/clientCapabilities"), frozenset({"object"}), meta_code),
        Member(shape, (*_META, "io.modelcontextprotocol/clientInfo"), frozenset({"object"}), meta_code),
    ]


MEMBERS: list[Member] = [
    Member("request", ("id",), frozenset({"string", "integer"}), INVALID_REQUEST, echo_id=False),
    Member("request", ("method",), frozenset({"string"}), INVALID_REQUEST),
    *_members("request", INVALID_PARAMS, top_code=INVALID_REQUEST),
    # A notification is answered with nothing whatever is wrong inside it; without a string
    # method it is no notification, and JSON-RPC answers that -32600 with id null.
    Member("notification", ("method",), frozenset({"string"}), INVALID_REQUEST, echo_id=False),
    *_members("notification", None, top_code=None),
    Member("result", ("jsonrpc",), frozenset(), INVALID_REQUEST),
    Member("result", ("id",), frozenset({"string", "integer"}), INVALID_REQUEST, echo_id=False),
    Member("result", ("result",), frozenset({"object"}), INVALID_REQUEST),
    Member("error", ("jsonrpc",), frozenset(), INVALID_REQUEST),
    Member("error", ("id",), frozenset({"string", "integer", "null"}), INVALID_REQUEST, echo_id=False),
    Member("error", ("error",), frozenset({"object"}), INVALID_REQUEST),
    Member("error", ("error", "code"), frozenset({"integer"}), INVALID_REQUEST),
    Member("error", ("error", "message"), frozenset({"string"}), INVALID_REQUEST),
]
_BASES = {"request": REQUEST, "notification": NOTIFICATION, "result": RESULT, "error": ERROR}


def message(member: Member, value: Any, *, modern: bool, rid: Any = "x") -> dict[str, Any]:
    """The member's message shape (a 2026-07-28 one when ``modern``) with ``value`` at its place."""
    out = copy.deepcopy(_BASES[member.shape])
    if "id" in out:
        out["id"] = rid
    if modern and "method" in out:
        out["params"]["_meta"].update(MODERN_META)
    target = out
    for key in member.path[:-1]:
        target = target[key]
    target[member.path[-1]] = value
    return out


def wrong_kinds(member: Member) -> list[str]:
    return [kind for kind in KINDS if kind not in member.valid]


@dataclass(frozen=True)
class Case:
    member: Member
    kind: str
    modern: bool
    message: dict[str, Any]

    @property
    def name(self) -> str:
        return f"{'2026-07-28' if self.modern else 'handshake'}:{self.member.name}={self.kind}"

    @property
    def modern_body(self) -> bool:
        """Whether the body is a 2026-07-28 request by the era rule (its ``_meta`` names a version),
        which a handshake case whose member under test is that version is too."""
        params = self.message.get("params")
        meta = params.get("_meta") if isinstance(params, dict) else None
        return isinstance(meta, dict) and "io.modelcontextprotocol/protocolVersion" in meta

    def expected_id(self) -> Any:
        return self.message.get("id") if self.member.echo_id else None


def cases() -> Iterator[Case]:
    """Every member x every JSON type it may not have x both eras (responses have no era).

    Each message's id (where the id is not the member under test) is its case's name, so
    answers can be matched to cases on a connection that carries them all.
    """
    for member in MEMBERS:
        for modern in (False, True) if member.shape in ("request", "notification") else (False,):
            for kind in wrong_kinds(member):
                rid = f"{'2026-07-28' if modern else 'handshake'}:{member.name}={kind}"
                yield Case(member, kind, modern, message(member, SAMPLES[kind], modern=modern, rid=rid))


@st.composite
def mistyped(draw: st.DrawFn, rid: Any = "x", modern: bool | None = None) -> Case:
    """Any member, any value of any JSON type it may not have, either era."""
    member = draw(st.sampled_from(MEMBERS))
    kind = draw(st.sampled_from(wrong_kinds(member)))
    era = draw(st.booleans()) if modern is None else modern
    era = era and member.shape in ("request", "notification")
    return Case(member, kind, era, message(member, draw(STRATEGIES[kind]), modern=era, rid=rid))
