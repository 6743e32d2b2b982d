"""What copying the shipped toolkit into a project would change, decided before anything is written.

The project's copy (``<project>/addons/godot_mcp_toolkit``) is compared with the one this
bridge ships:

* none there: copy it;
* the same version, every file identical: leave it alone;
* an older version: upgrade it, unless it was changed since it was installed;
* a newer version, an unknown one, or the same version with different files: locally modified
  or from elsewhere, so it is not touched without ``force`` (the plan names the files that differ).

"Changed since installed" needs to know what was installed: every install records the version
and each file's sha256 in ``.godot-bridge-install.json`` inside the addon (Godot ignores dot
files). The record also holds the command ``init`` chose to start the bridge (``launch``) and the
clients' time limits (``limits``), which the plugin's dock writes into a client file so both write
the same entry. A copy made by hand has no record; an older one is then upgraded as it is. Files in the
project's copy that the toolkit does not ship (the user's own extensions) are never removed;
files an earlier install recorded and this version no longer ships are, when unchanged.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from godot_bridge.shipped.toolkit_files import files, read_version

RECORD = ".godot-bridge-install.json"
# Files Godot writes beside a resource once the project is opened (4.4+ script UIDs, import data):
# the engine's, not the user's, so they are neither reported nor kept when their file goes.
SIDECARS = (".uid", ".import")

Status = Literal["missing", "same", "older", "newer", "modified", "unknown"]
_NUMBERS = re.compile(r"^(\d+)\.(\d+)(?:\.(\d+))?")


@dataclass(frozen=True)
class AddonPlan:
    status: Status
    shipped_version: str
    installed_version: str | None
    writes: dict[str, bytes] = field(default_factory=dict)  # relative path -> new content
    removes: list[str] = field(default_factory=list)  # relative paths of old toolkit files
    differing: list[str] = field(default_factory=list)  # files whose content is not the shipped one
    foreign: list[str] = field(default_factory=list)  # files the toolkit does not ship (left alone)
    blocked: str | None = None  # why nothing is written without force
    forceable: bool = True  # whether --force would write it anyway

    @property
    def changes(self) -> bool:
        return bool(self.writes or self.removes)


def version_key(text: str | None) -> tuple[int, int, int] | None:
    """'1.2.3' -> (1, 2, 3); '1.2' -> (1, 2, 0); None when it does not start with numbers."""
    match = _NUMBERS.match(text or "")
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2)), int(match.group(3) or 0)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _record(target: Path) -> dict[str, str] | None:
    """The file hashes the last install recorded, when the record is there and readable."""
    try:
        data = json.loads((target / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    hashes = data.get("files") if isinstance(data, dict) else None
    if not isinstance(hashes, dict):
        return None
    return {str(k): str(v) for k, v in hashes.items()}


def record_bytes(version: str, shipped: dict[str, bytes], launch: dict[str, Any] | None = None,
                 limits: dict[str, float] | None = None) -> bytes:
    body: dict[str, Any] = {"version": version, "installed_by": "godot-bridge init"}
    if launch is not None:
        body["launch"] = launch
    if limits is not None:
        body["limits"] = {kind: int(v) if float(v).is_integer() else v for kind, v in limits.items()}
    body["files"] = {rel: _sha(data) for rel, data in sorted(shipped.items())}
    return (json.dumps(body, indent=2) + "\n").encode("utf-8")


def _status(installed: str | None, shipped: str, identical: bool) -> Status:
    have, want = version_key(installed), version_key(shipped)
    if have is None or want is None:
        return "unknown"
    if have < want:
        return "older"
    if have > want:
        return "newer"
    return "same" if identical else "modified"


def _blocked(status: Status, installed: str | None, shipped: str, differing: list[str]) -> str | None:
    named = ", ".join(differing[:8]) + (f" and {len(differing) - 8} more" if len(differing) > 8 else "")
    if status == "newer":
        return f"the project has toolkit {installed}, newer than this bridge's {shipped}"
    if status == "unknown":
        return f"the project's toolkit has no readable version (plugin.cfg); files that differ: {named}"
    if status == "modified":
        return f"the project's toolkit {installed} was changed locally; files that differ: {named}"
    return None


def plan(source: Path, target: Path, version: str, *, force: bool = False,
         launch: dict[str, Any] | None = None, limits: dict[str, float] | None = None) -> AddonPlan:
    """How to bring ``target`` (the project's addon folder) to the toolkit at ``source``.

    ``launch`` and ``limits`` are recorded with the file hashes (what the dock writes as the entry's
    command and time limits: client_limits.values, which the dock cannot derive, having no catalogue)."""
    shipped = {rel: path.read_bytes() for rel, path in files(source).items()}
    if target.is_symlink() or not target.exists():
        if target.is_symlink():
            resolved = target.resolve()
            identical = all((resolved / rel).is_file() and (resolved / rel).read_bytes() == data
                            for rel, data in shipped.items())
            if identical:
                return AddonPlan("same", version, read_version(resolved))
            return AddonPlan("unknown", version, read_version(resolved),
                             blocked=f"{target} is a symbolic link to {resolved}, which holds another toolkit; "
                                     "not writing through it (replace the link with a folder, or update its target)",
                             forceable=False)
        record = record_bytes(version, shipped, launch, limits)
        return AddonPlan("missing", version, None, writes={**shipped, RECORD: record})
    present = {rel: path.read_bytes() for rel, path in files(target).items() if rel != RECORD}
    installed = read_version(target)
    differing = sorted(rel for rel, data in shipped.items() if present.get(rel) != data)
    foreign = sorted(rel for rel in present if rel not in shipped and not rel.endswith(SIDECARS))
    status = _status(installed, version, not differing)
    record = _record(target)
    if status == "older" and record is not None:
        edited = sorted(rel for rel, sha in record.items() if rel in present and _sha(present[rel]) != sha)
        if edited:
            status, differing = "modified", edited
    blocked = None if force else _blocked(status, installed, version, differing)
    if blocked is not None:
        return AddonPlan(status, version, installed, differing=differing, foreign=foreign, blocked=blocked)
    writes = {rel: shipped[rel] for rel in shipped if present.get(rel) != shipped[rel]}
    old = [rel for rel in foreign if record is not None and rel in record and _sha(present[rel]) == record[rel]]
    old += [rel + end for rel in old for end in SIDECARS if rel + end in present]
    wanted = record_bytes(version, shipped, launch, limits)
    recorded = (target / RECORD).read_bytes() if (target / RECORD).is_file() else None
    if writes or old or recorded != wanted:
        writes[RECORD] = wanted
    return AddonPlan(status, version, installed, writes=writes, removes=sorted(old), differing=differing,
                     foreign=[rel for rel in foreign if rel not in old])
