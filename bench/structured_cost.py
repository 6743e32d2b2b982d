"""What the second copy of a large result costs the client.

A ~1 MiB nested result (``bench.run.tree_reply_of``) through three bridges on one simulator,
interleaved block by block: ours as shipped (text + ``structuredContent``), ours with the
structured copy taken out (``bench.text_only_bridge``, an experiment) and the reference
(text only). Prints the round-trip p50 of each, its ratio to the reference, the answer line's
size and what ``json.loads`` of that line costs the client (median of 20):

    .venv/bin/python -m bench.structured_cost [--calls 120] [--blocks 6]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.procs import BridgeSpec, ProcessPool, Sim, StdioBridge, ours_spec, reference_spec
from bench.run import PAYLOAD_BUFFER_KB, TREE_METHOD, TREE_TOOL, rotate, split, tree_reply_of

REFERENCE_DIR = Path(__file__).resolve().parent / ".reference"


def text_only_spec() -> BridgeSpec:  # bytecode: compiled by ours_spec(), which runs first
    return BridgeSpec("ours-text-only", (sys.executable, "-m", "bench.text_only_bridge"), modern=True)


def parse_ms(line: bytes) -> float:
    times = []
    for _ in range(20):
        start = time.perf_counter()
        json.loads(line)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


async def amain(calls: int, blocks: int) -> int:
    pool = ProcessPool()
    tmp = Path(tempfile.mkdtemp(prefix="godot-bench-structured-"))
    project = tmp / "project"
    project.mkdir()
    script = tmp / "script.json"
    script.write_text(json.dumps({TREE_METHOD: {"steps": [{"result": tree_reply_of(1024 * 1024)}], "times": None}}))
    try:
        pool.add(await Sim(tmp, project, instant=False, script=script, ws_buffer_kb=PAYLOAD_BUFFER_KB).start())
        specs = [ours_spec(), text_only_spec(), reference_spec(REFERENCE_DIR)]
        bridges: dict[str, StdioBridge] = {}
        lines: dict[str, bytes] = {}
        for spec in specs:
            b = pool.add(await StdioBridge(spec, tmp, project, tmp / f"{spec.name}.stderr").start())
            await b.initialize()
            for _ in range(5):
                await b.call(TREE_TOOL, {})
            resp, _ = await b.request("tools/call", {"name": TREE_TOOL, "arguments": {}})
            lines[spec.name] = json.dumps(resp, separators=(",", ":")).encode()
            bridges[spec.name] = b
        samples: dict[str, list[float]] = {name: [] for name in bridges}
        for k, per_block in enumerate(split(calls, blocks)):
            for name, b in rotate(list(bridges.items()), k):
                for _ in range(per_block):
                    start = time.perf_counter()
                    await b.call(TREE_TOOL, {})
                    samples[name].append((time.perf_counter() - start) * 1000)
    finally:
        await pool.aclose()
    ref = statistics.median(samples["reference"])
    out: dict[str, Any] = {}
    print(f"{'bridge':<16} {'p50 ms':>8} {'ours/ref':>9} {'line bytes':>11} {'client parse ms':>16}")
    for name, values in samples.items():
        p50 = statistics.median(values)
        out[name] = {"p50_ms": round(p50, 2), "ratio": round(p50 / ref, 3), "line_bytes": len(lines[name]),
                     "client_parse_ms": round(parse_ms(lines[name]), 2)}
        row = out[name]
        print(f"{name:<16} {row['p50_ms']:>8.2f} {row['ratio']:>9.3f} {row['line_bytes']:>11,} {row['client_parse_ms']:>16.2f}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.structured_cost", description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=120)
    parser.add_argument("--blocks", type=int, default=6)
    args = parser.parse_args()
    return asyncio.run(amain(args.calls, args.blocks))


if __name__ == "__main__":
    sys.exit(main())
