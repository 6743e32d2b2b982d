"""Each real assistant CLI, headless, through the bridge into the real toolkit in the Godot engine
(the package's engine host), configured by what ``godot-bridge init`` writes for it (the CLIs, the
scripted model and the sandbox: tests/assistants/). One run per assistant: an always-on call, the
edited scene's tree, then ``discover_tools`` and a tool of the loaded group answering from the
engine's own ClassDB.

The host project's toolkit is a trimmed copy that ``init`` would refuse to replace, and the engine is
running it: so ``init`` sets up a throwaway project (with the host's data home in its environment, for
what it writes of that into an entry), and the client configurations it wrote there (the entries hold
no project path) are copied into the host project, and removed afterwards.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from tests.assistants import scenarios as sc
from tests.assistants.clis import CLIS, Cli, call_tool
from tests.assistants.model_server import Say, ToolCall, Turn
from tests.assistants.sandbox import Sandbox, install_or_skip
from tests.engine.e2e.engine_host import EngineHost


TREE = ToolCall("scene_get_tree", {"max_depth": 2})


def loaded(cli: Cli, listed: bool) -> ToolCall:
    """The call of the group's tool. What is proven here is the engine's answer, not how fast a CLI
    re-lists (tests/assistants does that): when discover_tools said the client had not fetched its
    new list in time (a busy machine), the model calls it through call_tool, as the answer says."""
    turn = cli.loaded(sc.GROUP_TOOL, listed)
    return turn if turn.tool == "call_tool" else replace(turn, instead=call_tool(turn))


def turns(cli: Cli, listed: bool) -> list[Turn]:
    """``listed``: the entry init wrote lists every tool (the group's tool is called by its name)."""
    return [sc.ALWAYS_ON, TREE, sc.DISCOVER, loaded(cli, listed), Say("done")]


@pytest.fixture(scope="module")
def installed() -> Path:
    """The folder the assistant CLIs are installed in (skipped with the reason when they are not)."""
    return install_or_skip()


def client_files(scratch: Sandbox) -> list[Path]:
    """What ``init`` wrote in the throwaway project besides the toolkit and project.godot: the clients'
    configurations."""
    skip = {"addons", "project.godot"}
    return [p for p in scratch.project.rglob("*")
            if p.is_file() and p.relative_to(scratch.project).parts[0] not in skip]


@pytest.fixture(scope="module")
def configured(engine_host: EngineHost, installed: Path) -> Iterator[Sandbox]:
    """The host project with every CLI's configuration ``init`` wrote (one ``init`` for the six: each
    reads only its own file), removed after the module; each CLI run gets its HOME under a fresh root."""
    root = Path(tempfile.mkdtemp(prefix="assistants-e2e-"))
    scratch = Sandbox.create(root / "scratch", installed, engine_host.data_home)
    scratch.init(*[cli.client for cli in CLIS])  # --client claude gemini ...
    copied: list[Path] = []
    try:
        for source in client_files(scratch):
            target = engine_host.project / source.relative_to(scratch.project)
            assert not target.exists(), f"{target} is already there"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
            copied.append(target)
        yield Sandbox(root, installed, engine_host.project, engine_host.data_home)
    finally:
        for target in copied:
            target.unlink(missing_ok=True)
            with contextlib.suppress(OSError):  # its folder, when it made one (.gemini/, .codex/)
                target.parent.rmdir()
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.parametrize("cli", CLIS, ids=str)
def test_assistant_drives_the_real_toolkit(cli: Cli, configured: Sandbox) -> None:
    listed = cli.lists_all(configured.project)
    session = cli.play(configured, None, turns(cli, listed))
    settings = session.result(sc.ALWAYS_ON)
    assert sc.succeeded(settings) and "godot-bridge e2e" in settings.text, session.run.describe()
    tree = session.result(TREE)
    assert sc.succeeded(tree) and '"tree"' in tree.text, tree
    found = session.result(loaded(cli, listed))
    assert not found.is_error and "Sprite2D" in found.text, found
