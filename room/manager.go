package room

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"sync"

	"github.com/gomoku-arena/gomoku/engine"
)

// Manager owns the live rooms of this node: it creates rooms, restores stopped ones
// from the store on first access (lazily: a restart costs nothing until a room is
// used; the server may call RestoreAll for live games at start-up so that clocks and AI
// seats resume), lists them and stops them all on shutdown. It is safe for concurrent
// use.
type Manager struct {
	store Store
	opts  Options

	mu        sync.Mutex
	rooms     map[string]*Room
	restoring map[string]chan struct{}
	closed    bool
}

// NewManager returns a Manager of rooms on store. opts apply to every room; a shared
// Scheduler is created when opts has none.
func NewManager(store Store, opts Options) *Manager {
	return &Manager{store: store, opts: opts.withDefaults(), rooms: map[string]*Room{}, restoring: map[string]chan struct{}{}}
}

// stopped forgets room r once it has stopped (on its goroutine, last).
func (m *Manager) stopped(r *Room) {
	m.mu.Lock()
	if m.rooms[r.id] == r {
		delete(m.rooms, r.id)
	}
	m.mu.Unlock()
	if m.opts.Replicator != nil {
		m.opts.Replicator.Stopped(r)
	}
}

// started registers room r as live and tells the Replicator.
func (m *Manager) started(r *Room) {
	m.rooms[r.id] = r // m.mu held
	if m.opts.Replicator != nil {
		m.opts.Replicator.Started(r)
	}
}

// Store returns the manager's store.
func (m *Manager) Store() Store { return m.store }

// Scheduler returns the AI scheduler shared by the manager's rooms.
func (m *Manager) Scheduler() *Scheduler { return m.opts.Scheduler }

// Options returns the effective options.
func (m *Manager) Options() Options { return m.opts }

// CreateRequest describes a new room. Creator (optional) sits at Color: "black",
// "white" or "" / "none" (not seated); a random colour is the caller's to draw (the
// server does, for "me":"random"). ID is generated when empty.
type CreateRequest struct {
	ID       string
	Settings Settings
	Creator  *Player
	Color    string
}

// ErrManagerClosed is returned after Shutdown.
var ErrManagerClosed = ErrShuttingDown

// Create stores a new room, starts it, seats the creator and, for rooms without human
// seats (AI vs AI), starts the game. Rooms with a machine seat are refused with
// ErrAIBusy when the AI scheduler is saturated.
func (m *Manager) Create(ctx context.Context, req CreateRequest) (*Room, error) {
	set, err := req.Settings.Normalize()
	if err != nil {
		return nil, err
	}
	machines := 0
	for _, s := range []SeatSpec{set.Black, set.White} {
		if err := m.opts.ValidateSeat(s); err != nil {
			return nil, err
		}
		if s.IsMachine() {
			machines++
		}
	}
	if machines > 0 {
		if err := m.opts.Scheduler.Admit(); err != nil {
			return nil, err
		}
	}
	color := req.Color
	switch color {
	case "", "none":
		color = ""
	case "black", "white":
	default:
		return nil, fmt.Errorf("%w: color %q", ErrBadRequest, req.Color)
	}
	if color != "" && req.Creator == nil {
		return nil, ErrUnauthorized
	}
	if color != "" && set.seat(parseColor(color)).Kind != Human {
		return nil, fmt.Errorf("%w: the %s seat is not a human seat", ErrBadRequest, color)
	}
	id := req.ID
	if id == "" {
		id = NewID()
	}
	st, first, err := NewState(id, set, m.opts.Clock.Now())
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, ErrManagerClosed
	}
	m.mu.Unlock()
	if err := m.store.Create(ctx, id, first, st.Summary()); err != nil {
		if errors.Is(err, ErrExists) {
			return nil, fmt.Errorf("%w: room id taken", ErrConflict)
		}
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	r := start(m.store, st, []Event{first}, m.roomOptions(ctx, id), m.stopped)
	m.mu.Lock()
	m.started(r)
	m.mu.Unlock()
	if color != "" {
		if _, err := r.Do(ctx, Command{Kind: CmdSit, By: *req.Creator, Color: color}); err != nil {
			return r, err
		}
	}
	if machines == 2 {
		if _, err := r.do(ctx, request{cmd: Command{Kind: CmdStart}, internal: true, reply: make(chan response, 1)}); err != nil {
			return r, err
		}
	}
	return r, nil
}

// roomOptions returns the options of room id: passive unless the Replicator says this
// node runs it.
func (m *Manager) roomOptions(ctx context.Context, id string) Options {
	o := m.opts
	if o.Replicator != nil {
		o.Passive = !o.Replicator.Active(ctx, id)
	}
	return o
}

func (s Settings) seat(c engine.Color) SeatSpec {
	if c == engine.White {
		return s.White
	}
	return s.Black
}

// Live returns the live room id on this node, or nil.
func (m *Manager) Live(id string) *Room {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.rooms[id]
}

// Get returns the live room id, restoring it from the store when it is not running
// here. ErrNoSuchRoom when the store does not know it.
func (m *Manager) Get(ctx context.Context, id string) (*Room, error) {
	for {
		m.mu.Lock()
		if m.closed {
			m.mu.Unlock()
			return nil, ErrManagerClosed
		}
		if r := m.rooms[id]; r != nil {
			m.mu.Unlock()
			return r, nil
		}
		if wait, ok := m.restoring[id]; ok {
			m.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		done := make(chan struct{})
		m.restoring[id] = done
		m.mu.Unlock()

		r, err := restore(ctx, m.store, id, m.roomOptions(ctx, id), m.stopped)
		m.mu.Lock()
		delete(m.restoring, id)
		close(done)
		if err == nil {
			if m.closed {
				m.mu.Unlock()
				_ = r.Stop(context.Background())
				return nil, ErrManagerClosed
			}
			m.started(r)
		}
		m.mu.Unlock()
		return r, err
	}
}

// Join gets (or restores) room id and subscribes to it, retrying once when the room
// stopped in between.
func (m *Manager) Join(ctx context.Context, id string, opts SubscribeOptions) (*Room, *Subscription, error) {
	var err error
	for range 3 {
		var r *Room
		if r, err = m.Get(ctx, id); err != nil {
			return nil, nil, err
		}
		var s *Subscription
		if s, err = r.Subscribe(ctx, opts); err == nil {
			return r, s, nil
		}
		if !errors.Is(err, ErrRoomClosed) {
			break
		}
		<-r.Done()
	}
	return nil, nil, err
}

// RestoreAll restores the given rooms (for example every unfinished room listed by
// the store at start-up, so that their clocks and AI seats resume). It returns how many
// are live afterwards and the first error.
func (m *Manager) RestoreAll(ctx context.Context, ids []string) (int, error) {
	n := 0
	var first error
	for _, id := range ids {
		if _, err := m.Get(ctx, id); err != nil {
			if first == nil && !errors.Is(err, ErrNoSuchRoom) {
				first = err
			}
			continue
		}
		n++
	}
	return n, first
}

// Rooms returns the live rooms on this node, by id.
func (m *Manager) Rooms() []*Room {
	m.mu.Lock()
	out := make([]*Room, 0, len(m.rooms))
	for _, r := range m.rooms {
		out = append(out, r)
	}
	m.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// List returns the summaries of the live rooms on this node.
func (m *Manager) List() []Summary {
	rooms := m.Rooms()
	out := make([]Summary, len(rooms))
	for i, r := range rooms {
		out[i] = r.State().Summary()
	}
	return out
}

// Shutdown refuses new rooms and stops every live room, waiting for their goroutines
// (or until ctx ends).
func (m *Manager) Shutdown(ctx context.Context) error {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	var first error
	for _, r := range m.Rooms() {
		if err := r.Stop(ctx); err != nil && first == nil {
			first = err
		}
	}
	return first
}

const idAlphabet = "abcdefghijkmnpqrstuvwxyz23456789"

// NewID returns a random room id of 10 characters (50 bits).
func NewID() string {
	var b [10]byte
	max := big.NewInt(int64(len(idAlphabet)))
	for i := range b {
		n, err := rand.Int(rand.Reader, max)
		if err != nil {
			panic(err)
		}
		b[i] = idAlphabet[n.Int64()]
	}
	return string(b[:])
}
