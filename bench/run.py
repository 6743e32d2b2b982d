"""The godot-bridge benchmark: what one tool call costs, what the tool surface costs, how both scale.

    .venv/bin/python -m bench [--quick] [--compare-reference] [--calls N] [--spawns N] ...

Run from the repository root. It starts the toolkit simulator (``tests.sim``) in instant
mode, so what is timed is the bridge, and drives the bridge over stdio with raw JSON-RPC
lines, as an MCP client does. Phases:

* spawn   -- process start to the first ``tools/list`` answer (median of --spawns spawns);
* latency -- ``tools/call scene_get_tree`` round trips, sequential and with --concurrency
             callers, both protocol eras, next to a direct WebSocket round trip to the
             simulator (the simulator's own cost, so the bridge's overhead can be read off);
* payload -- round trips for 1 KiB / 64 KiB / 512 KiB results, as text and as a screenshot;
* context -- bytes of the compact ``tools`` array: start-up, every group loaded, read-only;
* memory  -- VmRSS after start-up and every 1,000 calls up to --memory-calls.

With --compare-reference the reference bridge (npm @npgamedev/godot-mcp-server@1.0.2,
installed under bench/.reference/) runs against the same simulator, interleaved block by
block with ours so machine drift cancels, and each figure gets a ratio ours/reference.

Prints a table on stdout, progress on stderr, and writes JSON to bench/results/.
Targets are reported, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import datetime as dt
import json
import logging
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import report
from bench.procs import (
    BridgeError,
    BridgeSpec,
    DirectClient,
    ProcessPool,
    Sim,
    StdioBridge,
    node_version,
    ours_spec,
    reference_spec,
)
from bench.stats import median, summary
from godot_bridge.tools.answer_budget import text_size

log = logging.getLogger("bench")

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
RESULTS_DIR = BENCH_DIR / "results"
REFERENCE_DIR = BENCH_DIR / ".reference"

# The cheap call: an always-on, read-only editor tool whose empty arguments are valid.
CHEAP_TOOL, CHEAP_METHOD = "scene_get_tree", "scene.get_tree"
# Sized replies: the same tool as text, and a screenshot (image block) from the editor_advanced group.
IMAGE_TOOL, IMAGE_METHOD, IMAGE_GROUP = "editor_screenshot", "editor.screenshot", "editor_advanced"
PAYLOAD_SIZES = (1024, 64 * 1024, 512 * 1024, 1024 * 1024)
# The simulated editor's frame buffer (KiB): room for the largest payload plus its envelope.
PAYLOAD_BUFFER_KB = 4096
# A nested, scene-tree-like result (dicts of dicts, many small keys): what sorting and encoding cost.
TREE_TOOL, TREE_METHOD = "project_get_settings", "project.get_settings"
PHASES = ("spawn", "latency", "payload", "context", "memory")
HANDSHAKE, MODERN = "handshake", "modern"
WARMUP_CALLS = 100
MEMORY_BLOCK = 1000


@dataclass
class Config:
    calls: int = 1000
    concurrency: int = 16
    spawns: int = 10
    memory_calls: int = 10_000
    payload_calls: int = 200
    blocks: int = 10
    quick: bool = False
    compare: bool = False
    reference_dir: Path = REFERENCE_DIR
    phases: tuple[str, ...] = PHASES
    out: Path | None = None
    keep_temp: bool = False


def parse_args(argv: Sequence[str] | None) -> Config:
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--calls", type=int, help="tools/call round trips per bridge, era and mode (default 1000)")
    p.add_argument("--concurrency", type=int, default=16, help="concurrent callers in the concurrent mode (16)")
    p.add_argument("--spawns", type=int, help="spawns per bridge and era for start-up time (default 10)")
    p.add_argument("--memory-calls", type=int, help="calls before the last RSS reading (default 10000)")
    p.add_argument("--payload-calls", type=int, help="round trips per payload size and kind (default 200)")
    p.add_argument("--blocks", type=int, help="interleaving blocks per measurement (default 10)")
    p.add_argument("--quick", action="store_true", help="a smoke run: 100 calls, 3 spawns, 1000 memory calls")
    p.add_argument("--compare-reference", action="store_true",
                   help="also run the reference bridge (bench/.reference) and report ratios ours/reference")
    p.add_argument("--reference-dir", type=Path, default=REFERENCE_DIR, help="npm --prefix of the reference bridge")
    p.add_argument("--phases", default=",".join(PHASES), help=f"comma-separated subset of {','.join(PHASES)}")
    p.add_argument("--out", type=Path, help="JSON result file (default bench/results/bench-<UTC time>.json)")
    p.add_argument("--keep-temp", action="store_true", help="keep the temp dir (simulator and bridge stderr logs)")
    p.add_argument("-v", "--verbose", action="store_true")
    a = p.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if a.verbose else logging.INFO, stream=sys.stderr,
                        format="%(asctime)s bench: %(message)s", datefmt="%H:%M:%S")
    quick = a.quick
    phases = tuple(x.strip() for x in a.phases.split(",") if x.strip())
    unknown = [x for x in phases if x not in PHASES]
    if unknown:
        p.error(f"unknown phase(s): {', '.join(unknown)}")
    cfg = Config(
        calls=a.calls or (100 if quick else 1000),
        concurrency=a.concurrency,
        spawns=a.spawns or (3 if quick else 10),
        memory_calls=a.memory_calls or (1000 if quick else 10_000),
        payload_calls=a.payload_calls or (20 if quick else 200),
        blocks=a.blocks or (2 if quick else 10),
        quick=quick,
        compare=a.compare_reference,
        reference_dir=a.reference_dir,
        phases=phases,
        out=a.out,
        keep_temp=a.keep_temp,
    )
    for name in ("calls", "concurrency", "spawns", "memory_calls", "payload_calls", "blocks"):
        if getattr(cfg, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    return cfg


# -- helpers -----------------------------------------------------------------------


def rotate(items: Sequence[Any], k: int) -> list[Any]:
    """``items`` rotated by ``k``: each block starts with a different contender, so drift cancels."""
    if not items:
        return []
    k %= len(items)
    return list(items[k:]) + list(items[:k])


def split(total: int, parts: int) -> list[int]:
    base, extra = divmod(total, parts)
    return [base + (1 if i < extra else 0) for i in range(parts)]


async def timed_block(fn: Callable[[], Awaitable[Any]], calls: int, callers: int) -> tuple[list[float], float]:
    """Run ``calls`` calls of ``fn`` spread over ``callers`` concurrent loops; (latencies ms, wall s)."""
    samples: list[float] = []
    clock = time.perf_counter

    async def caller(n: int) -> None:
        for _ in range(n):
            t0 = clock()
            await fn()
            samples.append((clock() - t0) * 1000.0)

    started = clock()
    await asyncio.gather(*(caller(n) for n in split(calls, callers) if n))
    return samples, clock() - started


def compact_bytes(tools: list[dict[str, Any]]) -> int:
    """The tools array as a client receives it: compact JSON, UTF-8 (one definition: text_size)."""
    return text_size(tools)


def group_names() -> list[str]:
    data = json.loads((ROOT / "catalogue" / "groups.json").read_text(encoding="utf-8"))
    groups = data["groups"]
    return [g["name"] for g in groups] if isinstance(groups, list) else list(groups)


def machine_info(specs: Sequence[BridgeSpec]) -> dict[str, Any]:
    model = None
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    mem_total = None
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem_total = int(line.split()[1])
    commit = None
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                                timeout=10).stdout.strip() or None
    info: dict[str, Any] = {
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "nproc": os.cpu_count(),
        "usable_cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "cpu_model": model,
        "mem_total_kib": mem_total,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "git_commit": commit,
    }
    for spec in specs:
        if spec.name == "reference":
            info["reference_node"] = node_version(spec)
    return info


# -- the run -------------------------------------------------------------------------


@dataclass
class Run:
    cfg: Config
    specs: list[BridgeSpec]
    tmp: Path
    pool: ProcessPool = field(default_factory=ProcessPool)
    results: dict[str, Any] = field(default_factory=dict)
    launched: list[StdioBridge] = field(default_factory=list)
    _seq: int = 0

    def home(self, label: str) -> tuple[Path, Path]:
        """A fresh data home (the registry root) and project folder."""
        self._seq += 1
        home = self.tmp / f"{self._seq:02d}-{label}"
        project = home / "project"
        project.mkdir(parents=True)
        return home, project

    async def sim(self, home: Path, project: Path, *, script: dict[str, Any] | None = None) -> Sim:
        script_path = None
        if script is not None:
            script_path = home / "script.json"
            script_path.write_text(json.dumps(script), encoding="utf-8")
        sim = Sim(home, project, instant=script is None, script=script_path, ws_buffer_kb=PAYLOAD_BUFFER_KB)
        self.pool.add(sim)
        return await sim.start()

    async def bridge(self, spec: BridgeSpec, home: Path, project: Path, *, read_only: bool = False,
                     start: bool = True) -> StdioBridge:
        self._seq += 1
        extra = {"GODOT_MCP_READ_ONLY": "1"} if read_only else {}
        b = StdioBridge(spec, home, project, home / f"{spec.name}-{self._seq:03d}.stderr", extra)
        self.pool.add(b)
        self.launched.append(b)
        return await b.start() if start else b

    async def session(self, spec: BridgeSpec, home: Path, project: Path, **kw: Any) -> StdioBridge:
        """A started, initialized bridge whose editor link is up (one successful call)."""
        b = await self.bridge(spec, home, project, **kw)
        await b.initialize()
        await b.tools()
        await b.call(CHEAP_TOOL, {})
        return b

    def eras(self, spec: BridgeSpec) -> list[str]:
        return [HANDSHAKE, MODERN] if spec.modern else [HANDSHAKE]

    # -- phase: spawn -------------------------------------------------------------

    async def phase_spawn(self) -> None:
        home, project = self.home("spawn")
        await self.sim(home, project)
        variants = [(spec, era) for spec in self.specs for era in self.eras(spec)]
        times: dict[str, list[float]] = {f"{s.name}/{e}": [] for s, e in variants}
        init_times: dict[str, list[float]] = {f"{s.name}/{e}": [] for s, e in variants if e == HANDSHAKE}
        first_bytes: dict[str, int] = {}
        for i in range(self.cfg.spawns):
            for spec, era in rotate(variants, i):
                key = f"{spec.name}/{era}"
                b = await self.bridge(spec, home, project)
                if era == HANDSHAKE:
                    await b.initialize()
                    init_times[key].append((time.perf_counter() - b.spawned_at) * 1000)
                tools = await b.tools(modern=era == MODERN)
                times[key].append((time.perf_counter() - b.spawned_at) * 1000)
                first_bytes[key] = compact_bytes(tools)
                await self.pool.discard(b)
            log.info("spawn %d/%d done", i + 1, self.cfg.spawns)
        self.results["spawn"] = {
            key: {
                "to_tools_list_ms": summary(values),
                "median_ms": round(median(values), 1),
                **({"to_initialize_ms": summary(init_times[key])} if key in init_times else {}),
                "first_tools_list_bytes": first_bytes.get(key),
            }
            for key, values in times.items()
        }

    # -- phase: latency -------------------------------------------------------------

    async def phase_latency(self) -> None:
        home, project = self.home("latency")
        sim = await self.sim(home, project)
        direct = self.pool.add(await DirectClient(sim.port, sim.token).start())
        bridges = {spec.name: await self.session(spec, home, project) for spec in self.specs}
        contenders: list[tuple[str, Callable[[], Awaitable[Any]]]] = [
            ("direct", lambda: direct.call(CHEAP_METHOD, {}))
        ]
        for spec in self.specs:
            b = bridges[spec.name]
            for era in self.eras(spec):
                contenders.append((f"{spec.name}/{era}", _caller(b, CHEAP_TOOL, {}, era == MODERN)))
        for name, fn in contenders:
            await timed_block(fn, WARMUP_CALLS, 1)
            log.info("warm-up %s done", name)
        if "reference" in bridges:
            self.results["reference_modern_probe"] = await _probe_modern(bridges["reference"])
        out: dict[str, Any] = {}
        for mode, callers in (("sequential", 1), ("concurrent", self.cfg.concurrency)):
            samples: dict[str, list[float]] = {name: [] for name, _ in contenders}
            walls: dict[str, float] = {name: 0.0 for name, _ in contenders}
            blocks = min(self.cfg.blocks, self.cfg.calls)
            for k, per_block in enumerate(split(self.cfg.calls, blocks)):
                for name, fn in rotate(contenders, k):
                    got, wall = await timed_block(fn, per_block, callers)
                    samples[name] += got
                    walls[name] += wall
            out[mode] = {
                name: {**summary(values), "calls_per_s": round(len(values) / walls[name], 1),
                       "callers": callers}
                for name, values in samples.items()
            }
            log.info("latency %s done", mode)
        self.results["latency"] = {"tool": CHEAP_TOOL, **out}

    # -- phase: payload ---------------------------------------------------------------

    async def phase_payload(self) -> None:
        out: dict[str, Any] = {}
        for size in PAYLOAD_SIZES:
            home, project = self.home(f"payload-{size // 1024}k")
            text_reply, image_reply = sized_replies(size)
            tree_reply = tree_reply_of(size)
            script = {CHEAP_METHOD: {"steps": [{"result": text_reply}], "times": None},
                      IMAGE_METHOD: {"steps": [{"result": image_reply}], "times": None},
                      TREE_METHOD: {"steps": [{"result": tree_reply}], "times": None}}
            sim = await self.sim(home, project, script=script)
            direct = await DirectClient(sim.port, sim.token).start()
            self.pool.add(direct)
            bridges = {spec.name: await self.session(spec, home, project) for spec in self.specs}
            for b in bridges.values():
                await b.call("discover_tools", {"request": IMAGE_GROUP})
            contenders: list[tuple[str, Callable[[], Awaitable[Any]]]] = []
            for kind, tool, method in (("text", CHEAP_TOOL, CHEAP_METHOD), ("image", IMAGE_TOOL, IMAGE_METHOD),
                                       ("tree", TREE_TOOL, TREE_METHOD)):
                contenders.append((f"direct/{kind}", _direct_caller(direct, method)))
                for spec in self.specs:
                    contenders.append((f"{spec.name}/{kind}", _caller(bridges[spec.name], tool, {}, False)))
            sizes: dict[str, int] = {}
            for name, fn in contenders:
                await timed_block(fn, min(10, self.cfg.payload_calls), 1)
                sizes[name] = (await fn())[1]
            samples: dict[str, list[float]] = {name: [] for name, _ in contenders}
            blocks = min(self.cfg.blocks, self.cfg.payload_calls)
            for k, per_block in enumerate(split(self.cfg.payload_calls, blocks)):
                for name, fn in rotate(contenders, k):
                    samples[name] += (await timed_block(fn, per_block, 1))[0]
            out[f"{size // 1024}KiB"] = {
                "toolkit_result_bytes": len(json.dumps(text_reply)),
                **{name: {**summary(v), "response_bytes": sizes[name]} for name, v in samples.items()},
            }
            for b in bridges.values():
                await self.pool.discard(b)
            await self.pool.discard(direct)
            await self.pool.discard(sim)
            log.info("payload %d KiB done", size // 1024)
        self.results["payload"] = out

    # -- phase: context ------------------------------------------------------------------

    async def phase_context(self) -> None:
        home, project = self.home("context")
        await self.sim(home, project)
        names = group_names()
        out: dict[str, Any] = {}
        for spec in self.specs:
            for read_only in (False, True):
                b = await self.bridge(spec, home, project, read_only=read_only)
                await b.initialize()
                first = await b.tools()
                await b.call(CHEAP_TOOL, {})  # the editor link is up: the surface is final
                startup = await b.tools()
                # One call with every group name, then each name alone, in case a bridge caps a call.
                await b.request("tools/call", {"name": "discover_tools", "arguments": {"request": names}})
                for name in names:
                    await b.request("tools/call", {"name": "discover_tools", "arguments": {"request": name}})
                loaded = await b.tools()
                key = f"{spec.name}/{'read_only' if read_only else 'default'}"
                out[key] = {
                    "first_tools_list": _surface(first),
                    "startup": _surface(startup),
                    "all_groups": _surface(loaded),
                }
                await self.pool.discard(b)
        self.results["context"] = {"groups_requested": len(names), **out}
        log.info("context done")

    # -- phase: memory -----------------------------------------------------------------------

    async def phase_memory(self) -> None:
        home, project = self.home("memory")
        await self.sim(home, project)
        bridges = {spec.name: await self.session(spec, home, project) for spec in self.specs}
        samples: dict[str, list[dict[str, int | None]]] = {
            name: [{"calls": 0, "rss_kib": b.rss_kib()}] for name, b in bridges.items()
        }
        done = {name: 0 for name in bridges}
        blocks = split(self.cfg.memory_calls, max(1, -(-self.cfg.memory_calls // MEMORY_BLOCK)))
        for k, per_block in enumerate(blocks):
            for spec in rotate(self.specs, k):
                b = bridges[spec.name]
                # Alternate the eras block by block: a per-request leak in either path shows.
                modern = spec.modern and k % 2 == 1
                await timed_block(_caller(b, CHEAP_TOOL, {}, modern), per_block, 1)
                done[spec.name] += per_block
                samples[spec.name].append({"calls": done[spec.name], "rss_kib": b.rss_kib()})
            log.info("memory block %d/%d done", k + 1, len(blocks))
        self.results["memory"] = {name: _memory_summary(s) for name, s in samples.items()}

    async def run(self) -> None:
        phases = {"spawn": self.phase_spawn, "latency": self.phase_latency, "payload": self.phase_payload,
                  "context": self.phase_context, "memory": self.phase_memory}
        for name in self.cfg.phases:
            log.info("phase %s", name)
            started = time.perf_counter()
            await phases[name]()
            await self.pool.aclose()  # each phase leaves nothing running behind it
            self.results.setdefault("phase_seconds", {})[name] = round(time.perf_counter() - started, 1)

    def hygiene(self) -> dict[str, Any]:
        """Per bridge: processes launched, non-JSON stdout lines (must be 0) and notifications seen."""
        out: dict[str, Any] = {}
        for b in self.launched:
            row = out.setdefault(b.name, {"processes": 0, "non_json_stdout_lines": 0, "notifications": 0})
            row["processes"] += 1
            row["non_json_stdout_lines"] += b.junk_lines
            row["notifications"] += b.notifications
        return out


def _caller(b: StdioBridge, tool: str, args: dict[str, Any], modern: bool) -> Callable[[], Awaitable[Any]]:
    def fn() -> Awaitable[Any]:
        return b.call(tool, args, modern=modern)
    return fn


def _direct_caller(d: DirectClient, method: str) -> Callable[[], Awaitable[Any]]:
    def fn() -> Awaitable[Any]:
        return d.call(method, {})
    return fn


async def _probe_modern(b: StdioBridge) -> dict[str, Any]:
    """What a bridge does with a 2026-07-28 request (the reference documents only the handshake era)."""
    resp, _ = await b.request("tools/call", {"name": CHEAP_TOOL, "arguments": {}}, modern=True)
    listing, _ = await b.request("server/discover", modern=True)
    return {"tools_call": _brief(resp), "server_discover": _brief(listing)}


def _brief(resp: dict[str, Any]) -> dict[str, Any]:
    if "error" in resp:
        return {"error": resp["error"]}
    result = resp.get("result") or {}
    return {"result_keys": sorted(result), "resultType": result.get("resultType"), "isError": result.get("isError")}


def _surface(tools: list[dict[str, Any]]) -> dict[str, Any]:
    size = compact_bytes(tools)
    return {"tools": len(tools), "bytes": size, "tokens_est": size // 4}


def _memory_summary(samples: list[dict[str, int | None]]) -> dict[str, Any]:
    rss = [s["rss_kib"] for s in samples]
    start = rss[0]
    warm = rss[1] if len(rss) > 1 else start
    end = rss[-1]
    out: dict[str, Any] = {"samples": samples, "startup_kib": start, "after_first_block_kib": warm,
                           "end_kib": end, "calls": samples[-1]["calls"]}
    if start is not None and end is not None and warm is not None:
        out["growth_from_startup_kib"] = end - start
        out["growth_after_first_block_kib"] = end - warm
    return out


def tree_reply_of(size: int) -> dict[str, Any]:
    """A toolkit result of about ``size`` bytes shaped like a scene tree: nested nodes with unsorted keys."""
    rng = random.Random(size + 1)
    counter = 0

    def node(depth: int) -> dict[str, Any]:
        nonlocal counter
        counter += 1
        item: dict[str, Any] = {"type": rng.choice(("Node2D", "Sprite2D", "Label", "Control")),
                                "name": f"Node{counter}", "visible": rng.random() < 0.9,
                                "position": {"y": rng.randint(-999, 999), "x": round(rng.uniform(-500, 500), 2)},
                                "path": f"/root/Main/Node{counter}"}
        if depth < 3:
            item["children"] = [node(depth + 1) for _ in range(4)]
        return item

    reply: dict[str, Any] = {"success": True, "roots": []}
    while len(json.dumps(reply)) < size:
        reply["roots"].append(node(0))
    return reply


def sized_replies(size: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Toolkit results of about ``size`` bytes: a text-ish payload and a screenshot (base64 PNG-like)."""
    rng = random.Random(size)

    def blob(room: int) -> str:
        raw = rng.randbytes(max(1, room * 3 // 4 + 3))
        return base64.b64encode(raw).decode("ascii")[: max(1, room)]

    text = {"success": True, "tree": ""}
    text["tree"] = blob(size - len(json.dumps(text)))
    image = {"success": True, "image_base64": "", "mime_type": "image/png", "width": 1280, "height": 720}
    image["image_base64"] = blob(size - len(json.dumps(image)))
    return text, image


async def amain(cfg: Config) -> int:
    specs = [ours_spec()]
    if cfg.compare:
        try:
            specs.append(reference_spec(cfg.reference_dir))
        except FileNotFoundError as exc:
            print(str(exc), file=sys.stderr)
            return 2
    tmp = Path(tempfile.mkdtemp(prefix="godot-bench-"))
    run = Run(cfg, specs, tmp)
    run.results["machine"] = machine_info(specs)
    run.results["config"] = {
        "calls": cfg.calls, "concurrency": cfg.concurrency, "spawns": cfg.spawns, "memory_calls": cfg.memory_calls,
        "payload_calls": cfg.payload_calls, "blocks": cfg.blocks, "quick": cfg.quick,
        "bridges": [{"name": s.name, "argv": list(s.argv)} for s in specs], "phases": list(cfg.phases),
    }
    failed: BaseException | None = None
    try:
        await run.run()
    except (BridgeError, OSError, TimeoutError, RuntimeError) as exc:
        failed = exc
        log.error("benchmark failed: %s (logs under %s)", exc, tmp)
    finally:
        await run.pool.aclose()
    run.results["stdout"] = run.hygiene()
    run.results["targets"] = report.targets(run.results)
    if cfg.compare:
        run.results["ratios"] = report.ratios(run.results)
    if failed is not None:
        run.results["failed"] = f"{type(failed).__name__}: {failed}"
    out = cfg.out or RESULTS_DIR / f"bench-{dt.datetime.now(dt.UTC).strftime('%Y%m%dT%H%M%SZ')}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(run.results, indent=1) + "\n", encoding="utf-8")
    print(report.render(run.results))
    print(f"\nJSON: {out}")
    if cfg.keep_temp or failed is not None:
        print(f"logs: {tmp}", file=sys.stderr)
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed is not None else 0


def main(argv: Sequence[str] | None = None) -> int:
    cfg = parse_args(argv)
    try:
        return asyncio.run(amain(cfg))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
