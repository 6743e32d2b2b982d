"""lsp_project_diagnostics: which files are walked, chunking/progress, counts, and limits."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from godot_bridge.lsp.client import LspTimeouts
from godot_bridge.lsp.scan import chunks, find_scripts

from .conftest import write
from tests.lsp.fake_server import FakeLspServer

QUICK = LspTimeouts(connect=2.0, request=2.0, diagnostics=0.3, probe=0.5)


def build_tree(root: Path) -> None:
    for rel in [
        "a.gd",
        "sub/b.gd",
        "sub/deep/c.gd",
        "UPPER.GD",
        "nested/addons/h.gd",  # only the top-level addons/ is opt-in
        ".hidden/d.gd",
        ".godot/e.gd",
        ".dot.gd",
        "ignored/f.gd",
        "ignored/inner/f2.gd",
        "addons/plug/g.gd",
        "notes.txt",
        "fx/glow.gdshader",
    ]:
        write(root, rel, "extends Node\n")
    write(root, "ignored/.gdignore", "")
    (root / "linked_dir").symlink_to(root / "sub", target_is_directory=True)
    (root / "linked.gd").symlink_to(root / "a.gd")


def test_walk_exclusions(project: Path) -> None:
    build_tree(project)
    assert find_scripts(project).scripts == [
        "res://UPPER.GD",
        "res://a.gd",
        "res://nested/addons/h.gd",
        "res://sub/b.gd",
        "res://sub/deep/c.gd",
    ]
    with_addons = find_scripts(project, include_addons=True).scripts
    assert "res://addons/plug/g.gd" in with_addons and len(with_addons) == 6


def test_unreadable_folder_is_reported(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(project, "locked/x.gd", "extends Node\n")
    write(project, "open/y.gd", "extends Node\n")
    real_scandir = os.scandir

    def scandir(path):  # permission bits do not stop root, so refuse the listing directly
        if Path(path).name == "locked":
            raise PermissionError(13, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr("godot_bridge.lsp.scan.os.scandir", scandir)
    walk = find_scripts(project)
    assert walk.unreadable_dirs == ["res://locked/"] and walk.scripts == ["res://open/y.gd"]


def test_chunks_of_twenty() -> None:
    assert [len(c) for c in chunks([str(i) for i in range(45)])] == [20, 20, 5]
    assert chunks([]) == []


def populate(project: Path) -> None:
    for i in range(40):
        write(project, f"clean/c{i:02}.gd", "extends Node\n")
    write(project, "bad/one.gd", "extends Node\nvar x = #ERR broken\n")
    write(project, "bad/two.gd", "#ERR first\n#ERR second\n#WARN meh\n")
    write(project, "warn/only.gd", "extends Node\nvar y #WARN unused y\n")
    write(project, "quiet/silent.gd", "extends Node\n")
    (project / "binary.gd").write_bytes(b"\xff\xfe not utf-8")
    write(project, "addons/plug/p.gd", "#ERR in an addon\n")
    write(project, ".godot/cache.gd", "#ERR never scanned\n")


async def test_scan_counts_progress_and_cleanup(project: Path, make_service) -> None:
    populate(project)
    progress: list[tuple[float, float | None, str | None]] = []

    async def record(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total, message))

    async with FakeLspServer(silent=("quiet/silent.gd",)) as fake:
        service = make_service(fake, timeouts=QUICK)
        # a document the user already has open stays open after the scan
        await service.handle("lsp_symbols", {"file_path": "res://bad/one.gd"})
        out = await service.handle("lsp_project_diagnostics", {}, progress=record)
        # 44 documents synced, one.gd was open before: 43 closes, sent after the last chunk
        await fake.wait_until(lambda: len(fake.messages("textDocument/didClose")) == 43)
        closed = {m["params"]["textDocument"]["uri"].rsplit("/", 1)[-1] for m in fake.messages("textDocument/didClose")}

    assert out == {
        "scanned": 43,  # 45 scripts - the silent one - the unreadable one
        "clean": 41,  # warn/only.gd counts as clean: its warnings are hidden (and counted below)
        "files_with_diagnostics": 2,
        "total_diagnostics": 3,
        "errors": 3,
        "warnings_hidden": 2,
        "files": {
            "res://bad/two.gd": [
                {"line": 1, "column": 1, "severity": "error", "message": "first"},
                {"line": 2, "column": 1, "severity": "error", "message": "second"},
            ],
            "res://bad/one.gd": [{"line": 2, "column": 9, "severity": "error", "message": "broken"}],
        },
        "timed_out": ["res://quiet/silent.gd"],
        "read_failed": ["res://binary.gd"],
    }
    # A first 0/N at the start: a short scan must not report only with its result.
    assert [(d, t) for d, t, _ in progress] == [(0, 45), (20, 45), (40, 45), (45, 45)]
    assert progress[-1][2] == "checked 45/45 scripts"
    assert "one.gd" not in closed and {"two.gd", "only.gd", "c00.gd"} <= closed


async def test_scan_with_warnings_and_addons(project: Path, fake: FakeLspServer, make_service) -> None:
    populate(project)
    (project / "binary.gd").unlink()
    (project / "quiet" / "silent.gd").unlink()
    out = await make_service(fake).handle("lsp_project_diagnostics", {"include_warnings": True, "include_addons": True})
    assert (out["scanned"], out["clean"], out["files_with_diagnostics"]) == (44, 40, 4)
    assert (out["total_diagnostics"], out["errors"], out["warnings"]) == (6, 4, 2)
    assert "warnings_hidden" not in out and "timed_out" not in out and "read_failed" not in out
    # most errors first: bad/two.gd (2), then the one-error files by path, then warning-only
    assert list(out["files"]) == ["res://bad/two.gd", "res://addons/plug/p.gd", "res://bad/one.gd", "res://warn/only.gd"]


async def test_scan_stops_when_a_whole_chunk_gets_no_answer(project: Path, make_service) -> None:
    for i in range(25):
        write(project, f"s{i:02}.gd", "extends Node\n")
    calls = []

    async def record(done: float, total: float | None, message: str | None) -> None:
        calls.append(done)

    async with FakeLspServer(silent=(".gd",)) as fake:
        out = await make_service(fake, timeouts=QUICK).handle("lsp_project_diagnostics", {}, progress=record)
        assert len(fake.messages("textDocument/didOpen")) == 20  # the second chunk was never sent
    assert out["scanned"] == 0 and len(out["timed_out"]) == 20 and out["not_scanned"] == 5
    assert "ended early" in out["note"] and calls == [0, 20]


async def test_scan_output_is_bounded(project: Path, fake: FakeLspServer, make_service) -> None:
    for i in range(60):
        write(project, f"e{i:02}.gd", "".join(f"#ERR e{n}\n" for n in range(12)))
    out = await make_service(fake).handle("lsp_project_diagnostics", {})
    assert out["files_with_diagnostics"] == 60 and out["total_diagnostics"] == 720
    assert len(out["files"]) == 50 and all(len(v) == 10 for v in out["files"].values())
    assert out["truncated"] is True


async def test_empty_project(project: Path, fake: FakeLspServer, make_service) -> None:
    out = await make_service(fake).handle("lsp_project_diagnostics", {})
    assert out == {"scanned": 0, "clean": 0, "files_with_diagnostics": 0, "total_diagnostics": 0, "errors": 0, "files": {}}
    assert fake.connections == 1  # still checks the server is there
