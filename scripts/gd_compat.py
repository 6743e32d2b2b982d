#!/usr/bin/env python3
"""CI: the toolkit loads and runs on every Godot from 4.2 to 4.7, and keeps its own vocabularies.

Checks over addons/godot_mcp_toolkit/**.gd, driven by the godot-compat-map.tsv in tests/data/reference
(columns: kind, symbol, present [6 flags for 4.2..4.7], intro, note, detail):

1. Engine classes: every engine class named in code exists in all of 4.2..4.7. Naming a class
   4.2 lacks is a parse error there, so no runtime guard can save it: reach it through ClassDB or
   Engine.get_singleton with a string instead.
2. Members on a known receiver (a class/singleton name, a typed variable or parameter, an
   `as Type` cast, `self` or a bare call in a script extending an engine class): a member absent
   in some version fails to compile there even behind a guard, so it is always an error; use
   `obj.call("member")` behind a check.
3. Members on an unknown receiver (untyped values, call chains): a direct `.member(` or a dynamic
   `call("member")` of a member added after 4.2 is an error unless the same function checks
   has_method("member"), ClassDB.class_has_method/class_exists, Engine.get_version_info() or a
   *_at_least(...) helper. Very common names (start, get_path, ...) are skipped to keep the
   heuristic quiet.
4. Settings: every "mcp_toolkit/..." key literal and every `<settings alias>.<CONST>` used outside
   settings/settings_registration.gd is registered there.
5. Error codes: every fail("CODE", ...) code is in the 56-code vocabulary (the reference's
   error-codes.json), and contract/mcp_toolkit_error.gd CODES equals that vocabulary.
6. Export safety: no file reachable from the game process (runtime/**, files marked
   RUNTIME-REACHABLE, and every script they spell out as a ".gd" path string or name by
   class_name) names an Editor* class.
7. Editor glue is listed: only the files in gd_common.EDITOR_GLUE name an Editor* class.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gd_common import (  # noqa: E402
    COMPAT_MAP_NAME,
    EDITOR_GLUE,
    ERROR_CODES_NAME,
    REPO,
    TOOLKIT,
    Lexed,
    enclosing,
    fail_exit,
    find_reference,
    functions,
    gd_files,
    lex,
    line_of,
    resolve_script_path,
)

VERSIONS = ("4.2", "4.3", "4.4", "4.5", "4.6", "4.7")
SETTINGS_FILE = TOOLKIT / "settings" / "settings_registration.gd"
ERROR_FILE = TOOLKIT / "contract" / "mcp_toolkit_error.gd"
RUNTIME_DIR = TOOLKIT / "runtime"
RUNTIME_MARKER = "RUNTIME-REACHABLE"
SETTING_KEY = re.compile(r"^mcp_toolkit/[a-z0-9_]+(?:/[a-z0-9_]+)+$")

# Names too common to pin on one class when the receiver's type is unknown: builtin Variant
# methods and everyday engine members that merely gained an overload or a twin elsewhere.
COMMON_NAMES = frozenset(
    """
    add_item angle append_arrays capture clear_history close_file connections create_empty debug
    deselect duplicate duplicate_deep edit enabled find_action from_dictionary get_bounds get_depth
    get_description get_format get_frame get_name get_next get_param get_path get_range get_rid
    get_seed get_size get_tags get_visible has_feature has_object has_section image insert_text
    is_closed is_enabled is_finished is_playing is_selected location merge optimize relative
    reset resize scale seed seek select set_active set_depth set_description set_enabled
    set_format set_frame set_method set_name set_param set_position set_seed set_tags set_visible
    start stop tags to_dictionary visible
    """.split()
)
GUARD_PATTERNS = (
    r"Engine\s*\.\s*get_version_info\s*\(",
    r"ClassDB\s*\.\s*class_exists\s*\(",
    r"\b\w*at_least\w*\s*\(",
    r"VersionUtils\s*\.\s*(?:within|compare)\s*\(",
)


@dataclass
class CompatMap:
    classes: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # name -> present, intro, parent
    members: dict[tuple[str, str], tuple[str, str, str]] = field(default_factory=dict)  # -> kind, present, intro
    after_42: dict[str, set[str]] = field(default_factory=dict)  # member name -> classes adding it after 4.2

    def is_engine_class(self, name: str) -> bool:
        return name in self.classes

    def ancestors(self, cls: str) -> list[str]:
        chain: list[str] = []
        current = self.classes.get(cls, ("", "", ""))[2]
        while current and current not in chain and current != cls:
            chain.append(current)
            current = self.classes.get(current, ("", "", ""))[2]
        return chain

    def lookup(self, cls: str, member: str) -> tuple[str, str, str, str] | None:
        """(owner, kind, present, intro) of `member` on `cls` or an ancestor, if the map lists it.

        A member that vanishes from a class in exactly the versions where a newly introduced
        ancestor appears was hoisted into that ancestor (TCPServer.stop -> SocketServer in 4.6),
        not removed: its presence is then reported as the union of both.
        """
        for owner in [cls, *self.ancestors(cls)]:
            row = self.members.get((owner, member))
            if row:
                kind, present, intro = row
                return (owner, kind, self._with_hoisting(owner, present), intro)
        return None

    def _with_hoisting(self, owner: str, present: str) -> str:
        if not present.startswith("Y") or _all_versions(present):
            return present
        merged = list(present)
        for ancestor in self.ancestors(owner):
            ancestor_present = self.classes.get(ancestor, ("",))[0]
            if ancestor_present.startswith("Y"):
                continue  # an old ancestor did not absorb anything new
            for i, flag in enumerate(ancestor_present):
                if flag == "Y":
                    merged[i] = "Y"
        return "".join(merged)


def load_map(path: Path) -> CompatMap:
    cmap = CompatMap()
    with path.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            kind, symbol, present, intro = row["kind"], row["symbol"], row["present"], row["intro"]
            if kind == "class":
                cmap.classes[symbol] = (present, intro, row.get("detail") or "")
            elif kind == "singleton":
                name = symbol.split(":", 1)[-1]
                parent = cmap.classes.get(name, ("", "", "Object"))[2]
                cmap.classes.setdefault(name, (present, intro, parent))
            elif kind in {"method", "property", "signal", "enum"} and "." in symbol:
                cls, member = symbol.split(".", 1)
                cmap.members[(cls, member)] = (kind, present, intro)
                if kind != "enum" and not present.startswith("Y"):
                    cmap.after_42.setdefault(member, set()).add(cls)
    return cmap


def describe_presence(present: str, intro: str) -> str:
    if not present.startswith("Y"):
        return f"added in {intro}"
    missing = [v for v, flag in zip(VERSIONS, present) if flag != "Y"]
    return f"missing in {', '.join(missing)}"


def _all_versions(present: str) -> bool:
    return present == "Y" * len(VERSIONS)


# --- 1-3: engine API -------------------------------------------------------------------------

_IDENT = re.compile(r"\b([A-Z][A-Za-z0-9_]*)\b")
_MEMBER = re.compile(r"\.\s*([a-z_][A-Za-z0-9_]*)")
_TYPED = re.compile(r"\b([a-z_]\w*)\s*:\s*([A-Z]\w*)\b")
# `var f := FileAccess.open(...)` and friends: constructors and static factories return their class.
_NEW = re.compile(r"\bvar\s+([a-z_]\w*)\s*:?=\s*([A-Z]\w*)\s*\.\s*(?:new|open\w*|create\w*)\s*\(")
_AS_DECL = re.compile(r"\bvar\s+([a-z_]\w*)\s*:?=[^\n]*\bas\s+([A-Z]\w*)\s*$", re.M)
_AS_CAST = re.compile(r"\(\s*[\w.]+\s+as\s+([A-Z]\w*)\s*\)\s*$")
_EXTENDS = re.compile(r"^extends\s+([A-Z]\w*)\s*$", re.M)
_BARE_CALL = re.compile(r"(?<![\w.])([a-z_]\w*)\s*\(")
_DYNAMIC = re.compile(r"\b(?:call|call_deferred|callv)\s*\(\s*&?\"(\w+)\"")
_FUNC_NAME = re.compile(r"\bfunc\s+(\w+)")
_KEYWORDS = frozenset(
    "if elif while for match return and or not in is as var const func static await assert "
    "preload load print push_error push_warning str int float bool super".split()
)


def infer_types(code: str, cmap: CompatMap) -> dict[str, str]:
    types: dict[str, str] = {}
    for pattern in (_TYPED, _NEW, _AS_DECL):
        for match in pattern.finditer(code):
            if cmap.is_engine_class(match.group(2)):
                types.setdefault(match.group(1), match.group(2))
    return types


def _guarded(raw_body: str, member: str) -> bool:
    if re.search(r"has_method\s*\(\s*&?\"" + re.escape(member) + r"\"", raw_body):
        return True
    if re.search(r"class_has_method\s*\([^)]*\"" + re.escape(member) + r"\"", raw_body):
        return True
    return any(re.search(pattern, raw_body) for pattern in GUARD_PATTERNS)


def _receiver(code: str, dot: int, types: dict[str, str], cmap: CompatMap, base: str | None) -> str | None:
    before = code[:dot].rstrip()
    if before.endswith(")"):
        cast = _AS_CAST.search(before)
        return cast.group(1) if cast and cmap.is_engine_class(cast.group(1)) else None
    ident = re.search(r"([A-Za-z_]\w*)$", before)
    if not ident:
        return None
    head = before[: ident.start()].rstrip()
    if head.endswith(".") or head.endswith("$"):
        return None
    name = ident.group(1)
    if name == "self":
        return base
    if cmap.is_engine_class(name):
        return name
    return types.get(name)


def _dynamic_form(kind: str, member: str) -> str:
    if kind == "signal":
        return f'obj.connect("{member}", ...)'
    if kind == "property":
        return f'obj.get("{member}") / obj.set("{member}", ...)'
    return f'obj.call("{member}")'


def check_engine_api(label: str, text: str, cmap: CompatMap, own_funcs: set[str]) -> list[str]:
    lexed = lex(text)
    code = lexed.code
    funcs = functions(code)
    types = infer_types(code, cmap)
    base_match = _EXTENDS.search(code)
    base = base_match.group(1) if base_match and cmap.is_engine_class(base_match.group(1)) else None
    local_funcs = set(_FUNC_NAME.findall(code))
    problems: list[str] = []

    def report(offset: int, message: str) -> None:
        problems.append(f"{label}:{line_of(code, offset)}: {message}")

    for match in _IDENT.finditer(code):
        name = match.group(1)
        if code[: match.start()].rstrip().endswith(".") or name not in cmap.classes:
            continue
        present, intro, _ = cmap.classes[name]
        if not _all_versions(present):
            report(match.start(), f"engine class {name} is {describe_presence(present, intro)}; naming it "
                   "breaks parsing there: use ClassDB/Engine.get_singleton with a string behind a version check")

    for match in _MEMBER.finditer(code):
        member = match.group(1)
        after = code[match.end() :].lstrip()
        is_call = after.startswith("(")
        cls = _receiver(code, match.start(), types, cmap, base)
        if cls:
            found = cmap.lookup(cls, member)
            if found and not _all_versions(found[2]):
                owner, kind, present, intro = found
                report(match.start(), f"{owner}.{member} ({kind}) is {describe_presence(present, intro)}; on a "
                       f"{cls} receiver that fails to compile there even behind a guard: use "
                       f"{_dynamic_form(kind, member)} behind a has_method/version check")
            continue
        if member not in cmap.after_42 or member in COMMON_NAMES or member in own_funcs:
            continue
        if not is_call and not after.startswith(".connect"):
            continue
        func = enclosing(funcs, match.start())
        if func is None or not _guarded(lexed.raw[func.start : func.end], member):
            owners = ", ".join(sorted(cmap.after_42[member]))
            report(match.start(), f".{member} is API added after 4.2 ({owners}); check has_method(\"{member}\") "
                   "or the engine version in the same function before using it")

    if base:
        for match in _BARE_CALL.finditer(code):
            name = match.group(1)
            if name in _KEYWORDS or name in local_funcs or code[: match.start()].rstrip().endswith("func"):
                continue
            found = cmap.lookup(base, name)
            if found and not _all_versions(found[2]):
                owner, kind, present, intro = found
                report(match.start(), f"{owner}.{name} is {describe_presence(present, intro)}; a bare call in a "
                       f"script extending {base} fails to compile there: use call(\"{name}\") behind a check")

    for match in _DYNAMIC.finditer(lexed.raw):
        member = match.group(1)
        if member not in cmap.after_42 or member in COMMON_NAMES:
            continue
        func = enclosing(funcs, match.start())
        if func is None or not _guarded(lexed.raw[func.start : func.end], member):
            report(match.start(), f"call(\"{member}\") reaches API added after 4.2 "
                   f"({', '.join(sorted(cmap.after_42[member]))}) without a has_method/version check")
    return problems


# --- 4: settings ---------------------------------------------------------------------------------

_PRELOAD_CONST = re.compile(r"^\s*const\s+(\w+)\s*:?=\s*preload\(\s*\"([^\"]+)\"\s*\)", re.M)
_CONST_DECL = re.compile(r"^\s*const\s+([A-Z][A-Z0-9_]*)\b", re.M)


def check_settings(repo: Path, files: list[Path]) -> list[str]:
    settings_path = repo / SETTINGS_FILE
    registered_keys: set[str] = set()
    registered_consts: set[str] = set()
    if settings_path.is_file():
        lexed = lex(settings_path.read_text(encoding="utf-8"))
        registered_keys = {value for _, value in lexed.strings if SETTING_KEY.match(value)}
        registered_consts = set(_CONST_DECL.findall(lexed.code))
    problems: list[str] = []
    for rel in files:
        if rel == SETTINGS_FILE:
            continue
        text = (repo / rel).read_text(encoding="utf-8")
        lexed = lex(text)
        for offset, value in lexed.strings:
            if SETTING_KEY.match(value) and value not in registered_keys:
                problems.append(f"{rel}:{line_of(text, offset)}: setting '{value}' is not registered in {SETTINGS_FILE}")
        aliases = [
            name for name, target in _PRELOAD_CONST.findall(text)
            if resolve_script_path(repo, rel, target) == SETTINGS_FILE
        ]
        for alias in aliases:
            for match in re.finditer(r"\b" + re.escape(alias) + r"\s*\.\s*([A-Z][A-Z0-9_]*)\b", lexed.code):
                if match.group(1) not in registered_consts:
                    problems.append(f"{rel}:{line_of(text, match.start())}: {alias}.{match.group(1)} is not a "
                                    f"setting declared in {SETTINGS_FILE}")
    return problems


# --- 5: error codes ------------------------------------------------------------------------------

_FAIL = re.compile(r"\bfail\s*\(\s*\"([A-Za-z0-9_]+)\"")


def vocabulary(repo: Path) -> tuple[set[str] | None, list[str]]:
    problems: list[str] = []
    shared: set[str] | None = None
    path = find_reference(repo, ERROR_CODES_NAME)
    if path:
        shared = set(json.loads(path.read_text(encoding="utf-8"))["toolkit_codes"])
    declared: set[str] | None = None
    error_file = repo / ERROR_FILE
    if error_file.is_file():
        lexed = lex(error_file.read_text(encoding="utf-8"))
        match = re.search(r"^\s*const\s+CODES\b[^=]*=\s*\[", lexed.code, re.M)
        if match:
            end = lexed.code.find("]", match.end())
            declared = {v for off, v in lexed.strings if match.end() <= off < end}
    if shared is not None and declared is not None and shared != declared:
        problems.append(
            f"{ERROR_FILE} CODES differs from the reference vocabulary: missing {sorted(shared - declared)}, "
            f"extra {sorted(declared - shared)}"
        )
    codes = shared if shared is not None else declared
    if codes is None:
        problems.append(f"no error-code vocabulary found ({ERROR_CODES_NAME} or {ERROR_FILE})")
    return codes, problems


def check_codes(repo: Path, files: list[Path]) -> list[str]:
    codes, problems = vocabulary(repo)
    if codes is None:
        return problems
    for rel in files:
        text = (repo / rel).read_text(encoding="utf-8")
        for match in _FAIL.finditer(text):
            if match.group(1) not in codes:
                problems.append(f"{rel}:{line_of(text, match.start())}: error code '{match.group(1)}' "
                                "is not in the toolkit vocabulary (C4)")
    return problems


# --- 6: runtime stays export-clean ---------------------------------------------------------------

_CLASS_NAME = re.compile(r"^class_name\s+(\w+)", re.M)
_EDITOR = re.compile(r"\b(Editor[A-Z]\w*)\b")


def runtime_entries(repo: Path, files: list[Path]) -> list[Path]:
    runtime_prefix = RUNTIME_DIR.as_posix() + "/"
    return [
        rel for rel in files
        if rel.as_posix().startswith(runtime_prefix) or RUNTIME_MARKER in (repo / rel).read_text(encoding="utf-8")
    ]


def check_runtime_editor_free(repo: Path, files: list[Path]) -> list[str]:
    texts = {rel: (repo / rel).read_text(encoding="utf-8") for rel in files}
    lexed: dict[Path, Lexed] = {rel: lex(text) for rel, text in texts.items()}
    class_files = {name: rel for rel, lx in lexed.items() for name in _CLASS_NAME.findall(lx.code)}
    parent: dict[Path, Path | None] = {rel: None for rel in runtime_entries(repo, files)}
    queue = deque(parent)
    while queue:
        rel = queue.popleft()
        edges: set[Path] = set()
        # Any script path the file spells out counts, not only preload("..."): scripts are also
        # loaded through constants (`const CLIENT := "res://.../x.gd"` ... `load(CLIENT)`).
        for target in [value for _, value in lexed[rel].strings if value.endswith(".gd")]:
            resolved = resolve_script_path(repo, rel, target)
            if resolved in texts:
                edges.add(resolved)
        for name in set(re.findall(r"\b[A-Z]\w*\b", lexed[rel].code)) & class_files.keys():
            edges.add(class_files[name])
        for target in sorted(edges - parent.keys()):
            parent[target] = rel
            queue.append(target)
    problems: list[str] = []
    for rel in sorted(parent):
        code = lexed[rel].code
        for match in _EDITOR.finditer(code):
            if code[: match.start()].rstrip().endswith("."):
                continue
            chain = [rel]
            while parent[chain[-1]] is not None:
                chain.append(parent[chain[-1]])  # type: ignore[arg-type]
            via = " <- ".join(p.as_posix() for p in chain)
            problems.append(f"{rel}:{line_of(code, match.start())}: runtime-reachable file names {match.group(1)} "
                            f"(breaks exported games); reached via {via}")
    return problems


def check_editor_glue(repo: Path, files: list[Path]) -> list[str]:
    """Editor classes only in the listed glue, so everything else can be tested in any engine."""
    problems: list[str] = []
    for rel in files:
        if rel.as_posix() in EDITOR_GLUE:
            continue
        code = lex((repo / rel).read_text(encoding="utf-8")).code
        for match in _EDITOR.finditer(code):
            if code[: match.start()].rstrip().endswith("."):
                continue
            problems.append(f"{rel}:{line_of(code, match.start())}: names {match.group(1)} but is not editor glue "
                            "(go through the context, or list the file in gd_common.EDITOR_GLUE)")
            break
    return problems


# --- driver --------------------------------------------------------------------------------------


def run(repo: Path = REPO) -> list[str]:
    map_path = find_reference(repo, COMPAT_MAP_NAME)
    if map_path is None:
        return [f"{COMPAT_MAP_NAME} not found (looked in tests/data/reference and $GODOT_REFERENCE_DIR)"]
    cmap = load_map(map_path)
    files = gd_files(repo, TOOLKIT)
    own_funcs = {name for rel in files for name in _FUNC_NAME.findall(lex((repo / rel).read_text("utf-8")).code)}
    problems: list[str] = []
    for rel in files:
        problems.extend(check_engine_api(rel.as_posix(), (repo / rel).read_text(encoding="utf-8"), cmap, own_funcs))
    problems.extend(check_settings(repo, files))
    problems.extend(check_codes(repo, files))
    problems.extend(check_runtime_editor_free(repo, files))
    problems.extend(check_editor_glue(repo, files))
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=REPO)
    args = parser.parse_args(argv)
    problems = run(args.repo)
    count = len(gd_files(args.repo, TOOLKIT))
    return fail_exit(problems, f"gd_compat: {count} toolkit files are 4.2-4.7 safe and in vocabulary", "gd_compat")


if __name__ == "__main__":
    sys.exit(main())
