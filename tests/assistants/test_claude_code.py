"""Claude Code, headless (``claude -p``), through the bridge into the simulated editor
(tests/assistants/README.md).

Claude Code defers our tools behind its ToolSearch (a request names them; a schema comes once the
model searched for it), cancels every question in print mode, and saves a too-large answer to a file
it points the model to.
"""

from __future__ import annotations

from tests.assistants import clis, scenarios as sc
from tests.assistants.anthropic import footprint
from tests.assistants.every_cli import EveryCli
from tests.assistants.sandbox import SERVER_KEY, Sandbox

CLI = clis.CLAUDE
# init lists every tool for Claude Code: their names, one line each, are what each request carries of them.
NAMES_MAX = 6_000


TestEveryCli = EveryCli  # the checks every CLI passes, on this module's CLI


def test_requests_name_our_tools_without_schemas(configured: Sandbox, session: sc.Session) -> None:
    """A request names our tools and carries our instructions; a schema only once ToolSearch loaded it."""
    connected = [r for r in session.run.requests if footprint(r, SERVER_KEY).announced]
    assert connected, session.run.describe()
    first = connected[0]
    assert CLI.declared("discover_tools") in first.announced and footprint(first, SERVER_KEY).instructions
    raw = [t for t in first.request.json["tools"] if t["name"].startswith(CLI.prefix)]
    assert all(t.get("defer_loading") for t in raw), [t["name"] for t in raw]
    assert CLI.lists_all(configured.project), "init lists every tool for Claude Code"
    assert CLI.declared("tilemap_set_cells") in first.announced, "every tool is named"
    assert footprint(first, SERVER_KEY).announced <= NAMES_MAX, footprint(first, SERVER_KEY)


def test_big_answer_is_saved_to_a_file_the_model_is_pointed_to(session: sc.Session) -> None:
    """Past its token limit Claude Code shows the model a ~2 KB pointer to a file with the whole answer."""
    seen = session.result(sc.BIG).text
    assert len(seen.encode()) < 4000, len(seen)
    sc.check_saved_whole(seen, r"saved to (\S+\.txt)")
