"""Fixtures of the assistant tests: the installed CLIs (skipped with the reason when the install
fails), and per test module one sandbox with its simulated editor (tests/assistants/sandbox.py).

A module sets the client it configures itself (``sandbox.init(...)``), so each test file pays for one
editor and one ``init``; each CLI run gets its own HOME inside the sandbox, which is removed at the end.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.assistants.sandbox import Editor, Sandbox, bridge_command, install_or_skip


@pytest.fixture(scope="session")
def assistants() -> Path:
    return install_or_skip()


@pytest.fixture(scope="module")
def sandbox(assistants: Path) -> Iterator[Sandbox]:
    if not bridge_command().is_file():
        pytest.fail(f"{bridge_command()} is missing: install the bridge into this Python (scripts/test.sh does)")
    root = Path(tempfile.mkdtemp(prefix="assistants-"))
    try:
        yield Sandbox.create(root, assistants)
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def editor(sandbox: Sandbox) -> Iterator[Editor]:
    """The simulated editor of the sandbox's project (no game running)."""
    sim = Editor(sandbox.data_home, sandbox.project)
    try:
        yield sim
    finally:
        sim.stop()
