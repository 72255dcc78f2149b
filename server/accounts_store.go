package server

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Accounts are written so that, on one Redis or a Cluster (a username key and a
// player's keys live in different slots), exactly one of two sign-ups of a username
// wins and a node dying half-way leaves no half-made account:
//
//  1. reserve: the username key is set to "<id>|<Redis time ms>" if free (SET NX), or
//     taken over if its holder does not hold the name (a sign-up that died before its
//     commit) and its reservation is older than reserveTakeover;
//  2. commit: one script on the player's slot writes the username and password (a new
//     player: the whole player and its session set) — the account exists from this
//     step on, whole — and refuses to when its reservation is older than commitWindow
//     by the player slot's clock. So a reservation is taken over only once its commit
//     can no longer run (the clocks of two Redis nodes may differ by up to
//     reserveTakeover−commitWindow).
//
// A new account's session key is written before the commit (a token works only once
// its player exists), so nothing is left to do after it.
const (
	commitWindow    = 10 * time.Second
	reserveTakeover = 30 * time.Second
)

// Commit script results.
const (
	commitDone     = 1
	commitNoPlayer = 0  // Claim: no such player; CreateAccount: the id exists
	commitAccount  = -1 // Claim: already an account
	commitLate     = -2 // the reservation is older than commitWindow
)

// commitLateScript is the Lua prologue of the commit scripts: -2 when the reservation
// (ARGV[1], Redis time ms) is older than ARGV[2] ms by this slot's clock.
const commitLateScript = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if now - tonumber(ARGV[1]) > tonumber(ARGV[2]) then return -2 end
`

// claimScript turns an existing guest into an account (the commit of a claim): the
// player's keys stop expiring.
var claimScript = redis.NewScript(commitLateScript + `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HEXISTS', KEYS[1], 'username') == 1 then return -1 end
redis.call('HSET', KEYS[1], 'username', ARGV[3], 'pw', ARGV[4])
redis.call('PERSIST', KEYS[1])
redis.call('PERSIST', KEYS[2])
return 1`)

// createAccountScript writes a new account player with its session set (the commit of
// a sign-up without a guest).
var createAccountScript = redis.NewScript(commitLateScript + `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'id', ARGV[3], 'name', ARGV[4], 'created', ARGV[5], 'username', ARGV[6], 'pw', ARGV[7])
redis.call('SADD', KEYS[2], ARGV[8])
return 1`)

// reserveScript reserves username key KEYS[1] for ARGV[1] at this slot's time:
// {1, value} when reserved (free, or already this player's: a retry), else
// {0, current value, now ms}.
var reserveScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local v = redis.call('GET', KEYS[1])
local mine = ARGV[1] .. '|' .. now
if not v or v == ARGV[1] or string.sub(v, 1, string.len(ARGV[1]) + 1) == ARGV[1] .. '|' then
  redis.call('SET', KEYS[1], mine)
  return {1, mine}
end
return {0, v, now}`)

// takeoverScript replaces reservation KEYS[1] if it still holds ARGV[1]: the new
// value (ARGV[2] with this slot's time), or "" when it changed meanwhile.
var takeoverScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return '' end
local t = redis.call('TIME')
local v = ARGV[2] .. '|' .. (tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
redis.call('SET', KEYS[1], v)
return v`)

// casScript sets KEYS[1] to ARGV[2] if it holds ARGV[1] (ARGV[2] "" deletes it).
var casScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2]) end
return 1`)

// reservation reads a username key's value: the player id and the reservation's time
// (Redis ms; 0 for a value without one, written before reservations carried it).
func reservation(v string) (id string, atMS int64) {
	id, at, ok := strings.Cut(v, "|")
	if !ok {
		return v, 0
	}
	n, _ := strconv.ParseInt(at, 10, 64)
	return id, n
}

func (s redisPlayers) Claim(ctx context.Context, id, username, pwHash string) error {
	uk := usernameKey(strings.ToLower(username))
	held, at, err := s.reserve(ctx, uk, id)
	if err != nil {
		return err
	}
	n, err := claimScript.Run(ctx, s.c, []string{playerKey(id), playerSessionsKey(id)},
		at, commitWindow.Milliseconds(), username, pwHash).Int()
	if err == nil && n == commitDone {
		return nil
	}
	s.release(ctx, uk, held)
	return commitError(err, n, ErrNoSuchPlayer)
}

// CreateAccount stores a new account player with its first session: ErrUsernameTaken
// and nothing written if the username is held.
func (s redisPlayers) CreateAccount(ctx context.Context, p Player, sess PlayerSession, pwHash string) error {
	uk := usernameKey(strings.ToLower(p.Username))
	held, at, err := s.reserve(ctx, uk, p.ID)
	if err != nil {
		return err
	}
	if p.Created.IsZero() {
		p.Created = s.now()
	}
	// The session key first: it works only once the commit has written its player.
	if err := s.putSession(ctx, p.ID, sess); err != nil {
		s.release(ctx, uk, held)
		return err
	}
	n, err := createAccountScript.Run(ctx, s.c, []string{playerKey(p.ID), playerSessionsKey(p.ID)},
		at, commitWindow.Milliseconds(), p.ID, p.Name, ms(p.Created), p.Username, pwHash, sess.Hash).Int()
	if err == nil && n == commitDone {
		return nil
	}
	s.release(ctx, uk, held)
	_ = s.c.Del(ctx, sessionKey(sess.Hash)).Err() // best effort: it names a player that does not exist
	return commitError(err, n, ErrUsernameTaken)
}

// commitError is the error of a commit script that did not answer commitDone.
func commitError(err error, n int, noPlayer error) error {
	switch {
	case err != nil:
		return unavailable(err)
	case n == commitNoPlayer:
		return noPlayer
	case n == commitAccount:
		return ErrAlreadyAccount
	default: // commitLate: the reservation may have been taken over
		return unavailable(errors.New("the account's commit came too late after its reservation"))
	}
}

// release gives a reservation back (nothing changed), unless it was taken over.
func (s redisPlayers) release(ctx context.Context, uk, held string) {
	_ = casScript.Run(ctx, s.c, []string{uk}, held, "").Err()
}

// reserve reserves a username key for id (step 1 above): the key's value and the
// reservation's time (Redis ms). ErrUsernameTaken when another player holds the name
// or may still be committing it.
func (s redisPlayers) reserve(ctx context.Context, uk, id string) (string, int64, error) {
	res, err := reserveScript.Run(ctx, s.c, []string{uk}, id).Slice()
	if err != nil {
		return "", 0, unavailable(err)
	}
	cur, _ := res[1].(string)
	if ok, _ := res[0].(int64); ok == 1 {
		_, at := reservation(cur)
		return cur, at, nil
	}
	now, _ := res[2].(int64)
	owner, at := reservation(cur)
	holder, err := s.c.HGet(ctx, playerKey(owner), "username").Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return "", 0, unavailable(err)
	}
	if uk == usernameKey(strings.ToLower(holder)) || now-at <= reserveTakeover.Milliseconds() {
		return "", 0, ErrUsernameTaken
	}
	v, err := takeoverScript.Run(ctx, s.c, []string{uk}, cur, id).Text()
	if err != nil {
		return "", 0, unavailable(err)
	}
	if v == "" {
		return "", 0, ErrUsernameTaken // someone else took it over first
	}
	_, at = reservation(v)
	return v, at, nil
}

func (s redisPlayers) Credentials(ctx context.Context, username string) (string, string, error) {
	lower := strings.ToLower(username)
	v, err := s.c.Get(ctx, usernameKey(lower)).Result()
	if errors.Is(err, redis.Nil) {
		return "", "", ErrNoSuchPlayer
	}
	if err != nil {
		return "", "", unavailable(err)
	}
	id, _ := reservation(v)
	vals, err := s.c.HMGet(ctx, playerKey(id), "username", "pw").Result()
	if err != nil {
		return "", "", unavailable(err)
	}
	held, _ := vals[0].(string)
	pw, _ := vals[1].(string)
	if strings.ToLower(held) != lower || pw == "" {
		return "", "", ErrNoSuchPlayer // a reservation whose claim never finished
	}
	return id, pw, nil
}

var setPasswordScript = redis.NewScript(`
if redis.call('HEXISTS', KEYS[1], 'username') == 0 then return 0 end
redis.call('HSET', KEYS[1], 'pw', ARGV[1])
return 1`)

func (s redisPlayers) SetPassword(ctx context.Context, id, pwHash string) error {
	n, err := setPasswordScript.Run(ctx, s.c, []string{playerKey(id)}, pwHash).Int()
	if err != nil {
		return unavailable(err)
	}
	if n == 0 {
		return ErrNoSuchPlayer
	}
	return nil
}
