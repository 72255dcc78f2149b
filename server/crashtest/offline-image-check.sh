#!/usr/bin/env bash
# Builds and runs the Dockerfile and docker-compose.yml on a Debian machine that has no
# Docker daemon and no image registry (no Docker Hub), as a manual check:
#
#   sudo server/crashtest/offline-image-check.sh   # root: installs packages, starts dockerd
#
# (from any directory: it finds the repository from its own path).
#
# What it does: installs docker.io, docker-compose, busybox-static, redis-server and caddy
# from Debian; starts its own dockerd (vfs storage, no iptables, no default bridge, socket
# and data under $WORK); stands in for the four base images with `docker import` of
# minimal root filesystems made from the host:
#   golang:1.26-bookworm  busybox + the host's Go + its module download cache
#                         (GOPROXY=off; GOFLAGS=-buildvcs=false as there is no git)
#   alpine:3.20           busybox (Debian's lacks adduser: a small stand-in script)
#   redis:7               Debian's redis-server + redis-cli with their libraries
#                         (protected mode off, as the official image is built)
#   caddy:2               Debian's caddy
# then builds the image from a clean `git archive HEAD`, runs it and waits for its
# HEALTHCHECK to report healthy, checks the user is not root, and brings the compose
# stack up: both nodes healthy, /readyz through the load balancer, a player created.
# Debian 12's docker-compose (1.29) predates inline configs (`configs: NAME: content:`,
# compose v2.23+), which docker-compose.yml uses for the load balancer's Caddyfile: the
# copy of the compose file it runs has each inline config written to a file (with "$$"
# unescaped, as compose does) and bind-mounted read-only at the config's target instead.
# Everything it started is stopped at the end. The stand-ins are not the real images:
# this checks the Dockerfile's and compose file's logic, not the upstream images.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
cd "$REPO"
[ -f go.mod ] && [ -f docker-compose.yml ] || { echo "offline-image-check: $REPO is not the repository" >&2; exit 1; }
WORK=${WORK:-/tmp/gomoku-offline-image}
export DOCKER_HOST=unix://$WORK/docker.sock
log() { printf '\n==> %s\n' "$*"; }

log "packages"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends docker.io docker-compose busybox-static redis-server caddy >/dev/null

mkdir -p "$WORK"
log "dockerd (vfs, no iptables, no bridge) on $DOCKER_HOST"
dockerd --storage-driver=vfs --iptables=false --ip6tables=false --bridge=none \
  --data-root="$WORK/data" --exec-root="$WORK/exec" --pidfile="$WORK/dockerd.pid" \
  -H "$DOCKER_HOST" >"$WORK/dockerd.log" 2>&1 &
cleanup() {
  (cd "$WORK/ctx" 2>/dev/null && docker-compose down -v >/dev/null 2>&1) || true
  docker rm -f gomoku-offline-hc >/dev/null 2>&1 || true
  [ -f "$WORK/dockerd.pid" ] && kill "$(cat "$WORK/dockerd.pid")" 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 50); do docker info >/dev/null 2>&1 && break; sleep 0.2; done
docker info >/dev/null

rootfs() { # rootfs DIR: busybox, /etc/passwd, the dynamic loader
  rm -rf "$1"; mkdir -p "$1"/{bin,etc,tmp,data,lib64,lib/x86_64-linux-gnu,usr/bin,usr/sbin,usr/local/bin}
  cp /bin/busybox "$1/bin/"
  for a in $(/bin/busybox --list); do [ "$a" = busybox ] || ln -sf busybox "$1/bin/$a"; done
  echo 'root:x:0:0:root:/root:/bin/sh' >"$1/etc/passwd"; echo 'root:x:0:' >"$1/etc/group"
  chmod 1777 "$1/tmp"; cp /lib64/ld-linux-x86-64.so.2 "$1/lib64/"
}
libs() { for l in $(ldd "$@" | awk '{print $3}' | grep / | sort -u); do cp -L "$l" "$R/lib/x86_64-linux-gnu/"; done; }
PATHS='ENV PATH=/usr/local/go/bin:/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'

log "base image stand-ins"
(cd "$REPO" && go mod download)
R=$WORK/rootfs-golang; rootfs "$R"; cp -a "$(go env GOROOT)" "$R/usr/local/go"
mkdir -p "$R/go/pkg/mod/cache"; cp -a "$(go env GOMODCACHE)/cache/download" "$R/go/pkg/mod/cache/"
tar -C "$R" -c . | docker import --change "$PATHS" --change 'ENV GOPATH=/go' --change 'ENV GOTOOLCHAIN=local' \
  --change 'ENV GOPROXY=off' --change 'ENV GOFLAGS=-buildvcs=false' --change 'WORKDIR /go' - golang:1.26-bookworm >/dev/null
rm -rf "$R"
R=$WORK/rootfs-alpine; rootfs "$R"
cat >"$R/usr/sbin/adduser" <<'EOF'
#!/bin/sh
# stand-in for busybox adduser: adduser [-D] [-H] [-S] [-u UID] [-h HOME] [-s SHELL] NAME
uid=1000 home= shell=/sbin/nologin
while [ $# -gt 1 ]; do case "$1" in -D|-H|-S) shift ;; -u) uid=$2; shift 2 ;; -h) home=$2; shift 2 ;;
  -s) shell=$2; shift 2 ;; *) echo "adduser: unknown option $1" >&2; exit 1 ;; esac; done
[ -n "$1" ] || exit 1
echo "$1:x:$uid:$uid::${home:-/home/$1}:$shell" >>/etc/passwd; echo "$1:x:$uid:" >>/etc/group
EOF
chmod 755 "$R/usr/sbin/adduser"
tar -C "$R" -c . | docker import --change "$PATHS" --change 'CMD ["/bin/sh"]' - alpine:3.20 >/dev/null
R=$WORK/rootfs-redis; rootfs "$R"; cp /usr/bin/redis-server /usr/bin/redis-cli "$R/usr/bin/"; libs /usr/bin/redis-server /usr/bin/redis-cli
printf '#!/bin/sh\nexec /usr/bin/redis-server "$@" --protected-mode no\n' >"$R/usr/local/bin/redis-server"; chmod 755 "$R/usr/local/bin/redis-server"
tar -C "$R" -c . | docker import --change "$PATHS" --change 'WORKDIR /data' --change 'CMD ["redis-server"]' - redis:7 >/dev/null
R=$WORK/rootfs-caddy; rootfs "$R"; cp /usr/bin/caddy "$R/usr/bin/"; libs /usr/bin/caddy
tar -C "$R" -c . | docker import --change "$PATHS" --change 'CMD ["caddy","run","--config","/etc/caddy/Caddyfile","--adapter","caddyfile"]' - caddy:2 >/dev/null

log "docker build (legacy builder, no network; takes minutes on vfs)"
rm -rf "$WORK/ctx"; mkdir -p "$WORK/ctx"; git -C "$REPO" archive HEAD | tar -x -C "$WORK/ctx"
(cd "$WORK/ctx" && DOCKER_BUILDKIT=0 docker build --network none -t ctx_gomokud1 . 2>&1 | grep -E '^(Step|Successfully)')
docker tag ctx_gomokud1 ctx_gomokud2
docker images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep ctx_gomokud1

log "run the image; wait for its HEALTHCHECK"
docker run -d --name gomoku-offline-hc --network none ctx_gomokud1 >/dev/null
for _ in $(seq 60); do
  s=$(docker inspect --format '{{.State.Health.Status}}' gomoku-offline-hc); [ "$s" = healthy ] && break; sleep 1
done
echo "health: $s; user: $(docker exec gomoku-offline-hc id -un)"
[ "$s" = healthy ] && [ "$(docker exec gomoku-offline-hc id -u)" != 0 ]
docker rm -f gomoku-offline-hc >/dev/null

log "docker-compose.yml for docker-compose 1.29: inline configs as read-only bind mounts"
cd "$WORK/ctx"
python3 - docker-compose.yml .compose-configs <<'PY'
import os, re, sys, yaml
path, cfgdir = sys.argv[1:]
with open(path) as f:
    d = yaml.safe_load(f)  # the gomokud2 <<: *gomokud merge is resolved here
configs = d.pop("configs", None) or {}
os.makedirs(cfgdir, exist_ok=True)
for name, c in configs.items():
    if "content" not in c:
        sys.exit(f"config {name}: only inline configs (content) are handled")
    if re.search(r"\$(?!\$)", c["content"].replace("$$", "")):
        sys.exit(f"config {name}: an unescaped $ (compose would interpolate it; write $$)")
    with open(os.path.join(cfgdir, name), "w") as f:
        f.write(c["content"].replace("$$", "$"))
for sname, s in d.get("services", {}).items():
    for m in s.pop("configs", None) or []:
        src, dst = (m, "/" + m) if isinstance(m, str) else (m["source"], m.get("target", "/" + m["source"]))
        if src not in configs:
            sys.exit(f"service {sname}: no config {src}")
        s.setdefault("volumes", []).append(f"./{cfgdir}/{src}:{dst}:ro")
        print(f"{sname}: {cfgdir}/{src} -> {dst}")
with open(path, "w") as f:
    yaml.safe_dump(d, f, sort_keys=False)
PY
docker-compose config -q

log "docker-compose up (images prebuilt as ctx_gomokud1/2)"
docker-compose up -d
for _ in $(seq 60); do
  curl -fsS -m 2 http://127.0.0.1:8080/readyz >/dev/null 2>&1 && break; sleep 1
done
docker-compose ps
curl -fsS http://127.0.0.1:8080/readyz; echo
curl -fsS -XPOST http://127.0.0.1:8080/api/players -d '{"name":"offline-check"}' | head -c 80; echo
log "OK (try: go run ./cmd/gomoku load -url http://127.0.0.1:8080 -games 10 -duration 10s before it stops)"
