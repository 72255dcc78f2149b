package analysis

import "math"

// judge marks the moves of ps (the positions analysed so far, in order). A move is
// judged once the positions it needs are there: the one after it and, for a forced win
// the mover let go, the mover's next turn (the win may only have been delayed).
func judge(ps []Position, g Game) {
	for i := range ps {
		ps[i].Played, ps[i].Mark, ps[i].Drop = "", "", 0
		if i >= len(g.Moves) {
			continue
		}
		ps[i].Played = g.Moves[i].String()
		if i+1 >= len(ps) || i < g.OpeningPlies {
			continue
		}
		before, after := ps[i], ps[i+1]
		wb, wa := before.Black, after.Black
		if before.ToMove != "black" {
			wb, wa = 1-wb, 1-wa
		}
		drop := wb - wa
		if drop > 0 {
			ps[i].Drop = math.Round(drop*1000) / 1000
		}
		switch {
		case before.Forced != nil && ps[i].Played != before.Forced.Line[0]:
			still, known := stillWinning(ps, i, g)
			if !known {
				continue
			}
			if !still {
				ps[i].Mark = MarkMissedWin
			}
		case after.Forced != nil && before.Mate >= 0 && drop >= MistakeDrop:
			ps[i].Mark = MarkUnanswered
		case ps[i].Played == before.Best:
			// The engine's own choice: a fall is the horizon of the search, not the move.
		case drop >= BlunderDrop:
			ps[i].Mark = MarkBlunder
		case drop >= MistakeDrop:
			ps[i].Mark = MarkMistake
		}
	}
}

// stillWinning reports whether the mover of ply i, who had a forced win and played
// another move, still wins: the opponent is proven lost after the move, the move ended
// the game, or the mover has a forced win again at its next turn. known is false while
// the next turn's position is still to be analysed.
func stillWinning(ps []Position, i int, g Game) (still, known bool) {
	after := ps[i+1]
	if after.Mate < 0 {
		return true, true
	}
	moverWon := after.Black == 1
	if ps[i].ToMove != "black" {
		moverWon = after.Black == 0
	}
	if moverWon && after.Best == "" && after.Mate == 0 {
		return true, true // the move made five
	}
	if i+2 > len(g.Moves) {
		return false, true // the game ended after the move
	}
	if i+2 >= len(ps) {
		return false, false
	}
	return ps[i+2].Forced != nil, true
}
