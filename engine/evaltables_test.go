package engine

import (
	"bytes"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// handEvalParams are the hand-set weights the engine used before its tables were
// fitted: per direction pattern, per level (double three 60, four-three 120, flex 150,
// five 300), the side to move's values weighted 9/8 and a tempo of 300 for its
// four-three point. They are the tuner's known reference point.
func handEvalParams() []int32 {
	pat := [numPatterns]int32{patNone: 0, pat1: 1, patC2: 4, patO2: 10, patC3: 12, patO3: 30,
		patC4: 32, patO4: 100, pat44: 100, pat5: 250, patOver: 0}
	lvl := [numLevels]int32{lvThreeThree: 60, lvFourThree: 120, lvFlex: 150, lvFive: 300}
	w := make([]int32, numEvalParams)
	for ci := 0; ci < 2; ci++ {
		for role, mul := range [2]int32{9, 8} {
			for q := pattern(0); q < numPatterns; q++ {
				w[patParam(ci, role, q)] = mul * pat[q]
			}
			for l := level(0); l < numLevels; l++ {
				w[levelParam(ci, role, l)] = mul * lvl[l]
			}
		}
	}
	w[tempoParam(false, lvFourThree)] = 300
	return w
}

// TestHandEvalFile checks evaldata/hand.txt, the hand-set tables (a tuner's starting
// point and the reference in strength tests), against handEvalParams; GOMOKU_WRITE_EVAL=1
// rewrites it.
func TestHandEvalFile(t *testing.T) {
	h := handEvalParams()
	tab, err := NewEvalTables([3][]int32{h, h, h})
	require.NoError(t, err)
	want := tab.Marshal("hand-set weights (the evaluation before tuning)")
	if os.Getenv("GOMOKU_WRITE_EVAL") != "" {
		require.NoError(t, os.WriteFile("evaldata/hand.txt", want, 0o644))
	}
	got, err := os.ReadFile("evaldata/hand.txt")
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
}

func TestShippedEvalTablesParse(t *testing.T) {
	tab, err := ParseEvalTables(shippedEval)
	require.NoError(t, err)
	require.Equal(t, shippedEval, tab.Marshal(commentLines(shippedEval)...), "Marshal(Parse(x)) == x")
	require.Same(t, ShippedEvalTables(), ShippedEvalTables())
}

// commentLines returns a file's comment lines without "# ".
func commentLines(data []byte) []string {
	var c []string
	for _, l := range strings.Split(string(data), "\n") {
		if s, ok := strings.CutPrefix(l, "# "); ok {
			c = append(c, s)
		}
	}
	return c
}

func TestParseEvalTablesRefusesBadFiles(t *testing.T) {
	h := handEvalParams()
	good, err := NewEvalTables([3][]int32{h, h, h})
	require.NoError(t, err)
	data := good.Marshal("test")
	// reseal recomputes the checksum so that a change is a format error, not corruption.
	reseal := func(d []byte) []byte {
		body, _, _ := cutLastLine(d)
		return appendChecksum(append([]byte(nil), body...))
	}
	big := append([]int32(nil), h...)
	big[patParam(0, roleOwn, pat5)] = 20000
	tooBig := [3][]int32{h, h, big}
	for _, tc := range []struct {
		name string
		data []byte
		want error
		msg  string
	}{
		{"flipped digit", bytes.Replace(data, []byte("black.own.pat.O3 270"), []byte("black.own.pat.O3 271"), 1), ErrEvalChecksum, "checksum"},
		{"truncated", data[:len(data)/2], ErrEvalChecksum, "checksum"},
		{"empty", nil, ErrEvalChecksum, "no checksum"},
		{"no checksum line", bytes.TrimSuffix(data, []byte("\n"))[:bytes.LastIndexByte(bytes.TrimSuffix(data, []byte("\n")), '\n')+1], ErrEvalChecksum, "no checksum"},
		{"future version", reseal(bytes.Replace(data, []byte("gomoku-eval 1"), []byte("gomoku-eval 2"), 1)), ErrEvalFormat, "header"},
		{"other parameter set", reseal(bytes.Replace(data, []byte("params "), []byte("params 9"), 1)), ErrEvalFormat, "parameter set"},
		{"renamed parameter", reseal(bytes.Replace(data, []byte("white.wait.pat.C2"), []byte("white.wait.pat.X2"), 1)), ErrEvalFormat, "want parameter white.wait.pat.C2"},
		{"rules swapped", reseal(bytes.Replace(data, []byte("rule standard"), []byte("rule renju"), 1)), ErrEvalFormat, `"rule standard"`},
		{"not a number", reseal(bytes.Replace(data, []byte("tempo.own.fourthree 300"), []byte("tempo.own.fourthree x"), 1)), ErrEvalFormat, "tempo.own.fourthree"},
		{"value out of range", func() []byte { t, _ := NewEvalTables([3][]int32{h, h, h}); t.params = tooBig; return t.Marshal() }(), ErrEvalFormat, "out of range"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseEvalTables(tc.data)
			require.ErrorIs(t, err, tc.want)
			require.ErrorContains(t, err, tc.msg)
		})
	}
	_, err = NewEvalTables([3][]int32{h, h, h[1:]})
	require.ErrorIs(t, err, ErrEvalFormat)
}

// TestHandEvalReproducesOldFormula checks the table evaluation with the hand-set
// parameters against the formula it replaced, on random positions.
func TestHandEvalReproducesOldFormula(t *testing.T) {
	h := handEvalParams()
	tab, err := NewEvalTables([3][]int32{h, h, h})
	require.NoError(t, err)
	pat := [numPatterns]int32{patNone: 0, pat1: 1, patC2: 4, patO2: 10, patC3: 12, patO3: 30,
		patC4: 32, patO4: 100, pat44: 100, pat5: 250, patOver: 0}
	lvl := [numLevels]int32{lvThreeThree: 60, lvFourThree: 120, lvFlex: 150, lvFive: 300}
	rng := rand.New(rand.NewPCG(7, 8))
	p := &position{evals: tab}
	for _, r := range []Rule{Freestyle, Standard, Renju} {
		for g := 0; g < 20; g++ {
			b := randomGame(t, rng, 15, r, 10+g)
			p.setup(b)
			var sum [2]int32
			for i := range p.cell {
				if p.cell[i] != 0 {
					continue
				}
				for ci := 0; ci < 2; ci++ {
					if p.lvl[i][ci] == lvForbidden {
						continue
					}
					for _, q := range p.pat[i][ci] {
						sum[ci] += pat[q]
					}
					sum[ci] += lvl[p.lvl[i][ci]]
				}
			}
			me := p.side - 1
			want := Score(sum[me]*9/8 - sum[1-me])
			if p.cnt[me][lvFourThree] > 0 {
				want += 300
			}
			require.Equal(t, want, p.evaluate(), "%s %s", r, FormatMoves(b.Moves()))
		}
	}
}

// TestFeaturesMatchEvaluate checks that the linear form the tuner fits is the engine's
// evaluation: for random parameters and positions, the sum of the features times the
// parameters equals evaluate() up to the rounding of eighths.
func TestFeaturesMatchEvaluate(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var params [3][]int32
	for r := range params {
		params[r] = make([]int32, numEvalParams)
		for i := range params[r] {
			params[r][i] = int32(rng.IntN(200))
		}
	}
	tab, err := NewEvalTables(params)
	require.NoError(t, err)
	p := &position{evals: tab}
	var f EvalFeaturizer
	f.pos.evals = tab
	judged := 0
	for _, r := range []Rule{Freestyle, Standard, Renju} {
		for g := 0; g < 40; g++ {
			b := randomGame(t, rng, 15, r, 4+g)
			feats, ok := f.Features(b, nil)
			if !ok {
				continue
			}
			judged++
			lin := 0.0
			for _, ft := range feats {
				lin += ft.Coef * float64(params[r][ft.Param])
			}
			p.setup(b)
			require.InDelta(t, lin, float64(p.evaluate()), 1, "%s %s", r, FormatMoves(b.Moves()))
		}
	}
	require.Greater(t, judged, 60)
}

// TestLevelsEvaluation checks which tables each level plays with: the hand-set ones
// below master, the fitted ones at master, and Options.Eval wins over both.
func TestLevelsEvaluation(t *testing.T) {
	require.NotEqual(t, ShippedEvalTables().Params(Freestyle), HandEvalTables().Params(Freestyle))
	require.Equal(t, handEvalParams(), HandEvalTables().Params(Renju))
	for _, l := range Levels() {
		got := NewPlayer(l, Options{}).(*levelPlayer).eng.s.pos.evals
		if l.Name == "master" {
			require.Nil(t, got, "master: the shipped tables (nil: the default)")
		} else {
			require.Same(t, HandEvalTables(), got, l.Name)
		}
	}
	custom, err := NewEvalTables([3][]int32{handEvalParams(), handEvalParams(), handEvalParams()})
	require.NoError(t, err)
	l, _ := LevelByName("beginner")
	require.Same(t, custom, NewPlayer(l, Options{Eval: custom}).(*levelPlayer).eng.s.pos.evals)
}
