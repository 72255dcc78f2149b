package server

import (
	"sync"

	"github.com/gomoku-arena/gomoku/room"
)

// frameCache remembers the encoded frames of the most recent room updates. A room
// broadcasts one Update value (same pointers) to every subscriber, so with many
// spectators each event is encoded once instead of once per connection.
type frameCache struct {
	mu   sync.Mutex
	m    map[any][][]byte
	ring []any
	next int
}

const frameCacheSize = 512

func newFrameCache() *frameCache {
	return &frameCache{m: make(map[any][][]byte, frameCacheSize), ring: make([]any, frameCacheSize)}
}

// key returns the pointer that identifies u's payload.
func updateKey(u *room.Update) any {
	switch {
	case u.Event != nil:
		return u.Event
	case u.Snapshot != nil:
		return nil // per subscriber; never shared
	case u.AI != nil:
		return u.AI
	case u.Presence != nil:
		return u.Presence
	}
	return nil
}

// frames returns the frames of u, encoding them at most once per shared update.
func (fc *frameCache) frames(u *room.Update) [][]byte {
	k := updateKey(u)
	if k == nil {
		return encodeUpdate(*u)
	}
	fc.mu.Lock()
	f, ok := fc.m[k]
	fc.mu.Unlock()
	if ok {
		return f
	}
	f = encodeUpdate(*u)
	fc.mu.Lock()
	if _, ok := fc.m[k]; !ok {
		if old := fc.ring[fc.next]; old != nil {
			delete(fc.m, old)
		}
		fc.ring[fc.next] = k
		fc.next = (fc.next + 1) % len(fc.ring)
		fc.m[k] = f
	}
	fc.mu.Unlock()
	return f
}
