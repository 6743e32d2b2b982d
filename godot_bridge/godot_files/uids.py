"""``uid://`` paths resolved to ``res://`` paths from the project's files, without an editor.

Godot 4.4+ projects reference files by uid (scenes' ``[ext_resource uid=...]``, ``project.godot``'s
main scene, scripts' preloads), so an assistant meets uids and passes them on. The editor resolves
them with ``ResourceUID`` (the toolkit does, in security/file_guard.gd); the bridge, which must also
answer with no editor running (the disk-read resources), reads what the editor reads:

1. ``.godot/uid_cache.bin``, the table the editor keeps (a ``uint32`` count, then per entry an
   ``int64`` id, a ``uint32`` length and that many bytes of UTF-8 path, little-endian), trusted
   only when the file it names is there;
2. else the files themselves: a ``.uid`` sidecar (scripts and shaders, 4.4+), a text resource's
   header (``[gd_scene ... uid="uid://..."]``), an imported file's ``.import`` (``uid=`` in its
   ``[remap]``). Hidden folders and ``.gdignore``'d ones are skipped, as the editor skips them,
   and the walk stops after ``MAX_FILES`` files.
"""

from __future__ import annotations

import os
import re
import struct
from pathlib import Path

from godot_bridge.godot_files.text_format import file_uid

PREFIX = "uid://"
CACHE = Path(".godot") / "uid_cache.bin"
MAX_FILES = 50_000
# Godot's uid text, most significant digit first: 'a'.. = 0.., '0'.. = 25.. in base 34 (core/io/
# resource_uid.cpp: char_count = 'z' - 'a', base = char_count + ('9' - '0'); so 'z' and '0' collide).
_CHARS = 25
_BASE = 34
_TEXT = re.compile(r"^uid://[a-z0-9]+$")
_HEADED = (".tscn", ".tres")
_IMPORT_UID = re.compile(r'^uid="(uid://[a-z0-9]+)"', re.MULTILINE)


def is_uid(value: str) -> bool:
    """A well-formed ``uid://`` path (``uid://<invalid>`` and typos are not)."""
    return bool(_TEXT.match(value))


def text_to_id(text: str) -> int | None:
    """``uid://...`` -> its id, as ResourceUID.text_to_id computes it; None when malformed."""
    if not is_uid(text):
        return None
    value = 0
    for char in text[len(PREFIX):]:
        value = value * _BASE + (ord(char) - ord("a") if char.isalpha() else ord(char) - ord("0") + _CHARS)
    return value & 0x7FFF_FFFF_FFFF_FFFF


def id_to_text(uid: int) -> str:
    """An id as ResourceUID.id_to_text writes it."""
    digits = []
    while uid:
        uid, digit = divmod(uid, _BASE)
        digits.append(chr(ord("a") + digit) if digit < _CHARS else chr(ord("0") + digit - _CHARS))
    return PREFIX + "".join(reversed(digits))


def read_cache(project: Path) -> dict[int, str]:
    """The editor's uid table (id -> res:// path); empty when it is missing or malformed."""
    try:
        data = (project / CACHE).read_bytes()
    except OSError:
        return {}
    table: dict[int, str] = {}
    try:
        (count,) = struct.unpack_from("<I", data, 0)
        offset = 4
        for _ in range(count):
            uid, length = struct.unpack_from("<qI", data, offset)
            offset += 12
            table[uid] = data[offset:offset + length].decode("utf-8")
            offset += length
    except (struct.error, UnicodeDecodeError):
        return table
    return table


def _to_res(project: Path, file: Path) -> str:
    return "res://" + file.relative_to(project).as_posix()


def _uid_in(file: Path) -> str | None:
    """The uid a file declares for the resource it describes."""
    name = file.name
    try:
        if name.endswith(".uid"):
            text = file.read_text(encoding="utf-8").strip()
            return text if is_uid(text) else None
        with file.open(encoding="utf-8") as handle:
            head = handle.read(4096)
    except (OSError, UnicodeDecodeError):
        return None
    if name.endswith(".import"):
        match = _IMPORT_UID.search(head)
        return match.group(1) if match else None
    return file_uid(head)


def _described(file: Path) -> Path:
    """The file a sidecar describes (``a.gd.uid`` -> ``a.gd``); a text resource describes itself."""
    return file.with_name(file.name.rsplit(".", 1)[0]) if file.name.endswith((".uid", ".import")) else file


def _files(project: Path) -> list[Path]:
    found: list[Path] = []
    for folder, subfolders, names in os.walk(project):
        if ".gdignore" in names:
            subfolders[:] = []
            continue
        subfolders[:] = sorted(s for s in subfolders if not s.startswith("."))
        found.extend(Path(folder) / n for n in sorted(names) if n.endswith((".uid", ".import", *_HEADED)))
        if len(found) >= MAX_FILES:
            break
    return found


def resolve(project: Path, uid: str) -> str | None:
    """The res:// path of the file with this uid, None when no file of the project has it."""
    wanted = text_to_id(uid)
    if wanted is None:
        return None
    cached = read_cache(project).get(wanted)
    if cached is not None and cached.startswith("res://") and (project / cached[len("res://"):]).is_file():
        return cached
    for file in _files(project):
        if _uid_in(file) == uid and _described(file).is_file():
            return _to_res(project, _described(file))
    return None


def uid_of(project: Path, res_path: str) -> str | None:
    """The uid of a project file (from its header, or its ``.uid`` / ``.import`` sidecar), if it has one."""
    file = project / res_path[len("res://"):]
    if file.name.endswith(_HEADED):
        return _uid_in(file)
    for sidecar in (file.with_name(file.name + ".uid"), file.with_name(file.name + ".import")):
        if sidecar.is_file():
            return _uid_in(sidecar)
    return None
