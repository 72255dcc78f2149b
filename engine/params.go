package engine

import (
	"errors"
	"fmt"
	"math"
)

// SearchParams are the settings of the selective search's pruning and reductions
// (selective.go, search.go, defence.go). DefaultSearchParams gives the values the
// engine plays with; other values are for tuning them (`gomoku spsa`). Every field is
// an integer so that a tuner can step through them; Options.Search clamps each into
// its range (SearchParamRanges). The levels with the plain search (Level.PlainSearch)
// keep the settings they were calibrated with.
type SearchParams struct {
	// RFPDepth is the deepest remaining depth at which reverse futility pruning
	// applies (default 7).
	RFPDepth int
	// RFPMargin is reverse futility's margin per ply of remaining depth, in
	// centi-stones (default 62).
	RFPMargin int
	// RazorMargin is razoring's margin per ply at depth 1-2 (default 143).
	RazorMargin int
	// NullMoveDepth is the least remaining depth at which a null move is tried
	// (default 3).
	NullMoveDepth int
	// NullMoveReduction is how many plies the null move's search is reduced by, one
	// more from depth 12 (default 3).
	NullMoveReduction int
	// LMRBase and LMRDivisor, in hundredths, shape the late move reductions: the i-th
	// move at depth d is reduced by LMRBase/100 + ln d · ln i / (LMRDivisor/100) plies,
	// rounded down, before the adjustments for PV nodes, killers and threes (defaults
	// 43 and 135).
	LMRBase, LMRDivisor int
	// LMRStart is the index (from 0) of the first move that may be reduced (default 1).
	LMRStart int
	// LMPDepth, LMPMoves and LMPScale set late move pruning: at a non-PV node with at
	// most LMPDepth plies to go, quiet moves from index LMPMoves + LMPScale·depth² on
	// are skipped (defaults 5, 2 and 1).
	LMPDepth, LMPMoves, LMPScale int
	// IIRDepth is the least depth at which a node without a TT move is searched one
	// ply shallower (internal iterative reduction; default 5).
	IIRDepth int
	// DefenceDepth is the least remaining depth at which a node checks the opponent's
	// VCF (the in-tree defence; default 6).
	DefenceDepth int
	// DefenceNodes is the VCF node budget of that check and of the refutation of a
	// move left out of the defences (default 20).
	DefenceNodes int
	// LMRDepth is the least remaining depth at which late moves are reduced
	// (default 3).
	LMRDepth int
	// ThreeLMROffset is how many plies less a move that makes or blocks a three is
	// reduced than a quiet move (default 1).
	ThreeLMROffset int
	// RazorDepth is the deepest remaining depth at which razoring applies (default 2).
	RazorDepth int
	// NullMoveDeepDepth is the remaining depth from which the null move is reduced one
	// ply more (default 12).
	NullMoveDeepDepth int
	// OwnThreeScore, OwnFourScore, OppThreeScore and OppFourScore are the ordering
	// bonuses of a point where the mover makes a three or a four, and where it blocks
	// the opponent's (defaults 40,000, 30,000, 30,000 and 20,000; the bonuses of the
	// bigger threats are fixed far above).
	OwnThreeScore, OwnFourScore, OppThreeScore, OppFourScore int
}

// DefaultSearchParams returns the search settings the engine plays with: tuned together
// by SPSA self-play (docs/strength/, "SPSA tuning of the search settings").
func DefaultSearchParams() SearchParams {
	return SearchParams{
		RFPDepth: 7, RFPMargin: 62, RazorMargin: 143,
		NullMoveDepth: 3, NullMoveReduction: 3,
		LMRBase: 43, LMRDivisor: 135, LMRStart: 1,
		LMPDepth: 5, LMPMoves: 2, LMPScale: 1,
		IIRDepth: 5, DefenceDepth: 6,
		DefenceNodes: 20, LMRDepth: 3, ThreeLMROffset: 1, RazorDepth: 2, NullMoveDeepDepth: 12,
		OwnThreeScore: 40_000, OwnFourScore: 30_000, OppThreeScore: 30_000, OppFourScore: 20_000,
	}
}

// SearchParamRange is a search setting's name and the values it may take.
type SearchParamRange struct {
	Name     string
	Min, Max int
}

// searchParamRanges lists the fields of SearchParams in declaration order.
var searchParamRanges = [...]SearchParamRange{
	{"RFPDepth", 0, 20}, {"RFPMargin", 0, 1000}, {"RazorMargin", 0, 2000},
	{"NullMoveDepth", 1, 20}, {"NullMoveReduction", 1, 10},
	{"LMRBase", -200, 300}, {"LMRDivisor", 25, 1000}, {"LMRStart", 1, 30},
	{"LMPDepth", 0, 12}, {"LMPMoves", 1, 100}, {"LMPScale", 0, 50},
	{"IIRDepth", 2, 30}, {"DefenceDepth", 1, 30},
	{"DefenceNodes", 1, 10_000}, {"LMRDepth", 2, 30}, {"ThreeLMROffset", 0, 10},
	{"RazorDepth", 0, 10}, {"NullMoveDeepDepth", 1, 64},
	{"OwnThreeScore", 0, 1_000_000}, {"OwnFourScore", 0, 1_000_000},
	{"OppThreeScore", 0, 1_000_000}, {"OppFourScore", 0, 1_000_000},
}

// SearchParamRanges returns the names of the SearchParams fields, in declaration
// order, with the range each is clamped to.
func SearchParamRanges() []SearchParamRange {
	return append([]SearchParamRange(nil), searchParamRanges[:]...)
}

// ErrSearchParam is returned for an unknown search setting or a value out of its range.
var ErrSearchParam = errors.New("engine: bad search parameter")

// fields returns pointers to p's fields in the order of searchParamRanges.
func (p *SearchParams) fields() [len(searchParamRanges)]*int {
	return [...]*int{
		&p.RFPDepth, &p.RFPMargin, &p.RazorMargin,
		&p.NullMoveDepth, &p.NullMoveReduction,
		&p.LMRBase, &p.LMRDivisor, &p.LMRStart,
		&p.LMPDepth, &p.LMPMoves, &p.LMPScale,
		&p.IIRDepth, &p.DefenceDepth,
		&p.DefenceNodes, &p.LMRDepth, &p.ThreeLMROffset, &p.RazorDepth, &p.NullMoveDeepDepth,
		&p.OwnThreeScore, &p.OwnFourScore, &p.OppThreeScore, &p.OppFourScore,
	}
}

// Get returns the setting called name.
func (p SearchParams) Get(name string) (int, error) {
	f := p.fields()
	for i, r := range searchParamRanges {
		if r.Name == name {
			return *f[i], nil
		}
	}
	return 0, fmt.Errorf("%w: unknown name %q", ErrSearchParam, name)
}

// Set sets the setting called name to v; v must lie in its range.
func (p *SearchParams) Set(name string, v int) error {
	f := p.fields()
	for i, r := range searchParamRanges {
		if r.Name == name {
			if v < r.Min || v > r.Max {
				return fmt.Errorf("%w: %s %d outside %d..%d", ErrSearchParam, name, v, r.Min, r.Max)
			}
			*f[i] = v
			return nil
		}
	}
	return fmt.Errorf("%w: unknown name %q", ErrSearchParam, name)
}

// clamped returns p with every field moved into its range.
func (p SearchParams) clamped() SearchParams {
	f := p.fields()
	for i, r := range searchParamRanges {
		*f[i] = min(max(*f[i], r.Min), r.Max)
	}
	return p
}

// searchParams are the settings as the search reads them, with the reduction table
// they give.
type searchParams struct {
	SearchParams
	lmr [64][64]int8 // lmr[d][i]: the reduction of the i-th move at depth d before adjustments
	// ownLevel and oppLevel are the ordering bonuses by the level a point has for the
	// mover and for the opponent (ownLevelScore and oppLevelScore with the tunable
	// entries set).
	ownLevel, oppLevel [numLevels]int32
}

// newSearchParams resolves p (clamped into range).
func newSearchParams(p SearchParams) *searchParams {
	sp := &searchParams{SearchParams: p.clamped(), ownLevel: ownLevelScore, oppLevel: oppLevelScore}
	sp.ownLevel[lvThree], sp.ownLevel[lvFour] = int32(sp.OwnThreeScore), int32(sp.OwnFourScore)
	sp.oppLevel[lvThree], sp.oppLevel[lvFour] = int32(sp.OppThreeScore), int32(sp.OppFourScore)
	base, div := float64(sp.LMRBase)/100, float64(sp.LMRDivisor)/100
	for d := 1; d < 64; d++ {
		for i := 1; i < 64; i++ {
			r := math.Floor(base + math.Log(float64(d))*math.Log(float64(i))/div)
			sp.lmr[d][i] = int8(min(max(r, 0), 63))
		}
	}
	return sp
}

// defaultParams are the default settings, resolved once; read-only.
var defaultParams = newSearchParams(DefaultSearchParams())

// plainParams are the settings of the levels with the plain search (Level.PlainSearch),
// those they were calibrated with, whatever the tuned defaults; read-only.
var plainParams = newSearchParams(SearchParams{
	RFPDepth: 6, RFPMargin: 70, RazorMargin: 150,
	NullMoveDepth: 3, NullMoveReduction: 3,
	LMRBase: 50, LMRDivisor: 150, LMRStart: 3,
	LMPDepth: 3, LMPMoves: 4, LMPScale: 4,
	IIRDepth: 4, DefenceDepth: 3,
	DefenceNodes: 20, LMRDepth: 3, ThreeLMROffset: 1, RazorDepth: 2, NullMoveDeepDepth: 12,
	OwnThreeScore: 40_000, OwnFourScore: 30_000, OppThreeScore: 30_000, OppFourScore: 20_000,
})
