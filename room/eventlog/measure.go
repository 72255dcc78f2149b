package eventlog

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Throughput is the result of MeasureAppend.
type Throughput struct {
	Appends  int64         // appends acknowledged
	Writers  int           // concurrent writers, one room each
	Duration time.Duration // measured time
	PerSec   float64       // Appends / Duration
}

// MeasureAppend measures the raw append throughput of this Store's Redis: for
// d, each of writers goroutines appends one move-sized event (with two
// snapshot fields and a lobby touch, like a real move) to its own scratch
// room. The scratch rooms are in no lobby set and are deleted afterwards.
// It is the yardstick for the server's moves per second (same script, same
// Redis, same run), e.g. for `gomoku load`.
func MeasureAppend(ctx context.Context, s *Store, writers int, d time.Duration) (Throughput, error) {
	if writers < 1 || d <= 0 {
		return Throughput{}, fmt.Errorf("%w: writers %d, duration %v", ErrBadRequest, writers, d)
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	prefix := "measure-" + hex.EncodeToString(b) + "-"
	event := []byte(`{"kind":"move","color":"black","point":"h8","ply":42,"clock_ms":287345,"at":1764450000000}`)
	fields := map[string]string{"ply": "42", "clock_black": "287345"}
	ids := make([]string, writers)
	for i := range ids {
		ids[i] = fmt.Sprint(prefix, i)
		if err := s.Create(ctx, ids[i], nil, event, IndexUpdate{}); err != nil {
			return Throughput{}, err
		}
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		for _, id := range ids {
			_ = s.Delete(cctx, id)
		}
	}()
	var n atomic.Int64
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	mctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	start := time.Now()
	for _, id := range ids {
		wg.Add(1)
		go func(id string) {
			defer wg.Done()
			seq := uint64(1)
			for mctx.Err() == nil {
				got, err := s.Append(mctx, id, seq, [][]byte{event}, fields, IndexUpdate{})
				if err != nil {
					if mctx.Err() == nil || !errors.Is(err, ErrUnavailable) && !errors.Is(err, context.DeadlineExceeded) {
						once.Do(func() { firstErr = err })
					}
					return
				}
				seq = got
				n.Add(1)
			}
		}(id)
	}
	wg.Wait()
	el := time.Since(start)
	t := Throughput{Appends: n.Load(), Writers: writers, Duration: el, PerSec: float64(n.Load()) / el.Seconds()}
	if ctx.Err() != nil {
		return t, ctx.Err()
	}
	return t, firstErr
}
