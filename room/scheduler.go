package room

import (
	"context"
	"errors"
	"runtime"
	"sync"
)

// ErrPreempted is the cause (context.Cause) of a background context cancelled because a
// live search took its slot.
var ErrPreempted = errors.New("room: background search preempted by a live search")

// Scheduler caps the number of concurrent engine searches of a node. It has two lanes.
//
// Live searches (AI seats) beyond the cap wait in FIFO order (their rooms report
// "queued"). When every slot runs a live search and MaxQueue live searches already
// wait, Admit refuses new AI rooms with ErrAIBusy.
//
// Background searches (analysis, classroom) run at a lower priority: they take a free
// slot only while no live search waits, and a live search that finds every slot busy
// preempts a background one instead of waiting: it takes that slot at once and the
// background search's context is cancelled with cause ErrPreempted (Background runs it
// again later). So live searches never wait for background work and the background
// lane never changes Admit.
type Scheduler struct {
	mu       sync.Mutex
	slots    int
	maxQueue int
	running  int             // live searches holding a slot
	waiters  []chan struct{} // live searches waiting, FIFO
	bg       []*bgJob        // background searches holding a slot, oldest first
	bgWait   []*bgJob        // background searches waiting, FIFO
}

// bgJob is one background acquisition; its fields are guarded by Scheduler.mu.
type bgJob struct {
	ready   chan struct{} // closed when the job is granted a slot
	cancel  context.CancelCauseFunc
	holding bool // in bg: holds a slot
}

// NewScheduler returns a scheduler with the given number of slots (<= 0: runtime.NumCPU())
// and admission queue (< 0: 4 × slots).
func NewScheduler(slots, maxQueue int) *Scheduler {
	if slots <= 0 {
		slots = runtime.NumCPU()
	}
	if maxQueue < 0 {
		maxQueue = 4 * slots
	}
	return &Scheduler{slots: slots, maxQueue: maxQueue}
}

// Stats returns the number of running and waiting live searches and the slot count.
func (s *Scheduler) Stats() (running, waiting, slots int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running, len(s.waiters), s.slots
}

// BackgroundStats returns the number of running and waiting background searches.
func (s *Scheduler) BackgroundStats() (running, waiting int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bg), len(s.bgWait)
}

// Admit reports ErrAIBusy when the live AI capacity is saturated: all slots run live
// searches and at least MaxQueue live searches wait. Background work never counts.
func (s *Scheduler) Admit() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running >= s.slots && len(s.waiters) >= s.maxQueue {
		return ErrAIBusy
	}
	return nil
}

// Acquire waits for a slot for a live search. When it has to wait it calls queued
// (once) first; it never waits while a background search holds a slot (that one is
// preempted). It returns a release function, or ctx's error when ctx ends first.
func (s *Scheduler) Acquire(ctx context.Context, queued func()) (release func(), err error) {
	s.mu.Lock()
	if len(s.waiters) == 0 {
		if s.running+len(s.bg) < s.slots {
			s.running++
			s.mu.Unlock()
			return s.releaseFunc(), nil
		}
		if n := len(s.bg); n > 0 {
			// Preempt the youngest background search: it has the least work to lose.
			j := s.bg[n-1]
			s.bg = s.bg[:n-1]
			j.holding = false
			j.cancel(ErrPreempted)
			s.running++
			s.mu.Unlock()
			return s.releaseFunc(), nil
		}
	}
	w := make(chan struct{})
	s.waiters = append(s.waiters, w)
	s.mu.Unlock()
	if queued != nil {
		queued()
	}
	select {
	case <-w: // the slot was handed over to us
		return s.releaseFunc(), nil
	case <-ctx.Done():
		s.mu.Lock()
		for i, x := range s.waiters {
			if x == w {
				s.waiters = append(s.waiters[:i], s.waiters[i+1:]...)
				s.mu.Unlock()
				return nil, ctx.Err()
			}
		}
		s.mu.Unlock()
		// Handed over concurrently with the cancellation: give it back.
		s.releaseFunc()()
		return nil, ctx.Err()
	}
}

func (s *Scheduler) releaseFunc() func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			if len(s.waiters) > 0 {
				w := s.waiters[0]
				s.waiters = s.waiters[1:]
				close(w) // running count passes to the waiter
				return
			}
			s.running--
			s.grantBackground()
		})
	}
}

// grantBackground hands free slots to waiting background searches, only while no live
// search waits. Called with s.mu held.
func (s *Scheduler) grantBackground() {
	for len(s.waiters) == 0 && len(s.bgWait) > 0 && s.running+len(s.bg) < s.slots {
		j := s.bgWait[0]
		s.bgWait = s.bgWait[1:]
		j.holding = true
		s.bg = append(s.bg, j)
		close(j.ready)
	}
}

// AcquireBackground waits for a slot on the background lane. It returns a context
// derived from ctx for the work, cancelled with cause ErrPreempted when a live search
// takes the slot, and a release function (idempotent; it also cancels the context).
// It returns ctx's error when ctx ends before a slot is free.
func (s *Scheduler) AcquireBackground(ctx context.Context) (bctx context.Context, release func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	bctx, cancel := context.WithCancelCause(ctx)
	j := &bgJob{ready: make(chan struct{}), cancel: cancel}
	s.mu.Lock()
	s.bgWait = append(s.bgWait, j)
	s.grantBackground()
	s.mu.Unlock()
	select {
	case <-j.ready:
		return bctx, s.bgReleaseFunc(j), nil
	case <-ctx.Done():
		s.mu.Lock()
		for i, x := range s.bgWait {
			if x == j {
				s.bgWait = append(s.bgWait[:i], s.bgWait[i+1:]...)
				break
			}
		}
		s.mu.Unlock()
		s.bgReleaseFunc(j)() // granted concurrently: give it back
		return nil, nil, ctx.Err()
	}
}

func (s *Scheduler) bgReleaseFunc(j *bgJob) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			j.cancel(context.Canceled)
			if !j.holding {
				return // preempted (its slot went to a live search) or never granted
			}
			j.holding = false
			for i, x := range s.bg {
				if x == j {
					s.bg = append(s.bg[:i], s.bg[i+1:]...)
					break
				}
			}
			s.grantBackground()
		})
	}
}

// Background runs fn on the background lane: it waits for a slot, runs fn with the
// slot's context and releases the slot. When a live search preempts it, fn's result
// is dropped and fn runs again from the start once a slot is free. It returns fn's
// error, or ctx's error when ctx ends first.
func (s *Scheduler) Background(ctx context.Context, fn func(ctx context.Context) error) error {
	for {
		bctx, release, err := s.AcquireBackground(ctx)
		if err != nil {
			return err
		}
		err = fn(bctx)
		preempted := errors.Is(context.Cause(bctx), ErrPreempted)
		release()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if !preempted {
			return err
		}
	}
}
