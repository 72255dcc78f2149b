#!/usr/bin/env bash
# bench.sh: the docs/performance.md "Server load" runs, on this machine, with a real Redis.
# Starts its own redis-server (free port, temp dir, AOF everysec) and a built gomokud on
# it, runs the requested scenarios with `gomoku load -json`, and leaves the JSON reports in
# $OUT (default /tmp/gomoku-load). Never touches 127.0.0.1:6379.
#
#   cmd/gomoku/internal/load/bench.sh [idle|games|throughput|spectators|all]...
set -euo pipefail
cd "$(dirname "$0")/../../../.."
OUT=${OUT:-/tmp/gomoku-load}
mkdir -p "$OUT"
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
if [ -z "${NOBUILD:-}" ]; then # NOBUILD=1: use the binaries already in $OUT
	go build -o "$OUT/gomokud" ./cmd/gomokud
	go build -o "$OUT/gomoku" ./cmd/gomoku
fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
RPORT=$(free_port)
HPORT=$(free_port)
RDIR=$(mktemp -d)
redis-server --port "$RPORT" --bind 127.0.0.1 --dir "$RDIR" --appendonly yes --appendfsync everysec \
	--save '' --daemonize no --logfile "$RDIR/redis.log" &
RPID=$!
GPID=
cleanup() {
	[ -n "$GPID" ] && kill "$GPID" 2>/dev/null && wait "$GPID" 2>/dev/null || true
	kill "$RPID" 2>/dev/null && wait "$RPID" 2>/dev/null || true
	rm -rf "$RDIR"
}
trap cleanup EXIT
for _ in $(seq 50); do redis-cli -p "$RPORT" ping >/dev/null 2>&1 && break; sleep 0.1; done

start_server() {
	[ -n "$GPID" ] && { kill "$GPID"; wait "$GPID" 2>/dev/null || true; }
	REDIS_URL="redis://127.0.0.1:$RPORT/0" "$OUT/gomokud" -addr "127.0.0.1:$HPORT" -log-level warn \
		2>>"$OUT/gomokud.log" &
	GPID=$!
	for _ in $(seq 100); do curl -sf "http://127.0.0.1:$HPORT/readyz" >/dev/null && return; sleep 0.1; done
	echo "gomokud did not become ready" >&2
	exit 1
}

machine() {
	{
		echo "date: $(date -u +%FT%TZ)"
		echo "uptime: $(uptime)"
		echo "nproc: $(nproc)"
		free -g
		go version
		redis-server --version
	} | tee "$OUT/machine.txt"
}

run() { # name, gomoku load flags...
	local name=$1
	shift
	echo "== $name: gomoku load -url http://127.0.0.1:\$PORT $* (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
	"$OUT/gomoku" load -url "http://127.0.0.1:$HPORT" -json "$@" >"$OUT/$name.json" 2>"$OUT/$name.log" || {
		cat "$OUT/$name.log" >&2
		return 1
	}
	python3 - "$OUT/$name.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
s = r.get("server") or {}
def q(k):
    x = r.get(k) or {}
    return "p50 %.2f p95 %.2f p99 %.2f max %.2f (n=%d)" % (x.get("p50_ms",0), x.get("p95_ms",0), x.get("p99_ms",0), x.get("max_ms",0), x.get("count",0))
print("  connections %d  moves/s %.1f  acks %d  violations %d  reconnects %d  errors %s  closes %s" % (
    r["connections"], r.get("moves_per_s",0), r.get("acks",0), r["order_violations"], r.get("reconnects",0), r.get("errors"), r.get("closes")))
print("  move rtt  " + q("move_rtt"))
print("  spectator " + q("spectator_delivery"))
if s:
    print("  server: conns %.0f  RSS %.1f MiB  heap %.1f MiB  per added conn: RSS %.1f KiB heap %.1f KiB  server p99 read->ack <= %s s" % (
        s["after"]["ws_connections"], s["after"]["process_resident_memory_bytes"]/2**20, s["after"]["go_memstats_heap_inuse_bytes"]/2**20,
        s["rss_per_added_conn_bytes"]/1024, s["heap_inuse_per_added_conn_bytes"]/1024, s["after"].get("move_latency_p99_s")))
raw = r.get("raw_redis")
if raw:
    print("  raw append script: %.0f appends/s (%d writers, p99 %.2f ms); server/raw = %.1f %%" % (
        raw["appends_per_s"], raw["writers"], raw["latency"]["p99_ms"], 100*r.get("moves_per_s",0)/max(raw["appends_per_s"],1)))
PY
}

machine
[ $# -eq 0 ] && set -- all
for s in "$@"; do
	case $s in
	idle | all)
		start_server
		run idle-10000 -idle 10000 -idle-per-room 50 -duration 20s -setup 2m
		;;&
	games | all)
		start_server
		run games-1000 -games 1000 -rate 1 -jitter 0.5 -churn 0.1 -duration 60s -setup 2m
		;;&
	throughput | all)
		start_server
		for g in ${THROUGHPUT_GAMES:-200 400 800}; do
			run "throughput-$g" -games "$g" -rate 18 -jitter 0.2 -duration 30s -setup 2m \
				-raw-redis "redis://127.0.0.1:$RPORT/0" -raw-writers 64 -raw-duration 15s
		done
		;;&
	spectators | all)
		start_server
		run spectators-2000 -games 1 -spectators 2000 -rate 1 -jitter 0.2 -duration 60s -setup 2m
		;;
	esac
done
