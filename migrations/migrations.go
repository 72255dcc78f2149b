// Package migrations holds the ordered, versioned migrations of the Redis key
// layout of Gomoku Arena (see package eventlog for the layout itself) and
// applies them at start-up.
//
// The applied version is recorded in the hash gomoku:schema (field
// "version", plus "applied:N" = Unix ms per migration). Apply takes the lock
// {gomoku:schema}:lock (SET NX PX with a random token, renewed while it runs,
// released by compare-and-delete), so when several nodes start at once exactly
// one migrates and the others wait for it, then find nothing to do. A node
// that dies mid-migration leaves the lock to expire; the next node re-runs the
// unrecorded migration, so every migration is written to be safe to re-run. A
// migration runs under a context that ends when its node loses the lock (a
// renewal finds another token, or renewals fail until the lock may have
// expired): it aborts, and Apply starts over under a new lock.
//
// Each migration is frozen once released: it names its keys literally and
// never calls package eventlog, whose code follows the latest layout only.
package migrations

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/room/eventlog"
)

// Keys of the schema record and the migration lock.
const (
	KeySchema = "gomoku:schema"
	// KeyLock shares KeySchema's hash slot ({gomoku:schema}) so that recording a
	// version can check the lock in the same script on Redis Cluster.
	KeyLock = "{gomoku:schema}:lock"
)

// Errors.
var (
	// ErrTooNew: the store was migrated by a newer release than this one.
	ErrTooNew = errors.New("migrations: store layout is newer than this release")
	// ErrLockLost: the migration lock expired while this node held it (it stalled
	// longer than the lock's TTL); Apply then starts over and waits for the lock.
	ErrLockLost = errors.New("migrations: migration lock lost")
	// ErrUnavailable: Redis did not answer.
	ErrUnavailable = errors.New("migrations: redis unavailable")
)

// Migration is one step of the layout history.
type Migration struct {
	Version int    // 1, 2, ... in order, no gaps
	Name    string // short description
	// Up moves a store from Version-1 to Version. It must be safe to re-run
	// (on a store where it already ran, fully or partly).
	Up func(ctx context.Context, c redis.UniversalClient) error
}

// All returns the migrations in order.
func All() []Migration {
	return []Migration{
		{1, "initial layout: room hash/list/lease keys with {room:ID} tag, lobby sorted sets, schema record", up1},
		{2, "lobby sorted-set scores from Unix seconds to Unix milliseconds", up2},
		{3, "gomoku:rooms:active index of every unfinished room, filled from live and open", up3},
		{4, "players by id ({player:ID} hash + sessions set, gomoku:session:<token hash>), from gomoku:player:<token hash>", up4},
		{5, "ratings ledger under {ratings}: game records, outbox, ratings per pool, histories, game indexes, leaderboards (new keys, nothing to convert)", up5},
		{6, "quick-pairing seek pool under {seeks}; post-game analyses and their leases under {room:ID} (new keys, nothing to convert)", up6},
		{7, "back-fill the players' game indexes: every game finished before v5 goes to the ratings ledger's outbox, which records it", up7},
		{8, "puzzle trainer under {puzzles}: mined puzzles, puzzle and player puzzle ratings, attempts, rating indexes (new keys, nothing to convert)", up8},
		{9, "quick pairing's index of unsettled matches under {seeks}, recovered by any node (new key, nothing to convert)", up9},
	}
}

// Latest returns the layout version this release writes.
func Latest() int { return len(All()) }

// Options for applying; the zero value is the production setting.
type options struct {
	lockTTL  time.Duration
	pollWait time.Duration
}

var defaults = options{lockTTL: 30 * time.Second, pollWait: 100 * time.Millisecond}

// Apply brings the store to Latest(), holding the migration lock while it
// works. It is a no-op (one HGET) on an up-to-date store and fails with
// ErrTooNew on a store from a newer release.
func Apply(ctx context.Context, c redis.UniversalClient, logger *slog.Logger) error {
	return apply(ctx, c, logger, All(), defaults)
}

// Status reports the store's version, the latest known one and the
// migrations still to apply.
func Status(ctx context.Context, c redis.UniversalClient) (current, latest int, pending []Migration, err error) {
	all := All()
	current, err = version(ctx, c)
	if err != nil {
		return 0, len(all), nil, err
	}
	for _, m := range all {
		if m.Version > current {
			pending = append(pending, m)
		}
	}
	return current, len(all), pending, nil
}

func version(ctx context.Context, c redis.UniversalClient) (int, error) {
	v, err := c.HGet(ctx, KeySchema, "version").Result()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	if err != nil {
		return 0, wrap("read schema version", err)
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("migrations: bad schema version %q", v)
	}
	return n, nil
}

func apply(ctx context.Context, c redis.UniversalClient, logger *slog.Logger, all []Migration, o options) error {
	if logger == nil {
		logger = slog.Default()
	}
	const attempts = 5
	for i := 1; ; i++ {
		err := applyOnce(ctx, c, logger, all, o)
		if !errors.Is(err, ErrLockLost) || i == attempts {
			return err
		}
		logger.Warn("migrations: lost the lock while migrating; starting over", "attempt", i)
	}
}

// applyOnce takes the lock and applies the pending migrations; it stops with
// ErrLockLost as soon as it finds that it no longer holds the lock.
func applyOnce(ctx context.Context, c redis.UniversalClient, logger *slog.Logger, all []Migration, o options) (err error) {
	for i, m := range all {
		if m.Version != i+1 {
			return fmt.Errorf("migrations: migration %d has version %d", i+1, m.Version)
		}
	}
	latest := len(all)
	cur, err := version(ctx, c)
	if err != nil {
		return err
	}
	if cur > latest {
		return fmt.Errorf("%w: store is at version %d, this release knows %d", ErrTooNew, cur, latest)
	}
	if cur == latest {
		return nil
	}
	ctx, unlock, token, err := lock(ctx, c, logger, o)
	if err != nil {
		return err
	}
	defer unlock()
	// A migration runs under ctx, which ends when the lock is lost: it aborts rather
	// than go on beside another node's run.
	defer func() {
		if errors.Is(context.Cause(ctx), ErrLockLost) {
			err = ErrLockLost
		}
	}()
	// Another node may have migrated while we waited for the lock.
	if cur, err = version(ctx, c); err != nil {
		return err
	}
	if cur > latest {
		return fmt.Errorf("%w: store is at version %d, this release knows %d", ErrTooNew, cur, latest)
	}
	for _, m := range all[cur:] {
		start := time.Now()
		// Fencing: if the lock expired (a stalled node), another node may be migrating;
		// stop rather than run the same migration twice at once.
		held, err := c.Get(ctx, KeyLock).Result()
		if err != nil && err != redis.Nil {
			return wrap("check lock", err)
		}
		if held != token {
			return ErrLockLost
		}
		logger.Info("migrations: applying", "version", m.Version, "name", m.Name)
		if err := m.Up(ctx, c); err != nil {
			return fmt.Errorf("migrations: migration %d (%s): %w", m.Version, m.Name, err)
		}
		res, err := recordScript.Run(ctx, c, []string{KeyLock, KeySchema}, token, m.Version, time.Now().UnixMilli()).Int()
		if err != nil {
			return wrap("record version", err)
		}
		if res != 1 {
			return ErrLockLost
		}
		logger.Info("migrations: applied", "version", m.Version, "took", time.Since(start))
	}
	return nil
}

var (
	unlockScript = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)
	// recordScript records version ARGV[2] only while the caller still holds the lock
	// and the store is at the version before it.
	recordScript = redis.NewScript(`if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local v = tonumber(redis.call('HGET', KEYS[2], 'version') or '0')
if v ~= tonumber(ARGV[2]) - 1 then return 0 end
redis.call('HSET', KEYS[2], 'version', ARGV[2], 'applied:' .. ARGV[2], ARGV[3])
return 1`)
	renewScript = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`)
)

// lock waits for the migration lock. It returns a context derived from ctx that ends
// (with cause ErrLockLost) when the lock is lost, and the release function. While held,
// the lock is renewed every ttl/3, each renewal within that time; the lock counts as lost
// when a renewal finds another token (or none), or when renewals have failed for so long
// that the lock may expire before the next one.
func lock(ctx context.Context, c redis.UniversalClient, logger *slog.Logger, o options) (context.Context, func(), string, error) {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	token := hex.EncodeToString(b)
	waiting := false
	for {
		ok, err := c.SetNX(ctx, KeyLock, token, o.lockTTL).Result()
		if err != nil {
			return nil, nil, "", wrap("take lock", err)
		}
		if ok {
			break
		}
		if !waiting {
			logger.Info("migrations: another node is migrating; waiting for its lock", "key", KeyLock)
			waiting = true
		}
		select {
		case <-ctx.Done():
			return nil, nil, "", fmt.Errorf("migrations: waiting for the lock: %w", ctx.Err())
		case <-time.After(o.pollWait):
		}
	}
	held, lost := context.WithCancelCause(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		every := o.lockTTL / 3
		t := time.NewTicker(every)
		defer t.Stop()
		renewed := time.Now()
		for {
			select {
			case <-held.Done():
				return
			case <-t.C:
			}
			rctx, cancel := context.WithTimeout(held, every)
			n, err := renewScript.Run(rctx, c, []string{KeyLock}, token, o.lockTTL.Milliseconds()).Int()
			cancel()
			switch {
			case held.Err() != nil:
				return
			case err == nil && n == 1:
				renewed = time.Now()
			case err == nil:
				logger.Error("migrations: the lock was taken over; aborting", "key", KeyLock)
				lost(ErrLockLost)
				return
			case time.Since(renewed)+every >= o.lockTTL:
				logger.Error("migrations: cannot renew the lock before it expires; aborting", "key", KeyLock, "err", err)
				lost(ErrLockLost)
				return
			default:
				logger.Warn("migrations: renewing the lock failed; retrying", "key", KeyLock, "err", err)
			}
		}
	}()
	return held, func() {
		lost(nil)
		<-done
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := unlockScript.Run(ctx, c, []string{KeyLock}, token).Err(); err != nil {
			logger.Warn("migrations: releasing the lock failed; it expires", "key", KeyLock, "err", err)
		}
	}, token, nil
}

func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if eventlog.IsUnavailable(err) {
		return fmt.Errorf("%w: %s: %w", ErrUnavailable, op, err)
	}
	return fmt.Errorf("migrations: %s: %w", op, err)
}
