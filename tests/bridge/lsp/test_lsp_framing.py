"""Content-Length framing: byte lengths, arbitrary splits and coalescing."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from godot_bridge.lsp.framing import FrameDecoder, FramingError, encode

# JSON values that survive a round trip unchanged (no NaN; any Unicode text).
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
messages = st.lists(st.dictionaries(st.text(max_size=6), json_values, max_size=4), min_size=1, max_size=6)


def test_length_counts_utf8_bytes_not_characters() -> None:
    frame = encode({"t": "é😀"})
    header, _, body = frame.partition(b"\r\n\r\n")
    assert header == b"Content-Length: %d" % len(body)
    assert len(body) > len(json.dumps({"t": "é😀"}, ensure_ascii=False))  # multi-byte chars counted as bytes
    assert json.loads(body.decode("utf-8")) == {"t": "é😀"}


@settings(max_examples=150, deadline=None)
@given(msgs=messages, data=st.data())
def test_any_split_of_any_stream_decodes_to_the_same_messages(msgs: list[dict], data: st.DataObject) -> None:
    stream = b"".join(encode(m) for m in msgs)
    cuts = sorted(data.draw(st.sets(st.integers(0, len(stream)), max_size=12)))
    pieces = [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)])]
    decoder = FrameDecoder()
    out = [m for piece in pieces for m in decoder.feed(piece)]
    assert out == msgs
    assert decoder.pending_bytes == 0


@settings(max_examples=50, deadline=None)
@given(msgs=messages)
def test_byte_at_a_time_including_inside_multibyte_characters(msgs: list[dict]) -> None:
    stream = b"".join(encode(m) for m in msgs)
    decoder = FrameDecoder()
    out = [m for i in range(len(stream)) for m in decoder.feed(stream[i : i + 1])]
    assert out == msgs


def test_coalesced_messages_come_out_in_order() -> None:
    stream = encode({"id": 1}) + encode({"id": 2}) + encode({"id": 3})[:5]
    decoder = FrameDecoder()
    assert decoder.feed(stream) == [{"id": 1}, {"id": 2}]
    assert decoder.feed(encode({"id": 3})[5:]) == [{"id": 3}]


def test_extra_headers_and_header_case_are_accepted() -> None:
    body = b'{"a":1}'
    frame = b"content-type: application/vscode-jsonrpc; charset=utf-8\r\nCONTENT-LENGTH: 7\r\n\r\n" + body
    assert FrameDecoder().feed(frame) == [{"a": 1}]


def test_invalid_json_body_is_skipped_and_the_stream_stays_in_step() -> None:
    bad = b"Content-Length: 3\r\n\r\n{x}"
    assert FrameDecoder().feed(bad + encode({"ok": True})) == [{"ok": True}]


@pytest.mark.parametrize(
    "stream",
    [
        b"Content-Type: x\r\n\r\n{}",  # no length
        b"Content-Length: -4\r\n\r\n",  # not digits
        b"garbage without colon\r\n\r\n",
        b"X" * 9000,  # no header end in sight
    ],
)
def test_broken_headers_raise(stream: bytes) -> None:
    with pytest.raises(FramingError):
        FrameDecoder().feed(stream)


def test_oversized_body_is_refused_before_buffering_it() -> None:
    with pytest.raises(FramingError):
        FrameDecoder(max_body_bytes=10).feed(b"Content-Length: 11\r\n\r\n")
