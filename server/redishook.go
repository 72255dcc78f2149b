package server

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"
)

// latencyHook observes the duration of every Redis command and pipeline (one round trip
// each) in gomoku_redis_latency_seconds.
type latencyHook struct{ h prometheus.Histogram }

var _ redis.Hook = latencyHook{}

func (latencyHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (l latencyHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		start := time.Now()
		err := next(ctx, cmd)
		l.h.Observe(time.Since(start).Seconds())
		return err
	}
}

func (l latencyHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		start := time.Now()
		err := next(ctx, cmds)
		l.h.Observe(time.Since(start).Seconds())
		return err
	}
}
