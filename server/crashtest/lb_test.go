package crashtest

import (
	"context"
	"fmt"
	"math/rand"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
	"github.com/gomoku-arena/gomoku/server/crashtest/composecfg"
	"github.com/gomoku-arena/gomoku/server/wstest"
)

// composeFile carries the load balancer's Caddyfile inline (its top-level configs).
const composeFile = "../../docker-compose.yml"

// LB is a caddy process running the compose file's Caddyfile on loopback in front of
// some nodes.
type LB struct {
	Base string
	proc redistest.Proc
}

// startLB runs caddy with the Caddyfile of docker-compose.yml (written to a temp file),
// listening on a free loopback port and proxying to nodes (the file's {$GOMOKU_LB_ADDR}
// and {$GOMOKU_UPSTREAMS}). It skips the test when no caddy binary is on $PATH.
func startLB(t *testing.T, nodes []*Node) *LB {
	t.Helper()
	caddy, err := exec.LookPath("caddy")
	if err != nil {
		t.Skip("crashtest: skipping: no caddy binary on $PATH (Debian: apt-get install caddy)")
	}
	var ups []string
	for _, n := range nodes {
		ups = append(ups, strings.TrimPrefix(n.Base(), "http://"))
	}
	dir := t.TempDir()
	caddyfile, err := composecfg.WriteCaddyfile(composeFile, dir)
	require.NoError(t, err)
	logp := filepath.Join(dir, "caddy.log")
	lb := &LB{}
	t.Cleanup(func() {
		lb.proc.Kill()
		if t.Failed() {
			b, _ := os.ReadFile(logp)
			if len(b) > 4000 {
				b = b[len(b)-4000:]
			}
			t.Logf("caddy log tail:\n%s", b)
		}
	})
	err = redistest.Retry(5, 0, func() error {
		port, err := freePort()
		if err != nil {
			return err
		}
		lb.Base = "http://127.0.0.1:" + strconv.Itoa(port)
		f, err := os.OpenFile(logp, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		cmd := exec.Command(caddy, "run", "--config", caddyfile, "--adapter", "caddyfile")
		cmd.Env = append(os.Environ(), "GOMOKU_LB_ADDR=127.0.0.1:"+strconv.Itoa(port),
			"GOMOKU_UPSTREAMS="+strings.Join(ups, " "),
			"HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_DATA_HOME="+dir)
		cmd.Stdout, cmd.Stderr = f, f
		return lb.proc.Start(cmd, func(exited <-chan struct{}) error {
			return waitHTTP(lb.Base+"/healthz", 15*time.Second, exited)
		}, func() { f.Close() })
	})
	require.NoError(t, err, "caddy with the Caddyfile of %s", composeFile)
	return lb
}

// TestLoadBalancerCaddyfile runs the compose load balancer's own configuration
// (the Caddyfile inline in docker-compose.yml, with caddy) in front of two gomokud
// nodes on one redis-server.
// Players and spectators know only the load balancer's address: the web page, the API
// and the WebSocket upgrades on /ws/* go through it; a browser-like Origin passes the
// server's same-origin check (the Host header is kept) and a foreign one does not.
// The node holding the human game's room lease is killed with SIGKILL mid-game; the
// clients reconnect to the same address, land on the surviving node and finish the
// game with every acknowledged move stored exactly once.
func TestLoadBalancerCaddyfile(t *testing.T) {
	requireBin(t)
	rng := seededRand(t)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	rs := redistest.Start(t)
	nodes := startNodes(t, rs.URL(), 2)
	lb := startLB(t, nodes)
	base := lb.Base

	res, err := httpClient.Get(base + "/")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, "GET / through the load balancer")

	ledger := newLedger()
	a, b := mustPlayer(t, ctx, base, "alice"), mustPlayer(t, ctx, base, "bob")
	id := mustRoom(t, ctx, base, a.Token, map[string]any{"me": "black", "opponent": map[string]any{"kind": "human"}})
	checkOrigin(t, ctx, base, id)
	ca, cb, cs := wstest.NewClient(base, id, a.Token), wstest.NewClient(base, id, b.Token), wstest.NewClient(base, id, "")
	require.NoError(t, ca.Reconnect(ctx))
	require.NoError(t, cs.Reconnect(ctx))
	sit(t, ctx, cb, "white")
	h := mustPlayer(t, ctx, base, "human")
	aid := mustRoom(t, ctx, base, h.Token, map[string]any{"me": "black", "opponent": map[string]any{"kind": "ai", "level": "novice"}})
	ch := wstest.NewClient(base, aid, h.Token)
	require.NoError(t, ch.Reconnect(ctx))

	script := scriptedGame(rand.New(rand.NewSource(rng.Int63())), 24)
	tk := func() func() time.Duration { return think(rng.Int63(), 20*time.Millisecond, 60*time.Millisecond) }
	seats := []*Seat{
		{C: ca, Color: "black", Next: scripted(script), Ledger: ledger, Think: tk()},
		{C: cb, Color: "white", Next: scripted(script), Ledger: ledger, Think: tk()},
		{C: ch, Color: "black", Next: blocker(rand.New(rand.NewSource(rng.Int63()))), Ledger: ledger, Think: tk(), ResignAt: 30},
	}
	play := StartPlay(ctx, seats, []*wstest.Client{cs})

	_, err = cs.Wait(ctx, func(v wstest.View) bool { return v.Over() || len(v.Moves) >= 8 })
	require.NoError(t, err)
	victim, owner := ownerNode(t, ctx, rs.Client(), nodes, id)
	nodes[victim].Kill()
	killedAt := time.Now()
	t.Logf("killed %s (%s, lease holder of room %s) at ply %d", nodes[victim].Name, owner, id, len(cs.View().Moves))

	play.Wait(t, ctx)
	t.Logf("games finished %v after the kill", time.Since(killedAt).Round(time.Millisecond))
	for _, r := range []string{id, aid} {
		snap := verifyRoom(t, ctx, base, r, ledger.get(r), true)
		checkStoredRecord(t, ctx, rs.Client(), r, ledger.get(r))
		t.Logf("room %s: %d moves, %s by %s", r, len(snap.Moves), snap.Result, snap.Reason)
	}
	require.Equal(t, script, cs.View().Moves, "the spectator's moves")
	reconnects := 0
	for _, c := range []*wstest.Client{ca, cb, cs, ch} {
		reconnects += c.View().Gen - 1
		for _, p := range c.Problems() {
			t.Errorf("client of %s: %s", c.Room, p)
		}
	}
	t.Logf("%d reconnections through the load balancer", reconnects)
}

// checkOrigin dials the room's WebSocket through the load balancer as a page of the
// load balancer's own origin would (accepted) and as a foreign page would (refused).
func checkOrigin(t *testing.T, ctx context.Context, base, id string) {
	t.Helper()
	url := "ws" + strings.TrimPrefix(base, "http") + "/ws/rooms/" + id
	d := websocket.Dialer{HandshakeTimeout: 3 * time.Second}
	for _, tc := range []struct {
		origin string
		ok     bool
	}{{base, true}, {"http://evil.example", false}} {
		ws, res, err := d.DialContext(ctx, url, http.Header{"Origin": {tc.origin}})
		if ws != nil {
			ws.Close()
		}
		status := 0
		if res != nil {
			status = res.StatusCode
		}
		if tc.ok {
			require.NoError(t, err, "same-origin WebSocket through the load balancer refused (%d): is the Host header kept?", status)
		} else {
			require.Error(t, err, "a foreign Origin was accepted through the load balancer")
			require.Equal(t, http.StatusForbidden, status, fmt.Sprintf("foreign Origin: %v", err))
		}
	}
}
