package analysis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"strconv"
	"sync"
	"time"
)

// ErrBusy refuses a new analysis while a node already runs its maximum.
var ErrBusy = errors.New("analysis: too many analyses running on this node")

// DefaultLeaseTTL is how long a game's lease outlives its holder: another node may
// take an interrupted analysis over (from its stored positions) after that.
const DefaultLeaseTTL = 10 * time.Second

// Service runs analyses on a node: at most one per game across nodes (the Store's
// lease), a few at a time on this node, each on the Runner's background lane.
type Service struct {
	store   Store
	run     Runner
	owner   string
	budget  Budget
	ttl     time.Duration
	maxJobs int
	log     *slog.Logger

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex
	jobs   map[string]bool // running here; true: an auto job

	// The automatic analyses (auto.go).
	load    Loader
	maxAuto int
	queue   chan autoKey
	pending map[autoKey]bool // queued or loading (under mu)
	freed   chan struct{}
}

// Option configures a Service.
type Option func(*Service)

// WithBudget sets the per-position budget (default DefaultBudget).
func WithBudget(b Budget) Option { return func(s *Service) { s.budget = b } }

// WithLeaseTTL sets the lease TTL (default DefaultLeaseTTL); it is renewed every third.
func WithLeaseTTL(d time.Duration) Option { return func(s *Service) { s.ttl = d } }

// WithMaxJobs sets how many analyses this node runs at once (default 4); automatic
// ones take at most half of them (at least one), so requests still find a slot.
func WithMaxJobs(n int) Option { return func(s *Service) { s.maxJobs = n } }

// WithLogger sets the logger.
func WithLogger(l *slog.Logger) Option { return func(s *Service) { s.log = l } }

// NewService returns a service storing in store and searching on run; node names this
// node in the leases.
func NewService(store Store, run Runner, node string, opts ...Option) *Service {
	var nonce [6]byte
	_, _ = rand.Read(nonce[:])
	s := &Service{store: store, run: run, owner: node + "/" + hex.EncodeToString(nonce[:]), budget: DefaultBudget,
		ttl: DefaultLeaseTTL, maxJobs: 4, log: slog.Default(), jobs: map[string]bool{},
		queue: make(chan autoKey, autoQueue), pending: map[autoKey]bool{}, freed: make(chan struct{}, 1)}
	for _, o := range opts {
		o(s)
	}
	s.maxAuto = max(1, s.maxJobs/2)
	s.ctx, s.cancel = context.WithCancel(context.Background())
	if s.load != nil {
		s.wg.Add(1)
		go s.autoLoop()
	}
	return s
}

// Budget returns the per-position budget.
func (s *Service) Budget() Budget { return s.budget }

// Get returns the stored analysis of a game (nil when none) and whether it is being
// computed (by any node).
func (s *Service) Get(ctx context.Context, roomID string, game int) (*Result, bool, error) {
	return s.store.Load(ctx, roomID, game)
}

// Start makes sure the analysis of a finished game exists or is being computed: it
// returns the stored result when done, else starts computing it here unless a node
// already does (the lease). The result it returns may be partial (Status running) or
// nil (nothing stored yet). started reports that this call started the work on this
// node; then onEnd (when not nil) is called once that work ends, finished or not.
func (s *Service) Start(ctx context.Context, roomID string, game int, g Game, onEnd func()) (res *Result, started bool, err error) {
	return s.start(ctx, roomID, game, g, false, onEnd)
}

// start is Start; auto jobs (Enqueue's) take at most maxAuto of the node's slots.
func (s *Service) start(ctx context.Context, roomID string, game int, g Game, auto bool, onEnd func()) (*Result, bool, error) {
	res, leased, err := s.store.Load(ctx, roomID, game)
	if err != nil {
		return nil, false, err
	}
	if (res != nil && res.Status == StatusDone) || leased {
		return res, false, nil
	}
	key := jobKey(roomID, game)
	s.mu.Lock()
	if _, ok := s.jobs[key]; ok {
		s.mu.Unlock()
		return res, false, nil
	}
	if len(s.jobs) >= s.maxJobs || (auto && s.autoJobs() >= s.maxAuto) {
		s.mu.Unlock()
		return nil, false, ErrBusy
	}
	s.jobs[key] = auto
	s.mu.Unlock()
	ok, err := s.store.Lease(ctx, roomID, game, s.owner, s.ttl)
	if err != nil || !ok {
		s.done(key)
		return res, false, err // !ok: another node took it in between
	}
	s.wg.Add(1)
	go func() {
		if onEnd != nil {
			defer onEnd()
		}
		s.job(key, roomID, game, g, res)
	}()
	return res, true, nil
}

func jobKey(roomID string, game int) string { return roomID + "#" + strconv.Itoa(game) }

// autoJobs counts the running auto jobs (under mu).
func (s *Service) autoJobs() int {
	n := 0
	for _, auto := range s.jobs {
		if auto {
			n++
		}
	}
	return n
}

func (s *Service) done(key string) {
	s.mu.Lock()
	delete(s.jobs, key)
	s.mu.Unlock()
	select { // wakes the auto queue when it waits for a slot
	case s.freed <- struct{}{}:
	default:
	}
}

// job computes one analysis under the lease, saving after each position.
func (s *Service) job(key, roomID string, game int, g Game, prev *Result) {
	defer s.wg.Done()
	defer s.done(key)
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	go s.keepLease(ctx, cancel, roomID, game)
	var saveMu sync.Mutex
	save := func(r Result) error {
		saveMu.Lock()
		defer saveMu.Unlock()
		err := s.store.Save(ctx, roomID, game, s.owner, r)
		if errors.Is(err, ErrLeaseLost) {
			cancel()
		}
		return err
	}
	res, err := Analyse(ctx, s.run, g, s.budget, prev, func(r Result) {
		if err := save(r); err != nil && ctx.Err() == nil {
			s.log.Warn("analysis: saving progress failed", "room", roomID, "game", game, "err", err)
		}
	})
	if err == nil {
		err = save(res)
	}
	if err != nil && s.ctx.Err() == nil {
		s.log.Warn("analysis: stopped", "room", roomID, "game", game, "err", err)
	}
	rctx, rcancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer rcancel()
	if err := s.store.Release(rctx, roomID, game, s.owner); err != nil {
		s.log.Warn("analysis: releasing the lease failed", "room", roomID, "game", game, "err", err)
	}
}

// keepLease renews the lease every third of its TTL; losing it stops the job.
func (s *Service) keepLease(ctx context.Context, stop context.CancelFunc, roomID string, game int) {
	t := time.NewTicker(s.ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if ok, err := s.store.Lease(ctx, roomID, game, s.owner, s.ttl); err == nil && !ok {
				stop()
				return
			}
		}
	}
}

// Close stops the running analyses (their progress stays stored and the next Start
// resumes it) and waits for them.
func (s *Service) Close() {
	s.cancel()
	s.wg.Wait()
}
