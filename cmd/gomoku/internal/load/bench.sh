#!/usr/bin/env bash
# bench.sh: the docs/performance.md "Server load" runs, on this machine, with a real Redis.
# Starts its own redis-server (free port, temp dir, AOF everysec) and a built gomokud on
# it, runs the requested scenarios with `gomoku load -json`, and leaves the JSON reports in
# $OUT (default /tmp/gomoku-load). Never touches 127.0.0.1:6379. GOMOKUD_ENV and LOAD_ENV
# pass environment variables to gomokud and the load generator. IDLE_FLAGS, GAMES_FLAGS,
# THROUGHPUT_GAMES, FLOOR_MOVES, AI_LEVELS and PROFILE_FLAGS override the shapes (see below).
#
#   cmd/gomoku/internal/load/bench.sh [idle|idle-gc|games|throughput|spectators|ai|cross-node|all|profile]...
#
# cross-node runs a second gomokud on the same redis-server and plays the same games twice:
# both players on the first node, then each game's white player on the second node
# (`gomoku load -url2`), so the move round trip is cross-node delivery (CROSS_FLAGS).
#
# Every games-mode report has the CPU seconds of gomokud, redis-server and the load
# generator over the window, and per move ("cpu" in the JSON). `profile` (not part of
# `all`) runs the profiling server (same code as gomokud, plus /debug/pprof) under
# PROFILE_FLAGS (default: the 300-game throughput shape) and saves an 8 s CPU profile
# and a 3 s runtime trace taken mid-window: $OUT/profile-cpu.pb.gz, $OUT/profile.trace,
# $OUT/profile-top.txt (go tool pprof -top) and $OUT/profile-heap-allocs.pb.gz, plus the
# load generator's own CPU profile over its run: $OUT/profile-load-{cpu.pb.gz,top.txt}.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/../../../.."
OUT=${OUT:-/tmp/gomoku-load}
mkdir -p "$OUT"
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
if [ -z "${NOBUILD:-}" ]; then # NOBUILD=1: use the binaries already in $OUT
	go build -o "$OUT/gomokud" ./cmd/gomokud
	go build -o "$OUT/gomoku" ./cmd/gomoku
	go test -c -o "$OUT/loadprof" ./cmd/gomoku/internal/load
fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
RPORT=$(free_port)
HPORT=$(free_port)
HPORT2=$(free_port)
RDIR=$(mktemp -d)
redis-server --port "$RPORT" --bind 127.0.0.1 --dir "$RDIR" --appendonly yes --appendfsync everysec \
	--save '' --daemonize no --logfile "$RDIR/redis.log" &
RPID=$!
GPID=
GPID2=
cleanup() {
	[ -n "$GPID" ] && kill "$GPID" 2>/dev/null && wait "$GPID" 2>/dev/null || true
	[ -n "$GPID2" ] && kill "$GPID2" 2>/dev/null && wait "$GPID2" 2>/dev/null || true
	kill "$RPID" 2>/dev/null && wait "$RPID" 2>/dev/null || true
	rm -rf "$RDIR"
}
trap cleanup EXIT
for _ in $(seq 50); do redis-cli -p "$RPORT" ping >/dev/null 2>&1 && break; sleep 0.1; done

# start_node PIDVAR PORT LOG: (re)starts a gomokud on the redis-server (each with its own
# random node id), its PID in the variable PIDVAR.
start_node() {
	local pid=${!1}
	[ -n "$pid" ] && { kill "$pid"; wait "$pid" 2>/dev/null || true; }
	# shellcheck disable=SC2086
	env ${GOMOKUD_ENV:-} REDIS_URL="redis://127.0.0.1:$RPORT/0" "$OUT/gomokud" -addr "127.0.0.1:$2" -log-level warn \
		2>>"$OUT/$3" &
	printf -v "$1" %s $!
	for _ in $(seq 100); do curl -sf "http://127.0.0.1:$2/readyz" >/dev/null && return; sleep 0.1; done
	echo "gomokud on port $2 did not become ready" >&2
	exit 1
}
start_server() { start_node GPID "$HPORT" gomokud.log; }
# start_server2: a second node on the same redis-server.
start_server2() { start_node GPID2 "$HPORT2" gomokud2.log; }

# start_profserver: the same server code in the load package's test binary, with
# /debug/pprof/ (TestServeForProfiling), so that -force-gc can collect before measuring.
start_profserver() {
	[ -n "$GPID" ] && { kill "$GPID"; wait "$GPID" 2>/dev/null || true; }
	GOMOKU_LOAD_SERVE="127.0.0.1:$HPORT" GOMOKU_LOAD_SERVE_FOR=5m REDIS_URL="redis://127.0.0.1:$RPORT/0" \
		"$OUT/loadprof" -test.run ServeForProfiling -test.timeout 10m >>"$OUT/gomokud.log" 2>&1 &
	GPID=$!
	for _ in $(seq 100); do curl -sf "http://127.0.0.1:$HPORT/readyz" >/dev/null && return; sleep 0.1; done
	echo "profiling server did not become ready" >&2
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
	local la cpu="gomokud=$GPID,redis=$RPID"
	[ -n "$GPID2" ] && cpu="$cpu,gomokud2=$GPID2"
	la=$(cut -d' ' -f1-3 /proc/loadavg)
	echo "== $name: gomoku load -url http://127.0.0.1:\$PORT -json $* (load average before: $la)"
	echo "$name|$la|$*" >>"$OUT/runs.txt"
	# shellcheck disable=SC2086
	env ${LOAD_ENV:-} "$OUT/gomoku" load -url "http://127.0.0.1:$HPORT" -json -cpu "$cpu" "$@" >"$OUT/$name.json" 2>"$OUT/$name.log" || {
		echo "  FAILED: $(tail -3 "$OUT/$name.log")" >&2
		return 0
	}
	python3 "$HERE/summary.py" "$OUT/$name.json"
}

machine
[ $# -eq 0 ] && set -- all
for s in "$@"; do
	case $s in
	idle | all)
		start_server
		# shellcheck disable=SC2086
		run idle-10000 ${IDLE_FLAGS:--idle 10000 -idle-per-room 50 -duration 10s -setup 3m}
		;;&
	games | all)
		start_server
		# shellcheck disable=SC2086
		run games-1000 ${GAMES_FLAGS:--games 1000 -rate 1 -jitter 0.5 -churn 0.1 -duration 40s -setup 3m}
		;;&
	throughput | all)
		start_server
		for g in ${THROUGHPUT_GAMES:-150 300 600}; do
			run "throughput-$g" -games "$g" -rate 18 -jitter 0.2 -duration 20s -setup 2m \
				-raw-redis "redis://127.0.0.1:$RPORT/0" -raw-writers 64 -raw-duration 10s -raw-unbatched
		done
		# The floor: the least a move can cost here (loopback TCP, no server logic; with
		# and without the append script on the same redis-server), floor_test.go.
		echo "== floor: loadprof -test.bench MoveFloor (GOMOKU_FLOOR_REDIS on the same redis-server)"
		GOMOKU_FLOOR_REDIS="redis://127.0.0.1:$RPORT/0" "$OUT/loadprof" -test.run '^$' -test.bench MoveFloor \
			-test.benchtime "${FLOOR_MOVES:-300000}x" -test.count 3 | tee "$OUT/floor.txt" | grep Benchmark
		;;&
	spectators | all)
		start_server
		run spectators-2000 -games 1 -spectators 2000 -rate 1 -jitter 0.2 -duration 30s -setup 3m
		;;&
	ai | all)
		start_server
		for l in ${AI_LEVELS:-beginner intermediate advanced expert}; do
			run "ai-$l" -games 10 -ai "$l" -rate 4 -jitter 0.2 -duration 20s -setup 1m
		done
		;;&
	cross-node | all)
		start_server
		start_server2
		# shellcheck disable=SC2086
		run same-node ${CROSS_FLAGS:--games 500 -rate 1 -jitter 0.5 -duration 40s -setup 3m}
		start_server
		start_server2
		# shellcheck disable=SC2086
		run cross-node ${CROSS_FLAGS:--games 500 -rate 1 -jitter 0.5 -duration 40s -setup 3m} -url2 "http://127.0.0.1:$HPORT2"
		kill "$GPID2"
		wait "$GPID2" 2>/dev/null || true
		GPID2=
		;;&
	profile)
		start_profserver
		# shellcheck disable=SC2086
		run profile ${PROFILE_FLAGS:--games 300 -rate 18 -jitter 0.2 -duration 20s -setup 2m} -cpuprofile "$OUT/profile-load-cpu.pb.gz" &
		LPID=$!
		# The window starts after the setup (a few seconds): profile its middle.
		sleep "${PROFILE_DELAY:-8}"
		curl -s -o "$OUT/profile-cpu.pb.gz" "http://127.0.0.1:$HPORT/debug/pprof/profile?seconds=8"
		curl -s -o "$OUT/profile.trace" "http://127.0.0.1:$HPORT/debug/pprof/trace?seconds=3"
		curl -s -o "$OUT/profile-heap-allocs.pb.gz" "http://127.0.0.1:$HPORT/debug/pprof/allocs"
		wait "$LPID" || true
		go tool pprof -top -nodecount 60 "$OUT/loadprof" "$OUT/profile-cpu.pb.gz" >"$OUT/profile-top.txt" 2>/dev/null || true
		go tool pprof -top -cum -nodecount 60 "$OUT/gomoku" "$OUT/profile-load-cpu.pb.gz" >"$OUT/profile-load-top.txt" 2>/dev/null || true
		echo "profile: $OUT/profile-top.txt, go tool trace $OUT/profile.trace"
		;;
	idle-gc | all)
		start_profserver
		run idle-10000-gc -idle 10000 -idle-per-room 50 -duration 10s -setup 3m -force-gc
		go tool pprof -top -inuse_space "http://127.0.0.1:$HPORT/debug/pprof/heap" 2>/dev/null | head -25 >"$OUT/idle-heap.txt" || true
		;;
	esac
done
python3 "$HERE/summary.py" -md "$OUT"/*.json >"$OUT/summary.md"
echo "summary: $OUT/summary.md"
