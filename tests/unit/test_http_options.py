"""``--http`` flags, the bind/auth safety rule, and the pure transport rules."""

from __future__ import annotations

import logging
import subprocess
import sys

import pytest

from godot_bridge.cli import UsageError, parse_args
from godot_bridge.config import ConfigError
from godot_bridge.mcp.http import headers as rules
from godot_bridge.mcp.http.config import http_options


def test_http_flags_parse():
    args = parse_args(["--http", "--host", "::1", "--port=9000", "--no-auth"])
    assert args.switches == {"--http", "--no-auth"}
    assert args.values == {"--host": "::1", "--port": "9000"}


@pytest.mark.parametrize(("argv", "fragment"), [
    (["--port", "9000"], "--port needs --http"),
    (["--no-auth"], "--no-auth needs --http"),
    (["--http", "--port", "70000"], "invalid port"),
    (["--http", "--host"], "needs a value"),
])
def test_bad_http_flags(argv: list[str], fragment: str):
    with pytest.raises(UsageError, match=fragment):
        parse_args(argv)


def test_loopback_needs_no_token():
    options = http_options({}, False, {})
    assert (options.host, options.port, options.token) == ("127.0.0.1", 8765, None)


def test_token_and_origins_come_from_the_environment():
    env = {"GODOT_BRIDGE_HTTP_TOKEN": "abc", "MCP_ALLOWED_ORIGINS": "https://a.example, https://b.example/"}
    options = http_options({"--port": "9001"}, False, env)
    assert options.token == "abc" and options.port == 9001
    assert options.allowed_origins == {"https://a.example", "https://b.example"}


def test_non_loopback_bind_needs_a_token_or_an_explicit_no_auth(caplog: pytest.LogCaptureFixture):
    with pytest.raises(ConfigError, match="GODOT_BRIDGE_HTTP_TOKEN"):
        http_options({"--host": "0.0.0.0"}, False, {})
    assert http_options({"--host": "0.0.0.0"}, False, {"GODOT_BRIDGE_HTTP_TOKEN": "t"}).token == "t"
    with caplog.at_level(logging.WARNING):
        options = http_options({"--host": "192.168.1.5"}, True, {"GODOT_BRIDGE_HTTP_TOKEN": "t"})
    assert options.token is None and "--no-auth" in caplog.text


def test_cli_refuses_an_unsafe_bind_before_serving():
    env = {"PATH": "/usr/bin:/bin", "GODOT_BRIDGE_HTTP_TOKEN": ""}
    out = subprocess.run([sys.executable, "-m", "godot_bridge", "--http", "--host", "0.0.0.0"], capture_output=True,
                         text=True, timeout=30, stdin=subprocess.DEVNULL, env=env)
    assert out.returncode == 1 and "GODOT_BRIDGE_HTTP_TOKEN" in out.stderr and out.stdout == ""


@pytest.mark.parametrize(("origin", "allowed"), [
    (None, True), ("http://localhost", True), ("https://localhost:8443", True), ("http://127.0.0.1:3000", True),
    ("http://[::1]:3000", True), ("http://evil.example.com", False), ("http://localhost.evil.example", False),
    ("null", False), ("http://[bad", False), ("https://app.example.com/", True),
])
def test_origin_rule(origin: str | None, allowed: bool):
    assert rules.origin_allowed(origin, frozenset({"https://app.example.com"})) is allowed


@pytest.mark.parametrize(("host", "loopback"), [
    ("127.0.0.1", True), ("localhost", True), ("::1", True), ("[::1]", True), ("127.8.9.1", True),
    ("0.0.0.0", False), ("192.168.1.5", False), ("example.com", False),
])
def test_loopback_hosts(host: str, loopback: bool):
    assert rules.is_loopback_host(host) is loopback


def test_bearer_comparison():
    assert rules.bearer_ok("Bearer tok", "tok") and rules.bearer_ok("bearer  tok ", "tok")
    assert not rules.bearer_ok("Basic tok", "tok") and not rules.bearer_ok(None, "tok")
    assert not rules.bearer_ok("Bearer tok2", "tok")


@pytest.mark.parametrize(("raw", "decoded"), [
    ("plain", "plain"), ("=?base64?VHJvbXPDuA==?=", "Tromsø"), ("=?base64?SGVsbG8?=", None),
    ("=?base64?SGVs!!!bG8=?=", None), ("=?BASE64?SGVsbG8=?=", "=?BASE64?SGVsbG8=?="), ("=?base64?/w==?=", None),
    ("=?base64?" + "QUFB" * 2049 + "?=", None),
])
def test_header_value_decoding(raw: str, decoded: str | None):
    assert rules.decode_header_value(raw) == decoded


def test_content_negotiation():
    assert rules.is_json_content_type("application/json; charset=utf-8")
    assert not rules.is_json_content_type("text/json") and not rules.is_json_content_type(None)
    assert rules.accepts_sse("application/json, text/event-stream") and rules.accepts_sse("*/*")
    assert not rules.accepts_sse("application/json") and not rules.accepts_sse(None)


def test_status_table():
    assert [rules.error_status(code, True) for code in (-32700, -32600, -32601, -32602, -32603, -32020, -32022)] == \
        [400, 200, 404, 400, 200, 400, 400]
    assert {rules.error_status(code, False) for code in (-32601, -32602, -32603)} == {200}
