package room

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// drainPresence empties s's queue (all updates already queued) and returns its
// presence updates.
func drainPresence(t *testing.T, s *Subscription) []Presence {
	t.Helper()
	var out []Presence
	for {
		select {
		case u, ok := <-s.C:
			require.True(t, ok, "subscription closed: %v", s.Err())
			if u.Presence != nil {
				out = append(out, *u.Presence)
			}
		default:
			return out
		}
	}
}

// settle waits until r's actor has finished what it was doing (a round trip through
// it): a broadcast that one subscriber has seen has then reached every subscriber.
func settle(t *testing.T, r *Room) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(t, r.control(ctx, func() {}))
}

// nextPresence waits for the next presence update of s (skipping others).
func nextPresence(t *testing.T, s *Subscription) Presence {
	t.Helper()
	for {
		if u := next(t, s); u.Presence != nil {
			return *u.Presence
		}
	}
}

// TestPresenceSpectatorBurstCoalesced: a burst of spectators joining costs each
// subscriber O(1) presence updates (not one per join), the batched update carries the
// final count, and a seat disconnect is still reported at once.
func TestPresenceSpectatorBurstCoalesced(t *testing.T) {
	const n = 150
	e := newEnv(t, func(o *Options) { o.SubQueue = 4 * n; o.PresenceInterval = 300 * time.Millisecond })
	r := e.humans(nil)
	sa := e.sub(r, alice, r.State().Seq())
	sb := e.sub(r, bob, r.State().Seq())
	e.clock.Advance(time.Second)
	drainPresence(t, sa)
	drainPresence(t, sb)

	specs := make([]*Subscription, n)
	for i := range specs {
		specs[i] = e.sub(r, Player{ID: fmt.Sprintf("p_spec%d", i), Name: "S"}, r.State().Seq())
	}
	// Subscribe returns after the actor handled it: every update of the burst is queued.
	for _, s := range append([]*Subscription{sa, sb}, specs...) {
		got := drainPresence(t, s)
		assert.LessOrEqual(t, len(got), 2, "presence updates during the burst")
	}
	e.clock.Advance(300 * time.Millisecond) // the batch is flushed
	for _, s := range []*Subscription{sa, sb, specs[0], specs[n/2], specs[n-1]} {
		p := nextPresence(t, s)
		assert.Equal(t, n, p.Spectators, "the last presence carries the final count")
		assert.True(t, p.Black.Connected)
		assert.True(t, p.White.Connected)
	}
	assert.Equal(t, n, r.Presence().Spectators)

	// A seat disconnect is sent at once (no clock advance), with the current count.
	sb.Close()
	p := nextPresence(t, sa)
	assert.False(t, p.White.Connected)
	assert.True(t, p.Black.Connected)
	assert.Equal(t, n, p.Spectators)

	// Spectators leaving in a burst: again O(1) updates, final count delivered.
	for _, s := range specs[1:] {
		s.Close()
	}
	waitFor(t, "spectators gone", func() bool { return r.Presence().Spectators == 1 })
	e.clock.Advance(300 * time.Millisecond)
	var last Presence
	count := 0
	deadline := time.Now().Add(5 * time.Second)
	for last.Spectators != 1 || last.White.Connected {
		require.True(t, time.Now().Before(deadline), "final count not delivered: %+v", last)
		last = nextPresence(t, sa)
		count++
	}
	assert.LessOrEqual(t, count, 2, "presence updates while spectators left")
	// sa got the final count, but the actor may still be sending it to the others.
	settle(t, r)
	rest := drainPresence(t, specs[0]) // the seat change and the batched count
	require.NotEmpty(t, rest)
	assert.LessOrEqual(t, len(rest), 2)
	assert.Equal(t, 1, rest[len(rest)-1].Spectators)
}

// TestPresenceSingleSpectatorPrompt: an isolated spectator join is reported at once
// (the batch only delays changes that follow one within the interval).
func TestPresenceSingleSpectatorPrompt(t *testing.T) {
	e := newEnv(t, nil)
	r := e.humans(nil)
	sa := e.sub(r, alice, r.State().Seq())
	e.clock.Advance(time.Second)
	drainPresence(t, sa)
	s := e.sub(r, carol, r.State().Seq())
	assert.Equal(t, 1, nextPresence(t, s).Spectators, "joiner's own presence")
	assert.Equal(t, 1, nextPresence(t, sa).Spectators, "sent without waiting")
}
