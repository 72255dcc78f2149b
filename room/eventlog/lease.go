package eventlog

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
	k := KeysFor(roomID)
	n, err := sc.Run(ctx, s.c, []string{k.Owner, k.State}, nodeID, ms, s.now().UnixMilli()).Int()
	if err != nil {
		return false, wrap(op+" "+roomID, err)
	}
	return n == 1, nil
}

// AliveAt returns when the node holding the room's lease last renewed or released it
// (zero when none ever did): the room ran until then. A node that restores or takes
// over the room charges the side to move for its turn up to that time, not for the
// downtime after it.
func (s *Store) AliveAt(ctx context.Context, roomID string) (time.Time, error) {
	if !validID(roomID) {
		return time.Time{}, fmt.Errorf("%w: alive at: room %q", ErrBadRequest, roomID)
	}
	ms, err := s.c.HGet(ctx, KeysFor(roomID).State, FieldAliveAt).Int64()
	if errors.Is(err, redis.Nil) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, wrap("alive at "+roomID, err)
	}
	return time.UnixMilli(ms).UTC(), nil
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

// leaseChunk bounds the scripts of one lease pipeline.
const leaseChunk = 512

// RenewLeases is RenewLease for many rooms in pipelines (one round trip per
// leaseChunk rooms instead of one per room): held[i] reports whether nodeID still
// holds roomIDs[i]'s lease (now extended to ttl). A node renews all its leases every
// ttl/3; one by one, a thousand rooms took longer than the ttl on a busy machine, so
// leases ran out while they were being renewed. err is set (and held is nil) when
// Redis did not answer; a room whose own script failed otherwise counts as not held.
func (s *Store) RenewLeases(ctx context.Context, nodeID string, ttl time.Duration, roomIDs []string) ([]bool, error) {
	if nodeID == "" || ttl.Milliseconds() <= 0 {
		return nil, fmt.Errorf("%w: renew leases: node %q ttl %v", ErrBadRequest, nodeID, ttl)
	}
	return s.leases(ctx, leaseRenewScript, "renew leases", roomIDs, nodeID, ttl.Milliseconds())
}

// ReleaseLeases is ReleaseLease for many rooms in pipelines; released[i] reports
// whether nodeID held roomIDs[i]'s lease.
func (s *Store) ReleaseLeases(ctx context.Context, nodeID string, roomIDs []string) ([]bool, error) {
	if nodeID == "" {
		return nil, fmt.Errorf("%w: release leases: empty node id", ErrBadRequest)
	}
	return s.leases(ctx, leaseReleaseScript, "release leases", roomIDs, nodeID, 0)
}

func (s *Store) leases(ctx context.Context, sc *redis.Script, op string, roomIDs []string, nodeID string, ms int64) ([]bool, error) {
	for _, id := range roomIDs {
		if !validID(id) {
			return nil, fmt.Errorf("%w: %s: room %q", ErrBadRequest, op, id)
		}
	}
	out := make([]bool, len(roomIDs))
	now := s.now().UnixMilli()
	for lo := 0; lo < len(roomIDs); lo += leaseChunk {
		ids := roomIDs[lo:min(lo+leaseChunk, len(roomIDs))]
		calls := make([]scriptCall, len(ids))
		for i, id := range ids {
			k := KeysFor(id)
			calls[i] = scriptCall{keys: []string{k.Owner, k.State}, args: []any{nodeID, ms, now}}
		}
		cmds := evalPipelined(ctx, s.c, sc, calls)
		for i, id := range ids {
			n, err := cmds[i].Int()
			if err != nil && IsUnavailable(err) {
				return nil, wrap(op+" "+id, err)
			}
			out[lo+i] = err == nil && n == 1
		}
	}
	return out, nil
}
