"""What the simulator answers where the real toolkit's answer depends on more than the params: the
result examples with their placeholders filled in (a JSON value of the right type, a real PNG for a
screenshot), the game log in the toolkit's shape, and the test commands, which look at the project
folder for GUT and gdUnit4 as the toolkit does. tests/engine/e2e/test_sim_parity.py holds these to what the
real toolkit returns; what still differs is listed, with why, in tests/sim/differences.json.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from tests.support.pngs import make_png
from tests.sim.examples import load_examples

# tests/fixtures/toolkit/results/README.md: the placeholders an example may hold, as a value of that
# type. A string is never empty: the toolkit's strings there (an error, a hint, a path) never are.
PLACEHOLDERS: dict[str, Any] = {"<any>": None, "<string>": "(simulated)", "<number>": 0, "<bool>": False}
SCREENSHOT_SIDE = 64  # the size of the PNG a screenshot example stands for
FRAMEWORK_DIRS = {"gut": "addons/gut", "gdunit4": "addons/gdUnit4"}
LOG_NONCE = "5157ab1e"  # the toolkit's envelope nonce is random; any 8 hex will do


def materialize(value: Any) -> Any:
    """An example's result with every placeholder replaced by a value of its type, and a screenshot's
    image_base64 by a real PNG (width, height and bytes to match)."""
    if isinstance(value, dict):
        filled = {key: materialize(item) for key, item in value.items()}
        if value.get("image_base64") == "<string>":
            png = make_png(SCREENSHOT_SIDE, SCREENSHOT_SIDE)
            filled.update(image_base64=base64.b64encode(png).decode(), width=SCREENSHOT_SIDE,
                          height=SCREENSHOT_SIDE, bytes=len(png), returned=f"{SCREENSHOT_SIDE}x{SCREENSHOT_SIDE}")
        return filled
    if isinstance(value, list):
        return [materialize(item) for item in value]
    if value == "<array>":
        return []
    if value == "<object>":
        return {}
    return PLACEHOLDERS.get(value, value) if isinstance(value, str) else value


def log_reply(lines: list[Any], params: dict[str, Any], source: str) -> dict[str, Any]:
    """debugger.get_log as logs/log_query.gd answers it. ``lines`` are the captured lines, oldest
    first: a string (an info line) or an entry dict (level, message, source)."""
    entries = [_entry(index, line) for index, line in enumerate(lines, 1)]
    since = params.get("since_id")
    if isinstance(since, int | float):
        entries = [e for e in entries if e["id"] > since]
    limit = params.get("limit", 200)
    limit = int(limit) if isinstance(limit, int | float) and limit > 0 else len(entries)
    picked = entries[:limit] if since is not None else entries[-limit:] if limit else []
    body = "\n".join(f"#{e['id']} [{e['level']}] {e['message']}" for e in picked)
    kind = "game_log"
    reply = {
        "success": True, "source": source, "entries": picked, "returned": len(picked),
        "total_entries": len(entries), "has_more": len(picked) < len(entries),
        "last_id": picked[-1]["id"] if picked else int(since or 0), "latest_id": len(lines),
        "output": f'<untrusted-{LOG_NONCE} kind="{kind}" source="{source}">\n{body}\n</untrusted-{LOG_NONCE}>',
    }
    # No hint: logs/log_query.gd adds one only to a page one answer's size stopped, and the
    # simulator's few short lines never fill one.
    return reply


def _entry(index: int, line: Any) -> dict[str, Any]:
    if isinstance(line, dict):
        return {"id": index, "level": "info", **line}
    return {"id": index, "level": "info", "message": str(line)}


def frameworks(project: str) -> list[str]:
    """The test frameworks installed in the project folder (testing/test_frameworks.gd's rule)."""
    return [name for name, folder in FRAMEWORK_DIRS.items() if (Path(project) / folder).is_dir()]


def test_list(project: str) -> dict[str, Any]:
    """test.list: the recorded answer for a project with a framework, or none, as the folder says."""
    installed = bool(frameworks(project))
    for example in load_examples().get("test.list", []):
        if bool(example["result"].get("frameworks")) == installed:
            return materialize(example["result"])
    raise LookupError("tests/fixtures/toolkit/results/testing.json has no test.list example for this project")


def test_run_refusal(project: str) -> dict[str, Any] | None:
    """test.run's recorded refusal when no framework is installed; None when one is (the examples answer)."""
    if frameworks(project):
        return None
    for example in load_examples().get("test.run", []):
        if example["result"].get("success") is False:
            return materialize(example["result"])
    raise LookupError("tests/fixtures/toolkit/results/testing.json has no test.run refusal example")
