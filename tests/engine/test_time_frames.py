"""The game_time commands over real engine frames (tests/godot/frames_time.gd) in a real Godot.

runner.gd calls every test method inside one call, where no engine frame passes, so stepping,
holding against a game script and input delivered in a stepped frame are proven by a main-loop
script that awaits real frames. It prints one PASS/FAIL line per scenario; no engine -> skipped
with the reason, never passed.
"""

from __future__ import annotations

import re

import pytest

from tests.support.gd_engine import REPO, EngineUnavailable, Run, find_engine, load_errors, prepare, scratch_project

SCRIPT = "res://tests/godot/frames_time.gd"
# The scenario list lives in the script (its SCENARIOS constant); read here so each is its own case.
_SOURCE = (REPO / "tests" / "godot" / "frames_time.gd").read_text(encoding="utf-8")
_LIST = re.search(r"const SCENARIOS := \[(.*?)\]", _SOURCE, re.DOTALL)
SCENARIOS = tuple(re.findall(r'"(\w+)"', _LIST.group(1))) if _LIST else ()


@pytest.fixture(scope="module")
def frames_run() -> Run:
    try:
        engine = find_engine()
    except EngineUnavailable as missing:
        pytest.skip(str(missing))
    with scratch_project() as project:
        prepare(engine, project)
        return engine.run(project, SCRIPT, timeout=120.0)


def _verdicts(run: Run) -> dict[str, str]:
    return {m.group(2): m.group(1) for m in re.finditer(r"^(PASS|FAIL) (\w+)$", run.stdout, re.MULTILINE)}


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_scenario_passes_on_real_frames(frames_run: Run, scenario: str) -> None:
    verdicts = _verdicts(frames_run)
    detail = "\n".join(load_errors(frames_run)) + "\n" + frames_run.stderr[-3000:]
    assert scenario in verdicts, f"{scenario} never ran ({frames_run.engine} engine)\n{detail}"
    failures = [line for line in frames_run.stderr.splitlines() if line.startswith(f"FAIL {scenario}:")]
    assert verdicts[scenario] == "PASS", f"{scenario} failed:\n" + "\n".join(failures) + detail


def test_every_scenario_ran_and_the_script_agrees(frames_run: Run) -> None:
    assert len(SCENARIOS) >= 8, "SCENARIOS not found in frames_time.gd"
    assert set(_verdicts(frames_run)) == set(SCENARIOS)
    assert frames_run.returncode == 0, frames_run.stdout[-2000:] + frames_run.stderr[-2000:]
