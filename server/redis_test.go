package server

import (
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
)

// realRedis starts a redis-server for the test (GOMOKU_INTEGRATION=1).
func realRedis(t *testing.T) redis.UniversalClient {
	return redistest.Start(t).Client()
}
