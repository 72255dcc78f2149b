package engine

import "sync/atomic"

// Transposition table.
//
// The table is an array of 64-byte buckets (one cache line), four 16-byte entries
// each. An entry is two words:
//
//	key   uint64  the full Zobrist key of the position (the stones; the side to move
//	              follows from the stone count), used to verify a hit
//	data  uint64  bits  0-31 score (int32, mate scores stored relative to the node)
//	              bits 32-47 best move (internal cell index, int16; -1 none)
//	              bits 48-55 depth (int8)
//	              bits 56-57 bound (1 upper, 2 lower, 3 exact; 0 empty)
//	              bits 58-63 generation (search counter, 6 bits)
//
// Replacement: a hit on the same key is overwritten unless it is from this search and
// deeper with the new entry not exact; otherwise the entry with the lowest
// depth - 4*age (age = generations since it was written) is replaced.
//
// The threads of a Lazy SMP search share one table without locks. Each word is read
// and written atomically (a plain load on amd64 and arm64), and the key word holds
// key XOR data: an entry torn by two threads writing it at once (the key of one, the
// data of the other) fails the key check and reads as a miss, so a probe never
// returns another position's data. A replacement decision made on a stale read only
// loses an entry.

type bound uint8

const (
	boundNone  bound = 0
	boundUpper bound = 1
	boundLower bound = 2
	boundExact bound = 3
)

type ttEntry struct {
	key, data atomic.Uint64 // key: the position's key XOR data
}

type ttBucket [4]ttEntry

type transTable struct {
	buckets []ttBucket
	mask    uint64
	gen     uint8
}

// newTransTable allocates a table of at most mib MiB (a power of two of buckets).
func newTransTable(mib int) *transTable {
	n := uint64(mib) << 20 / 64
	size := uint64(1)
	for size*2 <= n {
		size *= 2
	}
	return &transTable{buckets: make([]ttBucket, size), mask: size - 1}
}

// clear empties the table.
func (t *transTable) clear() {
	clear(t.buckets)
	t.gen = 0
}

// newSearch advances the generation.
func (t *transTable) newSearch() { t.gen = (t.gen + 1) & 63 }

type ttHit struct {
	score Score
	move  int
	depth int
	bound bound
}

func packTT(score Score, move, depth int, b bound, gen uint8) uint64 {
	return uint64(uint32(int32(score))) | uint64(uint16(int16(move)))<<32 |
		uint64(uint8(int8(depth)))<<48 | uint64(b)<<56 | uint64(gen)<<58
}

// probe looks key up; mate scores are converted to be relative to ply.
func (t *transTable) probe(key uint64, ply int) (ttHit, bool) {
	bk := &t.buckets[key&t.mask]
	for i := range bk {
		e := &bk[i]
		if d := e.data.Load(); d != 0 && e.key.Load()^d == key {
			h := ttHit{
				score: Score(int32(uint32(d))),
				move:  int(int16(uint16(d >> 32))),
				depth: int(int8(uint8(d >> 48))),
				bound: bound(d >> 56 & 3),
			}
			h.score = scoreFromTT(h.score, ply)
			return h, true
		}
	}
	return ttHit{}, false
}

// store records a search result for key.
func (t *transTable) store(key uint64, ply int, score Score, move, depth int, b bound) {
	bk := &t.buckets[key&t.mask]
	victim := &bk[0]
	worst := 1 << 30
	for i := range bk {
		e := &bk[i]
		d := e.data.Load()
		if d != 0 && e.key.Load()^d == key {
			victim = e
			if uint8(d>>58) == t.gen && int(int8(uint8(d>>48))) > depth && b != boundExact {
				return
			}
			if move < 0 {
				move = int(int16(uint16(d >> 32)))
			}
			break
		}
		if d == 0 {
			victim, worst = e, -1<<30
			continue
		}
		age := int((t.gen - uint8(d>>58)) & 63)
		if v := int(int8(uint8(d>>48))) - 4*age; v < worst {
			victim, worst = e, v
		}
	}
	d := packTT(scoreToTT(score, ply), move, depth, b, t.gen)
	victim.data.Store(d)
	victim.key.Store(key ^ d)
}

// scoreToTT makes a mate score relative to the node at ply.
func scoreToTT(s Score, ply int) Score {
	switch {
	case s > MateThreshold:
		return s + Score(ply)
	case s < -MateThreshold:
		return s - Score(ply)
	}
	return s
}

// scoreFromTT converts a stored mate score back to be relative to the root.
func scoreFromTT(s Score, ply int) Score {
	switch {
	case s > MateThreshold:
		return s - Score(ply)
	case s < -MateThreshold:
		return s + Score(ply)
	}
	return s
}
