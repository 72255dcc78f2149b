package server

import (
	"context"

	"github.com/gomoku-arena/gomoku/room"
)

// Rooms is the room layer as the HTTP and WebSocket edge sees it. The production
// implementation adapts room.Manager (see manager_rooms.go); tests may supply their own.
type Rooms interface {
	// Create makes a room from a validated request; owner takes OwnerColor (if any).
	Create(ctx context.Context, owner Player, spec NewRoom) (RoomInfo, error)
	// Snapshot returns the current snapshot of a room (live or stored).
	Snapshot(ctx context.Context, id string) (any, error)
	// List returns one page of the lobby.
	List(ctx context.Context, q ListQuery) (ListPage, error)
	// Record returns the record of game number game of a room (0: the current or
	// last game) in format psq, sgf or json.
	Record(ctx context.Context, id string, game int, format string) ([]byte, error)
	// Join subscribes a connection to a room. who is nil for an anonymous spectator.
	// The session's Updates start with the missed events after lastSeq, or with a
	// snapshot (lastSeq 0, or Resync when the gap is no longer available).
	Join(ctx context.Context, id string, who *Player, lastSeq uint64) (Session, error)
	// Live is the number of rooms live on this node (metrics).
	Live() int
	// Ready reports whether the store is reachable.
	Ready(ctx context.Context) error
	// Shutdown stops every room, flushing what is pending, within ctx.
	Shutdown(ctx context.Context) error
}

// RoomInfo is the result of Create.
type RoomInfo struct {
	ID       string
	Snapshot any
}

// ListQuery selects a lobby page.
type ListQuery struct {
	Status string // live, open, finished
	Cursor string
	Limit  int
}

// ListPage is one lobby page; NextCursor is empty on the last page.
type ListPage struct {
	Rooms      []any  `json:"rooms"`
	NextCursor string `json:"next_cursor"`
}

// Session is one connection's membership in a room.
type Session interface {
	// Role is black, white or spectator.
	Role() string
	// Updates delivers the room's updates in order. It is closed when the subscription
	// ends; Err then says why (room.ErrSlowSubscriber for a dropped slow consumer).
	Updates() <-chan *room.Update
	Err() error
	// Do runs a command for this session's player; it returns only after the command's
	// events are stored. Reply.Seq is the seq of its last event (for a resent duplicate
	// move, Reply.Duplicate is set and Seq is the original move's seq).
	Do(ctx context.Context, cmd room.Command) (room.Reply, error)
	// Close ends the subscription (presence: the player is gone).
	Close()
}
