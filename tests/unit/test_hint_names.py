"""Every hint, wherever it is written, names only tools that exist and parameters the tool has.

A hint is the advice a model acts on next: "page with offset/limit" on a tool without those
parameters, or "raise it with meta_set_limits" (a toolkit method no MCP client can call), sends it
into a refusal. The hints walked here, from their sources:

- the success hints (catalogue/hints.json), each for its own tool;
- the toolkit's refusals: the hint argument of every ``fail("CODE", message, hint)``, every
  ``"hint": ...`` entry and ``["hint"] = ...`` assignment, every ``*_HINT`` constant, in each
  command file, for the tools of that file's domain (commands/<domain>/ = catalogue/tools/<domain>.json);
- the toolkit's default hint per code (contract/mcp_toolkit_error.gd DEFAULT_HINTS), for every
  tool whose domain files fail with that code;
- the bridge's hints: BRIDGE_HINTS (godot_bridge/errors.py) and every ``hint=`` it passes;
- the size ceilings' generated advice (RESULT_TOO_LARGE, RESPONSE_TOO_LARGE) for every tool.

A name is a tool's when it is a catalogue tool name; a "tool-like" name (a domain prefix such as
``meta_``, ``scene_``) that is none, or a toolkit method spelt with a dot whose tool does not exist,
is an error. A parameter is named when a snake_case word (or a paging word) is some tool's
parameter; it must then be a parameter of the hint's own tools or of a tool the hint names.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from godot_bridge.errors import BRIDGE_HINTS
from godot_bridge.tools import ceiling
from godot_bridge.tools.catalogue import catalogue_dir, load_catalogue
from godot_bridge.tools.results import ToolOutcome, failure
from godot_bridge.errors import ToolError
from tests.sim.hints import default_hints

REPO = Path(__file__).resolve().parents[2]
TOOLKIT = REPO / "addons" / "godot_mcp_toolkit"
sys.path.insert(0, str(REPO / "scripts"))
from gd_common import lex  # noqa: E402

WORD = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
DOTTED = re.compile(r"\b([a-z0-9]+)\.([a-z][a-z_]*)\b")
# Plain words that are parameters and that hints use to name paging.
PAGING = {"offset", "limit", "cursor", "page"}
# snake_case words hints use that are not parameters of the hint's tool: engine properties and
# settings keys, which a hint may well name.
NOT_PARAMETERS = {
    "collision_layer", "collision_mask", "sprite_frames", "script_read_cap_kb", "ws_buffer_kb", "save_read_cap_kb",
    "class_name",
    # A ShaderMaterial's parameters are its properties "shader_parameter/<name>".
    "shader_parameter",
    # A cell's keys in tilemap_set_cells, whose schema (as the reference's) does not list them.
    "source_id", "atlas_x", "atlas_y",
}


@dataclass(frozen=True)
class Hint:
    where: str
    text: str
    tools: frozenset[str]  # the tools the hint is given for


def schema_names(schema: object) -> set[str]:
    """Every property name of a schema, nested ones (``cells[].source_id``) included."""
    names: set[str] = set()
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "properties" and isinstance(value, dict):
                names |= set(value)
            names |= schema_names(value)
    elif isinstance(schema, list):
        for item in schema:
            names |= schema_names(item)
    return names


def catalogue_facts() -> tuple[dict[str, set[str]], set[str], dict[str, str]]:
    """Tool -> its parameters (nested ones too); group names; toolkit method -> tool."""
    cat = load_catalogue()
    params = {name: schema_names(tool.input_schema) for name, tool in cat.tools.items()}
    methods = {tool.method: name for name, tool in cat.tools.items() if tool.method}
    return params, set(cat.groups), methods


PARAMS, GROUPS, METHODS = catalogue_facts()
ALL_PARAMS = set().union(*PARAMS.values())


def toolkit_methods() -> set[str]:
    found: set[str] = set()
    for path in TOOLKIT.rglob("*.gd"):
        found.update(re.findall(r'register_command\(\s*"([a-z0-9_]+\.[a-z_]+)"', path.read_text(encoding="utf-8")))
    return found


TOOLKIT_METHODS = toolkit_methods()
DOMAINS = {name.split("_", 1)[0] for name in PARAMS} | {method.split(".", 1)[0] for method in set(METHODS) | TOOLKIT_METHODS}


def domain_tools(path: Path) -> frozenset[str]:
    """The tools of a toolkit file's domain: commands/<domain>/ is catalogue/tools/<domain>.json."""
    rel = path.relative_to(TOOLKIT).parts
    if rel[0] != "commands" or len(rel) < 3:
        return frozenset()
    data = json.loads((catalogue_dir() / "tools" / f"{rel[1]}.json").read_text(encoding="utf-8"))
    return frozenset(tool["name"] for tool in data["tools"])


# --- reading the hints ---------------------------------------------------------------------------

def _span_end(code: str, start: int, stops: str, lines: bool = True) -> int:
    """Where the expression from ``start`` ends: at a stop character or a closing bracket outside
    brackets, or (``lines``) at a line end that no ``+`` continues."""
    depth = 0
    i = start
    while i < len(code):
        ch = code[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                return i
            depth -= 1
        elif depth == 0 and (ch in stops or (lines and ch == "\n" and code[i - 1] not in "\\+"
                                              and not code[i + 1:].lstrip(" \t").startswith("+"))):
            return i
        i += 1
    return i


def _strings_in(lexed: object, start: int, end: int) -> str:
    return "".join(value for offset, value in lexed.strings if start <= offset < end)  # type: ignore[attr-defined]


def _fail_hints(text: str) -> Iterator[tuple[int, str]]:
    lexed = lex(text)
    code = lexed.code
    for match in re.finditer(r"\bfail\(", code):
        args: list[tuple[int, int]] = []
        start = match.end()
        while start < len(code):
            end = _span_end(code, start, ",", lines=False)
            args.append((start, end))
            if end >= len(code) or code[end] != ",":
                break
            start = end + 1
        if len(args) >= 3:
            yield text.count("\n", 0, match.start()) + 1, _strings_in(lexed, *args[2])
    for match in re.finditer(r'"hint"\s*\]?\s*[:=]', text):
        if code[match.start()] != '"':
            continue
        end = _span_end(code, match.end(), ",}")
        yield text.count("\n", 0, match.start()) + 1, _strings_in(lexed, match.end(), end)
    for match in re.finditer(r'^const [A-Z_]*HINT[A-Z_]* := (?=")', code, re.M):
        end = _span_end(code, match.end(), "")
        yield text.count("\n", 0, match.start()) + 1, _strings_in(lexed, match.end(), end)


def toolkit_hints() -> list[Hint]:
    hints = []
    for path in sorted(TOOLKIT.rglob("*.gd")):
        tools = domain_tools(path)
        for line, text in _fail_hints(path.read_text(encoding="utf-8")):
            if text.strip():
                hints.append(Hint(f"{path.relative_to(REPO)}:{line}", text, tools))
    return hints


def codes_by_tools() -> dict[str, frozenset[str]]:
    """Error code -> the tools whose domain files fail with it (who a default hint reaches)."""
    reach: dict[str, set[str]] = {}
    for path in TOOLKIT.rglob("*.gd"):
        tools = domain_tools(path)
        for code in re.findall(r'fail\(\s*"([A-Z_]+)"', path.read_text(encoding="utf-8")):
            reach.setdefault(code, set()).update(tools)
    return {code: frozenset(tools) for code, tools in reach.items()}


def bridge_hints() -> list[Hint]:
    hints = [Hint(f"godot_bridge/errors.py BRIDGE_HINTS[{code}]", text, frozenset()) for code, text in BRIDGE_HINTS.items()]
    for path in sorted((REPO / "godot_bridge").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.keyword) or node.arg != "hint":
                continue
            parts = [node.value] if not isinstance(node.value, ast.JoinedStr) else node.value.values
            text = "".join(part.value for part in parts if isinstance(part, ast.Constant) and isinstance(part.value, str))
            if text.strip():
                hints.append(Hint(f"{path.relative_to(REPO)}:{node.value.lineno}", text, frozenset()))
    return hints


# --- judging one ---------------------------------------------------------------------------------

def problems_of(hint: Hint) -> list[str]:
    problems = []
    named = {word for word in WORD.findall(hint.text) if word in PARAMS}
    for word in WORD.findall(hint.text):
        if word in PARAMS or word in GROUPS or word in ALL_PARAMS or word in NOT_PARAMETERS:
            continue
        if word.split("_", 1)[0] in DOMAINS:
            problems.append(f"{hint.where}: names {word}, which is no tool: {hint.text!r}")
    for domain, verb in DOTTED.findall(hint.text):
        method = f"{domain}.{verb}"
        if method in TOOLKIT_METHODS and method not in METHODS:
            problems.append(f"{hint.where}: names {method}, a toolkit method with no tool: {hint.text!r}")
        elif method in METHODS:
            named.add(METHODS[method])
    own = set().union(*(PARAMS[tool] for tool in hint.tools | named)) if hint.tools | named else set()
    mentioned = {word for word in WORD.findall(hint.text) if word in ALL_PARAMS and word not in PARAMS}
    mentioned |= {word for word in re.findall(r"\b[a-z]+\b", hint.text) if word in PAGING and word in ALL_PARAMS}
    if not hint.tools and not named:
        # A bridge hint is not tied to one tool: what it names must be one real tool's parameters.
        own = next((PARAMS[tool] for tool in PARAMS if mentioned <= PARAMS[tool]), set())
    for word in sorted(mentioned - own - NOT_PARAMETERS - GROUPS):
        whose = sorted(hint.tools) or ["any tool"]
        problems.append(f"{hint.where}: names parameter {word}, which {', '.join(whose[:4])} does not have: {hint.text!r}")
    return problems


# --- the walk ------------------------------------------------------------------------------------

def test_success_hints_name_real_tools_and_their_parameters():
    hints = json.loads((catalogue_dir() / "hints.json").read_text(encoding="utf-8"))["hints"]
    found = [p for tool, text in hints.items() for p in problems_of(Hint(f"hints.json[{tool}]", text, frozenset({tool})))]
    assert found == []


def test_toolkit_refusal_hints_name_real_tools_and_their_parameters():
    hints = toolkit_hints()
    assert len(hints) > 250, "the toolkit's sources were read"
    found = [p for hint in hints for p in problems_of(hint)]
    assert found == [], "\n".join(found)


def test_toolkit_default_hints_name_only_what_every_tool_they_reach_has():
    reach = codes_by_tools()
    found = []
    for code, text in default_hints().items():
        found += problems_of(Hint(f"DEFAULT_HINTS[{code}]", text, reach.get(code, frozenset())))
    assert found == [], "\n".join(found)


def test_bridge_hints_name_real_tools_and_parameters():
    hints = bridge_hints()
    assert len(hints) > 30
    found = [p for hint in hints for p in problems_of(hint)]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("tool", sorted(PARAMS))
def test_the_size_ceilings_advise_each_tool_with_its_own_parameters(tool: str):
    schema = load_catalogue().tools[tool].input_schema
    advice = ceiling.narrowing_advice(tool, schema)
    assert set(re.findall(r"tighter (.*)$", advice)[0].split(", ") if "tighter" in advice else []) <= PARAMS[tool]
    frame = failure(ToolError("RESPONSE_TOO_LARGE", "the response is 1200 KiB", hint="page with offset/limit"))
    rewritten = ceiling.check(tool, schema, frame, 16 * 1024)
    assert rewritten is not None and isinstance(rewritten, ToolOutcome)
    assert problems_of(Hint(f"RESPONSE_TOO_LARGE for {tool}", rewritten.structured["hint"], frozenset({tool}))) == []
    assert rewritten.structured["code"] == "RESPONSE_TOO_LARGE"
    assert "GODOT_MCP_WS_BUFFER_LIMIT" in rewritten.structured["hint"]


def test_a_too_large_settings_read_names_a_narrower_prefix():
    """Issue: project_get_settings {"prefix": "input/"} on 3d/platformer never answered; a refusal of
    its frame must name the tool's own ways to ask for less: a longer prefix, or the next page."""
    schema = load_catalogue().tools["project_get_settings"].input_schema
    frame = failure(ToolError("RESPONSE_TOO_LARGE", "the response is 1200 KiB"))
    rewritten = ceiling.check("project_get_settings", schema, frame, 16 * 1024)
    assert rewritten is not None
    assert "tighter prefix, offset" in rewritten.structured["hint"]


def test_the_walk_catches_what_it_is_for():
    assert problems_of(Hint("x", "Raise script_read_cap_kb with meta_set_limits.", frozenset({"script_read"})))
    assert problems_of(Hint("x", "or raise it with meta.set_limits", frozenset()))
    assert problems_of(Hint("x", "Ask for less (page with offset/limit).", frozenset({"resource_write"})))
    assert not problems_of(Hint("x", "Continue with offset 3.", frozenset({"resource_load"})))
    assert not problems_of(Hint("x", "Read it with script_read (start_line).", frozenset()))
