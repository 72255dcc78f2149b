package room

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Restoring a stored room: its events replayed and the turn in play resumed, charged
// the real time except the downtime of a restart (see State.Resume, CreditStore).

// Restore loads room id from store, replays its events and starts it. The side to move
// is charged the real time of its turn, less the turn credit the store keeps
// (CreditStore) and, when the room starts active (no other node runs it), less the time
// from the room's last known moment of running (AliveStore) until now, which is then
// stored as the turn's credit. A passive copy (another node runs the room, or ran it
// until its lease runs out) charges the real time: a hand-over is not free thinking time.
func Restore(ctx context.Context, store Store, id string, opts Options) (*Room, error) {
	return restore(ctx, store, id, opts, nil)
}

func restore(ctx context.Context, store Store, id string, opts Options, onStop func(*Room)) (*Room, error) {
	events, err := store.Events(ctx, id, 1)
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			return nil, ErrNoSuchRoom
		}
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	st, err := Replay(events)
	if err != nil {
		return nil, fmt.Errorf("%w: room %s: %v", ErrInternal, id, err)
	}
	o := opts.withDefaults()
	st = resumeTurn(ctx, store, id, st, o)
	return start(store, st, events, opts, onStop), nil
}

// resumeTurn applies the stored turn credit to st and, for a room started active, the
// downtime since its last moment of running, storing the new credit.
func resumeTurn(ctx context.Context, store Store, id string, st State, o Options) State {
	turn := st.TurnStart().UnixMilli()
	st, credit := credited(ctx, store, id, st)
	if o.Passive {
		return st
	}
	resumed := o.Clock.Now()
	st, gap := st.Resume(LastAlive(ctx, store, id), resumed)
	cs, ok := store.(CreditStore)
	if gap <= 0 || !ok {
		return st
	}
	if credit.TurnStartMS != turn {
		credit = TurnCredit{TurnStartMS: turn}
	}
	credit.MS += gap.Milliseconds()
	if err := cs.SetTurnCredit(ctx, id, st.Seq(), credit); err != nil {
		o.Logger.Warn("room: storing the turn credit failed; another node may charge the downtime", "room", id, "err", err)
	}
	return st
}

// credited returns st with the turn credit store keeps for room id (if any) applied.
func credited(ctx context.Context, store Store, id string, st State) (State, TurnCredit) {
	cs, ok := store.(CreditStore)
	if !ok {
		return st, TurnCredit{}
	}
	c, err := cs.TurnCredit(ctx, id)
	if err != nil {
		return st, TurnCredit{}
	}
	return st.Credited(c), c
}

// Resumed returns st, the replayed state of room id, as a node starting it active at
// now would run it (Restore), without storing anything: for showing a room no node
// runs.
func Resumed(ctx context.Context, store Store, id string, st State, now time.Time) State {
	st, _ = credited(ctx, store, id, st)
	st, _ = st.Resume(LastAlive(ctx, store, id), now)
	return st
}
