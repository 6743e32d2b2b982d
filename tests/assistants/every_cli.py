"""The checks every CLI's test module makes, on its CLI's whole session (whole_session.py: one CLI run
a module).

A module names its CLI (``CLI = clis.CODEX``) and collects these under a test name of its own
(``TestEveryCli = EveryCli``); the fixtures of conftest.py (``cli``, ``configured``, ``session``) read that
name. Where CLIs differ the checks take it from the CLI's row in ``clis.py``; what one CLI alone does
is tested in its own module.
"""

from __future__ import annotations

from tests.assistants import scenarios as sc, whole_session as ws
from tests.assistants.clis import Cli
from tests.assistants.sandbox import Sandbox

INIT_TIMEOUT_AT_LEAST_S = 60  # what the clients' own defaults allow, and more for our long calls


class EveryCli:
    def test_always_on_call_succeeds(self, cli: Cli, session: sc.Session) -> None:
        turn = ws.always_on(cli)
        assert session.declared(turn) == cli.declared("project_get_settings")
        assert sc.succeeded(session.result(turn)), session.run.describe()

    def test_long_call_gets_through_under_the_entry_init_wrote(self, cli: Cli, configured: Sandbox,
                                                                session: sc.Session) -> None:
        limit = cli.entry.call_timeout(configured.project)
        assert limit >= INIT_TIMEOUT_AT_LEAST_S, cli.entry.read(configured.project)
        sc.check_long_call(session)

    def test_asking_tool_without_a_game_fails_before_asking(self, session: sc.Session) -> None:
        sc.check_no_game(session)

    def test_asking_tool_headless_does_not_run(self, cli: Cli, session: sc.Session) -> None:
        """A CLI that asks cancels or declines the question headless (the answer names the setting that
        allows the tool unasked); one that does not gets the bridge's preview and token."""
        (sc.check_headless_ask if cli.elicits else sc.check_preview)(session)

    def test_allowance_in_the_entry_runs_the_asking_tool(self, session: sc.Session) -> None:
        ws.check_allowed(session)

    def test_a_shorter_timeout_in_the_entry_is_honoured(self, cli: Cli, session: sc.Session) -> None:
        """Proof that the CLI reads the field: the copy of our entry with a short timeout, a second server
        in the same run, fails the long call that ours lets through (opencode, whose timer restarts on
        every progress report: drops that server at start-up, while ours is listed)."""
        if cli.timeout_cuts_calls:
            sc.check_cut_by_timeout(session.result(ws.cut_long(cli)))
        else:
            ws.check_dropped_at_start_up(session, cli)

    def test_group_tools_are_reached_by_a_fast_and_a_slow_model(self, cli: Cli, configured: Sandbox,
                                                                session: sc.Session) -> None:
        """Every tool listed from the start (an entry init wrote GODOT_MCP_TOOL_LIST=all into); else loaded
        by discover_tools and declared in the next request (a CLI that re-lists), or reached through
        call_tool."""
        listed = cli.lists_all(configured.project)
        steps = ((sc.DISCOVER, ws.loaded(cli, listed)), (sc.SLOW_DISCOVER, ws.slow_loaded(cli, listed)))
        for discover, loaded in steps:
            if listed:
                sc.check_listed(session, discover, loaded)
            else:
                sc.check_loaded(session, discover, loaded, relists=cli.relists)
