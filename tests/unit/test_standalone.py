"""The repo tests itself from a bare clone: nothing points outside it for reference data."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
REFERENCE = REPO / "tests" / "data" / "reference"
sys.path.insert(0, str(REPO / "scripts"))

from gd_common import COMPAT_MAP_NAME, ERROR_CODES_NAME, find_reference  # noqa: E402

# A machine path or the specification folder beside the checkout; tests/data/reference/README.md
# may name where its copy came from.
OUTSIDE = re.compile(r"/work/|\.\./shared\b|[\s`'\"(]shared/reference")


def _tracked_text_files() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True, timeout=30).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    paths = [REPO / p for p in out.decode().split("\0") if p]
    return [p for p in paths if p.is_file() and p.suffix in {".py", ".md", ".sh", ".toml", ".json", ".gd", ".cfg", ""}]


def test_no_file_points_outside_the_repo() -> None:
    offenders = []
    for path in _tracked_text_files():
        if path == REFERENCE / "README.md" or path == Path(__file__).resolve():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        offenders += [f"{path.relative_to(REPO)}: {m.group(0)!r}" for m in OUTSIDE.finditer(text)]
    assert offenders == []


def test_the_checks_find_the_reference_data_in_the_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GODOT_REFERENCE_DIR", raising=False)
    for name in (COMPAT_MAP_NAME, ERROR_CODES_NAME):
        assert find_reference(REPO, name) == REFERENCE / name


def test_every_reference_file_is_described() -> None:
    readme = (REFERENCE / "README.md").read_text(encoding="utf-8")
    for path in REFERENCE.iterdir():
        if path.name != "README.md":
            assert f"`{path.name}`" in readme, path.name
    assert "NPGameDev" in readme and "MIT" in readme
