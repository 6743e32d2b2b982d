"""docs/tools.md is generated (scripts/gen_tools_doc.py) and must match its sources."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

import gen_tools_doc  # noqa: E402


def test_docs_tools_md_is_up_to_date() -> None:
    result = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "gen_tools_doc.py"), "--check"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert result.returncode == 0, result.stderr


def test_returns_come_from_examples_and_errors_from_the_handler(tmp_path: Path) -> None:
    shutil.copytree(REPO / "catalogue", tmp_path / "catalogue")
    tk = tmp_path / "addons" / "godot_mcp_toolkit"
    (tk / "contract").mkdir(parents=True)
    shutil.copy(REPO / "addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd", tk / "contract")
    (tk / "commands").mkdir()
    (tk / "commands" / "folder_commands.gd").write_text(
        'static func register(r, c) -> void:\n'
        '\tr.register_command("folder.create", Callable(load("res://f.gd"), "_cmd_create").bind(c))\n\n\n'
        'static func _cmd_create(params: Dictionary, c) -> Dictionary:\n'
        '\tif params.get("path", "") == "":\n\t\treturn ToolkitError.fail("INVALID_PARAMS", "path")\n'
        '\treturn _make(params)\n\n\n'
        'static func _make(params: Dictionary) -> Dictionary:\n'
        '\treturn ToolkitError.fail("ACCESS_DENIED", "x") if params.has("x") else {}\n',
        encoding="utf-8",
    )
    results = tmp_path / "tests/fixtures/toolkit/results"
    results.mkdir(parents=True)
    (results / "folder.json").write_text(json.dumps({"folder.create": [
        {"params": {"path": "res://a"}, "result": {"success": True, "path": "res://a", "status": "created"}},
    ]}))
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "gd_drift_pending.txt").write_text("scene.open\n")
    text = gen_tools_doc.render(tmp_path)
    section = text.split("### `folder_create`", 1)[1].split("### ", 1)[0]
    assert "**Returns:** `success: true` with `path`, `status`." in section
    assert "**Errors:** `ACCESS_DENIED`, `INVALID_PARAMS`" in section
    scene_open = text.split("### `scene_open`", 1)[1].split("### ", 1)[0]
    assert "Not implemented by this toolkit yet" in scene_open
