package eventlog_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/gomoku-arena/gomoku/room/eventlog"
)

// Example shows the life of a room as a room actor and a reconnecting
// client see it, on the embedded Redis.
func Example() {
	ctx := context.Background()
	quiet := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	client, closeFn, _, err := eventlog.Open(ctx, "", quiet) // "" = embedded miniredis
	if err != nil {
		panic(err)
	}
	defer closeFn()
	st := eventlog.New(client)
	now := time.Now()

	// Creating a public room: event 1, listed as open and live.
	_ = st.Create(ctx, "r1", map[string]string{"rule": "renju"}, []byte(`{"kind":"created"}`),
		eventlog.Touch(now, eventlog.IndexOpen, eventlog.IndexLive))

	// A node on which a spectator sits subscribes first, then catches up.
	msgs, unsubscribe, _ := st.Subscribe(ctx, "r1")
	defer unsubscribe()

	// The room actor stores a move, expecting seq 1; only then does it ack.
	seq, _ := st.Append(ctx, "r1", 1, [][]byte{[]byte(`{"kind":"move","point":"h8"}`)},
		map[string]string{"ply": "1"}, eventlog.Touch(now, eventlog.IndexLive))
	fmt.Println("stored up to seq", seq)

	// A stale writer loses.
	_, err = st.Append(ctx, "r1", 1, [][]byte{[]byte(`{"kind":"move","point":"a1"}`)}, nil, eventlog.IndexUpdate{})
	fmt.Println("stale writer:", errors.Is(err, eventlog.ErrSeqConflict))

	m := <-msgs
	fmt.Printf("published: seq %d %s\n", m.Seq, m.Data)

	// A client reconnecting with last_seq 1 gets what it missed.
	missed, _ := st.Events(ctx, "r1", 1)
	fmt.Printf("missed: %d event(s)\n", len(missed))

	// Game over: finished, kept for the retention period.
	_, _ = st.Append(ctx, "r1", 2, [][]byte{[]byte(`{"kind":"game_over"}`)}, nil, eventlog.FinishUpdate(now))
	ids, _, _ := st.List(ctx, eventlog.IndexFinished, "", 10)
	fmt.Println("finished:", ids)
	// Output:
	// stored up to seq 2
	// stale writer: true
	// published: seq 2 {"kind":"move","point":"h8"}
	// missed: 1 event(s)
	// finished: [r1]
}
