"""The stdio codec never lets hostile input or an unserializable answer end the process."""

from __future__ import annotations

import json

import pytest

from mcp_types import JSONRPCError, JSONRPCNotification, JSONRPCResponse

from godot_bridge.mcp.stdio.sdk_lines import MAX_DEPTH, classify_line, encode_message, too_deep



def answer_to(line: bytes) -> JSONRPCError | None:
    """The error the line is answered with (None: it is served, or dropped)."""
    return classify_line(line)[0]


def nest(depth: int) -> list:
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


def test_depth_is_measured_without_recursion() -> None:
    assert not too_deep(nest(MAX_DEPTH))
    assert too_deep(nest(MAX_DEPTH + 1))
    assert too_deep(nest(100_000))  # far past Python's recursion limit
    assert not too_deep({"a": [{"b": 1}] * 1000})  # wide is fine


def test_deep_request_is_invalid_params_with_its_id() -> None:
    line = json.dumps({"jsonrpc": "2.0", "id": "r1", "method": "tools/call", "params": {"x": nest(MAX_DEPTH)}})
    answer = answer_to(line.encode())
    assert isinstance(answer, JSONRPCError) and answer.id == "r1" and answer.error.code == -32602


def test_deep_response_is_invalid_request() -> None:
    line = json.dumps({"jsonrpc": "2.0", "id": 3, "result": {"x": nest(MAX_DEPTH)}})
    answer = answer_to(line.encode())
    assert isinstance(answer, JSONRPCError) and answer.id == 3 and answer.error.code == -32600


def nested_text(depth: int) -> str:
    return "[" * depth + "]" * depth


DEEP_CALL = '{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"discover_tools","arguments":{"a":%s}}}'


@pytest.mark.parametrize("depth", [990, 3000, 100_000])
@pytest.mark.parametrize("rid", ['"r-7"', "7"])
def test_beyond_the_parser_a_request_is_answered_with_its_id(depth: int, rid: str) -> None:
    """Python's parser gives up near 1000 levels; the request still gets its answer, with its id."""
    answer = answer_to((DEEP_CALL % (rid, nested_text(depth))).encode())
    assert isinstance(answer, JSONRPCError) and answer.id == json.loads(rid) and answer.error.code == -32602
    assert str(MAX_DEPTH) in answer.error.message


def test_beyond_the_parser_the_rest_is_answered_as_when_it_parses() -> None:
    deep = nested_text(3000)
    response = answer_to(('{"jsonrpc":"2.0","id":4,"result":{"a":%s}}' % deep).encode())
    assert isinstance(response, JSONRPCError) and response.id == 4 and response.error.code == -32600
    assert answer_to(('{"jsonrpc":"2.0","method":"notifications/x","params":{"a":%s}}' % deep).encode()) is None
    batch = answer_to(b"[" * 100_000 + b"]" * 100_000)
    assert isinstance(batch, JSONRPCError) and batch.id is None and batch.error.code == -32600
    for broken in (b"[" * 3000 + b"]" * 2999, (DEEP_CALL % ("5", deep)).encode()[:-1], b"[" * 3000 + b"x" + b"]" * 3000):
        answer = answer_to(broken)
        assert isinstance(answer, JSONRPCError) and answer.id is None and answer.error.code == -32700


@pytest.mark.parametrize("number", [b"1" * 5000, b"NaN", b"-Infinity"])
def test_numbers_python_refuses_are_parse_errors(number: bytes) -> None:
    line = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":' + number + b"}}"
    answer = answer_to(line)
    assert isinstance(answer, JSONRPCError) and answer.error.code == -32700


def test_lone_surrogate_is_written_escaped() -> None:
    line = encode_message(JSONRPCResponse(jsonrpc="2.0", id="\ud800", result={"name": "\udc00"}))
    assert line is not None and line.endswith(b"\n")
    assert json.loads(line) == {"jsonrpc": "2.0", "id": "\ud800", "result": {"name": "\udc00"}}
    assert b"\\ud800" in line and b"\\udc00" in line


def test_unserializable_answer_still_answers_its_request() -> None:
    line = encode_message(JSONRPCResponse(jsonrpc="2.0", id=5, result={"bad": object()}))
    assert line is not None
    assert json.loads(line) == {
        "jsonrpc": "2.0", "id": 5, "error": {"code": -32603, "message": "Internal error: the answer could not be serialized"},
    }


def test_unserializable_notification_is_dropped_not_raised() -> None:
    assert encode_message(JSONRPCNotification(jsonrpc="2.0", method="x", params={"bad": object()})) is None


def test_plain_messages_use_the_fast_path_unchanged() -> None:
    line = encode_message(JSONRPCResponse(jsonrpc="2.0", id=1, result={"é": 1}))
    assert line == '{"jsonrpc":"2.0","id":1,"result":{"é":1}}\n'.encode()


@pytest.mark.parametrize("result", ['"yes"', "[]", "7", "null"])
def test_a_malformed_answer_is_refused_and_stands_in_for_itself(result: str) -> None:
    """An answer to a question of ours whose result is no object: refused as before, and an error
    response with its id goes to whatever waits for it, so the question ends instead of waiting."""
    answer, stand_in = classify_line(('{"jsonrpc":"2.0","id":"q-1","result":%s}' % result).encode())
    assert isinstance(answer, JSONRPCError) and answer.id == "q-1" and answer.error.code == -32600
    assert stand_in is not None and isinstance(stand_in.message, JSONRPCError) and stand_in.message.id == "q-1"
    assert "could not be read" in stand_in.message.error.message
    assert classify_line(b'{"jsonrpc":"2.0","id":true,"result":"yes"}')[1] is None, "no id: nothing to settle"
