@tool
extends RefCounted
## The engine's Performance monitors under stable names whose suffix carries the unit (_ms,
## _bytes; a bare name is a count or, for fps, frames per second). Each entry names the
## Performance constant as a string and is looked up through ClassDB, so a monitor a Godot
## version lacks (the pipeline counters are 4.4+) is simply absent there instead of a parse error
## on 4.2. Custom monitors the game registers (Performance.add_custom_monitor) are read as
## "custom:<id>". RUNTIME-REACHABLE: nothing here may name an Editor* class.

const CUSTOM_PREFIX := "custom:"

## key -> [Performance constant name, kind]. Kinds: "ms" (seconds scaled to milliseconds),
## "count" and "bytes" (whole numbers), "rate" (a float as the engine gives it).
const TABLE := {
	"fps": ["TIME_FPS", "rate"],
	"process_time_ms": ["TIME_PROCESS", "ms"],
	"physics_time_ms": ["TIME_PHYSICS_PROCESS", "ms"],
	"navigation_time_ms": ["TIME_NAVIGATION_PROCESS", "ms"],
	"memory_static_bytes": ["MEMORY_STATIC", "bytes"],
	"memory_static_max_bytes": ["MEMORY_STATIC_MAX", "bytes"],
	"message_buffer_max_bytes": ["MEMORY_MESSAGE_BUFFER_MAX", "bytes"],
	"objects": ["OBJECT_COUNT", "count"],
	"resources": ["OBJECT_RESOURCE_COUNT", "count"],
	"nodes": ["OBJECT_NODE_COUNT", "count"],
	"orphan_nodes": ["OBJECT_ORPHAN_NODE_COUNT", "count"],
	"render_objects": ["RENDER_TOTAL_OBJECTS_IN_FRAME", "count"],
	"render_primitives": ["RENDER_TOTAL_PRIMITIVES_IN_FRAME", "count"],
	"draw_calls": ["RENDER_TOTAL_DRAW_CALLS_IN_FRAME", "count"],
	"video_memory_bytes": ["RENDER_VIDEO_MEM_USED", "bytes"],
	"texture_memory_bytes": ["RENDER_TEXTURE_MEM_USED", "bytes"],
	"buffer_memory_bytes": ["RENDER_BUFFER_MEM_USED", "bytes"],
	"physics_2d_active_objects": ["PHYSICS_2D_ACTIVE_OBJECTS", "count"],
	"physics_2d_collision_pairs": ["PHYSICS_2D_COLLISION_PAIRS", "count"],
	"physics_2d_islands": ["PHYSICS_2D_ISLAND_COUNT", "count"],
	"physics_3d_active_objects": ["PHYSICS_3D_ACTIVE_OBJECTS", "count"],
	"physics_3d_collision_pairs": ["PHYSICS_3D_COLLISION_PAIRS", "count"],
	"physics_3d_islands": ["PHYSICS_3D_ISLAND_COUNT", "count"],
	"audio_latency_ms": ["AUDIO_OUTPUT_LATENCY", "ms"],
	# Godot 4.4+: shader pipelines compiled during the frame (a classic stutter cause).
	"pipeline_compilations_canvas": ["PIPELINE_COMPILATIONS_CANVAS", "count"],
	"pipeline_compilations_mesh": ["PIPELINE_COMPILATIONS_MESH", "count"],
	"pipeline_compilations_surface": ["PIPELINE_COMPILATIONS_SURFACE", "count"],
	"pipeline_compilations_draw": ["PIPELINE_COMPILATIONS_DRAW", "count"],
	"pipeline_compilations_specialization": ["PIPELINE_COMPILATIONS_SPECIALIZATION", "count"],
}

## What perf.sample reads per frame when the caller names no monitors.
const SAMPLE_DEFAULT: Array[String] = ["process_time_ms", "physics_time_ms", "draw_calls", "render_objects",
	"nodes", "objects", "orphan_nodes"]


## The keys this engine has, in table order.
static func available() -> Array[String]:
	var keys: Array[String] = []
	for key: String in TABLE:
		if ClassDB.class_has_integer_constant("Performance", TABLE[key][0]):
			keys.append(key)
	return keys


## True for a table key this engine has, or a custom monitor the game registered.
static func exists(key: String) -> bool:
	if key.begins_with(CUSTOM_PREFIX):
		return Performance.has_custom_monitor(StringName(key.trim_prefix(CUSTOM_PREFIX)))
	return TABLE.has(key) and ClassDB.class_has_integer_constant("Performance", TABLE[key][0])


## The monitor's current value in the unit its key names; call exists() first.
static func read(key: String) -> Variant:
	if key.begins_with(CUSTOM_PREFIX):
		return _number(Performance.get_custom_monitor(StringName(key.trim_prefix(CUSTOM_PREFIX))))
	var entry: Array = TABLE[key]
	var raw := Performance.get_monitor(ClassDB.class_get_integer_constant("Performance", entry[0]) as Performance.Monitor)
	match entry[1]:
		"ms":
			return raw * 1000.0
		"count", "bytes":
			return int(raw)
	return raw


## Every available monitor now: {key: value}.
static func snapshot() -> Dictionary:
	var values := {}
	for key: String in available():
		values[key] = read(key)
	return values


## The game's own custom monitors now, by id.
static func custom() -> Dictionary:
	var values := {}
	for id: StringName in Performance.get_custom_monitor_names():
		values[str(id)] = _number(Performance.get_custom_monitor(id))
	return values


## A custom monitor's callable may return anything; only numbers are statistics, the rest is
## shown as text so the reply stays JSON.
static func _number(value: Variant) -> Variant:
	if value is int or value is float:
		return value
	if value is bool:
		return int(value)
	return str(value)
