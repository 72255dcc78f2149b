package analysis

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room"
)

// BenchmarkAnalysisBesideAIGames measures docs/performance.md "Post-game analysis": the
// analysis of a 60-move game at DefaultBudget on a 2-slot scheduler while 10 AI games
// run (each a human answering after a second, then an AI search of the level with a
// fixed node count as a live search on the same scheduler), against the same AI games
// alone before and after it. Run once per level:
//
//	go test -run '^$' -bench 'AnalysisBesideAIGames/novice' -benchtime 1x -timeout 30m ./room/analysis/
func BenchmarkAnalysisBesideAIGames(b *testing.B) {
	for _, tc := range []struct {
		level string
		nodes uint64
	}{{"novice", 30_000}, {"expert", 30_000}} {
		b.Run(tc.level, func(b *testing.B) { analysisBesideAIGames(b, tc.level, tc.nodes) })
	}
}

func analysisBesideAIGames(b *testing.B, level string, aiNodes uint64) {
	const (
		games      = 10
		humanThink = time.Second
		window     = 40 * time.Second // AI games alone, before the analysis
	)
	b.ReportAllocs()
	g := sixtyMoves(b)
	b.ResetTimer()
	for range b.N {
		sched := room.NewScheduler(2, -1)
		ctx, cancel := context.WithCancel(context.Background())
		lat := newLatencies()
		var wg sync.WaitGroup
		for i := range games {
			wg.Add(1)
			go func() { defer wg.Done(); aiGame(ctx, sched, level, aiNodes, humanThink, uint64(i+1), lat) }()
		}
		time.Sleep(window)
		base := lat.take()
		start := time.Now()
		_, err := Analyse(context.Background(), sched, g, DefaultBudget, nil, nil)
		took := time.Since(start)
		during := lat.take()
		time.Sleep(took) // the AI games alone again, as long: the machine's own drift
		after := lat.take()
		cancel()
		wg.Wait()
		require.NoError(b, err)
		b.ReportMetric(took.Seconds(), "analysis_s")
		b.ReportMetric(ms(pct(base, 50)), "ai_p50_alone_ms")
		b.ReportMetric(ms(pct(during, 50)), "ai_p50_beside_ms")
		b.ReportMetric(ms(pct(base, 95)), "ai_p95_alone_ms")
		b.ReportMetric(ms(pct(during, 95)), "ai_p95_beside_ms")
		b.ReportMetric(ms(mean(base)), "ai_mean_alone_ms")
		b.ReportMetric(ms(mean(during)), "ai_mean_beside_ms")
		b.ReportMetric(ms(pct(after, 50)), "ai_p50_after_ms")
		b.ReportMetric(ms(pct(after, 95)), "ai_p95_after_ms")
		b.ReportMetric(ms(mean(after)), "ai_mean_after_ms")
		b.ReportMetric(float64(len(base)), "ai_moves_alone")
		b.ReportMetric(float64(len(during)), "ai_moves_beside")
	}
}

// sixtyMoves is a 60-move game of the engine against itself (node-capped and seeded:
// the same game every run), from a balanced opening.
func sixtyMoves(b *testing.B) Game {
	lvl, err := engine.LevelByName("intermediate")
	require.NoError(b, err)
	for seed := uint64(1); ; seed++ {
		brd, err := engine.BoardFromMoves(15, engine.Freestyle, engine.BalancedOpenings(15, engine.Freestyle)[seed%8])
		require.NoError(b, err)
		p := engine.NewPlayer(lvl, engine.Options{HashMiB: 4})
		for brd.Ply() < 60 && !brd.Outcome().Over {
			r, err := p.Play(context.Background(), brd, engine.Limits{Nodes: 3000, Seed: seed}, nil)
			require.NoError(b, err)
			require.NoError(b, brd.Play(r.Move))
		}
		if brd.Ply() == 60 && !brd.Outcome().Over {
			return Game{Size: 15, Rule: engine.Freestyle, Moves: brd.Moves()}
		}
	}
}

// aiGame plays AI moves until ctx ends: the human thinks, then the AI seat takes a live
// slot and searches at its level; the latency is from the human's move to the AI's.
func aiGame(ctx context.Context, sched *room.Scheduler, level string, aiNodes uint64, think time.Duration, seed uint64, lat *latencies) {
	lvl, _ := engine.LevelByName(level)
	p := engine.NewPlayer(lvl, engine.Options{HashMiB: 4, Rand: seed})
	brd, _ := engine.NewBoard(15, engine.Freestyle)
	human := engine.NewPlayer(lvl, engine.Options{HashMiB: 1, Rand: seed + 100})
	for ctx.Err() == nil {
		if brd.Outcome().Over || brd.Ply() > 150 {
			brd, _ = engine.NewBoard(15, engine.Freestyle)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(think):
		}
		// The human's move costs no slot (a tiny search stands for the player's choice).
		hm, _ := human.Play(ctx, brd, engine.Limits{Nodes: 200}, nil)
		if brd.Play(hm.Move) != nil || brd.Outcome().Over {
			continue
		}
		start := time.Now()
		release, err := sched.Acquire(ctx, nil)
		if err != nil {
			return
		}
		// A fixed amount of work (not the level's time budget), so that a slower CPU
		// share shows as a longer search (the level's depth cap may end it sooner).
		r, _ := p.Play(ctx, brd, engine.Limits{Nodes: aiNodes}, nil)
		release()
		if ctx.Err() != nil {
			return
		}
		lat.add(time.Since(start))
		_ = brd.Play(r.Move)
	}
}

type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func newLatencies() *latencies { return &latencies{} }

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	l.d = append(l.d, d)
	l.mu.Unlock()
}

// take returns the latencies so far and starts a new series.
func (l *latencies) take() []time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	d := l.d
	l.d = nil
	slices.Sort(d)
	return d
}

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[min(len(d)-1, len(d)*p/100)]
}

func mean(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	var s time.Duration
	for _, x := range d {
		s += x
	}
	return s / time.Duration(len(d))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
