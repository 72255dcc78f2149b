// Package rating is the pure part of Gomoku Arena's ratings: the Glicko-2 system
// (Mark Glickman, "Example of the Glicko-2 system", 2013) and the rating pools a game
// is rated in (rule × speed class). It does no I/O; the ledger that stores ratings
// and applies each game's change exactly once lives in package ratings.
//
// # Rating periods
//
// Glicko-2 updates ratings once per rating period from all the games of that period.
// A live server cannot wait for a period to close, so, as lichess does, every rated
// game is its own rating period: when it ends, each player is updated from that one
// game against the opponent's rating as it was before the game (Pair). Time without
// games still counts: before a game, a player's RD grows as Glickman's step 6 does for
// a player who did not compete, by one idle period per PeriodLength since the player's
// last rated game (Age), so that a player who comes back after months is provisional
// again and moves quickly.
package rating

import (
	"fmt"
	"math"
	"time"
)

// System constants.
const (
	// Tau constrains the change of volatility over time (Glickman suggests 0.3..1.2;
	// his worked example uses 0.5).
	Tau = 0.5
	// Initial values of an unrated player.
	InitialR   = 1500.0
	InitialRD  = 350.0
	InitialVol = 0.06
	// MaxRD caps the RD (an unrated player's); MinRD keeps very active players'
	// ratings able to move.
	MaxRD = 350.0
	MinRD = 45.0
	// ProvisionalRD: a rating whose RD is above it is provisional (shown with "?").
	ProvisionalRD = 110.0
	// PeriodLength is the idle time that counts as one rating period without games
	// (about lichess's 0.21436 periods per day).
	PeriodLength = 112 * time.Hour

	scale   = 173.7178 // Glicko-2 scale factor (400/ln 10)
	epsilon = 0.000001 // convergence tolerance of the volatility iteration
)

// Rating is a Glicko-2 rating on the Glicko scale: R the rating, RD the rating
// deviation, Vol the volatility.
type Rating struct {
	R   float64 `json:"r"`
	RD  float64 `json:"rd"`
	Vol float64 `json:"vol"`
}

// Initial returns the rating of a player who has not played a rated game in a pool.
func Initial() Rating { return Rating{R: InitialR, RD: InitialRD, Vol: InitialVol} }

// Provisional reports whether r is not yet reliable (RD > ProvisionalRD).
func (r Rating) Provisional() bool { return r.RD > ProvisionalRD }

// Display returns the rounded rating and a "?" when it is provisional ("1500?").
func (r Rating) Display() string {
	s := fmt.Sprintf("%d", int(math.Round(r.R)))
	if r.Provisional() {
		s += "?"
	}
	return s
}

// Valid reports whether r holds finite values in range (a stored rating that is not
// is replaced by Initial by the ledger).
func (r Rating) Valid() bool {
	finite := func(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
	return finite(r.R) && finite(r.RD) && finite(r.Vol) && r.RD > 0 && r.RD <= MaxRD && r.Vol > 0 && r.Vol < 1
}

// Result is one game of a rating period from the player's side: the opponent's
// rating before the game and the player's score (1 win, 0.5 draw, 0 loss).
type Result struct {
	Opponent Rating
	Score    float64
}

// Scores of a game.
const (
	Win  = 1.0
	Draw = 0.5
	Loss = 0.0
)

func g(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

func expect(mu, muj, phij float64) float64 { return 1 / (1 + math.Exp(-g(phij)*(mu-muj))) }

// Update returns r after one rating period with the given results (Glickman's steps
// 2 to 8). With no results only the RD grows (step 6).
func Update(r Rating, results []Result) Rating {
	mu := (r.R - InitialR) / scale
	phi := r.RD / scale
	if len(results) == 0 {
		return clampRD(Rating{R: r.R, RD: scale * math.Sqrt(phi*phi+r.Vol*r.Vol), Vol: r.Vol})
	}
	var vInv, sum float64
	for _, res := range results {
		muj := (res.Opponent.R - InitialR) / scale
		phij := res.Opponent.RD / scale
		gj := g(phij)
		e := expect(mu, muj, phij)
		vInv += gj * gj * e * (1 - e)
		sum += gj * (res.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	sigma := volatility(phi, v, delta, r.Vol)
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	return clampRD(Rating{R: scale*muNew + InitialR, RD: scale * phiNew, Vol: sigma})
}

// volatility is step 5: the Illinois algorithm of Glickman's paper.
func volatility(phi, v, delta, sigma float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-d)/(2*d*d) - (x-a)/(Tau*Tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*Tau) < 0 {
			k++
		}
		B = a - k*Tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}

func clampRD(r Rating) Rating {
	r.RD = math.Max(MinRD, math.Min(MaxRD, r.RD))
	return r
}

// Age returns r after idle time without rated games: its RD grows as for
// idle/PeriodLength rating periods without games (Glickman's step 6, applied for a
// fractional number of periods), up to MaxRD.
func Age(r Rating, idle time.Duration) Rating {
	if idle <= 0 {
		return r
	}
	n := float64(idle) / float64(PeriodLength)
	phi := r.RD / scale
	return clampRD(Rating{R: r.R, RD: scale * math.Sqrt(phi*phi+n*r.Vol*r.Vol), Vol: r.Vol})
}

// Pair returns both players' ratings after one rated game between them, each updated
// from that game as its own rating period against the other's rating before the game;
// scoreA is a's score (Win, Draw or Loss).
func Pair(a, b Rating, scoreA float64) (Rating, Rating) {
	return Update(a, []Result{{Opponent: b, Score: scoreA}}),
		Update(b, []Result{{Opponent: a, Score: 1 - scoreA}})
}
