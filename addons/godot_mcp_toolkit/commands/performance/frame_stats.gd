@tool
extends RefCounted
## Summaries of per-frame series for perf.sample: min / median / p95 / max of each monitor, and
## the frames whose frame time spiked above a multiple of the median. Pure functions over arrays,
## so they are tested without frames. RUNTIME-REACHABLE: names no Editor* class.

## Spikes listed at most (the worst first); spike_count still counts them all.
const MAX_SPIKES := 20


## {min, median, p95, max} of numbers (p95 by nearest rank: the smallest value at or above 95 % of
## the frames). Empty input gives an empty Dictionary; non-numbers (a custom monitor returning
## text) are skipped.
static func summarize(values: Array) -> Dictionary:
	var sorted: Array = values.filter(func(value: Variant) -> bool: return value is int or value is float)
	if sorted.is_empty():
		return {}
	sorted.sort()
	var count := sorted.size()
	return {"min": sorted[0], "median": median_of(sorted), "p95": sorted[clampi(ceili(0.95 * count) - 1, 0, count - 1)],
		"max": sorted[count - 1]}


## The median of an already sorted, non-empty array (the mean of the middle two for an even count).
static func median_of(sorted: Array) -> float:
	var middle := sorted.size() / 2
	if sorted.size() % 2 == 1:
		return float(sorted[middle])
	return (float(sorted[middle - 1]) + float(sorted[middle])) / 2.0


## Frames whose time is above `factor` x the median: {"threshold_ms", "count", "frames"}, frames
## as {"frame": index, "frame_time_ms", <each other sampled monitor at that frame>}, worst first,
## at most MAX_SPIKES. `series` maps a monitor key to its per-frame values (same length).
static func spikes(frame_times: Array, factor: float, series: Dictionary) -> Dictionary:
	if frame_times.is_empty():
		return {"threshold_ms": 0.0, "count": 0, "frames": []}
	var sorted := frame_times.duplicate()
	sorted.sort()
	var threshold := median_of(sorted) * factor
	var found: Array[Dictionary] = []
	for index in frame_times.size():
		if float(frame_times[index]) > threshold:
			var entry := {"frame": index, "frame_time_ms": frame_times[index]}
			for key: String in series:
				entry[key] = series[key][index]
			found.append(entry)
	found.sort_custom(func(a: Dictionary, b: Dictionary) -> bool: return a["frame_time_ms"] > b["frame_time_ms"])
	return {"threshold_ms": threshold, "count": found.size(), "frames": found.slice(0, MAX_SPIKES)}
