package engine

// Evaluation.
//
// Every empty point carries, per colour, a value: the sum over the four directions of
// the weight of the pattern a stone of that colour would make there, plus a bonus for
// the combined threat (four-three, double three, ...). The position keeps the sum of
// these values per colour up to date on make/unmake (only the points whose line keys
// changed are touched), so evaluating a leaf is a subtraction and a tempo bonus.

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

// numCombos is the number of direction-pattern combinations of a point.
const numCombos = int(numPatterns) * int(numPatterns) * int(numPatterns) * int(numPatterns)

// comboIndex packs four direction patterns into an index of patternTable.combo.
func comboIndex(pats *[4]pattern) int {
	return int(pats[0]) + int(numPatterns)*(int(pats[1])+int(numPatterns)*(int(pats[2])+int(numPatterns)*int(pats[3])))
}

// comboLevel derives the combined level of a point for colour index ci under rule r
// from its four direction patterns (tabulated in patternTable.combo).
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

// combine returns the level and value of a point for colour index ci from its four
// direction patterns.
func (p *position) combine(ci int, pats *[4]pattern) (level, int32) {
	l := p.tab.combo[ci][comboIndex(pats)]
	if l == lvForbidden {
		return l, 0
	}
	return l, patternWeight[pats[0]] + patternWeight[pats[1]] + patternWeight[pats[2]] +
		patternWeight[pats[3]] + levelBonus[l]
}

// evaluate returns the static score of the position for the side to move: its value
// sum (weighted 9/8, it moves first) minus the opponent's, plus a tempo bonus when the
// side to move has a four-three point. (A double-three bonus as well tested worse
// under the standard rule.)
func (p *position) evaluate() Score {
	me := p.side - 1
	e := Score(p.sum[me]*9/8 - p.sum[1-me])
	if p.cnt[me][lvFourThree] > 0 {
		e += 300
	}
	return e
}
