package eventlog

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ev(i int) []byte { return []byte(fmt.Sprintf(`{"kind":"move","n":%d}`, i)) }

func TestCreateLoadEvents(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		ctx := ctxT(t)
		s := New(b.client)
		now := time.UnixMilli(1_700_000_000_000)
		require.NoError(t, s.Create(ctx, "r1", map[string]string{"rule": "renju", "phase": "open"}, ev(1), Touch(now, IndexLive, IndexOpen)))
		err := s.Create(ctx, "r1", nil, ev(1), IndexUpdate{})
		require.ErrorIs(t, err, ErrExists)

		f, seq, err := s.Load(ctx, "r1")
		require.NoError(t, err)
		assert.Equal(t, uint64(1), seq)
		assert.Equal(t, map[string]string{"rule": "renju", "phase": "open"}, f)

		seq, err = s.Append(ctx, "r1", 1, [][]byte{ev(2), ev(3)}, map[string]string{"phase": "playing", "ply": "2"}, IndexUpdate{})
		require.NoError(t, err)
		assert.Equal(t, uint64(3), seq)
		f, seq, err = s.Load(ctx, "r1")
		require.NoError(t, err)
		assert.Equal(t, uint64(3), seq)
		assert.Equal(t, map[string]string{"rule": "renju", "phase": "playing", "ply": "2"}, f)

		for _, tc := range []struct {
			from uint64
			want [][]byte
		}{
			{0, [][]byte{ev(1), ev(2), ev(3)}},
			{1, [][]byte{ev(2), ev(3)}},
			{2, [][]byte{ev(3)}},
			{3, [][]byte{}},
			{9, [][]byte{}},
		} {
			got, err := s.Events(ctx, "r1", tc.from)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got, "from %d", tc.from)
		}

		// Zero events: fields only, seq unchanged.
		seq, err = s.Append(ctx, "r1", 3, nil, map[string]string{"clock_black": "1000"}, IndexUpdate{})
		require.NoError(t, err)
		assert.Equal(t, uint64(3), seq)

		rec, err := s.Export(ctx, "r1")
		require.NoError(t, err)
		assert.Equal(t, uint64(3), rec.Seq)
		assert.Len(t, rec.Events, 3)
		assert.Equal(t, "1000", rec.Fields["clock_black"])
		assert.Zero(t, rec.ExpiresIn)

		// A nil first event leaves the room at seq 0.
		require.NoError(t, s.Create(ctx, "r0", map[string]string{"a": "b"}, nil, IndexUpdate{}))
		_, seq, err = s.Load(ctx, "r0")
		require.NoError(t, err)
		assert.Zero(t, seq)

		require.NoError(t, s.Delete(ctx, "r1"))
		_, _, err = s.Load(ctx, "r1")
		require.ErrorIs(t, err, ErrNoSuchRoom)
	})
}

func TestErrors(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		ctx := ctxT(t)
		s := New(b.client)
		_, _, err := s.Load(ctx, "nope")
		assert.ErrorIs(t, err, ErrNoSuchRoom)
		_, err = s.Events(ctx, "nope", 0)
		assert.ErrorIs(t, err, ErrNoSuchRoom)
		_, err = s.Append(ctx, "nope", 0, [][]byte{ev(1)}, nil, IndexUpdate{})
		assert.ErrorIs(t, err, ErrNoSuchRoom)
		_, err = s.Export(ctx, "nope")
		assert.ErrorIs(t, err, ErrNoSuchRoom)
		assert.ErrorIs(t, s.Finish(ctx, "nope", time.Now()), ErrNoSuchRoom)

		for _, id := range []string{"", "a{b", "a}b", "a b", "x\n"} {
			assert.ErrorIs(t, s.Create(ctx, id, nil, ev(1), IndexUpdate{}), ErrBadRequest, "id %q", id)
		}
		require.NoError(t, s.Create(ctx, "r", nil, ev(1), IndexUpdate{}))
		_, err = s.Append(ctx, "r", 1, nil, map[string]string{"seq": "7"}, IndexUpdate{})
		assert.ErrorIs(t, err, ErrBadRequest)
		_, err = s.Append(ctx, "r", 1, nil, nil, IndexUpdate{Add: []Index{"bogus"}})
		assert.ErrorIs(t, err, ErrBadRequest)
		_, err = s.Append(ctx, "r", 1, make([][]byte, MaxBatch+1), nil, IndexUpdate{})
		assert.ErrorIs(t, err, ErrBadRequest)

		// Retrying an append that was stored (reply lost) is a success, not a double.
		seq, err := s.Append(ctx, "r", 1, [][]byte{ev(2), ev(3)}, nil, IndexUpdate{})
		require.NoError(t, err)
		require.Equal(t, uint64(3), seq)
		seq, err = s.Append(ctx, "r", 1, [][]byte{ev(2), ev(3)}, nil, IndexUpdate{})
		require.NoError(t, err)
		assert.Equal(t, uint64(3), seq)
		_, err = s.Append(ctx, "r", 1, [][]byte{ev(2), ev(4)}, nil, IndexUpdate{})
		require.ErrorIs(t, err, ErrSeqConflict, "different events: a real conflict")
		_, err = s.Append(ctx, "r", 2, [][]byte{ev(3)}, nil, IndexUpdate{})
		require.NoError(t, err, "suffix of the stored events")
		require.NoError(t, s.Create(ctx, "r2", nil, ev(1), IndexUpdate{}))

		// Stale expected seq: conflict, current seq returned, nothing written.
		seq, err = s.Append(ctx, "r2", 0, [][]byte{ev(9)}, map[string]string{"x": "y"}, IndexUpdate{})
		require.ErrorIs(t, err, ErrSeqConflict)
		assert.Equal(t, uint64(1), seq)
		f, seq, err := s.Load(ctx, "r2")
		require.NoError(t, err)
		assert.Equal(t, uint64(1), seq)
		assert.NotContains(t, f, "x")
		evs, err := s.Events(ctx, "r2", 0)
		require.NoError(t, err)
		assert.Len(t, evs, 1)
		evs, err = s.Events(ctx, "r", 0)
		require.NoError(t, err)
		assert.Equal(t, [][]byte{ev(1), ev(2), ev(3)}, evs)
	})
}

// TestConcurrentWriters races N writers on one room: every seq is won by
// exactly one append, the log is contiguous, and nothing is lost or doubled.
func TestConcurrentWriters(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		ctx := ctxT(t)
		s := New(b.client)
		require.NoError(t, s.Create(ctx, "race", nil, []byte("created"), IndexUpdate{}))
		const writers, each = 8, 25
		var mu sync.Mutex
		winners := map[uint64]string{} // expected seq -> winning event
		conflicts := 0
		var wg sync.WaitGroup
		for w := 0; w < writers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for i := 0; i < each; {
					_, seq, err := s.Load(ctx, "race")
					if !assert.NoError(t, err) {
						return
					}
					e := fmt.Sprintf("w%d-%d", w, i)
					got, err := s.Append(ctx, "race", seq, [][]byte{[]byte(e)}, map[string]string{"last": e}, IndexUpdate{})
					mu.Lock()
					switch {
					case err == nil:
						assert.Equal(t, seq+1, got)
						_, dup := winners[seq]
						assert.False(t, dup, "two winners for seq %d", seq+1)
						winners[seq] = e
						i++
					case errors.Is(err, ErrSeqConflict):
						conflicts++
					default:
						assert.NoError(t, err)
						mu.Unlock()
						return
					}
					mu.Unlock()
				}
			}(w)
		}
		wg.Wait()
		evs, err := s.Events(ctx, "race", 1)
		require.NoError(t, err)
		require.Len(t, evs, writers*each)
		seen := map[string]bool{}
		for i, e := range evs {
			assert.Equal(t, winners[uint64(i+1)], string(e), "seq %d", i+2)
			assert.False(t, seen[string(e)], "doubled %s", e)
			seen[string(e)] = true
		}
		f, seq, err := s.Load(ctx, "race")
		require.NoError(t, err)
		assert.Equal(t, uint64(1+writers*each), seq)
		assert.Equal(t, string(evs[len(evs)-1]), f["last"])
		t.Logf("%s: %d appends, %d conflicts", b.name, writers*each, conflicts)
	})
}

func TestPubSubOrder(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		ctx := ctxT(t)
		s := New(b.client)
		require.NoError(t, s.Create(ctx, "ps", nil, ev(0), IndexUpdate{}))
		msgs, closeSub, err := s.Subscribe(ctx, "ps")
		require.NoError(t, err)
		defer closeSub()
		// A second room's events must not leak in.
		require.NoError(t, s.Create(ctx, "other", nil, ev(0), IndexUpdate{}))

		const n = 300
		writer := make(chan struct{})
		defer func() { <-writer }() // the script publishes before its reply arrives
		go func() {
			defer close(writer)
			seq := uint64(1)
			for i := 1; i <= n; i += 3 {
				var err error
				seq, err = s.Append(ctx, "ps", seq, [][]byte{ev(i), ev(i + 1), ev(i + 2)}, nil, IndexUpdate{})
				if !assert.NoError(t, err) {
					return
				}
				if i == 151 {
					assert.NoError(t, s.Publish(ctx, "ps", []byte("ephemeral")))
				}
				_, _ = s.Append(ctx, "other", uint64(i/3+1), [][]byte{ev(-1)}, nil, IndexUpdate{})
			}
		}()
		want := uint64(2)
		sawEphemeral := false
		timeout := time.After(20 * time.Second)
		for want <= n+1 {
			select {
			case m, ok := <-msgs:
				require.True(t, ok)
				require.False(t, m.Reconnected)
				if m.Seq == 0 {
					assert.Equal(t, "ephemeral", string(m.Data))
					sawEphemeral = true
					continue
				}
				require.Equal(t, want, m.Seq)
				require.Equal(t, ev(int(want-1)), m.Data)
				want++
			case <-timeout:
				t.Fatalf("stuck at seq %d", want)
			}
		}
		assert.True(t, sawEphemeral)
		closeSub()
		_, open := <-msgs
		for open {
			_, open = <-msgs
		}
	})
}

func TestLobbyAndRetention(t *testing.T) {
	for _, inScript := range []bool{true, false} {
		t.Run("inScript="+strconv.FormatBool(inScript), func(t *testing.T) {
			eachBackend(t, func(t *testing.T, b *backend) {
				ctx := ctxT(t)
				now := time.Now()
				s := New(b.client, WithLobbyInScript(inScript), WithRetention(time.Hour), WithClock(func() time.Time { return now }))
				for i := 0; i < 5; i++ {
					id := fmt.Sprintf("room%d", i)
					require.NoError(t, s.Create(ctx, id, nil, ev(0), Touch(now.Add(time.Duration(i)*time.Millisecond), IndexLive, IndexOpen)))
				}
				ids, next, err := s.List(ctx, IndexOpen, "", 2)
				require.NoError(t, err)
				assert.Equal(t, []string{"room4", "room3"}, ids)
				ids, next, err = s.List(ctx, IndexOpen, next, 2)
				require.NoError(t, err)
				assert.Equal(t, []string{"room2", "room1"}, ids)
				ids, next, err = s.List(ctx, IndexOpen, next, 2)
				require.NoError(t, err)
				assert.Equal(t, []string{"room0"}, ids)
				assert.Empty(t, next)

				// room1 starts: leaves open, activity bumps it to the top of live.
				_, err = s.Append(ctx, "room1", 1, [][]byte{ev(1)}, nil, Touch(now.Add(time.Second), IndexLive))
				require.NoError(t, err)
				ids, _, err = s.List(ctx, IndexLive, "", 10)
				require.NoError(t, err)
				assert.Equal(t, []string{"room1", "room4", "room3", "room2", "room0"}, ids)
				n, err := s.Count(ctx, IndexOpen)
				require.NoError(t, err)
				assert.Equal(t, int64(4), n)

				// room1 ends: finished, with the retention TTL on its keys.
				_, err = s.Append(ctx, "room1", 2, [][]byte{[]byte(`{"kind":"game_over"}`)}, map[string]string{"phase": "over"}, FinishUpdate(now.Add(2*time.Second)))
				require.NoError(t, err)
				ids, _, err = s.List(ctx, IndexFinished, "", 10)
				require.NoError(t, err)
				assert.Equal(t, []string{"room1"}, ids)
				live, err := s.LiveRooms(ctx)
				require.NoError(t, err)
				assert.ElementsMatch(t, []string{"room0", "room2", "room3", "room4"}, live)
				rec, err := s.Export(ctx, "room1")
				require.NoError(t, err)
				assert.InDelta(t, time.Hour.Seconds(), rec.ExpiresIn.Seconds(), 5)
				ttl, err := b.client.PTTL(ctx, KeysFor("room1").Events).Result()
				require.NoError(t, err)
				assert.InDelta(t, time.Hour.Seconds(), ttl.Seconds(), 5)

				// Rematch revives it: TTL removed, live again.
				_, err = s.Append(ctx, "room1", 3, [][]byte{[]byte(`{"kind":"rematch"}`)}, nil, Touch(now.Add(3*time.Second), IndexLive))
				require.NoError(t, err)
				rec, err = s.Export(ctx, "room1")
				require.NoError(t, err)
				assert.Zero(t, rec.ExpiresIn)
				ids, _, err = s.List(ctx, IndexFinished, "", 10)
				require.NoError(t, err)
				assert.Empty(t, ids)

				// Finish without an event; then the retention runs out.
				require.NoError(t, s.Finish(ctx, "room2", now.Add(4*time.Second)))
				ids, _, err = s.List(ctx, IndexFinished, "", 10)
				require.NoError(t, err)
				assert.Equal(t, []string{"room2"}, ids)
				if b.real {
					return // an hour is too long to wait; miniredis fast-forwards
				}
				b.advance(time.Hour + time.Minute)
				now = now.Add(time.Hour + time.Minute)
				_, _, err = s.Load(ctx, "room2")
				assert.ErrorIs(t, err, ErrNoSuchRoom)
				ids, _, err = s.List(ctx, IndexFinished, "", 10)
				require.NoError(t, err)
				assert.Empty(t, ids, "expired finished entries are pruned")
				_, _, err = s.Load(ctx, "room3") // live rooms have no TTL
				assert.NoError(t, err)
			})
		})
	}
}

func TestListErrors(t *testing.T) {
	s := New(miniBackend(t).client)
	ctx := ctxT(t)
	_, _, err := s.List(ctx, "nope", "", 10)
	assert.ErrorIs(t, err, ErrBadRequest)
	_, _, err = s.List(ctx, IndexLive, "x", 10)
	assert.ErrorIs(t, err, ErrBadRequest)
	_, _, err = s.List(ctx, IndexLive, "", 0)
	assert.ErrorIs(t, err, ErrBadRequest)
	fs, seqs, err := s.LoadMany(ctx, []string{"a", "b"})
	require.NoError(t, err)
	assert.Equal(t, []map[string]string{nil, nil}, fs)
	assert.Equal(t, []uint64{0, 0}, seqs)
	require.NoError(t, s.Create(ctx, "b", map[string]string{"k": "v"}, ev(1), IndexUpdate{}))
	fs, seqs, err = s.LoadMany(ctx, []string{"a", "b"})
	require.NoError(t, err)
	assert.Equal(t, []map[string]string{nil, {"k": "v"}}, fs)
	assert.Equal(t, []uint64{0, 1}, seqs)
}

// TestActiveIndex: every unfinished room is found for recovery, including
// private rooms that are in no lobby set.
func TestActiveIndex(t *testing.T) {
	for _, inScript := range []bool{true, false} {
		t.Run("inScript="+strconv.FormatBool(inScript), func(t *testing.T) {
			eachBackend(t, func(t *testing.T, b *backend) {
				ctx := ctxT(t)
				s := New(b.client, WithLobbyInScript(inScript))
				now := time.Now()
				require.NoError(t, s.Create(ctx, "private", nil, ev(1), IndexUpdate{}))
				require.NoError(t, s.Create(ctx, "public", nil, ev(1), Touch(now, IndexOpen, IndexLive)))
				require.NoError(t, s.Create(ctx, "imported", nil, ev(1), FinishUpdate(now)))
				live, err := s.LiveRooms(ctx)
				require.NoError(t, err)
				assert.ElementsMatch(t, []string{"private", "public"}, live)
				ids, _, err := s.List(ctx, IndexLive, "", 10)
				require.NoError(t, err)
				assert.Equal(t, []string{"public"}, ids)

				_, err = s.Append(ctx, "private", 1, [][]byte{ev(2)}, nil, FinishUpdate(now))
				require.NoError(t, err)
				live, err = s.LiveRooms(ctx)
				require.NoError(t, err)
				assert.Equal(t, []string{"public"}, live)
				// A private rematch: no lobby set, but active again.
				_, err = s.Append(ctx, "private", 2, [][]byte{ev(3)}, nil, IndexUpdate{Remove: []Index{IndexFinished}})
				require.NoError(t, err)
				n, err := s.Count(ctx, IndexActive)
				require.NoError(t, err)
				assert.Equal(t, int64(2), n)
				rec, err := s.Export(ctx, "private")
				require.NoError(t, err)
				assert.Zero(t, rec.ExpiresIn, "retention TTL removed")
				ids, _, err = s.List(ctx, IndexLive, "", 10)
				require.NoError(t, err)
				assert.Equal(t, []string{"public"}, ids, "still not in the public lobby")

				_, err = s.Append(ctx, "public", 1, nil, nil, IndexUpdate{Add: []Index{IndexActive}})
				assert.ErrorIs(t, err, ErrBadRequest)
				require.NoError(t, s.Delete(ctx, "public"))
				live, err = s.LiveRooms(ctx)
				require.NoError(t, err)
				assert.Equal(t, []string{"private"}, live)
			})
		})
	}
}
