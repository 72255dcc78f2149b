package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/protocol"
)

// TestSignUpRaceAcrossNodes: two nodes on one Redis get eight sign-ups of one username
// (in different cases) at once, half of them guests upgrading: exactly one wins; the
// others get 400 username_taken and nothing of theirs changed; one player holds the name.
func TestSignUpRaceAcrossNodes(t *testing.T) {
	for name, mk := range backends(t) {
		t.Run(name, func(t *testing.T) {
			rc := mk(t)
			nodes := []*testEnv{newEnv(t, rc), newEnv(t, rc)}
			for round := 0; round < 2; round++ { // the per-address limit of sign-ups allows two rounds
				username := fmt.Sprintf("Racer%d", round)
				const n = 8
				guests := make([]player, n)
				for i := range guests {
					if i%2 == 1 {
						guests[i] = nodes[i%2].player(fmt.Sprint("G", i))
					}
				}
				statuses, codes := make([]int, n), make([]string, n)
				var wg sync.WaitGroup
				start := make(chan struct{})
				for i := 0; i < n; i++ {
					wg.Add(1)
					go func() {
						defer wg.Done()
						<-start
						body := fmt.Sprintf(`{"username":%q,"password":"racing-pass-%d"}`, caseOf(username, i), i)
						req, _ := http.NewRequest("POST", nodes[i%2].ts.URL+"/api/accounts", strings.NewReader(body))
						if guests[i].Token != "" {
							req.Header.Set("Authorization", "Bearer "+guests[i].Token)
						}
						res, err := http.DefaultClient.Do(req)
						if err != nil {
							codes[i] = err.Error()
							return
						}
						defer res.Body.Close()
						var eb errBody
						_ = json.NewDecoder(res.Body).Decode(&eb)
						statuses[i], codes[i] = res.StatusCode, eb.Error.Code
					}()
				}
				close(start)
				wg.Wait()
				winner := -1
				for i := range statuses {
					if statuses[i] == http.StatusCreated {
						require.Equal(t, -1, winner, "round %d: two sign-ups of %s won: %v", round, username, statuses)
						winner = i
						continue
					}
					require.Equal(t, http.StatusBadRequest, statuses[i], "round %d, sign-up %d: %s", round, i, codes[i])
					require.Equal(t, protocol.CodeUsernameTaken, codes[i])
				}
				require.NotEqual(t, -1, winner, "round %d: one sign-up wins", round)
				for i, g := range guests {
					if g.Token == "" || i == winner {
						continue
					}
					st, m := nodes[0].me(g.Token)
					require.Equal(t, http.StatusOK, st)
					require.Equal(t, me{ID: g.ID, Name: g.Name}, m, "a losing guest is unchanged")
				}
				require.Equal(t, 1, holders(t, rc, username), "round %d: one player holds %s", round, username)
				nodes[1].logIn(strings.ToLower(username), fmt.Sprintf("racing-pass-%d", winner))
			}
		})
	}
}

// caseOf spells username in the case pattern of i.
func caseOf(username string, i int) string {
	b := []byte(username)
	for j := range b {
		if (i>>(j%3))&1 == 1 {
			b[j] = strings.ToUpper(string(b[j]))[0]
		} else {
			b[j] = strings.ToLower(string(b[j]))[0]
		}
	}
	return string(b)
}

// holders counts the players whose hash holds username (case-insensitively).
func holders(t *testing.T, rc redis.UniversalClient, username string) int {
	ctx := context.Background()
	keys, err := rc.Keys(ctx, "gomoku:{player:*}").Result()
	require.NoError(t, err)
	n := 0
	for _, k := range keys {
		u, err := rc.HGet(ctx, k, "username").Result()
		if err == nil && strings.EqualFold(u, username) {
			n++
		}
	}
	return n
}

// TestSignUpHalfDone: a sign-up whose node died between its steps leaves neither an
// account nor a working token, and holds its name only while its commit could still
// run: a fresh reservation refuses others (username_taken, nothing written), an old one
// is taken over; a commit later than its window changes nothing.
func TestSignUpHalfDone(t *testing.T) {
	for name, mk := range backends(t) {
		t.Run(name, func(t *testing.T) {
			rc := mk(t)
			ps := NewRedisPlayers(rc).(redisPlayers)
			ctx := context.Background()
			nowMS := time.Now().UnixMilli()
			// A node reserved "carol" for p_dead, wrote the session key, and died.
			require.NoError(t, rc.Set(ctx, usernameKey("carol"), "p_dead|"+strconv.FormatInt(nowMS, 10), 0).Err())
			require.NoError(t, ps.putSession(ctx, "p_dead", PlayerSession{Hash: "h_dead"}))
			_, err := ps.ByHash(ctx, "h_dead")
			require.ErrorIs(t, err, ErrNoSuchSession, "the token of an uncommitted sign-up does not work")
			_, _, err = ps.Credentials(ctx, "carol")
			require.ErrorIs(t, err, ErrNoSuchPlayer, "nor does its password")

			err = ps.CreateAccount(ctx, Player{ID: "p_new", Name: "Carol", Username: "Carol"}, PlayerSession{Hash: "h_new"}, "pw")
			require.ErrorIs(t, err, ErrUsernameTaken, "its commit may still run")
			for _, k := range []string{playerKey("p_new"), playerSessionsKey("p_new"), sessionKey("h_new")} {
				assert.Zero(t, rc.Exists(ctx, k).Val(), "%s: nothing written", k)
			}

			old := strconv.FormatInt(nowMS-2*reserveTakeover.Milliseconds(), 10)
			require.NoError(t, rc.Set(ctx, usernameKey("carol"), "p_dead|"+old, 0).Err())
			require.NoError(t, ps.CreateAccount(ctx, Player{ID: "p_new", Name: "Carol", Username: "Carol"}, PlayerSession{Hash: "h_new"}, "pw"))
			id, _, err := ps.Credentials(ctx, "CAROL")
			require.NoError(t, err)
			require.Equal(t, "p_new", id, "an old reservation is taken over")

			// The dead node's commit, had it come back: too late, nothing changed.
			late := strconv.FormatInt(nowMS-commitWindow.Milliseconds()-time.Second.Milliseconds(), 10)
			n, err := createAccountScript.Run(ctx, rc, []string{playerKey("p_dead"), playerSessionsKey("p_dead")},
				late, commitWindow.Milliseconds(), "p_dead", "Carol", nowMS, "Carol", "pw", "h_dead").Int()
			require.NoError(t, err)
			require.Equal(t, commitLate, n)
			require.Zero(t, rc.Exists(ctx, playerKey("p_dead")).Val())
			require.Equal(t, 1, holders(t, rc, "carol"))

			// A guest's upgrade that died after its reservation: the guest is unchanged.
			require.NoError(t, ps.Create(ctx, Player{ID: "p_g", Name: "G"}, PlayerSession{Hash: "h_g"}))
			n, err = claimScript.Run(ctx, rc, []string{playerKey("p_g"), playerSessionsKey("p_g")},
				late, commitWindow.Milliseconds(), "Dora", "pw").Int()
			require.NoError(t, err)
			require.Equal(t, commitLate, n)
			g, err := ps.ByID(ctx, "p_g")
			require.NoError(t, err)
			require.False(t, g.IsAccount())
		})
	}
}
