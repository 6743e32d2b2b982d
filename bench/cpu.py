"""CPU time a bridge spends, instead of the wall time it takes.

On a shared, overloaded machine wall-clock latencies measure the neighbours more than
the bridge; the CPU seconds the bridge process itself burns (utime + stime from
/proc/<pid>/stat, Linux only) move far less. Compares variants of our bridge, each a
checkout (``NAME=ROOT``, optional ``,ENV=VALUE`` pairs), or ``reference`` (the npm bridge,
installed as for ``--compare-reference``), interleaved round by round:

    .venv/bin/python -m bench.cpu new=. base=/tmp/base-checkout nouv=.,GODOT_BRIDGE_UVLOOP=0 reference

Per variant and round: CPU from spawn to the first ``tools/list`` answer (both eras),
CPU per ``tools/call`` (sequential, 16 callers) against an instant simulator, and CPU
per call returning a ~1 MiB nested tree. Medians over the rounds are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.procs import BridgeSpec, ProcessPool, Sim, StdioBridge, compile_bytecode, reference_spec
from bench.run import CHEAP_TOOL, TREE_METHOD, TREE_TOOL, tree_reply_of

REFERENCE_DIR = Path(__file__).resolve().parent / ".reference"
TREE_BYTES = 900 * 1024
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_ms(pid: int) -> float:
    """utime + stime of ``pid`` in ms (fields 14 and 15 of /proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000.0 / TICKS


def variant(text: str) -> BridgeSpec:
    if text == "reference":  # the npm reference bridge (bench/.reference), for scale
        return reference_spec(REFERENCE_DIR)
    name, _, rest = text.partition("=")
    root, *pairs = rest.split(",")
    compile_bytecode(Path(root).resolve())
    env = {"PYTHONPATH": str(Path(root).resolve())}
    env.update(dict(p.split("=", 1) for p in pairs))
    # -P: the bridge imports from ROOT in PYTHONPATH, not from bench's working directory.
    return BridgeSpec(name, (sys.executable, "-P", "-m", "godot_bridge"), modern=True, env=env)


async def one_round(spec: BridgeSpec, tmp: Path, calls: int, tree_calls: int, pool: ProcessPool) -> dict[str, float]:
    out: dict[str, float] = {}
    home = Path(tempfile.mkdtemp(dir=tmp))
    project = home / "project"
    project.mkdir()
    sim = pool.add(await Sim(home, project).start())
    for era in ("handshake", "modern") if spec.modern else ("handshake",):
        b = pool.add(await StdioBridge(spec, home, project, home / f"{spec.name}-{era}.stderr").start())
        if era == "handshake":
            await b.initialize()
        await b.tools(modern=era == "modern")
        out[f"spawn_cpu_ms_{era}"] = cpu_ms(b.pid)
        if era == "modern":
            await pool.discard(b)
            continue
        await b.call(CHEAP_TOOL, {})
        for _ in range(20):
            await b.call(CHEAP_TOOL, {})
        before = cpu_ms(b.pid)
        for _ in range(calls):
            await b.call(CHEAP_TOOL, {})
        out["call_cpu_us_seq"] = (cpu_ms(b.pid) - before) * 1000 / calls
        before = cpu_ms(b.pid)
        per = calls // 16
        await asyncio.gather(*(_n_calls(b, per) for _ in range(16)))
        out["call_cpu_us_16"] = (cpu_ms(b.pid) - before) * 1000 / (per * 16)
        await pool.discard(b)
    await pool.discard(sim)
    script = home / "script.json"
    # ~0.9 MiB: the simulator refuses a reply frame above its 1020 KiB buffer (RESPONSE_TOO_LARGE).
    script.write_text(json.dumps({TREE_METHOD: {"steps": [{"result": tree_reply_of(TREE_BYTES)}], "times": None}}))
    sim = pool.add(await Sim(home, project, instant=False, script=script).start())
    b = pool.add(await StdioBridge(spec, home, project, home / f"{spec.name}-tree.stderr").start())
    await b.initialize()
    await b.call(TREE_TOOL, {})
    before = cpu_ms(b.pid)
    for _ in range(tree_calls):
        await b.call(TREE_TOOL, {})
    out["tree_1mib_cpu_ms"] = (cpu_ms(b.pid) - before) / tree_calls
    await pool.discard(b)
    await pool.discard(sim)
    return out


async def _n_calls(b: StdioBridge, n: int) -> None:
    for _ in range(n):
        await b.call(CHEAP_TOOL, {})


async def amain(args: argparse.Namespace) -> int:
    specs = [variant(v) for v in args.variants]
    tmp = Path(tempfile.mkdtemp(prefix="godot-bench-cpu-"))
    samples: dict[str, dict[str, list[float]]] = {s.name: {} for s in specs}
    pool = ProcessPool()
    try:
        for k in range(args.rounds):
            order = specs[k % len(specs):] + specs[: k % len(specs)]
            for spec in order:
                got = await one_round(spec, tmp, args.calls, args.tree_calls, pool)
                for key, value in got.items():
                    samples[spec.name].setdefault(key, []).append(value)
                print(f"round {k + 1} {spec.name}: " + ", ".join(f"{k_}={v:.1f}" for k_, v in got.items()),
                      file=sys.stderr, flush=True)
    finally:
        await pool.aclose()
    result = {name: {key: round(statistics.median(v), 2) for key, v in keys.items()} for name, keys in samples.items()}
    print(json.dumps({"rounds": args.rounds, "calls": args.calls, "tree_calls": args.tree_calls,
                      "median": result, "samples": samples}, indent=1))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.cpu", description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="+", help="NAME=ROOT[,ENV=VALUE...] or 'reference'")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--calls", type=int, default=800)
    parser.add_argument("--tree-calls", type=int, default=10)
    return asyncio.run(amain(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
