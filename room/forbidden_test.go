package room

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func renjuRoom(s *Settings) { s.Rule = "renju" }

func TestForbiddenKnownAnswers(t *testing.T) {
	tests := []struct {
		name  string
		rule  func(*Settings)
		moves []string // alternately black, white from the empty board
		want  []ForbiddenPoint
	}{
		{"empty board", renjuRoom, nil, nil},
		{"double three", renjuRoom, []string{"g8", "a1", "h8", "a3", "i9", "a5", "i10", "a7"},
			[]ForbiddenPoint{{Point: "i8", Kind: "double_three"}}},
		{"double four", renjuRoom, []string{"e8", "a1", "f8", "a3", "g8", "a5", "i5", "a7", "i6", "a9", "i7", "a11"},
			[]ForbiddenPoint{{Point: "i8", Kind: "double_four"}}},
		{"overline", renjuRoom, []string{"d8", "a1", "e8", "a3", "f8", "a5", "h8", "a7", "i8", "a9"},
			[]ForbiddenPoint{{Point: "g8", Kind: "overline"}}},
		{"white to move: none", renjuRoom, []string{"g8", "a1", "h8", "a3", "i9", "a5", "i10"}, nil},
		{"freestyle: none", nil, []string{"g8", "a1", "h8", "a3", "i9", "a5", "i10", "a7"}, nil},
		{"standard: none", func(s *Settings) { s.Rule = "standard" }, []string{"g8", "a1", "h8", "a3", "i9", "a5", "i10", "a7"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := play(t, seated(t, tt.rule), tt.moves...)
			assert.Equal(t, tt.want, s.Forbidden())
			assert.Equal(t, tt.want, s.Snapshot(t0).Forbidden)
		})
	}
}

func TestForbiddenOnMoveAndTakebackEvents(t *testing.T) {
	s := play(t, seated(t, renjuRoom), "g8", "a1", "h8", "a3", "i9", "a5", "i10")
	// White's move leaves black to move with a forbidden point: the move event says so.
	s, evs := apply(t, s, Command{Kind: CmdMove, By: bob, Ply: 7, Point: "a7"}, t0.Add(time.Minute))
	require.Equal(t, []EventKind{EvMove}, kinds(evs))
	assert.Equal(t, []ForbiddenPoint{{Point: "i8", Kind: "double_three"}}, evs[0].Forbidden)
	// Black's move leaves white to move: nothing is forbidden for white.
	s, evs = apply(t, s, Command{Kind: CmdMove, By: alice, Ply: 8, Point: "o15"}, t0.Add(time.Minute))
	assert.Empty(t, evs[0].Forbidden)
	// A takeback to black's turn brings the forbidden point back.
	s, _ = apply(t, s, Command{Kind: CmdTakebackRequest, By: alice}, t0.Add(time.Minute))
	s, evs = apply(t, s, Command{Kind: CmdTakebackAccept, By: bob}, t0.Add(time.Minute))
	require.Equal(t, []EventKind{EvTakeback}, kinds(evs))
	assert.Equal(t, []ForbiddenPoint{{Point: "i8", Kind: "double_three"}}, evs[0].Forbidden)
	// Over: nothing is forbidden any more.
	s, evs = apply(t, s, Command{Kind: CmdResign, By: alice}, t0.Add(time.Minute))
	require.Equal(t, []EventKind{EvGameOver}, kinds(evs))
	assert.Nil(t, s.Forbidden())
	assert.Nil(t, s.Snapshot(t0).Forbidden)
}

func TestForbiddenWireShape(t *testing.T) {
	s := play(t, seated(t, renjuRoom), "g8", "a1", "h8", "a3", "i9", "a5", "i10")
	_, evs := apply(t, s, Command{Kind: CmdMove, By: bob, Ply: 7, Point: "a7"}, t0.Add(time.Minute))
	data, err := EncodeEvent(evs[0])
	require.NoError(t, err)
	assert.Contains(t, string(data), `"forbidden":[{"point":"i8","kind":"double_three"}]`)
	back, err := DecodeEvent(data)
	require.NoError(t, err, "stored events with forbidden points decode strictly")
	assert.Equal(t, evs[0], back)

	snap, err := json.Marshal(play(t, seated(t, nil), "h8").Snapshot(t0))
	require.NoError(t, err)
	assert.NotContains(t, string(snap), "forbidden", "omitted when empty")
}

// BenchmarkForbidden measures the forbidden-point scan of a renju middle game (run on every
// move or takeback that leaves black to move).
func BenchmarkForbidden(b *testing.B) {
	s := play(b, seated(b, renjuRoom), "h8", "h9", "i8", "g9", "j9", "i9", "g7", "f6", "i7", "j10",
		"h6", "g5", "k8", "l9", "i5", "i6")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = s.Forbidden()
	}
}
