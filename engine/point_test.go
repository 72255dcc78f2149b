package engine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParsePoint(t *testing.T) {
	tests := []struct {
		in   string
		size int
		want Point
		err  error
	}{
		{"h8", 15, Point{7, 7}, nil},
		{"H8", 15, Point{7, 7}, nil},
		{"a1", 15, Point{0, 0}, nil},
		{"o15", 15, Point{14, 14}, nil},
		{"t20", 20, Point{19, 19}, nil},
		{"p1", 15, NoPoint, ErrBadPoint},
		{"a16", 15, NoPoint, ErrBadPoint},
		{"a0", 15, NoPoint, ErrBadPoint},
		{"a01", 15, NoPoint, ErrBadPoint},
		{"8h", 15, NoPoint, ErrBadPoint},
		{"", 15, NoPoint, ErrBadPoint},
		{"h", 15, NoPoint, ErrBadPoint},
		{"h8x", 15, NoPoint, ErrBadPoint},
		{"h8", 14, NoPoint, ErrBadSize},
	}
	for _, tt := range tests {
		got, err := ParsePoint(tt.in, tt.size)
		if tt.err != nil {
			assert.ErrorIs(t, err, tt.err, tt.in)
			continue
		}
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
		assert.Equal(t, strings.ToLower(tt.in), got.String())
	}
}

func TestMovesRoundTrip(t *testing.T) {
	for _, s := range []string{"h8i9j7", "a1b2c15o15", "h8 i9, j7", ""} {
		ms, err := ParseMoves(s, 15)
		require.NoError(t, err, s)
		again, err := ParseMoves(FormatMoves(ms), 15)
		require.NoError(t, err)
		assert.Equal(t, ms, again)
	}
	ms, err := ParseMoves("a1b12c3", 15)
	require.NoError(t, err)
	assert.Equal(t, []Point{{0, 0}, {1, 11}, {2, 2}}, ms)
	_, err = ParseMoves("h8 zz", 15)
	assert.ErrorIs(t, err, ErrBadPoint)
}

func TestGomocup(t *testing.T) {
	p, err := ParseGomocup("7,7", 15)
	require.NoError(t, err)
	assert.Equal(t, Point{7, 7}, p)
	p, err = ParseGomocup("0,0", 15) // top-left
	require.NoError(t, err)
	assert.Equal(t, "a15", p.String())
	assert.Equal(t, "0,0", FormatGomocup(p, 15))
	assert.Equal(t, "19,0", FormatGomocup(Point{19, 19}, 20))
	for _, bad := range []string{"", "1", "1,", "x,1", "15,0", "-1,3", "1,2,3"} {
		_, err := ParseGomocup(bad, 15)
		assert.ErrorIs(t, err, ErrBadPoint, bad)
	}
}

func FuzzParseMoves(f *testing.F) {
	for _, s := range []string{"h8i9j7", "a1 b2", "t20", "a123", "", "z", "h8,,i9"} {
		f.Add(s, 15)
	}
	f.Fuzz(func(t *testing.T, s string, size int) {
		ms, err := ParseMoves(s, size)
		if err != nil {
			return
		}
		for _, m := range ms {
			require.True(t, m.Valid(size))
		}
		again, err := ParseMoves(FormatMoves(ms), size)
		require.NoError(t, err)
		require.Equal(t, ms, again)
	})
}

func FuzzParseGomocup(f *testing.F) {
	for _, s := range []string{"7,7", "0,0", "19,19", ",", "a,b", " 3 , 4 "} {
		f.Add(s, 20)
	}
	f.Fuzz(func(t *testing.T, s string, size int) {
		p, err := ParseGomocup(s, size)
		if err != nil {
			return
		}
		again, err := ParseGomocup(FormatGomocup(p, size), size)
		require.NoError(t, err)
		require.Equal(t, p, again)
	})
}
