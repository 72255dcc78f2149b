package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/migrations"
	"github.com/gomoku-arena/gomoku/room/eventlog"
	"github.com/gomoku-arena/gomoku/room/roomstore"
)

// migrate applies pending migrations at start-up (one node at a time: the migrations
// package holds a lock in Redis).
func migrate(ctx context.Context, c redis.UniversalClient, log *slog.Logger) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := migrations.Apply(ctx, c, log); err != nil {
		return fmt.Errorf("server: migrations: %w", err)
	}
	return nil
}

func migrateVerbose(ctx context.Context, c redis.UniversalClient, cfg Config, out io.Writer) error {
	before, latest, pending, err := migrations.Status(ctx, c)
	if err != nil {
		return fmt.Errorf("server: migrations: %w", err)
	}
	if err := migrate(ctx, c, cfg.Logger); err != nil {
		return err
	}
	after, _, _, err := migrations.Status(ctx, c)
	if err != nil {
		return fmt.Errorf("server: migrations: %w", err)
	}
	fmt.Fprintf(out, "schema version %d -> %d (latest %d), %d migration(s) applied\n", before, after, latest, len(pending))
	return nil
}

func migrateStatus(ctx context.Context, c redis.UniversalClient, out io.Writer) error {
	current, latest, pending, err := migrations.Status(ctx, c)
	if err != nil {
		return fmt.Errorf("server: migrations: %w", err)
	}
	fmt.Fprintf(out, "schema version %d, latest %d\n", current, latest)
	for _, m := range pending {
		fmt.Fprintf(out, "pending %d: %s\n", m.Version, m.Name)
	}
	if len(pending) == 0 {
		fmt.Fprintln(out, "up to date")
	}
	return nil
}

// roomStore returns the room event store on Redis (room/roomstore over room/eventlog).
func roomStore(c redis.UniversalClient, cfg Config, opts ...roomstore.Option) *roomstore.Store {
	return roomstore.New(eventlog.New(c, eventlog.WithRetention(cfg.Retention), eventlog.WithLogger(cfg.Logger)), opts...)
}
