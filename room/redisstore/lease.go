package redisstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// AcquireLease makes nodeID the owner of the room for ttl if the lease is
// free or already held by nodeID (then it is extended). It reports whether
// nodeID holds the lease. The owner runs the room's clocks and AI seats;
// it must renew well before ttl runs out (e.g. every ttl/3) and stop acting
// for the room as soon as a renewal fails or returns false.
func (s *Store) AcquireLease(ctx context.Context, roomID, nodeID string, ttl time.Duration) (bool, error) {
	return s.lease(ctx, leaseAcquireScript, "acquire lease", roomID, nodeID, ttl)
}

// RenewLease extends the lease for ttl if nodeID still holds it, and reports whether it does.
func (s *Store) RenewLease(ctx context.Context, roomID, nodeID string, ttl time.Duration) (bool, error) {
	return s.lease(ctx, leaseRenewScript, "renew lease", roomID, nodeID, ttl)
}

// ReleaseLease deletes the lease if nodeID holds it (compare-and-delete), so
// that another node can take the room at once (graceful hand-over). It
// reports whether nodeID held it.
func (s *Store) ReleaseLease(ctx context.Context, roomID, nodeID string) (bool, error) {
	return s.lease(ctx, leaseReleaseScript, "release lease", roomID, nodeID, 0)
}

func (s *Store) lease(ctx context.Context, sc *redis.Script, op, roomID, nodeID string, ttl time.Duration) (bool, error) {
	if !validID(roomID) || nodeID == "" {
		return false, fmt.Errorf("%w: %s: room %q node %q", ErrBadRequest, op, roomID, nodeID)
	}
	ms := ttl.Milliseconds()
	if sc != leaseReleaseScript && ms <= 0 {
		return false, fmt.Errorf("%w: %s: ttl %v", ErrBadRequest, op, ttl)
	}
	n, err := sc.Run(ctx, s.c, []string{KeysFor(roomID).Owner}, nodeID, ms).Int()
	if err != nil {
		return false, wrap(op+" "+roomID, err)
	}
	return n == 1, nil
}

// LeaseHolder returns the node holding the room's lease and its remaining
// time, or "" if the lease is free.
func (s *Store) LeaseHolder(ctx context.Context, roomID string) (string, time.Duration, error) {
	k := KeysFor(roomID).Owner
	var get *redis.StringCmd
	var ttl *redis.DurationCmd
	_, err := s.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		get = p.Get(ctx, k)
		ttl = p.PTTL(ctx, k)
		return nil
	})
	if errors.Is(err, redis.Nil) {
		return "", 0, nil
	}
	if err != nil {
		return "", 0, wrap("lease holder "+roomID, err)
	}
	return get.Val(), ttl.Val(), nil
}
