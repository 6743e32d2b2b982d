"""Which command an MCP client should run to start this very bridge.

``godot-bridge init`` writes a command that starts the bridge it was run from, the one whose
plugin it copies, so the two halves are always of one release:

* installed from a package index: ``uvx --compile-bytecode godot-bridge@<this version>``. The
  version is pinned: an unpinned name would start whatever the index serves later (a newer
  bridge than the plugin, or, for a name registered by someone else, their code);
* installed from a local path, a wheel file, a checkout or a VCS URL (pip records that in the
  distribution's ``direct_url.json``, PEP 610): no index holds this build, so the absolute path of
  this installation's ``godot-bridge`` script (or its interpreter with ``-m godot_bridge``);
* from an index, but ``uvx`` is not on PATH: the installed script too (the entry must start).

``--launch uvx|installed|<command line>`` overrides the choice.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import sysconfig
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from godot_bridge import __version__
from godot_bridge.shipped import mcp_entry

DISTRIBUTION = "godot-bridge"
SCRIPT = "godot-bridge"


@dataclass(frozen=True)
class Launch:
    command: str
    args: list[str] = field(default_factory=list)
    how: str = ""  # "uvx", "installed" or "custom"
    why: str = ""  # one line for the user: why this command

    def as_entry(self) -> dict[str, Any]:
        return {"command": self.command, "args": list(self.args)}

    def text(self) -> str:
        return shlex.join([self.command, *self.args])


def installed_distribution() -> metadata.Distribution | None:
    """The installed godot-bridge: one an installer recorded (pip and uv write INSTALLER), not the
    ``godot_bridge.egg-info`` a build leaves in a checkout, which says nothing of where it came from."""
    for dist in metadata.distributions(name=DISTRIBUTION):
        if dist.read_text("INSTALLER") is not None:
            return dist
    return None


def direct_url() -> dict[str, Any] | None:
    """PEP 610's record of a non-index install (a path, a wheel file, a VCS URL), None for an index install."""
    dist = installed_distribution()
    raw = dist.read_text("direct_url.json") if dist is not None else None
    if not raw:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def installed_from_index() -> bool | None:
    """True: from an index; False: from a path, wheel or VCS URL; None: not installed as a package."""
    if installed_distribution() is None:
        return None
    return direct_url() is None


def installed_script() -> Path | None:
    """This installation's ``godot-bridge`` script, beside the interpreter running us."""
    folders = [Path(sys.executable).parent, Path(sysconfig.get_path("scripts"))]
    for folder in dict.fromkeys(folders):
        found = shutil.which(SCRIPT, path=str(folder))
        if found:
            return Path(found).absolute()
    return None


def uvx(os_name: str) -> Launch:
    launch = mcp_entry.definition().launch_for(os_name, __version__)
    return Launch(launch["command"], launch["args"], "uvx", f"uvx starts godot-bridge {__version__} from the index")


def installed() -> Launch:
    script = installed_script()
    if script is not None:
        return Launch(str(script), [], "installed", f"the godot-bridge {__version__} installed at {script}")
    return Launch(str(Path(sys.executable).absolute()), ["-m", "godot_bridge"], "installed",
                  f"this Python ({sys.executable}) runs godot-bridge {__version__}")


def choose(override: str | None, os_name: str, env: dict[str, str] | None = None) -> Launch:
    """The command for the entry: ``override`` (uvx, installed or a command line), else by how we were installed."""
    path = (env or os.environ).get("PATH", "")
    if override == "uvx":
        return uvx(os_name)
    if override == "installed":
        return installed()
    if override:
        words = shlex.split(override, posix=os_name != "Windows")
        return Launch(words[0], words[1:], "custom", "the command given with --launch")
    source = installed_from_index()
    if source is True:
        if shutil.which("uvx", path=path) is not None:
            return uvx(os_name)
        chosen = installed()
        return Launch(chosen.command, chosen.args, chosen.how, chosen.why + " (uvx is not on PATH)")
    chosen = installed()
    if source is False:
        url = (direct_url() or {}).get("url", "a local path")
        return Launch(chosen.command, chosen.args, chosen.how, f"{chosen.why}, built from {url}, which no package "
                      "index holds")
    return Launch(chosen.command, chosen.args, chosen.how, chosen.why + " (not installed as a package)")
