package engine

import "sync"

// Line patterns.
//
// For every point, each of the four directions and each colour the engine keeps a
// line key: the contents of the ten neighbouring points along that direction, five on
// each side, as seen by that colour, one base-3 digit each (0 empty, 1 own stone, 2
// blocked: an opponent stone or off the board). Slot s holds the neighbour at offset
// s-5 for s < 5 and s-4 for s >= 5 and weighs 3^s, so a key is below 3^10 = 59049 and
// a move changes a neighbour's key by one addition.
//
// A per-rule lookup table maps a key to the pattern a stone of that colour would
// make at the point along that line (59049 bytes per colour: it stays in cache). Five
// cells each side is exactly what the rules need: an exact five through the point, a
// straight four and an open three are all decided within that window (renju's
// recursive "the point making the straight four must not be forbidden" is checked at
// run time, see position.forbidden).
//
// The tables are built on first use of a rule from a deterministic classifier (a few
// milliseconds) and never written afterwards.

// pattern is what a stone of one colour would make at a point along one line.
type pattern uint8

// Patterns, weakest first (patOver is a special case, not a strength).
const (
	patNone pattern = iota // no five is possible through the point on this line
	pat1                   // a lone stone that can still grow into a five
	patC2                  // closed two: one more stone makes a closed three
	patO2                  // open two: one more stone makes an open three
	patC3                  // closed three: one more stone makes a four, not a straight four
	patO3                  // open three: one more stone makes a straight four
	patC4                  // four: exactly one point completes a five
	patO4                  // straight four: two points five apart complete a five
	pat44                  // two or more five points on one line that are not a straight four
	pat5                   // five (a win under the rule)
	patOver                // overline that does not win (renju black: forbidden)
	numPatterns
)

// fourCount returns how many fours a pattern counts as for the renju double-four rule.
func (p pattern) fourCount() int {
	switch p {
	case patC4, patO4:
		return 1
	case pat44:
		return 2
	}
	return 0
}

const (
	halfLine = 5
	keySize  = 59049 // 3^(2*halfLine)
)

// pow3 are the slot weights of a line key.
var pow3 = [2 * halfLine]uint16{1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683}

// Key digits.
const (
	digitEmpty   = 0
	digitOwn     = 1
	digitBlocked = 2
)

// keySlot returns the slot of the neighbour at offset k (k in ±1..±5).
func keySlot(k int) uint {
	if k < 0 {
		return uint(k + halfLine)
	}
	return uint(k + halfLine - 1)
}

// patternTable maps a line key of each colour to the pattern of a black ([0]) or white
// ([1]) stone, four direction patterns to their class (the multiset of the four
// patterns: the order of the directions does not matter), and a class to its combined
// level per colour.
type patternTable struct {
	line  [2][keySize]pattern
	class [numCombos]uint16
	level [2][numClasses]level
}

var (
	patternOnce   [3]sync.Once
	patternTables [3]*patternTable
)

// Prepare builds what a search under rule r needs and builds only once (the rule's
// pattern classification, the shipped and hand-set evaluation tables), if it is not
// built yet. A first search does it anyway, but before its clock starts: about 20-30
// ms on an idle machine, and several times that on a loaded one, added to the first
// move. A Gomocup brain calls it when a game or rule is set, before the manager's
// clock runs.
func Prepare(r Rule) {
	if r > Renju {
		return
	}
	patternsFor(r)
	ShippedEvalTables()
	HandEvalTables()
}

// patternsFor returns the (lazily built, then immutable) table of a rule.
func patternsFor(r Rule) *patternTable {
	patternOnce[r].Do(func() { patternTables[r] = buildPatterns(r) })
	return patternTables[r]
}

// buildPatterns classifies every key for both colours.
func buildPatterns(r Rule) *patternTable {
	t := new(patternTable)
	for ci := 0; ci < 2; ci++ {
		b := &builder{rule: r, color: Color(ci + 1), done: make([]bool, keySize), tab: &t.line[ci]}
		for k := uint32(0); k < keySize; k++ {
			b.get(k)
		}
	}
	classes := classPatterns()
	for i := range t.class {
		pats := comboPatterns(i)
		t.class[i] = uint16(classIndex(&pats))
	}
	for ci := 0; ci < 2; ci++ {
		for c := range classes {
			t.level[ci][c] = comboLevel(r, ci, &classes[c])
		}
	}
	return t
}

type builder struct {
	rule  Rule
	color Color
	done  []bool
	tab   *[keySize]pattern
}

// wins reports whether a run of n stones of the builder's colour wins.
func (b *builder) wins(n int) bool {
	switch {
	case n == 5:
		return true
	case n < 5:
		return false
	case b.rule == Freestyle:
		return true
	case b.rule == Renju:
		return b.color == White
	}
	return false
}

// line expands a key into 11 cells with the point (index 5) holding the colour;
// blocked cells hold wallColor.
func (b *builder) line(key uint32) (l [2*halfLine + 1]Color) {
	for k := -halfLine; k <= halfLine; k++ {
		if k == 0 {
			l[halfLine] = b.color
			continue
		}
		switch key / uint32(pow3[keySlot(k)]) % 3 {
		case digitOwn:
			l[k+halfLine] = b.color
		case digitBlocked:
			l[k+halfLine] = wall
		}
	}
	return l
}

// run returns the length of the run of the colour through the centre of l.
func (b *builder) run(l *[2*halfLine + 1]Color) int {
	n := 1
	for i := halfLine - 1; i >= 0 && l[i] == b.color; i-- {
		n++
	}
	for i := halfLine + 1; i < len(l) && l[i] == b.color; i++ {
		n++
	}
	return n
}

// get returns the pattern for key, classifying it on first use.
func (b *builder) get(key uint32) pattern {
	if b.done[key] {
		return b.tab[key]
	}
	p := b.classify(key)
	b.tab[key], b.done[key] = p, true
	return p
}

func (b *builder) classify(key uint32) pattern {
	l := b.line(key)
	n := b.run(&l)
	if b.wins(n) {
		return pat5
	}
	if n > 5 {
		if b.rule == Renju && b.color == Black {
			return patOver
		}
		return patNone
	}
	// Five points: empty points within four that complete a winning run through the centre.
	var five [8]int
	nf := 0
	for k := -4; k <= 4; k++ {
		if k == 0 || l[k+halfLine] != Empty {
			continue
		}
		l[k+halfLine] = b.color
		if b.wins(b.run(&l)) {
			five[nf] = k
			nf++
		}
		l[k+halfLine] = Empty
	}
	switch {
	case nf == 2 && five[1]-five[0] == 5:
		return patO4
	case nf >= 2:
		return pat44
	case nf == 1:
		return patC4
	}
	// Lower patterns: what one more stone of the colour on this line would make.
	best := patNone
	open4, four, o3, c3, o2, c2 := false, false, false, false, false, false
	for k := -4; k <= 4; k++ {
		if k == 0 || l[k+halfLine] != Empty {
			continue
		}
		switch b.get(key + uint32(pow3[keySlot(k)])) {
		case patO4:
			open4 = true
		case patC4, pat44:
			four = true
		case patO3:
			o3 = true
		case patC3:
			c3 = true
		case patO2:
			o2 = true
		case patC2:
			c2 = true
		}
	}
	switch {
	case open4:
		best = patO3
	case four:
		best = patC3
	case o3:
		best = patO2
	case c3:
		best = patC2
	case o2 || c2:
		best = pat1
	}
	return best
}
