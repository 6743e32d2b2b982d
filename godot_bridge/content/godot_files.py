"""Read Godot's own text files without an editor: ``project.godot`` and ``.tscn`` scenes.

Only what the MCP resources need: a project's name and main scene, and a scene's
node tree (name, class, path, children). Pure functions over text, so they are
unit-testable and never touch the editor or its state.
"""

from __future__ import annotations

import re
from typing import Any

_SECTION = re.compile(r"^\[(?P<name>[^\]\s]+)(?P<attrs>[^\]]*)\]\s*$")
# key="quoted \"value\"" | key=Call("x") | key=bare
_ATTR = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\w+\([^)]*\)|[^\s\]]+)')
_CALL_ARG = re.compile(r'^\w+\(\s*"?([^")]*)"?\s*\)$')


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    return value


def project_settings(text: str) -> dict[str, str]:
    """``section/key`` -> value (unquoted) for every simple line of a ``project.godot``."""
    out: dict[str, str] = {}
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        match = _SECTION.match(line)
        if match:
            section = match.group("name")
            continue
        key, eq, value = line.partition("=")
        if eq and section:
            out[f"{section}/{key.strip()}"] = _unquote(value)
    return out


def _attrs(text: str) -> dict[str, str]:
    return {key: _unquote(value) for key, value in _ATTR.findall(text)}


def _call_arg(value: str) -> str:
    """``ExtResource("1_abc")`` -> ``1_abc`` (Godot 4); ``ExtResource(1)`` -> ``1`` (Godot 3 style)."""
    match = _CALL_ARG.match(value.strip())
    return match.group(1) if match else value


class SceneFormatError(ValueError):
    """The text is not a ``.tscn`` scene we can read; the message says why."""


def scene_tree(text: str) -> dict[str, Any]:
    """The node tree of a ``.tscn``: ``{name, class, path, children}`` per node, root path ``"."``.

    An instanced sub-scene has ``instance`` (its res:// path) and, when the file does not name a
    type, ``class`` ``null``: the class lives in the other file.
    """
    lines = text.splitlines()
    if not lines or not lines[0].lstrip().startswith("[gd_scene"):
        raise SceneFormatError("it does not start with a [gd_scene] header (not a text scene)")
    ext: dict[str, str] = {}
    root: dict[str, Any] | None = None
    by_path: dict[str, dict[str, Any]] = {}
    for raw in lines:
        match = _SECTION.match(raw.strip())
        if not match:
            continue
        kind, attrs = match.group("name"), _attrs(match.group("attrs"))
        if kind == "ext_resource" and "id" in attrs and "path" in attrs:
            ext[attrs["id"]] = attrs["path"]
        elif kind == "node":
            node = _node(attrs, ext)
            parent = attrs.get("parent")
            if parent is None:
                if root is not None:
                    raise SceneFormatError("it has two root nodes (two [node] sections without a parent)")
                node["path"] = "."
                root = node
                by_path["."] = node
                continue
            holder = by_path.get(parent)
            if holder is None:
                raise SceneFormatError(f"node {attrs.get('name')!r} names parent {parent!r}, which comes nowhere before it")
            node["path"] = node["name"] if parent == "." else f"{parent}/{node['name']}"
            holder["children"].append(node)
            by_path[node["path"]] = node
    if root is None:
        raise SceneFormatError("it has no root [node] section")
    return root


def _node(attrs: dict[str, str], ext: dict[str, str]) -> dict[str, Any]:
    node: dict[str, Any] = {"name": attrs.get("name", ""), "class": attrs.get("type"), "children": []}
    if "instance" in attrs:
        node["instance"] = ext.get(_call_arg(attrs["instance"]), _call_arg(attrs["instance"]))
    return node


def count_nodes(tree: dict[str, Any]) -> int:
    return 1 + sum(count_nodes(child) for child in tree.get("children", []))
