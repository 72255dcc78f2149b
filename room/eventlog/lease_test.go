package eventlog

import (
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRenewAndReleaseLeasesPipelined: many leases renewed and released in pipelines of
// leaseChunk scripts, each room's answer its own (held by us, by another node, free),
// also after Redis forgot its scripts.
func TestRenewAndReleaseLeasesPipelined(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		ctx := ctxT(t)
		pc := &pipelineCounter{}
		b.client.(*redis.Client).AddHook(pc)
		s := New(b.client)
		// The renewal's TTL is longer than the acquisition's, so a renewed lease shows by its
		// remaining time: nothing here depends on how fast the machine sets up 600 leases.
		const ttl, renewTTL = time.Minute, 2 * time.Minute
		n := leaseChunk + 88
		ids := make([]string, n)
		want := make([]bool, n)
		for i := range ids {
			ids[i] = fmt.Sprintf("l%d", i)
			owner := "A"
			switch i % 10 {
			case 3:
				owner = "B" // held by another node
			case 7:
				continue // free
			}
			ok, err := s.AcquireLease(ctx, ids[i], owner, ttl)
			require.NoError(t, err)
			require.True(t, ok)
			want[i] = owner == "A"
		}
		require.NoError(t, b.client.ScriptFlush(ctx).Err()) // NOSCRIPT: retried with EVAL
		held, err := s.RenewLeases(ctx, "A", renewTTL, ids)
		require.NoError(t, err)
		assert.Equal(t, want, held)
		// Two chunks; the first is sent again once after loading the flushed script.
		assert.Equal(t, int64(3), pc.pipelines.Load(), "one pipeline per leaseChunk rooms")
		for i, id := range ids {
			holder, left, err := s.LeaseHolder(ctx, id)
			require.NoError(t, err)
			switch {
			case want[i]:
				assert.Equal(t, "A", holder, id)
				assert.Greater(t, left, ttl, "renewed for renewTTL: %s", id)
			case i%10 == 3:
				assert.Equal(t, "B", holder, id)
				assert.LessOrEqual(t, left, ttl, "another node's lease not renewed: %s", id)
			case i%10 == 7:
				assert.Empty(t, holder, "free lease taken by a renewal: %s", id)
			}
		}

		released, err := s.ReleaseLeases(ctx, "A", ids[:10])
		require.NoError(t, err)
		assert.Equal(t, want[:10], released)
		for i, id := range ids[:10] {
			holder, _, err := s.LeaseHolder(ctx, id)
			require.NoError(t, err)
			if want[i] {
				assert.Empty(t, holder, "released: %s", id)
			}
		}

		_, err = s.RenewLeases(ctx, "", ttl, ids)
		assert.ErrorIs(t, err, ErrBadRequest)
		_, err = s.RenewLeases(ctx, "A", 0, ids)
		assert.ErrorIs(t, err, ErrBadRequest)
		_, err = s.ReleaseLeases(ctx, "A", []string{""})
		assert.ErrorIs(t, err, ErrBadRequest)
		held, err = s.RenewLeases(ctx, "A", ttl, nil)
		require.NoError(t, err)
		assert.Empty(t, held)
	})
}

// TestLeaseRecordsAliveAt: renewing and releasing a lease note in the room's state hash
// when the room last ran (AliveAt); a node that does not hold the lease notes nothing,
// and a room without a state hash gets none.
func TestLeaseRecordsAliveAt(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		ctx := ctxT(t)
		s := New(b.client)
		const ttl = 3 * time.Second
		at, err := s.AliveAt(ctx, "al1")
		require.NoError(t, err)
		assert.True(t, at.IsZero(), "never renewed")
		require.NoError(t, b.client.HSet(ctx, KeysFor("al1").State, FieldSeq, 1).Err())
		ok, err := s.AcquireLease(ctx, "al1", "A", ttl)
		require.NoError(t, err)
		require.True(t, ok)
		within := func(what string, before time.Time) time.Time {
			t.Helper()
			at, err := s.AliveAt(ctx, "al1")
			require.NoError(t, err)
			assert.False(t, at.Before(before.Truncate(time.Millisecond)), what)
			assert.False(t, at.After(time.Now()), what)
			return at
		}
		before := time.Now()
		held, err := s.RenewLeases(ctx, "A", ttl, []string{"al1"})
		require.NoError(t, err)
		require.Equal(t, []bool{true}, held)
		renewed := within("renewed", before)

		held, err = s.RenewLeases(ctx, "B", ttl, []string{"al1"}) // not B's
		require.NoError(t, err)
		require.Equal(t, []bool{false}, held)
		at, err = s.AliveAt(ctx, "al1")
		require.NoError(t, err)
		assert.Equal(t, renewed, at, "another node's renewal notes nothing")

		time.Sleep(5 * time.Millisecond)
		before = time.Now()
		released, err := s.ReleaseLeases(ctx, "A", []string{"al1"})
		require.NoError(t, err)
		require.Equal(t, []bool{true}, released)
		within("released", before)

		// A lease on a room whose state is gone does not bring the hash back.
		ok, err = s.AcquireLease(ctx, "al2", "A", ttl)
		require.NoError(t, err)
		require.True(t, ok)
		ok, err = s.RenewLease(ctx, "al2", "A", ttl)
		require.NoError(t, err)
		require.True(t, ok)
		n, err := b.client.Exists(ctx, KeysFor("al2").State).Result()
		require.NoError(t, err)
		assert.Zero(t, n)
	})
}
