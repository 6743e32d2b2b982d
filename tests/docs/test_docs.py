"""Documentation and code name no issue: they say what was measured or decided, not who asked.

README.md, everything under docs/ (docs/tools.md is generated from the catalogue's descriptions,
so those are covered too) and the catalogue's own notes. A link to another project's tracker
(``github.com/godotengine/godot/issues/86032``) is a URL, not a mention, and passes.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCS = sorted([REPO / "README.md", *(REPO / "docs").rglob("*.md"), *(REPO / "catalogue").glob("*.md")])
# "issue 18", "Issues 16-18", "issue #3"; and a bare GitHub-style "#12" (not "&#12;", a URL's
# "/#12" or a colour "#000000").
ISSUE = re.compile(r"\b[Ii]ssues?\s+#?\d+|(?<![\w&/#])#\d{1,4}\b")


# The code, its tests, scripts and benchmarks say why in their own words too. Their text holds real
# "#" characters (GDScript comments, an engine message quoting "character #35"), so there only the
# word, another tracker's "project#123" and "pull request 123" count.
CODE_DIRS = ("godot_bridge", "addons", "tests", "scripts", "bench")
CODE = sorted(p for d in CODE_DIRS for p in (REPO / d).rglob("*") if p.is_file()
              and p.suffix in (".py", ".gd", ".md", ".sh", ".js", ".cfg", ".toml")
              and "fixtures" not in p.relative_to(REPO).parts and "node_modules" not in p.parts
              and p != Path(__file__).resolve())
CODE_ISSUE = re.compile(r"(?<![A-Za-z])[Ii]ssues?[\s_-]*#?\d+|\bpull request \d+|[A-Za-z]#\d{2,}\b")


def mentions(text: str) -> list[str]:
    return [f"{number}: {line.strip()}" for number, line in enumerate(text.splitlines(), 1) if ISSUE.search(line)]


@pytest.mark.parametrize("path", DOCS, ids=[str(p.relative_to(REPO)) for p in DOCS])
def test_no_issue_numbers(path: Path) -> None:
    found = mentions(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(REPO)} names internal issues; say what was measured instead:\n" + "\n".join(found)


def test_no_issue_numbers_in_code() -> None:
    found = [f"{path.relative_to(REPO)}:{number}: {line.strip()}" for path in CODE
             for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
             if CODE_ISSUE.search(line)]
    named = [str(p.relative_to(REPO)) for d in CODE_DIRS for p in (REPO / d).rglob("*") if CODE_ISSUE.search(p.name)]
    assert not found + named, "code, tests, scripts or benchmarks name an issue; say the behaviour instead:\n" + "\n".join(
        found + named)


@pytest.mark.parametrize(
    ("line", "flagged"),
    [
        ("(issue 18 measured `uvx godot-bridge` at 1.6 s)", True),
        ("## Issue 18, part 2", True),
        ("after merging issues 16-18", True),
        ("see #12 for why", True),
        ("fixed in issue #7", True),
        ("No `Mcp-Session-Id` is issued", False),
        ("https://github.com/godotengine/godot/issues/86032", False),
        ("color `#000000` and entity &#12;", False),
        ("### Heading", False),
    ],
)
def test_the_check_itself(line: str, flagged: bool) -> None:
    assert bool(mentions(line)) is flagged


@pytest.mark.parametrize(
    ("text", "flagged"),
    [
        ("# see issue 18", True),
        ("test_editor_issue14_sim.py", True),
        ("(engine issue #86032)", True),
        ("Nagle on for accepted sockets (godot#86234)", True),
        ("google-gemini/gemini-cli pull request 422", True),
        ('const MARK := "Unknown character #35"', False),
        ("# --- debugger ---", False),
        ("No `Mcp-Session-Id` is issued", False),
    ],
)
def test_the_code_check_itself(text: str, flagged: bool) -> None:
    assert bool(CODE_ISSUE.search(text)) is flagged
