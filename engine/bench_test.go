package engine

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// benchPositions are fixed middle-game positions (15x15) for the benchmarks.
var benchPositions = []struct {
	rule  Rule
	moves string
}{
	{Freestyle, "h8j10k9i6i5j7j6k7i7k5f10g9k8j8i9h9g10j11j9i10k12k10l9m9l10g8f7l11e10d10"},
	{Freestyle, "h8g6e5i9h5i6i7h6j6k5e6e7g9f10k7f5e4g11j7l7j5j4j8j9"},
	{Standard, "h8j6k8g8e7i6k6k7h7i5l8h4g3i4i8j8i3h10i9j7"},
	{Renju, "h8j10k9i6i5j7j6k7i7k5f10g9k8j8i9h9g10j11j9i10"},
}

func benchBoards(b *testing.B) []*Board {
	var bs []*Board
	for _, p := range benchPositions {
		moves, err := ParseMoves(p.moves, 15)
		if err != nil {
			b.Fatal(err)
		}
		bd, err := BoardFromMoves(15, p.rule, moves)
		if err != nil {
			b.Fatal(err)
		}
		bs = append(bs, bd)
	}
	return bs
}

// cpuTime returns the process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSearchNPS searches each benchmark position to a fixed node count and
// reports nodes per wall second and per CPU second (the CPU figure is less sensitive to other load on the host).
func BenchmarkSearchNPS(b *testing.B) {
	boards := benchBoards(b)
	e := New(Options{HashMiB: 16})
	b.ReportAllocs()
	var nodes uint64
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, bd := range boards {
			e.Clear()
			res := e.Search(context.Background(), bd, Limits{Nodes: 500_000}, nil)
			nodes += res.Nodes
		}
	}
	el := b.Elapsed()
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(nodes)/el.Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/cpu.Seconds(), "nodes/cpu-s")
	b.ReportMetric(float64(nodes)/float64(b.N*len(boards)), "nodes/search")
}

// BenchmarkDepthIn1s reports the depth completed in one second per position.
func BenchmarkDepthIn1s(b *testing.B) {
	boards := benchBoards(b)
	e := New(Options{HashMiB: 16})
	b.ReportAllocs()
	b.ResetTimer()
	depth := 0
	for i := 0; i < b.N; i++ {
		for _, bd := range boards {
			e.Clear()
			res := e.Search(context.Background(), bd, Limits{Time: time.Second}, nil)
			depth += res.Depth
		}
	}
	b.ReportMetric(float64(depth)/float64(b.N*len(boards)), "depth")
}

// BenchmarkMakeUnmake measures one make/unmake pair on a middle-game position.
func BenchmarkMakeUnmake(b *testing.B) {
	boards := benchBoards(b)
	var p position
	p.setup(boards[0])
	m := cellIndex(6, 6)
	b.ReportAllocs()
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p.make(m)
		p.unmake()
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkVCF measures the root VCF on a position with a 15-ply VCF.
func BenchmarkVCF(b *testing.B) {
	moves, _ := ParseMoves("h8i8k10k9g6h9f11e11i10j10l9k6j7k5k8i6l7m6l8l6j6m7j9h11", 15)
	bd, _ := BoardFromMoves(15, Freestyle, moves)
	e := New(Options{HashMiB: 1})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res := e.Search(context.Background(), bd, Limits{Depth: 1}, nil)
		if res.Score.MatePlies() <= 0 {
			b.Fatal("no VCF")
		}
	}
}

// lostVCTBoards returns the positions of testdata/aiwine-losses.txt: in each, after a
// move of the master level in a game it lost to AIWine at 200 ms, the opponent (to
// move) has a VCF or VCT of up to 19 plies that the solver finds in 1,000,000 nodes.
func lostVCTBoards(tb testing.TB) []*Board {
	return movesFileBoards(tb, "testdata/aiwine-losses.txt")
}

// movesFileBoards reads freestyle 15x15 positions, one move list a line ('#' starts a
// comment line).
func movesFileBoards(tb testing.TB, path string) []*Board {
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var bs []*Board
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		moves, err := ParseMoves(line, 15)
		if err != nil {
			tb.Fatal(err)
		}
		bd, err := BoardFromMoves(15, Freestyle, moves)
		if err != nil {
			tb.Fatal(err)
		}
		bs = append(bs, bd)
	}
	return bs
}

// namedSolver is a VCT solver configuration of the solver benchmarks.
type namedSolver struct {
	name   string
	solver vctSolver
}

// vctSolvers are the VCT solver configurations the solver benchmarks compare.
var vctSolvers = []namedSolver{{"both", vctBoth}, {"depth-first", vctDepthFirst}, {"proof-number", vctProofNumber}}

// BenchmarkSolveLostVCT solves the positions of testdata/aiwine-losses.txt for the
// side to move with a 1,000,000-node budget and reports how many it finds and the
// median number of nodes it needed: the yardstick of the solver's speed on the
// threat sequences that decide games against Gomocup engines.
func BenchmarkSolveLostVCT(b *testing.B) {
	for _, v := range vctSolvers {
		b.Run("solver="+v.name, func(b *testing.B) { benchSolveLostVCT(b, v.solver) })
	}
}

func benchSolveLostVCT(b *testing.B, solver vctSolver) {
	boards := lostVCTBoards(b)
	e := New(Options{HashMiB: 16})
	e.s.cfg.vctSolver = solver
	b.ReportAllocs()
	var needed []int
	found := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		needed = needed[:0]
		found = 0
		for _, bd := range boards {
			fw, ok := e.Solve(context.Background(), bd, 1_000_000, true)
			if ok {
				found++
				needed = append(needed, int(fw.Nodes))
			}
		}
	}
	slices.Sort(needed)
	b.ReportMetric(float64(found), "found")
	if len(needed) > 0 {
		b.ReportMetric(float64(needed[len(needed)/2]), "median-nodes")
	}
}

// BenchmarkSolveSelfPlay solves the 1,501 self-play positions of
// testdata/selfplay-positions.txt for the side to move within a few node budgets, with
// each VCT solver configuration and with the depth-first VCT in the main search's move
// order, and reports the VCTs found and the nodes searched in all (docs/engine.md,
// "VCF / VCT").
func BenchmarkSolveSelfPlay(b *testing.B) {
	boards := movesFileBoards(b, "testdata/selfplay-positions.txt")
	solvers := append(slices.Clone(vctSolvers), namedSolver{"depth-first-search-order", vctDepthFirst})
	for _, budget := range []uint64{3_000, 10_000, 100_000} {
		for _, v := range solvers {
			b.Run(fmt.Sprintf("budget=%d/solver=%s", budget, v.name), func(b *testing.B) {
				e := New(Options{HashMiB: 16})
				e.s.cfg.vctSolver = v.solver
				e.s.cfg.searchOrderVCT = v.name == "depth-first-search-order"
				var found, nodes uint64
				for i := 0; i < b.N; i++ {
					found, nodes = 0, 0
					for _, bd := range boards {
						fw, ok := e.Solve(context.Background(), bd, budget, true)
						nodes += fw.Nodes
						if ok && fw.VCT {
							found++
						}
					}
				}
				b.ReportMetric(float64(found), "vcts")
				b.ReportMetric(float64(nodes), "nodes")
			})
		}
	}
}

// BenchmarkSolveRapfiLosses solves the positions of testdata/rapfi-losses.txt (in
// each, Rapfi to move has a forced win, a VCT of 17 to 35 plies in most) within the
// node budgets of the safety check at 200 ms and at 1 s a move and of Solve's
// default, with each VCT solver configuration, and reports how many it finds.
func BenchmarkSolveRapfiLosses(b *testing.B) {
	boards := movesFileBoards(b, "testdata/rapfi-losses.txt")
	for _, budget := range []uint64{6_000, 35_000, 200_000} {
		for _, v := range vctSolvers {
			b.Run(fmt.Sprintf("budget=%d/solver=%s", budget, v.name), func(b *testing.B) {
				e := New(Options{HashMiB: 16})
				e.s.cfg.vctSolver = v.solver
				found := 0
				for i := 0; i < b.N; i++ {
					found = 0
					for _, bd := range boards {
						if _, ok := e.Solve(context.Background(), bd, budget, true); ok {
							found++
						}
					}
				}
				b.ReportMetric(float64(found), "found")
			})
		}
	}
}

// BenchmarkSearchThreads searches each benchmark position for 500 ms on one and on
// two threads and reports the depth reached and the nodes per wall second of all
// threads (Lazy SMP).
func BenchmarkSearchThreads(b *testing.B) {
	boards := benchBoards(b)
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			e := New(Options{HashMiB: 16, Threads: threads})
			b.ReportAllocs()
			var nodes uint64
			depth := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, bd := range boards {
					e.Clear()
					res := e.Search(context.Background(), bd, Limits{Time: 500 * time.Millisecond}, nil)
					nodes += res.Nodes
					depth += res.Depth
				}
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(depth)/float64(b.N*len(boards)), "depth")
		})
	}
}
