#!/usr/bin/env python3
"""CI: both contexts answer every call of the toolkit context's roles, with the role's signatures.

The toolkit context (context/toolkit_context.gd) is a set of roles, one object each (`var scenes:
SceneRole`), whose base scripts name every call. The editor's context (editor glue: it cannot run
outside the editor, so no engine test loads it) and the runtime context fill each role with a
class that extends the base. This check reads them all as text and fails when:

* a context does not set one of the roles;
* an implementation redefines a role call with other parameter types, defaults or return type;
* an implementation leaves a placeholder of its base in place: the editor's must replace every
  placeholder (a body that calls `_unavailable(`, or is only `pass` or `return <constant>`), the
  runtime's every `_unavailable(` one (a harmless default is a fair runtime answer);
* a caller (`context.<role>.<name>` in the toolkit or its GDScript tests) names what the role's
  base does not have.

usage: gd_roles.py [--repo PATH]
Exit status: 0 clean, 1 problems.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gd_common import EDITOR_GLUE, REPO, TOOLKIT, fail_exit, gd_files, lex, resolve_script_path  # noqa: E402

CONTEXT = f"{TOOLKIT}/context/toolkit_context.gd"
# The scripts that fill the roles: the editor's and the runtime's.
SIDES = {"editor": f"{TOOLKIT}/editor/editor_context.gd", "runtime": f"{TOOLKIT}/context/runtime_context.gd"}
CALLER_ROOTS = (TOOLKIT, "tests/godot")

_ROLE_VAR = re.compile(r"^var ([a-z]\w*): (\w+) = null$", re.M)  # public members only
_CONST = re.compile(r"""^\s*const (\w+) := preload\("([^"]+)"\)""", re.M)
_EXTENDS = re.compile(r"""^extends "([^"]+)"$""", re.M)
_CLASS = re.compile(r"""^class (\w+)(?: extends (?:"([^"]+)"|\w+))?:$""", re.M)
_FUNC = re.compile(r"^(\t*)(?:static\s+)?func\s+(\w+)\s*\(", re.M)
_VAR = re.compile(r"^(?:@\w+\s+)*var (\w+)", re.M)
_CONSTANT = r'(?:null|true|false|-?\d+|""|default|PackedStringArray\(\)|\{.*\}|\[\])'
_PLACEHOLDER = re.compile(rf"^(?:pass|return {_CONSTANT})$")
# A caller reaching a role through a context: context.scenes.open_scene, _fx.context.edits.undo.
_RECEIVER = r"(?<![\w.])(?:_fx\.)?_?(?:context|ctx|editor_context)"


@dataclass(frozen=True)
class Signature:
    params: tuple[tuple[str, str], ...]  # (type, default) per parameter; names may differ
    returns: str
    placeholder: str  # "unavailable", "default" or "" (a real body)


@dataclass
class Script:
    """One class: a file's top level or one of its inner classes."""

    path: str
    name: str
    base: str | None  # repo-relative path of the script it extends
    methods: dict[str, Signature] = field(default_factory=dict)
    members: set[str] = field(default_factory=set)


def _split_params(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    parts.append(text[start:])
    return [part.strip() for part in parts if part.strip()]


def _param(text: str) -> tuple[str, str]:
    head, _, default = text.partition("=")
    _, _, kind = head.partition(":")
    return kind.strip() or "Variant", " ".join(default.split())


def _placeholder(body: list[str]) -> str:
    code = [line.strip() for line in body if line.strip() and not line.strip().startswith("#")]
    if any("_unavailable(" in line for line in code):
        return "unavailable"
    return "default" if len(code) == 1 and _PLACEHOLDER.match(code[0]) else ""


def _signature(text: str, open_paren: int) -> tuple[Signature, int]:
    depth, index = 0, open_paren
    while True:
        depth += {"(": 1, ")": -1}.get(text[index], 0)
        if depth == 0:
            break
        index += 1
    params = tuple(_param(part) for part in _split_params(text[open_paren + 1 : index]))
    head_end = text.index(":\n", index)
    returns = text[index + 1 : head_end].replace("->", "").strip() or "Variant"
    return Signature(params, returns, ""), head_end + 2


def _body(text: str, start: int, indent: int) -> tuple[list[str], int]:
    lines, pos = [], start
    while pos < len(text):
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        line = text[pos:end]
        if line.strip() and len(line) - len(line.lstrip("\t")) <= indent:
            break
        lines.append(line)
        pos = end + 1
    return lines, pos


def read_scripts(repo: Path, rel: str) -> list[Script]:
    """The file's top-level class and its inner classes, each with its calls and members."""
    text = (repo / rel).read_text(encoding="utf-8")
    code = lex(text).code  # strings and comments blanked, offsets kept
    top_base = _EXTENDS.search(text)
    top = Script(rel, "", _resolve(repo, rel, top_base[1]) if top_base else None)
    inner = {m.start(): Script(rel, m[1], _resolve(repo, rel, m[2]) if m[2] else None) for m in _CLASS.finditer(text)}
    starts = sorted(inner)

    def owner(offset: int, indent: int) -> Script:
        if indent == 0:
            return top
        before = [start for start in starts if start < offset]
        return inner[before[-1]] if before else top

    for match in _FUNC.finditer(code):
        indent = len(match[1])
        signature, body_start = _signature(text, match.end() - 1)
        body, _ = _body(text, body_start, indent)
        script = owner(match.start(), indent)
        script.methods[match[2]] = Signature(signature.params, signature.returns, _placeholder(body))
    for match in _VAR.finditer(text):
        top.members.add(match[1])
    for match in re.finditer(r"^\t(?:@\w+\s+)*var (\w+)", text, re.M):
        owner(match.start(), 1).members.add(match[1])
    return [top, *inner.values()]


def _resolve(repo: Path, rel: str, target: str) -> str | None:
    resolved = resolve_script_path(repo, Path(rel), target)
    return resolved.as_posix() if resolved else None


def _with_bases(repo: Path, script: Script, cache: dict[str, Script]) -> tuple[dict[str, Signature], set[str]]:
    """Every call and member a class has, its own over its bases'."""
    chain, current = [], script
    while current is not None:
        chain.append(current)
        base = current.base
        if base is None or not (repo / base).is_file():
            break
        if base not in cache:
            cache[base] = read_scripts(repo, base)[0]
        current = cache[base]
    methods: dict[str, Signature] = {}
    members: set[str] = set()
    for each in reversed(chain):
        methods.update(each.methods)
        members |= each.members
    return methods, members


def roles(repo: Path) -> dict[str, str]:
    """role name -> repo-relative path of its base script, as the toolkit context declares them."""
    text = (repo / CONTEXT).read_text(encoding="utf-8")
    consts = {name: _resolve(repo, CONTEXT, path) for name, path in _CONST.findall(text)}
    return {role: consts[kind] or "" for role, kind in _ROLE_VAR.findall(text) if kind in consts}


def _implementations(repo: Path, bases: set[str]) -> dict[tuple[str, str], list[Script]]:
    """(side, base path) -> the classes of that side that extend the role base."""
    found: dict[tuple[str, str], list[Script]] = {}
    for rel in gd_files(repo, TOOLKIT):
        side = "editor" if rel.as_posix() in EDITOR_GLUE else "runtime"
        for script in read_scripts(repo, rel.as_posix()):
            if script.base in bases:
                found.setdefault((side, script.base), []).append(script)
    return found


def check(repo: Path = REPO) -> list[str]:
    role_bases = roles(repo)
    if not role_bases:
        return [f"{CONTEXT}: declares no roles (`var <role>: <Role> = null`)"]
    problems: list[str] = []
    cache: dict[str, Script] = {}
    base_calls = {role: _with_bases(repo, read_scripts(repo, path)[0], cache) for role, path in role_bases.items()}
    impls = _implementations(repo, set(role_bases.values()))
    for side, rel in SIDES.items():
        text = (repo / rel).read_text(encoding="utf-8")
        for role in role_bases:
            if not re.search(rf"^\t{role} = ", text, re.M):
                problems.append(f"{rel}: sets no `{role}` role")
    for role, base in role_bases.items():
        methods, _ = base_calls[role]
        for side in SIDES:
            classes = impls.get((side, base), [])
            if len(classes) > 1:
                names = ", ".join(_where(c) for c in classes)
                problems.append(f"{side} side: more than one class fills the `{role}` role ({names})")
            own = classes[0].methods if classes else {}
            where = _where(classes[0]) if classes else f"{side} side (the base {base})"
            for name, signature in methods.items():
                if name.startswith("_"):  # _init and helpers are the class's own business
                    continue
                mine = own.get(name)
                if mine is not None and (mine.params, mine.returns) != (signature.params, signature.returns):
                    problems.append(f"{where}: {role}.{name} takes {_show(mine)}, the role says {_show(signature)}")
                must = {"unavailable", "default"} if side == "editor" else {"unavailable"}
                if mine is None and signature.placeholder in must:
                    problems.append(f"{where}: leaves {role}.{name} to the base's placeholder ({base})")
    return problems + _callers(repo, base_calls)


def _where(script: Script) -> str:
    return f"{script.path}:{script.name}" if script.name else script.path


def _callers(repo: Path, base_calls: dict[str, tuple[dict[str, Signature], set[str]]]) -> list[str]:
    pattern = re.compile(rf"{_RECEIVER}\.({'|'.join(base_calls)})\.(\w+)")
    problems = []
    for rel in gd_files(repo, *CALLER_ROOTS):
        code = lex((repo / rel).read_text(encoding="utf-8")).code
        for match in pattern.finditer(code):
            methods, members = base_calls[match[1]]
            if match[2] not in methods and match[2] not in members:
                line = code.count("\n", 0, match.start()) + 1
                problems.append(f"{rel}:{line}: the `{match[1]}` role has no `{match[2]}`")
    return problems


def _show(signature: Signature) -> str:
    params = ", ".join(f"{kind}{' = ' + default if default else ''}" for kind, default in signature.params)
    return f"({params}) -> {signature.returns}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=REPO)
    args = parser.parse_args()
    return fail_exit(check(args.repo.resolve()), "gd_roles: both contexts answer every role call as the role says",
                     "gd_roles")


if __name__ == "__main__":
    sys.exit(main())
