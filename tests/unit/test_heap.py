"""The collector settings a serving bridge runs with (godot_bridge/heap.py)."""

from __future__ import annotations

import gc

from godot_bridge.heap import YOUNG_THRESHOLD, tune_for_serving


def test_tuning_raises_the_young_threshold_and_freezes_start_up():
    before = gc.get_threshold()
    frozen = gc.get_freeze_count()
    try:
        survivor = [{"k": i} for i in range(100)]  # tracked now, so frozen below
        tune_for_serving()
        assert gc.get_threshold() == (YOUNG_THRESHOLD, before[1], before[2])
        assert gc.get_freeze_count() >= frozen + len(survivor)
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
