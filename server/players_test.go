package server

import (
	"context"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/migrations"
)

func newTestPlayers(t *testing.T) (*miniredis.Miniredis, redisPlayers) {
	t.Helper()
	mr := miniredis.RunT(t)
	rc := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	t.Cleanup(func() { _ = rc.Close() })
	return mr, NewRedisPlayers(rc).(redisPlayers)
}

func TestPlayerSessions(t *testing.T) {
	mr, ps := newTestPlayers(t)
	ctx := context.Background()
	now := time.UnixMilli(1_700_000_000_000)
	ps.now = func() time.Time { return now }
	p := Player{ID: "p_a", Name: "A"}
	require.NoError(t, ps.Create(ctx, p, PlayerSession{Hash: "h1", UserAgent: "one"}))
	now = now.Add(time.Second)
	require.NoError(t, ps.AddSession(ctx, p.ID, PlayerSession{Hash: "h2", UserAgent: "two"}))
	require.ErrorIs(t, ps.AddSession(ctx, "p_none", PlayerSession{Hash: "h3"}), ErrNoSuchPlayer)
	_, err := ps.ByHash(ctx, "h3")
	require.ErrorIs(t, err, ErrNoSuchSession, "no session for a missing player")

	l, err := ps.Sessions(ctx, p.ID)
	require.NoError(t, err)
	require.Len(t, l, 2)
	require.Equal(t, "h1", l[0].Hash)
	require.Equal(t, "one", l[0].UserAgent)
	require.Equal(t, "h2", l[1].Hash)
	require.NotEqual(t, l[0].PublicID(), l[1].PublicID())
	require.NotContains(t, l[0].PublicID(), "h1")

	// A use more than touchEvery later is recorded.
	now = now.Add(2 * touchEvery)
	got, err := ps.ByHash(ctx, "h2")
	require.NoError(t, err)
	require.Equal(t, "h2", got.TokenHash)
	l, err = ps.Sessions(ctx, p.ID)
	require.NoError(t, err)
	require.Equal(t, now.UnixMilli(), l[1].LastUsed.UnixMilli())

	// Revoking another player's session does nothing.
	require.NoError(t, ps.Create(ctx, Player{ID: "p_b", Name: "B"}, PlayerSession{Hash: "hb"}))
	require.NoError(t, ps.Revoke(ctx, p.ID, "hb"))
	_, err = ps.ByHash(ctx, "hb")
	require.NoError(t, err)

	require.NoError(t, ps.Revoke(ctx, p.ID, "h1"))
	_, err = ps.ByHash(ctx, "h1")
	require.ErrorIs(t, err, ErrNoSuchSession)
	l, err = ps.Sessions(ctx, p.ID)
	require.NoError(t, err)
	require.Len(t, l, 1)

	// An expired session key disappears from the list too.
	mr.Del(sessionKey("h2"))
	l, err = ps.Sessions(ctx, p.ID)
	require.NoError(t, err)
	require.Empty(t, l)
	require.False(t, mr.Exists(playerSessionsKey(p.ID)), "the index is tidied")
}

func TestClaimAndCredentials(t *testing.T) {
	mr, ps := newTestPlayers(t)
	ctx := context.Background()
	require.NoError(t, ps.Create(ctx, Player{ID: "p_a", Name: "A"}, PlayerSession{Hash: "ha"}))
	require.NoError(t, ps.Create(ctx, Player{ID: "p_b", Name: "B"}, PlayerSession{Hash: "hb"}))
	require.Greater(t, mr.TTL(playerKey("p_a")), time.Duration(0), "a guest expires")

	_, _, err := ps.Credentials(ctx, "alice")
	require.ErrorIs(t, err, ErrNoSuchPlayer)
	require.NoError(t, ps.Claim(ctx, "p_a", "Alice", "pw-a"))
	require.Equal(t, time.Duration(0), mr.TTL(playerKey("p_a")), "an account does not expire")
	id, pw, err := ps.Credentials(ctx, "ALICE")
	require.NoError(t, err)
	require.Equal(t, "p_a", id)
	require.Equal(t, "pw-a", pw)
	p, err := ps.ByHash(ctx, "ha")
	require.NoError(t, err)
	require.True(t, p.IsAccount())
	require.Equal(t, "Alice", p.Username)
	require.Equal(t, "A", p.Name)

	require.ErrorIs(t, ps.Claim(ctx, "p_b", "aLiCe", "pw-b"), ErrUsernameTaken)
	require.ErrorIs(t, ps.Claim(ctx, "p_a", "other", "pw"), ErrAlreadyAccount)
	require.False(t, mr.Exists(usernameKey("other")), "a refused claim leaves no reservation")
	require.ErrorIs(t, ps.Claim(ctx, "p_none", "ghost", "pw"), ErrNoSuchPlayer)
	require.False(t, mr.Exists(usernameKey("ghost")))
	b, err := ps.ByID(ctx, "p_b")
	require.NoError(t, err)
	require.False(t, b.IsAccount(), "nothing changed on error")

	// A reservation whose claim died half-way is neither a login nor a block.
	require.NoError(t, mr.Set(usernameKey("bob"), "p_gone"))
	_, _, err = ps.Credentials(ctx, "bob")
	require.ErrorIs(t, err, ErrNoSuchPlayer)
	require.NoError(t, ps.Claim(ctx, "p_b", "Bob", "pw-b"))
	id, _, err = ps.Credentials(ctx, "bob")
	require.NoError(t, err)
	require.Equal(t, "p_b", id)

	require.NoError(t, ps.SetPassword(ctx, "p_b", "pw-b2"))
	_, pw, err = ps.Credentials(ctx, "Bob")
	require.NoError(t, err)
	require.Equal(t, "pw-b2", pw)
	require.NoError(t, ps.Create(ctx, Player{ID: "p_c", Name: "C"}, PlayerSession{Hash: "hc"}))
	require.ErrorIs(t, ps.SetPassword(ctx, "p_c", "x"), ErrNoSuchPlayer, "a guest has no password")
}

// TestGuestTokenSurvivesMigration: a token registered under the v3 layout
// (gomoku:player:<hash>) still authenticates the same player after the migrations.
func TestGuestTokenSurvivesMigration(t *testing.T) {
	mr, ps := newTestPlayers(t)
	ctx := context.Background()
	const token = "an-old-guest-token-of-thirty-two-chars"
	mr.HSet("gomoku:player:"+HashToken(token), "id", "p_old", "name", "Old Guest", "created", "1700000000000")
	mr.SetTTL("gomoku:player:"+HashToken(token), time.Hour)
	require.NoError(t, migrations.Apply(ctx, ps.c, nil))
	p, err := authenticate(ctx, ps, token)
	require.NoError(t, err)
	require.Equal(t, Player{ID: "p_old", Name: "Old Guest", Created: time.UnixMilli(1_700_000_000_000), TokenHash: HashToken(token)}, *p)
}
