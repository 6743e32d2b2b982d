"""The installed package (not the checkout) finds its catalogue: what `pip install .` gives a user."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from godot_bridge.tools.catalogue import load_catalogue

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import json, godot_bridge
from godot_bridge.tools.catalogue import catalogue_dir, load_catalogue
cat = load_catalogue()
print(json.dumps({"module": godot_bridge.__file__, "dir": str(catalogue_dir()), "tools": len(cat.tools),
                  "meta": len(cat.meta_tools())}))
"""


def test_installed_wheel_ships_the_catalogue(tmp_path: Path):
    # -I: ignore PYTHONPATH and the working directory, so only the installed copy can be imported.
    out = subprocess.run([sys.executable, "-I", "-c", PROBE], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    if "No module named 'godot_bridge'" in out.stderr:
        pytest.skip("godot-bridge is not installed in this interpreter (scripts/test.sh installs it)")
    assert out.returncode == 0, out.stderr
    info = json.loads(out.stdout)
    if Path(info["module"]).resolve().is_relative_to(ROOT / "godot_bridge"):
        pytest.skip("installed in editable mode: the checkout's catalogue is used")
    assert not Path(info["dir"]).resolve().is_relative_to(ROOT / "catalogue")
    assert "site-packages" in info["dir"]
    assert info["tools"] == len(load_catalogue(ROOT / "catalogue").tools), "the checkout's tools, every one"
    script = Path(sys.executable).with_name("godot-bridge")
    if script.exists():
        counted = subprocess.run([str(script), "--tools-count"], cwd=tmp_path, capture_output=True, text=True,
                                 timeout=60)
        # Total in the reference's sense: every tool but the meta ones.
        assert counted.returncode == 0 and f"Total tools:  {info['tools'] - info['meta']}\n" in counted.stdout
