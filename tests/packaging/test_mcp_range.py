"""The MCP SDK is a version range, and CI tests both of its ends.

pyproject.toml declares ``mcp`` and ``mcp-types`` (the bridge imports both) as one range;
constraints/mcp-lowest.txt pins its lower bound for scripts/test_mcp_lowest.sh, which runs the
tests listed in tests/mcp_lowest_tests.txt. These checks keep the three saying the same thing, and
keep the list honest: every test module that imports the SDK is run at the low end or left out
with a reason.
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
SDK = ("mcp", "mcp-types")
LIST = ROOT / "tests" / "mcp_lowest_tests.txt"
LEFT_OUT = "# left out"


def _declared() -> dict[str, Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = [Requirement(spec) for spec in project["dependencies"]]
    return {r.name: r for r in requirements if r.name in SDK}


def _lower_bound(requirement: Requirement) -> Version:
    (low,) = [Version(s.version) for s in requirement.specifier if s.operator == ">="]
    return low


def _pins() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in (ROOT / "constraints" / "mcp-lowest.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, version = line.split("==")
            pins[name.strip()] = version.strip()
    return pins


def _listed() -> tuple[list[str], dict[str, str]]:
    """The entries run at the low end, and the modules left out with their reasons."""
    run: list[str] = []
    left_out: dict[str, str] = {}
    in_left_out = False
    for line in LIST.read_text(encoding="utf-8").splitlines():
        if line.startswith(LEFT_OUT):
            in_left_out = True
        elif in_left_out and (found := re.match(r"#\s+(tests/\S+)\s*(.*)", line)):
            left_out[found.group(1)] = found.group(2).strip()
        elif entry := line.split("#", 1)[0].strip():
            assert not in_left_out, f"{entry}: an entry to run after the left-out part"
            run.append(entry)
    return run, left_out


def _imports_the_sdk(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in ("mcp", "mcp_types"):
            return True
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] in ("mcp", "mcp_types") for a in node.names):
            return True
    return False


def test_mcp_and_mcp_types_are_one_range_below_the_next_major() -> None:
    declared = _declared()
    assert set(declared) == set(SDK), "pyproject.toml declares both: the bridge imports mcp and mcp_types"
    assert declared["mcp"].specifier == declared["mcp-types"].specifier, "mcp pins its own mcp-types release"
    for requirement in declared.values():
        uppers = [Version(s.version) for s in requirement.specifier if s.operator == "<"]
        assert uppers == [Version(f"{_lower_bound(requirement).major + 1}")], \
            f"{requirement}: a range from a release up to, not including, the next major"


def test_the_lowest_pin_is_the_ranges_lower_bound() -> None:
    declared, pins = _declared(), _pins()
    assert set(pins) == set(SDK), "constraints/mcp-lowest.txt pins mcp and mcp-types, nothing else"
    for name, requirement in declared.items():
        assert Version(pins[name]) == _lower_bound(requirement), \
            f"constraints/mcp-lowest.txt pins {name}=={pins[name]}, the range in pyproject.toml is {requirement}"


def test_every_listed_test_exists() -> None:
    run, left_out = _listed()
    assert run and left_out
    for entry in run:
        path, _, name = entry.partition("::")
        assert (ROOT / path).is_file(), f"tests/mcp_lowest_tests.txt lists {path}, which does not exist"
        if name:
            assert re.search(rf"^(async )?def {re.escape(name)}\(", (ROOT / path).read_text(encoding="utf-8"),
                             re.MULTILINE), f"{entry}: no such test"
    for path, reason in left_out.items():
        assert (ROOT / path).is_file() and reason, f"{path}: left out needs an existing module and a reason"


def test_every_module_importing_the_sdk_runs_at_the_low_end_or_says_why_not() -> None:
    run, left_out = _listed()
    covered = {entry.partition("::")[0] for entry in run} | set(left_out)
    modules = sorted(p for folder in ("unit", "bridge") for p in (ROOT / "tests" / folder).rglob("test_*.py"))
    missing = [str(p.relative_to(ROOT)) for p in modules
               if _imports_the_sdk(p) and str(p.relative_to(ROOT)) not in covered]
    assert not missing, f"import the SDK, neither listed in tests/mcp_lowest_tests.txt nor left out there: {missing}"
