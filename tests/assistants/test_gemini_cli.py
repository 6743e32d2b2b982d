"""Gemini CLI, headless (``gemini -p``), through the bridge into the simulated editor
(tests/assistants/README.md).

Gemini CLI declares every tool of ours with its schema and a ``wait_for_previous`` argument of its own
(which the model may fill in: the always-on call here does), re-lists after discover_tools, offers
no elicitation (an asking tool gets the bridge's preview), and cuts a big answer to its first 8,000
and last 32,000 characters.
"""

from __future__ import annotations

import json

from tests.assistants import clis, scenarios as sc
from tests.assistants.every_cli import EveryCli
from tests.assistants.model_server import ours
from tests.assistants.sandbox import SERVER_KEY

CLI = clis.GEMINI


TestEveryCli = EveryCli  # the checks every CLI passes, on this module's CLI


def test_declares_our_tools_with_the_added_argument(session: sc.Session) -> None:
    """The always-on call fills the argument in (whole_session.always_on) and succeeds: TestEveryCli."""
    first = session.run.requests[0]
    assert CLI.declared("discover_tools") in first.names(), first.names()
    assert all("wait_for_previous" in json.dumps(t.raw) for t in ours(first.tools, SERVER_KEY))


def test_big_answer_reaches_the_model_cut_keeping_both_ends(session: sc.Session) -> None:
    seen = session.result(sc.BIG).text
    assert len(seen) < sc.BIG_BYTES // 4, len(seen)
    assert '"tree"' in seen[:8000] and "Sprite" in seen[-2000:], (seen[:300], seen[-300:])
