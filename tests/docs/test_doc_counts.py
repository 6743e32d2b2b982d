"""Every count the README and docs/ state is the catalogue's (godot_bridge/tools/counts.py).

A marked count (``135<!-- count: tools -->``) is rewritten by scripts/gen_counts_doc.py, so after a
change of the catalogue the docs need a regeneration, not a hunt; a count of tools or groups written
without a marker fails here, since nothing would keep it true. The README's Environment table is
rendered from config.ENV_DOCS with the same counts (tests/docs/test_cli_docs.py holds it), and
docs/tools.md from them by scripts/gen_tools_doc.py (tests/docs/test_tools_doc.py).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from godot_bridge import usage
from godot_bridge.tools.catalogue import load_catalogue
from godot_bridge.tools.counts import count

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

import gen_counts_doc  # noqa: E402

COUNTS = count(load_catalogue()).by_name()
# A number that reads as a count of the catalogue: "41 tools", "33 on-demand groups", "36 always on".
COUNT_LIKE = re.compile(
    r"(?<![\w.,])(\d[\d,]*)(?!<!-- count)\s+(?:(?:more|always-on|on-demand|read-only|built-in|meta|catalogue)\s+)?"
    r"(?:tools?|groups?|operations|always\s+on|at\s+start-up|at\s+first)\b")
# Tables another script writes from the same counts (gen_cli_doc.py: <!-- generated: NAME -->).
GENERATED = re.compile(r"<!-- generated: (\S+) [^\n]*-->.*?<!-- end: \1 -->", re.S)
PAGES = gen_counts_doc.files(REPO)


def test_the_pages_are_the_readme_and_docs() -> None:
    names = {str(p.relative_to(REPO)) for p in PAGES}
    assert {"README.md", "docs/dev/contract.md", "docs/dev/testing.md"} <= names
    assert not {"docs/tools.md", "docs/benchmarks.md"} & names


def test_every_marked_count_is_the_catalogues() -> None:
    run = subprocess.run([sys.executable, str(REPO / "scripts" / "gen_counts_doc.py"), "--check"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(REPO)) for p in PAGES])
def test_no_count_is_written_without_its_marker(page: Path) -> None:
    text = GENERATED.sub("", page.read_text(encoding="utf-8"))
    loose = [m.group(0).replace("\n", " ") for m in COUNT_LIKE.finditer(text)]
    assert not loose, (f"{page.relative_to(REPO)}: counts nothing keeps true: {loose}; write each as "
                       "N<!-- count: NAME --> (names: godot_bridge/tools/counts.py) and run scripts/gen_counts_doc.py")


def test_the_readme_states_what_the_bridge_serves() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"({COUNTS['tools']}<!-- count: tools --> in all" in readme
    assert f"{COUNTS['always_on']}<!-- count: always_on --> always on" in readme
    assert f"{COUNTS['always_on']}<!-- count: always_on --> tools at first" in readme


def test_a_stale_count_is_rewritten_and_an_unknown_one_refused() -> None:
    stale = "(130<!-- count: tools --> in all; 3,600<!-- count: always_on --> always on; 7 jobs)"
    assert gen_counts_doc.render(stale, COUNTS) == (
        f"({COUNTS['tools']}<!-- count: tools --> in all; {COUNTS['always_on']}<!-- count: always_on --> "
        "always on; 7 jobs)")
    with pytest.raises(SystemExit, match="no count named 'tool'"):
        gen_counts_doc.render("1<!-- count: tool -->", COUNTS)


def test_the_loose_count_check_itself() -> None:
    flagged = ["36 always on", "sees 41 tools at first", "in 33 groups", "160 operations", "3 more tools"]
    passed = ["41<!-- count: always_on --> tools", "16 jobs per client and 64 in all", "Godot 4.5 tools",
              "the last 16 screenshots"]
    assert all(COUNT_LIKE.search(text) for text in flagged)
    assert not any(COUNT_LIKE.search(text) for text in passed)


def test_the_read_only_line_of_help_and_the_readme_is_counted() -> None:
    line = usage.env_docs()["GODOT_MCP_READ_ONLY"]
    assert f"({COUNTS['read_only_at_start']} at start-up, {COUNTS['read_only_in_all']} in all)" in line
    assert "{" not in "".join(usage.env_docs().values())
