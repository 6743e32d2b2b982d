"""GitHub Copilot CLI, headless (``copilot -p``), through the bridge into the simulated editor
(tests/assistants/README.md).

Copilot declares every tool of ours with its schema as ``<server key>-<tool>``, re-lists after
discover_tools, declines every question in prompt mode, and keeps a too-large answer in a file,
showing the model a 500-character preview.
"""

from __future__ import annotations

import re

from tests.assistants import clis, scenarios as sc, whole_session as ws
from tests.assistants.every_cli import EveryCli

CLI = clis.COPILOT


TestEveryCli = EveryCli  # the checks every CLI passes, on this module's CLI


def test_declares_our_tools_with_their_schemas(session: sc.Session) -> None:
    ws.check_declared_with_schemas(session.run.requests[0], CLI.prefix)


def test_big_answer_is_kept_in_a_file_with_a_preview(session: sc.Session) -> None:
    """The model sees where the whole answer was saved (the run's temp folder; Copilot deletes the file
    when the session ends) and its first 500 characters."""
    seen = session.result(sc.BIG).text
    assert len(seen.encode()) < 2_000, len(seen)
    saved = re.search(r"Saved to: (\S+)", seen)
    assert saved and saved.group(1).startswith(str(session.run.home)), seen
    preview = seen.split("Preview (first 500 chars):", 1)[-1].strip()
    assert preview.startswith('{"has_more"') and len(preview) <= 520, seen
