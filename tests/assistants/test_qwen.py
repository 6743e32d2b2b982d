"""Qwen Code, headless (``qwen -p``), through the bridge into the simulated editor
(tests/assistants/README.md).

Qwen Code connects a project's server only once the person approved its entry (``qwen mcp approve``,
bound to the entry's content: an edited entry is approved again). It defers every tool of ours: the
model sees their names and cut descriptions in a reminder and calls them through its own
``tool_call``. It does not re-list after discover_tools, so a loaded tool is reached through the
always-on ``call_tool``. It offers no elicitation (the bridge answers with a preview and a token), and
keeps a too-large answer in a file under ``~/.qwen/tmp``, showing the model a preview.
"""

from __future__ import annotations

from tests.assistants import clis, qwen, scenarios as sc
from tests.assistants.every_cli import EveryCli
from tests.assistants.footprints import chat_footprint

CLI = clis.QWEN


TestEveryCli = EveryCli  # the checks every CLI passes, on this module's CLI


def test_announces_our_tools_by_name_only(session: sc.Session) -> None:
    first = session.run.requests[0]
    assert CLI.declared("discover_tools") in first.announced, first.announced
    assert not [t for t in qwen.ours(first.tools) if "deferred" not in t.raw], "Qwen Code declared a tool of ours"
    footprint = chat_footprint(first, CLI.prefix)
    assert footprint.announced > 0 and footprint.declarations == 0, footprint


def test_big_answer_is_kept_in_a_file_with_a_preview(session: sc.Session) -> None:
    seen = session.result(sc.BIG).text
    assert len(seen.encode()) < 4_000 and seen.startswith("<persisted-output>"), seen[:300]
    saved = sc.check_saved_whole(seen, r"saved to: (\S+)")
    assert saved.startswith(str(session.run.home)), saved
