package roomstore

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/eventlog"
	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// TestRealRedisKillDuringPlay plays through a real redis-server (AOF, fsync always) that
// is killed with SIGKILL and restarted again and again: every acknowledged move is in
// the store exactly once, refused ones are reported as unavailable, and the rebuilt
// state equals the live one. Needs GOMOKU_INTEGRATION=1.
func TestRealRedisKillDuringPlay(t *testing.T) {
	srv := redistest.Start(t)
	c := redis.NewClient(&redis.Options{Addr: srv.Addr(), MaxRetries: -1, DialTimeout: 300 * time.Millisecond,
		ReadTimeout: 300 * time.Millisecond, WriteTimeout: 300 * time.Millisecond})
	t.Cleanup(func() { _ = c.Close() })
	st := New(eventlog.New(c))
	ctx := context.Background()
	m := room.NewManager(st, room.Options{StoreTimeout: time.Second})
	t.Cleanup(func() { _ = m.Shutdown(context.Background()) })
	set := room.DefaultSettings()
	set.Size = 20
	r, err := m.Create(ctx, room.CreateRequest{Settings: set, Creator: &alice, Color: "black"})
	require.NoError(t, err)
	_, err = r.Do(ctx, room.Command{Kind: room.CmdSit, By: bob, Color: "white"})
	require.NoError(t, err)

	// Moves on columns a..t, rows by pairs, that never make five: a1 b1 a2 b2 … stays
	// within four per column by changing column every 4 rows.
	var points []string
	for col := 0; col < 20; col += 2 {
		for row := 1; row <= 4; row++ {
			points = append(points, fmt.Sprintf("%c%d", 'a'+col, row), fmt.Sprintf("%c%d", 'a'+col+1, row+10))
		}
	}
	acked := map[uint64]string{}
	refused := 0
	killedAt := -1
	restarted := make(chan struct{})
	close(restarted)
	for i := 0; i < len(points); {
		if i%9 == 4 && killedAt != i {
			<-restarted // one crash at a time
			killedAt = i
			srv.Kill()
			restarted = make(chan struct{})
			go func(done chan struct{}) {
				defer close(done)
				time.Sleep(500 * time.Millisecond)
				srv.Restart()
			}(restarted)
		}
		by := alice
		if i%2 == 1 {
			by = bob
		}
		rep, err := r.Do(ctx, room.Command{Kind: room.CmdMove, By: by, Ply: i, Point: points[i]})
		if err != nil {
			require.Equal(t, "unavailable", protocol.Code(err), "%v", err)
			refused++
			time.Sleep(50 * time.Millisecond)
			continue // resend the same move (same ply)
		}
		if prev, ok := acked[rep.Seq]; ok {
			assert.True(t, rep.Duplicate, "seq %d acknowledged twice (%s)", rep.Seq, prev)
		}
		acked[rep.Seq] = points[i]
		i++
	}
	<-restarted
	t.Logf("%d moves acknowledged, %d attempts refused while Redis was down", len(acked), refused)
	evs, err := st.Events(ctx, r.ID(), 1)
	require.NoError(t, err)
	rebuilt, err := room.Replay(evs)
	require.NoError(t, err)
	assert.Equal(t, r.State(), rebuilt)
	assert.Equal(t, points, rebuilt.Moves(), "every acknowledged move stored once, in order")
	for seq, p := range acked {
		assert.Equal(t, p, evs[seq-1].Point)
	}
	assert.Positive(t, refused)
}
