"""Profile our bridge under the benchmark's load, to see which code a missed target points at.

    .venv/bin/python -m bench.profile [--calls 5000] [--mode sequential|concurrent|modern|spawn]
                                      [--rate 1000] [--top 25]

Needs py-spy in the venv (``.venv/bin/pip install py-spy``; not a project dependency).
py-spy attaches to the running bridge (``--pid``, non-blocking) once it is connected to the
instant simulator and warm, so only the calls are sampled (``--mode spawn`` instead launches
the bridge under py-spy and samples start-up to the first tools/list); the collapsed stacks are folded into self / inclusive sample counts per
function (file:function) and printed, hottest first. The raw profile stays under
bench/results/ for a flame graph (e.g. speedscope or inferno).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
import shutil
import signal
import sys
import tempfile
from collections import Counter
from pathlib import Path

from bench.procs import BridgeSpec, ProcessPool, Sim, StdioBridge, ours_spec
from bench.run import CHEAP_TOOL, RESULTS_DIR, timed_block

log = logging.getLogger("bench")
FRAME = re.compile(r"^(?P<func>.*?) \((?P<file>[^()]*?)(?::\d+)?\)$")
CHECKOUT = str(Path(__file__).resolve().parent.parent) + "/"


def _short(path: str) -> str:
    for marker in ("site-packages/", "lib/python3", CHECKOUT):
        if marker in path:
            return path.split(marker, 1)[1]
    return path


def fold(raw: Path) -> tuple[Counter[str], Counter[str], int]:
    """(self samples, inclusive samples, total samples) per ``file:function`` from py-spy raw output."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    total = 0
    for line in raw.read_text(encoding="utf-8", errors="replace").splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        total += count
        names = []
        for frame in stack.split(";"):
            m = FRAME.match(frame)
            names.append(f"{_short(m['file'])}:{m['func']}" if m else frame)
        if names:
            own[names[-1]] += count
        for name in set(names):
            inclusive[name] += count
    return own, inclusive, total


def _pyspy() -> str:
    return shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")


async def drive(mode: str, calls: int, rate: int, out: Path, extra: list[str]) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="godot-bench-profile-"))
    pool = ProcessPool()
    try:
        home, project = tmp, tmp / "project"
        project.mkdir()
        pool.add(await Sim(home, project).start())
        if mode == "spawn":
            # Start-up is profiled by launching the bridge under py-spy (its banner line on
            # stdout is skipped by the client as non-JSON).
            spec = BridgeSpec("ours", (_pyspy(), "record", "--format", "raw", "--rate", str(rate), *extra,
                                       "--output", str(out), "--", sys.executable, "-m", "godot_bridge"), modern=True)
            b = pool.add(await StdioBridge(spec, home, project, tmp / "bridge.stderr").start())
            await b.initialize()
            await b.tools()
            await pool.discard(b)
            return
        b = pool.add(await StdioBridge(ours_spec(), home, project, tmp / "bridge.stderr").start())
        await b.initialize()
        await b.tools()
        modern = mode == "modern"
        callers = 16 if mode == "concurrent" else 1
        await timed_block(lambda: b.call(CHEAP_TOOL, {}, modern=modern), 200, callers)  # warm, connected
        # Attach to the running bridge, so only the calls are sampled; --nonblocking does not pause it.
        spy = await asyncio.create_subprocess_exec(
            _pyspy(), "record", "--pid", str(b.pid), "--format", "raw", "--rate", str(rate), "--nonblocking",
            *extra, "--output", str(out), stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )
        assert spy.stdout is not None
        # py-spy prints "py-spy> Sampling process ..." once it is attached: only then start the load.
        banner = await asyncio.wait_for(spy.stdout.readline(), 30)
        log.info("%s", banner.decode(errors="replace").strip() or "py-spy printed no banner")
        try:
            samples, wall = await timed_block(lambda: b.call(CHEAP_TOOL, {}, modern=modern), calls, callers)
        finally:
            spy.send_signal(signal.SIGINT)
            _, err = await spy.communicate()
            if spy.returncode not in (0, None) and not out.exists():
                log.error("py-spy failed: %s", err.decode(errors="replace")[-2000:])
        samples.sort()
        log.info("%d calls in %.2f s (%.0f/s) p50 %.3f ms (under the profiler)", calls, wall, calls / wall,
                 samples[len(samples) // 2])
    finally:
        await pool.aclose()
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.profile", description=__doc__.split("\n\n")[0])
    p.add_argument("--calls", type=int, default=5000, help="tool calls (ignored in --mode spawn: one spawn)")
    p.add_argument("--mode", choices=("sequential", "concurrent", "modern", "spawn"), default="sequential")
    p.add_argument("--rate", type=int, default=1000, help="py-spy samples per second")
    p.add_argument("--top", type=int, default=25)
    p.add_argument("--gil", action="store_true", help="only samples holding the GIL (Python CPU, no syscalls)")
    p.add_argument("--threads", action="store_true", help="keep thread ids as the root frame of each stack")
    a = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s bench: %(message)s",
                        datefmt="%H:%M:%S")
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    out = RESULTS_DIR / f"profile-{a.mode}.txt"
    out.unlink(missing_ok=True)
    extra = [flag for flag, on in (("--gil", a.gil), ("--threads", a.threads)) if on]
    asyncio.run(drive(a.mode, a.calls, a.rate, out, extra))
    if not out.exists():
        print(f"py-spy wrote no profile to {out}", file=sys.stderr)
        return 1
    own, inclusive, total = fold(out)
    what = "one spawn to the first tools/list" if a.mode == "spawn" else f"{a.calls} calls"
    print(f"{total} samples ({a.mode}, {what}); raw stacks: {out}")
    for title, counter in (("self", own), ("inclusive", inclusive)):
        print(f"\nTop {a.top} by {title} time (% of on-CPU samples)")
        for name, count in counter.most_common(a.top):
            print(f"{100.0 * count / max(total, 1):6.1f}%  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
