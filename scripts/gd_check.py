#!/usr/bin/env python3
"""CI: every .gd under addons/ and tests/godot/ parses (gdparse) and is gdlint-clean.

The lint configuration is the committed gdlintrc at the repo root; a missing or unreadable one
is itself a failure, so CI can never silently fall back to gdtoolkit's defaults.
Exit status: 0 clean, 1 problems (each printed as path:line: check: message).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gd_common import REPO, fail_exit, gd_files  # noqa: E402

ROOTS = ("addons", "tests/godot")


def load_config(repo: Path) -> dict[str, Any]:
    import yaml
    from gdtoolkit.linter import DEFAULT_CONFIG

    path = repo / "gdlintrc"
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing")
    loaded = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.Loader)
    if not isinstance(loaded, dict):
        raise ValueError(f"{path} is not a mapping")
    config = dict(DEFAULT_CONFIG)
    config.update(loaded)
    return config


def check_source(code: str, config: dict[str, Any], label: str) -> list[str]:
    """Parse then lint one file's text; problems as 'label:line: check: message'."""
    import lark
    from gdtoolkit.linter import lint_code
    from gdtoolkit.parser import parser

    try:
        parser.parse(code)
    except (lark.exceptions.UnexpectedInput, lark.exceptions.UnexpectedToken) as exc:
        line = getattr(exc, "line", "?")
        return [f"{label}:{line}: parse: {str(exc).splitlines()[0]}"]
    except lark.indenter.DedentError as exc:
        return [f"{label}:?: parse: {exc}"]
    return [f"{label}:{p.line}: {p.name}: {p.description}" for p in lint_code(code, config)]


def run(repo: Path = REPO) -> list[str]:
    try:
        config = load_config(repo)
    except (OSError, ValueError) as exc:
        return [f"gdlintrc: {exc}"]
    problems: list[str] = []
    files = gd_files(repo, *ROOTS)
    if not files:
        problems.append("no .gd files found under " + ", ".join(ROOTS))
    for rel in files:
        problems.extend(check_source((repo / rel).read_text(encoding="utf-8"), config, rel.as_posix()))
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=REPO)
    args = parser.parse_args(argv)
    problems = run(args.repo)
    count = len(gd_files(args.repo, *ROOTS))
    return fail_exit(problems, f"gd_check: {count} files parse and lint clean", "gd_check")


if __name__ == "__main__":
    sys.exit(main())
