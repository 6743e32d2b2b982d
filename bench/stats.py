"""Summaries of timing samples: percentiles with linear interpolation, in milliseconds."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any


def percentile(sorted_values: Sequence[float], p: float) -> float:
    """The p-th percentile (0-100) of already sorted values, interpolating between ranks."""
    if not sorted_values:
        return math.nan
    if len(sorted_values) == 1:
        return float(sorted_values[0])
    rank = (len(sorted_values) - 1) * p / 100.0
    lo = math.floor(rank)
    hi = min(lo + 1, len(sorted_values) - 1)
    frac = rank - lo
    return float(sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * frac)


def summary(samples_ms: Sequence[float]) -> dict[str, Any]:
    """p50/p95/p99/min/max/mean of samples given in milliseconds."""
    values = sorted(samples_ms)
    if not values:
        return {"n": 0}
    return {
        "n": len(values),
        "p50": round(percentile(values, 50), 4),
        "p95": round(percentile(values, 95), 4),
        "p99": round(percentile(values, 99), 4),
        "min": round(values[0], 4),
        "max": round(values[-1], 4),
        "mean": round(sum(values) / len(values), 4),
    }


def median(values: Sequence[float]) -> float:
    return percentile(sorted(values), 50)


def ratio(ours: float | None, reference: float | None) -> float | None:
    if ours is None or reference is None or reference == 0 or math.isnan(ours) or math.isnan(reference):
        return None
    return round(ours / reference, 3)
