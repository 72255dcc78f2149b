package crashtest

import (
	"context"
	"sync"
	"testing"

	"github.com/gomoku-arena/gomoku/server/wstest"
	"github.com/stretchr/testify/require"
)

// Play is a set of seats playing their games and watchers following theirs, each in
// its own goroutine, as every scenario of this package runs them while it kills
// nodes or Redis.
type Play struct {
	seats []*Seat
	done  chan struct{}
	errs  chan error
}

// StartPlay starts every seat (Seat.Run) and every watcher (Follow).
func StartPlay(ctx context.Context, seats []*Seat, watchers []*wstest.Client) *Play {
	p := &Play{seats: seats, done: make(chan struct{}), errs: make(chan error, len(seats)+len(watchers))}
	var wg sync.WaitGroup
	for _, s := range seats {
		wg.Add(1)
		go func(s *Seat) { defer wg.Done(); p.errs <- s.Run(ctx) }(s)
	}
	for _, c := range watchers {
		wg.Add(1)
		go func(c *wstest.Client) { defer wg.Done(); p.errs <- Follow(ctx, c) }(c)
	}
	go func() { wg.Wait(); close(p.errs); close(p.done) }()
	return p
}

// Done is closed when every seat and watcher has returned.
func (p *Play) Done() <-chan struct{} { return p.done }

// Wait waits until every seat and watcher has returned and requires that none failed.
// If ctx ends first it logs each seat's view and fails the test with msgAndArgs.
func (p *Play) Wait(t *testing.T, ctx context.Context, msgAndArgs ...any) {
	t.Helper()
	select {
	case <-p.done:
	case <-ctx.Done():
		for _, s := range p.seats {
			v := s.C.View()
			t.Logf("room %s %s via %s: alive=%v phase=%q moves=%d last_seq=%d",
				s.C.Room, s.Color, s.C.BaseURL(), v.Alive, v.Phase, len(v.Moves), v.LastSeq)
		}
		if len(msgAndArgs) == 0 {
			msgAndArgs = []any{"games did not finish"}
		}
		require.FailNow(t, "games did not finish before the deadline", msgAndArgs...)
	}
	for err := range p.errs {
		require.NoError(t, err)
	}
}
