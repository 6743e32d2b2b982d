"""``envelope.check``: every member of every message shape, given every JSON type it may not have."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings

from godot_bridge.mcp.core.message_check import Dropped, Refused, check
from godot_bridge.mcp.core.json_input import decode_line
from tests.support.envelope_shapes import ERROR, NOTIFICATION, REQUEST, RESULT, Case, cases, message, mistyped

CASES = list(cases())


def expect(case: Case) -> None:
    """``check`` answers the case as the table says, naming the member that was wrong."""
    if case.member.code is None:
        with pytest.raises(Dropped):
            check(case.message)
        return
    with pytest.raises(Refused) as refused:
        check(case.message)
    assert (refused.value.code, refused.value.rid) == (case.member.code, case.expected_id())
    assert case.member.path[-1] in refused.value.message, refused.value.message
    if case.member.path != ("jsonrpc",) or case.kind != "string":  # "2.0" is a string too
        assert case.kind in refused.value.message  # and the JSON type it had


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_every_member_of_every_wrong_type(case: Case) -> None:
    expect(case)
    # The same through the stdio decoder (both stdio paths decode with it).
    line = json.dumps(case.message).encode()
    if case.member.code is None:
        with pytest.raises(Dropped):
            decode_line(line)
    else:
        with pytest.raises(Refused):
            decode_line(line)


@settings(max_examples=300, deadline=None)
@given(mistyped())
def test_any_value_of_a_wrong_type(case: Case) -> None:
    expect(case)


def test_the_table_covers_every_member_and_type() -> None:
    """Each member a message can carry, in both eras where it has one, with every JSON type."""
    members = {(case.member.shape, case.member.path[-1], case.modern) for case in CASES}
    for modern in (False, True):
        for member in ("id", "method", "jsonrpc", "params", "_meta", "progressToken", "io.modelcontextprotocol/protocolVersion",
                       "io.modelcontextprotocol/clientCapabilities", "io.modelcontextprotocol/clientInfo"):
            assert ("request", member, modern) in members
    for shape, member in (("result", "result"), ("error", "error"), ("error", "code"), ("error", "message"), ("result", "id")):
        assert (shape, member, False) in members
    assert {case.kind for case in CASES} == {"null", "boolean", "integer", "number", "string", "array", "object"}


@pytest.mark.parametrize("base", [REQUEST, NOTIFICATION, RESULT, ERROR, {**ERROR, "id": None}])
def test_well_typed_messages_pass(base: dict) -> None:
    check(base)


def test_well_typed_modern_request_passes() -> None:
    from tests.support.envelope_shapes import MEMBERS
    check(message(MEMBERS[1], "tools/list", modern=True))


@pytest.mark.parametrize("raw", [None, 1, "s", True, 1.5])
def test_a_message_that_is_no_object(raw: object) -> None:
    with pytest.raises(Refused) as refused:
        check(raw)
    assert refused.value.rid is None and refused.value.code == -32600 and "object" in refused.value.message


@pytest.mark.parametrize("raw", [{}, {"jsonrpc": "2.0"}, {"jsonrpc": "2.0", "id": 3}, {"jsonrpc": "2.0", "result": {}}])
def test_neither_request_nor_response(raw: dict) -> None:
    with pytest.raises(Refused) as refused:
        check(raw)
    assert refused.value.code == -32600 and refused.value.rid == raw.get("id")
