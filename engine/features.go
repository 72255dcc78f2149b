package engine

// EvalFeature is one term of the evaluation as a linear function of its parameters:
// the evaluation of a position (side to move's view) is the sum over its features of
// Coef times the parameter Param (an index into EvalParamNames), up to the rounding
// of the point values' eighths.
type EvalFeature struct {
	Param int
	Coef  float64
}

// EvalFeaturizer extracts evaluation features for tuning. It holds a search board
// (about 100 KiB); reuse one per goroutine.
type EvalFeaturizer struct {
	pos    position
	counts [numEvalParams]int32
}

// Features appends the features of b to dst. ok is false for positions the static
// evaluation does not judge: the side to move can win at once (a five point, or a
// legal straight four or double four point) or must block a five.
func (f *EvalFeaturizer) Features(b *Board, dst []EvalFeature) (_ []EvalFeature, ok bool) {
	p := &f.pos
	p.setup(b)
	me := int(p.side - 1)
	op := 1 - me
	if p.cnt[me][lvFive] > 0 || p.cnt[op][lvFive] > 0 || (p.cnt[me][lvFlex] > 0 && p.findLevel(me, lvFlex, true) >= 0) {
		return dst, false
	}
	f.counts = [numEvalParams]int32{}
	for i := range p.cell {
		if p.cell[i] != 0 {
			continue
		}
		for ci, role := range [2]int{roleOwn, roleWait} {
			ci ^= me // the side to move's points in the own role, the opponent's waiting
			l := p.lvl[i][ci]
			if l == lvForbidden {
				continue
			}
			pats := &p.pat[i][ci]
			for _, q := range pats {
				f.counts[patParam(ci, role, q)]++
			}
			f.counts[levelParam(ci, role, l)]++
			f.counts[pairParam(ci, role, pairIndex(pats))]++
		}
	}
	for l := lvThree; l < numLevels; l++ {
		if p.cnt[me][l] > 0 {
			f.counts[tempoParam(false, l)] = 1
		}
		if p.cnt[op][l] > 0 {
			f.counts[tempoParam(true, l)] = 1
		}
	}
	for i, n := range f.counts {
		if n == 0 {
			continue
		}
		c := float64(n)
		switch {
		case i >= tempoParamBase:
		case (i/paramsPerRole)%2 == roleOwn:
			c /= 1 << valueShift
		default:
			c /= -(1 << valueShift)
		}
		dst = append(dst, EvalFeature{Param: i, Coef: c})
	}
	return dst, true
}
