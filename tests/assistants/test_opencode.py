"""opencode, headless (``opencode run``), through the bridge into the simulated editor
(tests/assistants/README.md).

opencode declares every tool of ours with its schema as ``<server key>_<tool>``, does not re-list
after discover_tools (a loaded tool is reached through the always-on ``call_tool``), offers no
elicitation (the bridge answers with a preview and a token), and cuts a long answer to whole lines,
keeping the whole in a file. Its entry's ``timeout`` bounds the server's start-up and each request,
a request's timer restarting whenever the bridge reports progress (so it cannot cut the long call).
"""

from __future__ import annotations

import re

from tests.assistants import clis, scenarios as sc, whole_session as ws
from tests.assistants.every_cli import EveryCli

CLI = clis.OPENCODE


TestEveryCli = EveryCli  # the checks every CLI passes, on this module's CLI


def test_declares_our_tools_with_their_schemas(session: sc.Session) -> None:
    ws.check_declared_with_schemas(session.run.requests[0], CLI.prefix)


def test_big_answer_is_cut_to_whole_lines_and_kept_in_a_file(session: sc.Session) -> None:
    """opencode keeps whole lines up to its limit and says how many bytes it left out; the file it
    names holds the whole answer."""
    seen = session.result(sc.BIG).text
    assert len(seen.encode()) < 4_000 and re.search(r"\.\.\.\d+ bytes truncated\.\.\.", seen), seen[:500]
    sc.check_saved_whole(seen, r"Full output saved to: (\S+)")
