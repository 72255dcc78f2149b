package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/ledger"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// testArgon2 keeps the tests' password hashes cheap (the real cost is measured by
// BenchmarkPasswordHash).
var testArgon2 = Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1}

type errBody struct {
	Error struct{ Code, Message string } `json:"error"`
}

type created struct{ ID, Name, Token, Username string }

type me struct {
	ID, Name, Username string
	Account            bool
}

type sessionList struct {
	Sessions []SessionInfo `json:"sessions"`
}

func (e *testEnv) signUp(token, username, password string) created {
	e.t.Helper()
	var out created
	require.Equal(e.t, http.StatusCreated, e.do("POST", "/api/accounts", token, Credentials{username, password}, &out))
	return out
}

func (e *testEnv) logIn(username, password string) created {
	e.t.Helper()
	var out created
	require.Equal(e.t, http.StatusCreated, e.do("POST", "/api/sessions", "", Credentials{username, password}, &out))
	return out
}

func (e *testEnv) me(token string) (int, me) {
	var out me
	var eb errBody
	st := e.do("GET", "/api/players/me", token, nil, &eb)
	if st == http.StatusOK {
		e.do("GET", "/api/players/me", token, nil, &out)
	}
	return st, out
}

// TestGuestBecomesAccount: a guest signs up with its token and keeps its id (and so
// its seats, games and ratings); logging in elsewhere gives the same player.
func TestGuestBecomesAccount(t *testing.T) {
	var logs bytes.Buffer
	e := newEnv(t, nil, func(c *Config, _ *room.Options) {
		c.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	g := e.player("Guest Ann")
	roomID := e.createRoom(g.Token, map[string]any{"me": "black", "opponent": map[string]string{"kind": "human"}})
	// The guest's game index expires with the guest; the account keeps it.
	require.NoError(t, e.rc.ZAdd(t.Context(), ledger.GamesKey(g.ID), redis.Z{Score: 1, Member: "r1:1"}).Err())
	require.NoError(t, e.rc.Expire(t.Context(), ledger.GamesKey(g.ID), time.Hour).Err())

	acc := e.signUp(g.Token, "Ann_1", "tulip-sky-42")
	require.Equal(t, time.Duration(-1), e.rc.TTL(t.Context(), ledger.GamesKey(g.ID)).Val(), "the games are kept")
	require.Equal(t, created{ID: g.ID, Name: "Guest Ann", Token: g.Token, Username: "Ann_1"}, acc)
	st, m := e.me(g.Token)
	require.Equal(t, http.StatusOK, st)
	require.Equal(t, me{ID: g.ID, Name: "Guest Ann", Username: "Ann_1", Account: true}, m)

	// Another device: same player, its own token.
	other := e.logIn("ann_1", "tulip-sky-42")
	require.Equal(t, g.ID, other.ID)
	require.NotEqual(t, g.Token, other.Token)
	st, m = e.me(other.Token)
	require.Equal(t, http.StatusOK, st)
	require.Equal(t, g.ID, m.ID)
	// The seat follows the player, not the token.
	c := e.dial(roomID)
	c.hello(other.Token, 0)

	var l sessionList
	require.Equal(t, http.StatusOK, e.do("GET", "/api/sessions", other.Token, nil, &l))
	require.Len(t, l.Sessions, 2)
	require.False(t, l.Sessions[0].Current)
	require.True(t, l.Sessions[1].Current)
	require.NotContains(t, l.Sessions[0].ID, HashToken(g.Token)[:16])

	// Revoke the first device from the second; then log out the second.
	var eb errBody
	require.Equal(t, http.StatusNotFound, e.do("DELETE", "/api/sessions/s_nope", other.Token, nil, &eb))
	require.Equal(t, protocol.CodeNotFound, eb.Error.Code)
	require.Equal(t, http.StatusNoContent, e.do("DELETE", "/api/sessions/"+l.Sessions[0].ID, other.Token, nil, nil))
	st, _ = e.me(g.Token)
	require.Equal(t, http.StatusUnauthorized, st)
	require.Equal(t, http.StatusNoContent, e.do("DELETE", "/api/sessions/current", other.Token, nil, nil))
	st, _ = e.me(other.Token)
	require.Equal(t, http.StatusUnauthorized, st)

	// Renaming still works for accounts; the username does not change.
	again := e.logIn("ANN_1", "tulip-sky-42")
	require.Equal(t, http.StatusOK, e.do("PATCH", "/api/players/me", again.Token, `{"name":"Ann"}`, &m))
	require.Equal(t, me{ID: g.ID, Name: "Ann", Username: "Ann_1", Account: true}, m)

	require.NotContains(t, logs.String(), "tulip-sky-42", "passwords are never logged")
	require.NotContains(t, logs.String(), other.Token, "tokens are never logged")
}

func TestSignUpWithoutToken(t *testing.T) {
	e := newEnv(t, nil)
	a := e.signUp("", "Zed", "correct horse")
	require.Equal(t, "Zed", a.Name)
	require.Equal(t, "Zed", a.Username)
	st, m := e.me(a.Token)
	require.Equal(t, http.StatusOK, st)
	require.Equal(t, me{ID: a.ID, Name: "Zed", Username: "Zed", Account: true}, m)
	// An account cannot sign up again.
	var eb errBody
	require.Equal(t, http.StatusConflict, e.do("POST", "/api/accounts", a.Token, Credentials{"Zed2", "correct horse"}, &eb))
	require.Equal(t, protocol.CodeConflict, eb.Error.Code)
	// An unknown token is not silently ignored.
	require.Equal(t, http.StatusUnauthorized, e.do("POST", "/api/accounts", "nope", Credentials{"Zed3", "correct horse"}, &eb))
}

// TestAccountRefusals: each bad request gets its code and changes nothing (the guest
// stays a guest, nobody holds the username).
func TestAccountRefusals(t *testing.T) {
	e := newEnv(t, nil)
	e.signUp("", "Taken", "some long pass")
	g := e.player("G")
	for _, tc := range []struct {
		name, body string
		status     int
		code       string
	}{
		{"short username", `{"username":"ab","password":"some long pass"}`, 400, protocol.CodeBadUsername},
		{"long username", `{"username":"abcdefghijklmnopqrstu","password":"some long pass"}`, 400, protocol.CodeBadUsername},
		{"space", `{"username":"a b c","password":"some long pass"}`, 400, protocol.CodeBadUsername},
		{"non-ASCII", `{"username":"李雷李雷","password":"some long pass"}`, 400, protocol.CodeBadUsername},
		{"reserved", `{"username":"Admin","password":"some long pass"}`, 400, protocol.CodeBadUsername},
		{"reserved AI level", `{"username":"MASTER","password":"some long pass"}`, 400, protocol.CodeBadUsername},
		{"missing username", `{"password":"some long pass"}`, 400, protocol.CodeBadUsername},
		{"short password", `{"username":"newbie","password":"short"}`, 400, protocol.CodeWeakPassword},
		{"password with username", `{"username":"newbie","password":"xxNEWBIExx"}`, 400, protocol.CodeWeakPassword},
		{"common password", `{"username":"newbie","password":"Password123"}`, 400, protocol.CodeWeakPassword},
		{"repeated", `{"username":"newbie","password":"========="}`, 400, protocol.CodeWeakPassword},
		{"too long", `{"username":"newbie","password":"` + strings.Repeat("ab", 65) + `"}`, 400, protocol.CodeWeakPassword},
		{"taken", `{"username":"Taken","password":"some long pass"}`, 400, protocol.CodeUsernameTaken},
		{"taken, other case", `{"username":"tAKEN","password":"some long pass"}`, 400, protocol.CodeUsernameTaken},
		{"malformed", `{"username":`, 400, protocol.CodeBadJSON},
		{"unknown field", `{"username":"newbie","password":"some long pass","admin":true}`, 400, protocol.CodeBadJSON},
		{"wrong type", `{"username":1,"password":"some long pass"}`, 400, protocol.CodeBadJSON},
		{"too large", `{"username":"` + strings.Repeat("a", 3000) + `"}`, 413, protocol.CodeTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var eb errBody
			require.Equal(t, tc.status, e.do("POST", "/api/accounts", g.Token, tc.body, &eb))
			require.Equal(t, tc.code, eb.Error.Code)
			st, m := e.me(g.Token)
			require.Equal(t, http.StatusOK, st)
			require.Equal(t, me{ID: g.ID, Name: "G"}, m, "nothing changed")
		})
	}
	for _, k := range must(e.rc.Keys(t.Context(), "gomoku:username:*").Result()) {
		require.Equal(t, "gomoku:username:taken", k, "no other username was reserved")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestLoginAnswersAlike: an unknown username and a wrong password get the same answer
// after the same work (one argon2id computation each).
func TestLoginAnswersAlike(t *testing.T) {
	e := newEnv(t, nil)
	e.signUp("", "Known", "right password")
	answer := func(username, password string) (int, errBody, int64) {
		before := e.srv.hasher.done.Load()
		var eb errBody
		st := e.do("POST", "/api/sessions", "", Credentials{username, password}, &eb)
		return st, eb, e.srv.hasher.done.Load() - before
	}
	stU, ebU, hU := answer("Unknown", "right password")
	stW, ebW, hW := answer("Known", "wrong password")
	require.Equal(t, http.StatusBadRequest, stU)
	require.Equal(t, protocol.CodeBadCredentials, ebU.Error.Code)
	require.Equal(t, stU, stW)
	require.Equal(t, ebU, ebW)
	require.Equal(t, int64(1), hU)
	require.Equal(t, int64(1), hW)
	stL, _, hL := answer(strings.Repeat("x", 50), "whatever")
	require.Equal(t, stU, stL)
	require.Equal(t, int64(1), hL)
}

// TestBruteForceHitsLimiter: after the free attempts, guesses are refused with
// rate_limited and Retry-After — even the right password — for known and unknown
// usernames alike.
func TestBruteForceHitsLimiter(t *testing.T) {
	e := newEnv(t, nil)
	e.signUp("", "victim", "the real one")
	for _, user := range []string{"victim", "nobody-here"} {
		for i := 1; i <= DefaultAccountRule.Free+1; i++ {
			var eb errBody
			require.Equal(t, http.StatusBadRequest, e.do("POST", "/api/sessions", "", Credentials{user, "guess"}, &eb), "attempt %d", i)
			require.Equal(t, protocol.CodeBadCredentials, eb.Error.Code)
		}
		res, err := http.Post(e.ts.URL+"/api/sessions", "application/json", strings.NewReader(`{"username":"`+user+`","password":"the real one"}`))
		require.NoError(t, err)
		var eb errBody
		require.NoError(t, json.NewDecoder(res.Body).Decode(&eb))
		_ = res.Body.Close()
		require.Equal(t, http.StatusBadRequest, res.StatusCode, user)
		require.Equal(t, protocol.CodeRateLimited, eb.Error.Code)
		require.Equal(t, "1", res.Header.Get("Retry-After"))
	}
}

// TestPasswordChange: the current password is required; the other sessions end, this
// one stays; the old password stops working.
func TestPasswordChange(t *testing.T) {
	e := newEnv(t, nil)
	a := e.signUp("", "changer", "first password")
	b := e.logIn("changer", "first password")
	var eb errBody
	for _, tc := range []struct {
		body   any
		status int
		code   string
	}{
		{PasswordChange{"wrong password", "second password"}, 400, protocol.CodeBadCredentials},
		{PasswordChange{"first password", "short"}, 400, protocol.CodeWeakPassword},
		{`{"current_password":"first password"`, 400, protocol.CodeBadJSON},
	} {
		require.Equal(t, tc.status, e.do("PUT", "/api/accounts/me/password", b.Token, tc.body, &eb))
		require.Equal(t, tc.code, eb.Error.Code)
	}
	st, _ := e.me(a.Token)
	require.Equal(t, http.StatusOK, st, "nothing changed on error")

	require.Equal(t, http.StatusNoContent, e.do("PUT", "/api/accounts/me/password", b.Token, PasswordChange{"first password", "second password"}, nil))
	st, _ = e.me(a.Token)
	require.Equal(t, http.StatusUnauthorized, st, "other sessions revoked")
	st, _ = e.me(b.Token)
	require.Equal(t, http.StatusOK, st, "this session stays")
	require.Equal(t, http.StatusBadRequest, e.do("POST", "/api/sessions", "", Credentials{"changer", "first password"}, &eb))
	require.Equal(t, protocol.CodeBadCredentials, eb.Error.Code)
	e.logIn("changer", "second password")

	g := e.player("guest")
	require.Equal(t, http.StatusForbidden, e.do("PUT", "/api/accounts/me/password", g.Token, PasswordChange{"x", "second password"}, &eb))
	require.Equal(t, protocol.CodeNotAllowed, eb.Error.Code)
}

// TestProductionServerHasAccounts: New (the gomokud wiring, here on the embedded
// Redis) serves sign-up and login.
func TestProductionServerHasAccounts(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg.Argon2 = testArgon2
	srv, err := New(t.Context(), cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Shutdown(context.Background()) })
	for _, path := range []string{"/api/accounts", "/api/sessions"} {
		w := httptest.NewRecorder()
		srv.Handler().ServeHTTP(w, httptest.NewRequest("POST", path, strings.NewReader(`{"username":"wired","password":"a long password"}`)))
		require.Equal(t, http.StatusCreated, w.Code, "%s: %s", path, w.Body)
	}
}
