package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/gomoku-arena/gomoku/room/protocol"
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

func TestPlayersStore(t *testing.T) {
	mr := miniredis.RunT(t)
	rc := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	t.Cleanup(func() { _ = rc.Close() })
	ps := NewRedisPlayers(rc)
	ctx := context.Background()
	p, token, err := register(ctx, ps, " Alice ", "test-agent")
	require.NoError(t, err)
	require.Equal(t, "Alice", p.Name)
	require.True(t, strings.HasPrefix(p.ID, "p_"))
	require.GreaterOrEqual(t, len(token), 32) // 192 bits in base64url
	got, err := authenticate(ctx, ps, token)
	require.NoError(t, err)
	require.Equal(t, p.ID, got.ID)
	require.False(t, got.IsAccount())
	_, err = authenticate(ctx, ps, token+"x")
	require.Equal(t, protocol.CodeUnauthorized, protocol.Code(err))
	none, err := authenticate(ctx, ps, "")
	require.NoError(t, err)
	require.Nil(t, none)
	_, _, err = register(ctx, ps, "", "")
	require.Equal(t, protocol.CodeBadRequest, protocol.Code(err))

	renamed, err := rename(ctx, ps, *got, " Alice  B ")
	require.NoError(t, err)
	require.Equal(t, "Alice B", renamed.Name)
	again, err := authenticate(ctx, ps, token)
	require.NoError(t, err)
	require.Equal(t, p.ID, again.ID)
	require.Equal(t, "Alice B", again.Name)
	require.Equal(t, p.TokenHash, again.TokenHash)
	byID, err := ps.ByID(ctx, p.ID)
	require.NoError(t, err)
	require.Equal(t, "Alice B", byID.Name)
	require.Empty(t, byID.TokenHash)
	_, err = rename(ctx, ps, *got, "")
	require.Equal(t, protocol.CodeBadRequest, protocol.Code(err))
	gone := Player{ID: "p_x", Name: "X", TokenHash: HashToken("never registered")}
	_, err = rename(ctx, ps, gone, "Y")
	require.Equal(t, protocol.CodeUnauthorized, protocol.Code(err))
	require.ErrorIs(t, ps.Rename(ctx, gone.ID, "Y"), ErrNoSuchPlayer)
	_, err = ps.ByID(ctx, gone.ID)
	require.ErrorIs(t, err, ErrNoSuchPlayer, "a rename does not create a player")

	// The raw token is never stored.
	for _, k := range mr.Keys() {
		require.NotContains(t, k, token)
		if mr.Type(k) != "hash" {
			continue
		}
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
	lb := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}
	for _, tc := range []struct {
		name    string
		trusted []netip.Prefix
		peer    string
		xff     []string // X-Forwarded-For header lines
		want    string
	}{
		{"no proxies: the peer", nil, "203.0.113.5:5555", nil, "203.0.113.5"},
		{"no proxies: XFF ignored", nil, "203.0.113.5:5555", []string{"1.2.3.4"}, "203.0.113.5"},
		{"no proxies: private peer, XFF still ignored", nil, "10.0.0.1:5555", []string{"1.2.3.4"}, "10.0.0.1"},
		{"via the proxy", lb, "10.0.0.1:5555", []string{"198.51.100.7"}, "198.51.100.7"},
		{"via the proxy, no header", lb, "10.0.0.1:5555", nil, "10.0.0.1"},
		{"forged entry left of the real one", lb, "10.0.0.1:5555", []string{"1.2.3.4, 198.51.100.7"}, "198.51.100.7"},
		{"forged trusted-looking entry", lb, "10.0.0.1:5555", []string{"10.9.9.9, 198.51.100.7"}, "198.51.100.7"},
		{"forged header line", lb, "10.0.0.1:5555", []string{"1.2.3.4", "198.51.100.7"}, "198.51.100.7"},
		{"two proxies", lb, "10.0.0.1:5555", []string{"198.51.100.7, 10.0.0.2"}, "198.51.100.7"},
		{"direct client forges XFF", lb, "203.0.113.5:5555", []string{"1.2.3.4"}, "203.0.113.5"},
		{"direct client forges a proxy", lb, "203.0.113.5:5555", []string{"10.0.0.3"}, "203.0.113.5"},
		{"garbage entry", lb, "10.0.0.1:5555", []string{"1.2.3.4, not-an-ip"}, "10.0.0.1"},
		{"loopback not trusted unless listed", lb, "127.0.0.1:5555", []string{"1.2.3.4"}, "127.0.0.1"},
		{"IPv6 proxy", lb, "[fd00::1]:5555", []string{"2001:db8::7"}, "2001:db8::7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tc.peer
			for _, v := range tc.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			require.Equal(t, tc.want, ipExtractor(tc.trusted)(r))
		})
	}
}

func TestParseTrustedProxies(t *testing.T) {
	got, err := ParseTrustedProxies(" 10.0.0.0/8, 192.168.1.7 ,fd00::/8,10.1.2.3/16,")
	require.NoError(t, err)
	require.Equal(t, []netip.Prefix{
		netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.168.1.7/32"),
		netip.MustParsePrefix("fd00::/8"), netip.MustParsePrefix("10.1.0.0/16"),
	}, got)
	got, err = ParseTrustedProxies("")
	require.NoError(t, err)
	require.Empty(t, got)
	for _, bad := range []string{"10.0.0.0/33", "example.com", "10.0.0", "*"} {
		_, err := ParseTrustedProxies(bad)
		require.Error(t, err, bad)
	}
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
