package rating

import "math"

// The built-in AI levels' published ratings, on the players' scale. They come from the
// level ladder in docs/strength (gomoku match between neighbouring levels, 200 games
// each at 200 ms per move, 15×15 freestyle, balanced openings): the Elo differences
// novice−beginner +135, intermediate−novice +359, advanced−intermediate +212,
// expert−advanced +228 and master−expert +295 (the selective master), anchored at
// beginner = 1000. The anchor is a choice: AI games are casual, so nothing ties the
// ladder to human ratings yet; 1000 puts a new player's 1500 between novice and
// intermediate, where a newcomer who knows the rules usually is. Keep the ladder
// in step with docs/strength when the levels change.
var levelRatings = map[string]int{
	"beginner":     1000,
	"novice":       1135,
	"intermediate": 1494,
	"advanced":     1706,
	"expert":       1934,
	"master":       2229,
}

// LevelRating returns the published rating of a built-in AI level.
func LevelRating(level string) (int, bool) {
	r, ok := levelRatings[level]
	return r, ok
}

// NearestLevel returns the built-in AI level whose published rating is nearest r (of
// two equally near, the weaker): the level that matches a player of rating r.
func NearestLevel(r float64) string {
	best, bestR := "", 0
	for name, lr := range levelRatings {
		d, bd := math.Abs(float64(lr)-r), math.Abs(float64(bestR)-r)
		if best == "" || d < bd || (d == bd && lr < bestR) {
			best, bestR = name, lr
		}
	}
	return best
}
