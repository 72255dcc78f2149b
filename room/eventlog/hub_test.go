package eventlog

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func recv(t *testing.T, ch <-chan Message) Message {
	t.Helper()
	select {
	case m, ok := <-ch:
		require.True(t, ok, "channel closed")
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("timeout waiting for a message")
	}
	return Message{}
}

func TestHubManyRoomsOneConnection(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		ctx := ctxT(t)
		s := New(b.client)
		h := s.NewHub()
		defer h.Close()
		const rooms = 40
		subs := make([]<-chan Message, rooms)
		for i := 0; i < rooms; i++ {
			id := fmt.Sprint("h", i)
			require.NoError(t, s.Create(ctx, id, nil, ev(1), IndexUpdate{}))
			var err error
			subs[i], _, err = h.Subscribe(ctx, id)
			require.NoError(t, err)
		}
		// A second subscriber of room 0.
		extra, closeExtra, err := h.Subscribe(ctx, "h0")
		require.NoError(t, err)
		assert.Equal(t, rooms, h.Rooms())
		if b.real {
			list, err := b.client.ClientList(ctx).Result()
			require.NoError(t, err)
			assert.Equal(t, 1, strings.Count(list, "sub=")-strings.Count(list, "sub=0 "), "one pub/sub connection:\n%s", list)
		}
		var wg sync.WaitGroup
		for i := 0; i < rooms; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				seq := uint64(1)
				for k := 0; k < 10; k++ {
					var err error
					seq, err = s.Append(ctx, fmt.Sprint("h", i), seq, [][]byte{ev(i*100 + k)}, nil, IndexUpdate{})
					assert.NoError(t, err)
				}
			}(i)
		}
		for i := 0; i < rooms; i++ {
			for k := 0; k < 10; k++ {
				m := recv(t, subs[i])
				require.Equal(t, uint64(k+2), m.Seq, "room %d", i)
				require.Equal(t, ev(i*100+k), m.Data)
			}
		}
		for k := 0; k < 10; k++ {
			assert.Equal(t, uint64(k+2), recv(t, extra).Seq)
		}
		wg.Wait()
		closeExtra()
		closeExtra() // idempotent
		_, open := <-extra
		assert.False(t, open)
		_, err = s.Append(ctx, "h0", 11, [][]byte{ev(-1)}, nil, IndexUpdate{})
		require.NoError(t, err)
		assert.Equal(t, uint64(12), recv(t, subs[0]).Seq, "the other subscriber of the room still gets events")
	})
}

func TestHubChurn(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		ctx := ctxT(t)
		s := New(b.client)
		h := s.NewHub()
		defer h.Close()
		require.NoError(t, s.Create(ctx, "churn", nil, ev(1), IndexUpdate{}))
		seq := uint64(1)
		for i := 0; i < 60; i++ {
			msgs, unsub, err := h.Subscribe(ctx, "churn")
			require.NoError(t, err)
			seq, err = s.Append(ctx, "churn", seq, [][]byte{ev(i)}, nil, IndexUpdate{})
			require.NoError(t, err)
			m := recv(t, msgs)
			require.Equal(t, seq, m.Seq, "round %d", i)
			if i%3 == 0 {
				// Unsubscribe immediately after a subscribe of another sink.
				m2, unsub2, err := h.Subscribe(ctx, "churn")
				require.NoError(t, err)
				unsub2()
				_, open := <-m2
				assert.False(t, open)
			}
			unsub()
		}
		require.Eventually(t, func() bool { return h.Rooms() == 0 }, 5*time.Second, 10*time.Millisecond)
	})
}

func TestHubSlowSubscriberGap(t *testing.T) {
	b := miniBackend(t)
	ctx := ctxT(t)
	s := New(b.client)
	h := s.NewHub()
	defer h.Close()
	require.NoError(t, s.Create(ctx, "slow", nil, ev(1), IndexUpdate{}))
	slow, _, err := h.Subscribe(ctx, "slow")
	require.NoError(t, err)
	fast, _, err := h.Subscribe(ctx, "slow")
	require.NoError(t, err)
	seq := uint64(1)
	for i := 0; i < sinkBuffer+50; i++ {
		seq, err = s.Append(ctx, "slow", seq, [][]byte{ev(i)}, nil, IndexUpdate{})
		require.NoError(t, err)
		assert.Equal(t, seq, recv(t, fast).Seq, "a slow subscriber never delays others")
	}
	for i := 0; i < sinkBuffer; i++ {
		assert.Equal(t, uint64(i+2), recv(t, slow).Seq)
	}
	seq, err = s.Append(ctx, "slow", seq, [][]byte{ev(-1)}, nil, IndexUpdate{})
	require.NoError(t, err)
	assert.True(t, recv(t, slow).Reconnected, "the gap is reported")
	assert.Equal(t, seq, recv(t, slow).Seq)
}

func TestHubReconnect(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		ctx := ctxT(t)
		s := New(b.client)
		h := s.NewHub()
		defer h.Close()
		require.NoError(t, s.Create(ctx, "a", nil, ev(1), IndexUpdate{}))
		require.NoError(t, s.Create(ctx, "b", nil, ev(1), IndexUpdate{}))
		ma, _, err := h.Subscribe(ctx, "a")
		require.NoError(t, err)
		mb, _, err := h.Subscribe(ctx, "b")
		require.NoError(t, err)
		b.kill()
		short, cancel := context.WithTimeout(ctx, 3*time.Second)
		_, _, err = h.Subscribe(short, "c")
		cancel()
		assert.ErrorIs(t, err, ErrUnavailable)
		time.Sleep(100 * time.Millisecond)
		b.restart()
		assert.True(t, recv(t, ma).Reconnected)
		assert.True(t, recv(t, mb).Reconnected)
		_, err = s.Append(ctx, "b", 1, [][]byte{ev(2)}, nil, IndexUpdate{})
		require.NoError(t, err)
		assert.Equal(t, uint64(2), recv(t, mb).Seq)
		mc, _, err := h.Subscribe(ctx, "c")
		require.NoError(t, err)
		require.NoError(t, s.Publish(ctx, "c", []byte("x")))
		assert.Equal(t, Message{Data: []byte("x")}, recv(t, mc))
		require.NoError(t, h.Close())
		_, open := <-ma
		assert.False(t, open)
		_, _, err = h.Subscribe(ctx, "a")
		assert.Error(t, err)
	})
}

// TestHubConcurrentSubscribers: goroutines subscribe to and leave a few rooms
// at once; every live subscription gets every event.
func TestHubConcurrentSubscribers(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		ctx := ctxT(t)
		s := New(b.client)
		h := s.NewHub()
		defer h.Close()
		const rooms, workers = 3, 12
		for r := 0; r < rooms; r++ {
			require.NoError(t, s.Create(ctx, fmt.Sprint("cs", r), nil, ev(1), IndexUpdate{}))
		}
		var mu sync.Mutex // one writer per room at a time
		seqs := make([]uint64, rooms)
		for r := range seqs {
			seqs[r] = 1
		}
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for i := 0; i < 8; i++ {
					r := (w + i) % rooms
					id := fmt.Sprint("cs", r)
					msgs, unsub, err := h.Subscribe(ctx, id)
					if !assert.NoError(t, err) {
						return
					}
					mu.Lock()
					seq, err := s.Append(ctx, id, seqs[r], [][]byte{ev(w*100 + i)}, nil, IndexUpdate{})
					if err == nil {
						seqs[r] = seq
					}
					mu.Unlock()
					if !assert.NoError(t, err) {
						unsub()
						return
					}
					// Our own event arrives (others' events may come first).
					for {
						m := recv(t, msgs)
						if m.Seq == seq {
							assert.Equal(t, ev(w*100+i), m.Data)
							break
						}
						assert.Less(t, m.Seq, seq)
					}
					unsub()
				}
			}(w)
		}
		wg.Wait()
		require.Eventually(t, func() bool { return h.Rooms() == 0 }, 5*time.Second, 10*time.Millisecond)
	})
}
