"""What every CLI run of B2's tests adds to ``Sandbox.env``.

* ``TMPDIR`` inside the run's HOME: Copilot CLI saves a too-large tool answer to a file in the temp
  folder and Qwen Code keeps a compile cache there; the test's temp folder takes them, and goes.
* ``NODE_COMPILE_CACHE`` beside the install: Node keeps the compiled code of a CLI's bundle there, so a
  second start skips the compile (Qwen Code: ~3 s of each run), shared by every run and test module.
"""

from __future__ import annotations

from pathlib import Path

from tests.assistants.sandbox import Sandbox


def extra_env(sandbox: Sandbox, home: Path) -> dict[str, str]:
    tmp = home / "tmp"
    tmp.mkdir(exist_ok=True)
    return {"TMPDIR": str(tmp), "NODE_COMPILE_CACHE": str(sandbox.clis / "node-compile-cache")}
