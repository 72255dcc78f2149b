package room

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"sync"
)

// MemStore is an in-memory Store (and Lister) for tests and single-process use. Events
// are kept JSON-encoded, like a real store.
type MemStore struct {
	mu    sync.Mutex
	rooms map[string]*memRoom
}

type memRoom struct {
	events [][]byte
	sum    Summary
	credit TurnCredit
}

// NewMemStore returns an empty MemStore.
func NewMemStore() *MemStore { return &MemStore{rooms: map[string]*memRoom{}} }

// Create implements Store.
func (m *MemStore) Create(ctx context.Context, id string, first Event, sum Summary) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%w: %v", ErrStoreUnavailable, err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.rooms[id]; ok {
		return ErrExists
	}
	if first.Seq != 1 {
		return fmt.Errorf("room: memstore: first event has seq %d", first.Seq)
	}
	b, err := EncodeEvent(first)
	if err != nil {
		return err
	}
	m.rooms[id] = &memRoom{events: [][]byte{b}, sum: sum}
	return nil
}

// Append implements Store.
func (m *MemStore) Append(ctx context.Context, id string, expectedSeq uint64, events []Event, sum Summary) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%w: %v", ErrStoreUnavailable, err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.rooms[id]
	if !ok {
		return ErrNotFound
	}
	if uint64(len(r.events)) != expectedSeq {
		return fmt.Errorf("%w: room %s at seq %d, expected %d", ErrSeqConflict, id, len(r.events), expectedSeq)
	}
	enc := make([][]byte, len(events))
	for i, e := range events {
		if e.Seq != expectedSeq+uint64(i)+1 {
			return fmt.Errorf("room: memstore: event seq %d, want %d", e.Seq, expectedSeq+uint64(i)+1)
		}
		b, err := EncodeEvent(e)
		if err != nil {
			return err
		}
		enc[i] = b
	}
	r.events = append(r.events, enc...)
	r.sum = sum
	return nil
}

// Events implements Store.
func (m *MemStore) Events(ctx context.Context, id string, fromSeq uint64) ([]Event, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrStoreUnavailable, err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.rooms[id]
	if !ok {
		return nil, ErrNotFound
	}
	if fromSeq < 1 {
		fromSeq = 1
	}
	var out []Event
	for i := fromSeq - 1; i < uint64(len(r.events)); i++ {
		e, err := DecodeEvent(r.events[i])
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// TurnCredit implements CreditStore.
func (m *MemStore) TurnCredit(ctx context.Context, id string) (TurnCredit, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.rooms[id]
	if !ok {
		return TurnCredit{}, ErrNotFound
	}
	return r.credit, nil
}

// SetTurnCredit implements CreditStore.
func (m *MemStore) SetTurnCredit(ctx context.Context, id string, seq uint64, c TurnCredit) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.rooms[id]
	switch {
	case !ok:
		return ErrNotFound
	case uint64(len(r.events)) != seq:
		return ErrSeqConflict
	}
	r.credit = c
	return nil
}

// List implements Lister, newest activity first; the cursor is an offset.
func (m *MemStore) List(ctx context.Context, q ListQuery) ([]Summary, string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var all []Summary
	for _, r := range m.rooms {
		if (q.Status == "" || r.sum.Status == q.Status) && (q.All || r.sum.Public) {
			all = append(all, r.sum)
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].UpdatedAt != all[j].UpdatedAt {
			return all[i].UpdatedAt > all[j].UpdatedAt
		}
		return all[i].ID < all[j].ID
	})
	off, _ := strconv.Atoi(q.Cursor)
	if off < 0 || off > len(all) {
		off = len(all)
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 50
	}
	end := min(off+limit, len(all))
	next := ""
	if end < len(all) {
		next = strconv.Itoa(end)
	}
	return all[off:end], next, nil
}
