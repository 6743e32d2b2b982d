@tool
extends RefCounted
## Synthesises a mono 16-bit PCM tone and encodes it as a RIFF/WAVE file, byte by byte, so the
## result is a plain .wav any engine (and Godot's importer) reads. Pure; runtime-safe.

const SAMPLE_RATE := 44100
const BITS_PER_SAMPLE := 16
const CHANNELS := 1
const WAVEFORMS := ["sine", "square", "triangle", "sawtooth", "noise"]
## A fixed seed keeps "noise" reproducible: the same request writes the same bytes.
const NOISE_SEED := 1234567


## `tone`: waveform, frequency, end_frequency, duration, volume, decay, fade_in, fade_out (checked).
static func synthesize(tone: Dictionary) -> PackedInt32Array:
	var count := int(round(float(tone["duration"]) * SAMPLE_RATE))
	var samples := PackedInt32Array()
	samples.resize(count)
	var rng := RandomNumberGenerator.new()
	rng.seed = NOISE_SEED
	var phase := 0.0
	# The last sample's time, so a fade-out reaches exact silence on it.
	var last := float(count - 1) / SAMPLE_RATE
	for i: int in count:
		var t := float(i) / SAMPLE_RATE
		var progress := float(i) / maxf(count - 1, 1.0)
		var frequency: float = lerpf(tone["frequency"], tone["end_frequency"], progress)
		var value := _wave(tone["waveform"], phase, rng)
		# Accumulated phase (not f*t) so a sweep glides without clicks.
		phase = fmod(phase + frequency / SAMPLE_RATE, 1.0)
		var amplitude: float = tone["volume"] * _envelope(t, last, tone)
		samples[i] = int(round(clampf(value * amplitude, -1.0, 1.0) * 32767.0))
	return samples


static func _wave(waveform: String, phase: float, rng: RandomNumberGenerator) -> float:
	match waveform:
		"square":
			return 1.0 if phase < 0.5 else -1.0
		"triangle":
			return 4.0 * phase - 1.0 if phase < 0.5 else 3.0 - 4.0 * phase
		"sawtooth":
			return 2.0 * phase - 1.0
		"noise":
			return rng.randf_range(-1.0, 1.0)
	return sin(TAU * phase)


## Fade in, fade out and exponential decay (per second), multiplied.
static func _envelope(t: float, end: float, tone: Dictionary) -> float:
	var gain := 1.0
	var fade_in: float = tone["fade_in"]
	var fade_out: float = tone["fade_out"]
	if fade_in > 0.0 and t < fade_in:
		gain *= t / fade_in
	if fade_out > 0.0 and t > end - fade_out:
		gain *= maxf(end - t, 0.0) / fade_out
	return gain * exp(-float(tone["decay"]) * t)


## The whole file: 44-byte header (RIFF, fmt chunk for PCM, data chunk) then little-endian samples.
static func encode(samples: PackedInt32Array) -> PackedByteArray:
	var block_align := CHANNELS * BITS_PER_SAMPLE / 8
	var data_size := samples.size() * block_align
	var out := StreamPeerBuffer.new()
	out.big_endian = false
	out.put_data("RIFF".to_ascii_buffer())
	out.put_u32(36 + data_size)
	out.put_data("WAVE".to_ascii_buffer())
	out.put_data("fmt ".to_ascii_buffer())
	out.put_u32(16)
	out.put_u16(1)
	out.put_u16(CHANNELS)
	out.put_u32(SAMPLE_RATE)
	out.put_u32(SAMPLE_RATE * block_align)
	out.put_u16(block_align)
	out.put_u16(BITS_PER_SAMPLE)
	out.put_data("data".to_ascii_buffer())
	out.put_u32(data_size)
	for sample: int in samples:
		out.put_16(sample)
	return out.data_array
