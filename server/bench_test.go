package server

import (
	"testing"

	"github.com/gomoku-arena/gomoku/room"
)

func BenchmarkEncodeEvent(b *testing.B) {
	ev := &room.Event{Seq: 42, Kind: room.EvMove, At: 1764440000000, Game: 1, Color: "black", Point: "h8", Ply: 17, ClockMS: 281000}
	b.ReportAllocs()
	for b.Loop() {
		_ = encodeUpdate(room.Update{Event: ev})
	}
}

// BenchmarkFanOutCached is the per-connection cost of one broadcast event when many
// connections share it (the frame is encoded once).
func BenchmarkFanOutCached(b *testing.B) {
	fc := newFrameCache()
	u := &room.Update{Event: &room.Event{Seq: 42, Kind: room.EvMove, Color: "black", Point: "h8", Ply: 17}}
	fc.frames(u)
	b.ReportAllocs()
	for b.Loop() {
		_ = fc.frames(u)
	}
}
