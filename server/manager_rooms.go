package server

import (
	"context"
	"errors"
	"time"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/eventlog"
	"github.com/gomoku-arena/gomoku/room/ledger"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// ManagerRooms adapts a room.Manager (and its Store) to Rooms.
type ManagerRooms struct {
	M *room.Manager
	// Ping checks the store (nil: always ready).
	Ping func(ctx context.Context) error
	// Ledger gives seated players their ratings (nil: none shown).
	Ledger *ledger.Ledger
}

var _ Rooms = (*ManagerRooms)(nil)

// Create implements Rooms.
func (a *ManagerRooms) Create(ctx context.Context, owner Player, spec NewRoom) (RoomInfo, error) {
	req := room.CreateRequest{Settings: spec.Settings, Color: spec.OwnerColor}
	if spec.Rated && !owner.IsAccount() {
		return RoomInfo{}, room.ErrAccountNeeded // refused before the room exists
	}
	if spec.OwnerColor != "" {
		p := roomPlayer(ctx, a.Ledger, owner, spec.Settings)
		req.Creator = &p
	}
	r, err := a.M.Create(ctx, req)
	if err != nil {
		return RoomInfo{}, err
	}
	return RoomInfo{ID: r.ID(), Snapshot: r.Snapshot()}, nil
}

// state returns the room's current state: the live one, else replayed from the store
// (without starting the room).
func (a *ManagerRooms) state(ctx context.Context, id string) (room.State, *room.Room, error) {
	if r := a.M.Live(id); r != nil {
		return r.State(), r, nil
	}
	events, err := a.M.Store().Events(ctx, id, 1)
	if errors.Is(err, room.ErrNotFound) {
		return room.State{}, nil, room.ErrNoSuchRoom
	}
	if err != nil {
		return room.State{}, nil, err
	}
	st, err := room.Replay(events)
	if err != nil {
		return room.State{}, nil, err
	}
	return st, nil, nil
}

// Snapshot implements Rooms.
func (a *ManagerRooms) Snapshot(ctx context.Context, id string) (any, error) {
	st, r, err := a.state(ctx, id)
	if err != nil {
		return nil, err
	}
	if r != nil {
		return r.Snapshot(), nil
	}
	// A stored room that no node runs right now (e.g. after a restart) is shown as it
	// will be restored: the side to move is not charged for the time nobody ran it.
	now := time.Now()
	return room.Resumed(ctx, a.M.Store(), id, st, now).Snapshot(now), nil
}

// List implements Rooms: the store's lobby index when it has one, else this node's rooms.
func (a *ManagerRooms) List(ctx context.Context, q ListQuery) (ListPage, error) {
	var sums []room.Summary
	var next string
	if l, ok := a.M.Store().(room.Lister); ok {
		var err error
		sums, next, err = l.List(ctx, room.ListQuery{Status: q.Status, Cursor: q.Cursor, Limit: q.Limit})
		if errors.Is(err, eventlog.ErrBadRequest) {
			return ListPage{}, protocol.Errorf(protocol.CodeBadRequest, `bad "cursor": use next_cursor from the previous page`)
		}
		if err != nil {
			return ListPage{}, err
		}
	} else {
		for _, s := range a.M.List() {
			if s.Public && s.Status == q.Status && len(sums) < q.Limit {
				sums = append(sums, s)
			}
		}
	}
	page := ListPage{Rooms: make([]any, 0, len(sums)), NextCursor: next}
	for _, s := range sums {
		page.Rooms = append(page.Rooms, s)
	}
	return page, nil
}

// Record implements Rooms: every game, the current one included, is rebuilt from the
// room's whole stored event log (every acknowledged move is in it).
func (a *ManagerRooms) Record(ctx context.Context, id string, game int, format string) ([]byte, error) {
	events, err := a.M.Store().Events(ctx, id, 1)
	if errors.Is(err, room.ErrNotFound) {
		return nil, room.ErrNoSuchRoom
	}
	if err != nil {
		return nil, err
	}
	if game == 0 && len(events) > 0 {
		game = max(events[len(events)-1].Game, 1)
	}
	st, games, span, err := room.ReplayGame(events, game)
	if err != nil {
		return nil, err
	}
	return formatRecord(newGameRecord(st, games, span), format)
}

// Join implements Rooms.
func (a *ManagerRooms) Join(ctx context.Context, id string, who *Player, lastSeq uint64) (Session, error) {
	var viewer room.Player
	if who != nil {
		viewer = room.Player{ID: who.ID, Name: who.Name}
	}
	r, sub, err := a.M.Join(ctx, id, room.SubscribeOptions{FromSeq: lastSeq, Viewer: viewer})
	if err != nil {
		return nil, err
	}
	role := "spectator"
	if who != nil {
		if c := r.State().ColorOf(who.ID); c != 0 {
			role = c.String()
		}
		viewer = roomPlayer(ctx, a.Ledger, *who, r.State().Settings())
	}
	return &roomSession{r: r, sub: sub, by: viewer, role: role}, nil
}

// Live implements Rooms.
func (a *ManagerRooms) Live() int { return len(a.M.Rooms()) }

// Ready implements Rooms.
func (a *ManagerRooms) Ready(ctx context.Context) error {
	if a.Ping == nil {
		return nil
	}
	return a.Ping(ctx)
}

// Shutdown implements Rooms.
func (a *ManagerRooms) Shutdown(ctx context.Context) error { return a.M.Shutdown(ctx) }

type roomSession struct {
	r    *room.Room
	sub  *room.Subscription
	by   room.Player
	role string
}

func (s *roomSession) Role() string                 { return s.role }
func (s *roomSession) Updates() <-chan *room.Update { return s.sub.C }
func (s *roomSession) Err() error                   { return s.sub.Err() }
func (s *roomSession) Close()                       { s.sub.Close() }

func (s *roomSession) Do(ctx context.Context, cmd room.Command) (room.Reply, error) {
	cmd.By = s.by
	return s.r.Do(ctx, cmd)
}
