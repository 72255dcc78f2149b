package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// The lobby WebSocket (GET /ws/lobby) is a conn like a room's (reader, writer, bounded
// queues, slow clients dropped) whose session is a lobbySession: the hub pushes the
// open and live lists to it whenever they change, and quick pairing (pairing.go) pushes
// its seek's fate.

// Lobby timing and limits.
const (
	// listsEvery is how often a node reads the lobby lists while someone watches them;
	// a change reaches every lobby connection of the node at once.
	listsEvery = time.Second
	// listsLimit is the length of each pushed list (GET /api/rooms pages further).
	listsLimit = 20
	// lobbyQueue is how many pushes a lobby connection may lag behind before it is
	// dropped as a slow consumer (1013).
	lobbyQueue = 16
)

// lobbySession is one lobby connection's membership in the lobby (a Session).
type lobbySession struct {
	hub    *lobbyHub
	player *Player // nil for a visitor without a token
	nonce  string  // names this connection's seek in the pool
	// order keeps a seek's answer (seeking) ahead of its match (paired), which
	// another goroutine may learn first.
	order sync.Mutex

	mu      sync.Mutex
	updates chan *room.Update
	closed  bool
	err     error
	seek    *activeSeek // the seek in progress, nil when none
}

// activeSeek is a session's seek while it waits.
type activeSeek struct {
	pool  string
	since time.Time
}

func (l *lobbySession) Role() string                 { return "lobby" }
func (l *lobbySession) Updates() <-chan *room.Update { return l.updates }

func (l *lobbySession) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// Do is not used: lobby messages are handled by the connection (lobbyCommand).
func (l *lobbySession) Do(context.Context, room.Command) (room.Reply, error) {
	return room.Reply{}, protocol.Errorf(protocol.CodeUnknownType, "not a lobby message")
}

// Close leaves the lobby; a seek in progress is cancelled.
func (l *lobbySession) Close() { l.hub.leave(l) }

// push queues frames for the writer without blocking; a full queue ends the session
// as a slow consumer.
func (l *lobbySession) push(frames ...[]byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	select {
	case l.updates <- room.Pushed(frames...):
	default:
		l.closed, l.err = true, room.ErrSlowSubscriber
		close(l.updates)
	}
}

// takeSeek ends the session's seek if it is the one in pool ("" any) and reports
// whether it was: exactly one caller delivers a seek's outcome.
func (l *lobbySession) takeSeek(pool string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seek == nil || (pool != "" && l.seek.pool != pool) {
		return false
	}
	l.seek = nil
	return true
}

// lobbyHub is a node's lobby: its sessions and the lists they are shown.
type lobbyHub struct {
	s *Server

	mu       sync.Mutex
	sessions map[*lobbySession]struct{}
	lists    []byte // the last lists frame pushed (nil before the first)
	wake     chan struct{}
}

func newLobbyHub(s *Server) *lobbyHub {
	return &lobbyHub{s: s, sessions: map[*lobbySession]struct{}{}, wake: make(chan struct{}, 1)}
}

// join registers a session for player (nil: a visitor) and queues the current lists.
func (h *lobbyHub) join(p *Player) *lobbySession {
	var b [12]byte
	_, _ = rand.Read(b[:])
	l := &lobbySession{hub: h, player: p, nonce: hex.EncodeToString(b[:]), updates: make(chan *room.Update, lobbyQueue)}
	h.mu.Lock()
	h.sessions[l] = struct{}{}
	lists := h.lists
	h.mu.Unlock()
	if lists != nil {
		l.push(lists)
	}
	select { // the first lobby connection starts the lists loop's reads at once
	case h.wake <- struct{}{}:
	default:
	}
	return l
}

// leave forgets a session and cancels its seek.
func (h *lobbyHub) leave(l *lobbySession) {
	h.mu.Lock()
	delete(h.sessions, l)
	h.mu.Unlock()
	if h.s.pairing != nil {
		h.s.pairing.leave(l)
	}
}

// count returns the number of lobby connections.
func (h *lobbyHub) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.sessions)
}

// run reads the lists every listsEvery while anyone watches and pushes them when they
// changed, until ctx ends.
func (h *lobbyHub) run(ctx context.Context) {
	t := time.NewTicker(listsEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-h.wake:
		}
		if h.count() == 0 {
			continue
		}
		frame, err := h.read(ctx)
		if err != nil {
			continue // the store is away: keep the last lists, try again
		}
		h.mu.Lock()
		same := bytes.Equal(frame, h.lists)
		h.lists = frame
		var to []*lobbySession
		if !same {
			to = make([]*lobbySession, 0, len(h.sessions))
			for l := range h.sessions {
				to = append(to, l)
			}
		}
		h.mu.Unlock()
		for _, l := range to {
			l.push(frame)
		}
	}
}

// read returns the lists frame as the store has it now.
func (h *lobbyHub) read(ctx context.Context) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, listsEvery)
	defer cancel()
	msg := protocol.LobbyLists{Type: protocol.TypeLobby}
	for _, q := range []struct {
		status string
		dst    *[]any
	}{{"open", &msg.Open}, {"live", &msg.Live}} {
		page, err := h.s.rooms.List(ctx, ListQuery{Status: q.status, Limit: listsLimit})
		if err != nil {
			return nil, err
		}
		*q.dst = page.Rooms
		if *q.dst == nil {
			*q.dst = []any{}
		}
	}
	return protocol.Encode(msg), nil
}
