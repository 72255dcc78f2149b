package room

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// noLeak fails the test when goroutines started during it are still running at its end
// (after every other cleanup).
func noLeak(t *testing.T) {
	t.Helper()
	base := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(3 * time.Second)
		for runtime.NumGoroutine() > base {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<20)
				n := runtime.Stack(buf, true)
				t.Errorf("goroutine leak: %d > %d\n%s", runtime.NumGoroutine(), base, roomStacks(string(buf[:n])))
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

func roomStacks(all string) string {
	var out []string
	for _, g := range strings.Split(all, "\n\n") {
		if strings.Contains(g, "gomoku/room") && !strings.Contains(g, "testing.tRunner") {
			out = append(out, g)
		}
	}
	return strings.Join(out, "\n\n")
}

type env struct {
	t     *testing.T
	clock *FakeClock
	store *faultStore
	m     *Manager
	ctx   context.Context
}

// newEnv returns a manager on a MemStore with a fake clock; everything is shut down
// and checked for leaks at the end of the test.
func newEnv(t *testing.T, mod func(*Options)) *env {
	noLeak(t)
	e := &env{t: t, clock: NewFakeClock(t0), store: newFaultStore(), ctx: context.Background()}
	opts := Options{Clock: e.clock, Players: stubPlayers(nil)}
	if mod != nil {
		mod(&opts)
	}
	e.m = NewManager(e.store, opts)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		require.NoError(t, e.m.Shutdown(ctx))
	})
	return e
}

// humans creates a room with Alice at black and Bob at white.
func (e *env) humans(mod func(*Settings)) *Room {
	set := DefaultSettings()
	if mod != nil {
		mod(&set)
	}
	r, err := e.m.Create(e.ctx, CreateRequest{Settings: set, Creator: &alice, Color: "black"})
	require.NoError(e.t, err)
	e.do(r, Command{Kind: CmdSit, By: bob, Color: "white"})
	return r
}

func (e *env) do(r *Room, c Command) Reply {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(e.ctx, 5*time.Second)
	defer cancel()
	rep, err := r.Do(ctx, c)
	require.NoError(e.t, err, "%s", c.Kind)
	return rep
}

func (e *env) move(r *Room, by Player, ply int, p string) Reply {
	e.t.Helper()
	return e.do(r, Command{Kind: CmdMove, By: by, Ply: ply, Point: p})
}

func (e *env) sub(r *Room, viewer Player, from uint64) *Subscription {
	e.t.Helper()
	s, err := r.Subscribe(e.ctx, SubscribeOptions{Viewer: viewer, FromSeq: from})
	require.NoError(e.t, err)
	e.t.Cleanup(s.Close)
	return s
}

// next returns the next update of s (failing after 5 s).
func next(t *testing.T, s *Subscription) Update {
	t.Helper()
	select {
	case u, ok := <-s.C:
		require.True(t, ok, "subscription closed: %v", s.Err())
		return *u
	case <-time.After(5 * time.Second):
		t.Fatal("no update within 5 s")
	}
	return Update{}
}

// nextEvent skips ephemeral updates and returns the next persisted event.
func nextEvent(t *testing.T, s *Subscription) Event {
	t.Helper()
	for {
		u := next(t, s)
		if u.Event != nil {
			return *u.Event
		}
	}
}

// waitEvent skips updates until an event of kind k arrives.
func waitEvent(t *testing.T, s *Subscription, k EventKind) Event {
	t.Helper()
	for {
		if e := nextEvent(t, s); e.Kind == k {
			return e
		}
	}
}

// waitFor polls cond for up to 5 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
