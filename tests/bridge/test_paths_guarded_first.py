"""Every path argument is guarded before anything of its call leaves the bridge.

The app's whole call path (validate, the path guard, the consent gate, a background job, the
forward) over a real editor link to the simulator, which records every frame it receives.

The walk comes from the catalogue, not a hand list: every tool that declares path parameters
(every asking tool with a path among them), every one of its path parameters (top-level, a list
of paths, or nested in array items such as ``animations[].frames[].texture_path``), with each
escape class of ``escapes`` below: ``..`` traversal (after each allowed prefix, res:// and
user:// alike, shallow and deep), an absolute path (bare and after the prefix), a NUL byte, a
backslash, a drive letter (bare and after the prefix), a wrong scheme (``http://``, ``file://``),
the other prefix (user:// where only res:// is allowed, and the reverse, and user:// outside
``user://screenshots/``), a malformed ``uid://``, and a ``res://`` path that leaves the project
through a symbolic link. Each call goes through every way a call may look at its target before it
runs: the single-use token preview, the editor's own dialog under ``GODOT_MCP_CONFIRM=always``, a
dry run; and, for a job-capable tool, ``background: true`` and an MCP task. Every call must answer
PATH_DENIED naming the planted parameter, no job may run, and the editor must receive no frame.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from godot_bridge.app import BridgeApp
from godot_bridge.config import Settings
from godot_bridge.consent.policy import DRY_RUN
from godot_bridge.tools.catalogue import BACKGROUND_ARG, ToolDef, load_catalogue
from godot_bridge.tools.surface import ToolList
from tests.sim.fixtures import process_sim as sim  # noqa: F401 - Godot 4.5.1: scene_close (4.5+) is offered
from tests.sim.server import ToolkitSim

CATALOGUE = load_catalogue()
GUARDED = [t for t in CATALOGUE.tools.values() if t.path_params]
MARK = "leak_probe"  # in every refused value: no frame may ever carry it
LINK = "link_out"  # a folder of the project that is a symbolic link to one outside it
# Frames the editor link sends on its own, for no call: its heartbeat and the language server's state.
HOUSEKEEPING = frozenset({"ping", "editor.set_lsp_status"})


def escapes(prefixes: Sequence[str]) -> dict[str, str]:
    """Each escape class, as a value for a parameter that allows ``prefixes``."""
    found: dict[str, str] = {}
    for prefix in prefixes:
        found |= {
            f"traversal {prefix}": f"{prefix}../outside/{MARK}.tres",
            f"deep traversal {prefix}": f"{prefix}a/../../outside/{MARK}.tres",
            f"absolute after {prefix}": f"{prefix}/etc/{MARK}.tres",
            f"NUL {prefix}": f"{prefix}a\x00{MARK}.tres",
            f"backslash {prefix}": f"{prefix}..\\outside\\{MARK}.tres",
            f"drive letter after {prefix}": f"{prefix}C:/{MARK}.tres",
        }
    found |= {
        "absolute": f"/etc/{MARK}.tres",
        "drive letter": f"C:/Windows/{MARK}.tres",
        "drive letter, backslashes": f"C:\\Windows\\{MARK}.tres",
        "http://": f"http://example.invalid/{MARK}.tres",
        "file://": f"file:///etc/{MARK}.tres",
    }
    for other in ("res://", "user://"):
        if not any(p.startswith(other) for p in prefixes):
            found[f"traversal {other}"] = f"{other}../outside/{MARK}.tres"
        if other not in prefixes:
            found[f"outside the allowed prefix: {other}"] = f"{other}{MARK}.tres"
    if "res://" in prefixes:
        found["malformed uid"] = f"uid://../{MARK}"
        found["symbolic link out of the project"] = f"res://{LINK}/{MARK}.tres"
    return found


# -- arguments: the smallest valid call, with one path planted --------------------------------------


def minimal(schema: Mapping[str, Any]) -> Any:
    """A value the validator accepts for ``schema``: required keys only, smallest legal values."""
    if schema.get("anyOf"):
        return minimal(schema["anyOf"][0])
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    kind = kind[0] if isinstance(kind, list) else kind
    if kind == "object":
        props = schema.get("properties", {})
        return {name: minimal(props.get(name, {})) for name in schema.get("required", [])}
    if kind == "array":
        return [minimal(schema.get("items", {})) for _ in range(int(schema.get("minItems", 0)))]
    if kind in ("number", "integer"):
        return schema.get("minimum", 1)
    return {"string": "a", "boolean": True}.get(str(kind))


def put(args: dict[str, Any], schema: Mapping[str, Any], key: str, value: str) -> str:
    """Set the path ``key`` ("a", "a[].b") in ``args`` to ``value``; returns the label the guard names it by."""
    head, nested, tail = key.partition("[].")
    prop = schema["properties"][head]
    if nested:
        items = prop["items"]
        item = minimal(items)
        label = put(item, items, tail, value)
        args[head] = [item]
        return f"{head}[0].{label}"
    if prop.get("type") == "array":  # a list of paths (editor_refresh.file_paths)
        args[head] = [value]
        return f"{head}[0]"
    args[head] = value
    return head


def planted(tool: ToolDef, key: str, value: str) -> tuple[dict[str, Any], str]:
    """A valid call of ``tool`` with ``value`` at ``key`` and a good path in every other path parameter
    (so a refusal can only be the planted one's); with the label the refusal must name."""
    args: dict[str, Any] = minimal(tool.input_schema)
    for other, prefixes in tool.path_params.items():
        if other != key:
            put(args, tool.input_schema, other, prefixes[0] + "ok.tres")
    return args, put(args, tool.input_schema, key, value)


@dataclass(frozen=True)
class Case:
    tool: ToolDef
    key: str  # the path parameter, as the catalogue names it ("frames[].texture_path")
    escape: str
    args: dict[str, Any]
    label: str

    @property
    def name(self) -> str:
        return f"{self.tool.name}.{self.label} ({self.escape})"


def cases(tools: Sequence[ToolDef] = GUARDED) -> Iterator[Case]:
    for tool in tools:
        for key, prefixes in tool.path_params.items():
            for escape, value in escapes(prefixes).items():
                args, label = planted(tool, key, value)
                yield Case(tool, key, escape, args, label)


# -- the app over the simulator ---------------------------------------------------------------------


@pytest.fixture(autouse=True)
def link_out(project_dir: Path, tmp_path: Path) -> None:
    """The simulated editor's project (``project_dir``) gets a folder that leads outside it."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (project_dir / LINK).symlink_to(outside, target_is_directory=True)


@asynccontextmanager
async def connected(sim: ToolkitSim, data_home: Path, **settings: Any) -> AsyncIterator[BridgeApp]:
    """The app, linked to the simulated editor (a first call has reached it)."""
    app = BridgeApp(Settings(project_path=Path(sim.project), env={"XDG_DATA_HOME": str(data_home)}, **settings))
    app.prepare()
    await app.start()
    try:
        first = await app.call_tool("scene_get_tree", {}, app.tool_list())
        assert not first.is_error, first.structured
        yield app
    finally:
        await app.aclose()


def every_group(app: BridgeApp) -> ToolList:
    tools = app.tool_list()
    tools.activate(tools.group_names())
    return tools


def refusal(case: Case, outcome: Any) -> str | None:
    """Why ``outcome`` is not the PATH_DENIED the case must get, or None."""
    body = outcome.structured if isinstance(outcome.structured, dict) else {}
    if not outcome.is_error or body.get("code") != "PATH_DENIED":
        return f"{case.name}: answered {json.dumps(body, default=str)[:200]}"
    if not str(body.get("error", "")).startswith(f"{case.label}="):
        return f"{case.name}: refused another parameter: {body.get('error')}"
    return None


def frames_since(sim: ToolkitSim, start: int) -> list[dict[str, Any]]:
    return [r.frame for r in sim.received[start:] if r.method not in HOUSEKEEPING]


def leaked(sim: ToolkitSim) -> list[dict[str, Any]]:
    return [r.frame for r in sim.received if MARK in json.dumps(r.frame)]


# -- the catalogue side -------------------------------------------------------------------------------


def test_the_walk_covers_every_path_parameter_and_every_asking_tool_with_a_path() -> None:
    walked = {(c.tool.name, c.key) for c in cases()}
    assert walked == {(t.name, key) for t in CATALOGUE.tools.values() for key in t.path_params}
    asking = {t.name for t in CATALOGUE.tools.values() if t.asks is not None and t.path_params}
    # The five whose question reads a user:// listing or a read target first among them.
    assert {"save_delete", "save_write", "editor_screenshot", "runtime_screenshot", "scene_close"} <= asking
    assert asking <= {c.tool.name for c in cases()}
    # Nested and list-valued path parameters are walked too.
    labels = {c.label for c in cases()}
    assert "animations[0].frames[0].texture_path" in labels and "file_paths[0]" in labels


def test_every_escape_value_carries_the_mark() -> None:
    for prefixes in {tuple(p) for t in GUARDED for p in t.path_params.values()}:
        assert all(MARK in value for value in escapes(prefixes).values()), prefixes


# -- the walk -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("confirm", "in_editor"), [("irreversible", False), ("always", True)],
                         ids=["token-preview", "editor-dialog-always"])
async def test_no_path_escape_reaches_the_editor(sim: ToolkitSim, data_home: Path, confirm: str,
                                                 in_editor: bool) -> None:
    async with connected(sim, data_home, confirm=confirm, confirm_in_editor=in_editor) as app:
        tools = every_group(app)
        start = len(sim.received)
        wrong: list[str] = []
        walked = 0
        for case in cases():
            variants = [case.args]
            if app.may_ask(case.tool.name):
                variants.append({**case.args, DRY_RUN: True})  # a dry run looks at the target too
            for args in variants:
                why = refusal(case, await app.call_tool(case.tool.name, args, tools))
                if why:
                    wrong.append(why)
                walked += 1
        assert not wrong, "\n".join(wrong[:40])
        assert walked > 500
        assert frames_since(sim, start) == [] and leaked(sim) == []


async def test_a_background_call_or_a_task_with_a_bad_path_starts_nothing(sim: ToolkitSim, data_home: Path) -> None:
    jobs = [t for t in GUARDED if t.job is not None]
    assert {"asset_import", "game_start", "test_run"} <= {t.name for t in jobs}
    async with connected(sim, data_home) as app:
        tools = every_group(app)
        start = len(sim.received)
        wrong: list[str] = []
        for case in cases(jobs):
            outcome = await app.call_tool(case.tool.name, {**case.args, BACKGROUND_ARG: True}, tools)
            why = refusal(case, outcome)
            if why:
                wrong.append(f"background: {why}")
        assert not wrong, "\n".join(wrong[:40])
        assert app.jobs.list(tools.owner) == [], "no job for a refused call"
        # An MCP task runs the whole call as its job: the call inside it is refused the same way.
        case = next(cases([CATALOGUE.tools["game_start"]]))
        job = app.job_runner.start_call(case.tool, case.args, tools)
        assert await job.wait(5) and job.outcome is not None
        assert refusal(case, job.outcome) is None
        assert frames_since(sim, start) == [] and leaked(sim) == []


async def test_a_question_that_reads_first_reads_nothing_for_a_bad_path(sim: ToolkitSim, data_home: Path) -> None:
    """The consent gate's own reads, one kind each: a user:// listing (save_delete, the issue's
    example: it used to send ``save.list {"path": "user://../outside"}``), a project file's bytes
    (file_delete), and a read target (scene_close: the file, then ``scene.get_tree``)."""
    async with connected(sim, data_home) as app:
        tools = every_group(app)
        start = len(sim.received)
        for name, args in [("save_delete", {"path": f"user://../outside/{MARK}.gd"}),
                           ("save_write", {"path": f"user://../outside/{MARK}.gd", "content": "x"}),
                           ("runtime_screenshot", {"save_path": f"user://screenshots/../../{MARK}.png"}),
                           ("file_delete", {"file_path": f"res://{LINK}/{MARK}.gd"}),
                           ("scene_close", {"file_path": f"res://../{MARK}.tscn"})]:
            outcome = await app.call_tool(name, args, tools)
            assert outcome.is_error and outcome.structured["code"] == "PATH_DENIED", (name, outcome.structured)
        assert sim.requests("save.list") == [] and sim.requests("scene.get_tree")[1:] == []
        assert frames_since(sim, start) == [] and leaked(sim) == []
        # A good path still asks, and its question reads what it must.
        fine = await app.call_tool("save_delete", {"path": "user://saves/slot1.json"}, tools)
        assert fine.structured["status"] == "confirmation_required"
        listed = [r.params for r in sim.requests("save.list")]  # does it exist, then its state
        assert listed and all(params == {"path": "user://saves"} for params in listed)
