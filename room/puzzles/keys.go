package puzzles

import "strings"

// Every key carries the hash tag {puzzles}: an attempt, its player's rating and the
// puzzle's rating change in one script, and any player meets any puzzle.
const (
	keyBase = "gomoku:{puzzles}:"
	// KeyStats is the hash of the puzzles' ratings and counts: puzzle id → JSON Stats.
	KeyStats = keyBase + "stats"
	// KeyMined is the zset of mined puzzle ids → time mined (Unix ms).
	KeyMined = keyBase + "mined"
)

// PuzzleKey is a mined puzzle (string, JSON).
func PuzzleKey(id string) string { return keyBase + "puzzle:" + id }

// IndexKey is a rule's puzzles by rating (zset: puzzle id → rating), where the next
// puzzle is chosen.
func IndexKey(rule string) string { return keyBase + "index:" + rule }

// PlayerKey is a player's puzzle rating (string, JSON PlayerRating).
func PlayerKey(player string) string { return keyBase + "player:" + player }

// PlayedKey is the puzzles a player has attempted (zset: puzzle id → last attempt,
// Unix ms): the first attempt of each is rated, and recent ones are not offered again.
func PlayedKey(player string) string { return keyBase + "player:" + player + ":played" }

// AttemptKey is one attempt (string, JSON Attempt, with a TTL).
func AttemptKey(id string) string { return keyBase + "attempt:" + id }

// GameMinedKey marks a finished game as mined (string, with the room's retention), so
// that a game is mined once however many times its end is reported.
func GameMinedKey(room string, game string) string { return keyBase + "game:" + room + ":" + game }

// validID rejects ids that would break the hash tag or the key grammar.
func validID(id string) bool {
	return id != "" && len(id) <= 128 && !strings.ContainsAny(id, "{}\x00\r\n\t :")
}
