"""Shared helpers for the GDScript CI checks (gd_check, gd_drift, gd_compat, gd_types).

A tiny GDScript lexer (enough to blank comments and string contents without shifting line
numbers), function splitting, locating the repo and the reference data it carries, and
gdtoolkit's parse tree of a file, cached by content.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TOOLKIT = Path("addons/godot_mcp_toolkit")
# The only toolkit files that may name an Editor* class: thin glue between the editor and the
# runtime-safe code. Everything else compiles in any Godot (the web engine's load check skips
# exactly these), so keep this list short and these files free of logic.
EDITOR_GLUE: tuple[str, ...] = (
    "addons/godot_mcp_toolkit/plugin.gd",
    "addons/godot_mcp_toolkit/editor/editor_context.gd",
    "addons/godot_mcp_toolkit/editor/export_stripper.gd",
)
COMPAT_MAP_NAME = "godot-compat-map.tsv"
ERROR_CODES_NAME = "error-codes.json"
# The reference implementation's facts, carried in the repo (where they came from: README there).
REFERENCE_DIR = Path("tests/data/reference")


# Parsing is most of what gd_check and gd_types cost (~300 files, ~18 s on this machine's core;
# the pickled tree loads in well under half that): both take the tree from here, so a file is
# parsed once per content. Kept under the repo's .cache/ (git-ignored).
PARSE_CACHE = REPO / ".cache" / "gd-parse"


def _parse_key(text: str) -> str:
    from importlib.metadata import version

    return hashlib.sha256(f"{version('gdtoolkit')}\0{text}".encode()).hexdigest()


def parse_tree(text: str, cache: Path | None = PARSE_CACHE) -> object:
    """gdtoolkit's parse tree of ``text`` with positions (``gather_metadata``); raises what its
    parser raises. ``cache``: the folder of earlier parses by content (None: parse only)."""
    from gdtoolkit.parser import parser

    if cache is None:
        return parser.parse(text, gather_metadata=True)
    path = cache / f"{_parse_key(text)}.pickle"
    try:
        with path.open("rb") as kept:
            return pickle.load(kept)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError):
        pass
    tree = parser.parse(text, gather_metadata=True)
    try:
        cache.mkdir(parents=True, exist_ok=True)
        staged = path.with_suffix(f".{os.getpid()}.tmp")  # whole or not at all: a reader never sees half
        staged.write_bytes(pickle.dumps(tree, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(staged, path)
    except OSError:
        pass  # a cache that cannot be written only costs time
    return tree


def prune_parse_cache(texts: list[str], cache: Path = PARSE_CACHE) -> None:
    """Drop cached trees of contents no file has any more (run after a whole-tree check)."""
    keep = {f"{_parse_key(text)}.pickle" for text in texts}
    if cache.is_dir():
        for entry in cache.iterdir():
            if entry.name not in keep:
                entry.unlink(missing_ok=True)


def fail_exit(problems: list[str], ok_message: str, title: str) -> int:
    """Print problems (or the all-clear) and return the exit status."""
    if problems:
        print(f"{title}: {len(problems)} problem(s)", file=sys.stderr)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    print(ok_message)
    return 0


def gd_files(repo: Path, *roots: str | Path, exclude: tuple[str, ...] = ()) -> list[Path]:
    """Every .gd under the given repo-relative roots, sorted, as repo-relative paths."""
    found: list[Path] = []
    for root in roots:
        base = repo / root
        if not base.exists():
            continue
        for path in sorted(base.rglob("*.gd")):
            rel = path.relative_to(repo)
            if any(part in {".godot", ".git"} for part in rel.parts):
                continue
            if any(rel.as_posix().startswith(prefix) for prefix in exclude):
                continue
            found.append(rel)
    return found


def resolve_script_path(repo: Path, from_file: Path, target: str) -> Path | None:
    """The repo-relative script a path in `from_file` names (res:// or relative to its folder), or
    None for user:// and uid:// paths and paths outside the repo."""
    if target.startswith("res://"):
        candidate = repo / target[len("res://") :]
    elif target.startswith(("user://", "uid://")):
        return None
    else:
        candidate = (repo / from_file).parent / target
    try:
        return candidate.resolve().relative_to(repo.resolve())
    except ValueError:
        return None


def find_reference(repo: Path, name: str) -> Path | None:
    """A file of the reference data the checks run against.

    The repo carries it (tests/data/reference, see the README there), so a bare clone checks
    itself. GODOT_REFERENCE_DIR overrides; a scratch repo without its own copy (the checks' own
    tests) falls back to the copy beside these scripts.
    """
    override = os.environ.get("GODOT_REFERENCE_DIR")
    candidates: list[Path] = []
    if override:
        candidates.append(Path(override) / name)
    candidates.append(repo / REFERENCE_DIR / name)
    candidates.append(REPO / REFERENCE_DIR / name)
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    return None


@dataclass(frozen=True)
class Lexed:
    """A source file with comments removed and string contents blanked (same length and lines)."""

    raw: str
    code: str
    strings: list[tuple[int, str]]  # (offset of the opening quote, string value)


_STRING_PREFIXES = "&^r"


def lex(text: str) -> Lexed:
    out: list[str] = []
    strings: list[tuple[int, str]] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "#":
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
            continue
        if ch in "\"'":
            raw_string = i > 0 and text[i - 1] == "r"
            quote = text[i : i + 3] if text[i : i + 3] in ('"""', "'''") else ch
            j = i + len(quote)
            value: list[str] = []
            while j < n and not text.startswith(quote, j):
                if text[j] == "\\" and not raw_string and j + 1 < n:
                    value.append(text[j : j + 2])
                    j += 2
                    continue
                value.append(text[j])
                j += 1
            end = min(j + len(quote), n)
            strings.append((i, _unescape("".join(value))))
            body = text[i + len(quote) : j]
            out.append(quote + re.sub(r"[^\n]", " ", body) + (quote if j < n else ""))
            i = end
            continue
        out.append(ch)
        i += 1
    return Lexed(text, "".join(out), strings)


def _unescape(value: str) -> str:
    return value.replace('\\"', '"').replace("\\'", "'").replace("\\\\", "\\")


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


@dataclass(frozen=True)
class Function:
    name: str
    start: int  # offset of `func`
    end: int  # offset just past the body

    def body(self, text: str) -> str:
        return text[self.start : self.end]


_FUNC = re.compile(r"^([ \t]*)(?:static[ \t]+)?func[ \t]+(\w+)", re.M)


def functions(code: str) -> list[Function]:
    """Functions by indentation: a body runs until a non-blank line indented no deeper than `func`."""
    result: list[Function] = []
    for match in _FUNC.finditer(code):
        indent = len(match.group(1).expandtabs(4))
        pos = code.find("\n", match.end())
        end = len(code)
        while pos >= 0:
            line_start = pos + 1
            line_end = code.find("\n", line_start)
            line = code[line_start : line_end if line_end >= 0 else len(code)]
            if line.strip() and len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip()) <= indent:
                end = line_start
                break
            pos = line_end
        result.append(Function(match.group(2), match.start(), end))
    return result


def enclosing(funcs: list[Function], offset: int) -> Function | None:
    best: Function | None = None
    for func in funcs:
        if func.start <= offset < func.end and (best is None or func.start >= best.start):
            best = func
    return best


def iter_lines(text: str) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(text.splitlines(), start=1):
        yield number, line
