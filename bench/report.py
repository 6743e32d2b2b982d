"""Turn a benchmark result dict into the stdout table, the target verdicts and the ours/reference ratios.

Targets come from the issue that asked for the benchmark; they are reported, never asserted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bench.stats import ratio

# Half the reference's start-up list (38,932 bytes), the always-on call_tool included;
# tests/unit/test_context_cost.py holds it.
STARTUP_SURFACE_MAX = 19_500
ALL_GROUPS_MAX = 82_000  # the wire's tools array with every group loaded (81,548 with the shaders group), offered arguments (dry_run, confirmation_token, background) included
SPAWN_MAX_MS = 1500.0
OVERHEAD_P50_MAX_MS = 1.0
P99_MAX_MS = 5.0
CONCURRENCY_P50_FACTOR = 2.0
# RSS growth between the first 1,000-call sample and the last that still counts as flat (allocator noise).
MEMORY_NOISE_KIB = 1024


def _get(d: Any, *path: str) -> Any:
    for key in path:
        if not isinstance(d, dict) or key not in d:
            return None
        d = d[key]
    return d


def _target(name: str, target: str, value: Any, met: bool | None, unit: str = "") -> dict[str, Any]:
    return {"name": name, "target": target, "measured": value, "unit": unit, "met": met}


def targets(r: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    lat = r.get("latency") or {}
    for era in ("handshake", "modern"):
        p50 = _get(lat, "sequential", f"ours/{era}", "p50")
        direct = _get(lat, "sequential", "direct", "p50")
        if p50 is not None and direct is not None:
            over = round(p50 - direct, 4)
            out.append(_target(f"bridge overhead p50 ({era})", f"<= {OVERHEAD_P50_MAX_MS} ms", over,
                               over <= OVERHEAD_P50_MAX_MS, "ms"))
        p99 = _get(lat, "sequential", f"ours/{era}", "p99")
        if p99 is not None:
            out.append(_target(f"round trip p99 sequential ({era})", f"<= {P99_MAX_MS} ms", p99, p99 <= P99_MAX_MS,
                               "ms"))
        conc = _get(lat, "concurrent", f"ours/{era}", "p50")
        if conc is not None and p50:
            factor = round(conc / p50, 2)
            out.append(_target(f"{_get(lat, 'concurrent', f'ours/{era}', 'callers')} callers p50 vs sequential "
                               f"({era})", f"<= {CONCURRENCY_P50_FACTOR}x", factor,
                               factor <= CONCURRENCY_P50_FACTOR, "x"))
    ours = _get(lat, "sequential", "ours/handshake", "p50")
    ref = _get(lat, "sequential", "reference/handshake", "p50")
    rt = ratio(ours, ref)
    if rt is not None:
        out.append(_target("round trip p50 ours/reference (handshake)", "<= 1.0", rt, rt <= 1.0, "ratio"))
    ctx = r.get("context") or {}
    startup = _get(ctx, "ours/default", "startup", "bytes")
    if startup is not None:
        out.append(_target("start-up surface", f"<= {STARTUP_SURFACE_MAX:,} bytes", startup,
                           startup <= STARTUP_SURFACE_MAX, "bytes"))
    loaded = _get(ctx, "ours/default", "all_groups", "bytes")
    if loaded is not None:
        out.append(_target("every group loaded", f"<= {ALL_GROUPS_MAX:,} bytes", loaded, loaded <= ALL_GROUPS_MAX,
                           "bytes"))
    for era in ("handshake", "modern"):
        spawn = _get(r, "spawn", f"ours/{era}", "median_ms")
        if spawn is not None:
            out.append(_target(f"spawn to first tools/list, median ({era})", f"<= {SPAWN_MAX_MS:g} ms", spawn,
                               spawn <= SPAWN_MAX_MS, "ms"))
    growth = _get(r, "memory", "ours", "growth_after_first_block_kib")
    calls = _get(r, "memory", "ours", "calls")
    if growth is not None:
        out.append(_target(f"memory flat across {calls:,} calls (growth after the first 1,000)",
                           f"<= {MEMORY_NOISE_KIB} KiB", growth, growth <= MEMORY_NOISE_KIB, "KiB"))
    return out


def ratios(r: dict[str, Any]) -> dict[str, Any]:
    """Every figure measured for both bridges, as ours/reference (ours in its handshake era unless named)."""
    out: dict[str, Any] = {}

    def put(name: str, ours: Any, ref: Any) -> None:
        value = ratio(ours, ref)
        if value is not None:
            out[name] = {"ours": ours, "reference": ref, "ratio": value}

    put("spawn median ms", _get(r, "spawn", "ours/handshake", "median_ms"),
        _get(r, "spawn", "reference/handshake", "median_ms"))
    put("spawn median ms (ours modern)", _get(r, "spawn", "ours/modern", "median_ms"),
        _get(r, "spawn", "reference/handshake", "median_ms"))
    for mode in ("sequential", "concurrent"):
        for era in ("handshake", "modern"):
            for p in ("p50", "p95", "p99"):
                put(f"round trip {mode} {p} (ours {era})", _get(r, "latency", mode, f"ours/{era}", p),
                    _get(r, "latency", mode, "reference/handshake", p))
        put(f"throughput {mode} calls/s", _get(r, "latency", mode, "ours/handshake", "calls_per_s"),
            _get(r, "latency", mode, "reference/handshake", "calls_per_s"))
    for size, row in (r.get("payload") or {}).items():
        for kind in ("text", "image", "tree"):
            put(f"payload {size} {kind} p50", _get(row, f"ours/{kind}", "p50"), _get(row, f"reference/{kind}", "p50"))
            put(f"payload {size} {kind} response bytes", _get(row, f"ours/{kind}", "response_bytes"),
                _get(row, f"reference/{kind}", "response_bytes"))
    for mode in ("default", "read_only"):
        for stage in ("startup", "all_groups"):
            put(f"context {mode} {stage} bytes", _get(r, "context", f"ours/{mode}", stage, "bytes"),
                _get(r, "context", f"reference/{mode}", stage, "bytes"))
    for key in ("startup_kib", "end_kib"):
        put(f"rss {key}", _get(r, "memory", "ours", key), _get(r, "memory", "reference", key))
    return out


# -- rendering -------------------------------------------------------------------------


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "NO"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    cells = [[str(h) for h in headers]] + [[_fmt(c) if not isinstance(c, str) else c for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for n, row in enumerate(cells):
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))))
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def render(r: dict[str, Any]) -> str:
    m = r.get("machine") or {}
    parts = [
        f"godot-bridge benchmark  {m.get('date')}  nproc={m.get('nproc')}  cpu={m.get('cpu_model')}  "
        f"python={m.get('python')}" + (f"  reference node={m['reference_node']}" if m.get("reference_node") else ""),
    ]
    has_ref = any(b["name"] == "reference" for b in (r.get("config") or {}).get("bridges", []))
    rat = r.get("ratios") or {}

    spawn = r.get("spawn")
    if spawn:
        rows = [[k, v["median_ms"], v["to_tools_list_ms"]["p95"], v["to_tools_list_ms"]["max"],
                 _get(v, "to_initialize_ms", "p50"), v["to_tools_list_ms"]["n"]] for k, v in spawn.items()]
        parts += ["", "Spawn -> first tools/list answer (ms)",
                  table(["bridge/era", "median", "p95", "max", "initialize p50", "spawns"], rows)]

    lat = r.get("latency")
    if lat:
        for mode in ("sequential", "concurrent"):
            block = lat.get(mode) or {}
            direct = _get(block, "direct", "p50")
            ref = block.get("reference/handshake") or {}
            rows = []
            for name, s in block.items():
                over = round(s["p50"] - direct, 4) if direct is not None and name != "direct" else None
                rows.append([name, s["p50"], s["p95"], s["p99"], s["max"], s["calls_per_s"], over,
                             ratio(s["p50"], ref.get("p50")) if has_ref and name.startswith("ours") else None])
            callers = _get(block, "direct", "callers")
            parts += ["", f"tools/call {lat.get('tool')} round trip, {mode} ({callers} caller(s)), ms",
                      table(["contender", "p50", "p95", "p99", "max", "calls/s", "overhead p50", "p50 ours/ref"],
                            rows)]
        probe = r.get("reference_modern_probe")
        if probe:
            parts.append(f"reference given 2026-07-28 requests: {probe}")

    payload = r.get("payload")
    if payload:
        rows = []
        for size, row in payload.items():
            for name, s in row.items():
                if not isinstance(s, dict):
                    continue
                kind = name.split("/")[1]
                ours_ref = ratio(s["p50"], _get(row, f"reference/{kind}", "p50")) if name.startswith("ours") else None
                rows.append([f"{size} {name}", s["p50"], s["p95"], s["p99"], s["response_bytes"],
                             ours_ref if has_ref else None])
        parts += ["", "Payload scaling (handshake era), ms",
                  table(["size contender", "p50", "p95", "p99", "response bytes", "p50 ours/ref"], rows)]

    ctx = r.get("context")
    if ctx:
        rows = []
        for key, v in ctx.items():
            if not isinstance(v, dict):
                continue
            for stage in ("first_tools_list", "startup", "all_groups"):
                s = v[stage]
                rows.append([f"{key} {stage}", s["tools"], s["bytes"], s["tokens_est"]])
        parts += ["", f"Context cost: compact JSON tools array ({ctx.get('groups_requested')} groups requested)",
                  table(["bridge/mode stage", "tools", "bytes", "~tokens (bytes/4)"], rows)]

    mem = r.get("memory")
    if mem:
        rows = [[k, v["startup_kib"], v["after_first_block_kib"], v["end_kib"], v.get("growth_after_first_block_kib"),
                 v["calls"]] for k, v in mem.items()]
        parts += ["", "Resident memory (VmRSS, KiB)",
                  table(["bridge", "after start-up", "after 1,000 calls", "at end", "growth after 1,000", "calls"],
                        rows)]

    if rat:
        rows = [[k, v["ours"], v["reference"], v["ratio"]] for k, v in rat.items()]
        parts += ["", "Ratios ours/reference (< 1: ours smaller or faster)",
                  table(["figure", "ours", "reference", "ratio"], rows)]

    hygiene = r.get("stdout")
    if hygiene:
        parts += ["", "stdout hygiene: " + "; ".join(
            f"{k}: {v['processes']} processes, {v['non_json_stdout_lines']} non-JSON stdout lines, "
            f"{v['notifications']} notifications" for k, v in hygiene.items())]

    tg = r.get("targets") or []
    if tg:
        rows = [[t["name"], t["target"], t["measured"], t["met"]] for t in tg]
        parts += ["", "Targets (reported, not asserted)", table(["target", "wanted", "measured", "met"], rows)]
    if r.get("failed"):
        parts += ["", f"RUN FAILED: {r['failed']}"]
    return "\n".join(parts)
