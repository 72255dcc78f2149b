package eventlog

import "strings"

// Key prefix and fixed keys of the layout (see the package doc).
const (
	Prefix         = "gomoku:"
	KeySchema      = "gomoku:schema"
	KeyLobbyLive   = "gomoku:lobby:live"
	KeyLobbyOpen   = "gomoku:lobby:open"
	KeyLobbyFinish = "gomoku:lobby:finished"
	KeyRoomsActive = "gomoku:rooms:active"
	// FieldSeq is the state-hash field holding the room's last event seq.
	FieldSeq = "seq"
	// FieldAliveAt is the state-hash field holding when (Unix ms, the node's clock) the
	// node holding the room's lease last renewed or released it: the room was running
	// until then (see AliveAt).
	FieldAliveAt = "alive_at"
)

// Index names one lobby sorted set.
type Index string

// The lobby indexes.
const (
	IndexLive     Index = "live"     // listed rooms with a game to watch
	IndexOpen     Index = "open"     // listed rooms with a seat anyone may take
	IndexFinished Index = "finished" // listed finished games, kept for the retention period
	// IndexActive holds every room not finished, public or private, whatever
	// its lobby entries: the rooms to restore after a restart (LiveRooms).
	// The store maintains it; it cannot be named in an IndexUpdate.
	IndexActive Index = "active"
)

// Key returns the sorted-set key of the index ("" for an unknown index).
func (i Index) Key() string {
	switch i {
	case IndexLive:
		return KeyLobbyLive
	case IndexOpen:
		return KeyLobbyOpen
	case IndexFinished:
		return KeyLobbyFinish
	case IndexActive:
		return KeyRoomsActive
	}
	return ""
}

func (i Index) pos() int {
	switch i {
	case IndexLive:
		return 1
	case IndexOpen:
		return 2
	case IndexFinished:
		return 3
	case IndexActive:
		return 4
	}
	return 0
}

// ParseIndex returns the index named s ("live", "open", "finished", "active").
func ParseIndex(s string) (Index, bool) {
	i := Index(s)
	return i, i.Key() != ""
}

// RoomKeys are the keys of one room; they share the hash tag {room:ID}.
type RoomKeys struct {
	State, Events, Owner, Channel string
}

// KeysFor returns the keys of room id.
func KeysFor(id string) RoomKeys {
	base := Prefix + "{room:" + id + "}:"
	return RoomKeys{State: base + "state", Events: base + "events", Owner: base + "owner", Channel: base + "chan"}
}

// validID rejects ids that would break the hash tag or the key grammar.
func validID(id string) bool {
	return id != "" && len(id) <= 128 && !strings.ContainsAny(id, "{}\x00\r\n\t ")
}
