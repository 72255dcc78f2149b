package engine

// Evaluation.
//
// Every empty point carries, per colour, a value: the sum over the four directions of
// the weight of the pattern a stone of that colour would make there, plus a bonus for
// the combined threat (four-three, double three, ...). The position keeps the sum of
// these values per colour up to date on make/unmake (only the points whose line keys
// changed are touched), so evaluating a leaf is a subtraction.

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

// patternWeight is the value of one direction's pattern at an empty point.
var patternWeight = [numPatterns]int32{
	patNone: 0, pat1: 1, patC2: 4, patO2: 10, patC3: 12, patO3: 30,
	patC4: 32, patO4: 100, pat44: 100, pat5: 250, patOver: 0,
}

// levelBonus is added for combined threats.
var levelBonus = [numLevels]int32{
	lvThreeThree: 60, lvFourThree: 120, lvFlex: 150, lvFive: 300,
}

// combine derives the level and value of a point for colour index ci from its four
// direction patterns.
func (p *position) combine(ci int, pats *[4]pattern) (level, int32) {
	var v int32
	n5, flex, fours, threes, over := 0, 0, 0, 0, false
	for _, q := range pats {
		v += patternWeight[q]
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
	var l level
	switch {
	case n5 > 0:
		l = lvFive
	case ci == 0 && p.rule == Renju && (over || fours >= 2):
		return lvForbidden, 0
	case flex > 0 || fours >= 2:
		l = lvFlex
	case fours == 1 && threes > 0:
		l = lvFourThree
	case fours == 1:
		l = lvFour
	case threes >= 2:
		l = lvThreeThree
	case threes == 1:
		l = lvThree
	default:
		l = lvNone
	}
	return l, v + levelBonus[l]
}

// evaluate returns the static score of the position for the side to move.
func (p *position) evaluate() Score {
	me := p.side - 1
	return Score(p.sum[me]*9/8 - p.sum[1-me])
}
