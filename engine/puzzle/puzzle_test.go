package puzzle

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
)

func pts(t testing.TB, s string) []engine.Point {
	t.Helper()
	m, err := engine.ParseMoves(s, 15)
	require.NoError(t, err)
	return m
}

func TestParseLine(t *testing.T) {
	tests := []struct {
		name, line, wantErr string
	}{
		{"ok", "w1 | win-in-one | freestyle | 15 | black | h8 a1 i8 a2 j8 a3 k8 a15 | g8 l8 | x", ""},
		{"fields", "w1 | win-in-one | freestyle | 15 | black | h8", "want 8 fields"},
		{"category", "w1 | nope | freestyle | 15 | black | h8 i8 | a1 | x", "unknown category"},
		{"rule", "w1 | vcf | gomoku | 15 | black | h8 i8 | a1 | x", "unknown rule"},
		{"size", "w1 | vcf | renju | 9 | black | h8 i8 | a1 | x", "board size"},
		{"side", "w1 | vcf | renju | 15 | white | h8 i8 | a1 | x", "side to move"},
		{"occupied answer", "w1 | vcf | renju | 15 | black | h8 i8 | h8 | x", "occupied"},
		{"no answer", "w1 | vcf | renju | 15 | black | h8 i8 |  | x", "no answer"},
		{"bad move", "w1 | vcf | renju | 15 | black | h8 zz | a1 | x", "moves"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseLine(tt.line)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			q, err := ParseLine(p.Format())
			require.NoError(t, err)
			assert.Equal(t, p, q, "format round trip")
		})
	}
}

func TestSolverKnownAnswers(t *testing.T) {
	s := NewSolver()
	// Black h8 i8 j8 k8: win in one at g8 or l8.
	b, err := engine.BoardFromMoves(15, engine.Freestyle, pts(t, "h8a1i8a2j8a3k8a15"))
	require.NoError(t, err)
	assert.ElementsMatch(t, pts(t, "g8 l8"), WinningPoints(b, engine.Black))
	// Standard: the gap of X X X _ X X is no five.
	b, err = engine.BoardFromMoves(15, engine.Standard, pts(t, "a8o1b8o3c8o5e8o7f8o9"))
	require.NoError(t, err)
	assert.Empty(t, WinningPoints(b, engine.Black))
	// Freestyle: it is.
	b, err = engine.BoardFromMoves(15, engine.Freestyle, pts(t, "a8o1b8o3c8o5e8o7f8o9"))
	require.NoError(t, err)
	assert.Equal(t, pts(t, "d8"), WinningPoints(b, engine.Black))
	// Open three h8 i8 j8 for black, white to move: only g8 and k8 defend (after f8,
	// k8 still makes an open four g8-l8).
	b, err = engine.BoardFromMoves(15, engine.Freestyle, pts(t, "h8a1i8a15j8"))
	require.NoError(t, err)
	assert.ElementsMatch(t, pts(t, "g8 k8"), s.Defences(b, 4))
	// A four-three: black to move wins by VCF: k8 then (after the block) a five.
	b, err = engine.BoardFromMoves(15, engine.Freestyle, pts(t, "h8a1i8a3j8a5k9a7k10a9k11b14"))
	require.NoError(t, err)
	assert.Equal(t, 2, s.VCFLength(b, 5), "k8 makes a four and an open three... then a five or open four")
}

func TestSuiteVerified(t *testing.T) {
	ps, err := Shipped()
	require.NoError(t, err)
	minCount := 150
	if path := os.Getenv("PUZZLE_SUITE"); path != "" { // check another file (the generator's output)
		f, err := os.Open(path)
		require.NoError(t, err)
		defer f.Close()
		ps, err = Parse(f)
		require.NoError(t, err)
		minCount = 0
	}
	require.GreaterOrEqual(t, len(ps), minCount)
	counts := map[string]int{}
	ids := map[string]bool{}
	for _, p := range ps {
		assert.False(t, ids[p.ID], "duplicate id %s", p.ID)
		ids[p.ID] = true
		counts[p.Category]++
	}
	t.Run("verify", func(t *testing.T) {
		for i, p := range ps {
			if raceEnabled && i%8 != 0 {
				continue // the race detector slows the solver tenfold: a sample there, all without it
			}
			t.Run(p.ID, func(t *testing.T) {
				t.Parallel()
				assert.NoError(t, Verify(p, NewSolver()))
			})
		}
	})
	for _, c := range Categories {
		assert.GreaterOrEqual(t, counts[c], min(10, minCount), c)
	}
	var vcfLens []string
	for _, p := range ps {
		if p.Category == VCF {
			vcfLens = append(vcfLens, p.Note)
		}
	}
	if minCount > 0 {
		assert.Contains(t, strings.Join(vcfLens, ","), "VCF in 7")
	}
}

func FuzzParseLine(f *testing.F) {
	f.Add("w1 | win-in-one | freestyle | 15 | black | h8 a1 i8 a2 j8 a3 k8 a15 | g8 l8 | x")
	f.Add("| | | | | | |")
	f.Fuzz(func(t *testing.T, line string) {
		p, err := ParseLine(line)
		if err == nil {
			b, err := p.Board()
			require.NoError(t, err)
			for _, a := range p.Answers {
				require.NoError(t, b.Check(a))
			}
		}
	})
}

func BenchmarkVCF(b *testing.B) {
	ms, _ := engine.ParseMoves("h8a1i8a3j8a5k9a7k10a9k11b14", 15)
	bd, _ := engine.BoardFromMoves(15, engine.Freestyle, ms)
	b.ReportAllocs()
	for b.Loop() {
		NewSolver().VCFLength(bd, 4)
	}
}

func TestShippedIDs(t *testing.T) {
	ps, err := Shipped()
	require.NoError(t, err)
	require.NotEmpty(t, ps)
	ids := map[string]bool{}
	for _, p := range ps {
		assert.Regexp(t, `^[a-z-]+-\d{3}$`, p.ID)
		assert.True(t, strings.HasPrefix(p.ID, p.Category+"-"), "%s: the id names its category", p.ID)
		assert.False(t, ids[p.ID], "duplicate id %s", p.ID)
		ids[p.ID] = true
	}
	again, err := Shipped()
	require.NoError(t, err)
	again[0].Moves[0] = engine.Point{}
	assert.NotEqual(t, again[0].Moves[0], ps[0].Moves[0], "each call returns fresh slices")
}
