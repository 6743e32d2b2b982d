"""The README is for a user: it renders (its tables are tables), its links lead somewhere, and its
first screen gets a new user from install to a working assistant. Rendered with markdown-it-py,
the CommonMark renderer with GitHub's table extension, as GitHub shows it."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from godot_bridge.config import ENV_DOCS
from godot_bridge import usage

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
DOCS = [README, *sorted((REPO / "docs").rglob("*.md"))]
MD = MarkdownIt("commonmark").enable("table")


def tokens(path: Path) -> list:
    return MD.parse(path.read_text(encoding="utf-8"))


def slug(title: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped (hyphens and underscores kept), spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")


@functools.lru_cache(maxsize=None)
def headings(path: Path) -> frozenset[str]:
    found, toks = set(), tokens(path)
    for i, tok in enumerate(toks):
        if tok.type == "heading_open":
            found.add(slug(toks[i + 1].content.replace("`", "")))
    return frozenset(found)


def table_after(path: Path, heading: str) -> list[list[str]]:
    """The rows (cells as text) of the first table after ``heading``."""
    toks = tokens(path)
    start = next(i for i, t in enumerate(toks) if t.type == "inline" and t.content == heading
                 and toks[i - 1].type == "heading_open")
    begin = next(i for i in range(start, len(toks)) if toks[i].type == "table_open")
    rows, row = [], None
    for tok in toks[begin:]:
        if tok.type == "tr_open":
            row = []
        elif tok.type == "inline" and row is not None:
            row.append(tok.content)
        elif tok.type == "tr_close":
            rows.append(row)
            row = None
        elif tok.type == "table_close":
            break
    return rows


def test_the_environment_table_renders_one_row_per_variable() -> None:
    rows = table_after(README, "Environment")
    assert rows[0] == ["variable", "meaning"]
    assert [r[0].strip("`") for r in rows[1:]] == list(ENV_DOCS), "every variable is a table row, none a paragraph"


def test_the_command_line_table_renders_every_flag() -> None:
    rows = table_after(README, "Command line")
    listed = {r[0].strip("`") for r in rows[1:]}
    for command in usage.COMMANDS:
        for option in command.options:
            if option is not usage.HELP:
                assert f"{command.name + ' ' if command.name else ''}{option.spelled}" in listed


@pytest.mark.parametrize("path", DOCS, ids=[str(p.relative_to(REPO)) for p in DOCS])
def test_every_link_leads_somewhere(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+://", target):
            continue
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        if not linked.exists():
            broken.append(target)
        elif anchor and linked.suffix == ".md" and anchor not in headings(linked):
            broken.append(target)
    assert broken == [], f"{path.relative_to(REPO)}: links to nowhere: {broken}"


def test_the_first_screen_gets_a_new_user_going() -> None:
    text = README.read_text(encoding="utf-8")
    first = text[:text.index("## Using it")]
    for needed in ("uv tool install", "pipx install", "python3 -m venv", "externally-managed-environment",
                   "godot-bridge init", "godot-bridge doctor", "## Connect your assistant", "## Troubleshooting",
                   "## Uninstall", "## Windows and macOS", "Godot.app/Contents/MacOS/Godot", "docs/tools.md"):
        assert needed in first, needed
    for client in ("Claude Code", "Cursor", "VS Code", "Codex", "Gemini CLI"):
        assert client in first
    assert "pip install ." not in text, "installing into the system Python fails on Debian and macOS"
    assert first.count("\n- **") >= 5, "troubleshooting covers the five likely failures"


def test_developing_names_the_test_command_ci_runs() -> None:
    text = README.read_text(encoding="utf-8")
    developing = text[text.index("## Developing"):]
    assert "./scripts/test.sh" in developing.split("\n## ")[0]
    assert "./scripts/test.sh" in (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "./scripts/test.sh" not in text[:text.index("## Developing")], "the test suite is not a set-up step"


def test_internals_live_in_docs() -> None:
    text = README.read_text(encoding="utf-8")
    for internal in ("Where seeds 000 and 001 differ", "How the GDScript is tested", "| contract |",
                     "classify_inbound_request", "MCP-Protocol-Version"):
        assert internal not in text, internal
    assert (REPO / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert "the godot-bridge authors" in (REPO / "LICENSE").read_text(encoding="utf-8")
