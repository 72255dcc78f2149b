package server

import (
	"context"
	"errors"
	"io"
	"log/slog"

	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/room"
)

// errNoMigrations: the migrations package has not landed yet.
var errNoMigrations = errors.New("server: migrations are not available in this build yet")

func migrate(ctx context.Context, c redis.UniversalClient, log *slog.Logger) error {
	log.Warn("migrations package not wired yet: skipping schema migrations")
	return nil
}

func migrateVerbose(ctx context.Context, c redis.UniversalClient, cfg Config, out io.Writer) error {
	return errNoMigrations
}

func migrateStatus(ctx context.Context, c redis.UniversalClient, out io.Writer) error {
	return errNoMigrations
}

// roomStore returns the room event store on Redis. Until the Redis room.Store adapter
// lands it is an in-memory store (not durable).
func roomStore(c redis.UniversalClient, cfg Config) room.Store { return room.NewMemStore() }
