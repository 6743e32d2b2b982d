"""The GDScript side in a real Godot engine (tests/support/gd_engine.py: a native godot, else Godot 4.6 web).

One engine run executes every tests/godot/test_*.gd (runner.gd); each file is then one pytest case
that fails naming its failing methods, or is skipped with the reason the file gave for this engine.
A second run compiles every .gd under addons/ except the editor glue (scripts/gd_common.py).
No engine -> every case here is skipped with the reason, never passed.
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.support.gd_engine import REPO, EngineUnavailable, FileResult, Run, find_engine, load_errors, parse_runner
from tests.support.gd_engine import prepare, scratch_project

sys.path.insert(0, str(REPO / "scripts"))
from gd_common import EDITOR_GLUE  # noqa: E402

TEST_FILES = sorted(path.name for path in (REPO / "tests" / "godot").glob("test_*.gd"))
# Generous: the whole suite takes ~3 s on the web engine; a hang must still end.
RUN_TIMEOUT_S = 180.0
GLUE_MAX_LINES = 300


@pytest.fixture(scope="module")
def engine_runs() -> dict[str, Run | str]:
    """Both engine runs, once per module; the reason string when no engine is available."""
    try:
        engine = find_engine()
    except EngineUnavailable as missing:
        return {"unavailable": str(missing)}
    with scratch_project() as project:
        prepare(engine, project)
        skip_args = ["--skip", *("res://" + path for path in EDITOR_GLUE)]
        # The web engine only reads the project it is served, so two can run side by side, each on a
        # core; a native Godot writes the project's .godot/ folder, so those two take turns.
        with ThreadPoolExecutor(max_workers=2 if engine.kind == "web" else 1) as pool:
            suite = pool.submit(engine.run, project, "res://tests/godot/runner.gd", timeout=RUN_TIMEOUT_S)
            compiled = pool.submit(engine.run, project, "res://tests/godot/compile_check.gd",
                                   ["res://addons", *skip_args], timeout=RUN_TIMEOUT_S)
            return {"suite": suite.result(), "compile": compiled.result()}


def _run_or_skip(runs: dict[str, Run | str], key: str) -> Run:
    if "unavailable" in runs:
        pytest.skip(str(runs["unavailable"]))
    run = runs[key]
    assert isinstance(run, Run)
    return run


def _tail(run: Run) -> str:
    return f"[{run.engine} engine, exit {run.returncode}]\n--- stdout ---\n{run.stdout[-3000:]}\n" \
           f"--- stderr ---\n{run.stderr[-3000:]}"


@pytest.mark.parametrize("file_name", TEST_FILES)
def test_gdscript_file(engine_runs: dict[str, Run | str], file_name: str) -> None:
    run = _run_or_skip(engine_runs, "suite")
    result = parse_runner(run).get(file_name, FileResult(file_name))
    if result.status == "skipped":
        pytest.skip(f"{file_name} on the {run.engine} engine: {result.reason}")
    assert result.status != "missing", f"{file_name} never ran (the engine stopped early)\n{_tail(run)}"
    assert result.status != "loadfail", f"{file_name} does not compile:\n" + "\n".join(load_errors(run))
    failing = [f"{file_name}::{method}: " + "\n    ".join(messages or ["(no message)"])
               for method, messages in sorted(result.failed.items())]
    assert not failing, f"{len(failing)} failing method(s) on the {run.engine} engine:\n" + "\n".join(failing)
    assert result.passed, f"{file_name} has no test_* methods"


def test_runner_exit_status_agrees(engine_runs: dict[str, Run | str]) -> None:
    """The runner's own verdict: catches a failure no per-file case saw (e.g. an engine crash)."""
    run = _run_or_skip(engine_runs, "suite")
    results = parse_runner(run)
    problems = any(r.status in {"loadfail", "missing"} or r.failed for r in results.values())
    if run.returncode != 0 and not problems:
        pytest.fail(f"runner.gd failed but reported no failing file\n{_tail(run)}")
    assert set(results) == set(TEST_FILES), f"files not reported: {sorted(set(TEST_FILES) - set(results))}"


def test_every_toolkit_script_compiles(engine_runs: dict[str, Run | str]) -> None:
    run = _run_or_skip(engine_runs, "compile")
    lines = run.stdout.splitlines()
    failed = [line.split(" ", 2)[2] for line in lines if line.startswith("COMPILE FAIL ")]
    compiled = [line for line in lines if line.startswith("COMPILE ok ")]
    assert not failed, f"{len(failed)} script(s) do not compile on the {run.engine} engine: {failed}\n" + \
        "\n".join(load_errors(run))
    assert compiled and any(line.startswith("COMPILE done") for line in lines), _tail(run)
    assert run.returncode == 0, _tail(run)


def test_editor_glue_is_listed_and_small() -> None:
    """The files the compile check skips exist and stay thin."""
    assert EDITOR_GLUE, "gd_common.EDITOR_GLUE is empty"
    for rel in EDITOR_GLUE:
        path = REPO / rel
        assert path.is_file(), f"editor glue {rel} does not exist"
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines <= GLUE_MAX_LINES, f"editor glue {rel} has {lines} lines; move logic out of it"
