package server

import (
	"context"
	"errors"
	"strings"

	"github.com/redis/go-redis/v9"
)

// claimScript turns an existing guest into an account (the username is already
// reserved for it): 0 no such player, -1 already an account, 1 done. The player's keys
// stop expiring.
var claimScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HEXISTS', KEYS[1], 'username') == 1 then return -1 end
redis.call('HSET', KEYS[1], 'username', ARGV[1], 'pw', ARGV[2])
redis.call('PERSIST', KEYS[1])
redis.call('PERSIST', KEYS[2])
return 1`)

// casScript sets KEYS[1] to ARGV[2] if it holds ARGV[1] (ARGV[2] "" deletes it).
var casScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2]) end
return 1`)

func (s redisPlayers) Claim(ctx context.Context, id, username, pwHash string) error {
	uk := usernameKey(strings.ToLower(username))
	if err := s.reserve(ctx, uk, id); err != nil {
		return err
	}
	n, err := claimScript.Run(ctx, s.c, []string{playerKey(id), playerSessionsKey(id)}, username, pwHash).Int()
	if err == nil && n == 1 {
		return nil
	}
	// Give the name back: nothing changed.
	_ = casScript.Run(ctx, s.c, []string{uk}, id, "").Err()
	switch {
	case err != nil:
		return unavailable(err)
	case n == 0:
		return ErrNoSuchPlayer
	default:
		return ErrAlreadyAccount
	}
}

// reserve points a username key at id. A key that points at a player who does not
// hold that username (a claim that died between its two steps) is taken over.
func (s redisPlayers) reserve(ctx context.Context, uk, id string) error {
	ok, err := s.c.SetNX(ctx, uk, id, 0).Result()
	if err != nil {
		return unavailable(err)
	}
	if ok {
		return nil
	}
	owner, err := s.c.Get(ctx, uk).Result()
	if errors.Is(err, redis.Nil) {
		return s.reserve(ctx, uk, id) // released meanwhile
	}
	if err != nil {
		return unavailable(err)
	}
	if owner == id {
		return nil // a retried claim
	}
	held, err := s.c.HGet(ctx, playerKey(owner), "username").Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return unavailable(err)
	}
	if uk == usernameKey(strings.ToLower(held)) {
		return ErrUsernameTaken
	}
	n, err := casScript.Run(ctx, s.c, []string{uk}, owner, id).Int()
	if err != nil {
		return unavailable(err)
	}
	if n == 0 {
		return ErrUsernameTaken // someone else took it over first
	}
	return nil
}

func (s redisPlayers) Credentials(ctx context.Context, username string) (string, string, error) {
	lower := strings.ToLower(username)
	id, err := s.c.Get(ctx, usernameKey(lower)).Result()
	if errors.Is(err, redis.Nil) {
		return "", "", ErrNoSuchPlayer
	}
	if err != nil {
		return "", "", unavailable(err)
	}
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

// createAccountScript writes a new account player (username already reserved):
// 0 if the id is taken (never for a fresh id), 1 done.
var createAccountScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'name', ARGV[2], 'created', ARGV[3], 'username', ARGV[4], 'pw', ARGV[5])
redis.call('SADD', KEYS[2], ARGV[6])
return 1`)

// CreateAccount stores a new account player with its first session: ErrUsernameTaken
// and nothing written if the username is held.
func (s redisPlayers) CreateAccount(ctx context.Context, p Player, sess PlayerSession, pwHash string) error {
	uk := usernameKey(strings.ToLower(p.Username))
	if err := s.reserve(ctx, uk, p.ID); err != nil {
		return err
	}
	if p.Created.IsZero() {
		p.Created = s.now()
	}
	n, err := createAccountScript.Run(ctx, s.c, []string{playerKey(p.ID), playerSessionsKey(p.ID)},
		p.ID, p.Name, ms(p.Created), p.Username, pwHash, sess.Hash).Int()
	if err != nil || n == 0 {
		_ = casScript.Run(ctx, s.c, []string{uk}, p.ID, "").Err()
		if err != nil {
			return unavailable(err)
		}
		return ErrUsernameTaken // unreachable with fresh ids
	}
	return s.putSession(ctx, p.ID, sess)
}
