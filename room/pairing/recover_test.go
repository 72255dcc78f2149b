package pairing

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
)

func TestRecovered(t *testing.T) {
	m := Match{Room: "r1", Pool: "freestyle-3+2-casual", Black: seeker("a", 1500), White: seeker("b", 1500)}
	for _, c := range []struct {
		name string
		room RoomSeats
		want Status
	}{
		{"no room", RoomSeats{}, StatusFailed},
		{"nobody seated", RoomSeats{Exists: true}, StatusFailed},
		{"black only", RoomSeats{Exists: true, Black: "a"}, StatusFailed},
		{"white only", RoomSeats{Exists: true, White: "b"}, StatusFailed},
		{"both seated", RoomSeats{Exists: true, Black: "a", White: "b"}, StatusSeated},
		{"colours swapped", RoomSeats{Exists: true, Black: "b", White: "a"}, StatusFailed},
		{"someone else", RoomSeats{Exists: true, Black: "a", White: "c"}, StatusFailed},
		{"both seated, game over", RoomSeats{Exists: true, Black: "a", White: "b", Over: true}, StatusFailed},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, Recovered(m, c.room))
		})
	}
}

// recoveryBackends are the Redis servers the recovery scripts are checked on:
// miniredis, and with GOMOKU_INTEGRATION=1 a real redis-server and a Cluster.
func recoveryBackends() map[string]func(testing.TB) redis.UniversalClient {
	out := map[string]func(testing.TB) redis.UniversalClient{
		"miniredis": func(t testing.TB) redis.UniversalClient {
			c := redis.NewClient(&redis.Options{Addr: miniredis.RunT(t).Addr()})
			t.Cleanup(func() { _ = c.Close() })
			return c
		},
	}
	if redistest.Enabled() {
		for _, tt := range redistest.Topologies() {
			out[tt.Name] = tt.Client
		}
	}
	return out
}

// A match is unsettled from the moment it is made until its final outcome: Unsettled
// lists it once it is RecoverAfter old; a claimed failure keeps it listed, pending
// for its players (heartbeat matched, a new seek refused) and told to nobody, and
// "seated" can no longer be recorded; the failure then settles it.
func TestUnsettledAndClaims(t *testing.T) {
	for name, open := range recoveryBackends() {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			n := 0
			s := NewStore(open(t), DefaultRules, func() (string, bool) { n++; return fmt.Sprint("room", n), true })
			got := make(chan Status, 4)
			require.NoError(t, s.Subscribe(ctx, func(st Status, _ Match) { got <- st }))
			m := matched(t, s)

			ms, err := s.Unsettled(ctx, t0.Add(s.RecoverAfter-time.Millisecond), 10)
			require.NoError(t, err)
			require.Empty(t, ms, "younger than RecoverAfter")
			ms, err = s.Unsettled(ctx, t0.Add(s.RecoverAfter), 10)
			require.NoError(t, err)
			require.Equal(t, []Match{m}, ms)
			late := t0.Add(30 * time.Second)
			open, err := s.Seating(ctx, m, late)
			require.NoError(t, err)
			require.True(t, open)
			ms, err = s.Unsettled(ctx, late.Add(s.RecoverAfter-time.Millisecond), 10)
			require.NoError(t, err)
			require.Empty(t, ms, "a seating that starts late has RecoverAfter from its start")
			ms, err = s.Unsettled(ctx, late.Add(s.RecoverAfter), 10)
			require.NoError(t, err)
			require.Equal(t, []Match{m}, ms)

			for range 2 {
				st, err := s.Settle(ctx, m, StatusFailing)
				require.NoError(t, err)
				require.Equal(t, StatusFailing, st)
			}
			st, err := s.Settle(ctx, m, StatusSeated)
			require.NoError(t, err)
			require.Equal(t, StatusFailing, st, "once a failure is claimed nobody is seated")
			st, _, err = heartbeat(ctx, s, "a", "ta")
			require.NoError(t, err)
			require.Equal(t, StatusMatched, st, "a claimed failure is still pending")
			st, _, err = s.Cancel(ctx, "b", "tb")
			require.NoError(t, err)
			require.Equal(t, StatusMatched, st)
			pool, _ := NewPool("freestyle", "3+2", false)
			_, err = s.Seek(ctx, pool, seeker("a", 1500), "ta2", t0)
			require.ErrorIs(t, err, ErrPending)
			ms, err = s.Unsettled(ctx, t0.Add(time.Hour), 10)
			require.NoError(t, err)
			require.Equal(t, []Match{m}, ms, "a claim is no outcome")
			select {
			case st := <-got:
				require.Fail(t, "a claim is told to nobody", "%s", st)
			case <-time.After(50 * time.Millisecond):
			}

			st, err = s.Settle(ctx, m, StatusFailed)
			require.NoError(t, err)
			require.Equal(t, StatusFailed, st)
			select {
			case st := <-got:
				require.Equal(t, StatusFailed, st)
			case <-time.After(5 * time.Second):
				require.Fail(t, "no outcome published")
			}
			ms, err = s.Unsettled(ctx, t0.Add(time.Hour), 10)
			require.NoError(t, err)
			require.Empty(t, ms, "settled")
			open, err = s.Seating(ctx, m, late)
			require.NoError(t, err)
			require.False(t, open, "a settled match is not seated")
			st, _, err = heartbeat(ctx, s, "a", "ta")
			require.NoError(t, err)
			require.Equal(t, StatusFailed, st)

			// A seated match leaves the index too; the sweep indexes what it pairs.
			_, err = s.Seek(ctx, pool, seeker("c", 1500), "tc", t0)
			require.NoError(t, err)
			_, err = s.Seek(ctx, pool, seeker("d", 1900), "td", t0)
			require.NoError(t, err)
			swept, err := s.Sweep(ctx, t0.Add(time.Minute), 4)
			require.NoError(t, err)
			require.Len(t, swept, 1)
			ms, err = s.Unsettled(ctx, t0.Add(time.Minute+s.RecoverAfter), 10)
			require.NoError(t, err)
			require.Equal(t, swept, ms)
			st, err = s.Settle(ctx, swept[0], StatusSeated)
			require.NoError(t, err)
			require.Equal(t, StatusSeated, st)
			ms, err = s.Unsettled(ctx, t0.Add(time.Hour), 10)
			require.NoError(t, err)
			require.Empty(t, ms)
		})
	}
}
