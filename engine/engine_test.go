package engine

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// middleGame returns a fixed middle-game position (30 plies of a game between
// intermediate-level players, 15x15).
func middleGame(t testing.TB, rule Rule) *Board {
	t.Helper()
	moves, err := ParseMoves("h8j10k9i6i5j7j6k7i7k5f10g9k8j8i9h9g10j11j9i10k12k10l9m9l10g8f7l11e10d10", 15)
	require.NoError(t, err)
	b, err := BoardFromMoves(15, rule, moves)
	require.NoError(t, err)
	return b
}

func TestSearchLeavesBoardAlone(t *testing.T) {
	b := middleGame(t, Renju)
	before := b.Clone()
	e := New(Options{HashMiB: 2})
	res := e.Search(context.Background(), b, Limits{Time: 200 * time.Millisecond}, nil)
	require.NoError(t, b.Check(res.Move))
	assert.Equal(t, before.Moves(), b.Moves())
	assert.Equal(t, before.Hash(), b.Hash())
	assert.Equal(t, before.Outcome(), b.Outcome())
}

func TestSearchGameOverAndEmpty(t *testing.T) {
	e := New(Options{HashMiB: 1})
	b, _ := NewBoard(15, Freestyle)
	res := e.Search(context.Background(), b, Limits{Depth: 2}, nil)
	assert.Equal(t, Point{7, 7}, res.Move, "first move in the centre")
	for _, p := range mustParse(t, "a1 b1 a2 b2 a3 b3 a4 b4 a5") {
		require.NoError(t, b.Play(p))
	}
	require.True(t, b.Outcome().Over)
	res = e.Search(context.Background(), b, Limits{Depth: 2}, nil)
	assert.Equal(t, NoPoint, res.Move)
}

func mustParse(t testing.TB, s string) []Point {
	t.Helper()
	ps, err := ParseMoves(s, 15)
	require.NoError(t, err)
	return ps
}

// TestSearchAlwaysLegal searches many random positions of every rule and size with
// small node budgets; every answer must be legal.
func TestSearchAlwaysLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	e := New(Options{HashMiB: 1})
	n := 150
	if testing.Short() || raceEnabled {
		n = 40
	}
	for i := 0; i < n; i++ {
		rule := allRules[i%3]
		size := 15
		if i%5 == 0 {
			size = 20
		}
		b := randomGame(t, rng, size, rule, rng.IntN(60))
		if b.Outcome().Over {
			continue
		}
		res := e.Search(context.Background(), b, Limits{Nodes: uint64(200 + rng.IntN(5000))}, nil)
		require.NoError(t, b.Check(res.Move), "%s %d %s", rule, size, FormatMoves(b.Moves()))
	}
}

func TestLimits(t *testing.T) {
	b := middleGame(t, Freestyle)
	e := New(Options{HashMiB: 2})
	res := e.Search(context.Background(), b, Limits{Depth: 3}, nil)
	assert.LessOrEqual(t, res.Depth, 3)
	assert.NotEqual(t, NoPoint, res.Move)

	res = e.Search(context.Background(), b, Limits{Nodes: 20_000}, nil)
	assert.Less(t, res.Nodes, uint64(20_000+2*pollEvery))

	start := time.Now()
	res = e.Search(context.Background(), b, Limits{Time: 150 * time.Millisecond}, nil)
	assert.Less(t, time.Since(start), 400*time.Millisecond)
	assert.GreaterOrEqual(t, res.Depth, 1)
}

// TestCancel cancels an unlimited search; it must return promptly with the best
// move of a completed iteration. The bound is generous (a functional check that holds
// on a loaded CI host); the measured latency is logged.
func TestCancel(t *testing.T) {
	b := middleGame(t, Standard)
	e := New(Options{HashMiB: 4})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan Result, 1)
	// Cancel once an iteration has completed (the root tactics before it take a
	// budget of nodes, far longer under -race than the 300 ms waited at least).
	iterated := make(chan struct{})
	var once sync.Once
	go func() {
		done <- e.Search(ctx, b, Limits{}, func(in Info) {
			if in.Depth >= 1 {
				once.Do(func() { close(iterated) })
			}
		})
	}()
	time.Sleep(300 * time.Millisecond)
	select {
	case <-iterated:
	case <-time.After(60 * time.Second):
		t.Fatal("no iteration completed")
	}
	cancel()
	start := time.Now()
	select {
	case res := <-done:
		lat := time.Since(start)
		t.Logf("returned %v after cancel (depth %d, %d nodes)", lat, res.Depth, res.Nodes)
		bound := 100 * time.Millisecond // a functional check, not a latency measurement
		if raceEnabled {
			bound = time.Second // instrumented code runs ~20 times slower
		}
		assert.Less(t, lat, bound)
		require.NoError(t, b.Check(res.Move))
		assert.GreaterOrEqual(t, res.Depth, 1)
	case <-time.After(2 * time.Second):
		t.Fatal("search did not stop after cancel")
	}
}

func TestProgressReports(t *testing.T) {
	b := middleGame(t, Freestyle)
	e := New(Options{HashMiB: 4})
	var infos []Info
	res := e.Search(context.Background(), b, Limits{Time: 1200 * time.Millisecond}, func(in Info) {
		infos = append(infos, in)
	})
	require.NotEmpty(t, infos)
	last := infos[len(infos)-1]
	assert.Equal(t, res.Best, last.Best)
	assert.Equal(t, res.Depth, last.Depth)
	assert.LessOrEqual(t, len(infos), 16, "at most about ten reports a second")
	for i := 1; i < len(infos); i++ {
		assert.GreaterOrEqual(t, infos[i].Depth, infos[i-1].Depth)
		assert.GreaterOrEqual(t, infos[i].Nodes, infos[i-1].Nodes)
	}
	assert.NotEmpty(t, last.PV)
	assert.Equal(t, last.Best, last.PV[0])
	assert.Positive(t, last.NPS)
}

// TestConcurrentEngines runs several engines at once (run with -race).
func TestConcurrentEngines(t *testing.T) {
	var wg sync.WaitGroup
	for i, rule := range []Rule{Freestyle, Standard, Renju, Freestyle} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := middleGame(t, rule)
			e := New(Options{HashMiB: 1, Rand: uint64(i)})
			for j := 0; j < 3 && !b.Outcome().Over; j++ {
				res := e.Search(context.Background(), b, Limits{Time: 60 * time.Millisecond}, func(Info) {})
				assert.NoError(t, b.Play(res.Move))
			}
		}()
	}
	wg.Wait()
}

func TestClearAndDeterminism(t *testing.T) {
	b := middleGame(t, Renju)
	e := New(Options{HashMiB: 2})
	r1 := e.Search(context.Background(), b, Limits{Depth: 3}, nil)
	e.Clear()
	r2 := e.Search(context.Background(), b, Limits{Depth: 3}, nil)
	assert.Equal(t, r1.Move, r2.Move)
	assert.Equal(t, r1.Score, r2.Score)
	assert.Equal(t, r1.Nodes, r2.Nodes)
}

func TestBudget(t *testing.T) {
	for _, tc := range []struct {
		name       string
		l          Limits
		soft, hard time.Duration
	}{
		{"none", Limits{}, 0, 0},
		{"fixed: the whole move is planned", Limits{Time: time.Second}, time.Second, time.Second},
		{"clock", Limits{Clock: &Clock{Left: 60*time.Second + clockSafety}}, 2 * time.Second, 15 * time.Second},
		{"clock capped", Limits{Time: time.Second, Clock: &Clock{Left: 60*time.Second + clockSafety}}, 700 * time.Millisecond, time.Second},
		{"increment", Limits{Clock: &Clock{Left: 30*time.Second + clockSafety, Increment: 4 * time.Second}}, time.Second + 3*time.Second, 7500*time.Millisecond + 4*time.Second},
		{"moves to go", Limits{Clock: &Clock{Left: 10*time.Second + clockSafety, MovesToGo: 5}}, 2 * time.Second, 2500 * time.Millisecond},
		{"flagging", Limits{Clock: &Clock{Left: time.Millisecond}}, minMoveBudget, minMoveBudget},
	} {
		s, h := budget(tc.l)
		assert.Equal(t, tc.soft, s, tc.name)
		assert.Equal(t, tc.hard, h, tc.name)
	}
}

func TestTimeManager(t *testing.T) {
	const ms = time.Millisecond
	// A 100 ms move; iterations end at 2, 4, 8, 16, 32, 64 ms. With a clock of
	// plenty the optimum is 70 ms and an iteration starts when half of it fits; on a
	// fixed move time the optimum is the whole 100 ms and a quarter must fit.
	clocked := Limits{Time: 100 * ms, Clock: &Clock{Left: time.Hour}}
	fixed := Limits{Time: 100 * ms}
	for _, tc := range []struct {
		name   string
		l      Limits
		bests  []int
		scores []Score
		want   []bool
	}{
		{"clock, stable best move: stops before the optimum", clocked, []int{1, 1, 1, 1, 1}, []Score{20, 20, 20, 20, 20}, []bool{true, true, true, true, false}},
		{"clock, changing best move: searches on", clocked, []int{1, 2, 3, 4, 5}, []Score{20, 20, 20, 20, 20}, []bool{true, true, true, true, true}},
		{"clock, falling score: searches on", clocked, []int{1, 1, 1, 1, 1}, []Score{20, 20, 20, 20, -80}, []bool{true, true, true, true, true}},
		{"fixed, stable best move: stops at about 60% of the move", fixed, []int{1, 1, 1, 1, 1, 1}, []Score{20, 20, 20, 20, 20, 20}, []bool{true, true, true, true, true, false}},
		{"fixed, changing best move: the whole move", fixed, []int{1, 2, 3, 4, 5, 6}, []Score{20, 20, 20, 20, 20, 20}, []bool{true, true, true, true, true, true}},
	} {
		var tm timeManager
		o, h := budget(tc.l)
		tm.reset(o, h, tc.l.Clock == nil)
		end := 2 * ms
		for i, want := range tc.want {
			assert.Equal(t, want, tm.more(end, tc.bests[i], tc.scores[i]), "%s: iteration %d", tc.name, i+1)
			end *= 2
		}
	}
	// The root tactics took 60 ms of the 100: the first iteration (2 ms) is timed alone.
	var tm timeManager
	o, h := budget(clocked)
	tm.reset(o, h, false)
	tm.begin(60 * ms)
	assert.True(t, tm.more(62*ms, 1, 0), "the root tactics are not the first iteration's cost")

	tm.reset(0, 0, true)
	assert.True(t, tm.more(time.Hour, 1, 0), "no limit: always deeper")
}

func TestTransTable(t *testing.T) {
	tt := newTransTable(1)
	assert.Len(t, tt.buckets, 1<<14)
	tt.store(42, 3, mateIn(7), cellIndex(7, 7), 5, boundExact)
	h, ok := tt.probe(42, 5)
	require.True(t, ok)
	assert.Equal(t, mateIn(9), h.score, "mate distance re-based on the probing ply")
	assert.Equal(t, cellIndex(7, 7), h.move)
	assert.Equal(t, 5, h.depth)
	assert.Equal(t, boundExact, h.bound)
	tt.store(42, 0, -120, -1, 2, boundUpper)
	h, _ = tt.probe(42, 0)
	assert.Equal(t, 5, h.depth, "a shallower non-exact entry does not replace a deeper one")
	_, ok = tt.probe(43, 0)
	assert.False(t, ok)
	tt.clear()
	_, ok = tt.probe(42, 0)
	assert.False(t, ok)
}

func TestLevels(t *testing.T) {
	ls := Levels()
	names := []string{"beginner", "novice", "intermediate", "advanced", "expert", "master"}
	require.Len(t, ls, len(names))
	for i, l := range ls {
		assert.Equal(t, names[i], l.Name)
		got, err := LevelByName(l.Name)
		require.NoError(t, err)
		assert.Equal(t, l, got)
		if i > 0 {
			assert.GreaterOrEqual(t, l.Budget, ls[i-1].Budget)
		}
	}
	for _, l := range ls[:len(ls)-1] {
		assert.Positive(t, l.Depth, "%s is bounded by depth, not by time alone", l.Name)
	}
	_, err := LevelByName("grandmaster")
	assert.ErrorIs(t, err, ErrUnknownLevel)
	ls[0].Name = "changed"
	assert.Equal(t, "beginner", Levels()[0].Name, "Levels returns a copy")
}

// TestNodeCap: a node-capped search stops at its cap (give or take one poll
// interval) whatever time it is given, and plans its iterations by nodes.
func TestNodeCap(t *testing.T) {
	b, err := BoardFromMoves(15, Freestyle, mustParse(t, "h8 h7 i7 g9 j8 g8 g7 i9 h9 f8"))
	require.NoError(t, err)
	for _, nodes := range []uint64{5000, 20_000, 70_000} {
		r := New(Options{HashMiB: 1}).Search(context.Background(), b, Limits{Time: time.Minute, Nodes: nodes}, nil)
		require.NoError(t, b.Check(r.Move))
		assert.LessOrEqual(t, r.Nodes, nodes+pollEvery)
		assert.Greater(t, r.Nodes, nodes/3, "most of the nodes used: %+v", r.Info)
	}
}

// TestBeginnerMissesThrees: facing an open three, the beginner sometimes plays
// elsewhere; the master always defends. Both always block a four... the master does.
func TestBeginnerMissesThrees(t *testing.T) {
	b := puzzleBoard(t, Freestyle, "h8 i8 j8", "h10 j10", White)
	defences := map[Point]bool{}
	for _, p := range mustParse(t, "f8 g8 k8 l8") {
		defences[p] = true
	}
	beginner, _ := LevelByName("beginner")
	master, _ := LevelByName("master")
	master.Budget = 100 * time.Millisecond
	missed := 0
	for seed := uint64(0); seed < 20; seed++ {
		r, err := NewPlayer(beginner, Options{HashMiB: 1, Rand: seed}).Play(context.Background(), b, Limits{}, nil)
		require.NoError(t, err)
		require.NoError(t, b.Check(r.Move))
		if !defences[r.Move] {
			missed++
		}
	}
	assert.Positive(t, missed, "the beginner never missed a three")
	assert.Less(t, missed, 20, "the beginner always missed")
	p := NewPlayer(master, Options{HashMiB: 1})
	assert.Equal(t, "engine-master", p.Name())
	r, err := p.Play(context.Background(), b, Limits{}, nil)
	require.NoError(t, err)
	assert.True(t, defences[r.Move], "master played %v", r.Move)
}

// FuzzPositionVsBoard plays the fuzzer's move sequence on a Board and on the search
// position and requires them to agree on legality (renju forbidden points included),
// wins and the hash, and the incremental state to equal a from-scratch one.
func FuzzPositionVsBoard(f *testing.F) {
	f.Add([]byte{0, 112, 113, 97, 127, 98, 142, 99, 157, 100})
	f.Add([]byte{2, 112, 111, 113, 96, 114, 81, 127, 66, 142, 51, 128, 126, 143, 141})
	f.Add([]byte{1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		rule := Rule(data[0] % 3)
		b, _ := NewBoard(15, rule)
		var p position
		p.setup(b)
		for _, c := range data[1:] {
			if b.Outcome().Over {
				break
			}
			pt := Point{int(c) % 15, int(c) / 15 % 15}
			m := cellIndex(pt.X, pt.Y)
			err := b.Check(pt)
			if p.cell[m] != 0 {
				require.ErrorIs(t, err, ErrOccupied)
				continue
			}
			require.Equal(t, err == nil, p.legal(m), "legality of %v after %s", pt, FormatMoves(b.Moves()))
			if err != nil {
				continue
			}
			wins := p.lvl[m][p.side-1] == lvFive
			require.NoError(t, b.Play(pt))
			p.make(m)
			require.Equal(t, b.Outcome().Winner != Empty, wins, "win by %v after %s", pt, FormatMoves(b.Moves()))
			require.Equal(t, b.Hash(), p.hash)
		}
		requireSamePosition(t, &p)
	})
}

// TestLevelsSearch checks which search each level plays with: the plain one (no
// selectivity, the 40-node leaf VCF) below master, the selective one at master.
func TestLevelsSearch(t *testing.T) {
	plain := searchConfig{noRFP: true, noNMP: true, stepLMR: true, noThreeLMR: true, noIIR: true, noDefence: true, leafVCF: 40}
	for _, l := range Levels() {
		cfg := NewPlayer(l, Options{}).(*levelPlayer).eng.s.cfg
		cfg.noVCF, cfg.noVCT = false, false
		if l.Name == "master" {
			require.Equal(t, searchConfig{}, cfg, "master")
		} else {
			require.Equal(t, plain, cfg, l.Name)
		}
	}
}
