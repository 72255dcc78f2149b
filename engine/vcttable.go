package engine

// The solver's transposition table. Threat sequences transpose all the time: the same
// threes and fours played in another order reach the same position, and a VCT search
// without a table proves each of them again. Every VCT node (attacker and defender)
// looks its position up here first and stores its result when it is exact.
//
// Entry layout (16 bytes): key (8: the position's hash mixed with the side to move and
// the node's role), move (2: the attacker's winning move at an attacker node), win
// (1: plies to the five, 0 for none found), depth (1: the remaining depth of a search
// that found none). A win is exact whatever the budget; "none within depth" is stored
// only when the node's search ran to its end (neither the node budget nor the clock
// stopped it), because then a new search of the node with that depth finds none
// either (the solvers use no history, so they are deterministic). The table is
// cleared at the start of every search and solve: entries store no rule.

const vctTableBits = 16

// vctEntry is one slot of the table.
type vctEntry struct {
	key   uint64
	move  int16
	win   int8
	depth int8
}

// vctTable is a direct-mapped table of 2^vctTableBits entries (1 MiB).
type vctTable [1 << vctTableBits]vctEntry

// Role keys keep attacker and defender results of one position apart: the same
// position with the same side to move means "the side to move wins" at an attacker
// node and "the side to move loses" at a defender node.
const (
	vctAttackKey uint64 = 0x3C6EF372FE94F82B
	vctDefendKey uint64 = 0xA54FF53A5F1D36F1
	vctWhiteKey  uint64 = 0x510E527FADE682D1
)

// vctKey returns the table key of the current position for a node of the given role.
func (p *position) vctKey(role uint64) uint64 {
	k := p.hash ^ role
	if p.side == White {
		k ^= vctWhiteKey
	}
	return k
}

// probe returns the stored result for key searched to depth: (win, move, true) when
// the entry decides the node, false otherwise.
func (t *vctTable) probe(key uint64, depth int) (int, int16, bool) {
	e := &t[key&(1<<vctTableBits-1)]
	if e.key != key {
		return 0, -1, false
	}
	if e.win > 0 {
		return int(e.win), e.move, int(e.win) <= depth
	}
	return 0, -1, int(e.depth) >= depth
}

// store records a node's result: a win of win plies with its move, or none within
// depth.
func (t *vctTable) store(key uint64, depth, win int, move int16) {
	t[key&(1<<vctTableBits-1)] = vctEntry{key: key, move: move, win: int8(min(win, 127)), depth: int8(min(depth, 127))}
}

// clear empties the table.
func (t *vctTable) clear() { *t = vctTable{} }
