"""Fixtures of the assistant tests: the installed CLIs (skipped with the reason when the install
fails), and per test module one sandbox with its simulated editor (tests/assistants/sandbox.py), the
module's CLI (its ``CLI``, a row of clis.py), the entry ``init`` wrote for it, and its whole session.

Each test file pays for one editor, one ``init`` and one whole session; each CLI run gets its own
HOME inside the sandbox, which is removed at the end.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.assistants import scenarios as sc, whole_session as ws
from tests.assistants.clis import Cli
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


@pytest.fixture(scope="module")
def cli(request: pytest.FixtureRequest) -> Cli:
    """The CLI the test module is about: its ``CLI``."""
    named = getattr(request.module, "CLI", None)
    if not isinstance(named, Cli):
        pytest.fail(f"{request.module.__name__} names no CLI: set CLI = clis.<one of clis.CLIS>")
    return named


@pytest.fixture(scope="module")
def configured(sandbox: Sandbox, editor: Editor, cli: Cli) -> Sandbox:
    """The project with the entry ``init`` writes for the CLI, allowing scene_create unasked."""
    sandbox.init(cli.client, "--env", ws.ALLOWANCE)
    return sandbox


@pytest.fixture(scope="module")
def session(configured: Sandbox, editor: Editor, cli: Cli) -> sc.Session:
    """The CLI's run through every step (whole_session.py); a module that adds to it overrides this."""
    return ws.play(cli, configured, editor)
