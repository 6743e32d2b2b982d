"""asset_import's source_path: copying a file from outside the project reads it, so the person is asked
first, and a file in a hidden folder (a key under ~/.ssh) is never copied, however the call comes.

The app is the real one (validation, the path guard, the consent gate, jobs, routing) over an editor
that records what reached it (tests/unit/test_consent.py): ``asset.inspect_source``, the toolkit's
read of what a copy would take, answers as the toolkit does (tests/godot/test_asset_commands.gd runs
the real one; tests/engine/e2e/test_asset_import_source.py both together).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from godot_bridge.consent.caller import Caller
from godot_bridge.consent.question import Answer
from tests.unit.test_consent import Person, Recorder, call, make_app

INSPECT = "asset.inspect_source"
PNG_FACTS = {"success": True, "bytes": 2145, "sha256": "ab" * 32, "format": "PNG image"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "project.godot").write_text("config_version=5\n")
    return folder


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A home folder outside the project: a private key under .ssh, a picture under art/."""
    (tmp_path / "home" / ".ssh").mkdir(parents=True)
    (tmp_path / "home" / ".ssh" / "id_rsa").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    (tmp_path / "home" / "art").mkdir()
    (tmp_path / "home" / "art" / "hero.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    return tmp_path / "home"


def inspected(editor: Recorder, reply: dict[str, Any] | None = None) -> None:
    editor.replies[INSPECT] = lambda params: {**(reply or PNG_FACTS), "source_path": params["source_path"]}


def every_way(args: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The same call directly, through call_tool, and as a background job."""
    return [("asset_import", args), ("call_tool", {"name": "asset_import", "arguments": args}),
            ("asset_import", {**args, "background": True})]


async def test_a_file_in_a_hidden_folder_is_refused_however_it_is_called(project: Path, home: Path) -> None:
    app, editor = make_app(project, confirm="never", allow_unasked=frozenset({"asset_import"}))
    tools = app.tool_list()
    key = str(home / ".ssh" / "id_rsa")
    for dest in ("res://id_rsa.txt", "res://id_rsa.png", "res://icon.svg"):
        for name, args in every_way({"source_path": key, "dest_path": dest}):
            refused = await call(app, name, args, Caller(owner=object()), tools)
            assert refused["_is_error"] and refused["code"] == "PATH_DENIED", (name, refused)
            assert "hidden folder or is a hidden file (.ssh)" in refused["error"]
    assert editor.forwarded == [] and editor.reads == [] and app.jobs.list(tools.owner) == []
    await app.aclose()


async def test_a_link_into_a_hidden_folder_is_refused_too(project: Path, home: Path) -> None:
    link = home / "art" / "innocent.png"
    os.symlink(home / ".ssh" / "id_rsa", link)
    app, editor = make_app(project, confirm="never")
    refused = await call(app, "asset_import", {"source_path": str(link), "dest_path": "res://innocent.png"})
    assert refused["code"] == "PATH_DENIED" and "(.ssh) through a symbolic link" in refused["error"]
    assert editor.forwarded == []


async def test_a_file_from_outside_the_project_is_copied_only_on_the_persons_yes(project: Path, home: Path) -> None:
    app, editor = make_app(project)
    inspected(editor)
    tools = app.tool_list()
    hero = str(home / "art" / "hero.png")
    args = {"source_path": hero, "dest_path": "res://hero.png"}
    for name, sent in every_way(args):
        person = Person(Answer.DECLINE)
        declined = await call(app, name, sent, Caller(owner=object(), asker=person), tools)
        assert declined["status"] == "declined" and editor.forwarded == [], name
        question = person.asked[0]
        assert question.does == f"Copy {hero}, a file from outside the project, to res://hero.png"
        assert question.facts == [f"{hero}: 2.1 KiB, PNG image"], "what is copied, as the toolkit read it"
        assert "Reading a file from outside the project cannot be taken back" in question.message()
    assert app.jobs.list(tools.owner) == [], "no job before a yes"
    assert all(method == INSPECT and params == args for method, params in editor.reads)
    yes = Person(Answer.ACCEPT)
    ran = await call(app, "call_tool", {"name": "asset_import", "arguments": args}, Caller(owner=object(), asker=yes),
                     tools)
    assert ran["ran"] == "asset_import" and editor.forwarded == [("asset_import", args)] and len(yes.asked) == 1
    await app.aclose()


async def test_a_client_that_cannot_ask_gets_the_preview_and_a_token(project: Path, home: Path) -> None:
    app, editor = make_app(project)
    inspected(editor)
    me = Caller(owner=object())
    args = {"source_path": str(home / "art" / "hero.png"), "dest_path": "res://hero.png"}
    preview = await call(app, "asset_import", args, me)
    assert preview["status"] == "confirmation_required" and editor.forwarded == []
    ran = await call(app, "asset_import", {**args, "confirmation_token": preview["confirmation_token"]}, me)
    assert ran["ran"] == "asset_import"


async def test_what_the_toolkit_would_refuse_is_refused_before_anyone_is_asked(project: Path, home: Path) -> None:
    app, editor = make_app(project)
    inspected(editor, {"success": False, "code": "INVALID_PARAMS", "hint": "Name it with the asset's extension.",
                       "error": "key.txt: a file from disk is copied only as an asset whose bytes can be checked"})
    person = Person(Answer.ACCEPT)
    args = {"source_path": str(home / "art" / "hero.png"), "dest_path": "res://key.txt"}
    refused = await call(app, "asset_import", args, Caller(owner=object(), asker=person))
    assert refused["_is_error"] and refused["code"] == "INVALID_PARAMS" and "nothing was asked or done" in \
        refused["error"] and refused["hint"] == "Name it with the asset's extension."
    assert person.asked == [] and editor.forwarded == []


async def test_a_copy_from_inside_the_project_or_of_bytes_given_asks_nobody(project: Path, home: Path) -> None:
    (project / "art").mkdir()
    (project / "art" / "hero.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    app, editor = make_app(project)
    person = Person()
    me = Caller(owner=object(), asker=person)
    inside = {"source_path": str(project / "art" / "hero.png"), "dest_path": "res://copy.png"}
    given = {"base64_data": "iVBORw0KGgo=", "dest_path": "res://given.png"}
    for args in (inside, given):
        assert (await call(app, "asset_import", args, me))["ran"] == "asset_import"
    assert person.asked == [] and editor.reads == []
    # A link in the project to a file outside is outside.
    os.symlink(home / "art" / "hero.png", project / "art" / "linked.png")
    inspected(editor)
    linked = {"source_path": str(project / "art" / "linked.png"), "dest_path": "res://linked.png"}
    assert (await call(app, "asset_import", linked, Caller(owner=object())))["status"] == "confirmation_required"


def test_the_docs_say_asset_import_asks(project: Path) -> None:
    asking = (Path(__file__).resolve().parents[2] / "docs" / "asking.md").read_text(encoding="utf-8")
    row = next(line for line in asking.splitlines() if line.startswith("| `asset_import`"))
    assert "outside the project" in row and "hidden" in row
