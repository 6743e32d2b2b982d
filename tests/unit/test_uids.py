"""uid:// paths resolved from a project's files, as the editor's ResourceUID resolves them."""

from __future__ import annotations

import shutil
import struct
from pathlib import Path

import pytest

from godot_bridge.godot_files import uids

PROJECTS = Path(__file__).resolve().parents[1] / "fixtures" / "projects"


@pytest.mark.parametrize(("text", "number"), [
    # What ResourceUID.text_to_id answers in the Godot 4.6 engine for these.
    ("uid://ep13situ5bnn", 313350643574209755),
    ("uid://cq21llpooglf1", 5953199952083187328),
    ("uid://dsqn0vre7npvu", 8456526375859490498),
    ("uid://b", 1),
])
def test_uid_text_and_id_as_the_engine_computes_them(text: str, number: int):
    assert uids.text_to_id(text) == number
    assert uids.id_to_text(number) == text


def test_the_engines_own_text_for_an_id():
    assert uids.id_to_text(1234567890123) == "uid://xrf6og40"  # ResourceUID.id_to_text in the engine


@pytest.mark.parametrize("bad", ["uid://", "uid://<invalid>", "uid://ABC", "res://a.tscn", "uid://a b"])
def test_malformed_uids(bad: str):
    assert uids.text_to_id(bad) is None and not uids.is_uid(bad)


@pytest.fixture
def chat(tmp_path: Path) -> Path:
    project = tmp_path / "websocket_chat"
    shutil.copytree(PROJECTS / "websocket_chat", project)
    return project


def test_resolved_from_headers_and_sidecars(chat: Path):
    assert uids.resolve(chat, "uid://ep13situ5bnn") == "res://chat.tscn"  # the scene's own header
    assert uids.resolve(chat, "uid://dce7t2hll3hg") == "res://client.gd"  # client.gd.uid (Godot 4.4+)
    assert uids.resolve(chat, "uid://cq21llpooglf1") == "res://websocket/WebSocketClient.gd"
    assert uids.resolve(chat, "uid://nosuchfile") is None
    assert uids.uid_of(chat, "res://chat.tscn") == "uid://ep13situ5bnn"
    assert uids.uid_of(chat, "res://client.gd") == "uid://dce7t2hll3hg"
    assert uids.uid_of(chat, "res://project.godot") is None


def test_an_imported_files_uid_is_in_its_import_file(chat: Path):
    (chat / "icon.png").write_bytes(b"\x89PNG")
    (chat / "icon.png.import").write_text('[remap]\n\nimporter="texture"\ntype="CompressedTexture2D"\n'
                                          'uid="uid://bvx1s2t3"\npath="res://.godot/imported/icon.ctex"\n')
    assert uids.resolve(chat, "uid://bvx1s2t3") == "res://icon.png"
    assert uids.uid_of(chat, "res://icon.png") == "uid://bvx1s2t3"


def _cache(project: Path, table: dict[str, str]) -> None:
    data = struct.pack("<I", len(table))
    for text, path in table.items():
        encoded = path.encode("utf-8")
        data += struct.pack("<qI", uids.text_to_id(text), len(encoded)) + encoded
    (project / ".godot").mkdir(exist_ok=True)
    (project / ".godot" / "uid_cache.bin").write_bytes(data)


def test_the_editors_table_first_when_its_file_is_there(chat: Path):
    (chat / "moved").mkdir()
    (chat / "chat.tscn").rename(chat / "moved" / "chat.tscn")
    _cache(chat, {"uid://ep13situ5bnn": "res://moved/chat.tscn", "uid://dce7t2hll3hg": "res://gone.gd"})
    assert uids.resolve(chat, "uid://ep13situ5bnn") == "res://moved/chat.tscn"
    # A stale entry (its file is gone) is not trusted: the files say where it is.
    assert uids.resolve(chat, "uid://dce7t2hll3hg") == "res://client.gd"


def test_hidden_and_ignored_folders_are_not_the_projects(chat: Path):
    for folder in (".trash", "ignored"):
        (chat / folder).mkdir()
        (chat / folder / "x.gd").write_text("extends Node\n")
        (chat / folder / "x.gd.uid").write_text(f"uid://{'h' if folder.startswith('.') else 'i'}id\n")
    (chat / "ignored" / ".gdignore").write_text("")
    assert uids.resolve(chat, "uid://hid") is None and uids.resolve(chat, "uid://iid") is None
