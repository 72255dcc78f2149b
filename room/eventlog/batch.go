package eventlog

import (
	"context"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// DefaultAppendPipelines is how many append pipelines may be in flight at once (see
// WithAppendPipelines).
const DefaultAppendPipelines = 2

// maxBatch bounds the scripts of one pipeline.
const maxBatch = 256

// batchTimeout bounds a pipeline whose callers all have no deadline.
const batchTimeout = 10 * time.Second

// batchGrace outlives the callers' deadline (see run).
const batchGrace = 100 * time.Millisecond

// evalReq is one append script call waiting for a pipeline.
type evalReq struct {
	ctx  context.Context
	keys []string
	args []any
	res  []int64
	err  error
	done chan struct{}
}

// batcher runs the append scripts of many rooms as pipelines (group commit): while a
// pipeline is in flight, the scripts that arrive meanwhile queue up and go together
// in the next one, so a node under load pays one write and one read syscall (on its
// side and on Redis's) per batch instead of per move. A room has at most one append
// in flight (its actor waits for it), so batching across rooms keeps every room's
// order; each script still checks its room's seq on its own.
//
// No goroutine runs while nothing is queued: a request that finds a free slot and an
// empty queue runs on its caller's goroutine; one that has to queue starts a flusher if
// a slot is free (or the slot's holder does when it is done), which ends when the queue
// is empty. An idle or lightly loaded node therefore sends each script at once, alone,
// with no goroutine hop.
type batcher struct {
	c   redis.UniversalClient
	max int

	mu       sync.Mutex
	queue    []*evalReq
	inflight int
}

func newBatcher(c redis.UniversalClient, pipelines int) *batcher {
	if pipelines == 0 {
		pipelines = DefaultAppendPipelines
	}
	return &batcher{c: c, max: pipelines}
}

// eval runs the append script with keys and args in the next pipeline and returns its
// reply. When ctx ends first, the script may or may not run (the caller treats it as
// an unknown outcome, like any lost reply).
func (b *batcher) eval(ctx context.Context, keys []string, args []any) ([]int64, error) {
	if b.max < 0 { // no group commit: one round trip per call
		return appendScript.Run(ctx, b.c, keys, args...).Int64Slice()
	}
	b.mu.Lock()
	if b.inflight < b.max && len(b.queue) == 0 {
		// Nothing to batch with: run it here, without a goroutine hop, holding a slot so
		// that the appends arriving meanwhile queue for the next pipeline.
		b.inflight++
		b.mu.Unlock()
		res, err := appendScript.Run(ctx, b.c, keys, args...).Int64Slice()
		b.release()
		return res, err
	}
	r := &evalReq{ctx: ctx, keys: keys, args: args, done: make(chan struct{})}
	b.queue = append(b.queue, r)
	start := b.inflight < b.max
	if start {
		b.inflight++
	}
	b.mu.Unlock()
	if start {
		go b.flush()
	}
	select {
	case <-r.done:
		return r.res, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// release gives up a slot held by a direct call: to a flusher when requests queued
// meanwhile.
func (b *batcher) release() {
	b.mu.Lock()
	if len(b.queue) > 0 {
		b.mu.Unlock()
		go b.flush() // the slot passes to it
		return
	}
	b.inflight--
	b.mu.Unlock()
}

// take removes up to maxBatch queued requests; when none are left it gives up its
// in-flight slot and returns nil.
func (b *batcher) take() []*evalReq {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.queue) == 0 {
		b.inflight--
		return nil
	}
	n := min(len(b.queue), maxBatch)
	out := make([]*evalReq, n)
	copy(out, b.queue)
	rest := copy(b.queue, b.queue[n:])
	clear(b.queue[rest:])
	b.queue = b.queue[:rest]
	return out
}

// flush sends pipelines until the queue is empty.
func (b *batcher) flush() {
	for {
		batch := b.take()
		if batch == nil {
			return
		}
		b.run(batch)
	}
}

// run sends one pipeline of scripts and hands each caller its reply.
func (b *batcher) run(batch []*evalReq) {
	live := batch[:0:0]
	deadline := time.Time{}
	for _, r := range batch {
		if err := r.ctx.Err(); err != nil { // gave up while queued: never sent
			r.err = err
			close(r.done)
			continue
		}
		live = append(live, r)
		d, ok := r.ctx.Deadline()
		if !ok {
			d = time.Now().Add(batchTimeout)
		}
		if d.After(deadline) {
			deadline = d
		}
	}
	if len(live) == 0 {
		return
	}
	if len(live) == 1 {
		// Alone: the plain call (EVALSHA, EVAL on NOSCRIPT) with the caller's context.
		r := live[0]
		r.res, r.err = appendScript.Run(r.ctx, b.c, r.keys, r.args...).Int64Slice()
		close(r.done)
		return
	}
	// The pipeline lives as long as its most patient caller (plus a moment, so that a
	// caller sees its own context end rather than the pipeline's); the others stop
	// waiting at their own deadline.
	ctx, cancel := context.WithDeadline(context.Background(), deadline.Add(batchGrace))
	defer cancel()
	calls := make([]scriptCall, len(live))
	for i, r := range live {
		calls[i] = scriptCall{keys: r.keys, args: r.args}
	}
	cmds := evalPipelined(ctx, b.c, appendScript, calls)
	for i, r := range live {
		r.res, r.err = cmds[i].Int64Slice()
		close(r.done)
	}
}

// scriptCall is one script invocation of a pipeline.
type scriptCall struct {
	keys []string
	args []any
}

// evalPipelined runs sc once per call in one pipeline of EVALSHAs. When Redis lacks
// the script (NOSCRIPT: a fresh or restarted Redis; nothing was run) it loads it once
// and sends those calls again, so a cold cache costs one more round trip, not one per
// call.
func evalPipelined(ctx context.Context, c redis.UniversalClient, sc *redis.Script, calls []scriptCall) []*redis.Cmd {
	cmds := make([]*redis.Cmd, len(calls))
	idx := make([]int, len(calls))
	for i := range idx {
		idx[i] = i
	}
	for try := 0; len(idx) > 0; try++ {
		_, _ = c.Pipelined(ctx, func(p redis.Pipeliner) error {
			for _, i := range idx {
				cmds[i] = sc.EvalSha(ctx, p, calls[i].keys, calls[i].args...)
			}
			return nil
		})
		var missing []int
		for _, i := range idx {
			if err := cmds[i].Err(); err != nil && redis.HasErrorPrefix(err, "NOSCRIPT") {
				missing = append(missing, i)
			}
		}
		if len(missing) == 0 || try == 1 || sc.Load(ctx, c).Err() != nil {
			for _, i := range missing { // last resort, one by one (EVAL)
				cmds[i] = sc.Run(ctx, c, calls[i].keys, calls[i].args...)
			}
			break
		}
		idx = missing
	}
	return cmds
}
