package room

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mustNotQueue fails the test when a live acquisition has to wait.
func mustNotQueue(t *testing.T) func() {
	return func() { t.Error("a live search waited") }
}

func TestSchedulerLiveNeverWaitsForBackground(t *testing.T) {
	for _, tc := range []struct {
		name              string
		slots, live, back int // slots, live and background searches already running
		wantPreempted     int
	}{
		{"free slot", 2, 0, 1, 0},
		{"all background", 2, 0, 2, 1},
		{"mixed, full", 2, 1, 1, 1},
		{"one slot, background", 1, 0, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewScheduler(tc.slots, 0)
			ctx := context.Background()
			for range tc.live {
				_, err := s.Acquire(ctx, mustNotQueue(t))
				require.NoError(t, err)
			}
			var bctxs []context.Context
			for range tc.back {
				bctx, _, err := s.AcquireBackground(ctx)
				require.NoError(t, err)
				bctxs = append(bctxs, bctx)
			}
			require.NoError(t, s.Admit(), "background work never makes AI rooms busy")
			_, err := s.Acquire(ctx, mustNotQueue(t))
			require.NoError(t, err)
			preempted := 0
			for _, c := range bctxs {
				if errors.Is(context.Cause(c), ErrPreempted) {
					preempted++
				}
			}
			assert.Equal(t, tc.wantPreempted, preempted)
			run, wait, _ := s.Stats()
			brun, _ := s.BackgroundStats()
			assert.Equal(t, [3]int{tc.live + 1, 0, tc.back - tc.wantPreempted}, [3]int{run, wait, brun})
			if tc.wantPreempted > 0 {
				assert.ErrorIs(t, context.Cause(bctxs[len(bctxs)-1]), ErrPreempted, "the youngest is preempted")
			}
		})
	}
}

func TestSchedulerBackgroundWaitsBehindLive(t *testing.T) {
	s := NewScheduler(1, 4)
	ctx := context.Background()
	relA, err := s.Acquire(ctx, mustNotQueue(t))
	require.NoError(t, err)
	// B (live) and C (background) wait for the only slot.
	liveGot := make(chan func(), 1)
	go func() {
		rel, err := s.Acquire(ctx, nil)
		assert.NoError(t, err)
		liveGot <- rel
	}()
	waitFor(t, "live waiter", func() bool { _, w, _ := s.Stats(); return w == 1 })
	bgGot := make(chan func(), 1)
	go func() {
		_, rel, err := s.AcquireBackground(ctx)
		assert.NoError(t, err)
		bgGot <- rel
	}()
	waitFor(t, "background waiter", func() bool { _, w := s.BackgroundStats(); return w == 1 })

	relA() // the slot goes to the waiting live search, not to the background one
	relB := <-liveGot
	run, _, _ := s.Stats()
	brun, bwait := s.BackgroundStats()
	assert.Equal(t, [3]int{1, 0, 1}, [3]int{run, brun, bwait})
	select {
	case <-bgGot:
		t.Fatal("background work took a slot while a live search held it")
	default:
	}
	relB()
	relC := <-bgGot
	brun, bwait = s.BackgroundStats()
	assert.Equal(t, [2]int{1, 0}, [2]int{brun, bwait})
	relC()
	relC() // idempotent
	brun, _ = s.BackgroundStats()
	assert.Equal(t, 0, brun)
}

func TestSchedulerPreemptedSlotIsNotReleasedTwice(t *testing.T) {
	s := NewScheduler(1, 0)
	ctx := context.Background()
	bctx, relBg, err := s.AcquireBackground(ctx)
	require.NoError(t, err)
	relLive, err := s.Acquire(ctx, mustNotQueue(t))
	require.NoError(t, err)
	<-bctx.Done()
	relBg() // the preempted job gives nothing back: the slot is the live search's now
	run, _, _ := s.Stats()
	brun, _ := s.BackgroundStats()
	assert.Equal(t, [2]int{1, 0}, [2]int{run, brun})
	// The slot is still taken: a second live search would wait (its context is over).
	done, cancel := context.WithCancel(ctx)
	cancel()
	_, err = s.Acquire(done, nil)
	assert.ErrorIs(t, err, context.Canceled)
	relLive()
	_, rel, err := s.AcquireBackground(ctx)
	require.NoError(t, err)
	rel()
	run, wait, _ := s.Stats()
	brun, bwait := s.BackgroundStats()
	assert.Equal(t, [4]int{0, 0, 0, 0}, [4]int{run, wait, brun, bwait})
}

func TestSchedulerBackgroundWaiterCancelled(t *testing.T) {
	s := NewScheduler(1, 0)
	ctx := context.Background()
	rel, err := s.Acquire(ctx, mustNotQueue(t))
	require.NoError(t, err)
	cctx, cancel := context.WithCancel(ctx)
	errC := make(chan error, 1)
	go func() { _, _, err := s.AcquireBackground(cctx); errC <- err }()
	waitFor(t, "background waiter", func() bool { _, w := s.BackgroundStats(); return w == 1 })
	cancel()
	assert.ErrorIs(t, <-errC, context.Canceled)
	_, bwait := s.BackgroundStats()
	assert.Equal(t, 0, bwait)
	rel()
	run, _, _ := s.Stats()
	brun, _ := s.BackgroundStats()
	assert.Equal(t, [2]int{0, 0}, [2]int{run, brun})
}

func TestSchedulerBackgroundRunsAgainAfterPreemption(t *testing.T) {
	s := NewScheduler(1, 0)
	ctx := context.Background()
	var calls atomic.Int32
	started := make(chan struct{}, 2)
	errC := make(chan error, 1)
	go func() {
		errC <- s.Background(ctx, func(ctx context.Context) error {
			if calls.Add(1) == 1 {
				started <- struct{}{}
				<-ctx.Done() // a long search, stopped by the preemption
				return ctx.Err()
			}
			return nil
		})
	}()
	<-started
	rel, err := s.Acquire(ctx, mustNotQueue(t))
	require.NoError(t, err)
	waitFor(t, "the job waits again", func() bool { _, w := s.BackgroundStats(); return w == 1 })
	assert.Equal(t, int32(1), calls.Load())
	rel()
	require.NoError(t, <-errC)
	assert.Equal(t, int32(2), calls.Load())
}

func TestSchedulerBackgroundReturnsItsError(t *testing.T) {
	s := NewScheduler(1, 0)
	boom := errors.New("boom")
	err := s.Background(context.Background(), func(context.Context) error { return boom })
	assert.ErrorIs(t, err, boom)
	cctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = s.Background(cctx, func(context.Context) error { t.Error("ran with an ended context"); return nil })
	assert.ErrorIs(t, err, context.Canceled)
}
