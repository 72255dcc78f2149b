package crashtest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
	"github.com/gomoku-arena/gomoku/server/wstest"
)

// fakeBrain writes a shell Gomocup brain: it answers START with OK and each request to
// move (BEGIN, TURN, DONE after BOARD) with the next line of onMove's output.
func fakeBrain(t *testing.T, name, onMove string) string {
	t.Helper()
	script := `#!/bin/sh
n=0
while read -r line; do
  case "$line" in
    START*) echo OK ;;
    BEGIN*|TURN*|DONE*) n=$((n+1)); ` + onMove + ` ;;
  esac
done
`
	path := filepath.Join(t.TempDir(), "pbrain-"+name)
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
	return path
}

// TestExternalEngineSeat (through the real gomokud): an operator
// configures external Gomocup engines with -engine NAME=COMMAND and a room seats one.
// A well-behaved brain's moves reach the players (Gomocup x,y from the top left); a
// brain that answers garbage forfeits its game cleanly.
func TestExternalEngineSeat(t *testing.T) {
	requireBin(t)
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	good := fakeBrain(t, "row", `echo "$((n-1)),0"`) // a15, b15, c15, ... along the top row
	bad := fakeBrain(t, "garbage", `echo "hello there"`)
	rs := redistest.Start(t)
	node := StartNode(t, "gomokud", rs.URL(), "-engine", "row="+good, "-engine", "garbage="+bad)
	base := node.Base()
	p := mustPlayer(t, ctx, base, "alice")

	id := mustRoom(t, ctx, base, p.Token, map[string]any{"me": "black", "opponent": map[string]any{"kind": "engine", "engine": "row"}})
	c := wstest.NewClient(base, id, p.Token)
	defer c.Close()
	require.NoError(t, c.Reconnect(ctx))
	for i, mv := range []string{"h8", "h7", "h6"} {
		r, err := c.Move(ctx, "m"+mv, 2*i, mv)
		require.NoError(t, err)
		require.Equal(t, "ack", r.Type, "move %s: %+v", mv, r)
		_, err = c.Wait(ctx, func(v wstest.View) bool { return len(v.Moves) >= 2*i+2 || v.Over() })
		require.NoError(t, err, "the engine did not answer %s", mv)
	}
	require.Equal(t, []string{"h8", "a15", "h7", "b15", "h6", "c15"}, c.View().Moves)

	id = mustRoom(t, ctx, base, p.Token, map[string]any{"me": "black", "opponent": map[string]any{"kind": "engine", "engine": "garbage"}})
	g := wstest.NewClient(base, id, p.Token)
	defer g.Close()
	require.NoError(t, g.Reconnect(ctx))
	r, err := g.Move(ctx, "m1", 0, "h8")
	require.NoError(t, err)
	require.Equal(t, "ack", r.Type, "%+v", r)
	v, err := g.Wait(ctx, func(v wstest.View) bool { return v.Over() })
	require.NoError(t, err, "the garbage engine's game did not end")
	require.Equal(t, "black", v.Result, "the engine that answered garbage loses: %+v", v)
	require.Equal(t, []string{"h8"}, v.Moves)
	t.Logf("garbage engine: %s by %s", v.Result, v.Reason)
}
