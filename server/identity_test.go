package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"
)

func TestCleanName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Alice", "Alice"}, {"  Bob   the   Builder ", "Bob the Builder"}, {"李雷", "李雷"},
		{"", ""}, {"   ", ""}, {strings.Repeat("x", 25), ""}, {"a\x00b", ""}, {"\xff", ""},
	}
	for _, tc := range tests {
		got, err := CleanName(tc.in)
		if tc.want == "" {
			require.Error(t, err, tc.in)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, tc.want, got)
	}
}

func TestPlayersStores(t *testing.T) {
	mr := miniredis.RunT(t)
	rc := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	t.Cleanup(func() { _ = rc.Close() })
	for name, ps := range map[string]Players{"mem": NewMemPlayers(), "redis": NewRedisPlayers(rc)} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			p, token, err := register(ctx, ps, " Alice ")
			require.NoError(t, err)
			require.Equal(t, "Alice", p.Name)
			require.True(t, strings.HasPrefix(p.ID, "p_"))
			require.GreaterOrEqual(t, len(token), 32) // 192 bits in base64url
			got, err := authenticate(ctx, ps, token)
			require.NoError(t, err)
			require.Equal(t, p.ID, got.ID)
			_, err = authenticate(ctx, ps, token+"x")
			require.Equal(t, CodeUnauthorized, AsError(err).Code)
			none, err := authenticate(ctx, ps, "")
			require.NoError(t, err)
			require.Nil(t, none)
			_, _, err = register(ctx, ps, "")
			require.Equal(t, CodeBadRequest, AsError(err).Code)
		})
	}
	// The raw token is never stored.
	_, token, err := register(context.Background(), NewRedisPlayers(rc), "Bob")
	require.NoError(t, err)
	for _, k := range mr.Keys() {
		require.NotContains(t, k, token)
		fields, _ := mr.HKeys(k)
		for _, v := range fields {
			require.NotContains(t, mr.HGet(k, v), token)
		}
	}
}

func TestTokensDiffer(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		tok, hash, id := newToken()
		require.False(t, seen[tok])
		seen[tok] = true
		require.Len(t, hash, 64)
		require.NotContains(t, id, tok)
	}
}

func TestOriginChecker(t *testing.T) {
	oc := newOriginChecker([]string{"https://gomoku.example/", " http://localhost:3000"})
	tests := []struct {
		origin, host string
		ok           bool
	}{
		{"", "x", true},
		{"https://gomoku.example", "node1:8080", true},
		{"http://localhost:3000", "node1:8080", true},
		{"http://node1:8080", "node1:8080", true},
		{"https://evil.example", "node1:8080", false},
		{"null", "node1:8080", false},
	}
	for _, tc := range tests {
		r := httptest.NewRequest("GET", "/ws/rooms/x", nil)
		r.Host = tc.host
		if tc.origin != "" {
			r.Header.Set("Origin", tc.origin)
		}
		require.Equal(t, tc.ok, oc.check(r), tc.origin)
	}
	require.True(t, newOriginChecker([]string{"*"}).check(func() *httptestReq {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Origin", "https://any.example")
		return r
	}()))
}

type httptestReq = http.Request

func TestIPLimiter(t *testing.T) {
	l := newIPLimiter(2)
	require.True(t, l.acquire("a"))
	require.True(t, l.acquire("a"))
	require.False(t, l.acquire("a"))
	require.True(t, l.acquire("b"))
	l.release("a")
	require.True(t, l.acquire("a"))
	unlimited := newIPLimiter(0)
	for i := 0; i < 100; i++ {
		require.True(t, unlimited.acquire("a"))
	}
}

func TestClientIP(t *testing.T) {
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "10.0.0.1:5555"
	r.Header.Set("X-Forwarded-For", "1.2.3.4, 10.0.0.9")
	require.Equal(t, "10.0.0.1", clientIP(r, false))
	require.Equal(t, "1.2.3.4", clientIP(r, true))
}

func TestConfigValidate(t *testing.T) {
	c := DefaultConfig()
	require.NoError(t, c.Validate())
	c.RateLimit = 0
	require.Error(t, c.Validate())
	c = DefaultConfig()
	c.Engines = map[string]string{"Bad Name": "x"}
	require.Error(t, c.Validate())
	name, cmd, err := ParseEngine("pela=/opt/pela -x 1,2")
	require.NoError(t, err)
	require.Equal(t, "pela", name)
	require.Equal(t, "/opt/pela -x 1,2", cmd)
	_, _, err = ParseEngine("nocommand=")
	require.Error(t, err)
}
