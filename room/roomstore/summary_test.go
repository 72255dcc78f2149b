package roomstore

import (
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/eventlog"
)

// TestSummaryWrittenOnChangeOrEvery: an append that changes only the ply leaves the
// stored summary and lobby score alone for up to SummaryEvery; any other change of the
// summary, another writer in between, or a failed write makes the next append write
// it in full. Events and seq are always stored.
func TestSummaryWrittenOnChangeOrEvery(t *testing.T) {
	f := newFixture(t)
	newStore := func() *Store {
		c := redis.NewClient(&redis.Options{Addr: f.MR.Addr(), MaxRetries: -1})
		t.Cleanup(func() { _ = c.Close() })
		return New(eventlog.New(c), WithSummaryEvery(5*time.Second))
	}
	st, other := newStore(), newStore()
	const id = "sumroom"
	sum := room.Summary{ID: id, Status: "live", Public: true, Rule: "freestyle", Size: 15, Game: 1,
		Black: room.SeatSummary{Kind: room.Human, PlayerID: alice.ID, Name: alice.Name},
		White: room.SeatSummary{Kind: room.Human, PlayerID: bob.ID, Name: bob.Name},
		Seq:   1, CreatedAt: t0.UnixMilli(), UpdatedAt: t0.UnixMilli()}
	require.NoError(t, st.Create(f.Ctx, id, room.Event{Seq: 1, Kind: room.EvCreated, At: t0.UnixMilli(), Game: 1, Room: id}, sum))
	seq := uint64(1)
	ply := 0

	tests := []struct {
		name     string
		at       time.Duration // since t0
		change   func(*room.Summary)
		by       *Store
		fail     bool
		wantPly  int // the stored summary's ply afterwards
		wantLive int64
	}{
		{name: "a move: summary kept", at: time.Second, wantPly: 0, wantLive: 0},
		{name: "another move: kept", at: 2 * time.Second, wantPly: 0, wantLive: 0},
		{name: "a move SummaryEvery after the last write: written", at: 5 * time.Second, wantPly: 3, wantLive: 5000},
		{name: "a move: kept", at: 6 * time.Second, wantPly: 3, wantLive: 5000},
		{name: "seat change: written at once", at: 7 * time.Second, change: func(s *room.Summary) { s.White.Name = "Bobby" }, wantPly: 5, wantLive: 7000},
		{name: "another node writes", at: 8 * time.Second, by: other, wantPly: 6, wantLive: 8000},
		{name: "first write after another node's: written", at: 8500 * time.Millisecond, wantPly: 7, wantLive: 8500},
		{name: "a failed write", at: 9 * time.Second, fail: true, wantPly: 7, wantLive: 8500},
		{name: "after a failure: written", at: 9500 * time.Millisecond, wantPly: 8, wantLive: 9500},
		{name: "game over: written at once", at: 10 * time.Second, change: func(s *room.Summary) { s.Status, s.Result = "finished", "black" }, wantPly: 9},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			by := st
			if tc.by != nil {
				by = tc.by
			}
			at := t0.Add(tc.at).UnixMilli()
			if tc.change != nil {
				tc.change(&sum)
			}
			sum.Ply, sum.Seq, sum.UpdatedAt = ply+1, seq+1, at
			ev := room.Event{Seq: seq + 1, Kind: room.EvMove, At: at, Game: 1, Color: "black", Point: "h8", Ply: ply}
			if tc.fail {
				f.MR.SetError("LOADING fake outage")
			}
			err := by.Append(f.Ctx, id, seq, []room.Event{ev}, sum)
			f.MR.SetError("")
			if tc.fail {
				require.Error(t, err)
			} else {
				require.NoError(t, err)
				seq, ply = seq+1, ply+1
			}
			evs, err := st.Events(f.Ctx, id, 1)
			require.NoError(t, err)
			assert.Len(t, evs, int(seq), "every event stored")
			got, err := st.Summary(f.Ctx, id)
			require.NoError(t, err)
			assert.Equal(t, tc.wantPly, got.Ply)
			if sum.Status == "finished" {
				assert.Equal(t, "finished", got.Status)
				assert.Equal(t, "black", got.Result)
				_, err := f.MR.ZScore(eventlog.KeyLobbyLive, id)
				assert.Error(t, err, "left the live lobby")
				return
			}
			score, err := f.MR.ZScore(eventlog.KeyLobbyLive, id)
			require.NoError(t, err)
			assert.Equal(t, float64(t0.UnixMilli()+tc.wantLive), score, "lobby score")
		})
	}
}
