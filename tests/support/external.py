"""Programs from outside this repository that tests run: installed from their registries on first use
by a script under scripts/ (into .cache/, gitignored), and run with a bound on their time."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def install_or_skip(what: str, script: Path, *args: str, needs: str = "npm", timeout: float = 600) -> str:
    """The last line ``script`` prints (where it installed ``what``); the test is skipped, saying why,
    when ``needs`` is missing or the install fails (no network)."""
    if needs and shutil.which(needs) is None:
        pytest.skip(f"{needs} is not installed: cannot install {what}")
    done = subprocess.run([str(script), *args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "PYTHON": sys.executable}, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot install {what} (offline?): {done.stderr.strip()[-500:]}")
    return done.stdout.strip().splitlines()[-1]


async def finish(proc: asyncio.subprocess.Process, seconds: float) -> tuple[bytes, bytes]:
    """``proc``'s output once it exits; killed (and the test failed) when it runs past ``seconds``."""
    try:
        out, err = await asyncio.wait_for(proc.communicate(), seconds)
    except asyncio.TimeoutError:
        proc.kill()
        await proc.wait()
        raise
    return out, err or b""
