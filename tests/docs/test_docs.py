"""User-facing documentation names no internal issue: it says what was measured or decided, not who asked.

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


def mentions(text: str) -> list[str]:
    return [f"{number}: {line.strip()}" for number, line in enumerate(text.splitlines(), 1) if ISSUE.search(line)]


@pytest.mark.parametrize("path", DOCS, ids=[str(p.relative_to(REPO)) for p in DOCS])
def test_no_issue_numbers(path: Path) -> None:
    found = mentions(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(REPO)} names internal issues; say what was measured instead:\n" + "\n".join(found)


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
