package eventlog

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pipelineCounter counts pipelines of append scripts and the scripts in them.
type pipelineCounter struct {
	pipelines, cmds atomic.Int64
}

func (*pipelineCounter) DialHook(next redis.DialHook) redis.DialHook { return next }
func (*pipelineCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return next
}
func (p *pipelineCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		n := 0
		for _, c := range cmds {
			if c.Name() == "evalsha" {
				n++
			}
		}
		if n > 0 {
			p.pipelines.Add(1)
			p.cmds.Add(int64(n))
		}
		return next(ctx, cmds)
	}
}

// TestBatchedAppendsKeepEachRoomsOrder: many rooms appending at once share pipelines
// (fewer round trips than appends), and every room's log is exactly its appends in
// order, with the seq checks still per room (a stale append in a batch conflicts
// alone).
func TestBatchedAppendsKeepEachRoomsOrder(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		ctx := ctxT(t)
		pc := &pipelineCounter{}
		b.client.(*redis.Client).AddHook(pc)
		s := New(b.client, WithAppendPipelines(1))
		const rooms, each = 64, 30
		for i := range rooms {
			require.NoError(t, s.Create(ctx, fmt.Sprintf("b%d", i), nil, []byte("created"), Touch(time.Now(), IndexLive)))
		}
		var wg sync.WaitGroup
		var conflicts atomic.Int64
		for i := range rooms {
			wg.Add(1)
			go func() {
				defer wg.Done()
				id := fmt.Sprintf("b%d", i)
				for j := range each {
					seq, err := s.Append(ctx, id, uint64(1+j), [][]byte{fmt.Appendf(nil, "%s-%d", id, j)},
						map[string]string{"ply": fmt.Sprint(j)}, Touch(time.Now(), IndexLive))
					if !assert.NoError(t, err) {
						return
					}
					assert.Equal(t, uint64(2+j), seq)
					// A stale writer: same seq again, different event.
					if j%10 == 0 {
						_, err = s.Append(ctx, id, uint64(1+j), [][]byte{[]byte("stale")}, nil, IndexUpdate{})
						if assert.ErrorIs(t, err, ErrSeqConflict) {
							conflicts.Add(1)
						}
					}
				}
			}()
		}
		wg.Wait()
		for i := range rooms {
			id := fmt.Sprintf("b%d", i)
			evs, err := s.Events(ctx, id, 1)
			require.NoError(t, err)
			require.Len(t, evs, each)
			for j, e := range evs {
				assert.Equal(t, fmt.Sprintf("%s-%d", id, j), string(e))
			}
			f, seq, err := s.Load(ctx, id)
			require.NoError(t, err)
			assert.Equal(t, uint64(1+each), seq)
			assert.Equal(t, fmt.Sprint(each-1), f["ply"])
		}
		assert.Equal(t, int64(rooms*each/10), conflicts.Load())
		batched := pc.cmds.Load()
		t.Logf("%s: %d appends, %d of them in %d pipelines", b.name, rooms*each*11/10, batched, pc.pipelines.Load())
		assert.Positive(t, pc.pipelines.Load(), "concurrent appends never shared a pipeline")
		assert.Greater(t, batched, 2*pc.pipelines.Load(), "pipelines of two or fewer scripts on average")
	})
}

// TestBatchedAppendsReloadLostScripts: after Redis forgot its scripts (SCRIPT FLUSH,
// as after a restart), pipelined EVALSHAs fail with NOSCRIPT and are run again with
// EVAL: nothing is lost or doubled.
func TestBatchedAppendsReloadLostScripts(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		ctx := ctxT(t)
		s := New(b.client, WithAppendPipelines(1))
		const rooms = 32
		for i := range rooms {
			require.NoError(t, s.Create(ctx, fmt.Sprintf("n%d", i), nil, []byte("created"), IndexUpdate{}))
		}
		require.NoError(t, b.client.ScriptFlush(ctx).Err())
		var wg sync.WaitGroup
		for i := range rooms {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := s.Append(ctx, fmt.Sprintf("n%d", i), 1, [][]byte{[]byte("move")}, nil, IndexUpdate{})
				assert.NoError(t, err)
			}()
		}
		wg.Wait()
		for i := range rooms {
			evs, err := s.Events(ctx, fmt.Sprintf("n%d", i), 0)
			require.NoError(t, err)
			assert.Equal(t, [][]byte{[]byte("created"), []byte("move")}, evs)
		}
	})
}

// TestBatcherDropsCancelledRequests: a request whose context ended while it was
// queued is never sent.
func TestBatcherDropsCancelledRequests(t *testing.T) {
	b := miniBackend(t)
	ctx := ctxT(t)
	s := New(b.client)
	require.NoError(t, s.Create(ctx, "c1", nil, []byte("created"), IndexUpdate{}))
	bt := &batcher{c: b.client, max: 1, inflight: 1} // a pipeline "in flight": requests queue
	s.batch = bt
	cctx, cancel := context.WithCancel(ctx)
	errC := make(chan error, 1)
	go func() {
		_, err := s.Append(cctx, "c1", 1, [][]byte{[]byte("never")}, nil, IndexUpdate{})
		errC <- err
	}()
	require.Eventually(t, func() bool { bt.mu.Lock(); defer bt.mu.Unlock(); return len(bt.queue) == 1 }, 5*time.Second, time.Millisecond)
	cancel()
	require.ErrorIs(t, <-errC, context.Canceled)
	bt.flush() // the "in-flight" pipeline ends: the queue is served
	evs, err := s.Events(ctx, "c1", 0)
	require.NoError(t, err)
	assert.Equal(t, [][]byte{[]byte("created")}, evs)
	bt.mu.Lock()
	defer bt.mu.Unlock()
	assert.Zero(t, bt.inflight)
	assert.Empty(t, bt.queue)
}

// TestAppendPipelinesOff: WithAppendPipelines(-1) sends every append on its own round
// trip (the yardstick of the raw measurement before group commit).
func TestAppendPipelinesOff(t *testing.T) {
	b := miniBackend(t)
	ctx := ctxT(t)
	pc := &pipelineCounter{}
	b.client.(*redis.Client).AddHook(pc)
	s := New(b.client, WithAppendPipelines(-1))
	var wg sync.WaitGroup
	for i := range 16 {
		require.NoError(t, s.Create(ctx, fmt.Sprintf("u%d", i), nil, []byte("created"), IndexUpdate{}))
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.Append(ctx, fmt.Sprintf("u%d", i), 1, [][]byte{[]byte("move")}, nil, IndexUpdate{})
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	assert.Zero(t, pc.pipelines.Load())
}

// TestLoneAppendsRunDirectly: appends that never overlap are sent at once on the
// caller's goroutine, not as pipelines, and leave no slot taken.
func TestLoneAppendsRunDirectly(t *testing.T) {
	b := miniBackend(t)
	ctx := ctxT(t)
	pc := &pipelineCounter{}
	b.client.(*redis.Client).AddHook(pc)
	s := New(b.client)
	require.NoError(t, s.Create(ctx, "lone", nil, []byte("created"), IndexUpdate{}))
	for i := range 20 {
		_, err := s.Append(ctx, "lone", uint64(1+i), [][]byte{[]byte("move")}, nil, IndexUpdate{})
		require.NoError(t, err)
	}
	assert.Zero(t, pc.pipelines.Load())
	s.batch.mu.Lock()
	defer s.batch.mu.Unlock()
	assert.Zero(t, s.batch.inflight)
	assert.Empty(t, s.batch.queue)
}
