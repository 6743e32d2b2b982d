#!/usr/bin/env python3
"""CI: every .gd under addons/ and tests/godot/ parses (gdparse) and is gdlint-clean.

The lint configuration is the committed gdlintrc at the repo root; a missing or unreadable one
is itself a failure, so CI can never silently fall back to gdtoolkit's defaults.
Exit status: 0 clean, 1 problems (each printed as path:line: check: message).
"""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gd_common import REPO, fail_exit, gd_files, parse_tree, prune_parse_cache  # noqa: E402

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


def lint_tree(code: str, tree: Any, config: dict[str, Any]) -> list[Any]:
    """gdtoolkit's ``lint_code`` over a tree parsed already (it would parse the file again)."""
    from gdtoolkit.linter import (
        _fetch_problem_inactivity_lines,
        basic_checks,
        class_checks,
        design_checks,
        format_checks,
        misc_checks,
        name_checks,
    )

    problems = design_checks.lint(tree, config) + format_checks.lint(code, config)
    for checks in (name_checks, class_checks, basic_checks, misc_checks):
        problems += checks.lint(tree, config)
    inactive = _fetch_problem_inactivity_lines(code)
    return [p for p in problems if p.name not in inactive or p.line not in inactive[p.name]]


def check_source(code: str, config: dict[str, Any], label: str) -> list[str]:
    """Parse then lint one file's text; problems as 'label:line: check: message'."""
    import lark

    try:
        tree = parse_tree(code)
    except (lark.exceptions.UnexpectedInput, lark.exceptions.UnexpectedToken) as exc:
        line = getattr(exc, "line", "?")
        return [f"{label}:{line}: parse: {str(exc).splitlines()[0]}"]
    except lark.indenter.DedentError as exc:
        return [f"{label}:?: parse: {exc}"]
    return [f"{label}:{p.line}: {p.name}: {p.description}" for p in lint_tree(code, tree, config)]


def _check_file(job: tuple[str, dict[str, Any], str]) -> list[str]:
    return check_source(*job)


def run(repo: Path = REPO) -> list[str]:
    try:
        config = load_config(repo)
    except (OSError, ValueError) as exc:
        return [f"gdlintrc: {exc}"]
    problems: list[str] = []
    files = gd_files(repo, *ROOTS)
    if not files:
        problems.append("no .gd files found under " + ", ".join(ROOTS))
    jobs = [((repo / rel).read_text(encoding="utf-8"), config, rel.as_posix()) for rel in files]
    # Every core: the files are independent, and the suite waits on this check.
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for found in pool.map(_check_file, jobs, chunksize=8):
            problems.extend(found)
    if repo == REPO:  # gd_types reads the same roots: what no file holds any more can go
        prune_parse_cache([code for code, _, _ in jobs])
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
