package load

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/eventlog"
	"github.com/gomoku-arena/gomoku/room/roomstore"
)

// RawResult is the throughput of the store's append script called directly, without the
// server: the ceiling the server's moves per second are compared with.
type RawResult struct {
	URL string `json:"url"`
	// Unbatched: every append was its own round trip (group commit off), the way
	// the yardstick was measured before the store batched appends across rooms.
	Unbatched bool    `json:"unbatched,omitempty"`
	Writers   int     `json:"writers"`
	Appends   uint64  `json:"appends"`
	DurationS float64 `json:"duration_s"`
	PerSec    float64 `json:"appends_per_s"`
	Latency   Summary `json:"latency"`
	Errors    uint64  `json:"errors"`
}

// RawAppend appends one move event per call (with the room summary as snapshot fields and
// the lobby touch, exactly what the server writes per move: room/roomstore.Store.Append
// over eventlog's Lua script) from `writers` goroutines, each owning a fresh room, for
// d; the rooms are deleted afterwards. The Redis client is opened like the server's
// (eventlog.Open, same URL options).
//
// With unbatched, the store sends every append on its own round trip (group commit
// off); otherwise appends of the writers share pipelines, as the server's rooms do.
func RawAppend(ctx context.Context, url string, writers int, d time.Duration, unbatched bool) (RawResult, error) {
	res := RawResult{URL: url, Writers: writers, Unbatched: unbatched}
	if writers < 1 {
		writers = 1
	}
	c, closeFn, _, err := eventlog.Open(ctx, url, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return res, err
	}
	defer closeFn()
	var opts []eventlog.Option
	if unbatched {
		opts = append(opts, eventlog.WithAppendPipelines(-1))
	}
	rs := eventlog.New(c, opts...)
	st := roomstore.New(rs)
	if err := rs.Ping(ctx); err != nil {
		return res, fmt.Errorf("load: raw redis: %w", err)
	}
	prefix := fmt.Sprintf("loadraw%d-", time.Now().UnixNano())
	hist := NewHistogram()
	var appends, errs atomic.Uint64
	var wg sync.WaitGroup
	runCtx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	start := time.Now()
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rr, err := newRawRoom(ctx, st, fmt.Sprintf("%s%d", prefix, w), uint64(w))
			if err != nil {
				errs.Add(1)
				return
			}
			for runCtx.Err() == nil {
				t0 := time.Now()
				if err := rr.appendMove(runCtx); err != nil {
					if runCtx.Err() == nil {
						errs.Add(1)
					}
					continue
				}
				hist.Record(time.Since(t0))
				appends.Add(1)
			}
		}()
	}
	wg.Wait()
	el := time.Since(start)
	for w := range writers {
		_ = rs.Delete(context.WithoutCancel(ctx), fmt.Sprintf("%s%d", prefix, w))
	}
	res.Appends, res.Errors, res.DurationS = appends.Load(), errs.Load(), el.Seconds()
	res.PerSec = float64(res.Appends) / el.Seconds()
	res.Latency = hist.Summary()
	return res, nil
}

// rawRoom is one room written the way the server writes a game: created with its
// summary, then one move event per append (random legal moves, a new game every 200).
type rawRoom struct {
	st  *roomstore.Store
	id  string
	sum room.Summary
	b   *Board
	rng *rand.Rand
	seq uint64
}

// newRawRoom creates room id in st.
func newRawRoom(ctx context.Context, st *roomstore.Store, id string, seed uint64) (*rawRoom, error) {
	now := time.Now().UnixMilli()
	sum := room.Summary{ID: id, Status: "live", Public: true, Rule: "freestyle", Size: 15,
		Black: room.SeatSummary{Kind: "human", PlayerID: "p_0123456789abcdef", Name: "load-black"},
		White: room.SeatSummary{Kind: "human", PlayerID: "p_fedcba9876543210", Name: "load-white"},
		Game:  1, Seq: 1, CreatedAt: now, UpdatedAt: now}
	if err := st.Create(ctx, id, room.Event{Seq: 1, Kind: room.EvCreated, At: now, Game: 1, Room: id}, sum); err != nil {
		return nil, err
	}
	return &rawRoom{st: st, id: id, sum: sum, b: NewBoard(15), rng: rand.New(rand.NewPCG(seed, 1)), seq: 1}, nil
}

// appendMove appends the next move event with the room summary, as the server does.
func (r *rawRoom) appendMove(ctx context.Context) error {
	if r.b.Ply() >= 200 {
		r.b = NewBoard(15)
	}
	p, _ := r.b.Choose(r.rng, 0.8)
	_ = r.b.Play(p)
	color := "black"
	if r.b.Ply()%2 == 0 {
		color = "white"
	}
	at := time.Now().UnixMilli()
	ev := room.Event{Seq: r.seq + 1, Kind: room.EvMove, At: at, Game: 1, Color: color, Point: p, Ply: r.b.Ply() - 1}
	r.sum.Ply, r.sum.Seq, r.sum.UpdatedAt = r.b.Ply(), r.seq+1, at
	if err := r.st.Append(ctx, r.id, r.seq, []room.Event{ev}, r.sum); err != nil {
		return err
	}
	r.seq++
	return nil
}
