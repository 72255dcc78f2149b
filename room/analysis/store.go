package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/room/eventlog"
)

// ErrLeaseLost is returned by Save when the writer no longer holds the game's lease
// (it ran out and another node took it): the other node's writes win.
var ErrLeaseLost = errors.New("analysis: lease lost")

// Store keeps analyses, one per game of a room, and the lease of the node computing one.
type Store interface {
	// Load returns the stored analysis of a game (nil when none: finished or partial)
	// and whether a node holds its lease (is computing it).
	Load(ctx context.Context, roomID string, game int) (res *Result, leased bool, err error)
	// Lease takes the game's lease for owner, or extends it when owner holds it; false
	// when another owner holds it.
	Lease(ctx context.Context, roomID string, game int, owner string, ttl time.Duration) (bool, error)
	// Save writes the analysis if owner holds the lease (else ErrLeaseLost).
	Save(ctx context.Context, roomID string, game int, owner string, res Result) error
	// Release gives the lease up if owner holds it.
	Release(ctx context.Context, roomID string, game int, owner string) error
}

// Keys returns the key of a game's analysis and of its lease; they carry the room's
// hash tag.
func Keys(roomID string, game int) (result, lease string) {
	base := eventlog.Prefix + "{room:" + roomID + "}:analysis:" + strconv.Itoa(game)
	return base, base + ":lease"
}

// RedisStore is the Store on Redis: a JSON string per game, kept as long as the room's
// events (and at least the retention), and a lease string with a PX expiry.
type RedisStore struct {
	c         redis.UniversalClient
	retention time.Duration
}

// NewRedisStore returns a store on c; retention is the least time an analysis is kept
// (the room's own TTL when longer; eventlog.DefaultRetention when <= 0).
func NewRedisStore(c redis.UniversalClient, retention time.Duration) *RedisStore {
	if retention <= 0 {
		retention = eventlog.DefaultRetention
	}
	return &RedisStore{c: c, retention: retention}
}

var (
	leaseScript = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if v == false or v == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`)
	// saveScript writes only for the lease holder; the TTL is the room's events' TTL
	// when longer than the retention (a finished room's retention runs from its end).
	saveScript = redis.NewScript(`
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
local ttl = tonumber(ARGV[3])
local t = redis.call('PTTL', KEYS[3])
if t > ttl then ttl = t end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ttl)
return 1`)
	releaseScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`)
)

// Load implements Store.
func (s *RedisStore) Load(ctx context.Context, roomID string, game int) (*Result, bool, error) {
	rk, lk := Keys(roomID, game)
	vals, err := s.c.MGet(ctx, rk, lk).Result()
	if err != nil {
		return nil, false, fmt.Errorf("analysis: load: %w", err)
	}
	leased := vals[1] != nil
	str, ok := vals[0].(string)
	if !ok {
		return nil, leased, nil
	}
	var res Result
	if err := json.Unmarshal([]byte(str), &res); err != nil {
		return nil, leased, fmt.Errorf("analysis: load: %w", err)
	}
	return &res, leased, nil
}

// Lease implements Store.
func (s *RedisStore) Lease(ctx context.Context, roomID string, game int, owner string, ttl time.Duration) (bool, error) {
	_, lk := Keys(roomID, game)
	n, err := leaseScript.Run(ctx, s.c, []string{lk}, owner, ttl.Milliseconds()).Int()
	if err != nil {
		return false, fmt.Errorf("analysis: lease: %w", err)
	}
	return n == 1, nil
}

// Save implements Store.
func (s *RedisStore) Save(ctx context.Context, roomID string, game int, owner string, res Result) error {
	body, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("analysis: save: %w", err)
	}
	rk, lk := Keys(roomID, game)
	n, err := saveScript.Run(ctx, s.c, []string{rk, lk, eventlog.KeysFor(roomID).Events}, owner, body, s.retention.Milliseconds()).Int()
	if err != nil {
		return fmt.Errorf("analysis: save: %w", err)
	}
	if n != 1 {
		return ErrLeaseLost
	}
	return nil
}

// Release implements Store.
func (s *RedisStore) Release(ctx context.Context, roomID string, game int, owner string) error {
	_, lk := Keys(roomID, game)
	if err := releaseScript.Run(ctx, s.c, []string{lk}, owner).Err(); err != nil {
		return fmt.Errorf("analysis: release: %w", err)
	}
	return nil
}
