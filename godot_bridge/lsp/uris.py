"""res:// paths, file URIs and positions: pure conversions between the model's view and LSP's.

The model speaks ``res://`` paths with 1-based lines and columns; LSP speaks
``file://`` URIs with 0-based positions. Project paths may be POSIX
(``/home/me/game``) or Windows-style (``C:\\Users\\me\\game``) whatever OS the
tests run on, so nothing here touches ``pathlib`` or the filesystem: paths are
plain strings with ``/`` separators after normalisation.

Columns count Unicode code points. Godot's server indexes its UTF-32 strings,
so its ``character`` is a code-point offset too and no re-encoding is needed.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any
from urllib.parse import quote, unquote

from godot_bridge.errors import ToolError

SUPPORTED_EXTENSIONS = (".gd", ".gdshader", ".gdshaderinc")
SHADER_EXTENSIONS = (".gdshader", ".gdshaderinc")
_DRIVE = re.compile(r"^[A-Za-z]:$")
_DRIVE_PATH = re.compile(r"^[A-Za-z]:(/|$)")


# ---------------------------------------------------------------- filesystem paths


def _slashes(path: str | os.PathLike[str]) -> str:
    return os.fspath(path).replace("\\", "/")


def is_windows_path(path: str | os.PathLike[str]) -> bool:
    """True for drive-letter paths (``C:\\x``, ``c:/x``), whatever OS we run on."""
    return bool(_DRIVE_PATH.match(_slashes(path)))


def _segments(path: str) -> list[str]:
    """Path segments with '', '.' dropped and '..' applied (never above the first segment)."""
    out: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            # A drive letter is the root on Windows; '..' cannot climb past it.
            if out and not (len(out) == 1 and _DRIVE.match(out[0])):
                out.pop()
            continue
        out.append(part)
    return out


def _case_insensitive(project_path: str, case_insensitive: bool | None) -> bool:
    if case_insensitive is not None:
        return case_insensitive
    # Windows paths are case-insensitive everywhere; macOS volumes are by default.
    return is_windows_path(project_path) or sys.platform == "darwin"


# ---------------------------------------------------------------- URIs


def path_to_uri(path: str | os.PathLike[str]) -> str:
    """``/a b/c`` -> ``file:///a%20b/c``; ``C:\\x y`` -> ``file:///C:/x%20y``."""
    parts = _segments(_slashes(path))
    encoded = [p if i == 0 and _DRIVE.match(p) else quote(p, safe="") for i, p in enumerate(parts)]
    return "file:///" + "/".join(encoded)


def uri_to_path(uri: str) -> str | None:
    """The local path of a ``file:`` URI (``/`` separators), or None for other schemes/hosts.

    Accepts what real servers send: percent-encoded or raw characters, an encoded
    drive colon (``file:///c%3A/x``), ``file://localhost/...`` and ``file:/x``.
    """
    if uri[:5].lower() != "file:":
        return None
    rest = uri[5:]
    if rest.startswith("//"):
        rest = rest[2:]
        slash = rest.find("/")
        authority, rest = (rest, "") if slash < 0 else (rest[:slash], rest[slash:])
        drive = unquote(authority)
        if _DRIVE.match(drive):
            rest = "/" + drive + rest  # 'file://C:/x': Godot before 4.5 wrote Windows URIs so
        elif authority.lower() not in ("", "localhost"):
            return None  # a network share; never inside a local project we can map
    path = unquote(rest).replace("\\", "/")
    if re.match(r"^/[A-Za-z]:(/|$)", path):
        path = path[1:]  # '/C:/x' is how a URI spells the Windows path 'C:/x'
    return path


def project_root_uri(project_path: str | os.PathLike[str]) -> str:
    return path_to_uri(project_path)


def res_to_uri(project_path: str | os.PathLike[str], res_path: str) -> str:
    """``res://a/b.gd`` under ``project_path`` as a file URI. ``res_path`` must be clean (parse_res_path)."""
    rel = res_path[len("res://") :] if res_path.startswith("res://") else res_path
    root = path_to_uri(project_path).rstrip("/")
    encoded = [quote(p, safe="") for p in _segments(rel)]
    return root + "/" + "/".join(encoded) if encoded else root + "/"


def uri_to_res(
    project_path: str | os.PathLike[str], uri: str, *, case_insensitive: bool | None = None
) -> str | None:
    """The ``res://`` path of ``uri`` when it lies inside the project, else None.

    Segment-wise comparison so case folding never shifts offsets; the drive letter
    and (on case-insensitive systems) every folder compare without case, while the
    part below the project keeps the spelling the server used.
    """
    if uri.startswith("res://"):
        return "res://" + "/".join(_segments(uri[6:]))
    path = uri_to_path(uri)
    if path is None:
        return None
    root = _segments(_slashes(project_path))
    parts = _segments(path)
    fold = _case_insensitive(_slashes(project_path), case_insensitive)
    if len(parts) < len(root):
        return None
    for mine, theirs in zip(root, parts):
        same = mine.lower() == theirs.lower() if fold or _DRIVE.match(mine) else mine == theirs
        if not same:
            return None
    return "res://" + "/".join(parts[len(root) :])


def file_name(uri: str) -> str:
    """The decoded last segment of a URI's path (``file:///a/b%20c.gd`` -> ``b c.gd``)."""
    path = uri_to_path(uri)
    parts = _segments(path if path is not None else unquote(uri.partition(":")[2]).replace("\\", "/"))
    return parts[-1] if parts else ""


def is_file_uri(text: str) -> bool:
    return text[:5].lower() == "file:"


def model_path(project_path: str | os.PathLike[str], uri: str) -> str:
    """How a ``file:`` URI is shown to the model: its ``res://`` path inside the project, only its
    file name outside it (a machine path tells the model about the user's disk and no tool takes
    one). A fragment (``#L12``) is kept."""
    uri, mark, fragment = uri.partition("#")
    res = uri_to_res(project_path, uri)
    return (res if res is not None else file_name(uri)) + mark + fragment


# ---------------------------------------------------------------- file URIs inside text

# A file URI starting in prose or markup: not inside a word, a scheme or a path (after '/', so
# that a res:// path this module wrote, say 'res://file:/x.gd', is never mapped a second time).
_FILE_URI = re.compile(r"(?<![\w+.\-/])file:/", re.IGNORECASE)
# Where a bare URI ends: whitespace or a character that closes the markup around it.
_BARE_END = re.compile(r"[\s<>\"'`|)\]]")


def _root_spellings(project_path: str | os.PathLike[str]) -> list[str]:
    """The project root as a URI prefix, percent-encoded (Godot 4.5+) or raw (earlier Godot wrote
    ``"file://" + path`` unencoded, spaces and all)."""
    raw = "/".join(_segments(_slashes(project_path)))
    return [path_to_uri(project_path), "file:///" + raw, "file://" + raw]


def _link_end(text: str, start: int) -> int:
    """Where the URI starting at ``start`` ends."""
    if text.startswith("](", start - 2):
        # A markdown link's destination, Godot's hover "[player.gd](file:///…)": it runs to the
        # ')' that closes the link, so spaces and balanced parentheses are part of the path.
        depth = 0
        for index in range(start, len(text)):
            char = text[index]
            if char == "\n" or (char == ")" and depth == 0):
                return index
            depth += {"(": 1, ")": -1}.get(char, 0)
        return len(text)
    if start and text[start - 1] == "<":  # <file:///…>
        close = text.find(">", start)
        return close if close >= 0 and "\n" not in text[start:close] else start + len("file:/")
    return start


def map_file_uris(project_path: str | os.PathLike[str], text: str) -> str:
    """``text`` with every ``file:`` URI replaced by its ``model_path`` (non-ASCII names decoded).

    A bare URI (not in a markdown link or <…>) ends at whitespace, except inside the project root
    when the root is spelled out raw (with its spaces); trailing sentence punctuation is not part of it.
    """
    if "file:" not in text.lower():
        return text
    roots = _root_spellings(project_path)
    fold = _case_insensitive(_slashes(project_path), None)
    out: list[str] = []
    pos = 0
    while (match := _FILE_URI.search(text, pos)) is not None:
        start = match.start()
        end = _link_end(text, start)
        if end == start:
            body = start
            head = text[start:].lower() if fold else text[start:]
            for root in roots:
                if head.startswith((root.lower() if fold else root) + "/"):
                    body = start + len(root)
                    break
            bare = _BARE_END.search(text, body)
            end = bare.start() if bare is not None else len(text)
            while end > body and text[end - 1] in ".,;:!?":
                end -= 1
        out.append(text[pos:start])
        out.append(model_path(project_path, text[start:end]))
        pos = end
    out.append(text[pos:])
    return "".join(out)


def res_to_local(project_path: str | os.PathLike[str], res_path: str) -> str:
    """Host path string for a clean ``res://`` path (``/`` separators)."""
    root = _slashes(project_path).rstrip("/")
    rel = res_path[len("res://") :]
    return f"{root}/{rel}" if rel else root


# ---------------------------------------------------------------- model-supplied res:// paths


def parse_res_path(raw: str) -> str:
    """Validate a model-supplied script path and return it as a clean ``res://`` path.

    ``scripts/a.gd`` is accepted as ``res://scripts/a.gd``. Refused with PATH_DENIED:
    other schemes (``user://``), absolute paths, drive letters, ``..``, and any ':' in
    a segment (on Windows ``proj / "C:x"`` would leave the project). Refused with INVALID_PATH:
    a path that names no file. Refused with UNSUPPORTED_FILE_TYPE (the contract's code for a file of the wrong kind): anything but .gd,
    .gdshader, .gdshaderinc.
    """
    text = raw.strip().replace("\\", "/")
    if not text:
        raise ToolError("INVALID_PARAMS", "file_path is empty; pass a path such as res://player.gd")
    if text.lower().startswith("res://"):
        rel = text[6:]
    elif "://" in text or text.startswith("/") or re.match(r"^[A-Za-z]:", text):
        raise ToolError("PATH_DENIED", f"{raw!r} is not a res:// path inside the project")
    else:
        rel = text
    parts = [p for p in rel.split("/") if p not in ("", ".")]
    for part in parts:
        if part == ".." or ":" in part or "\x00" in part:
            raise ToolError("PATH_DENIED", f"{raw!r} leaves the project or is not a plain res:// path")
    if not parts:
        raise ToolError("INVALID_PATH", f"{raw!r} names no file",
                        hint="Pass a script's path, e.g. res://player.gd.")
    if not parts[-1].lower().endswith(SUPPORTED_EXTENSIONS):
        raise ToolError(
            "UNSUPPORTED_FILE_TYPE",
            f"{raw!r} is not a GDScript or shader file (.gd, .gdshader, .gdshaderinc)",
            hint="The language server reads scripts and shaders only: pass a .gd, .gdshader or .gdshaderinc path.",
        )
    return "res://" + "/".join(parts)


def is_shader(res_path: str) -> bool:
    return res_path.lower().endswith(SHADER_EXTENSIONS)


def language_id(res_path: str) -> str:
    return "gdshader" if is_shader(res_path) else "gdscript"


# ---------------------------------------------------------------- positions


def to_lsp_position(line: int, column: int) -> dict[str, int]:
    """1-based (line, column) -> LSP 0-based Position; values below 1 count as 1."""
    return {"line": max(line, 1) - 1, "character": max(column, 1) - 1}


def from_lsp_position(position: Any) -> tuple[int, int]:
    """LSP Position -> 1-based (line, column); tolerant of missing or odd fields."""

    def _int(value: Any) -> int:
        return int(value) if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0 else 0

    if not isinstance(position, dict):
        return 1, 1
    return _int(position.get("line")) + 1, _int(position.get("character")) + 1
