#!/usr/bin/env python3
"""summary.py: one line per `gomoku load -json` report, or with -md a Markdown table."""
import json
import sys


def q(r, k):
    x = r.get(k) or {}
    return x.get("p50_ms", 0), x.get("p95_ms", 0), x.get("p99_ms", 0), x.get("max_ms", 0), x.get("count", 0)


def line(path):
    r = json.load(open(path))
    s = r.get("server") or {}
    out = ["  conns %d  setup %.1fs  window %.1fs  moves/s %.1f  acks %d  violations %d  reconnects %d (failed %d)  errors %s  closes %s" % (
        r["connections"], r.get("setup_s", 0), r["duration_s"], r.get("moves_per_s", 0), r.get("acks", 0),
        r["order_violations"], r.get("reconnects", 0), r.get("reconnect_failures", 0), r.get("errors"), r.get("closes"))]
    for k in ("move_rtt", "spectator_delivery", "ai_reply"):
        p50, p95, p99, mx, n = q(r, k)
        if n:
            out.append("  %-18s p50 %.2f  p95 %.2f  p99 %.2f  max %.2f ms  (n=%d)" % (k, p50, p95, p99, mx, n))
    if s:
        a = s["after"]
        out.append("  server: conns %.0f  RSS %.1f MiB  heap %.1f MiB  goroutines %.0f  per added conn: RSS %.1f KiB  heap %.1f KiB  server read->ack p99 <= %s s" % (
            a["ws_connections"], a["process_resident_memory_bytes"] / 2**20, a["go_memstats_heap_inuse_bytes"] / 2**20, a["go_goroutines"],
            s["rss_per_added_conn_bytes"] / 1024, s["heap_inuse_per_added_conn_bytes"] / 1024, a.get("move_latency_p99_s")))
        out.append("  heap + stacks per added conn: %.1f KiB (GC forced: %s)" % (s.get("heap_and_stack_per_added_conn_bytes", 0) / 1024, s.get("gc_forced", False)))
    for key, how in (("raw_redis", "group commit"), ("raw_redis_unbatched", "one round trip per append")):
        raw = r.get(key)
        if raw:
            out.append("  raw append script (%s): %.0f appends/s (%d writers, p99 %.2f ms); server moves/s / raw = %.1f %%" % (
                how, raw["appends_per_s"], raw["writers"], raw["latency"]["p99_ms"], 100 * r.get("moves_per_s", 0) / max(raw["appends_per_s"], 1)))
    cpu = r.get("cpu")
    if cpu:
        out.append("  CPU ms per move: " + ", ".join("%s %.3f" % (c["name"], c["cpu_ms_per_move"]) for c in cpu)
                   + "  (total %.3f)" % sum(c["cpu_ms_per_move"] for c in cpu))
    return "\n".join(out)


def md(paths):
    rows = ["| run | conns | moves/s | move RTT p50/p99/max ms | spectator p50/p99/max ms | AI reply p50/p99 ms (n) | server RSS / heap / heap+stacks per added conn KiB | raw script appends/s (group commit / one round trip each) | violations | errors |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for p in paths:
        r = json.load(open(p))
        name = p.rsplit("/", 1)[-1].removesuffix(".json")
        s = r.get("server") or {}
        mr, sp, ai = q(r, "move_rtt"), q(r, "spectator_delivery"), q(r, "ai_reply")
        raw = r.get("raw_redis")
        rawu = r.get("raw_redis_unbatched")
        rows.append("| %s | %d | %.1f | %s | %s | %s | %s | %s | %d | %s |" % (
            name, r["connections"], r.get("moves_per_s", 0),
            "%.2f / %.2f / %.2f" % (mr[0], mr[2], mr[3]) if mr[4] else "-",
            "%.2f / %.2f / %.2f" % (sp[0], sp[2], sp[3]) if sp[4] else "-",
            "%.0f / %.0f (%d)" % (ai[0], ai[2], ai[4]) if ai[4] else "-",
            "%.1f / %.1f / %.1f%s" % (s["rss_per_added_conn_bytes"] / 1024, s["heap_inuse_per_added_conn_bytes"] / 1024,
                                  s.get("heap_and_stack_per_added_conn_bytes", 0) / 1024, " (GC)" if s.get("gc_forced") else "") if s else "-",
            " / ".join("%.0f (%.0f %%)" % (x["appends_per_s"], 100 * r.get("moves_per_s", 0) / max(x["appends_per_s"], 1)) for x in (raw, rawu) if x) or "-",
            r["order_violations"], ", ".join("%s %d" % kv for kv in sorted((r.get("errors") or {}).items())) or "-"))
    return "\n".join(rows)


if __name__ == "__main__":
    if sys.argv[1] == "-md":
        print(md(sys.argv[2:]))
    else:
        for p in sys.argv[1:]:
            print(line(p))
