package ledger

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/eventlog"
	"github.com/gomoku-arena/gomoku/room/roomstore"
)

// node is one server's rooms on a shared Redis, with the ledger's recorder.
type node struct {
	m   *room.Manager
	rec *Recorder
	l   *Ledger
}

func newNode(t *testing.T, c redis.UniversalClient) *node {
	t.Helper()
	l := New(c)
	rooms := &ManagerRooms{}
	rec := NewRecorder(l, rooms, nil)
	rec.SweepAfter = 0
	st := roomstore.New(eventlog.New(c), roomstore.WithGameEnds(rec))
	rooms.M = room.NewManager(st, room.Options{})
	t.Cleanup(func() { _ = rooms.M.Shutdown(context.Background()) })
	return &node{m: rooms.M, rec: rec, l: l}
}

var (
	accA = room.Player{ID: "alice", Name: "Alice", Account: true}
	accB = room.Player{ID: "bob", Name: "Bob", Account: true}
)

// ratedGame plays a rated game to Bob's resignation on n; it returns the room id.
func ratedGame(t *testing.T, n *node) string {
	t.Helper()
	ctx := context.Background()
	set := room.DefaultSettings()
	set.Rated, set.Time = true, room.TimeControl{BaseMS: 300_000, IncrementMS: 3_000}
	r, err := n.m.Create(ctx, room.CreateRequest{Settings: set, Creator: &accA, Color: "black"})
	require.NoError(t, err)
	_, err = r.Do(ctx, room.Command{Kind: room.CmdSit, By: accB, Color: "white"})
	require.NoError(t, err)
	_, err = r.Do(ctx, room.Command{Kind: room.CmdMove, By: accA, Ply: 0, Point: "h8"})
	require.NoError(t, err)
	_, err = r.Do(ctx, room.Command{Kind: room.CmdMove, By: accB, Ply: 1, Point: "h9"})
	require.NoError(t, err)
	_, err = r.Do(ctx, room.Command{Kind: room.CmdResign, By: accB})
	require.NoError(t, err)
	return r.ID()
}

func TestRecorderQueueRecordsAndReports(t *testing.T) {
	mr := miniredis.RunT(t)
	c := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	n := newNode(t, c)
	ctx := context.Background()
	id := ratedGame(t, n)
	// The game is in the outbox before anyone recorded it.
	p, err := n.l.Pending(ctx, time.Now().Add(time.Hour), 10)
	require.NoError(t, err)
	require.Equal(t, []string{id}, roomsOf(p))
	// Ended queued it: drain the queue as Run would.
	select {
	case g := <-n.rec.q:
		require.NoError(t, n.rec.Process(ctx, g.Room, g.Game))
	default:
		t.Fatal("the finished game was not queued")
	}
	rec, err := n.l.Result(ctx, id, 1)
	require.NoError(t, err)
	require.NotNil(t, rec)
	assert.True(t, rec.Rated)
	assert.Equal(t, "freestyle-blitz", rec.Pool)
	assert.Greater(t, rec.Black.After.R, 1500.0)
	r := n.m.Live(id)
	require.NotNil(t, r)
	ch := r.State().RatingChange()
	require.NotNil(t, ch, "the room shows the change")
	assert.Equal(t, room.RatingOf(rec.Pool, *rec.Black.Before, *rec.Black.After, *rec.White.Before, *rec.White.After), *ch)
	p, err = n.l.Pending(ctx, time.Now().Add(time.Hour), 10)
	require.NoError(t, err)
	assert.Empty(t, p, "outbox cleared")
}

// A node that died after storing game_over and before recording: another node's sweep
// records the game; processing it again (a retry, a second node) changes nothing.
func TestRecorderSweepAfterCrashExactlyOnce(t *testing.T) {
	mr := miniredis.RunT(t)
	c := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	a, b := newNode(t, c), newNode(t, c)
	ctx := context.Background()
	id := ratedGame(t, a)
	<-a.rec.q // node a dies before recording: its queue is lost
	require.NoError(t, a.m.Shutdown(ctx))

	var wg sync.WaitGroup
	for i := 0; i < 3; i++ { // the sweeps of three nodes at once
		wg.Add(1)
		go func() {
			defer wg.Done()
			assert.NoError(t, b.rec.Process(ctx, id, 1))
		}()
	}
	wg.Wait()
	assert.Equal(t, 0, b.rec.Sweep(ctx), "nothing left in the outbox")
	rs, err := b.l.Ratings(ctx, "alice")
	require.NoError(t, err)
	assert.Equal(t, 1, rs["freestyle-blitz"].Games, "the game counted once")
	h, err := b.l.History(ctx, "bob", "freestyle-blitz", 0)
	require.NoError(t, err)
	assert.Len(t, h, 1)
	evs, err := b.m.Store().Events(ctx, id, 1)
	require.NoError(t, err)
	n := 0
	for _, e := range evs {
		if e.Kind == room.EvRating {
			n++
		}
	}
	assert.Equal(t, 1, n, "one rating event in the room's log")
}

func TestRecorderDropsGamesThatDidNotEnd(t *testing.T) {
	mr := miniredis.RunT(t)
	c := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	n := newNode(t, c)
	ctx := context.Background()
	require.NoError(t, n.l.MarkPending(ctx, "gone", 1, time.Now()))
	assert.Equal(t, 1, n.rec.Sweep(ctx))
	assert.Equal(t, 0, n.rec.Sweep(ctx), "a room that does not exist is dropped")

	// A game in play whose game_over append failed after the mark stays pending.
	set := room.DefaultSettings()
	r, err := n.m.Create(ctx, room.CreateRequest{Settings: set, Creator: &accA, Color: "black"})
	require.NoError(t, err)
	_, err = r.Do(ctx, room.Command{Kind: room.CmdSit, By: accB, Color: "white"})
	require.NoError(t, err)
	require.NoError(t, n.l.MarkPending(ctx, r.ID(), 1, time.Now()))
	assert.Equal(t, 1, n.rec.Sweep(ctx))
	assert.Equal(t, 1, n.rec.Sweep(ctx), "still pending while the game goes on")
	_, err = r.Do(ctx, room.Command{Kind: room.CmdAbort, By: accA})
	require.NoError(t, err)
	assert.Equal(t, 1, n.rec.Sweep(ctx))
	assert.Equal(t, 0, n.rec.Sweep(ctx), "an aborted game is dropped")
}

func TestCasualGameIndexedThroughRecorder(t *testing.T) {
	mr := miniredis.RunT(t)
	c := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	n := newNode(t, c)
	ctx := context.Background()
	set := room.DefaultSettings()
	set.White = room.SeatSpec{Kind: room.AI, Level: "beginner"}
	guest := room.Player{ID: "guest", Name: "G"}
	r, err := n.m.Create(ctx, room.CreateRequest{Settings: set, Creator: &guest, Color: "black"})
	require.NoError(t, err)
	_, err = r.Do(ctx, room.Command{Kind: room.CmdMove, By: guest, Ply: 0, Point: "h8"})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return r.State().Ply() == 2 }, 10*time.Second, 10*time.Millisecond)
	_, err = r.Do(ctx, room.Command{Kind: room.CmdResign, By: guest})
	require.NoError(t, err)
	g := <-n.rec.q
	require.NoError(t, n.rec.Process(ctx, g.Room, g.Game))
	gs, err := n.l.Games(ctx, "guest", 0, 10)
	require.NoError(t, err)
	require.Len(t, gs, 1)
	assert.Equal(t, Loss, gs[0].Result)
	assert.Equal(t, "ai:beginner", gs[0].Opponent.Machine)
	assert.False(t, gs[0].Rated)
}

func roomsOf(ps []PendingGame) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Room)
	}
	return out
}
