package server

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestLoginRuleDelay(t *testing.T) {
	r := LoginRule{Free: 3, Base: time.Second, Max: 10 * time.Second}
	for _, tc := range []struct {
		n    int
		want time.Duration
	}{
		{1, 0}, {3, 0}, {4, time.Second}, {5, 2 * time.Second}, {6, 4 * time.Second},
		{7, 8 * time.Second}, {8, 10 * time.Second}, {50, 10 * time.Second},
	} {
		require.Equal(t, tc.want, r.delay(tc.n), "attempt %d", tc.n)
	}
	require.Equal(t, []any{int64(1000), int64(2000), int64(4000), int64(8000), int64(10000)}, r.delays())
}

// TestLoginLimiter plays sequences of attempts against a fake clock: each step
// advances the clock, attempts, and expects the wait the limiter answers.
func TestLoginLimiter(t *testing.T) {
	type step struct {
		advance  time.Duration
		user, ip string
		wait     time.Duration // 0: allowed
		success  bool          // then report a success
	}
	acct := LoginRule{Free: 2, Base: time.Second, Max: 4 * time.Second, Forget: time.Hour}
	addr := LoginRule{Free: 4, Base: 10 * time.Second, Max: time.Minute, Forget: time.Hour}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"free tries, then growing delays, capped", []step{
			{0, "bob", "1.1.1.1", 0, false},
			{0, "bob", "2.2.2.2", 0, false},
			{0, "bob", "3.3.3.3", 0, false}, // third: allowed, locks 1 s
			{500 * time.Millisecond, "bob", "4.4.4.4", 500 * time.Millisecond, false},
			{500 * time.Millisecond, "bob", "4.4.4.4", 0, false}, // fourth: locks 2 s
			{time.Second, "BOB", "5.5.5.5", time.Second, false},  // case-insensitive
			{time.Second, "bob", "5.5.5.5", 0, false},            // fifth: locks 4 s
			{4 * time.Second, "bob", "6.6.6.6", 0, false},        // sixth: locks 4 s (cap)
			{3 * time.Second, "bob", "6.6.6.6", time.Second, false},
		}},
		{"a success clears the account", []step{
			{0, "amy", "1.1.1.1", 0, false},
			{0, "amy", "1.1.1.1", 0, true},
			{0, "amy", "1.1.1.1", 0, false},
			{0, "amy", "1.1.1.1", 0, false},
		}},
		{"one address across accounts hits the address limit", []step{
			{0, "u1", "9.9.9.9", 0, false},
			{0, "u2", "9.9.9.9", 0, false},
			{0, "u3", "9.9.9.9", 0, false},
			{0, "u4", "9.9.9.9", 0, true},
			{0, "u5", "9.9.9.9", 0, false}, // fifth from the address: allowed, locks 10 s
			{time.Second, "u6", "9.9.9.9", 9 * time.Second, false},
			{0, "u6", "8.8.8.8", 0, false}, // another address is not affected
		}},
		{"counts fade after Forget", []step{
			{0, "cy", "1.1.1.1", 0, false},
			{0, "cy", "1.1.1.1", 0, false},
			{0, "cy", "1.1.1.1", 0, false},
			{2 * time.Hour, "cy", "1.1.1.1", 0, false},
			{0, "cy", "1.1.1.1", 0, false},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mr, ps := newTestPlayers(t)
			now := time.UnixMilli(1_700_000_000_000)
			l := NewLoginLimiter(ps.c, func() time.Time { return now })
			l.account, l.addr = acct, addr
			ctx := context.Background()
			for i, s := range tc.steps {
				now = now.Add(s.advance)
				mr.FastForward(s.advance) // key expiry follows the same clock
				wait, err := l.attempt(ctx, s.user, s.ip)
				require.NoError(t, err)
				require.Equal(t, s.wait, wait, "step %d", i)
				if s.success {
					l.succeeded(ctx, s.user)
				}
			}
		})
	}
}
