"""Asking the person first (godot_bridge/consent/): which calls ask, and that nothing runs without a yes.

The whole call path of the app (validate, the consent gate, route) over an editor that records what
reaches it: every way of asking (an asker that waits, 2026-07-28 input_required, a token), every way
an answer can be no good (declined, cancelled, replayed, expired, another client's, for other
arguments, the target changed since), and the policy. The real clients meet the same gate in
tests/bridge/test_consent_clients.py.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from godot_bridge.app import BridgeApp
from godot_bridge.config import ConfigError, Settings
from godot_bridge.consent.caller import INPUT_KEY, Caller, InputRequired, InvalidAnswer, can_elicit_form
from godot_bridge.consent.gate import ConsentGate
from godot_bridge.consent.policy import CONSENT_PARAMS, UNDO_BUDGET_BYTES, Policy
from godot_bridge.consent.question import FIELD, Answer, Question, UnusableAnswer, parse_answer
from godot_bridge.consent.tickets import Refused, Tickets
from godot_bridge.errors import ToolError
from godot_bridge.tools import results
from godot_bridge.tools.catalogue import load_catalogue
from godot_bridge.tools.surface import ToolList

REPO = Path(__file__).resolve().parents[2]
ACCEPT = {"action": "accept", "content": {FIELD: True}}

# Reviewed one by one against what the toolkit really does (README "Asking before" says why each asks).
ASKING = {
    "asset_import", "checkpoint_restore", "editor_restart", "editor_screenshot", "execute_code", "file_delete",
    "folder_delete", "node_call_method", "resource_delete", "runtime_screenshot", "save_delete", "save_write",
    "scene_close", "scene_create", "scene_delete", "script_delete", "signal_emit", "sound_generate", "texture_generate",
}


class Recorder:
    """What reached the editor: forwarded calls, and the reads the gate made."""

    def __init__(self) -> None:
        self.forwarded: list[tuple[str, dict[str, Any]]] = []
        self.reads: list[tuple[str, dict[str, Any]]] = []
        self.replies: dict[str, Any] = {}
        self.unreachable: dict[str, Exception] = {}  # channel -> what connecting to it raises
        self.reached: list[str] = []

    async def ready(self, tool: Any, args: dict[str, Any]) -> None:
        channel = args.get("channel", tool.channel) if "channel_arg" in tool.handling else tool.channel
        self.reached.append(channel)
        if channel in self.unreachable:
            raise self.unreachable[channel]

    async def forward(self, tool: Any, args: dict[str, Any], progress: Any = None) -> Any:
        self.forwarded.append((tool.name, args))
        return results.success({"ran": tool.name})

    async def call(self, method: str, params: dict[str, Any] | None = None, **_: Any) -> Any:
        self.reads.append((method, dict(params or {})))
        reply = self.replies.get(method, {"success": True})
        if isinstance(reply, Exception):
            raise reply
        return reply(params) if callable(reply) else reply


class Clock:
    """The consent gate's clock in these tests: time passes only when a person reads (``advance``)."""

    def __init__(self) -> None:
        self.seconds = 1000.0

    def now(self) -> float:
        return self.seconds

    def advance(self, seconds: float) -> None:
        self.seconds += seconds


CLOCK = Clock()
# How long a person takes to read a question and answer it; a client answering by itself takes 0.
READS_S = 4.0


class Person:
    """An asker that answers as scripted, ``takes`` seconds each, and remembers what it was asked."""

    def __init__(self, *answers: Answer, before: Any = None, takes: float = READS_S) -> None:
        self.answers = list(answers)
        self.asked: list[Question] = []
        self.before = before  # run before answering (the target changes while the person reads)
        self.takes = takes

    async def ask(self, question: Question) -> Answer:
        self.asked.append(question)
        if self.before is not None:
            self.before()
        CLOCK.advance(self.takes)
        return self.answers.pop(0)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "project.godot").write_text("config_version=5\n")
    return tmp_path


def make_app(project: Path, **settings: Any) -> tuple[BridgeApp, Recorder]:
    app = BridgeApp(Settings(project_path=project, **settings))
    recorder = Recorder()
    app.editor.forward = recorder.forward  # type: ignore[method-assign]
    app.editor.call = recorder.call  # type: ignore[method-assign]
    app.editor.ready = recorder.ready  # type: ignore[method-assign]
    app.consent.clock = CLOCK.now
    return app, recorder


async def call(app: BridgeApp, name: str, args: dict[str, Any], caller: Caller | None = None,
               tools: ToolList | None = None) -> dict[str, Any]:
    """One call; ``tools``: the client's list (its jobs are its own), else a fresh one with every group."""
    if tools is None:
        tools = app.tool_list()
        tools.activate(tools.group_names())
    outcome = await app.call_tool(name, args, tools, None, caller)
    body: dict[str, Any] = json.loads(outcome.content[0]["text"])
    body["_is_error"] = outcome.is_error
    return body


def big_file(path: Path, size: int = UNDO_BUDGET_BYTES + 1) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        handle.truncate(size)  # sparse: no time spent writing it
    return path


# -- the catalogue's list -------------------------------------------------------------------------


def test_the_tools_that_ask_are_the_reviewed_list() -> None:
    catalogue = load_catalogue()
    assert {t.name for t in catalogue.tools.values() if t.asks} == ASKING
    for name in ASKING:
        asks = catalogue.tools[name].asks
        assert asks is not None and asks.because.endswith(".") and "{" not in asks.because, name


def test_the_undo_budget_is_the_toolkits() -> None:
    source = (REPO / "addons/godot_mcp_toolkit/commands/filesystem/file_removal.gd").read_text()
    match = re.search(r"const UNDO_BYTES_LIMIT := (\d+) \* (\d+) \* (\d+)", source)
    assert match is not None
    assert UNDO_BUDGET_BYTES == int(match[1]) * int(match[2]) * int(match[3])


def test_policies_decide_what_may_ask_and_what_is_offered() -> None:
    tools = load_catalogue().tools
    irreversible, always, never = Policy("irreversible"), Policy("always"), Policy("never")
    assert irreversible.may_ask(tools["execute_code"]) and not irreversible.may_ask(tools["node_set_property"])
    assert always.may_ask(tools["node_set_property"]) and not always.may_ask(tools["scene_get_tree"])
    assert not never.may_ask(tools["execute_code"])
    assert not irreversible.may_ask(tools["discover_tools"])
    ext = tools["node_set_property"].__class__(name="x_wipe", method="x.wipe", channel="editor", description="d",
                                              annotations={"destructiveHint": True}, input_schema={"type": "object",
                                                                                                   "properties": {}})
    assert irreversible.may_ask(ext, extension=True) and not irreversible.may_ask(ext)


def test_a_tool_that_may_ask_is_offered_dry_run_and_token(project: Path) -> None:
    app, _ = make_app(project)
    tools = app.tool_list()
    tools.activate(tools.group_names())
    listed = {t["name"]: t["inputSchema"]["properties"] for t in app.tools(tools)}
    assert all(set(CONSENT_PARAMS) <= set(listed[name]) for name in ASKING if name in listed)
    assert not set(CONSENT_PARAMS) & set(listed["node_set_property"])
    never, _ = make_app(project, confirm="never")
    tools = never.tool_list()
    assert not set(CONSENT_PARAMS) & set({t["name"]: t for t in never.tools(tools)}["execute_code"]["inputSchema"]
                                         ["properties"])


def test_form_elicitation_is_read_from_the_declared_capabilities() -> None:
    assert can_elicit_form({"elicitation": {}}) and can_elicit_form({"elicitation": {"form": {}, "url": {}}})
    assert not can_elicit_form({"elicitation": {"url": {}}}) and not can_elicit_form({"sampling": {}})
    assert not can_elicit_form(None)


def test_only_an_accepted_form_that_says_allow_is_a_yes() -> None:
    assert parse_answer(ACCEPT) is Answer.ACCEPT
    assert parse_answer({"action": "accept", "content": {FIELD: False}}) is Answer.DECLINE
    assert parse_answer({"action": "accept"}) is Answer.DECLINE
    assert parse_answer({"action": "accept", "content": {}}) is Answer.DECLINE, "the box left unticked"
    assert parse_answer({"action": "decline"}) is Answer.DECLINE
    assert parse_answer({"action": "cancel"}) is Answer.CANCEL


@pytest.mark.parametrize(("sent", "why"), [
    ("yes", 'the answer is "yes", not an object'), ({}, "its action is null"), ([ACCEPT], "the answer is an array"),
    ({"action": "ACCEPT"}, 'its action is "ACCEPT", not "accept"'), ({"action": "accept", "content": "yes"},
                                                                    'its content is "yes", not an object'),
    ({"action": "accept", "content": {FIELD: "true"}}, f'its "{FIELD}" is "true", not true or false'),
])
def test_an_answer_that_is_none_of_the_three_is_unusable(sent: Any, why: str) -> None:
    with pytest.raises(UnusableAnswer) as unusable:
        parse_answer(sent)
    assert why in unusable.value.why


def test_the_form_asks_for_one_boolean_and_says_what_and_why(project: Path) -> None:
    question = Question("file_delete", "Delete res://big.bin", "Too large for undo.", ["res://big.bin: 40.0 MiB"])
    form = question.form()
    assert form["mode"] == "form" and list(form["requestedSchema"]["properties"]) == [FIELD]
    assert form["requestedSchema"]["properties"][FIELD]["type"] == "boolean"
    for part in ("Delete res://big.bin", "file_delete", "40.0 MiB", "Too large for undo.", "Allow it?"):
        assert part in form["message"]


# -- tickets --------------------------------------------------------------------------------------


def test_a_ticket_works_once_for_its_owner_until_it_expires() -> None:
    now = [0.0]
    tickets = Tickets("token", prefix="t_", ttl=10, clock=lambda: now[0])
    me, other = object(), object()
    question = Question("x", "do", "why")
    value = tickets.issue("x", "args", "state", me, question)
    with pytest.raises(Refused, match="another client"):
        tickets.take(value, other)
    assert tickets.take(value, me).state == "state"
    with pytest.raises(Refused, match="already used"):
        tickets.take(value, me)
    late = tickets.issue("x", "args", "state", me, question)
    now[0] = 11
    with pytest.raises(Refused, match="expired"):
        tickets.take(late, me)
    with pytest.raises(Refused, match="not one this bridge issued"):
        tickets.take("t_made_up", me)


# -- the token path (a client that cannot ask) -----------------------------------------------------


async def test_token_previews_then_runs_only_with_its_token(project: Path) -> None:
    app, editor = make_app(project)
    me = Caller(owner=object())
    preview = await call(app, "execute_code", {"code": "1+1", "channel": "editor"}, me)
    assert preview["status"] == "confirmation_required" and preview["done"] is False and not preview["_is_error"]
    assert "1+1" in preview["question"] and editor.forwarded == []
    assert "GODOT_MCP_ALLOW_UNASKED=execute_code" in preview["message"], "how a run with nobody to ask gets it"
    token = preview["confirmation_token"]
    ran = await call(app, "execute_code", {"code": "1+1", "channel": "editor", "confirmation_token": token}, me)
    assert ran == {"ran": "execute_code", "_is_error": False}
    assert editor.forwarded == [("execute_code", {"code": "1+1", "channel": "editor"})], "the token never reaches Godot"
    replay = await call(app, "execute_code", {"code": "1+1", "channel": "editor", "confirmation_token": token}, me)
    assert replay["code"] == "CONFIRMATION_REFUSED" and "already used" in replay["error"] and len(editor.forwarded) == 1


async def test_token_for_other_arguments_or_another_client_does_not_run(project: Path) -> None:
    app, editor = make_app(project)
    me = Caller(owner=object())
    token = (await call(app, "execute_code", {"code": "1+1"}, me))["confirmation_token"]
    other = await call(app, "execute_code", {"code": "quit()", "confirmation_token": token}, me)
    assert other["status"] == "confirmation_required" and "arguments differ" in other["asked_again_because"]
    assert "quit()" in other["question"]
    stolen = (await call(app, "execute_code", {"code": "1+1"}, me))["confirmation_token"]
    elsewhere = await call(app, "execute_code", {"code": "1+1", "confirmation_token": stolen}, Caller(owner=object()))
    assert elsewhere["code"] == "CONFIRMATION_REFUSED" and "another client" in elsewhere["error"]
    forged = await call(app, "execute_code", {"code": "1+1", "confirmation_token": "ct_forged"}, me)
    assert forged["code"] == "CONFIRMATION_REFUSED"
    assert editor.forwarded == []


async def test_an_expired_token_is_refused(project: Path) -> None:
    app, editor = make_app(project)
    now = [0.0]
    app.consent.tokens = Tickets("confirmation_token", prefix="ct_", ttl=300, clock=lambda: now[0])
    me = Caller(owner=object())
    token = (await call(app, "execute_code", {"code": "1"}, me))["confirmation_token"]
    now[0] = 301
    late = await call(app, "execute_code", {"code": "1", "confirmation_token": token}, me)
    assert late["code"] == "CONFIRMATION_REFUSED" and "expired" in late["error"] and editor.forwarded == []


async def test_a_target_changed_since_the_preview_asks_again(project: Path) -> None:
    app, editor = make_app(project)
    me = Caller(owner=object())
    target = big_file(project / "art" / "huge.bin")
    preview = await call(app, "file_delete", {"file_path": "res://art/huge.bin"}, me)
    assert preview["status"] == "confirmation_required" and any("32.0 MiB" in fact for fact in preview["target"])
    with target.open("r+b") as handle:
        handle.write(b"edited by hand")
    again = await call(app, "file_delete", {"file_path": "res://art/huge.bin", "confirmation_token":
                                            preview["confirmation_token"]}, me)
    assert again["status"] == "confirmation_required" and "changed" in again["asked_again_because"]
    assert editor.forwarded == []
    ran = await call(app, "file_delete", {"file_path": "res://art/huge.bin", "confirmation_token":
                                          again["confirmation_token"]}, me)
    assert ran["ran"] == "file_delete" and editor.forwarded == [("file_delete", {"file_path": "res://art/huge.bin"})]


async def test_what_undo_takes_back_does_not_ask(project: Path) -> None:
    app, editor = make_app(project)
    (project / "small.png").write_bytes(b"\x89PNG small")
    assert (await call(app, "file_delete", {"file_path": "res://small.png"}))["ran"] == "file_delete"
    assert (await call(app, "node_set_property", {"node_path": ".", "property": "x", "value": 1}))["ran"]
    assert (await call(app, "scene_create", {"file_path": "res://new.tscn", "if_exists": "replace"}))["ran"]
    (project / "old.tscn").write_text("[gd_scene format=3]\n")
    assert (await call(app, "scene_create", {"file_path": "res://old.tscn"}))["ran"], "if_exists: return, not replace"
    assert (await call(app, "scene_create", {"file_path": "res://old.tscn", "if_exists": "replace"}))["status"] \
        == "confirmation_required"
    assert (await call(app, "signal_emit", {"node_path": ".", "signal_name": "s", "channel": "runtime"}))["ran"]
    assert (await call(app, "signal_emit", {"node_path": ".", "signal_name": "s"}))["status"] == "confirmation_required"
    assert (await call(app, "editor_screenshot", {}))["ran"], "a screenshot without save_path writes nothing"
    assert [name for name, _ in editor.forwarded] == ["file_delete", "node_set_property", "scene_create", "scene_create",
                                                      "signal_emit", "editor_screenshot"]


async def test_a_path_that_leaves_the_project_is_refused_before_anything_is_read(project: Path) -> None:
    app, editor = make_app(project)
    refused = await call(app, "folder_delete", {"path": "res://../outside"})
    assert refused["code"] == "PATH_DENIED" and editor.forwarded == []


async def test_user_files_are_looked_up_through_the_editor(project: Path) -> None:
    app, editor = make_app(project)
    listing = {"success": True, "files": [{"name": "slot1.json", "path": "user://saves/slot1.json", "bytes": 12,
                                           "modified": 1700000000}]}
    editor.replies["save.list"] = listing
    fresh = await call(app, "save_write", {"path": "user://saves/new.json", "content": "{}"})
    assert fresh["ran"] == "save_write", "a new save file replaces nothing"
    over = await call(app, "save_write", {"path": "user://saves/slot1.json", "content": "{}"})
    assert over["status"] == "confirmation_required" and "user://saves/slot1.json: 12 bytes" in over["target"]
    assert ("save.list", {"path": "user://saves"}) in editor.reads
    editor.replies["save.list"] = ToolError("CONNECT_FAILED", "no editor")
    blind = await call(app, "save_write", {"path": "user://saves/any.json", "content": "{}"})
    assert blind["status"] == "confirmation_required", "could not look: it asks rather than lets it through"
    assert [name for name, _ in editor.forwarded] == ["save_write"]


async def test_dry_run_previews_and_never_runs(project: Path) -> None:
    app, editor = make_app(project)
    would = await call(app, "execute_code", {"code": "1", "dry_run": True}, Caller(owner=object(), asker=Person()))
    assert would["dry_run"] is True and would["would_ask"] is True and would["done"] is False
    (project / "a.gd").write_text("extends Node\n")
    small = await call(app, "file_delete", {"file_path": "res://a.gd", "dry_run": True})
    assert small["would_ask"] is False and small["would"] == "Delete res://a.gd"
    assert editor.forwarded == []


# -- asking now (a handshake-era client, or the editor's dialog) -----------------------------------


async def test_an_asker_is_asked_and_only_a_yes_runs(project: Path) -> None:
    app, editor = make_app(project)
    person = Person(Answer.DECLINE, Answer.CANCEL, Answer.ACCEPT)
    me = Caller(owner=object(), asker=person)
    declined = await call(app, "execute_code", {"code": "1"}, me)
    assert declined["status"] == "declined" and not declined["_is_error"] and "declined" in declined["message"]
    cancelled = await call(app, "execute_code", {"code": "1"}, me)
    assert cancelled["status"] == "cancelled" and editor.forwarded == []
    assert (await call(app, "execute_code", {"code": "1"}, me))["ran"] == "execute_code"
    assert len(person.asked) == 3 and person.asked[0].shown == [("code", "1")]


async def test_an_approval_sent_up_front_is_no_answer(project: Path) -> None:
    app, editor = make_app(project)
    person = Person(Answer.DECLINE)
    me = Caller(owner=object(), asker=person)
    token = (await call(app, "execute_code", {"code": "1"}, Caller(owner=me.owner)))["confirmation_token"]
    result = await call(app, "execute_code", {"code": "1", "confirmation_token": token}, me)
    assert result["status"] == "declined" and len(person.asked) == 1, "a client that can ask is asked, token or not"
    assert editor.forwarded == []


async def test_a_target_changed_while_the_person_read_asks_again(project: Path) -> None:
    app, editor = make_app(project)
    target = big_file(project / "huge.bin")

    def edit() -> None:
        if len(person.asked) == 1:
            with target.open("r+b") as handle:
                handle.write(b"changed")

    person = Person(Answer.ACCEPT, Answer.ACCEPT, before=edit)
    ran = await call(app, "file_delete", {"file_path": "res://huge.bin"}, Caller(owner=object(), asker=person))
    assert ran["ran"] == "file_delete" and len(person.asked) == 2
    assert person.asked[1].again is not None and "changed" in person.asked[1].again


async def test_the_editor_dialog_asks_whatever_the_client_can(project: Path) -> None:
    app, editor = make_app(project, confirm_in_editor=True)
    editor.replies["editor.confirm"] = {"success": True, "answer": "decline"}
    client = Person(Answer.ACCEPT)
    result = await call(app, "execute_code", {"code": "1"}, Caller(owner=object(), asker=client))
    assert result["status"] == "declined" and client.asked == [] and editor.forwarded == []
    method, params = editor.reads[-1]
    assert method == "editor.confirm" and "1" in params["message"] and params["timeout_ms"] > 0
    editor.replies["editor.confirm"] = {"success": True, "answer": "accept"}
    assert (await call(app, "execute_code", {"code": "1"}))["ran"] == "execute_code"
    editor.replies["editor.confirm"] = {"success": False, "code": "HEADLESS_UNSUPPORTED", "error": "headless"}
    refused = await call(app, "execute_code", {"code": "2"})
    assert refused["_is_error"] and refused["code"] == "HEADLESS_UNSUPPORTED", "never falls back to a weaker way"
    assert [args for _, args in editor.forwarded] == [{"code": "1"}]


# -- 2026-07-28: input_required and the retry ------------------------------------------------------


async def ask_inline(app: BridgeApp, name: str, args: dict[str, Any], owner: object,
                     reads: float = READS_S) -> InputRequired:
    """The call answered input_required, and ``reads`` seconds pass before the client's retry."""
    with pytest.raises(InputRequired) as asked:
        await call(app, name, args, Caller(owner=owner, inline=True))
    CLOCK.advance(reads)
    return asked.value


async def test_input_required_then_an_accepting_retry_runs(project: Path) -> None:
    app, editor = make_app(project)
    owner = object()
    asked = await ask_inline(app, "execute_code", {"code": "1"}, owner)
    result = asked.result()
    assert result["resultType"] == "input_required" and result["inputRequests"][INPUT_KEY]["method"] == \
        "elicitation/create"
    retry = Caller(owner=owner, inline=True, request_state=asked.request_state, input_responses={INPUT_KEY: ACCEPT})
    assert (await call(app, "execute_code", {"code": "1"}, retry))["ran"] == "execute_code"
    with pytest.raises(InvalidAnswer, match="already used"):
        await call(app, "execute_code", {"code": "1"}, retry)
    assert len(editor.forwarded) == 1


async def test_inline_answers_that_are_no_good(project: Path) -> None:
    app, editor = make_app(project)
    owner = object()
    # An accepting response without our state is no answer: asked.
    await ask_inline(app, "execute_code", {"code": "1"}, owner)
    with pytest.raises(InputRequired):
        await call(app, "execute_code", {"code": "1"}, Caller(owner=owner, inline=True,
                                                              input_responses={INPUT_KEY: ACCEPT}))
    # A state we never minted, and another client's.
    with pytest.raises(InvalidAnswer, match="not one this bridge issued"):
        await call(app, "execute_code", {"code": "1"}, Caller(owner=owner, inline=True, request_state="rs_forged",
                                                              input_responses={INPUT_KEY: ACCEPT}))
    state = (await ask_inline(app, "execute_code", {"code": "1"}, owner)).request_state
    with pytest.raises(InvalidAnswer, match="another client"):
        await call(app, "execute_code", {"code": "1"}, Caller(owner=object(), inline=True, request_state=state,
                                                              input_responses={INPUT_KEY: ACCEPT}))
    # The response missing (a wrong key): asked again, not an error; extra keys are ignored.
    again = await ask_inline(app, "execute_code", {"code": "1"}, owner)
    with pytest.raises(InputRequired):
        await call(app, "execute_code", {"code": "1"}, Caller(owner=owner, inline=True, request_state=again.request_state,
                                                              input_responses={"wrong": ACCEPT}))
    extra = await ask_inline(app, "execute_code", {"code": "1"}, owner)
    declined = await call(app, "execute_code", {"code": "1"}, Caller(
        owner=owner, inline=True, request_state=extra.request_state,
        input_responses={INPUT_KEY: {"action": "decline"}, "other": ACCEPT}))
    assert declined["status"] == "declined"
    assert editor.forwarded == []


async def test_inline_retry_for_other_arguments_or_a_changed_target_asks_again(project: Path) -> None:
    app, editor = make_app(project)
    owner = object()
    state = (await ask_inline(app, "execute_code", {"code": "1"}, owner)).request_state
    with pytest.raises(InputRequired) as other:
        await call(app, "execute_code", {"code": "2"}, Caller(owner=owner, inline=True, request_state=state,
                                                              input_responses={INPUT_KEY: ACCEPT}))
    assert "arguments differ" in (other.value.question.again or "")
    target = big_file(project / "huge.bin")
    state = (await ask_inline(app, "file_delete", {"file_path": "res://huge.bin"}, owner)).request_state
    target.write_bytes(b"small now, but the answer was about the big one")
    big_file(target, UNDO_BUDGET_BYTES + 2)
    with pytest.raises(InputRequired) as changed:
        await call(app, "file_delete", {"file_path": "res://huge.bin"},
                   Caller(owner=owner, inline=True, request_state=state, input_responses={INPUT_KEY: ACCEPT}))
    assert "changed" in (changed.value.question.again or "")
    assert editor.forwarded == []


# -- background: true: the person is asked before the job starts -----------------------------------


def _stub_restart(app: BridgeApp) -> list[dict[str, Any]]:
    """editor_restart's handler replaced by one that records its arguments (no Godot here)."""
    ran: list[dict[str, Any]] = []

    async def restart(args: dict[str, Any], progress: Any) -> Any:
        ran.append(args)
        return results.success({"restarted": True})

    app.dispatch.serve("editor_restart", restart)
    return ran


async def test_a_background_call_asks_before_its_job_starts(project: Path) -> None:
    app, _ = make_app(project)
    ran = _stub_restart(app)
    me = Caller(owner=object())
    tools = app.tool_list()
    preview = await call(app, "editor_restart", {"force": True, "background": True}, me, tools)
    assert preview["status"] == "confirmation_required" and "job_id" not in preview
    assert app.jobs.list(tools.owner) == [] and ran == [], "no job before the person said yes"
    started = await call(app, "editor_restart", {"force": True, "background": True,
                                                 "confirmation_token": preview["confirmation_token"]}, me, tools)
    job = app.jobs.get(tools.owner, started["job_id"])
    assert await job.wait(5) and job.status == "completed"
    assert ran == [{"force": True}], "the job runs the consented call once, without asking again"
    declined = await call(app, "editor_restart", {"background": True},
                          Caller(owner=me.owner, asker=Person(Answer.DECLINE)), tools)
    assert declined["status"] == "declined" and len(app.jobs.list(tools.owner)) == 1 and len(ran) == 1
    await app.aclose()


# -- the policy while the bridge runs ----------------------------------------------------------------


async def test_always_asks_before_every_change_and_never_asks_nothing(project: Path) -> None:
    always, editor = make_app(project, confirm="always")
    asked = await call(always, "node_set_property", {"node_path": ".", "property": "x", "value": 1})
    assert asked["status"] == "confirmation_required" and "GODOT_MCP_CONFIRM=always" in asked["why_it_asks"]
    assert (await call(always, "scene_get_tree", {}))["ran"] == "scene_get_tree"
    never, quiet = make_app(project, confirm="never")
    assert (await call(never, "execute_code", {"code": "1"}))["ran"] == "execute_code"
    assert [name for name, _ in editor.forwarded] == ["scene_get_tree"]


def test_a_weaker_policy_from_the_file_waits_for_a_restart(project: Path) -> None:
    app, _ = make_app(project)
    announced: list[int] = []
    tools = app.tool_list()
    tools.on_change = lambda: announced.append(1)
    app.apply_settings(Settings(project_path=project, confirm="never"))
    assert app.policy == Policy("irreversible"), "the assistant could write .mcp.json: never is not taken live"
    app.apply_settings(Settings(project_path=project, confirm="always"))
    assert app.policy == Policy("always") and announced, "a stronger one applies at once, and lists change"
    assert "confirmation_token" in {t["name"]: t for t in app.tools(tools)}["scene_create_node"]["inputSchema"][
        "properties"]


def test_the_gate_offers_nothing_to_a_tool_that_never_asks(project: Path) -> None:
    gate = ConsentGate(lambda: Policy(), None, Person())  # type: ignore[arg-type]
    tool = load_catalogue().tools["scene_get_tree"]
    assert gate.offered(tool) is tool


def test_the_docs_list_what_asks() -> None:
    section = (REPO / "docs" / "asking.md").read_text(encoding="utf-8").split("# Asking before", 1)[1].split("\n## ", 1)[0]
    listed = {name for row in section.splitlines() if row.startswith("| `")
              for name in re.findall(r"`(\w+)`", row.split("|")[1])}
    assert listed == ASKING


class _Session:
    """A handshake-era session whose client answers a question as told."""

    def __init__(self, behaviour: str) -> None:
        self.behaviour = behaviour

    async def elicit_form(self, message: str, schema: dict[str, Any], related_request_id: Any = None) -> Any:
        import anyio
        import mcp_types
        from mcp.shared.exceptions import MCPError

        if self.behaviour == "silent":
            await anyio.sleep_forever()
        if self.behaviour == "refuses":
            raise MCPError(-32601, "Method not found")
        if self.behaviour == "garbles":  # what the SDK raises for a result its model cannot take
            return mcp_types.ElicitResult.model_validate({"action": "ACCEPT"})
        return mcp_types.ElicitResult(action="accept", content={FIELD: True})


@pytest.mark.parametrize(("behaviour", "answer"), [("answers", Answer.ACCEPT), ("silent", Answer.CANCEL)])
async def test_a_handshake_question_without_an_answer_in_time_is_a_cancel(behaviour: str, answer: Answer) -> None:
    from types import SimpleNamespace

    from godot_bridge.mcp.core.elicitation import SessionAsker

    ctx = SimpleNamespace(session=_Session(behaviour), request_id=7)
    assert await SessionAsker(ctx, timeout_s=0.05).ask(Question("t", "do", "why")) is answer


@pytest.mark.parametrize(("behaviour", "why"), [("refuses", "answered with an error: Method not found"),
                                                ("garbles", "action: Input should be")])
async def test_a_handshake_answer_the_sdk_cannot_read_is_unusable(behaviour: str, why: str) -> None:
    from types import SimpleNamespace

    from godot_bridge.mcp.core.elicitation import SessionAsker

    ctx = SimpleNamespace(session=_Session(behaviour), request_id=7)
    with pytest.raises(UnusableAnswer) as unusable:
        await SessionAsker(ctx, timeout_s=5).ask(Question("t", "do", "why"))
    assert why in unusable.value.why


async def test_a_read_target_is_the_same_state_whatever_envelope_nonce_it_comes_in(project: Path) -> None:
    from godot_bridge.safety.untrusted import wrap

    app, editor = make_app(project)
    editor.replies["checkpoint.diff"] = lambda params: {"success": True, "files": [
        {"path": "res://a.gd", "diff": wrap("- old line", kind="script", source="res://a.gd")}]}
    me = Caller(owner=object())
    token = (await call(app, "checkpoint_restore", {"id": 1}, me))["confirmation_token"]
    ran = await call(app, "checkpoint_restore", {"id": 1, "confirmation_token": token}, me)
    assert ran["ran"] == "checkpoint_restore"
    assert [m for m, _ in editor.reads] == ["checkpoint.diff", "checkpoint.diff"]


# -- before anyone is asked: what can be known without an effect; runs with nobody to ask ----------


async def test_a_call_that_cannot_run_is_refused_before_anyone_is_asked(project: Path) -> None:
    app, editor = make_app(project)
    editor.unreachable["runtime"] = ToolError("GAME_NOT_RUNNING", "no game is running")
    person = Person(Answer.ACCEPT)
    me = Caller(owner=object(), asker=person)
    refused = await call(app, "execute_code", {"code": "1 + 1"}, me)  # the runtime channel by default
    assert refused["_is_error"] and refused["code"] == "GAME_NOT_RUNNING"
    assert person.asked == [] and editor.forwarded == [] and editor.reached == ["runtime"]
    assert (await call(app, "execute_code", {"code": "1 + 1", "channel": "editor"}, me))["ran"] == "execute_code"
    assert len(person.asked) == 1, "the editor answers: that call is asked about, and runs"


async def test_deleting_a_save_that_is_not_there_asks_nobody(project: Path) -> None:
    app, editor = make_app(project)
    editor.replies["save.list"] = {"success": True, "files": [{"name": "slot1.json", "bytes": 3, "modified": 1}]}
    person = Person(Answer.ACCEPT)
    me = Caller(owner=object(), asker=person)
    missing = await call(app, "save_delete", {"path": "user://saves/slot9.json"}, me)
    assert missing["_is_error"] and missing["code"] == "NOT_FOUND" and "slot9.json" in missing["error"]
    assert person.asked == [] and editor.forwarded == []
    assert (await call(app, "save_delete", {"path": "user://saves/slot1.json"}, me))["ran"] == "save_delete"
    assert len(person.asked) == 1


async def test_a_read_target_that_is_not_there_asks_nobody(project: Path) -> None:
    app, editor = make_app(project)
    editor.replies["checkpoint.diff"] = {"success": False, "code": "NOT_FOUND", "error": "no checkpoint 9"}
    person = Person(Answer.ACCEPT)
    refused = await call(app, "checkpoint_restore", {"id": 9}, Caller(owner=object(), asker=person))
    assert refused["_is_error"] and refused["code"] == "NOT_FOUND" and person.asked == []


async def test_named_tools_run_unasked_and_only_those(project: Path) -> None:
    app, editor = make_app(project, allow_unasked=frozenset({"execute_code"}))
    person = Person(Answer.DECLINE)
    me = Caller(owner=object(), asker=person)
    assert (await call(app, "execute_code", {"code": "1", "channel": "editor"}, me))["ran"] == "execute_code"
    assert person.asked == []
    declined = await call(app, "node_call_method", {"node_path": "/root/A", "method_name": "queue_free"}, me)
    assert declined["status"] == "declined" and len(person.asked) == 1
    editor.unreachable["runtime"] = ToolError("GAME_NOT_RUNNING", "no game")  # still checked: no game to run it in
    refused = await call(app, "execute_code", {"code": "1"}, me)
    assert refused["code"] == "GAME_NOT_RUNNING"


def test_the_unasked_list_takes_commas_only(project: Path) -> None:
    settings = Settings.from_env({"GODOT_MCP_ALLOW_UNASKED": "execute_code, save_delete,"}, project=str(project))
    assert settings.allow_unasked == {"execute_code", "save_delete"}
    for written in ("execute_code;rm -rf", "execute_code save_delete", "execute_code;save_delete",
                    "execute_code|save_delete", "execute_code\tsave_delete"):
        with pytest.raises(ConfigError, match="GODOT_MCP_ALLOW_UNASKED: .* is not a tool name .*separated by commas"):
            Settings.from_env({"GODOT_MCP_ALLOW_UNASKED": written}, project=str(project))


CODE = {"code": "1", "channel": "editor"}


async def test_an_answer_faster_than_a_person_reads_is_nobodys_and_runs_nothing(project: Path) -> None:
    """Whatever it says: an accept in 0.05 s is a client accepting by itself (an auto-answering hook),
    not a person who read the question."""
    app, editor = make_app(project)
    for answer, status in ((Answer.CANCEL, "cancelled"), (Answer.DECLINE, "declined"), (Answer.ACCEPT, "accepted")):
        at_once = await call(app, "execute_code", CODE, Caller(owner=object(), asker=Person(answer, takes=0.05)))
        assert at_once["status"] == status and at_once["asked"] == "nobody" and at_once["done"] is False, at_once
        assert not at_once["_is_error"] and "GODOT_MCP_ALLOW_UNASKED=execute_code" in at_once["hint"]
    assert editor.forwarded == [], "no person agreed: nothing ran"
    person = Caller(owner=object(), asker=Person(Answer.DECLINE, Answer.ACCEPT))
    person_said_no = await call(app, "execute_code", CODE, person)
    assert person_said_no["status"] == "declined" and "asked" not in person_said_no
    assert "GODOT_MCP_ALLOW_UNASKED" not in json.dumps(person_said_no), "a person's no is never met with a way around"
    assert (await call(app, "execute_code", CODE, person))["ran"] == "execute_code", "a person's yes runs it"


async def test_an_inline_answer_at_once_is_nobodys_and_runs_nothing(project: Path) -> None:
    app, editor = make_app(project)
    owner = object()
    for response, status in (({"action": "cancel"}, "cancelled"), (ACCEPT, "accepted")):
        asked = await ask_inline(app, "execute_code", CODE, owner, reads=0.05)
        retry = Caller(owner=owner, inline=True, request_state=asked.request_state, input_responses={INPUT_KEY: response})
        result = await call(app, "execute_code", CODE, retry)
        assert result["status"] == status and result["asked"] == "nobody" and result["done"] is False
    assert editor.forwarded == []
    asked = await ask_inline(app, "execute_code", CODE, owner)
    retry = Caller(owner=owner, inline=True, request_state=asked.request_state, input_responses={INPUT_KEY: ACCEPT})
    assert (await call(app, "execute_code", CODE, retry))["ran"] == "execute_code"


async def test_the_editor_dialog_is_answered_by_a_person_however_soon(project: Path) -> None:
    """Only a person at the editor can answer its dialog: a quick no is theirs, never "nobody"."""
    app, editor = make_app(project, confirm_in_editor=True)
    editor.replies["editor.confirm"] = {"success": True, "answer": "decline"}  # no time passes on this clock
    refused = await call(app, "execute_code", CODE)
    assert refused["status"] == "declined" and "asked" not in refused and "The person declined" in refused["message"]
    assert "GODOT_MCP_ALLOW_UNASKED" not in json.dumps(refused), "a person's no is never met with a way around"
    editor.replies["editor.confirm"] = {"success": True, "answer": "accept"}
    assert (await call(app, "execute_code", CODE))["ran"] == "execute_code"
    editor.replies["editor.confirm"] = {"success": True, "answer": "maybe"}
    odd = await call(app, "execute_code", CODE)
    assert odd["status"] == "unusable_answer" and '"maybe"' in odd["message"]
    assert len(editor.forwarded) == 1


class Garbled:
    """A client whose answer the MCP layer could not read (consent/question.py ``UnusableAnswer``)."""

    async def ask(self, question: Question) -> Answer:
        raise UnusableAnswer("its action is \"ACCEPT\", not \"accept\", \"decline\" or \"cancel\"")


@pytest.mark.parametrize("responses", ["yes", {INPUT_KEY: "yes"}, {INPUT_KEY: {}}, {INPUT_KEY: {"action": "ACCEPT"}},
                                       {INPUT_KEY: {"action": "accept", "content": [True]}}])
async def test_an_inline_answer_that_cannot_be_used_says_so_at_once(project: Path, responses: Any) -> None:
    app, editor = make_app(project)
    owner = object()
    asked = await ask_inline(app, "execute_code", CODE, owner)
    retry = Caller(owner=owner, inline=True, request_state=asked.request_state, input_responses=responses)
    result = await call(app, "execute_code", CODE, retry)
    assert result["status"] == "unusable_answer" and result["done"] is False and not result["_is_error"], result
    assert "could not be used" in result["message"] and editor.forwarded == []


async def test_a_handshake_answer_that_cannot_be_used_says_so_at_once(project: Path) -> None:
    app, editor = make_app(project)
    result = await call(app, "execute_code", CODE, Caller(owner=object(), asker=Garbled()))
    assert result["status"] == "unusable_answer" and '"ACCEPT"' in result["message"] and editor.forwarded == []


# -- dry_run: the same call, said ---------------------------------------------------------------


WAYS = {  # a policy and a client: the caller, what the dry run says, and what the real call does
    "allowed unasked": ({"allow_unasked": frozenset({"execute_code"})}, "asker", "runs without a question", "runs"),
    "asked through the client": ({}, "asker", "asked first, through your MCP client", "asks"),
    "asked with input_required": ({}, "inline", "asked first, through your MCP client", "input_required"),
    "asked in the editor": ({"confirm_in_editor": True}, "asker", "in the Godot editor's own dialog", "editor"),
    "previewed with a token": ({}, "nothing", "confirmation_token", "preview"),
}


@pytest.mark.parametrize("way", list(WAYS))
async def test_dry_run_says_what_the_same_call_does(project: Path, way: str) -> None:
    settings, kind, said, does = WAYS[way]
    app, editor = make_app(project, **settings)
    editor.replies["editor.confirm"] = {"success": True, "answer": "decline"}
    person = Person(Answer.DECLINE)
    caller = {"asker": Caller(owner=object(), asker=person), "inline": Caller(owner=object(), inline=True),
              "nothing": Caller(owner=object())}[kind]
    dry = await call(app, "execute_code", {**CODE, "dry_run": True}, caller)
    assert dry["dry_run"] is True and dry["done"] is False and said in dry["message"], dry
    assert dry["would_ask"] is (does != "runs")
    assert editor.forwarded == [] and person.asked == [] and not [m for m, _ in editor.reads if m == "editor.confirm"]
    if does == "input_required":
        with pytest.raises(InputRequired):
            await call(app, "execute_code", CODE, caller)
        return
    real = await call(app, "execute_code", CODE, caller)
    asked_in_editor = [m for m, _ in editor.reads if m == "editor.confirm"]
    assert {"runs": real.get("ran") == "execute_code" and person.asked == [],
            "asks": real.get("status") == "declined" and len(person.asked) == 1,
            "editor": real.get("status") == "declined" and len(asked_in_editor) == 1 and person.asked == [],
            "preview": real.get("status") == "confirmation_required"}[does], real


# -- before anyone is asked: the request's size -------------------------------------------------


async def test_a_request_its_channel_cannot_take_is_refused_before_anyone_is_asked(project: Path) -> None:
    from types import SimpleNamespace

    app, editor = make_app(project)
    del app.editor.ready  # the real check, over channels that say how much they take
    channels = {"editor": SimpleNamespace(inbound_limit=64 * 1024, label="editor"),
                "runtime": SimpleNamespace(inbound_limit=64 * 1024, label="game")}

    async def editor_channel() -> Any:
        return channels["editor"]

    async def game_channel() -> Any:
        return channels["runtime"]

    app.editor._editor.ensure = editor_channel  # type: ignore[method-assign]
    app.editor._runtime.ensure = game_channel  # type: ignore[method-assign]
    person = Person(Answer.ACCEPT, Answer.ACCEPT)
    me = Caller(owner=object(), asker=person)
    for channel in ("editor", "runtime"):
        too_big = await call(app, "execute_code", {"code": "x" * (65 * 1024), "channel": channel}, me)
        assert too_big["_is_error"] and too_big["code"] == "REQUEST_TOO_LARGE" and too_big["limit_bytes"] == 64 * 1024
        dry = await call(app, "execute_code", {"code": "x" * (65 * 1024), "channel": channel, "dry_run": True}, me)
        assert dry["code"] == "REQUEST_TOO_LARGE", "a dry run says so too"
        tokenless = await call(app, "execute_code", {"code": "x" * (65 * 1024), "channel": channel},
                               Caller(owner=object()))
        assert tokenless["code"] == "REQUEST_TOO_LARGE", "no preview of a call that cannot run"
    assert person.asked == [] and editor.forwarded == []
    assert (await call(app, "execute_code", {"code": "x" * (60 * 1024), "channel": "editor"}, me))["ran"]
    assert len(person.asked) == 1


async def test_a_background_call_with_no_room_for_its_job_asks_nobody(project: Path) -> None:
    app, _ = make_app(project)
    ran = _stub_restart(app)
    idle = asyncio.Event()

    async def still_busy(tool: Any, args: dict[str, Any], progress: Any = None) -> Any:
        await idle.wait()
        return results.success({"idle": True})

    app.editor.forward = still_busy  # type: ignore[method-assign]
    tools = app.tool_list()
    app.jobs.limits = replace(app.jobs.limits, per_owner=1)
    started = await call(app, "editor_wait_for_idle", {"background": True}, Caller(owner=object()), tools)
    assert "job_id" in started, started
    person = Person(Answer.ACCEPT)
    full = await call(app, "editor_restart", {"background": True}, Caller(owner=object(), asker=person), tools)
    assert full["_is_error"] and full["code"] == "JOB_LIMIT" and person.asked == [] and ran == []
    idle.set()
    await app.aclose()
