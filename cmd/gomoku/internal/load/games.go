package load

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// wsSlotBase keeps WebSocket source addresses apart from the HTTP ones; 32 connections
// share one source address (the server's default per-IP cap is 64).
const wsSlotBase = 30_000

type fleet struct {
	r     *runner
	ctx   context.Context
	wg    sync.WaitGroup
	conns atomic.Int64
}

// start runs c until the fleet's context ends.
func (f *fleet) start(c *client) {
	f.r.clientsM.Lock()
	f.r.clients = append(f.r.clients, c)
	f.r.clientsM.Unlock()
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		c.run(f.ctx)
	}()
}

// newConn returns a client on the next WebSocket source slot.
func (f *fleet) newConn(g *game) *client {
	i := int(f.conns.Add(1) - 1)
	return newClient(f.r, g, wsSlotBase+i/32, f.r.seedFor(i))
}

// waitReady waits for a client's first welcome.
func waitReady(ctx context.Context, c *client) error {
	select {
	case <-c.ready:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("load: connecting: %w", ctx.Err())
	}
}

// waitConnected polls until n clients are connected or ctx ends.
func (r *runner) waitConnected(ctx context.Context, n int64) {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for r.stats.Connected.Load() < n {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (r *runner) runGames(ctx context.Context) (Report, error) {
	cfg := r.cfg
	rep := Report{Mode: "games", Target: r.base, Target2: r.cfg.URL2, Started: time.Now().UTC(), Games: cfg.Games,
		Spectators: cfg.Spectators, Rate: cfg.Rate, Churn: cfg.Churn}
	before, okBefore := r.scrape(ctx)
	clientCtx, stopClients := context.WithCancel(ctx)
	f := &fleet{r: r, ctx: clientCtx}
	defer func() { stopClients(); f.wg.Wait() }()
	var interval time.Duration
	if cfg.Rate > 0 {
		interval = time.Duration(float64(time.Second) / cfg.Rate)
	}
	setupStart := time.Now()
	setupCtx, cancel := context.WithTimeout(ctx, cfg.Setup)
	defer cancel()
	games := make([]*game, cfg.Games)
	r.logf("setup: %d games, %d spectators each, against %s", cfg.Games, cfg.Spectators, r.base)
	if r.base2 != r.base {
		r.logf("setup: second players and every second spectator on %s", r.base2)
	}
	err := parallel(setupCtx, cfg.Games, 32, func(ctx context.Context, i int) error {
		slot := i / 6 // 3 POSTs per game: 18 per source address, under the server's burst of 20
		a, err := r.api.register(ctx, slot, fmt.Sprintf("load%d-a", i))
		if err != nil {
			return err
		}
		id, err := r.api.createRoom(ctx, slot, a.Token, !cfg.Private, cfg.AI)
		if err != nil {
			return err
		}
		g := newGame(i, id, interval, cfg.Jitter)
		g.ai = cfg.AI != ""
		pa := f.newConn(g)
		pa.token, pa.playerID = a.Token, a.ID
		f.start(pa)
		if err := waitReady(ctx, pa); err != nil {
			return err
		}
		if g.ai {
			games[i] = g
			return nil
		}
		b, err := r.api.register(ctx, slot, fmt.Sprintf("load%d-b", i))
		if err != nil {
			return err
		}
		pb := f.newConn(g)
		pb.token, pb.playerID, pb.sitAs = b.Token, b.ID, "white"
		pb.base = r.base2 // with -url2 the opponents are on different nodes
		f.start(pb)
		if err := waitReady(ctx, pb); err != nil {
			return err
		}
		games[i] = g
		return nil
	})
	if err != nil {
		return rep, fmt.Errorf("load: setup: %w", err)
	}
	if n := cfg.Games * cfg.Spectators; n > 0 {
		// Spectators join with at most 32 hellos in flight, as a crowd arriving over a few
		// seconds would, not all in the same millisecond.
		r.logf("setup: players seated in %v; %d spectators joining", time.Since(setupStart).Round(time.Millisecond), n)
		err = parallel(setupCtx, n, 32, func(ctx context.Context, i int) error {
			s := f.newConn(games[i%cfg.Games])
			s.spectator = true
			if (i/cfg.Games)%2 == 1 {
				s.base = r.base2
			}
			f.start(s)
			return waitReady(ctx, s)
		})
		if err != nil {
			return rep, fmt.Errorf("load: setup spectators: %w", err)
		}
	}
	seats := 2
	if cfg.AI != "" {
		seats = 1
	}
	want := int64(cfg.Games * (seats + cfg.Spectators))
	r.waitConnected(setupCtx, want)
	if got := r.stats.Connected.Load(); got < want {
		r.logf("setup: only %d of %d connections after %v", got, want, cfg.Setup)
	}
	r.logf("setup: %d connections in %v; settling 2s", r.stats.Connected.Load(), time.Since(setupStart).Round(time.Millisecond))
	setupTook := time.Since(setupStart)
	sleepCtx(ctx, 2*time.Second)

	r.phase.Store(phaseMeasure)
	start := time.Now()
	cpu := newCPUMeter(cfg.CPU)
	r.clientsM.Lock()
	for _, c := range r.clients {
		c.mu.Lock()
		c.armLocked()
		c.mu.Unlock()
	}
	r.clientsM.Unlock()
	winCtx, winCancel := context.WithTimeout(ctx, cfg.Duration)
	go r.churn(winCtx, rand.New(rand.NewPCG(cfg.Seed, 7)))
	<-winCtx.Done()
	winCancel()
	window := time.Since(start)
	rep2 := r.stats.Report(window)
	rep2.CPU = cpu.usage(rep2.Acks)
	after, okAfter := r.scrape(context.WithoutCancel(ctx))
	r.phase.Store(phaseStop)
	stopClients()
	f.wg.Wait()
	rep2.Mode, rep2.Target, rep2.Target2, rep2.Started = rep.Mode, rep.Target, rep.Target2, rep.Started
	rep2.SetupS, rep2.AI = setupTook.Seconds(), cfg.AI
	rep2.Games, rep2.Spectators, rep2.Rate, rep2.Churn = rep.Games, rep.Spectators, rep.Rate, rep.Churn
	// Counters that moved after the window (violations found while closing) are kept.
	rep2.Violations = r.stats.Violations.Load()
	if okBefore && okAfter {
		rep2.Server = NewServerMemory(before, after)
	}
	return rep2, nil
}

func (r *runner) runIdle(ctx context.Context) (Report, error) {
	cfg := r.cfg
	rep := Report{Mode: "idle", Target: r.base, Started: time.Now().UTC()}
	before, okBefore := r.scrape(ctx)
	clientCtx, stopClients := context.WithCancel(ctx)
	f := &fleet{r: r, ctx: clientCtx}
	defer func() { stopClients(); f.wg.Wait() }()
	setupCtx, cancel := context.WithTimeout(ctx, cfg.Setup)
	defer cancel()
	rooms := (cfg.Idle + cfg.IdlePerRoom - 1) / cfg.IdlePerRoom
	ids := make([]string, rooms)
	r.logf("idle: %d connections over %d rooms against %s", cfg.Idle, rooms, r.base)
	err := parallel(setupCtx, rooms, 16, func(ctx context.Context, i int) error {
		slot := i / 8
		p, err := r.api.register(ctx, slot, fmt.Sprintf("idle%d", i))
		if err != nil {
			return err
		}
		ids[i], err = r.api.createRoom(ctx, slot, p.Token, !cfg.Private, "")
		return err
	})
	if err != nil {
		return rep, fmt.Errorf("load: idle setup: %w", err)
	}
	setupStart := time.Now()
	err = parallel(setupCtx, cfg.Idle, 64, func(ctx context.Context, i int) error {
		c := f.newConn(nil)
		c.spectator, c.room = true, ids[i%rooms]
		f.start(c)
		return waitReady(ctx, c)
	})
	if err != nil {
		return rep, fmt.Errorf("load: idle connections: %w", err)
	}
	r.waitConnected(setupCtx, int64(cfg.Idle))
	r.logf("idle: %d connections in %v; holding %v", r.stats.Connected.Load(), time.Since(setupStart).Round(time.Millisecond), cfg.Duration)
	setupTook := time.Since(setupStart)
	start := time.Now()
	sleepCtx(ctx, cfg.Duration)
	rep2 := r.stats.Report(time.Since(start))
	rep2.SetupS = setupTook.Seconds()
	after, okAfter := r.scrape(context.WithoutCancel(ctx))
	r.phase.Store(phaseStop)
	rep2.Mode, rep2.Target, rep2.Started = rep.Mode, rep.Target, rep.Started
	if okBefore && okAfter {
		rep2.Server = NewServerMemory(before, after)
		rep2.Server.GCForced = cfg.ForceGC
	}
	return rep2, nil
}

func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
