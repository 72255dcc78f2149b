package pairing

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// matched pairs a and b in pool freestyle 3+2 (a black) and returns the match.
func matched(t *testing.T, s *Store) Match {
	t.Helper()
	ctx := context.Background()
	pool, _ := NewPool("freestyle", "3+2", false)
	_, err := s.Seek(ctx, pool, seeker("a", 1500), "ta", t0)
	require.NoError(t, err)
	m, err := s.Seek(ctx, pool, seeker("b", 1500), "tb", t0)
	require.NoError(t, err)
	require.NotNil(t, m)
	return *m
}

// The outcome of a match's seating is recorded once, reaches every node (channel) and
// every later heartbeat or cancel of both seeks; the first outcome wins.
func TestSettle(t *testing.T) {
	for _, c := range []struct {
		name    string
		first   Status
		then    Status
		expired bool // b's seek ran out before the outcome
		want    Status
	}{
		{"seated", StatusSeated, StatusFailed, false, StatusSeated},
		{"failed", StatusFailed, StatusSeated, false, StatusFailed},
		{"a side ran out: the failure is claimed, then failed", StatusSeated, StatusSeated, true, StatusFailed},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s, mr := newTestStore(t)
			type settled struct {
				st Status
				m  Match
			}
			got := make(chan settled, 4)
			require.NoError(t, s.Subscribe(ctx, func(st Status, m Match) { got <- settled{st, m} }))
			m := matched(t, s)
			for _, o := range []Owned{{"a", "ta"}, {"b", "tb"}} {
				st, _, err := heartbeat(ctx, s, o.Player, o.Nonce)
				require.NoError(t, err)
				require.Equal(t, StatusMatched, st, "being seated")
			}
			if c.expired {
				mr.Del(KeySeekPrefix + "b")
			}
			st, err := s.Settle(ctx, m, c.first)
			require.NoError(t, err)
			if c.expired {
				require.Equal(t, StatusFailing, st, "seated opposite a seek that ran out: a failure is claimed")
				select {
				case g := <-got:
					require.Fail(t, "a claimed failure is told to nobody", "%v", g)
				case <-time.After(50 * time.Millisecond):
				}
				st, err = s.Settle(ctx, m, StatusFailed)
				require.NoError(t, err)
			}
			require.Equal(t, c.want, st)
			select {
			case g := <-got:
				require.Equal(t, settled{c.want, m}, g, "published to every node")
			case <-time.After(5 * time.Second):
				require.Fail(t, "no outcome published")
			}
			st, err = s.Settle(ctx, m, c.then)
			require.NoError(t, err)
			require.Equal(t, c.want, st, "the first outcome wins")
			owned := []Owned{{"a", "ta"}, {"b", "tb"}}
			if c.expired {
				owned = owned[:1]
			}
			for _, o := range owned {
				st, got, err := heartbeat(ctx, s, o.Player, o.Nonce)
				require.NoError(t, err)
				require.Equal(t, c.want, st)
				require.Equal(t, m, *got)
				st, got, err = s.Cancel(ctx, o.Player, o.Nonce)
				require.NoError(t, err)
				require.Equal(t, c.want, st)
				require.Equal(t, m, *got)
			}
			_, err = s.Settle(ctx, m, StatusMatched)
			require.Error(t, err, "an outcome is seated or failed")
		})
	}
}

// A player whose seek is matched cannot seek again until the match is settled: the
// new seek changes nothing and returns ErrPending with the match; afterwards it
// replaces the settled one.
func TestSeekWhileMatchPending(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestStore(t)
	m := matched(t, s)
	other, _ := NewPool("renju", "5+3", false)
	got, err := s.Seek(ctx, other, seeker("a", 1500), "another-tab", t0)
	require.ErrorIs(t, err, ErrPending)
	require.Equal(t, m, *got)
	st, _, err := heartbeat(ctx, s, "a", "ta")
	require.NoError(t, err)
	require.Equal(t, StatusMatched, st, "the matched seek is untouched")

	_, err = s.Settle(ctx, m, StatusSeated)
	require.NoError(t, err)
	got, err = s.Seek(ctx, other, seeker("a", 1500), "another-tab", t0)
	require.NoError(t, err)
	require.Nil(t, got)
	n, err := s.Waiting(ctx, other)
	require.NoError(t, err)
	require.Equal(t, int64(1), n)
}
