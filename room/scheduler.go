package room

import (
	"context"
	"runtime"
	"sync"
)

// Scheduler caps the number of concurrent AI searches of all rooms of a node. Searches
// beyond the cap wait in FIFO order (their rooms report "queued"). When every slot is
// busy and MaxQueue searches already wait, Admit refuses new AI rooms with ErrAIBusy.
type Scheduler struct {
	mu       sync.Mutex
	slots    int
	maxQueue int
	running  int
	waiters  []chan struct{}
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

// Stats returns the number of running and waiting searches and the slot count.
func (s *Scheduler) Stats() (running, waiting, slots int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running, len(s.waiters), s.slots
}

// Admit reports ErrAIBusy when the AI capacity is saturated: all slots run and at
// least MaxQueue searches wait.
func (s *Scheduler) Admit() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running >= s.slots && len(s.waiters) >= s.maxQueue {
		return ErrAIBusy
	}
	return nil
}

// Acquire waits for a slot. When it has to wait it calls queued (once) first. It
// returns a release function, or ctx's error when ctx ends first.
func (s *Scheduler) Acquire(ctx context.Context, queued func()) (release func(), err error) {
	s.mu.Lock()
	if s.running < s.slots && len(s.waiters) == 0 {
		s.running++
		s.mu.Unlock()
		return s.releaseFunc(), nil
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
		})
	}
}
