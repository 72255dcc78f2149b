package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/gomoku-arena/gomoku/room"
)

// benchSession is a Session whose updates the benchmark queues itself.
type benchSession struct{ ch chan *room.Update }

func (s *benchSession) Role() string                 { return "spectator" }
func (s *benchSession) Updates() <-chan *room.Update { return s.ch }
func (s *benchSession) Err() error                   { return nil }
func (s *benchSession) Close()                       {}
func (s *benchSession) Do(context.Context, room.Command) (room.Reply, error) {
	return room.Reply{}, nil
}

// benchConn returns a server-side conn joined to a benchSession over loopback TCP,
// with a client that reads and discards everything.
func benchConn(b *testing.B) (*conn, *benchSession) {
	b.Helper()
	srvWS := make(chan *websocket.Conn, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err == nil {
			srvWS <- ws
		}
	}))
	b.Cleanup(ts.Close)
	client, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(ts.URL, "http"), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = client.Close() })
	go func() { _, _ = io.Copy(io.Discard, client.NetConn()) }()
	ws := <-srvWS
	b.Cleanup(func() { _ = ws.Close() })
	cfg := DefaultConfig()
	cfg.Logger = slog.New(slog.DiscardHandler)
	s := &Server{cfg: cfg, metrics: newMetrics()}
	sess := &benchSession{ch: make(chan *room.Update, 256)}
	return newConn(s, ws, "", ""), sess
}

// BenchmarkWriteUpdates is the writer's cost per frame for a burst of k room updates
// (one move event each, shared by every subscriber as a room broadcasts them): each
// frame is one gorilla WriteMessage, one write syscall.
func BenchmarkWriteUpdates(b *testing.B) {
	for _, k := range []int{1, 4, 16} {
		updates := make([]*room.Update, k)
		for i := range updates {
			updates[i] = room.Update{Event: &room.Event{Seq: uint64(40 + i), Kind: room.EvMove, At: 1764440000000,
				Game: 1, Color: "black", Point: "h8", Ply: 17 + i, ClockMS: 281000}}.Encoded()
		}
		b.Run(fmt.Sprintf("burst=%d", k), func(b *testing.B) {
			c, sess := benchConn(b)
			b.ReportAllocs()
			for b.Loop() {
				for _, u := range updates {
					sess.ch <- u
				}
				for range updates {
					for _, f := range (<-sess.ch).Frames() {
						if !c.write(f) {
							b.Fatal("connection ended")
						}
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*k), "ns/frame")
		})
	}
}
