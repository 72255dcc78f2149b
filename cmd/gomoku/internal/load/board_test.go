package load

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParsePoint(t *testing.T) {
	tests := []struct {
		in   string
		size int
		x, y int
		ok   bool
	}{
		{"h8", 15, 7, 7, true},
		{"a1", 15, 0, 0, true},
		{"o15", 15, 14, 14, true},
		{"O15", 15, 14, 14, true},
		{"t20", 20, 19, 19, true},
		{"p1", 15, 0, 0, false},
		{"a16", 15, 0, 0, false},
		{"a0", 15, 0, 0, false},
		{"h", 15, 0, 0, false},
		{"h8x", 15, 0, 0, false},
		{"", 15, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			x, y, err := ParsePoint(tt.in, tt.size)
			if !tt.ok {
				assert.ErrorIs(t, err, errBadPoint)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, []int{tt.x, tt.y}, []int{x, y})
			assert.Equal(t, strings.ToLower(tt.in), PointName(x, y))
		})
	}
}

func TestBoardPlayRemove(t *testing.T) {
	b := NewBoard(15)
	require.NoError(t, b.Play("h8"))
	assert.ErrorIs(t, b.Play("h8"), errOccupied)
	assert.Equal(t, 1, b.Ply())
	require.NoError(t, b.Remove("h8"))
	assert.ErrorIs(t, b.Remove("h8"), errBadPoint)
	assert.Equal(t, 0, b.Ply())
}

// TestChooseFillsBoard: the chooser only ever returns legal (empty, on-board) points,
// starts in the centre, and fills every point before reporting a full board.
func TestChooseFillsBoard(t *testing.T) {
	for _, near := range []float64{0, 0.8, 1} {
		for _, size := range []int{15, 20} {
			b := NewBoard(size)
			r := rand.New(rand.NewPCG(uint64(size), 9))
			first, err := b.Choose(r, near)
			require.NoError(t, err)
			assert.Equal(t, PointName(size/2, size/2), first)
			for i := range size * size {
				p, err := b.Choose(r, near)
				require.NoError(t, err, "move %d", i)
				require.NoError(t, b.Play(p), "move %d: %s", i, p)
			}
			_, err = b.Choose(r, near)
			assert.ErrorIs(t, err, errFull)
		}
	}
}

// TestChooseNearStones: with near=1 early moves stay within two lines of a stone.
func TestChooseNearStones(t *testing.T) {
	b := NewBoard(15)
	require.NoError(t, b.Play("h8"))
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		p, err := b.Choose(r, 1)
		require.NoError(t, err)
		x, y, err := ParsePoint(p, 15)
		require.NoError(t, err)
		assert.LessOrEqual(t, max(abs(x-7), abs(y-7)), 2, p)
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func BenchmarkChoose(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for b.Loop() {
		bd := NewBoard(15)
		for range 100 {
			p, _ := bd.Choose(r, 0.8)
			_ = bd.Play(p)
		}
	}
}
