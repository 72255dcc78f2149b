package eventlog

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
)

// benchEvent is the size of a typical move event.
var benchEvent = []byte(`{"kind":"move","color":"black","point":"h8","ply":42,"clock_ms":287345,"at":1764450000000}`)

func benchClients(b *testing.B) []struct {
	name string
	c    func(b *testing.B) redis.UniversalClient
} {
	return []struct {
		name string
		c    func(b *testing.B) redis.UniversalClient
	}{
		{"miniredis", func(b *testing.B) redis.UniversalClient {
			m := miniredis.RunT(b)
			c := redis.NewClient(&redis.Options{Addr: m.Addr(), PoolSize: 64})
			b.Cleanup(func() { _ = c.Close() })
			return c
		}},
		{"redis-fsync-always", func(b *testing.B) redis.UniversalClient {
			s := redistest.Start(b)
			c := redis.NewClient(&redis.Options{Addr: s.Addr(), PoolSize: 64})
			b.Cleanup(func() { _ = c.Close() })
			return c
		}},
		{"redis-fsync-everysec", func(b *testing.B) redis.UniversalClient {
			s := redistest.Start(b, WithFsyncForBench("everysec"))
			c := redis.NewClient(&redis.Options{Addr: s.Addr(), PoolSize: 64})
			b.Cleanup(func() { _ = c.Close() })
			return c
		}},
	}
}

// WithFsyncForBench aliases redistest.WithFsync for readability above.
var WithFsyncForBench = redistest.WithFsync

// BenchmarkAppend: one writer, one room, one move event per Append (with
// two snapshot fields and a lobby touch), i.e. one script round trip per op.
func BenchmarkAppend(b *testing.B) {
	for _, bc := range benchClients(b) {
		b.Run(bc.name, func(b *testing.B) {
			s := New(bc.c(b))
			ctx := context.Background()
			if err := s.Create(ctx, "bench", map[string]string{"rule": "renju"}, benchEvent, Touch(time.Now(), IndexLive)); err != nil {
				b.Fatal(err)
			}
			fields := map[string]string{"ply": "42", "clock_black": "287345"}
			events := [][]byte{benchEvent}
			seq := uint64(1)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var err error
				seq, err = s.Append(ctx, "bench", seq, events, fields, Touch(time.Time{}, IndexLive))
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "appends/s")
		})
	}
}

// BenchmarkAppendParallel: many rooms appended to concurrently (each
// goroutine owns its room), the shape of a busy node.
func BenchmarkAppendParallel(b *testing.B) {
	for _, bc := range benchClients(b) {
		b.Run(bc.name, func(b *testing.B) {
			s := New(bc.c(b))
			ctx := context.Background()
			var rooms atomic.Int64
			fields := map[string]string{"ply": "42", "clock_black": "287345"}
			events := [][]byte{benchEvent}
			b.ReportAllocs()
			b.SetParallelism(16) // 16 x GOMAXPROCS writers
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				id := fmt.Sprintf("bench%d", rooms.Add(1))
				if err := s.Create(ctx, id, nil, benchEvent, Touch(time.Now(), IndexLive)); err != nil {
					b.Error(err)
					return
				}
				seq := uint64(1)
				for pb.Next() {
					var err error
					seq, err = s.Append(ctx, id, seq, events, fields, Touch(time.Time{}, IndexLive))
					if err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "appends/s")
		})
	}
}
