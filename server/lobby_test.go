package server

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/pairing"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/gomoku-arena/gomoku/server/wstest"
)

// lobby opens a lobby connection for token ("" a visitor), closed at the test's end.
func (e *testEnv) lobby(token string) *wstest.Client {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := wstest.DialLobby(ctx, e.ts.URL, token)
	require.NoError(e.t, err)
	e.t.Cleanup(c.Close)
	return c
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// Two players seek the same pool: both pages are told the same room at once, each is
// seated at its colour, the game has started and the room is in no open list.
func TestQuickPairingSeatsBoth(t *testing.T) {
	e := newEnv(t, nil)
	ctx := testCtx(t)
	alice, bob := e.player("Alice"), e.player("Bob")
	la, lb := e.lobby(alice.Token), e.lobby(bob.Token)

	m, err := la.Seek(ctx, "s1", "renju", "5+3", false)
	require.NoError(t, err)
	require.Equal(t, "renju-5+3-casual", m.Pool)
	require.Equal(t, "intermediate", m.AILevel)
	_, err = lb.Seek(ctx, "s2", "renju", "5+3", false)
	require.NoError(t, err)

	pa, err := la.NextOf(ctx, protocol.TypePaired)
	require.NoError(t, err)
	pb, err := lb.NextOf(ctx, protocol.TypePaired)
	require.NoError(t, err)
	require.Equal(t, pa.RoomID, pb.RoomID)
	require.ElementsMatch(t, []string{"black", "white"}, []string{pa.Color, pb.Color})
	require.Equal(t, bob.ID, pa.Opponent.ID)
	require.Equal(t, "Alice", pb.Opponent.Name)

	ws := e.dial(pa.RoomID)
	require.Equal(t, pa.Color, ws.hello(alice.Token, 0)["you"].(map[string]any)["role"])
	snap := ws.waitType("snapshot")["room"].(map[string]any)
	require.Equal(t, "playing", snap["phase"])
	require.Equal(t, "renju", snap["settings"].(map[string]any)["rule"])

	var open ListPage
	require.Equal(t, http.StatusOK, e.do("GET", "/api/rooms?status=open", "", nil, &open))
	require.Empty(t, open.Rooms)
}

func TestLobbyRefusals(t *testing.T) {
	e := newEnv(t, nil)
	ctx := testCtx(t)
	alice := e.player("Alice")
	visitor := e.lobby("")
	m, err := visitor.Do(ctx, map[string]any{"type": "seek", "id": "v", "clock": "3+2"})
	require.NoError(t, err)
	require.Equal(t, protocol.CodeUnauthorized, m.Code)

	l := e.lobby(alice.Token)
	for _, c := range []struct {
		msg  map[string]any
		code string
	}{
		{map[string]any{"type": "seek", "id": "a", "clock": "4+4"}, protocol.CodeBadRequest},
		{map[string]any{"type": "seek", "id": "b", "rule": "go", "clock": "3+2"}, protocol.CodeBadRequest},
		{map[string]any{"type": "seek", "id": "c", "clock": "3+2", "rated": true}, protocol.CodeAccountRequired},
		{map[string]any{"type": "move", "id": "d", "ply": 0, "point": "h8"}, protocol.CodeUnknownType},
		{map[string]any{"type": "hello", "id": "e"}, protocol.CodeBadRequest},
	} {
		m, err := l.Do(ctx, c.msg)
		require.NoError(t, err)
		require.Equal(t, "error", m.Type, "%v", c.msg)
		require.Equal(t, c.code, m.Code, "%v", c.msg)
	}
	raw, err := wstest.Dial(ctx, e.ts.URL, "", nil)
	require.Error(t, err, "an empty room id is not the lobby")
	_ = raw
}

// Cancel and disconnect both take the seek out of the pool.
func TestSeekCancelAndDisconnect(t *testing.T) {
	e := newEnv(t, nil)
	ctx := testCtx(t)
	store := pairing.NewStore(e.rc, pairing.DefaultRules, newPairedRoom)
	pool, _ := pairing.NewPool("freestyle", "1+0", false)
	waiting := func() int64 {
		n, err := store.Waiting(ctx, pool)
		require.NoError(t, err)
		return n
	}
	alice := e.player("Alice")
	l := e.lobby(alice.Token)
	_, err := l.Seek(ctx, "s", "freestyle", "1+0", false)
	require.NoError(t, err)
	require.Equal(t, int64(1), waiting())
	m, err := l.Do(ctx, map[string]any{"type": "cancel", "id": "c"})
	require.NoError(t, err)
	require.Equal(t, protocol.TypeSeekEnded, m.Type)
	require.Equal(t, protocol.SeekCancelled, m.Reason)
	require.Zero(t, waiting())

	_, err = l.Seek(ctx, "s2", "freestyle", "1+0", false)
	require.NoError(t, err)
	require.Equal(t, int64(1), waiting())
	l.Close()
	require.Eventually(t, func() bool { return waiting() == 0 }, 5*time.Second, 10*time.Millisecond,
		"a closed connection's seek is cancelled")
}

// The lobby lists reach a visitor at once and again when a room opens.
func TestLobbyListsPushed(t *testing.T) {
	e := newEnv(t, nil)
	ctx := testCtx(t)
	v := e.lobby("")
	first, err := v.NextOf(ctx, protocol.TypeLobby)
	require.NoError(t, err)
	require.Empty(t, first.Open)
	alice := e.player("Alice")
	id := e.createRoom(alice.Token, map[string]any{"me": "black"})
	for {
		m, err := v.NextOf(ctx, protocol.TypeLobby)
		require.NoError(t, err)
		if len(m.Open) == 1 {
			require.Equal(t, id, m.Open[0].ID)
			return
		}
	}
}

func TestAILevelFor(t *testing.T) {
	for _, c := range []struct {
		rating float64
		want   string
	}{{0, "beginner"}, {1100, "novice"}, {1314, "novice"}, {1500, "intermediate"}, {1601, "advanced"},
		{1850, "expert"}, {2100, "master"}, {3000, "master"}} {
		require.Equal(t, c.want, AILevelFor(c.rating), "%v", c.rating)
	}
}
