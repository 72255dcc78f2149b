package crashtest

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
	"github.com/gomoku-arena/gomoku/server/wstest"
)

// seededRand returns a generator seeded with CRASHTEST_SEED or a fresh seed, logged so
// that a run can be repeated.
func seededRand(t *testing.T) *rand.Rand {
	s := time.Now().UnixNano()
	if v := os.Getenv("CRASHTEST_SEED"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		require.NoError(t, err, "CRASHTEST_SEED")
		s = n
	}
	t.Logf("seed %d (repeat with CRASHTEST_SEED=%d)", s, s)
	return rand.New(rand.NewSource(s))
}

// TestCrashGomokud (invariant 1 of the README): a real gomokud process on a real
// redis-server (appendfsync always) plays two human games, a human-vs-AI game and an
// AI-vs-AI exhibition driven by WebSocket clients, and is killed with SIGKILL at random
// moments and restarted on the same port. Clients reconnect with their token and last
// seq and resend unanswered moves. Every acknowledged move must be stored at its ply and
// seq, nothing twice, seqs contiguous, and every game must reach its end.
func TestCrashGomokud(t *testing.T) {
	requireBin(t)
	rng := seededRand(t)
	kills, filler := 6, 56
	if testing.Short() {
		kills, filler = 3, 24
	}
	ctx, cancel := context.WithTimeout(context.Background(), 80*time.Second)
	defer cancel()

	rs := redistest.Start(t) // AOF, appendfsync always
	node := StartNode(t, "gomokud", rs.URL())
	base := node.Base()
	ledger := newLedger()

	type game struct {
		name  string
		room  string
		seats []*Seat
		watch []*wstest.Client
	}
	var games []*game

	// Two human-vs-human games with scripted moves (black wins by a five).
	for g := 0; g < 2; g++ {
		a := mustPlayer(t, ctx, base, "a"+strconv.Itoa(g))
		b := mustPlayer(t, ctx, base, "b"+strconv.Itoa(g))
		id := mustRoom(t, ctx, base, a.Token, map[string]any{"me": "black", "opponent": map[string]any{"kind": "human"}})
		ca, cb := wstest.NewClient(base, id, a.Token), wstest.NewClient(base, id, b.Token)
		require.NoError(t, ca.Reconnect(ctx))
		sit(t, ctx, cb, "white")
		moves := scriptedGame(rand.New(rand.NewSource(rng.Int63())), filler)
		gm := &game{name: "human" + strconv.Itoa(g), room: id}
		gm.seats = []*Seat{
			{C: ca, Color: "black", Next: scripted(moves), Think: think(rng.Int63(), 30*time.Millisecond, 130*time.Millisecond), Ledger: ledger},
			{C: cb, Color: "white", Next: scripted(moves), Think: think(rng.Int63(), 30*time.Millisecond, 130*time.Millisecond), Ledger: ledger},
		}
		spec := wstest.NewClient(base, id, "")
		require.NoError(t, spec.Reconnect(ctx))
		gm.watch = []*wstest.Client{spec}
		games = append(games, gm)
	}
	// Human (black) against an intermediate AI (200 ms budget); the human resigns at ply 90.
	{
		h := mustPlayer(t, ctx, base, "human")
		id := mustRoom(t, ctx, base, h.Token, map[string]any{"me": "black", "opponent": map[string]any{"kind": "ai", "level": "intermediate"}})
		c := wstest.NewClient(base, id, h.Token)
		require.NoError(t, c.Reconnect(ctx))
		games = append(games, &game{name: "vs-ai", room: id, seats: []*Seat{{
			C: c, Color: "black", Next: blocker(rand.New(rand.NewSource(rng.Int63()))),
			Think: think(rng.Int63(), 30*time.Millisecond, 130*time.Millisecond), ResignAt: 90, Ledger: ledger,
		}}})
	}
	// AI vs AI exhibition, watched by its creator.
	{
		w := mustPlayer(t, ctx, base, "watcher")
		id := mustRoom(t, ctx, base, w.Token, map[string]any{"me": "none", "ai_pace_ms": 0, // unpaced: the test runs on the real clock
			"black": map[string]any{"kind": "ai", "level": "novice"}, "white": map[string]any{"kind": "ai", "level": "novice"}})
		c := wstest.NewClient(base, id, w.Token)
		require.NoError(t, c.Reconnect(ctx))
		games = append(games, &game{name: "ai-vs-ai", room: id, watch: []*wstest.Client{c}})
	}

	sending := make(chan string, 1)
	games[0].seats[0].Sending = sending
	games[0].seats[1].Sending = sending

	start := time.Now()
	var seats []*Seat
	var watchers []*wstest.Client
	for _, g := range games {
		seats = append(seats, g.seats...)
		watchers = append(watchers, g.watch...)
	}
	play := StartPlay(ctx, seats, watchers)
	var probe sync.WaitGroup // the resume timer below

	// The killer: SIGKILL at seeded random moments, restart after a random pause. The
	// first kill lands while the AI of the human-vs-AI game searches (right after the
	// human's move was stored), the second while the exhibition runs; the rest at random.
	aiGame, exhibition := games[2], games[3]
	done := 0
killing:
	for done < kills {
		what := "random moment"
		switch done {
		case 0:
			what = "AI seat searching (human-vs-AI)"
			_, _ = aiGame.seats[0].C.Wait(ctx, func(v wstest.View) bool { return v.Over() || (len(v.Moves) >= 4 && v.ToMove() == "white") })
		case 1:
			what = "AI vs AI exhibition in play"
			_, _ = exhibition.watch[0].Wait(ctx, func(v wstest.View) bool { return v.Over() || len(v.Moves) >= 6 })
		case 2, 3:
			for len(sending) > 0 { // a fresh send, not a stale notice
				<-sending
			}
			select {
			case id := <-sending:
				what = "move " + id + " in flight"
				time.Sleep(time.Duration(rng.Intn(3000)) * time.Microsecond)
			case <-play.Done():
				break killing
			}
		default:
			select {
			case <-play.Done():
				break killing
			case <-time.After(time.Duration(200+rng.Intn(1200)) * time.Millisecond):
			}
		}
		var before wstest.View
		if done == 0 {
			before = aiGame.seats[0].C.View()
		}
		node.Kill()
		if done == 0 && !before.Over() {
			what += fmt.Sprintf(", AI move at ply %d stored before the kill: %v", len(before.Moves), storedSeq(t, ctx, rs.Client(), aiGame.room) > before.LastSeq)
		}
		down := time.Duration(rng.Intn(400)) * time.Millisecond
		time.Sleep(down)
		node.Restart()
		if done == 0 && !before.Over() {
			restarted, ply := time.Now(), len(before.Moves)
			probe.Add(1)
			go func() { // how long the restarted server takes to resume the AI seat
				defer probe.Done()
				w := wstest.NewClient(base, aiGame.room, "")
				w.FromSeq(before.LastSeq)
				defer w.Close()
				for ctx.Err() == nil {
					if err := ensure(ctx, w); err != nil {
						return
					}
					if _, err := w.Wait(ctx, func(v wstest.View) bool { return v.Over() || len(v.Moves) > ply }); err == nil {
						t.Logf("AI seat resumed: its move at ply %d seen %v after the restart (the previous process's lease must expire first)",
							ply, time.Since(restarted).Round(time.Millisecond))
						return
					}
				}
			}()
		}
		done++
		t.Logf("kill %d (%s) at %v (down %v + restart)", done, what, time.Since(start).Round(time.Millisecond), down)
	}
	if done < kills {
		t.Logf("games ended after %d of %d kills", done, kills)
	}
	play.Wait(t, ctx, "after %d kills", done)
	probe.Wait()
	t.Logf("%d games finished in %v with %d gomokud kills", len(games), time.Since(start).Round(time.Millisecond), done)

	for _, g := range games {
		acks := ledger.get(g.room)
		snap := verifyRoom(t, ctx, base, g.room, acks, true)
		dups := 0
		for _, a := range acks {
			if a.Duplicate {
				dups++
			}
		}
		t.Logf("%s (%s): %d moves, %d acks (%d duplicate acks of resent moves), result %s by %s, seq %d",
			g.name, g.room, len(snap.Moves), len(acks), dups, snap.Result, snap.Reason, snap.Seq)
		for _, s := range g.seats {
			for _, p := range s.C.Problems() {
				t.Errorf("%s %s client: %s", g.name, s.Color, p)
			}
		}
		for _, c := range g.watch {
			for _, p := range c.Problems() {
				t.Errorf("%s watcher: %s", g.name, p)
			}
		}
	}
	require.NotEmpty(t, ledger.get(games[2].room), "the AI game had no acknowledged human move")
}

// TestCrashClockNotCharged: a timed game whose server is killed and stays down for 3 s
// resumes with the side to move not charged for the downtime, and
// the game goes on with every acked move kept.
func TestCrashClockNotCharged(t *testing.T) {
	requireBin(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rs := redistest.Start(t)
	node := StartNode(t, "gomokud", rs.URL())
	base := node.Base()
	ledger := newLedger()
	a, b := mustPlayer(t, ctx, base, "alice"), mustPlayer(t, ctx, base, "bob")
	id := mustRoom(t, ctx, base, a.Token, map[string]any{"me": "black", "opponent": map[string]any{"kind": "human"},
		"time": map[string]any{"base_ms": 60000}})
	ca, cb := wstest.NewClient(base, id, a.Token), wstest.NewClient(base, id, b.Token)
	require.NoError(t, ca.Reconnect(ctx))
	sit(t, ctx, cb, "white")
	script := scriptedGame(rand.New(rand.NewSource(3)), 8)
	for ply := 0; ply < 4; ply++ {
		c := ca
		if ply%2 == 1 {
			c = cb
		}
		r, err := c.Move(ctx, "m"+strconv.Itoa(ply), ply, script[ply])
		require.NoError(t, err)
		require.Equal(t, "ack", r.Type, "%+v", r)
		ledger.add(id, ackRec{Ply: ply, Point: script[ply], Seq: r.Seq})
	}
	time.Sleep(500 * time.Millisecond) // black thinks for a while before the crash
	before, err := GetRoom(ctx, base, id)
	require.NoError(t, err)
	require.NotNil(t, before.Clock, "timed room without a clock: %+v", before)
	require.Equal(t, "black", before.Clock.ToMove)
	node.Kill()
	killed := time.Now()
	leftAtKill := wstest.ClockLeft(before.Clock, "black", killed)
	time.Sleep(3 * time.Second)
	node.Restart()
	// GET before anyone rejoined: the room is not live yet, the snapshot is replayed.
	if early, err := GetRoom(ctx, base, id); err == nil && early.Clock != nil {
		t.Logf("GET before rejoin (replayed, room not live): black %v", wstest.ClockLeft(early.Clock, "black", time.Now()).Round(time.Millisecond))
	}
	require.NoError(t, ca.Reconnect(ctx))
	require.NoError(t, cb.Reconnect(ctx))
	after, err := GetRoom(ctx, base, id)
	require.NoError(t, err)
	require.NotNil(t, after.Clock)
	leftNow := wstest.ClockLeft(after.Clock, "black", time.Now())
	t.Logf("black's time: %v at the kill, %v after 3 s down, the restart and the rejoin (white %v -> %v)",
		leftAtKill.Round(time.Millisecond), leftNow.Round(time.Millisecond),
		wstest.ClockLeft(before.Clock, "white", killed).Round(time.Millisecond), wstest.ClockLeft(after.Clock, "white", time.Now()).Round(time.Millisecond))
	require.Greater(t, leftNow, leftAtKill-time.Second, "the side to move was charged for the downtime")
	require.LessOrEqual(t, after.Clock.WhiteMS, before.Clock.WhiteMS, "white gained time")

	// Play on to the end.
	StartPlay(ctx, []*Seat{{C: ca, Color: "black", Next: scripted(script), Ledger: ledger}, {C: cb, Color: "white", Next: scripted(script), Ledger: ledger}}, nil).Wait(t, ctx)
	snap := verifyRoom(t, ctx, base, id, ledger.get(id), true)
	require.Equal(t, script, snap.Moves)
	require.Equal(t, "five", snap.Reason)
}
