"""A ``.tscn`` scene's node tree, read from its text as the editor's Scene dock shows it.

``read_scene(path, load)`` assembles the tree the way Godot instantiates a scene file: each
``[node]`` is a new node, or (no ``type``, no ``instance``) an override of a node that another
file declares: the inherited scene's base (an ``instance=`` root), or an instanced sub-scene
whose children the scene edits (``[editable path=...]``). Those files are read too, through
``load`` (which guards the path and bounds the size), at most ``MAX_DEPTH`` files deep and
``MAX_FILES`` files in all, so the tree has their nodes, classes and scripts.

Which nodes are listed is the editor's rule (the toolkit's commands/scene/node_query.gd; both run
the cases of tests/fixtures/toolkit/scene_listing_cases.json): the scene's own nodes (its root's,
and an inherited base's), and the insides of an instanced sub-scene only when it is editable. A node
stays ``instance``: its file. ``index`` places a node among its siblings as Godot does. A file that
cannot be read (binary, imported such as a ``.glb``, missing, too deep) does not fail the scene: the
nodes this file adds inside it are listed where they attach, under stand-ins for the nodes of that
file (``class`` null, ``declared_in``: the file).

Each node: ``name``, ``class`` (a script's ``class_name`` when it has one, as the editor
labels it; null when no file says), ``path`` (``.`` for the root), ``children``, and when they
apply ``instance``, ``script``, ``declared_in``. The shape of the toolkit's scene.get_tree.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from godot_bridge.godot_files.text_format import GodotFormatError, Section, call_arg, sections
from godot_bridge.tools.answer_budget import text_size
from godot_bridge.tools.toolkit_consts import toolkit_int

MAX_DEPTH = 8  # scenes instancing scenes: deeper than any real project, short of a loop
MAX_FILES = 64  # other scene files read for one scene
MAX_SCRIPTS = 256  # scripts read for their class_name
_CLASS_NAME = re.compile(r"^class_name\s+([A-Za-z_][A-Za-z0-9_]*)", re.MULTILINE)


class SceneFormatError(GodotFormatError):
    """The text is not a ``.tscn`` scene; the message says why."""


@dataclass(frozen=True)
class Loaded:
    """A file ``load`` read: the res:// path it was found at, and its text."""

    path: str
    text: str


# ``load(path, uid)``: the text of a project file (found by its path, else by its uid), or None
# when it cannot be read (missing, binary, outside the project, too big).
Loader = Callable[[str, "str | None"], "Loaded | None"]


@dataclass(eq=False)
class _Node:
    name: str
    cls: str | None
    children: list[_Node] = field(default_factory=list)
    instance: str | None = None  # the scene file this node instances
    script: str | None = None
    declared_in: str | None = None  # a stand-in for a node of a file that could not be read
    # The instance node whose file declared this node; None: the scene's own (its root's).
    owner: _Node | None = None
    editable: bool = False  # an instance whose insides the scene lists (Editable Children)
    loaded: bool = False  # an instance whose file was read

    def child(self, name: str) -> _Node | None:
        return next((c for c in self.children if c.name == name), None)

    def clone(self, mapping: dict[int, _Node] | None = None) -> _Node:
        mapping = {} if mapping is None else mapping
        copy = _Node(self.name, self.cls, [], self.instance, self.script, self.declared_in,
                     mapping.get(id(self.owner)) if self.owner is not None else None, self.editable, self.loaded)
        mapping[id(self)] = copy
        copy.children = [child.clone(mapping) for child in self.children]
        return copy

    def walk(self) -> list[_Node]:
        out = [self]
        for child in self.children:
            out.extend(child.walk())
        return out


class _Reader:
    def __init__(self, load: Loader) -> None:
        self.load = load
        self.files_read = 0
        self.scripts_read = 0
        self.cache: dict[str, _Node | None] = {}
        self.class_names: dict[str, str | None] = {}

    # -- other files -----------------------------------------------------------------------------

    def _fetch(self, path: str, uid: str | None) -> Loaded | None:
        if self.files_read >= MAX_FILES:
            return None
        self.files_read += 1
        return self.load(path, uid)

    def scene(self, path: str, uid: str | None, depth: int) -> tuple[str, _Node | None]:
        """The tree of another scene file (a fresh copy), or None when it cannot be read."""
        if depth > MAX_DEPTH or not path.lower().endswith(".tscn"):
            return path, None
        if path not in self.cache:
            self.cache[path] = None  # also what a scene that instances itself finds
            loaded = self._fetch(path, uid)
            if loaded is not None:
                try:
                    self.cache[path] = self.build(loaded.text, depth)
                except GodotFormatError:
                    pass
        tree = self.cache[path]
        return path, tree.clone() if tree is not None else None

    def class_name(self, script: str | None) -> str | None:
        """A GDScript's ``class_name``: the editor labels a scripted node with it."""
        if script is None or not script.lower().endswith(".gd"):
            return None
        if script not in self.class_names:
            loaded = None
            if self.scripts_read < MAX_SCRIPTS:
                self.scripts_read += 1
                loaded = self.load(script, None)
            match = _CLASS_NAME.search(loaded.text) if loaded is not None else None
            self.class_names[script] = match.group(1) if match else None
        return self.class_names[script]

    # -- this file ------------------------------------------------------------------------------

    def build(self, text: str, depth: int) -> _Node:
        if not text.lstrip().startswith("[gd_scene"):
            raise SceneFormatError("it does not start with a [gd_scene] header (not a text scene)")
        ext: dict[str, tuple[str, str | None]] = {}
        root: _Node | None = None
        editable: list[str] = []
        for section in sections(text, props=("script",)):
            if section.kind == "ext_resource":
                rid, path = section.text("id"), section.text("path")
                if rid is not None and path is not None:
                    ext[rid] = (path, section.text("uid"))
            elif section.kind == "node":
                if section.text("parent") is None:
                    if root is not None:
                        raise SceneFormatError(f"it has two root nodes (line {section.line} is a second "
                                               "[node] without a parent)")
                    root = self._root(section, ext, depth)
                elif root is None:
                    raise SceneFormatError(f"the [node] on line {section.line} names a parent before any root node")
                else:
                    self._add(root, section, ext, depth)
            elif section.kind == "editable":
                path = section.text("path")
                if path is not None:
                    editable.append(path)
        if root is None:
            raise SceneFormatError("it has no root [node] section")
        for path in editable:
            node = _find(root, path)
            if node is not None:
                node.editable = True
        return root

    def _ext(self, section: Section, key: str, ext: dict[str, tuple[str, str | None]]) -> tuple[str, str | None] | None:
        raw = section.attrs.get(key)
        if raw is None:
            return None
        if raw.lstrip().startswith('"'):  # instance_placeholder="res://..."
            return section.text(key) or "", None
        return ext.get(call_arg(raw), (call_arg(raw), None))

    def _script(self, section: Section, ext: dict[str, tuple[str, str | None]]) -> str | None:
        raw = section.props.get("script")
        if raw is None or raw.strip() == "null":
            return None
        return ext.get(call_arg(raw), (None, None))[0]

    def _instance(self, node: _Node, source: tuple[str, str | None], depth: int) -> None:
        """Give ``node`` the tree of the scene it instances: its class, script and (owned by it) insides."""
        path, tree = self.scene(source[0], source[1], depth + 1)
        node.instance = path
        if tree is None:
            return
        node.loaded = True
        node.cls = node.cls or tree.cls
        node.script = tree.script
        node.editable = False
        node.children = tree.children
        for inside in tree.walk()[1:]:
            if inside.owner is None:
                inside.owner = node

    def _root(self, section: Section, ext: dict[str, tuple[str, str | None]], depth: int) -> _Node:
        root = _Node(section.text("name") or "", section.text("type"))
        base = self._ext(section, "instance", ext)
        if base is not None:  # an inherited scene: the base's nodes are the scene's own
            self._instance(root, base, depth)
            for inside in root.walk()[1:]:
                if inside.owner is root:
                    inside.owner = None
            root.editable = False
        root.script = self._script(section, ext) or root.script
        return root

    def _add(self, root: _Node, section: Section, ext: dict[str, tuple[str, str | None]], depth: int) -> None:
        parent_path = section.text("parent") or "."
        parent = _reach(root, parent_path)
        name = section.text("name") or ""
        instance = self._ext(section, "instance", ext) or self._ext(section, "instance_placeholder", ext)
        node = parent.child(name)
        if node is None and section.text("type") is None and instance is None:
            # An override of a node another file declares, which could not be read: its stand-in.
            node = _reach(root, name if parent_path == "." else f"{parent_path}/{name}")
        elif node is None or section.text("type") is not None or instance is not None:
            if node is not None:  # a new node of the same name: Godot replaces the old one
                parent.children.remove(node)
            node = _Node(name, section.text("type"))
            parent.children.append(node)
            if instance is not None:
                self._instance(node, instance, depth)
        script = self._script(section, ext)
        if script is not None:
            node.script = script
        index = section.text("index")
        if index is not None and index.lstrip("-").isdigit() and int(index) >= 0:
            parent.children.remove(node)
            parent.children.insert(min(int(index), len(parent.children)), node)

    def shown(self, node: _Node, path: str) -> dict[str, Any]:
        out: dict[str, Any] = {"name": node.name, "class": self.class_name(node.script) or node.cls, "path": path}
        if node.instance is not None and path != ".":
            out["instance"] = node.instance
        if node.script is not None:
            out["script"] = node.script
        if node.declared_in is not None:
            out["declared_in"] = node.declared_in
        out["children"] = [self.shown(child, child.name if path == "." else f"{path}/{child.name}")
                           for child in node.children if _listed(child)]
        return out


def _listed(node: _Node) -> bool:
    """The editor's rule: the scene's own nodes, and the insides of an editable instance."""
    return node.owner is None or node.owner.editable


def _find(root: _Node, path: str) -> _Node | None:
    node: _Node | None = root
    for part in [p for p in path.split("/") if p not in ("", ".")]:
        node = node.child(part) if node is not None else None
    return node


def _reach(root: _Node, path: str) -> _Node:
    """The node at ``path``; the parts no file read declares become stand-ins for them, owned by
    the instance whose file should have declared them (so they are listed like its insides)."""
    node = root
    for part in [p for p in path.split("/") if p not in ("", ".")]:
        found = node.child(part)
        if found is None:
            holder = node if node.instance is not None else node.owner
            declared_in = holder.instance if holder is not None else None
            found = _Node(part, None, declared_in=declared_in or "(unknown)",
                          owner=holder if holder is not None and holder is not root else None)
            node.children.append(found)
        node = found
    return node


def read_scene(text: str, load: Loader) -> dict[str, Any]:
    """The listed tree of a ``.tscn``'s text; raises SceneFormatError when it is no text scene."""
    reader = _Reader(load)
    return reader.shown(reader.build(text, 0), ".")


def count_nodes(tree: dict[str, Any]) -> int:
    return 1 + sum(count_nodes(child) for child in tree.get("children", []))


# Room kept for the child_count a cut node gets: the toolkit's figure, so both cut a tree alike.
_CHILD_COUNT_BYTES = toolkit_int("commands/scene/node_query.gd", "CHILD_COUNT_BYTES")


def cut_tree(tree: dict[str, Any], room: int) -> tuple[dict[str, Any], int]:
    """``tree`` cut breadth-first (the levels nearest the root kept) so its JSON takes at most about
    ``room`` bytes, as scene.get_tree cuts an editor's tree: a node whose children were left out
    says how many it has (``child_count``). Returns the cut tree and how many nodes it holds."""
    def bare(node: dict[str, Any]) -> dict[str, Any]:
        return {**{k: v for k, v in node.items() if k != "children"}, "children": []}

    top = bare(tree)
    used = text_size(top)
    returned = 1
    queue = [(tree, top)]
    full = False
    while queue:
        node, shown = queue.pop(0)
        for child in node.get("children", []):
            entry = bare(child)
            # Room for the child_count it gets if its own children are cut.
            size = text_size(entry) + 1 + (_CHILD_COUNT_BYTES if child.get("children") else 0)
            if full or used + size > room:
                full = True
                shown["child_count"] = len(node["children"])
                break
            used += size
            shown["children"].append(entry)
            returned += 1
            queue.append((child, entry))
    return top, returned
