"""Start-up imports: the SDK's package __init__ files wait until something needs them."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from godot_bridge.mcp.core.event_loop import backend_options, uvloop_wanted

# Pulled in only by mcp/__init__.py and mcp/server/__init__.py; the stdio server needs none of them.
CLIENT_SIDE = ("mcp.client", "mcp.server.mcpserver", "httpx2", "cryptography")


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_serving_modules_leave_the_client_side_unimported() -> None:
    out = _run(f"""
        import sys
        import godot_bridge.app, godot_bridge.mcp.core.sdk_server, godot_bridge.mcp.stdio.sdk_dispatch
        print(",".join(m for m in {CLIENT_SIDE!r} if m in sys.modules) or "none")
    """)
    assert out == "none"


def test_the_deferred_packages_complete_on_first_use() -> None:
    out = _run("""
        import godot_bridge.mcp.core.sdk_server
        from mcp import Client, ClientSession
        from mcp.server import MCPServer, Server
        import mcp
        print(Client.__module__, ClientSession.__module__, MCPServer.__name__, mcp.Client is Client)
    """)
    assert out == "mcp.client.client mcp.client.session MCPServer True"


def test_an_sdk_loaded_first_is_left_alone() -> None:
    out = _run("""
        import mcp
        before = mcp.__dict__.get("Client")
        import godot_bridge.mcp.core.sdk_server
        import sys
        print(before is not None, sys.modules["mcp"] is mcp, "__getattr__" in mcp.__dict__)
    """)
    assert out == "True True False"


def test_uvloop_can_be_turned_off_and_is_never_used_on_windows(monkeypatch) -> None:
    assert backend_options({"GODOT_BRIDGE_UVLOOP": "0"}) == {}
    assert not uvloop_wanted({"GODOT_BRIDGE_UVLOOP": "off"})
    monkeypatch.setattr(sys, "platform", "win32")
    assert backend_options({}) == {}


def test_uvloop_is_used_where_installed(monkeypatch) -> None:
    import pytest

    pytest.importorskip("uvloop")
    monkeypatch.setattr(sys, "platform", "linux")
    assert backend_options({}) == {"use_uvloop": True}
