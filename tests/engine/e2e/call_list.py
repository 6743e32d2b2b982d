"""What one call of the end-to-end call list is, how its answer is judged, and how the list runs.

A ``Call`` is a tool call with valid (or, for error paths, deliberately wrong) arguments and what
must hold afterwards: the answer (success, or the toolkit's error code and a hint), the effect
read back through another tool (``effect``), for undoable mutations that the editor's undo takes
it away (``undone``) and redo brings it back, and the bytes of a file the call wrote (``file``).
``run_calls`` runs a list in order against one bridge and returns one ``Outcome`` per call; the
call lists themselves are data (tests/engine/e2e/calls.py).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from godot_bridge.tools.catalogue import load_catalogue
from godot_bridge.tools.validation import _describe as json_type  # JSON type names, as the bridge's own checks say them
from tests.support.bridge_process import call_confirmed
from tests.engine.e2e.engine_host import EngineHost


class Caller(Protocol):
    """A client of the bridge (stdio: tests/support/bridge_process.py; HTTP: tests/engine/e2e/test_http.py)."""

    async def call_tool(self, name: str, arguments: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]: ...


class Has(str):
    """In an expectation: a text that must appear in the actual string (untrusted-wrapped reads)."""


class Near(float):
    """In an expectation: a number within 0.5 of this one (a position after real frames)."""


class Derived:
    """In an effect's expectation: a value computed from the call's own answer (a position that
    follows from the game time a step reports: real frames have no fixed length)."""

    def __init__(self, compute: Callable[[dict[str, Any]], Any]) -> None:
        self.compute = compute


def resolve(expected: Any, answer: dict[str, Any]) -> Any:
    """``expected`` with every ``Derived`` in it computed from ``answer``."""
    if isinstance(expected, Derived):
        return expected.compute(answer)
    if isinstance(expected, dict):
        return {key: resolve(value, answer) for key, value in expected.items()}
    if isinstance(expected, list):
        return [resolve(item, answer) for item in expected]
    return expected


class Kind(str):
    """In an expectation: any value of this JSON type ("number", "string", ...), for values that
    differ per run (a frame rate)."""


@dataclass(frozen=True)
class Read:
    """A read through the bridge and what its answer must contain (``code``: the failure it must be)."""

    tool: str
    args: dict[str, Any]
    contains: dict[str, Any] = field(default_factory=dict)
    code: str | None = None


@dataclass(frozen=True)
class FileHas:
    """A file on the engine's disk after the call: ``text`` appears in it; or it is a folder
    (``dir``); or nothing is at that path any more (``gone``)."""

    path: str
    text: str = ""
    gone: bool = False
    dir: bool = False


@dataclass(frozen=True)
class Call:
    tool: str
    args: dict[str, Any]
    about: str
    code: str | None = None  # None: success expected; else the toolkit's failure code
    result: dict[str, Any] = field(default_factory=dict)  # what the answer itself must contain
    effect: Read | None = None
    undone: Read | None = None  # after the editor's undo; then redo must bring `effect` back
    file: FileHas | None = None
    image: bool = False  # the answer carries an image (a PNG inline)
    host: str = ""  # a host action before the call: "play" (the user presses Play), "stop"
    # arguments taken from an earlier call's answer: argument -> (that call's name, key of its answer)
    bind: dict[str, tuple[str, str]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return f"{self.tool}:{self.about}"


@dataclass
class Outcome:
    call: Call
    args: dict[str, Any] = field(default_factory=dict)  # as sent (with `bind` filled in)
    answer: dict[str, Any] | None = None  # the tool result's structured body
    is_error: bool | None = None
    problems: list[str] = field(default_factory=list)
    text_bytes: int = 0  # the answer's text blocks, as the model reads them


def text_bytes(result: dict[str, Any]) -> int:
    """The bytes of a tool result's text blocks: what the model reads."""
    return sum(len(block["text"].encode("utf-8")) for block in result.get("content", []) if block.get("type") == "text")


def body(result: dict[str, Any]) -> dict[str, Any]:
    """A tool result's JSON body: structuredContent, else the first text block parsed."""
    structured = result.get("structuredContent")
    if isinstance(structured, dict):
        return structured
    for block in result.get("content", []):
        if block.get("type") == "text":
            try:
                parsed = json.loads(block["text"])
            except ValueError:
                return {"text": block["text"]}
            return parsed if isinstance(parsed, dict) else {"value": parsed}
    return {}


def missing(actual: Any, expected: Any, at: str = "") -> str:
    """"" when ``actual`` contains ``expected`` (dicts: these keys; lists: each expected item matched
    by some actual item; else equal), else where it does not."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{at or 'answer'}: expected an object, got {actual!r}"
        for key, value in expected.items():
            if key not in actual:
                return f"{at}.{key}: missing"
            found = missing(actual[key], value, f"{at}.{key}")
            if found:
                return found
        return ""
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return f"{at}: expected a list, got {actual!r}"
        for item in expected:
            if not any(not missing(candidate, item, at) for candidate in actual):
                return f"{at}: no item matching {item!r} in {actual!r}"[:600]
        return ""
    if isinstance(expected, Near):
        close = isinstance(actual, int | float) and not isinstance(actual, bool) and abs(actual - expected) <= 0.5
        return "" if close else f"{at}: {actual!r} is not near {float(expected)}"
    if isinstance(expected, Kind):
        return "" if json_type(actual) == expected else f"{at}: {actual!r} is not a {expected}"
    if isinstance(expected, Has):
        return "" if isinstance(actual, str) and expected in actual else f"{at}: {expected!r} not in {actual!r}"
    if isinstance(expected, float) or isinstance(actual, float):
        if isinstance(actual, int | float) and not isinstance(actual, bool) and abs(actual - expected) < 1e-3:
            return ""
    return "" if actual == expected else f"{at}: {actual!r} != {expected!r}"


async def call_tool(bridge: Caller, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    # A call that asks the person first is confirmed with its token, as the person would (consent/).
    return await call_confirmed(bridge, tool, args, timeout=60)


async def judge_read(bridge: Caller, read: Read, when: str, own: dict[str, Any] | None = None) -> str:
    """``read`` through the bridge against its expectation (``own``: the judged call's answer, for
    ``Derived`` values)."""
    result = await call_tool(bridge, read.tool, read.args)
    answer = body(result)
    if read.code is not None:
        if answer.get("code") != read.code:
            return f"{when}: {read.tool} should fail {read.code}, got {answer}"[:800]
        return ""
    if result.get("isError"):
        return f"{when}: {read.tool} failed: {answer}"[:800]
    where = missing(answer, resolve(read.contains, own or {}))
    return f"{when}: {read.tool} {where}; got {json.dumps(answer)[:600]}" if where else ""


async def judge_file(host: EngineHost, check: FileHas) -> str:
    kind = await host.path_kind(check.path)
    if check.gone:
        return f"{check.path} still exists" if kind is not None else ""
    if check.dir:
        return "" if kind == "dir" else f"{check.path} is not a folder ({kind})"
    data = await host.read_file(check.path)
    if data is None:
        return f"{check.path} was not written"
    return "" if check.text.encode() in data else f"{check.path} lacks {check.text!r}: {data[:300]!r}"


async def run_call(bridge: Caller, host: EngineHost, call: Call, args: dict[str, Any]) -> Outcome:
    outcome = Outcome(call, args)
    problems = outcome.problems
    result = await call_tool(bridge, call.tool, args)
    outcome.answer = body(result)
    outcome.text_bytes = text_bytes(result)
    outcome.is_error = bool(result.get("isError"))
    if call.code is not None:
        if outcome.answer.get("code") != call.code:
            problems.append(f"expected the toolkit's {call.code}, got {json.dumps(outcome.answer)[:600]}")
        elif not outcome.answer.get("error"):
            problems.append("the failure names no error")
        return outcome
    if outcome.is_error:
        problems.append(f"failed: {json.dumps(outcome.answer)[:800]}")
        return outcome
    where = missing(outcome.answer, call.result)
    if call.image and not any(block.get("type") == "image" and block.get("mimeType") == "image/png"
                              and block.get("data") for block in result.get("content", [])):
        problems.append("no PNG image in the answer")
    if where:
        problems.append(f"answer {where}; got {json.dumps(outcome.answer)[:600]}")
    checks: list[Callable[[], Awaitable[str]]] = []
    if call.file is not None:
        checks.append(lambda: judge_file(host, call.file))  # type: ignore[arg-type]
    if call.effect is not None:
        checks.append(lambda: judge_read(bridge, call.effect, "effect", outcome.answer))  # type: ignore[arg-type]
    for check in checks:
        found = await check()
        if found:
            problems.append(found)
    if call.undone is not None and not problems:
        if not await host.undo():
            problems.append("the editor had nothing to undo")
        elif found := await judge_read(bridge, call.undone, "after undo"):
            problems.append(found)
        elif not await host.redo():
            problems.append("the editor could not redo")
        elif call.effect is not None and (found := await judge_read(bridge, call.effect, "after redo")):
            problems.append(found)
    return outcome


async def prepare(bridge: Caller, host: EngineHost, loaded: set[str], call: Call) -> None:
    """Load the call's group once, and do what the user does first (press Play or Stop)."""
    tool = load_catalogue().tools.get(call.tool)
    if tool is not None and tool.group and tool.group not in loaded:
        await bridge.call_tool("discover_tools", {"request": tool.group})
        loaded.add(tool.group)
    if call.host == "play":
        host.published.runtime.clear()
        if await host.press_play() != 0:
            raise RuntimeError("the engine host did not play the game")
    elif call.host == "stop":
        await host.press_stop()


async def run_calls(bridge: Caller, host: EngineHost, calls: Sequence[Call]) -> list[Outcome]:
    """Every call in order, each after its preparation (group loading, host actions)."""
    outcomes: dict[str, Outcome] = {}
    loaded: set[str] = set()
    for call in calls:
        try:
            args = bound_args(call, outcomes)
            await prepare(bridge, host, loaded, call)
            outcomes[call.name] = await run_call(bridge, host, call, args)
        except Exception as exc:  # one broken call must not hide the others' verdicts
            outcomes[call.name] = Outcome(call, problems=[f"raised {exc!r}"])
    return list(outcomes.values())


def bound_args(call: Call, earlier: dict[str, Outcome]) -> dict[str, Any]:
    args = dict(call.args)
    for name, (source, key) in call.bind.items():
        answer = earlier[source].answer if source in earlier else None
        if not answer or key not in answer:
            raise RuntimeError(f"{call.name}: {source} gave no {key!r} to pass as {name}")
        args[name] = answer[key]
    return args
