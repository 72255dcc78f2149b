package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/redis/go-redis/v9"
)

// Identity errors.
var (
	ErrNoSuchPlayer = errors.New("server: no player for this token")
	errBadName      = errors.New("server: bad name")
)

const (
	tokenBytes    = 24 // 192 random bits
	maxNameRunes  = 24
	playerTTL     = 400 * 24 * time.Hour
	playerKeyBase = "gomoku:player:"
)

// Player is a registered identity. The raw token is never stored: TokenHash is the hex
// SHA-256 of it, and seats are bound to that hash.
type Player struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	TokenHash string `json:"-"`
}

// Players stores identities by token hash.
type Players interface {
	Put(ctx context.Context, p Player) error
	ByHash(ctx context.Context, tokenHash string) (Player, error)
	// Rename sets the display name of an existing player (ErrNoSuchPlayer if none).
	Rename(ctx context.Context, tokenHash, name string) error
}

// HashToken returns the hex SHA-256 of a raw token: the only form that is ever stored.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// newToken returns a random base64url token and its player id (derived from the hash, so
// it reveals nothing about the token).
func newToken() (token, hash, id string) {
	var b [tokenBytes]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("server: crypto/rand: " + err.Error())
	}
	token = base64.RawURLEncoding.EncodeToString(b[:])
	hash = HashToken(token)
	sum := sha256.Sum256([]byte("player-id:" + hash))
	id = "p_" + base64.RawURLEncoding.EncodeToString(sum[:9])
	return token, hash, id
}

// CleanName validates and normalises a display name: 1-24 printable characters after
// trimming; inner whitespace collapsed.
func CleanName(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", errBadName
	}
	s = strings.Join(strings.Fields(s), " ")
	n := utf8.RuneCountInString(s)
	if n == 0 || n > maxNameRunes {
		return "", errBadName
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return "", errBadName
		}
	}
	return s, nil
}

// memPlayers keeps identities in memory (tests, and as a fallback).
type memPlayers struct {
	mu sync.Mutex
	m  map[string]Player
}

// NewMemPlayers returns an in-memory Players.
func NewMemPlayers() Players { return &memPlayers{m: map[string]Player{}} }

func (s *memPlayers) Put(_ context.Context, p Player) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[p.TokenHash] = p
	return nil
}

func (s *memPlayers) ByHash(_ context.Context, h string) (Player, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.m[h]
	if !ok {
		return Player{}, ErrNoSuchPlayer
	}
	return p, nil
}

func (s *memPlayers) Rename(_ context.Context, h, name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.m[h]
	if !ok {
		return ErrNoSuchPlayer
	}
	p.Name = name
	s.m[h] = p
	return nil
}

// redisPlayers keeps identities in Redis: hash gomoku:player:<token hash> {id, name},
// expiring after 400 days without use (each lookup renews it).
type redisPlayers struct{ c redis.UniversalClient }

// NewRedisPlayers returns Players stored in Redis.
func NewRedisPlayers(c redis.UniversalClient) Players { return redisPlayers{c: c} }

func (s redisPlayers) Put(ctx context.Context, p Player) error {
	key := playerKeyBase + p.TokenHash
	_, err := s.c.TxPipelined(ctx, func(pl redis.Pipeliner) error {
		pl.HSet(ctx, key, "id", p.ID, "name", p.Name, "created", time.Now().UnixMilli())
		pl.Expire(ctx, key, playerTTL)
		return nil
	})
	if err != nil {
		return unavailable(err)
	}
	return nil
}

func (s redisPlayers) ByHash(ctx context.Context, h string) (Player, error) {
	key := playerKeyBase + h
	vals, err := s.c.HMGet(ctx, key, "id", "name").Result()
	if err != nil {
		return Player{}, unavailable(err)
	}
	id, _ := vals[0].(string)
	name, _ := vals[1].(string)
	if id == "" {
		return Player{}, ErrNoSuchPlayer
	}
	s.c.Expire(ctx, key, playerTTL) // best effort renewal
	return Player{ID: id, Name: name, TokenHash: h}, nil
}

// renameScript sets the name of an existing player only: a token whose record expired
// in the meantime is not brought back as a player without an id.
var renameScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'name', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`)

func (s redisPlayers) Rename(ctx context.Context, h, name string) error {
	n, err := renameScript.Run(ctx, s.c, []string{playerKeyBase + h}, name, playerTTL.Milliseconds()).Int()
	if err != nil {
		return unavailable(err)
	}
	if n == 0 {
		return ErrNoSuchPlayer
	}
	return nil
}

func unavailable(err error) error {
	return fmt.Errorf("%w: %w", protocol.Errorf(protocol.CodeUnavailable, "store unavailable, try again"), err)
}

// validName is CleanName with the error the client is told.
func validName(name string) (string, error) {
	name, err := CleanName(name)
	if err != nil {
		return "", protocol.Errorf(protocol.CodeBadRequest, `"name" must be 1-%d printable characters`, maxNameRunes)
	}
	return name, nil
}

// register creates a player with a fresh token.
func register(ctx context.Context, ps Players, name string) (Player, string, error) {
	name, err := validName(name)
	if err != nil {
		return Player{}, "", err
	}
	token, hash, id := newToken()
	p := Player{ID: id, Name: name, TokenHash: hash}
	if err := ps.Put(ctx, p); err != nil {
		return Player{}, "", err
	}
	return p, token, nil
}

// rename changes p's display name. Seats already taken keep the name they were taken
// with (the game's events and records name the players as they sat); seats taken from
// now on, and the player's own page, use the new one.
func rename(ctx context.Context, ps Players, p Player, name string) (Player, error) {
	name, err := validName(name)
	if err != nil {
		return p, err
	}
	if err := ps.Rename(ctx, p.TokenHash, name); err != nil {
		if errors.Is(err, ErrNoSuchPlayer) {
			return p, protocol.Errorf(protocol.CodeUnauthorized, "unknown token: register with POST /api/players")
		}
		return p, err
	}
	p.Name = name
	return p, nil
}

// authenticate resolves a raw token. An empty token yields (nil, nil): a spectator.
func authenticate(ctx context.Context, ps Players, token string) (*Player, error) {
	if token == "" {
		return nil, nil
	}
	if len(token) > protocol.MaxTokenLen {
		return nil, protocol.Errorf(protocol.CodeUnauthorized, "unknown token")
	}
	p, err := ps.ByHash(ctx, HashToken(token))
	if errors.Is(err, ErrNoSuchPlayer) {
		return nil, protocol.Errorf(protocol.CodeUnauthorized, "unknown token: register with POST /api/players")
	}
	if err != nil {
		return nil, err
	}
	return &p, nil
}
