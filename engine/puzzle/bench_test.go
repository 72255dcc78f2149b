package puzzle

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
)

// benchCheck times Check of one attacker move of a shipped puzzle at its start.
func benchCheck(b *testing.B, id, move string) {
	p := shipped(b, id)
	m := pts(b, move)[0]
	e := newEngine()
	st, err := Check(context.Background(), e, p, nil, m, 0)
	require.NoError(b, err)
	require.Equal(b, Continue, st.Result)
	b.ReportAllocs()
	for b.Loop() {
		_, _ = Check(context.Background(), e, p, nil, m, 0)
	}
}

// BenchmarkCheckVCF: a four of a VCF puzzle (the reply is forced).
func BenchmarkCheckVCF(b *testing.B) { benchCheck(b, "vcf-022", "e10") }

// BenchmarkCheckVCT: the quiet first move of a VCT puzzle (every defence is searched).
func BenchmarkCheckVCT(b *testing.B) { benchCheck(b, "vct-008", "h10") }

// BenchmarkSolution: the whole line of a VCT puzzle against the best defence.
func BenchmarkSolution(b *testing.B) {
	p := shipped(b, "vct-008")
	e := newEngine()
	b.ReportAllocs()
	for b.Loop() {
		_, _ = Solution(context.Background(), e, p, nil, 0)
	}
}

// BenchmarkMine: every position of a recorded 25-move freestyle game (two VCT puzzles).
func BenchmarkMine(b *testing.B) {
	moves := recorded(b, "freestyle.psq")
	e := newEngine()
	b.ReportAllocs()
	for b.Loop() {
		_, _ = Mine(context.Background(), e, engine.Freestyle, 15, moves, MineOptions{})
	}
}
