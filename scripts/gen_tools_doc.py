#!/usr/bin/env python3
"""Generate docs/tools.md, the tool reference, from the sources that define each fact.

- what a tool does, its parameters, group, annotations and version gate: the catalogue
  (catalogue/tools/*.json, groups.json), as the bridge serves it;
- what it returns: the toolkit's result examples (tests/fixtures/toolkit/results/*.json), which the
  GDScript tests check against the real toolkit;
- its errors: the codes the toolkit handler (and the same-file functions it reaches) can fail with,
  read from addons/godot_mcp_toolkit (the same handler resolution as scripts/gd_drift.py), plus the
  codes of its failure examples (which catch codes raised in helper modules the handler calls).

`--check` exits 1 when docs/tools.md differs from what would be generated (CI runs it through
tests/docs/test_tools_doc.py), so the reference never goes stale.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gd_drift  # noqa: E402
from gd_common import REPO  # noqa: E402

from godot_bridge.consent.policy import Policy, offered, when_text  # noqa: E402
from godot_bridge.tools.catalogue import Catalogue, ToolDef, load_catalogue  # noqa: E402
from godot_bridge.tools.counts import count  # noqa: E402

DOC = Path("docs/tools.md")
RESULTS = Path("tests/fixtures/toolkit/results")
_FAIL_CODE = re.compile(r"\bfail\(\s*\"([A-Z][A-Z0-9_]+)\"")
_CODE_CONST = re.compile(r"\"([A-Z][A-Z0-9_]{3,})\"")


def load_examples(repo: Path) -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = {}
    for path in sorted((repo / RESULTS).glob("*.json")):
        for method, examples in json.loads(path.read_text(encoding="utf-8")).items():
            found.setdefault(method, []).extend(examples)
    return found


def error_codes(
    repo: Path, method: str, registered: dict[str, str], vocabulary: set[str], examples: list[dict[str, Any]]
) -> list[str]:
    rel = registered.get(method)
    if rel is None:
        return []
    body = gd_drift.handler_text((repo / rel).read_text(encoding="utf-8"), method, gd_drift.repo_loader(repo)) or ""
    codes = set(_FAIL_CODE.findall(body)) | {c for c in _CODE_CONST.findall(body) if c in vocabulary}
    for example in examples:
        result = example.get("result", {})
        if result.get("success") is False and result.get("code") in vocabulary:
            codes.add(result["code"])
    return sorted(codes)


def vocabulary(repo: Path) -> set[str]:
    source = (repo / gd_drift.TOOLKIT / "contract" / "mcp_toolkit_error.gd").read_text(encoding="utf-8")
    return set(re.findall(r"\"([A-Z][A-Z0-9_]+)\"", source))


def _type_of(schema: dict[str, Any]) -> str:
    if "enum" in schema:
        return " \\| ".join(f"`{json.dumps(v)}`" for v in schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, list):
        return " \\| ".join(kind)
    if kind == "array":
        items = schema.get("items")
        inner = _type_of(items) if isinstance(items, dict) and items else "any"
        return f"array of {inner}"
    if "anyOf" in schema:
        return " \\| ".join(_type_of(s) for s in schema["anyOf"] if isinstance(s, dict))
    return str(kind) if kind else "any"


def _param_rows(tool: ToolDef) -> list[str]:
    props: dict[str, Any] = tool.input_schema.get("properties", {})
    if not props:
        return ["No parameters."]
    required = set(tool.input_schema.get("required", []))
    rows = ["| parameter | type | required | notes |", "| --- | --- | --- | --- |"]
    for name, schema in props.items():
        schema = schema if isinstance(schema, dict) else {}
        notes: list[str] = []
        if "default" in schema:
            notes.append(f"default `{json.dumps(schema['default'])}`")
        for key, word in (("minimum", "min"), ("maximum", "max"), ("minItems", "min items")):
            if key in schema:
                notes.append(f"{word} {schema[key]}")
        if name in tool.path_params:
            notes.append("under " + ", ".join(f"`{p}`" for p in tool.path_params[name]))
        if schema.get("description"):
            notes.append(str(schema["description"]).replace("|", "\\|"))
        rows.append(f"| `{name}` | {_type_of(schema)} | {'yes' if name in required else ''} | {'; '.join(notes)} |")
    return rows


def _returns(tool: ToolDef, examples: dict[str, list[dict[str, Any]]], pending: set[str]) -> str:
    if tool.method is None or tool.channel in ("bridge", "lsp"):
        return "Answered by the bridge itself."
    if tool.method in pending:
        return "Not implemented by this toolkit yet (the call answers `method not found`)."
    ok = [e for e in examples.get(tool.method, []) if e.get("result", {}).get("success") is True]
    if not ok:
        return "See the toolkit's reply (no recorded example yet)."
    keys = [k for k in ok[0]["result"] if k != "success"]
    return "`success: true` with " + (", ".join(f"`{k}`" for k in keys) if keys else "nothing else") + "."


def _flags(tool: ToolDef) -> str:
    hints = tool.annotations
    flags = ["read-only" if hints.get("readOnlyHint") else "changes the project"]
    if hints.get("destructiveHint"):
        flags.append("destructive")
    if hints.get("idempotentHint"):
        flags.append("idempotent")
    if tool.godot_min:
        flags.append(f"Godot {tool.godot_min}+")
    flags.append({"editor": "runs in the editor", "runtime": "runs in the game", "lsp": "language server",
                  "bridge": "bridge"}[tool.channel])
    return " · ".join(flags)


def render(repo: Path = REPO) -> str:
    catalogue: Catalogue = load_catalogue(repo / "catalogue")
    examples = load_examples(repo)
    registered = gd_drift.registered_methods(repo)
    pending = set(gd_drift.read_pending(repo / gd_drift.PENDING_FILE))
    vocab = vocabulary(repo)
    counts = count(catalogue)
    sections: list[tuple[str, str, list[ToolDef]]] = [
        ("Always on", "In `tools/list` from the start.", [t for t in catalogue.tools.values() if t.always_on])
    ]
    for group in catalogue.groups.values():
        members = [t for t in catalogue.tools.values() if t.group == group.name]
        sections.append((f"Group `{group.name}`", group.description + " Load with `discover_tools`.", members))
    out = [
        "# Tool reference",
        "",
        "<!-- Generated by scripts/gen_tools_doc.py from the catalogue, the toolkit's result examples and",
        "     its handlers. Do not edit by hand: run `python scripts/gen_tools_doc.py`. -->",
        "",
        f"{counts.tools} tools: {counts.always_on} always on, the rest in {counts.groups} groups that "
        "`discover_tools` loads.",
        "",
    ]
    for title, intro, tools in sections:
        out += [f"## {title}", "", intro, ""]
        for tool in tools:
            out += [f"### `{tool.name}`", "", tool.description, "", f"*{_flags(tool)}*", ""]
            # As the bridge serves it under the default confirmation policy (dry_run, confirmation_token).
            out += _param_rows(offered(tool) if Policy().may_ask(tool) else tool)
            if tool.asks is not None:
                out += ["", f"**Asks the person first** ({when_text(tool)}): {tool.asks.because}"]
            if tool.writes:
                writing = ", ".join(f"`{param}`" + (f" {' or '.join(f'`{v}`' for v in values)}" if values else "")
                                    for param, values in tool.writes.items())
                out += ["", f"**In read-only mode** {writing} is refused: it writes a file, and read-only mode "
                        "writes nothing."]
            out += ["", f"**Returns:** {_returns(tool, examples, pending)}", ""]
            codes = error_codes(repo, tool.method or "", registered, vocab, examples.get(tool.method or "", []))
            if codes:
                out += ["**Errors:** " + ", ".join(f"`{c}`" for c in codes), ""]
    return "\n".join(out).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail when docs/tools.md is stale")
    parser.add_argument("--repo", type=Path, default=REPO)
    args = parser.parse_args(argv)
    text = render(args.repo)
    target = args.repo / DOC
    if args.check:
        current = target.read_text(encoding="utf-8") if target.is_file() else ""
        if current != text:
            print(f"{DOC} is stale: run python scripts/gen_tools_doc.py", file=sys.stderr)
            return 1
        print(f"{DOC} is up to date")
        return 0
    target.write_text(text, encoding="utf-8")
    print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
