package engine

// Evaluation.
//
// Every empty point carries, per colour, two values: what the point is worth to that
// colour when it is to move ("own") and when it is waiting ("wait"). A value is a
// lookup in the rule's evaluation table by the point's combination of four direction
// patterns (its threat class: the patterns themselves, the two strongest of them as a
// pair, and the combined level: five, flex, four-three, double three, four, three).
// The tables are fitted to self-play search scores (evaltables.go, docs/engine.md).
// The position keeps the per-colour sums of both values up to date on make/unmake
// (only the points whose line keys changed are touched), so evaluating a leaf is a
// subtraction plus tempo terms for the levels present on the board.

// level is the combined threat a stone of one colour would make at a point.
type level uint8

// Levels, weakest first. lvForbidden marks renju points that are certainly forbidden
// for black (overline or double four); double threes need the recursive check.
const (
	lvForbidden  level = iota
	lvNone             // nothing above
	lvThree            // one open three
	lvFour             // one four
	lvThreeThree       // two or more open threes
	lvFourThree        // a four and an open three
	lvFlex             // a straight four or two fours: wins next move
	lvFive             // five: wins now
	numLevels
)

// Value roles: a point's value for the colour to move and for the waiting colour.
const (
	roleOwn  = 0
	roleWait = 1
)

// valueShift: point values are in eighths of a centi-stone.
const valueShift = 3

// numCombos is the number of direction-pattern combinations of a point.
const numCombos = int(numPatterns) * int(numPatterns) * int(numPatterns) * int(numPatterns)

// numPairs is the number of unordered pairs of patterns (the two strongest directions).
const numPairs = int(numPatterns) * (int(numPatterns) + 1) / 2

// numClasses is the number of multisets of four patterns (threat classes).
const numClasses = int(numPatterns) * (int(numPatterns) + 1) * (int(numPatterns) + 2) * (int(numPatterns) + 3) / 24

// classIndex returns the class of four direction patterns: the rank of their multiset
// (sorted a >= b >= c >= d) in the order of classPatterns.
func classIndex(pats *[4]pattern) int {
	s := *pats
	for i := 1; i < 4; i++ {
		for j := i; j > 0 && s[j] > s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	// Multisets with largest element below a: C(a+3, 4); then recursively.
	a, b, c, d := int(s[0]), int(s[1]), int(s[2]), int(s[3])
	return a*(a+1)*(a+2)*(a+3)/24 + b*(b+1)*(b+2)/6 + c*(c+1)/2 + d
}

// classPatterns lists the four patterns of every class, sorted strongest first.
func classPatterns() []([4]pattern) {
	out := make([][4]pattern, numClasses)
	for a := pattern(0); a < numPatterns; a++ {
		for b := pattern(0); b <= a; b++ {
			for c := pattern(0); c <= b; c++ {
				for d := pattern(0); d <= c; d++ {
					pats := [4]pattern{a, b, c, d}
					out[classIndex(&pats)] = pats
				}
			}
		}
	}
	return out
}

// comboIndex packs four direction patterns into an index of patternTable.class.
func comboIndex(pats *[4]pattern) int {
	return int(pats[0]) + int(numPatterns)*(int(pats[1])+int(numPatterns)*(int(pats[2])+int(numPatterns)*int(pats[3])))
}

// comboPatterns unpacks a combo index.
func comboPatterns(i int) (pats [4]pattern) {
	for d := 0; d < 4; d, i = d+1, i/int(numPatterns) {
		pats[d] = pattern(i % int(numPatterns))
	}
	return pats
}

// pairIndex returns the class of the two highest of four direction patterns
// (a*(a+1)/2 + b for a >= b).
func pairIndex(pats *[4]pattern) int {
	a, b := pats[0], pattern(0)
	for _, q := range pats[1:] {
		switch {
		case q > a:
			a, b = q, a
		case q > b:
			b = q
		}
	}
	return int(a)*(int(a)+1)/2 + int(b)
}

// comboLevel derives the combined level of a point for colour index ci under rule r
// from its four direction patterns (tabulated per class in patternTable.level).
func comboLevel(r Rule, ci int, pats *[4]pattern) level {
	n5, flex, fours, threes, over := 0, 0, 0, 0, false
	for _, q := range pats {
		switch q {
		case pat5:
			n5++
		case patO4:
			flex++
			fours++
		case pat44:
			flex++
			fours += 2
		case patC4:
			fours++
		case patO3:
			threes++
		case patOver:
			over = true
		}
	}
	switch {
	case n5 > 0:
		return lvFive
	case ci == 0 && r == Renju && (over || fours >= 2):
		return lvForbidden
	case flex > 0 || fours >= 2:
		return lvFlex
	case fours == 1 && threes > 0:
		return lvFourThree
	case fours == 1:
		return lvFour
	case threes >= 2:
		return lvThreeThree
	case threes == 1:
		return lvThree
	}
	return lvNone
}

// combine returns the level and the two values of a point for colour index ci from its
// four direction patterns.
func (p *position) combine(ci int, pats *[4]pattern) (level, [2]int32) {
	e := p.ev.point[ci][p.tab.class[comboIndex(pats)]]
	return e.lvl, [2]int32{int32(e.own), int32(e.wait)}
}

// pointEntry is what the evaluation table holds per colour and class: the level and
// both values, in one load.
type pointEntry struct {
	own, wait int16
	lvl       level
}

// evaluate returns the static score of the position for the side to move: the own
// values of its points minus the waiting values of the opponent's, plus the tempo
// terms of the levels each side has on the board.
func (p *position) evaluate() Score {
	me := p.side - 1
	op := 1 - me
	e := Score((p.sum[me][roleOwn] - p.sum[op][roleWait]) >> valueShift)
	for l := lvThree; l < numLevels; l++ {
		if p.cnt[me][l] > 0 {
			e += Score(p.ev.tempoOwn[l])
		}
		if p.cnt[op][l] > 0 {
			e += Score(p.ev.tempoOpp[l])
		}
	}
	return e
}
