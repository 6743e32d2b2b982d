"""What our server costs an assistant's model, read from a recorded session (bench/ reuses it).

* ``footprint``: the bytes of one request that come from our server, as the CLI sent them (each CLI's
  own, in the table of ``clis.py``);
* ``Figures.of(session, ...)``: that footprint in the first request that carries our tools, in the
  request after ``discover_tools`` and in the last one, and the size in which a success, an error and
  the ~300 KB answer reached the model (the tool-result text of the next request).

``python -m tests.assistants.measure [claude gemini codex copilot qwen opencode]`` plays the measuring
scenario through each CLI named (every one by default) against the simulator and prints one JSON line
of figures per CLI.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from tests.assistants.footprints import schema_bytes
from tests.assistants.model_server import ModelRequest, Say, ToolCall, Turn
from tests.assistants.scenarios import Session

Footprint = Callable[[ModelRequest], int]
__all__ = ["Figures", "Footprint", "schema_bytes"]  # schema_bytes: bench/ reads it from here


@dataclass(frozen=True)
class Figures:
    client: str
    first_request: int  # our bytes in the first request that carries our tools
    after_discover: int  # our bytes in the request right after discover_tools answered
    last_request: int  # ... and in the session's last request (a CLI that re-lists late has by then)
    discover_result: int  # bytes of discover_tools' answer as the model reads it
    success: int  # bytes of a typical success as the model reads it
    error: int  # bytes of a typical error
    big_sent: int  # bytes of the ~300 KB answer as the bridge sent it (JSON text)
    big_seen: int  # ... and as the model reads it
    big_head: str  # its first and last characters, to see how it was cut
    big_tail: str

    @classmethod
    def of(cls, client: str, session: Session, footprint: Footprint, *, discover: ToolCall, success: ToolCall,
           error: ToolCall, big: ToolCall, big_sent: int) -> Figures:
        carrying = [r for r in session.run.requests if footprint(r)]
        after = session.after(discover)
        seen = session.result(big).text
        return cls(client, footprint(carrying[0]) if carrying else 0, footprint(after) if after else 0,
                   footprint(session.run.requests[-1]), _size(session.result(discover).text),
                   _size(session.result(success).text), _size(session.result(error).text), big_sent, _size(seen),
                   seen[:160], seen[-160:])


def _size(text: str) -> int:
    return len(text.encode())


def _play(client: str) -> Figures:
    from tests.assistants import scenarios as sc
    from tests.assistants.clis import BY_CLIENT
    from tests.assistants.sandbox import Editor, Sandbox, install

    cli = BY_CLIENT[client]
    root = Path(tempfile.mkdtemp(prefix="assistants-measure-"))
    sandbox = Sandbox.create(root, install())
    editor = Editor(sandbox.data_home, sandbox.project)
    try:
        sandbox.init(client)
        tree = sc.big_tree()
        editor.script("scene.get_tree", {"result": tree})
        loaded = cli.loaded(sc.GROUP_TOOL, cli.lists_all(sandbox.project))
        turns: list[Turn] = [sc.ALWAYS_ON, sc.MISSING_NODE, sc.BIG, sc.DISCOVER, loaded, Say("done")]
        session = cli.play(sandbox, editor, turns)
        return Figures.of(client, session, cli.footprint, discover=sc.DISCOVER, success=sc.ALWAYS_ON,
                          error=sc.MISSING_NODE, big=sc.BIG,
                          big_sent=len(json.dumps(tree, separators=(",", ":")).encode()))
    finally:
        editor.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    for name in sys.argv[1:] or ["claude", "gemini", "codex", "copilot", "qwen", "opencode"]:
        print(json.dumps(asdict(_play(name))), flush=True)
