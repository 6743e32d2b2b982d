#!/usr/bin/env python3
"""Write the README's Command line and Environment tables from the definitions --help uses.

The commands, flags and variables are defined once, in godot_bridge/usage.py and
godot_bridge/config.py (ENV_DOCS); `godot-bridge --help` renders them, and so does this script,
between the README's `<!-- generated: NAME -->` and `<!-- end: NAME -->` markers. `--check` exits 1
when the README differs from what would be written (tests/docs/test_cli_docs.py runs it).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from godot_bridge import usage  # noqa: E402

README = REPO / "README.md"
TABLES = {"command-line": usage.markdown_commands, "environment": usage.markdown_environment}


def block(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- generated: {name} [^\n]*-->\n)(.*?)(<!-- end: {name} -->)", re.S)


def render(text: str) -> str:
    for name, make in TABLES.items():
        pattern = block(name)
        if not pattern.search(text):
            raise SystemExit(f"gen_cli_doc: README.md has no '<!-- generated: {name} ... -->' block")
        text = pattern.sub(lambda m, make=make: m.group(1) + "\n" + make() + "\n" + m.group(3), text)
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when README.md is not up to date")
    args = parser.parse_args()
    current = README.read_text(encoding="utf-8")
    wanted = render(current)
    if args.check:
        if wanted != current:
            sys.stderr.write("README.md's command-line or environment table is stale: run python scripts/gen_cli_doc.py\n")
            return 1
        return 0
    if wanted != current:
        README.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
